package rodagent_test

import (
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/rodagent/rodagent"
)

// What a form says after it is submitted is in the next look: the status
// line is page text, and its change is a delta line.
func TestSeeStatusLineAfterSubmit(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t, 30*time.Second)
	p := open(t, "form.html")
	s := snapshot(t, p)
	full := s.String()
	for _, want := range []string{`text "Fill in the form and submit it."`, `text "Saved forms are kept for 30 days."`,
		"btn-bold unpressed"} {
		if !strings.Contains(full, want) {
			t.Errorf("the full text should contain %q:\n%s", want, full)
		}
	}
	if _, err := p.Type(ctx, refNamed(t, s, "textbox", "Name"), "Ada"); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Click(ctx, refNamed(t, s, "button", "Submit")); err != nil {
		t.Fatal(err)
	}
	d := snapshot(t, p)
	want := `~ status "{\"name\":\"Ada\",\"email\":\"\"}" in main`
	if d.Delta == nil || !strings.Contains(d.String(), want) {
		t.Fatalf("the delta after submit should show the status line %s:\n%s", want, d)
	}
	if !strings.Contains(d.FullText(), `status "{\"name\":\"Ada\",\"email\":\"\"}"`) {
		t.Errorf("the full text should show the status line:\n%s", d.FullText())
	}
	if _, err := p.Click(ctx, "btn-bold"); err != nil {
		t.Fatal(err)
	}
	if d := snapshot(t, p); !strings.Contains(d.String(), "~ btn-bold pressed") {
		t.Errorf("pressing the toggle is a delta:\n%s", d)
	}
}

// Each invoice row of the app shell reads as one line: its cells' text and
// its refs, so "delete the €99.99 invoice" has an answer; the whole shell
// stays within 3,000 characters.
func TestSeeRowsCarryTheirText(t *testing.T) {
	t.Parallel()
	p := open(t, "appshell.html")
	s := snapshot(t, p)
	text := s.String()
	if len(text) > 3000 {
		t.Errorf("app shell snapshot is %d chars, want ≤ 3000:\n%s", len(text), text)
	}
	rows := 0
	for _, l := range strings.Split(text, "\n") {
		if strings.Contains(l, "chk-select-inv-") {
			rows++
			if !strings.Contains(l, `row "`) || !strings.Contains(l, "€") || !strings.Contains(l, "btn-delete") {
				t.Errorf("a row line carries its amount and its refs: %q", l)
			}
		}
	}
	if rows != 12 {
		t.Errorf("%d invoice row lines, want 12:\n%s", rows, text)
	}
	if !strings.Contains(text, `row "Umbrella GmbH | €99.99" chk-select-inv-1004 unchecked lnk-inv-1004 btn-edit-3 btn-duplicate-3 btn-delete-3`) {
		t.Errorf("row 4 should read as one line:\n%s", text)
	}
	// The status line appears when something is recorded in it.
	ctx := testCtx(t, 30*time.Second)
	if _, err := p.Click(ctx, "btn-mute-notifications"); err != nil {
		t.Fatal(err)
	}
	if d := snapshot(t, p); !strings.Contains(d.String(), `~ status "{\"type\":\"mute\"`) {
		t.Errorf("the status line after an action:\n%s", d)
	}
}

var _ = rodagent.WithFull

// sameAsFull checks the one truth: what a delta snapshot yields (its refs,
// its full text, and the old refs with the delta applied) equals a fresh
// WithFull() read of the same moment.
func sameAsFull(t *testing.T, p *rodagent.Page, prev *rodagent.Snapshot, step string) *rodagent.Snapshot {
	t.Helper()
	d := snapshot(t, p)
	f := snapshot(t, p, rodagent.WithFull())
	if diff := deltaVersusFull(prev, d, f); diff != "" {
		t.Fatalf("%s: %s", step, diff)
	}
	return f
}

// deltaVersusFull says how a delta snapshot d (taken after prev) differs
// from the full read f of the same moment: its refs, its full text, the old
// refs with the delta applied; "" when it does not.
func deltaVersusFull(prev, d, f *rodagent.Snapshot) string {
	if got, want := describeRefs(d), describeRefs(f); got != want {
		return fmt.Sprintf("the delta's refs differ from a full read:\n%s", diffLines(got, want))
	}
	if got, want := inventoryText(d), inventoryText(f); got != want {
		return fmt.Sprintf("the delta's text differs from a full read:\n%s", diffLines(got, want))
	}
	if d.Delta != nil && prev != nil {
		if got, want := applyDelta(prev, d), fieldsOf(f); got != want {
			return fmt.Sprintf("the old refs with the delta applied differ from a full read:\n%s\n%s", diffLines(got, want), d)
		}
	}
	return ""
}

