package rodagent_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rodagent/rodagent"
	. "github.com/rodagent/rodagent" //nolint:staticcheck // locators read best unqualified
)

// openControl completes a custom dropdown with only snapshots and ref
// clicks: click the trigger, look, click the option.
func chooseOption(t *testing.T, p *rodagent.Page, triggerRole, trigger, option string) {
	t.Helper()
	ctx := testCtx(t, 30*time.Second)
	s := snapshot(t, p)
	if st, err := p.Click(ctx, refNamed(t, s, triggerRole, trigger)); err != nil || !st.OK() {
		t.Fatalf("click %s %q: %s, %v", triggerRole, trigger, st, err)
	}
	s2 := lookUntil(t, p, "option", option)
	opt := refNamed(t, s2, "option", option)
	if st, err := p.Click(ctx, opt); err != nil || !st.OK() {
		t.Fatalf("click option %q (%s): %s, %v\n%s", option, opt, st, err, s2)
	}
}

// lookUntil snapshots until a ref appears, as an agent does when a menu or
// dialog is still mounting (each look first waits for the page to render a
// frame), a bounded number of times.
func lookUntil(t *testing.T, p *rodagent.Page, role, name string) *rodagent.Snapshot {
	t.Helper()
	s := snapshot(t, p)
	for i := 0; i < 20 && !hasRef(s, role, name); i++ {
		s = snapshot(t, p)
	}
	return s
}

func hasRef(s *rodagent.Snapshot, role, name string) bool {
	for _, r := range s.Refs {
		if r.Role == role && r.Name == name {
			return true
		}
	}
	return false
}

func resultText(t *testing.T, p *rodagent.Page) string {
	t.Helper()
	var s string
	eval(t, p, "document.getElementById('result').textContent", &s)
	return s
}

func TestComponentLibrarySelects(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		page, role, trigger, option, want string
	}{
		{"components/radix-select.html", "combobox", "Fruit", "Banana", "banana"},
		{"components/shadcn-select.html", "combobox", "Theme", "Dark", "dark"},
		{"components/mui-select.html", "combobox", "Age", "Twenty", "20"},
	} {
		t.Run(tc.page, func(t *testing.T) {
			t.Parallel() // a tab of its own
			p := open(t, tc.page)
			waitReady(t, p)
			chooseOption(t, p, tc.role, tc.trigger, tc.option)
			if got := resultText(t, p); got != tc.want {
				t.Fatalf("result = %q, want %q; log %v", got, tc.want, logEntries(t, p))
			}
			s := snapshot(t, p)
			r, _ := s.Ref(refNamed(t, s, tc.role, tc.trigger))
			if !strings.Contains(r.Value, tc.option) {
				t.Errorf("the trigger should now show %q: %+v", tc.option, r)
			}
		})
	}
}

