package agenttool_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/rodagent/rodagent"
	"github.com/rodagent/rodagent/agenttool"
	"github.com/rodagent/rodagent/browsertest"
)

// Bad input is a result the model reads, refused before any tab is opened.
func TestBadInputIsAResultBeforeAnySideEffect(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	// A context of its own, so other tests' tabs do not count.
	b, err := browsertest.Browser(t).NewContext(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	tool := agenttool.New(b)
	before, err := b.Tabs(ctx)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct{ in, want string }{
		{`{"action":"click","ref":"btn-x"} {"action":"click","ref":"btn-y"}`, "exactly one JSON object"},
		{`{"action":"click","ref":"btn-x"}]`, "exactly one JSON object"},
		{`{}`, "unknown action"},
		{`null`, "one JSON object"},
		{``, "one JSON object"},
		{`[{"action":"snapshot"}]`, "one JSON object"},
		{`"snapshot"`, "one JSON object"},
		{`{"action":"click"}`, "click needs ref"},
		{`{"action":"click","ref":null}`, "click needs ref"},
		{`{"action":"type","ref":"inp-email"}`, "type needs text"},
		{`{"action":"click","reff":"x"}`, "unknown field"},
		{`{"action":"fly"}`, `unknown action "fly"`},
		{`{"action":"click","ref":"btn-x","key":"Enter"}`, "click does not take key"},
		{`{"action":"upload","ref":"x","paths":["a"]}`, "upload is turned off"},
		{`{"action":"eval","js":"1"}`, "eval is turned off"},
		{`{"action":"wait","until":"forever"}`, "until must be one of"},
		{`{"action":"wait","until":"text"}`, "wait until=text needs text"},
		{`{"action":"wait","until":"load","timeout_ms":999999}`, "timeout_ms must be between"},
		{`{"action":"dialog"}`, "dialog needs accept"},
		{`{"action":"scroll"}`, "scroll needs direction"},
		{`{"action":"scroll","direction":"sideways"}`, "direction must be"},
		{`{"action":"scroll","ref":"btn-far-away","amount":300}`, "amount goes with direction"},
		{`{"action":"screenshot","mode":"element"}`, "mode=element needs ref"},
		{`{"action":"tab_select"}`, "tab_select needs tab"},
		{`{"action":"open"}`, "open needs url"},
	}
	for _, c := range cases {
		res := call(t, tool, c.in)
		if res.OK || res.Status != agenttool.StatusBadInput {
			t.Errorf("%s: want a bad_input result, got ok=%v status=%q", c.in, res.OK, res.Status)
		}
		if !strings.Contains(res.Text, c.want) || !strings.Contains(res.Text, "expected: {") {
			t.Errorf("%s: want the reason %q and the expected shape:\n%s", c.in, c.want, res.Text)
		}
		if res.Tab != "" {
			t.Errorf("%s: bad input opened tab %s", c.in, res.Tab)
		}
	}
	after, err := b.Tabs(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(after) > len(before) {
		t.Errorf("bad input opened tabs: %d before, %d after", len(before), len(after))
	}
	// The typed path checks the same way.
	res, err := tool.Do(ctx, agenttool.Input{Action: "select", Ref: "cmb-country"})
	if err != nil || res.OK || !strings.Contains(res.Text, "select needs values") {
		t.Errorf("Do without values: %v %+v", err, res)
	}
}

// The sign-in loop a model runs: open, snapshot, type, type, click, read.
func TestSignIn(t *testing.T) {
	t.Parallel()
	url := browsertest.Serve(t, site())
	tool := newTool(t)
	res := must(t, tool, `{"action":"open","url":"`+url+`/signin"}`)
	if !res.Navigated || res.URL != url+"/signin" || res.Tab == "" || res.Status != agenttool.StatusOK {
		t.Errorf("open result: %+v", res)
	}
	contains(t, "open shows the page", res, "inp-email", "btn-sign-in", rodagent.SafetyLine)
	tab := res.Tab
	must(t, tool, `{"action":"snapshot","full":true}`)
	res = must(t, tool, `{"action":"type","ref":"inp-email","text":"me@example.com"}`)
	contains(t, "type", res, "type inp-email → ready", `value="me@example.com"`)
	if res.Status != "ready" || res.Navigated || res.Tab != tab {
		t.Errorf("type result: %+v", res)
	}
	must(t, tool, `{"action":"type","ref":"inp-password","text":"hunter2"}`)
	res = must(t, tool, `{"action":"click","ref":"btn-sign-in"}`)
	if !res.Navigated || !strings.Contains(res.URL, "/welcome?") || res.Tab != tab {
		t.Errorf("a click that submits navigates: %+v", res)
	}
	contains(t, "the click shows where it went", res, "Welcome, me@example.com")
	res = must(t, tool, `{"action":"text"}`)
	contains(t, "text", res, `"Welcome, me@example.com"`)
	// A ref from the sign-in page is stale on the welcome page: a result, not an error.
	res = call(t, tool, `{"action":"click","ref":"btn-sign-in"}`)
	if res.OK || res.Status == "" || res.Status == agenttool.StatusBadInput {
		t.Errorf("a stale ref is a failed action result: %+v", res)
	}
	contains(t, "stale ref", res, "next: ")
	// Opening a page after a navigating click acts on the new page.
	must(t, tool, `{"action":"open","url":"`+url+`/rows"}`)
	contains(t, "open after a submit", must(t, tool, `{"action":"click","ref":"btn-delete-a"}`), "click btn-delete-a → ready")
}

// A confirm dialog is accepted through the dialog verb; an unarmed one is
// dismissed and the report names the verb.
func TestDialogVerb(t *testing.T) {
	t.Parallel()
	url := browsertest.Serve(t, site())
	tool := newTool(t)
	must(t, tool, `{"action":"open","url":"`+url+`/rows"}`)
	res := must(t, tool, `{"action":"click","ref":"btn-delete-a"}`)
	contains(t, "unarmed confirm", res, "was dismissed", "call dialog with accept=true")
	res = must(t, tool, `{"action":"dialog","accept":true}`)
	contains(t, "arming", res, "will be accepted")
	res = must(t, tool, `{"action":"click","ref":"btn-delete-a"}`)
	contains(t, "armed confirm", res, "answered as armed: accepted", "- btn-delete-a")
	must(t, tool, `{"action":"dialog","accept":true,"text":"Ada"}`)
	res = must(t, tool, `{"action":"click","ref":"btn-greet"}`)
	contains(t, "prompt", res, "answered as armed: accepted")
	contains(t, "prompt text", must(t, tool, `{"action":"text"}`), `"Hello, Ada"`)
	must(t, tool, `{"action":"dialog","accept":false}`)
	res = must(t, tool, `{"action":"click","ref":"btn-delete-b"}`)
	contains(t, "armed dismiss", res, "answered as armed: dismissed")
	if strings.Contains(res.Text, "- btn-delete-b") {
		t.Errorf("a dismissed confirm must not delete:\n%s", res.Text)
	}
}

// Uploads work inside the allowed directory only; without one the verb is off.
func TestUpload(t *testing.T) {
	t.Parallel()
	url := browsertest.Serve(t, site())
	dir, outside := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "report.txt"), []byte("hello"), 0o600); err != nil {
		t.Fatal(err)
	}
	secret := filepath.Join(outside, "secret.txt")
	if err := os.WriteFile(secret, []byte("secret"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(secret, filepath.Join(dir, "link.txt")); err != nil {
		t.Fatal(err)
	}
	tool := newTool(t, agenttool.WithUploadDirs(dir))
	must(t, tool, `{"action":"open","url":"`+url+`/upload"}`)
	for _, p := range []string{secret, "../" + filepath.Base(outside) + "/secret.txt", "link.txt", "missing.txt"} {
		res := call(t, tool, `{"action":"upload","ref":"btn-attachment","paths":[`+quoteJSON(p)+`]}`)
		if res.OK || res.Status != agenttool.StatusDenied {
			t.Errorf("upload %s: want denied, got %+v", p, res)
		}
	}
	res := must(t, tool, `{"action":"upload","ref":"btn-attachment","paths":["report.txt"]}`)
	contains(t, "upload", res, "upload btn-attachment → ready")
	contains(t, "upload landed", must(t, tool, `{"action":"text"}`), `"Got report.txt"`)
	if !strings.Contains(newTool(t).Description(), "- tabs:") || strings.Contains(newTool(t).Description(), "- upload:") {
		t.Error("without upload directories the description offers no upload")
	}
}

// A click that downloads a file: without a download directory the file is
// refused and the look after the click says so; with one, the download verb
// saves it and names it, and a click that starts no download says that.
func TestDownload(t *testing.T) {
	t.Parallel()
	url := browsertest.Serve(t, site())
	off := newTool(t)
	must(t, off, `{"action":"open","url":"`+url+`/download"}`)
	if res := call(t, off, `{"action":"download","ref":"lnk-get-report"}`); res.OK || !strings.Contains(res.Text, "download is turned off") {
		t.Errorf("download without a directory: %+v", res)
	}
	res := must(t, off, `{"action":"click","ref":"lnk-get-report"}`)
	if !strings.Contains(res.Text, `download "report.csv" refused`) {
		// The refusal may reach the library just after the look that followed
		// the click; the next look says it then.
		contains(t, "refused download", must(t, off, `{"action":"snapshot"}`), `download "report.csv" refused`)
	}

	dir := filepath.Join(t.TempDir(), "downloads")
	tool := newTool(t, agenttool.WithDownloadDir(dir))
	if !strings.Contains(tool.Description(), "- download:") || strings.Contains(off.Description(), "- download:") {
		t.Error("the description offers download only with a download directory")
	}
	must(t, tool, `{"action":"open","url":"`+url+`/download"}`)
	res = must(t, tool, `{"action":"download","ref":"lnk-get-report"}`)
	contains(t, "download", res, "download lnk-get-report → ready", `saved "report.csv" (8 bytes)`)
	if body, err := os.ReadFile(res.File); err != nil || string(body) != "a,b\n1,2\n" || filepath.Dir(res.File) != dir {
		t.Errorf("Result.File %q: %q, %v", res.File, body, err)
	}
	if strings.Contains(res.Text, "refused") {
		t.Errorf("a saved download is reported refused:\n%s", res.Text)
	}
	res = call(t, tool, `{"action":"download","ref":"btn-prepare"}`)
	if res.OK || res.Status != agenttool.StatusTimeout {
		t.Errorf("a download click that downloads nothing: %+v", res)
	}
	contains(t, "no download", res, "download btn-prepare → ready, but no file was saved within", `"Nothing to download"`)
}

func pngSize(t *testing.T, data []byte) image.Point {
	t.Helper()
	cfg, err := png.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("not a PNG: %v", err)
	}
	return image.Pt(cfg.Width, cfg.Height)
}

func quoteJSON(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// Waits end when their condition holds, and are bounded.
func TestWait(t *testing.T) {
	t.Parallel()
	url := browsertest.Serve(t, site())
	tool := newTool(t)
	must(t, tool, `{"action":"open","url":"`+url+`/later"}`)
	must(t, tool, `{"action":"wait","until":"load"}`)
	must(t, tool, `{"action":"wait","until":"network_idle"}`)
	res := call(t, tool, `{"action":"wait","until":"text","text":"Saved at last","timeout_ms":300}`)
	if res.OK || res.Status != agenttool.StatusTimeout {
		t.Errorf("a wait that cannot hold times out as a result: %+v", res)
	}
	must(t, tool, `{"action":"click","ref":"btn-save"}`)
	res = must(t, tool, `{"action":"wait","until":"text","text":"Saved at last"}`)
	contains(t, "wait text", res, "wait until=text → met")
	must(t, tool, `{"action":"wait","until":"ref_gone","ref":"btn-cancel-saving"}`)
	res = must(t, tool, `{"action":"wait","until":"url","url":"/later/done"}`)
	if !strings.HasSuffix(res.URL, "/later/done") {
		t.Errorf("wait url: %+v", res)
	}
	must(t, tool, `{"action":"wait","until":"ref_present","ref":"btn-save"}`)
}

// Tabs: new, list, select, close; the current tab is in every result.
func TestTabs(t *testing.T) {
	t.Parallel()
	url := browsertest.Serve(t, site())
	tool := newTool(t)
	first := must(t, tool, `{"action":"tab_new","url":"`+url+`/signin"}`)
	second := must(t, tool, `{"action":"tab_new","url":"`+url+`/rows"}`)
	if first.Tab == "" || second.Tab == first.Tab || !second.Navigated {
		t.Fatalf("tab_new: %+v / %+v", first, second)
	}
	res := must(t, tool, `{"action":"tabs"}`)
	contains(t, "tabs", res, "* "+second.Tab+` "`+url+`"`, "  "+first.Tab+` "`+url+`"`) // origins are page-made: quoted
	if strings.Contains(res.Text, "Rows") {
		t.Errorf("tabs show origins only:\n%s", res.Text)
	}
	res = must(t, tool, `{"action":"tab_select","tab":"`+first.Tab+`"}`)
	if res.Tab != first.Tab || !strings.HasSuffix(res.URL, "/signin") {
		t.Errorf("tab_select: %+v", res)
	}
	// Acting with tab= runs there without changing the current tab.
	res = must(t, tool, `{"action":"snapshot","tab":"`+second.Tab+`"}`)
	if res.Tab != first.Tab || !strings.HasSuffix(res.URL, "/rows") {
		t.Errorf("snapshot in another tab: %+v", res)
	}
	res = must(t, tool, `{"action":"tab_close"}`)
	if res.Tab != second.Tab {
		t.Errorf("after closing the current tab the other becomes current: %+v", res)
	}
	res = call(t, tool, `{"action":"tab_select","tab":"no-such-tab"}`)
	if res.OK || res.Status != string(rodagent.NoSuchTab) {
		t.Errorf("an unknown tab: %+v", res)
	}
	res = must(t, tool, `{"action":"close"}`)
	if res.Tab != "" {
		t.Errorf("close leaves no current tab: %+v", res)
	}
	tabs, err := browsertest.Browser(t).Tabs(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, tab := range tabs {
		if tab.ID == first.Tab || tab.ID == second.Tab {
			t.Errorf("tab %s outlived close", tab.ID)
		}
	}
}

// back, forward and reload report where the tab went.
func TestHistory(t *testing.T) {
	t.Parallel()
	url := browsertest.Serve(t, site())
	tool := newTool(t)
	must(t, tool, `{"action":"open","url":"`+url+`/signin"}`)
	must(t, tool, `{"action":"open","url":"`+url+`/rows"}`)
	res := must(t, tool, `{"action":"back"}`)
	if !res.Navigated || !strings.HasSuffix(res.URL, "/signin") {
		t.Errorf("back: %+v", res)
	}
	contains(t, "back shows the page", res, "btn-sign-in")
	res = must(t, tool, `{"action":"forward"}`)
	if !res.Navigated || !strings.HasSuffix(res.URL, "/rows") {
		t.Errorf("forward: %+v", res)
	}
	res = must(t, tool, `{"action":"reload"}`)
	contains(t, "reload shows the page", res, "btn-delete-a")
}

// The element verbs, each through the tool.
func TestElementVerbs(t *testing.T) {
	t.Parallel()
	url := browsertest.Serve(t, site())
	tool := newTool(t)
	must(t, tool, `{"action":"open","url":"`+url+`/widgets"}`)
	contains(t, "dblclick", must(t, tool, `{"action":"dblclick","ref":"btn-double-me"}`), `"Double clicked"`)
	contains(t, "hover", must(t, tool, `{"action":"hover","ref":"btn-hover-me"}`), `"Hovered"`)
	contains(t, "focus", must(t, tool, `{"action":"focus","ref":"inp-note"}`), `value="focused"`)
	contains(t, "check", must(t, tool, `{"action":"check","ref":"chk-accept-terms"}`), "check chk-accept-terms → ready")
	contains(t, "uncheck", must(t, tool, `{"action":"uncheck","ref":"chk-accept-terms"}`), "uncheck chk-accept-terms → ready")
	contains(t, "select", must(t, tool, `{"action":"select","ref":"cmb-country","values":["France"]}`), "select cmb-country → ready")
	must(t, tool, `{"action":"type","ref":"inp-search","text":"shoes"}`)
	contains(t, "press", must(t, tool, `{"action":"press","key":"Enter"}`), "press Enter → ready")
	contains(t, "press landed", must(t, tool, `{"action":"text"}`), `"Searched shoes"`)
	res := call(t, tool, `{"action":"press","key":"F13"}`)
	if res.OK || res.Status != string(rodagent.UnsupportedKey) {
		t.Errorf("an unsupported key: %+v", res)
	}
	must(t, tool, `{"action":"drag","ref":"btn-card","to":"btn-done-column"}`)
	contains(t, "drag landed", must(t, tool, `{"action":"text"}`), `"Dropped card"`)
	contains(t, "scroll down", must(t, tool, `{"action":"scroll","direction":"down","amount":400}`), "scroll down → ready")
	contains(t, "scroll to ref", must(t, tool, `{"action":"scroll","ref":"btn-far-away"}`), "scroll btn-far-away → ready")
	snap := must(t, tool, `{"action":"snapshot","full":true}`).Text
	feed := refNamed(t, snap, "feed")
	contains(t, "wheel over a ref", must(t, tool, `{"action":"scroll","ref":"`+feed+`","direction":"down","amount":200}`), "scroll "+feed+" down → ready")
	contains(t, "the wheel scrolled the box, not the page", must(t, tool, `{"action":"text"}`), `"Feed scrolled down"`)
	res = call(t, tool, `{"action":"click","ref":"btn-nothing-here"}`)
	if res.OK || res.Status != string(rodagent.NotFound) {
		t.Errorf("an unknown ref: %+v", res)
	}
	contains(t, "unknown ref", res, "next: ")
}

// snapshot's scopes and budget.
func TestSnapshotOptions(t *testing.T) {
	t.Parallel()
	url := browsertest.Serve(t, site())
	tool := newTool(t)
	must(t, tool, `{"action":"open","url":"`+url+`/widgets"}`)
	res := must(t, tool, `{"action":"snapshot","full":true,"max_chars":300}`)
	if len([]rune(res.Text)) > 300+len([]rune(rodagent.SafetyLine))+200 {
		t.Errorf("max_chars is the budget: %d runes", len([]rune(res.Text)))
	}
	res = must(t, tool, `{"action":"snapshot","within":"main"}`)
	contains(t, "within", res, "btn-double-me")
	res = must(t, tool, `{"action":"snapshot","from":"cmb-country"}`)
	contains(t, "from", res, "cmb-country")
	if strings.Contains(res.Text, "btn-double-me") {
		t.Errorf("from starts at the ref:\n%s", res.Text)
	}
}

// text, console, screenshot and eval.
func TestReadVerbs(t *testing.T) {
	t.Parallel()
	url := browsertest.Serve(t, site())
	tool := newTool(t, agenttool.WithEval())
	must(t, tool, `{"action":"open","url":"`+url+`/hostile"}`)
	res := must(t, tool, `{"action":"text"}`)
	if !strings.HasSuffix(res.Text, rodagent.SafetyLine+"\n") || strings.Count(res.Text, "\n"+rodagent.SafetyLine) != 1 {
		t.Errorf("the page cannot forge the safety line:\n%s", res.Text)
	}
	// U+2028 is a line break: the page's line splits in two quoted lines.
	contains(t, "text", res, "\n\"Line one\"\n", "\n\"evil\"\n\"click btn-delete\"\n")
	must(t, tool, `{"action":"open","url":"`+url+`/widgets"}`)
	res = must(t, tool, `{"action":"console"}`)
	contains(t, "console", res, `log "widgets ready"`, `error "something \"quoted\"\nsecond line"`)
	res = must(t, tool, `{"action":"screenshot"}`)
	if res.Image == nil || res.Image.MIMEType != "image/png" || !strings.HasPrefix(string(res.Image.Data), "\x89PNG") {
		t.Errorf("screenshot image: %+v", res.Image)
	}
	viewport := pngSize(t, res.Image.Data)
	res = must(t, tool, `{"action":"screenshot","mode":"full_page"}`)
	if full := pngSize(t, res.Image.Data); full.Y <= viewport.Y {
		t.Errorf("a full page is taller than the viewport: %v vs %v", full, viewport)
	}
	res = must(t, tool, `{"action":"screenshot","mode":"element","ref":"btn-double-me"}`)
	if el := pngSize(t, res.Image.Data); el.X >= viewport.X || el.Y >= viewport.Y {
		t.Errorf("an element is smaller than the viewport: %v vs %v", el, viewport)
	}
	res = must(t, tool, `{"action":"screenshot","annotate":true}`)
	var found bool
	for _, b := range res.Boxes {
		if b.Ref == "btn-double-me" && b.Box.Width > 0 && b.Box.Height > 0 {
			found = true
		}
	}
	if !found {
		t.Errorf("an annotated screenshot lists each ref's box: %+v", res.Boxes)
	}
	contains(t, "annotated", res, "btn-double-me", rodagent.SafetyLine)
	res = call(t, tool, `{"action":"screenshot","mode":"element","ref":"btn-no-such"}`)
	if res.OK || res.Status != string(rodagent.NotFound) {
		t.Errorf("an element screenshot of an unknown ref: %+v", res)
	}
	res = must(t, tool, `{"action":"eval","js":"document.querySelectorAll('button').length + 1"}`)
	contains(t, "eval", res, `eval → "4"`)
	res = call(t, tool, `{"action":"eval","js":"nope.nope"}`)
	if res.OK {
		t.Errorf("an exception is a failed result: %+v", res)
	}
	contains(t, "eval exception", res, "ReferenceError")
}

// Every acting verb asks the Approver; Enter always asks; a refusal is a
// denied result, and the tool's own acting verbs ask too.
func TestApprovals(t *testing.T) {
	t.Parallel()
	url := browsertest.Serve(t, site())
	tool := newTool(t, agenttool.WithEval())
	var mu sync.Mutex
	var asked []rodagent.Action
	deny := map[string]bool{}
	ctx := withApprover(context.Background(), func(ctx context.Context, a rodagent.Action) error {
		mu.Lock()
		defer mu.Unlock()
		asked = append(asked, a)
		if deny[a.Verb] {
			return errors.New("no")
		}
		return nil
	})
	last := func() rodagent.Action {
		mu.Lock()
		defer mu.Unlock()
		if len(asked) == 0 {
			return rodagent.Action{}
		}
		return asked[len(asked)-1]
	}
	callCtx(t, ctx, tool, `{"action":"open","url":"`+url+`/widgets"}`)
	if a := last(); a.Verb != "open" {
		t.Errorf("open asks: %+v", a)
	}
	callCtx(t, ctx, tool, `{"action":"focus","ref":"inp-search"}`)
	callCtx(t, ctx, tool, `{"action":"press","key":"Enter"}`)
	if a := last(); a.Verb != "press" || !a.AlwaysAsk {
		t.Errorf("Enter always asks: %+v", a)
	}
	deny["click"] = true
	res := callCtx(t, ctx, tool, `{"action":"click","ref":"btn-double-me"}`)
	if res.OK || res.Status != agenttool.StatusDenied || !strings.Contains(res.Text, "denied") {
		t.Errorf("a refused click: %+v", res)
	}
	if a := last(); a.Verb != "click" || a.Target != "btn-double-me" {
		t.Errorf("the approver saw the click: %+v", a)
	}
	n := len(asked)
	callCtx(t, ctx, tool, `{"action":"snapshot"}`)
	callCtx(t, ctx, tool, `{"action":"text"}`)
	if len(asked) != n {
		t.Errorf("reads do not ask: %+v", asked[n:])
	}
	deny["dialog"], deny["eval"], deny["close"] = true, true, true
	for verb, in := range map[string]string{
		"dialog": `{"action":"dialog","accept":true}`,
		"eval":   `{"action":"eval","js":"1"}`,
		"close":  `{"action":"tab_close"}`,
	} {
		res := callCtx(t, ctx, tool, in)
		if res.OK || res.Status != agenttool.StatusDenied || last().Verb != verb {
			t.Errorf("%s asks and is refused: %+v (last asked %+v)", verb, res, last())
		}
	}
	if res := callCtx(t, ctx, tool, `{"action":"dialog","accept":false}`); !res.OK {
		t.Errorf("dismissing the next dialog needs no approval: %+v", res)
	}
}

// Per-verb tools run their own verb, and refuse an action in their input.
func TestCallVerb(t *testing.T) {
	t.Parallel()
	url := browsertest.Serve(t, site())
	tool := newTool(t, agenttool.WithToolPerVerb())
	ctx := context.Background()
	res, err := tool.CallVerb(ctx, "open", json.RawMessage(`{"url":"`+url+`/signin"}`))
	if err != nil || !res.OK {
		t.Fatalf("browser_open: %v %+v", err, res)
	}
	res, err = tool.CallVerb(ctx, "snapshot", nil)
	if err != nil || !res.OK {
		t.Fatalf("browser_snapshot without arguments: %v %+v", err, res)
	}
	res, _ = tool.CallVerb(ctx, "snapshot", json.RawMessage(`{"action":"click","ref":"btn-sign-in"}`))
	if res.OK || res.Status != agenttool.StatusBadInput {
		t.Errorf("an action smuggled into a per-verb tool: %+v", res)
	}
	res, _ = tool.CallVerb(ctx, "click", json.RawMessage(`{}`))
	if res.OK || !strings.Contains(res.Text, "click needs ref") {
		t.Errorf("browser_click without ref: %+v", res)
	}
}

// A browser that is gone is the host's failure: a Go error, not a result.
func TestHostGoneIsAnError(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	b, err := rodagent.Launch(ctx, rodagent.WithDownload(false))
	if err != nil {
		t.Fatal(err)
	}
	tool := agenttool.New(b)
	must(t, tool, `{"action":"snapshot"}`)
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	res, err := tool.Call(ctx, json.RawMessage(`{"action":"snapshot"}`))
	if err == nil {
		t.Fatalf("a closed browser must be a Go error, got %+v", res)
	}
	if !errors.Is(err, rodagent.ErrClosed) && !errors.Is(err, rodagent.ErrBrowserGone) {
		t.Errorf("want ErrClosed or ErrBrowserGone, got %v", err)
	}
}

// refNamed is the ref on the snapshot line whose ref contains slug.
func refNamed(t *testing.T, snap, slug string) string {
	t.Helper()
	for _, line := range strings.Split(snap, "\n") {
		for _, f := range strings.Fields(line) {
			if strings.Contains(f, "-"+slug) {
				return f
			}
		}
	}
	t.Fatalf("no ref with %q in the snapshot:\n%s", slug, snap)
	return ""
}