// inventoryText is a snapshot's full text without its header: the URL, and
// what happened since the last look (a navigation, a dialog, a blocked
// request, a refused download, a tab it opened), which only the first look
// after it tells.
func inventoryText(s *rodagent.Snapshot) string {
	c := *s
	c.Navigated, c.Dialogs, c.Blocked, c.Downloads, c.Opened, c.Unsettled = "", nil, nil, nil, nil, ""
	return withoutURL(c.FullText())
}

// fieldsOf lists each ref's handle and the fields a delta speaks of.
func fieldsOf(s *rodagent.Snapshot) string {
	m := map[string]string{}
	for _, r := range s.Refs {
		m[r.Ref] = refFields(r.Name, r.Value, r.Shows, r.Checked, r.Pressed, r.Expanded, r.Selected, r.Disabled)
	}
	return sortedMap(m)
}

func refFields(name, value, shows, checked, pressed, expanded string, selected, disabled bool) string {
	return fmt.Sprintf("name=%q value=%q shows=%q checked=%q pressed=%q expanded=%q selected=%v disabled=%v",
		name, value, shows, checked, pressed, expanded, selected, disabled)
}

func applyDelta(prev, d *rodagent.Snapshot) string {
	type f struct {
		name, value, shows, checked, pressed, expanded string
		selected, disabled                             bool
	}
	m := map[string]*f{}
	for _, r := range prev.Refs {
		m[r.Ref] = &f{r.Name, r.Value, r.Shows, r.Checked, r.Pressed, r.Expanded, r.Selected, r.Disabled}
	}
	for _, h := range d.Delta.Removed {
		delete(m, h)
	}
	for _, h := range d.Delta.Added {
		r, _ := d.Ref(h)
		m[h] = &f{r.Name, r.Value, r.Shows, r.Checked, r.Pressed, r.Expanded, r.Selected, r.Disabled}
	}
	for _, c := range d.Delta.Changed {
		x := m[c.Ref]
		if x == nil {
			x = &f{}
			m[c.Ref] = x
		}
		for _, fc := range c.Fields {
			switch fc.Field {
			case "name":
				x.name = fc.New
			case "value":
				x.value = fc.New
			case "shows":
				x.shows = fc.New
			case "checked":
				x.checked = fc.New
			case "pressed":
				x.pressed = fc.New
			case "expanded":
				x.expanded = fc.New
			case "selected":
				x.selected = fc.New == "true"
			case "disabled":
				x.disabled = fc.New == "true"
			}
		}
	}
	out := map[string]string{}
	for h, x := range m {
		out[h] = refFields(x.name, x.value, x.shows, x.checked, x.pressed, x.expanded, x.selected, x.disabled)
	}
	return sortedMap(out)
}

func sortedMap(m map[string]string) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		b.WriteString(k + " " + m[k] + "\n")
	}
	return b.String()
}

// readPaths are the two ways a page is read: the in-page inventory (the
// default) and the AX tree (what a frame with a closed shadow root takes).
// The one truth must hold on both.
var readPaths = []readPath{
	{"fast", func(*rodagent.Page) {}},
	{"axtree", rodagent.UseAXTree},
}

// readPath is one way a page is read: its name and what sets a page to it.
type readPath struct {
	name string
	set  func(*rodagent.Page)
}

// onReadPaths runs check in a parallel subtest per read path (named after
// it), on page opened in a tab of its own and set to that path; rp sets any
// other page the check opens.
func onReadPaths(t *testing.T, page string, check func(t *testing.T, p *rodagent.Page, rp readPath)) {
	t.Helper()
	for _, rp := range readPaths {
		t.Run(rp.name, func(t *testing.T) {
			t.Parallel()
			p := open(t, page)
			rp.set(p)
			check(t, p, rp)
		})
	}
}

// A page that changes itself at random (fixed seed): insert, remove, hide,
// show, rename, restyle, re-parent. After every step the delta equals a
// fresh full read, on both read paths.
func TestSeeDeltaEqualsFullUnderMutation(t *testing.T) {
	t.Parallel()
	onReadPaths(t, "mutate.html", func(t *testing.T, p *rodagent.Page, _ readPath) {
		prev := snapshot(t, p)
		eval(t, p, "seed(20261130)", nil)
		for step := 0; step < 60; step++ {
			var op int
			eval(t, p, "mutate()", &op)
			prev = sameAsFull(t, p, prev, fmt.Sprintf("step %d (op %d)", step, op))
		}
	})
}