// Select chooses in a dropdown drawn with ARIA as a person does: it opens
// the control, waits for the option and clicks it, each a Click with its
// checks; the page's own record says the choice landed. An option that is
// not there is not_found naming the options that are.
func TestSelectOnCustomDropdowns(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		page, role, trigger, option, want string
	}{
		{"components/radix-select.html", "combobox", "Fruit", "Banana", "banana"},
		{"components/mui-select.html", "combobox", "Age", "Twenty", "20"},
		{"components/headless-listbox.html", "button", "Assignee Select a person", "Tom Cook", "assignee=Tom Cook"},
		{"components/react-select.html", "combobox", "Flavour", "Pistachio", "flavour=pistachio"},
		{"components3/shoelace-select.html", "combobox", "Priority", "High", "priority=high"},
		{"components3/md-select.html", "combobox", "Color", "Blue", "color=blue"},
		{"components3/jqui-selectmenu.html", "combobox", "Select a speed", "Fast", "speed=fast"},
		{"components4/fluent-dropdown.html", "combobox", "Best pet", "Dog", "pet=dog"},
		{"components4/prime-dropdown.html", "button", "Select a City", "Rome", "city=RM"},
		{"components4/carbon-dropdown.html", "combobox", "Region", "EU West", "region=eu-west"},
		// a multi-select stays open between choices
		{"components4/prime-multiselect.html", "combobox", "Cities", "London,Paris", "cities=LDN,PRS"},
	} {
		t.Run(tc.page, func(t *testing.T) {
			t.Parallel()
			ctx := testCtx(t, 60*time.Second)
			p := open(t, tc.page)
			waitReady(t, p)
			s := snapshot(t, p)
			if st, err := p.Select(ctx, refNamed(t, s, tc.role, tc.trigger), strings.Split(tc.option, ",")...); err != nil || !st.OK() {
				t.Fatalf("Select %q: %s %v", tc.option, st, err)
			}
			if got := resultText(t, p); got != tc.want {
				t.Errorf("result = %q, want %q; log %v", got, tc.want, logEntries(t, p))
			}
		})
	}
	t.Run("missing option", func(t *testing.T) {
		t.Parallel()
		ctx := testCtx(t, 60*time.Second)
		p := open(t, "components/radix-select.html")
		waitReady(t, p)
		s := snapshot(t, p)
		st, err := p.Select(ctx, refNamed(t, s, "combobox", "Fruit"), "Durian")
		wantStatus(t, "Select a missing option", st, err, rodagent.NotFound, rodagent.ErrNotFound)
		if err != nil && (!strings.Contains(err.Error(), `no option "Durian"`) || !strings.Contains(err.Error(), `"Banana"`)) {
			t.Errorf("not_found should name the options there are: %v", err)
		}
	})
}

func TestMUIAutocomplete(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t, 30*time.Second)
	p := open(t, "components/mui-autocomplete.html")
	waitReady(t, p)
	s := snapshot(t, p)
	country := refNamed(t, s, "combobox", "Country")
	if st, err := p.Type(ctx, country, "fra"); err != nil || !st.OK() {
		t.Fatalf("Type: %s, %v", st, err)
	}
	s2 := lookUntil(t, p, "option", "France")
	var options []string
	for _, r := range s2.Refs {
		if r.Role == "option" {
			options = append(options, r.Name)
		}
	}
	if fmt.Sprint(options) != "[France]" {
		t.Fatalf("typing filters the options to France, got %v\n%s", options, s2)
	}
	if _, err := p.Click(ctx, refNamed(t, s2, "option", "France")); err != nil {
		t.Fatal(err)
	}
	if got := resultText(t, p); got != "France" {
		t.Fatalf("result = %q; log %v", got, logEntries(t, p))
	}
}

func TestModalDialogForm(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t, 30*time.Second)
	p := open(t, "components/modal-form.html")
	waitReady(t, p)
	s := snapshot(t, p)
	if _, err := p.Click(ctx, refNamed(t, s, "button", "Open settings")); err != nil {
		t.Fatal(err)
	}
	s2 := lookUntil(t, p, "textbox", "Display name")
	if !strings.Contains(s2.String(), `[dialog "Settings" modal]`) {
		t.Errorf("a modal dialog shows as structure:\n%s", s2)
	}
	if _, err := p.Type(ctx, refNamed(t, s2, "textbox", "Display name"), "Ada Lovelace"); err != nil {
		t.Fatal(err)
	}
	if st, err := p.Check(ctx, refNamed(t, s2, "checkbox", "Email me")); err != nil || st != rodagent.Ready {
		t.Fatalf("Check: %s, %v", st, err)
	}
	if _, err := p.Click(ctx, refNamed(t, s2, "button", "Save")); err != nil {
		t.Fatal(err)
	}
	if got := resultText(t, p); got != `{"displayName":"Ada Lovelace","emailMe":true}` {
		t.Errorf("saved = %s", got)
	}
}