// Every action of the behaviour fixtures: after each, the delta equals a
// fresh full read.
func TestSeeDeltaEqualsFullAfterActions(t *testing.T) {
	t.Parallel()
	type act struct{ verb, role, name, text string }
	cases := []struct {
		page string
		acts []act
	}{
		{"form.html", []act{{"type", "textbox", "Name", "Ada"}, {"click", "button", "Submit", ""}, {"click", "button", "Bold", ""}}},
		{"appshell.html", []act{{"click", "button", "Mute notifications", ""}, {"click", "checkbox", "Select INV-1003", ""},
			{"type", "searchbox", "Search", "acme"}, {"click", "checkbox", "Send reminder", ""}}},
		{"apg/content/patterns/combobox/examples/combobox-select-only.html", []act{{"click", "combobox", "Favorite Fruit", ""},
			{"click", "option", "Banana", ""}}},
		{"apg/content/patterns/disclosure/examples/disclosure-faq.html", []act{{"click", "button", "What do I do if I lose my permit or if my permit is stolen?", ""}}},
		{"apg/content/patterns/treeview/examples/treeview-1a.html", []act{{"click", "treeitem", "Projects", ""}}},
		{"apg/content/patterns/menu-button/examples/menu-button-links.html", []act{{"click", "button", "WAI-ARIA Quick Links", ""}}},
		{"apg/content/patterns/tabs/examples/tabs-automatic.html", []act{{"click", "tab", "Carl Andersen", ""}}},
	}
	for i, tc := range cases {
		// every page on the fast path, the AX tree on a spread (-sweep: all)
		for _, rp := range taskPaths(i, len(cases), 3) {
			t.Run(rp.name+"/"+tc.page, func(t *testing.T) {
				t.Parallel()
				ctx := testCtx(t, 90*time.Second)
				p := open(t, tc.page)
				rp.set(p)
				if strings.HasPrefix(tc.page, "apg/") {
					apgSettled(t, p)
				}
				prev := snapshot(t, p)
				for _, a := range tc.acts {
					h := refStarting(t, prev, a.role, a.name)
					var err error
					if a.verb == "type" {
						_, err = p.Type(ctx, h, a.text)
					} else {
						_, err = p.Click(ctx, h)
					}
					if err != nil {
						t.Fatalf("%s %s: %v", a.verb, h, err)
					}
					prev = sameAsFull(t, p, prev, a.verb+" "+h)
				}
			})
		}
	}
}

// apgSettled waits until an APG example page has finished changing itself.
// Its inline script (examples.js, run while the document parses) adds hidden
// "Open In CodePen" buttons, fetches the example's files and shows the
// buttons from a 500 ms interval once they all arrived; a timer 10 s after
// that script gives up and stops the interval. So the page is settled when
// every button shows (watched with a MutationObserver, not polled), or at its
// own give-up, which is at most 10 s after parsing ended (domInteractive), not
// 10 s after this call. A look taken before may fall between a delta and the
// full read it is compared with, and the page's own change would pass for a
// difference between the two.
func apgSettled(t testing.TB, p *rodagent.Page) {
	t.Helper()
	var done bool
	eval(t, p, `new Promise(r => {
		const buttons = [...document.querySelectorAll('[id$="-codepenbutton"]')];
		const shown = () => buttons.every(b => b.style.display !== 'none');
		if (shown()) return r(true);
		const nav = performance.getEntriesByType('navigation')[0];
		const giveUp = (nav && nav.domInteractive > 0 ? nav.domInteractive : performance.now()) + 10000;
		let timer;
		const obs = new MutationObserver(() => { if (shown()) { obs.disconnect(); clearTimeout(timer); r(true); } });
		for (const b of buttons) obs.observe(b, {attributes: true, attributeFilter: ['style']});
		// The page's give-up timer was set earlier for an earlier time, so it
		// has run when this one does.
		timer = setTimeout(() => { obs.disconnect(); r(shown()); }, Math.max(0, giveUp - performance.now()));
	})`, &done)
	if !done {
		t.Logf("the page's CodePen buttons never showed (its fetches outlasted its 10 s give-up); comparing anyway")
	}
}

// refStarting finds the ref with this role whose name starts with name.
func refStarting(t testing.TB, s *rodagent.Snapshot, role, name string) string {
	t.Helper()
	for _, r := range s.Refs {
		if r.Role == role && strings.HasPrefix(r.Name, name) {
			return r.Ref
		}
	}
	t.Fatalf("no %s %q… in snapshot:\n%s", role, name, s.FullText())
	return ""
}