func TestNativeControlsAndLabels(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t, 30*time.Second)
	p := open(t, "native.html")
	s := snapshot(t, p)
	country := refNamed(t, s, "combobox", "Country")
	if st, err := p.Select(ctx, country, "Germany"); err != nil || st != rodagent.Ready { // by label
		t.Fatalf("Select by label: %s, %v", st, err)
	}
	if _, err := p.Select(ctx, country, "es"); err != nil { // by value
		t.Fatal(err)
	}
	var events []string
	eval(t, p, "window.__log.filter(r => r.id === 'country').map(r => r.type + ':' + r.value)", &events)
	if fmt.Sprint(events) != "[input:de change:de input:es change:es]" {
		t.Errorf("select events: %v", events)
	}
	st, err := p.Select(ctx, country, "Atlantis")
	wantStatus(t, "missing option", st, err, rodagent.NotFound, rodagent.ErrNotFound)

	// Clicking the label text toggles its control: the hit test accepts a
	// label of the target as receiving the click.
	remember := refNamed(t, s, "checkbox", "Remember me")
	if st, err := p.Check(ctx, remember); err != nil || st != rodagent.Ready {
		t.Fatalf("Check: %s, %v", st, err)
	}
	if st, err := p.Check(ctx, remember); err != nil || st != rodagent.Ready {
		t.Fatalf("Check on a checked box is a no-op: %s, %v", st, err)
	}
	if st, err := p.Uncheck(ctx, remember); err != nil || st != rodagent.Ready {
		t.Fatalf("Uncheck: %s, %v", st, err)
	}
	pro := refNamed(t, s, "radio", "Pro")
	if st, err := p.Check(ctx, pro); err != nil || st != rodagent.Ready {
		t.Fatalf("Check radio: %s, %v", st, err)
	}
	var changes []string
	eval(t, p, "window.__log.filter(r => r.type === 'change' && r.id !== 'country').map(r => r.id + '=' + r.checked + ':' + r.isTrusted)", &changes)
	if fmt.Sprint(changes) != "[remember=true:true remember=false:true plan-pro=true:true]" {
		t.Errorf("checkbox/radio changes: %v", changes)
	}
	// Text in a contenteditable and a textarea.
	if _, err := p.Type(ctx, refNamed(t, s, "textbox", "Notes"), "rich text"); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Type(ctx, refNamed(t, s, "textbox", "Bio"), "line one"); err != nil {
		t.Fatal(err)
	}
	var notes, bio string
	eval(t, p, "document.querySelector('[aria-label=Notes]').textContent", &notes)
	eval(t, p, "document.getElementById('bio').value", &bio)
	if notes != "rich text" || bio != "line one" {
		t.Errorf("notes %q, bio %q", notes, bio)
	}
}

func TestLabelCoveringItsControl(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t, 30*time.Second)
	p := open(t, "native.html")
	// Custom-styled checkbox: the input sits under its own label (a common
	// pattern); the hit test lands on the label, which forwards the click.
	eval(t, p, `(() => {
		const l = document.getElementById('remember-label'), i = document.getElementById('remember');
		const r = i.getBoundingClientRect();
		Object.assign(l.style, {position: 'absolute', left: (r.left - 4) + 'px', top: (r.top - 4) + 'px',
			width: (r.width + 40) + 'px', height: (r.height + 8) + 'px', zIndex: 5, background: 'rgba(0,0,0,0.01)'});
		return 1; })()`, nil)
	s := snapshot(t, p)
	if st, err := p.Click(ctx, refNamed(t, s, "checkbox", "Remember me")); err != nil || st != rodagent.Ready {
		t.Fatalf("click through the label: %s, %v", st, err)
	}
	var checked bool
	eval(t, p, "document.getElementById('remember').checked", &checked)
	if !checked {
		t.Errorf("the label forwarded the click, the box should be checked")
	}
}

func TestEventSequenceIsAPerson(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t, 30*time.Second)
	p := open(t, "recorder.html")
	s := snapshot(t, p)
	if _, err := p.Click(ctx, refNamed(t, s, "button", "Target")); err != nil {
		t.Fatal(err)
	}
	var click []string
	eval(t, p, "window.__log.filter(r => r.target === 'target').map(r => r.type + (r.isTrusted ? '' : '!untrusted'))", &click)
	want := "[pointerover pointerenter mouseover mouseenter pointermove mousemove pointerdown mousedown focus focusin pointerup mouseup click]"
	if fmt.Sprint(click) != want {
		t.Errorf("Click events:\n got %v\nwant %s", click, want)
	}
	if _, err := p.Type(ctx, refNamed(t, s, "textbox", "Field"), "ab"); err != nil {
		t.Fatal(err)
	}
	var typed []map[string]any
	eval(t, p, "window.__log.filter(r => r.target === 'field' && (r.type === 'beforeinput' || r.type === 'input'))", &typed)
	// A keystroke per character: beforeinput and input of type insertText for each.
	if len(typed) != 4 || typed[0]["inputType"] != "insertText" || typed[1]["data"] != "a" || typed[3]["data"] != "b" || typed[3]["isTrusted"] != true {
		t.Errorf("Type should produce trusted beforeinput/input of type insertText per character: %v", typed)
	}
	var v string
	eval(t, p, "document.getElementById('field').value", &v)
	if v != "ab" {
		t.Errorf("field value %q", v)
	}
	if _, err := p.DblClick(ctx, refNamed(t, s, "button", "Target")); err != nil {
		t.Fatal(err)
	}
	var dbl int
	eval(t, p, "window.__log.filter(r => r.type === 'dblclick' && r.isTrusted).length", &dbl)
	if dbl != 1 {
		t.Errorf("DblClick: %d dblclick events", dbl)
	}
	if _, err := p.Hover(ctx, refNamed(t, s, "textbox", "Field")); err != nil {
		t.Fatal(err)
	}
	var hovered bool
	eval(t, p, "window.__log.some(r => r.type === 'mouseover' && r.target === 'field')", &hovered)
	if !hovered {
		t.Errorf("Hover: no mouseover on the field")
	}
}

func TestUploadBothWays(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t, 30*time.Second)
	dir := t.TempDir()
	a := filepath.Join(dir, "a.txt")
	b := filepath.Join(dir, "b.txt")
	os.WriteFile(a, []byte("alpha file"), 0o644)
	os.WriteFile(b, []byte("bravo file"), 0o644)
	p := open(t, "upload.html")
	s := snapshot(t, p)
	// An <input type=file> shows as a button named by its label.
	if st, err := p.Upload(ctx, refNamed(t, s, "button", "Attachments"), a, b); err != nil || st != rodagent.Ready {
		t.Fatalf("Upload to the input: %s, %v", st, err)
	}
	// A drop zone that opens a file chooser: clicked, and the chooser answered.
	if st, err := p.Upload(ctx, refNamed(t, s, "button", "Choose files"), b); err != nil || st != rodagent.Ready {
		t.Fatalf("Upload through the chooser: %s, %v", st, err)
	}
	if err := p.Wait(ctx, rodagent.TextPresent("chooser")); err != nil {
		t.Fatal(err)
	}
	var files []map[string]any
	eval(t, p, "window.__log.filter(r => r.type === 'files')", &files)
	if len(files) != 2 || files[0]["source"] != "attachments" || files[0]["count"] != 2.0 || files[1]["source"] != "chooser" {
		t.Fatalf("file records: %v", files)
	}
	if head := files[1]["files"].([]any)[0].(map[string]any)["head"]; head != "bravo file" {
		t.Errorf("chooser file content = %v", head)
	}
	// Outside an upload allowlist: refused before touching the page.
	b2, err := shared.NewContext(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer b2.Close()
	if _, err := p.Upload(ctx, "btn-attachments", "/nonexistent/file"); err == nil {
		t.Errorf("uploading a missing file must fail")
	}
}

func TestDialogArming(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t, 30*time.Second)
	p := open(t, "dialogs.html")
	s := snapshot(t, p)
	p.ArmDialog(true, "", 0)
	if _, err := p.Click(ctx, refNamed(t, s, "button", "Confirm")); err != nil {
		t.Fatal(err)
	}
	p.ArmDialog(true, "Grace", 0)
	if _, err := p.Click(ctx, refNamed(t, s, "button", "Prompt")); err != nil {
		t.Fatal(err)
	}
	p.ArmDialog(false, "", 0)
	if _, err := p.Click(ctx, refNamed(t, s, "button", "Prompt")); err != nil {
		t.Fatal(err)
	}
	p.ArmDialog(true, "first", 0)
	p.ArmDialog(false, "", 0) // the last arm wins
	if _, err := p.Click(ctx, refNamed(t, s, "button", "Confirm")); err != nil {
		t.Fatal(err)
	}
	var got []string
	eval(t, p, "window.__log.filter(r => r.type === 'confirm' || r.type === 'prompt').map(r => r.type + '=' + r.value)", &got)
	if fmt.Sprint(got) != "[confirm=true prompt=Grace prompt=null confirm=false]" {
		t.Errorf("dialog answers: %v", got)
	}
	s2 := snapshot(t, p)
	if len(s2.Dialogs) != 4 || !s2.Dialogs[0].Armed {
		t.Errorf("snapshot reports the dialogs: %+v", s2.Dialogs)
	}
}

func TestDownload(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t, 30*time.Second)
	dir := t.TempDir()
	p := open(t, "download.html")
	s := snapshot(t, p)
	link := refNamed(t, s, "link", "Download report")
	dl, err := p.WaitDownload(ctx, dir, func(ctx context.Context) error {
		_, err := p.Click(ctx, link)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	body, err := os.ReadFile(dl.Path)
	if err != nil || string(body) != "quarterly report: all good\n" || dl.SuggestedName != "report.txt" || dl.Size != int64(len(body)) {
		t.Fatalf("download %+v: %q %v", dl, body, err)
	}
	if filepath.Dir(dl.Path) != dir {
		t.Errorf("the file should be in the directory asked for: %s", dl.Path)
	}
	gen := refNamed(t, s, "button", "Download generated")
	dl2, err := p.WaitDownload(ctx, dir, func(ctx context.Context) error {
		_, err := p.Click(ctx, gen)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if body, _ := os.ReadFile(dl2.Path); string(body) != "hello from blob" || filepath.Base(dl2.Path) != "generated.txt" {
		t.Errorf("blob download %+v: %q", dl2, body)
	}
}

// Checkbox and radio by clicking their labels: the label text is no ref, so a
// locator names it, and the click on the label reaches the control.
func TestClickLabelsByText(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t, 30*time.Second)
	p := open(t, "native.html")
	for _, label := range []string{"Remember me", "Pro"} {
		if st, err := p.Locate(ByText(label).Exact()).Click(ctx); err != nil || st != rodagent.Ready {
			t.Fatalf("click label %q: %s, %v", label, st, err)
		}
	}
	var state []bool
	eval(t, p, "[document.getElementById('remember').checked, document.getElementById('plan-pro').checked]", &state)
	if fmt.Sprint(state) != "[true true]" {
		t.Errorf("clicking the labels should check both: %v", state)
	}
}

func TestWaitForLocators(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t, 30*time.Second)
	p := open(t, "components/modal-form.html")
	waitReady(t, p)
	if _, err := p.Locate(ByRole("button", "Open settings")).Click(ctx); err != nil {
		t.Fatal(err)
	}
	if err := p.Wait(ctx, rodagent.Present(ByRole("dialog", "Settings"))); err != nil {
		t.Fatalf("Present: %v", err)
	}
	if _, err := p.Locate(ByRole("button", "Cancel")).Click(ctx); err != nil {
		t.Fatal(err)
	}
	if err := p.Wait(ctx, rodagent.Absent(ByRole("dialog", "Settings"))); err != nil {
		t.Fatalf("Absent: %v", err)
	}
}

func TestWaitForRefsAndNetwork(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t, 30*time.Second)
	p := open(t, "basic.html")
	if err := p.Wait(ctx, rodagent.NetworkIdle()); err != nil {
		t.Fatal(err)
	}
	s := snapshot(t, p)
	if _, err := p.Click(ctx, refNamed(t, s, "button", "Add row")); err != nil {
		t.Fatal(err)
	}
	s = snapshot(t, p)
	remove := refNamed(t, s, "button", "Remove row 1")
	if err := p.Wait(ctx, rodagent.RefPresent(remove)); err != nil {
		t.Fatalf("RefPresent on a present ref: %v", err)
	}
	// The row goes away a moment after a timer fires; Wait sees it happen.
	eval(t, p, "(setTimeout(() => document.getElementById('row-1').remove(), 150), 1)", nil)
	if err := p.Wait(ctx, rodagent.RefGone(remove)); err != nil {
		t.Fatalf("RefGone: %v", err)
	}
	short := testCtx(t, 300*time.Millisecond)
	err := p.Wait(short, rodagent.TextPresent("this text never appears"))
	wantStatus(t, "waiting past the deadline", statusOfErr(err), err, rodagent.Timeout, rodagent.ErrTimeout)
}

func statusOfErr(err error) rodagent.ActionStatus {
	var ae *rodagent.ActionError
	if errors.As(err, &ae) {
		return ae.Status
	}
	return ""
}

// A button that slides: with the stability check on, the click waits for it
// to stop and lands on it.
func TestStabilityCheck(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t, 30*time.Second)
	p := open(t, "actionability.html?banner=off")
	s := snapshot(t, p)
	// The subject is a button that is moving when Click is called. Under
	// load the slide began well after "Start moving" returned, and after the
	// animation reported running: Chromium held the button still until the
	// compositor started the animation (startTime was set ~100 ms after the
	// next press, which landed at x=80, where it stood). So wait until the
	// button has left its place. That window — an animation about to move
	// its target yet still — is not covered by the stability check: reported.
	// Under -race on a loaded 2-core machine the whole 2 s slide once passed
	// between two animation frames of this wait, so a slide that ended
	// unseen is started again, up to 5 times.
	starts := 0
	for sliding := false; !sliding; {
		if starts == 5 {
			t.Fatalf("5 slides of 2 s each ended before the test could press the button: nothing here tests the stability check")
		}
		if _, err := p.Click(ctx, refNamed(t, s, "button", "Start moving")); err != nil {
			t.Fatal(err)
		}
		starts++
		eval(t, p, `new Promise(r => { const b = document.getElementById('moving');
			const c = () => b.getBoundingClientRect().x > 21 ? r(b.getAnimations().some(a => a.playState === 'running')) : requestAnimationFrame(c); c(); })`, &sliding)
	}
	p.SetStabilityCheck(true)
	defer p.SetStabilityCheck(false)
	if st, err := p.Click(ctx, refNamed(t, s, "button", "Moving")); err != nil || st != rodagent.Ready {
		t.Fatalf("click a sliding button: %s, %v", st, err)
	}
	var clicks []string
	eval(t, p, "window.__log.filter(r => r.type === 'click').map(r => r.id)", &clicks)
	if want := "[" + strings.Repeat("start-moving ", starts) + "moving]"; fmt.Sprint(clicks) != want {
		t.Errorf("clicks: %v, want %s", clicks, want)
	}
	var ended bool
	// The last slide's end: an earlier slide may have ended unseen.
	eval(t, p, "(() => { const l = window.__log; return l.slice(l.map(r => r.type).lastIndexOf('animation-start')).some(r => r.type === 'animation-end'); })()", &ended)
	if !ended {
		var state any
		eval(t, p, "({now: performance.now(), log: window.__log, anims: document.getAnimations().map(a => [a.playState, a.currentTime, a.startTime, a.pending]), x: document.getElementById('moving').getBoundingClientRect().x})", &state)
		t.Errorf("the click should have waited for the animation to end: %v", state)
	}
}
