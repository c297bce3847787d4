package server_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rodagent/rodagent"
	"github.com/rodagent/rodagent/server"
)

// One Chromium for the package; each test's server gets its own isolated
// context of it (WithLauncher), so tests share no tabs, cookies or refs.
var shared *rodagent.Browser

func TestMain(m *testing.M) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	b, err := rodagent.Launch(ctx, rodagent.WithDownload(false))
	cancel()
	if err != nil {
		fmt.Fprintln(os.Stderr, "server tests need Chromium (apt-get install -y chromium):", err)
		os.Exit(1)
	}
	shared = b
	code := m.Run()
	if err := b.Close(); err != nil && code == 0 {
		code = 1
	}
	os.Exit(code)
}

const appPage = `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>App</title>
<style>#drop{display:block;width:200px;height:60px} #tile{width:80px;height:40px;background:#ccd} #bin{width:160px;height:80px;background:#dcc}</style></head>
<body><main>
<h1>Sign in</h1>
<form id="f" aria-label="Sign in">
  <label for="email">Email</label> <input id="email" name="email">
  <label for="pw">Password</label> <input id="pw" type="password">
  <label><input type="checkbox" id="remember"> Remember me</label>
  <label for="country">Country</label>
  <select id="country"><option value="">Pick one</option><option value="fr">France</option><option value="de">Germany</option></select>
  <button id="go" type="submit">Sign in</button>
</form>
<p role="status" id="out"></p>
<p><button type="button" id="confirm">Delete</button> <button type="button" id="ask">Rename</button></p>
<p><button type="button" id="drop">Attach</button><input type="file" id="hidden" multiple hidden aria-label="Hidden file"></p>
<p><label for="doc">Document</label> <input type="file" id="doc"></p>
<p><span id="hov" tabindex="0" role="button" aria-label="Help">?</span> <button type="button">Twin</button> <button type="button">Twin</button></p>
<div id="tile" draggable="true" role="button" aria-label="Tile">tile</div>
<div id="bin" role="region" aria-label="Bin"><button type="button" id="binbtn">Bin</button></div>
<p><a href="/next">Next page</a></p>
</main>
<script>
const out = document.getElementById('out');
const say = (s) => { out.textContent = s; };
document.getElementById('f').addEventListener('submit', (e) => {
  e.preventDefault();
  const f = e.target;
  say('Welcome ' + f.email.value + ' pw=' + f.querySelector('#pw').value.length + ' remember=' + f.querySelector('#remember').checked + ' country=' + f.querySelector('#country').value);
});
document.getElementById('confirm').onclick = () => say('confirm=' + confirm('Delete it?'));
document.getElementById('ask').onclick = () => say('prompt=' + prompt('New name?', 'old'));
document.getElementById('drop').onclick = () => document.getElementById('hidden').click();
document.getElementById('hidden').onchange = (e) => say('chosen=' + Array.from(e.target.files).map(f => f.name).join(','));
document.getElementById('doc').onchange = (e) => say('uploaded=' + Array.from(e.target.files).map(f => f.name).join(','));
document.getElementById('hov').onmouseover = () => say('hovered');
document.getElementById('tile').addEventListener('dragstart', (e) => e.dataTransfer.setData('text/plain', 'tile'));
const bin = document.getElementById('bin');
bin.addEventListener('dragover', (e) => e.preventDefault());
bin.addEventListener('drop', (e) => { e.preventDefault(); say('dropped=' + e.dataTransfer.getData('text/plain')); });
document.addEventListener('keydown', (e) => { if (e.key === 'Escape') say('escaped'); });
console.log('app loaded');
console.error('app error line');
</script></body></html>`

func pages(t *testing.T) string {
	t.Helper()
	mux := http.NewServeMux()
	mux.HandleFunc("/app", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, appPage)
	})
	mux.HandleFunc("/next", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, `<!doctype html><title>Next</title><h1>Next</h1><button>Back home</button>`)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv.URL
}

// api is a client of one real server on a random port.
type api struct {
	t     *testing.T
	base  string
	token string
}

const token = "test-token-0123456789"

func newAPI(t *testing.T, opts ...server.Option) *api {
	t.Helper()
	opts = append([]server.Option{server.WithLauncher(func(ctx context.Context) (*rodagent.Browser, error) {
		return shared.NewContext(ctx)
	})}, opts...)
	h, err := server.New(token, opts...)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(h)
	t.Cleanup(func() {
		ts.Close()
		if err := h.Close(); err != nil {
			t.Errorf("closing the server's browser: %v", err)
		}
	})
	return &api{t: t, base: ts.URL, token: token}
}

// res is a decoded answer.
type res struct {
	code int
	m    map[string]any
	raw  string
}

func (r res) str(k string) string { s, _ := r.m[k].(string); return s }

func (a *api) send(method, path string, body any, hdr map[string]string) res {
	a.t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case []byte:
		rd = bytes.NewReader(b)
	default:
		j, err := json.Marshal(b)
		if err != nil {
			a.t.Fatal(err)
		}
		rd = bytes.NewReader(j)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, a.base+path, rd)
	if err != nil {
		a.t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+a.token)
	for k, v := range hdr {
		if v == "" {
			req.Header.Del(k)
		} else {
			req.Header.Set(k, v)
		}
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		a.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	r := res{code: resp.StatusCode, raw: string(raw)}
	if err := json.Unmarshal(raw, &r.m); err != nil {
		a.t.Fatalf("%s %s: answer is not JSON: %q", method, path, raw)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
		a.t.Errorf("%s %s: Content-Type %q", method, path, ct)
	}
	if resp.Header.Get("Access-Control-Allow-Origin") != "" {
		a.t.Errorf("%s %s: CORS header present", method, path)
	}
	return r
}

func (a *api) do(method, path string, body any) res {
	a.t.Helper()
	return a.send(method, path, body, nil)
}

// ok fails the test unless the answer is a 200 with ok:true.
func (a *api) ok(method, path string, body any) res {
	a.t.Helper()
	r := a.do(method, path, body)
	if r.code != http.StatusOK || r.m["ok"] != true {
		a.t.Fatalf("%s %s %v: %d %s", method, path, body, r.code, r.raw)
	}
	return r
}

// failsWith fails the test unless the answer is an error with this code and HTTP status.
func (a *api) failsWith(code int, status string, method, path string, body any) res {
	a.t.Helper()
	r := a.do(method, path, body)
	if r.code != code || r.m["ok"] != false || r.str("status") != status || r.str("error") == "" {
		a.t.Fatalf("%s %s %v: want %d %s, got %d %s", method, path, body, code, status, r.code, r.raw)
	}
	return r
}

func (a *api) act(body map[string]any) res {
	a.t.Helper()
	return a.ok("POST", "/act", body)
}

// waitText waits, through the API, for the page's status line to read want.
func (a *api) waitText(want string) {
	a.t.Helper()
	a.act(map[string]any{"kind": "wait", "text": want, "timeoutMs": 15000})
}

func TestTokenGuardsEveryRoute(t *testing.T) {
	t.Parallel()
	a := newAPI(t)
	routes := [][2]string{{"GET", "/"}, {"POST", "/start"}, {"POST", "/stop"}, {"GET", "/tabs"}, {"POST", "/tabs/open"},
		{"POST", "/tabs/focus"}, {"DELETE", "/tabs/x"}, {"POST", "/navigate"}, {"POST", "/act"}, {"POST", "/screenshot"},
		{"GET", "/snapshot"}, {"GET", "/console"}, {"POST", "/pdf"}, {"POST", "/hooks/file-chooser"}, {"POST", "/hooks/dialog"}}
	for _, rt := range routes {
		for _, auth := range []string{"", "Bearer wrong", "Basic " + token, token} {
			r := a.send(rt[0], rt[1], nil, map[string]string{"Authorization": auth})
			if r.code != http.StatusUnauthorized || r.str("status") != "unauthorized" {
				t.Errorf("%s %s with Authorization %q: %d %s", rt[0], rt[1], auth, r.code, r.raw)
			}
		}
	}
	// A page in a browser could reach the loopback port: cross-origin requests are refused outright.
	r := a.send("GET", "/", nil, map[string]string{"Origin": "https://evil.example"})
	if r.code != http.StatusForbidden || r.str("status") != "not_allowed" {
		t.Errorf("request with Origin: %d %s", r.code, r.raw)
	}
	if st := a.ok("GET", "/", nil); st.m["running"] != false {
		t.Errorf("no request so far needed a browser: %s", st.raw)
	}
	a.failsWith(http.StatusNotFound, "no_such_route", "GET", "/click", nil)
	if _, err := server.New(""); err != server.ErrNoToken {
		t.Errorf("New without a token: %v", err)
	}
}

func TestBodyCap(t *testing.T) {
	t.Parallel()
	a := newAPI(t, server.WithMaxBody(256))
	big := fmt.Sprintf(`{"kind":"type","ref":"inp-email","text":%q}`, strings.Repeat("x", 1000))
	a.failsWith(http.StatusRequestEntityTooLarge, "body_too_large", "POST", "/act", []byte(big))
	a.failsWith(http.StatusRequestEntityTooLarge, "body_too_large", "POST", "/navigate", []byte(big))
	// Malformed and misspelt bodies are refused, not half-read.
	a.failsWith(http.StatusBadRequest, "bad_request", "POST", "/act", []byte(`{"kind":`))
	a.failsWith(http.StatusBadRequest, "bad_request", "POST", "/navigate", []byte(`{"URL2":"x"}`))
	if st := a.ok("GET", "/", nil); st.m["maxBody"] != float64(256) {
		t.Errorf("status should report the cap: %s", st.raw)
	}
}

func TestStartStopAndTabs(t *testing.T) {
	t.Parallel()
	a := newAPI(t)
	base := pages(t)
	if st := a.ok("POST", "/start", nil); st.m["running"] != true {
		t.Fatalf("start: %s", st.raw)
	}
	one := a.ok("POST", "/tabs/open", map[string]any{"url": base + "/app"})
	two := a.ok("POST", "/tabs/open", map[string]any{"url": base + "/next"})
	id1, id2 := one.str("targetId"), two.str("targetId")
	if id1 == "" || id2 == "" || id1 == id2 {
		t.Fatalf("tab ids: %q %q", id1, id2)
	}
	tabs := a.ok("GET", "/tabs", nil)
	list, _ := tabs.m["tabs"].([]any)
	if len(list) != 2 || strings.Contains(tabs.raw, "App") || !strings.Contains(tabs.raw, strings.TrimPrefix(base, "http://")) {
		t.Fatalf("tabs should list two tabs by origin, never titles: %s", tabs.raw)
	}
	if !strings.Contains(tabs.raw, `"targetId":"`+id2+`","origin":"`+base+`","current":true`) {
		t.Errorf("the tab opened last is current: %s", tabs.raw)
	}
	a.ok("POST", "/tabs/focus", map[string]any{"targetId": id1})
	if st := a.ok("GET", "/", nil); st.str("targetId") != id1 || st.m["tabs"] != float64(2) {
		t.Errorf("after focus, status: %s", st.raw)
	}
	// The current tab is what a request without targetId acts on.
	if s := a.ok("GET", "/snapshot", nil); s.str("targetId") != id1 || !strings.Contains(s.str("snapshot"), "btn-sign-in") {
		t.Errorf("snapshot of the focused tab: %s", s.raw)
	}
	if s := a.ok("GET", "/snapshot?targetId="+id2, nil); !strings.Contains(s.str("snapshot"), "btn-back-home") {
		t.Errorf("snapshot by targetId: %s", s.raw)
	}
	a.ok("DELETE", "/tabs/"+id2, nil)
	a.failsWith(http.StatusNotFound, "no_such_tab", "DELETE", "/tabs/"+id2, nil)
	a.failsWith(http.StatusNotFound, "no_such_tab", "POST", "/tabs/focus", map[string]any{"targetId": "nope"})
	a.failsWith(http.StatusBadRequest, "bad_request", "POST", "/tabs/focus", map[string]any{})
	if list, _ := a.ok("GET", "/tabs", nil).m["tabs"].([]any); len(list) != 1 {
		t.Errorf("one tab left: %v", list)
	}
	if st := a.ok("POST", "/stop", nil); st.m["running"] != false {
		t.Fatalf("stop: %s", st.raw)
	}
	if st := a.ok("GET", "/", nil); st.m["running"] != false || st.str("targetId") != "" {
		t.Errorf("after stop: %s", st.raw)
	}
	// The next request that needs a browser starts one again, with no tabs of the old one.
	if list, _ := a.ok("GET", "/tabs", nil).m["tabs"].([]any); len(list) != 0 {
		t.Errorf("a new browser has no tabs: %v", list)
	}
}

// TestFormTask fills and submits a sign-in form the way an agent would:
// navigate, snapshot, act by ref and by locator, read what moved.
func TestFormTask(t *testing.T) {
	t.Parallel()
	a := newAPI(t)
	base := pages(t)
	nav := a.ok("POST", "/navigate", map[string]any{"url": base + "/app"})
	if nav.str("url") != base+"/app" || nav.str("status") != "ready" {
		t.Fatalf("navigate: %s", nav.raw)
	}
	snap := a.ok("GET", "/snapshot?format=ai", nil).str("snapshot")
	for _, ref := range []string{"inp-email", "inp-password", "chk-remember-me", "cmb-country", "btn-sign-in"} {
		if !strings.Contains(snap, ref) {
			t.Fatalf("snapshot lacks %s:\n%s", ref, snap)
		}
	}
	if !strings.HasSuffix(strings.TrimSpace(snap), rodagent.SafetyLine) {
		t.Errorf("snapshot text should end with the safety line:\n%s", snap)
	}
	r := a.act(map[string]any{"kind": "fill", "ref": "inp-email", "text": "old@example.com"})
	r = a.act(map[string]any{"kind": "fill", "fields": []map[string]string{{"ref": "inp-email", "text": "me@example.com"}, {"ref": `label="Password"`, "text": "hunter22"}}})
	if r.str("status") != "ready" || !strings.Contains(r.str("snapshot"), `~ inp-email value="me@example.com"`) {
		t.Errorf("fill replaces exactly and answers with what moved: %s", r.raw)
	}
	if d, _ := r.m["delta"].(map[string]any); d == nil || d["changed"] == nil {
		t.Errorf("structured delta missing: %s", r.raw)
	}
	a.act(map[string]any{"kind": "check", "ref": "chk-remember-me"})
	a.act(map[string]any{"kind": "uncheck", "ref": `role=checkbox[name="Remember me"]`})
	a.act(map[string]any{"kind": "check", "ref": "chk-remember-me"})
	a.act(map[string]any{"kind": "select", "ref": "cmb-country", "values": []string{"France"}})
	r = a.act(map[string]any{"kind": "click", "ref": `role=button[name="Sign in"]`})
	if r.str("kind") != "click" || r.str("url") != base+"/app" {
		t.Errorf("click answer: %s", r.raw)
	}
	a.waitText("Welcome me@example.com pw=8 remember=true country=fr")
	// Typing with submit presses Enter: the form submits again with the new text.
	a.act(map[string]any{"kind": "type", "ref": "inp-email", "text": "you@example.com", "submit": true})
	a.waitText("Welcome you@example.com")

	aria := a.ok("GET", "/snapshot?format=aria&limit=3", nil)
	refs, _ := aria.m["refs"].([]any)
	if len(refs) != 3 || aria.m["total"].(float64) < 10 || aria.str("snapshot") != "" {
		t.Errorf("aria format with limit: %d refs of %v", len(refs), aria.m["total"])
	}
	if first, _ := refs[0].(map[string]any); first["ref"] == nil || first["role"] == nil {
		t.Errorf("aria refs carry ref and role: %v", refs[0])
	}
	full := a.ok("GET", "/snapshot?full=1&limit=300", nil).str("snapshot")
	if len([]rune(full)) > 600 || !strings.Contains(full, "not shown") {
		t.Errorf("ai format with limit should hold to the budget:\n%s", full)
	}
	a.failsWith(http.StatusBadRequest, "bad_request", "GET", "/snapshot?format=html", nil)
	a.failsWith(http.StatusBadRequest, "bad_request", "GET", "/snapshot?limit=-1", nil)

	// Navigation by link, then a ref of the old document is page_changed.
	if r := a.act(map[string]any{"kind": "click", "ref": "lnk-next-page"}); r.m["navigated"] != true {
		t.Errorf("a click on a link reports the navigation: %s", r.raw)
	}
	a.act(map[string]any{"kind": "wait", "url": "/next$"})
	f := a.failsWith(http.StatusConflict, "page_changed", "POST", "/act", map[string]any{"kind": "click", "ref": "btn-sign-in"})
	if f.str("next") == "" {
		t.Errorf("a failure says the next move: %s", f.raw)
	}
	// Navigate again, in the same tab: the new document's refs work.
	if r := a.ok("POST", "/navigate", map[string]any{"url": base + "/app"}); r.str("url") != base+"/app" {
		t.Errorf("second navigate: %s", r.raw)
	}
	a.ok("GET", "/snapshot", nil)
	a.act(map[string]any{"kind": "fill", "ref": "inp-email", "text": "again@example.com"})
}

func TestActKinds(t *testing.T) {
	t.Parallel()
	a := newAPI(t, server.WithEval(true))
	base := pages(t)
	a.ok("POST", "/navigate", map[string]any{"url": base + "/app"})
	a.ok("GET", "/snapshot", nil)

	a.act(map[string]any{"kind": "hover", "ref": "btn-help"})
	a.waitText("hovered")
	a.act(map[string]any{"kind": "press", "key": "Escape"})
	a.waitText("escaped")
	a.act(map[string]any{"kind": "drag", "startRef": "btn-tile", "endRef": "btn-bin"})
	a.waitText("dropped=tile")
	a.act(map[string]any{"kind": "drag", "startRef": `role=button[name="Tile"]`, "endRef": `role=region[name="Bin"]`})

	ev := a.act(map[string]any{"kind": "evaluate", "fn": "(a, b) => a + b + document.title", "args": []any{1, 2}})
	if ev.m["result"] != "3App" {
		t.Errorf("evaluate with args: %s", ev.raw)
	}
	if ev := a.act(map[string]any{"kind": "evaluate", "fn": "location.pathname"}); ev.m["result"] != "/app" {
		t.Errorf("evaluate an expression: %s", ev.raw)
	}
	a.failsWith(http.StatusUnprocessableEntity, "eval_error", "POST", "/act", map[string]any{"kind": "evaluate", "fn": "(() => { throw new Error('boom') })()"})
	a.act(map[string]any{"kind": "resize", "width": 500, "height": 400})
	if ev := a.act(map[string]any{"kind": "evaluate", "fn": "innerWidth + 'x' + innerHeight"}); ev.m["result"] != "500x400" {
		t.Errorf("resize: %s", ev.raw)
	}

	dir := t.TempDir()
	file := filepath.Join(dir, "report.txt")
	os.WriteFile(file, []byte("hello"), 0o644)
	a.act(map[string]any{"kind": "upload", "ref": `label="Document"`, "paths": []string{file}})
	a.waitText("uploaded=report.txt")
	a.act(map[string]any{"kind": "wait", "ref": "btn-sign-in"})
	a.act(map[string]any{"kind": "wait", "ref": `role=button[name="Sign in"]`})
	a.act(map[string]any{"kind": "wait", "text": "nothing like this", "gone": true})
	a.act(map[string]any{"kind": "wait", "load": "load"})

	// Errors carry stable codes and the next move.
	amb := a.failsWith(http.StatusConflict, "ambiguous", "POST", "/act", map[string]any{"kind": "click", "ref": `role=button[name="Twin"]`})
	if c, _ := amb.m["candidates"].([]any); len(c) != 2 {
		t.Errorf("ambiguous lists candidates: %s", amb.raw)
	}
	a.failsWith(http.StatusConflict, "not_found", "POST", "/act", map[string]any{"kind": "click", "ref": "btn-never-issued"})
	a.failsWith(http.StatusConflict, "not_editable", "POST", "/act", map[string]any{"kind": "type", "ref": "btn-sign-in", "text": "x"})
	a.failsWith(http.StatusConflict, "not_a_select", "POST", "/act", map[string]any{"kind": "select", "ref": "btn-sign-in", "values": []string{"x"}})
	a.failsWith(http.StatusConflict, "unsupported_key", "POST", "/act", map[string]any{"kind": "press", "key": "F13"})
	a.failsWith(http.StatusGatewayTimeout, "timeout", "POST", "/act", map[string]any{"kind": "wait", "text": "never shown", "timeoutMs": 300})
	a.failsWith(http.StatusBadRequest, "bad_locator", "POST", "/act", map[string]any{"kind": "click", "ref": `role=button[name="x"`})
	a.failsWith(http.StatusBadRequest, "bad_request", "POST", "/act", map[string]any{"kind": "click"})
	a.failsWith(http.StatusBadRequest, "bad_request", "POST", "/act", map[string]any{"kind": "teleport", "ref": "btn-sign-in"})
	a.failsWith(http.StatusBadRequest, "bad_request", "POST", "/act", map[string]any{"kind": "drag", "startRef": "btn-tile", "endRef": `role=region[name="Bin"]`})
	a.failsWith(http.StatusBadRequest, "bad_request", "POST", "/act", map[string]any{"kind": "wait"})
	a.failsWith(http.StatusBadRequest, "bad_request", "POST", "/act", map[string]any{"kind": "resize", "width": 10})

	// close closes the current tab; the next request opens a fresh one.
	id := a.ok("GET", "/", nil).str("targetId")
	a.act(map[string]any{"kind": "close"})
	if list, _ := a.ok("GET", "/tabs", nil).m["tabs"].([]any); len(list) != 0 {
		t.Errorf("close left tabs: %v", list)
	}
	if s := a.ok("GET", "/snapshot", nil); s.str("targetId") == id {
		t.Errorf("a closed tab is not reused")
	}
}

func TestEvaluateIsOffByDefault(t *testing.T) {
	t.Parallel()
	a := newAPI(t)
	a.failsWith(http.StatusForbidden, "not_allowed", "POST", "/act", map[string]any{"kind": "evaluate", "fn": "1+1"})
	if st := a.ok("GET", "/", nil); st.m["evaluate"] != false || st.m["running"] != false {
		t.Errorf("a refused evaluate starts nothing: %s", st.raw)
	}
}

func TestDialogHook(t *testing.T) {
	t.Parallel()
	a := newAPI(t)
	base := pages(t)
	a.ok("POST", "/navigate", map[string]any{"url": base + "/app"})
	a.ok("GET", "/snapshot", nil)

	a.ok("POST", "/hooks/dialog", map[string]any{"accept": true, "promptText": "renamed"})
	a.act(map[string]any{"kind": "click", "ref": "btn-rename"})
	a.waitText("prompt=renamed")

	// Last arm wins: accept, then dismiss — the confirm is dismissed.
	a.ok("POST", "/hooks/dialog", map[string]any{"accept": true})
	a.ok("POST", "/hooks/dialog", map[string]any{"accept": false})
	r := a.act(map[string]any{"kind": "click", "ref": "btn-delete"})
	a.waitText("confirm=false")
	if ds, _ := r.m["dialogs"].([]any); len(ds) == 0 {
		t.Errorf("the answer reports the dialog: %s", r.raw)
	}
	// And the other way round.
	a.ok("POST", "/hooks/dialog", map[string]any{"accept": false})
	a.ok("POST", "/hooks/dialog", map[string]any{"accept": true, "timeoutMs": 20000})
	a.act(map[string]any{"kind": "click", "ref": "btn-delete"})
	a.waitText("confirm=true")
	// An arm is used once: with none, the dialog is dismissed.
	a.act(map[string]any{"kind": "click", "ref": "btn-rename"})
	a.waitText("prompt=null")
	a.failsWith(http.StatusNotFound, "no_such_tab", "POST", "/hooks/dialog", map[string]any{"targetId": "nope", "accept": true})
}

func TestFileChooserHook(t *testing.T) {
	t.Parallel()
	a := newAPI(t)
	base := pages(t)
	dir := t.TempDir()
	first, second := filepath.Join(dir, "first.txt"), filepath.Join(dir, "second.txt")
	os.WriteFile(first, []byte("1"), 0o644)
	os.WriteFile(second, []byte("2"), 0o644)
	a.ok("POST", "/navigate", map[string]any{"url": base + "/app"})
	a.ok("GET", "/snapshot", nil)

	// Last arm wins: the chooser the click opens gets the second file.
	a.ok("POST", "/hooks/file-chooser", map[string]any{"paths": []string{first}})
	a.ok("POST", "/hooks/file-chooser", map[string]any{"paths": []string{second}, "timeoutMs": 20000})
	a.act(map[string]any{"kind": "click", "ref": "btn-attach"})
	a.waitText("chosen=second.txt")

	a.ok("POST", "/hooks/file-chooser", map[string]any{"paths": []string{second, first}})
	a.act(map[string]any{"kind": "click", "ref": "btn-attach"})
	a.waitText("chosen=second.txt,first.txt")

	a.failsWith(http.StatusBadRequest, "bad_request", "POST", "/hooks/file-chooser", map[string]any{"paths": []string{}})
}

func TestScreenshotPDFConsole(t *testing.T) {
	t.Parallel()
	a := newAPI(t)
	base := pages(t)
	a.ok("POST", "/navigate", map[string]any{"url": base + "/app"})
	decode := func(r res) []byte {
		t.Helper()
		b, err := base64.StdEncoding.DecodeString(r.str("data"))
		if err != nil {
			t.Fatalf("data: %v", err)
		}
		return b
	}
	png := decode(a.ok("POST", "/screenshot", map[string]any{}))
	if !bytes.HasPrefix(png, []byte("\x89PNG")) {
		t.Errorf("screenshot is not a PNG: %q", png[:8])
	}
	fullShot := a.ok("POST", "/screenshot", map[string]any{"fullPage": true})
	if full := decode(fullShot); !bytes.HasPrefix(full, []byte("\x89PNG")) || fullShot.str("format") != "png" {
		t.Errorf("full-page screenshot: %s", fullShot.str("format"))
	}
	jpeg := decode(a.ok("POST", "/screenshot", map[string]any{"type": "jpeg"}))
	if !bytes.HasPrefix(jpeg, []byte("\xff\xd8")) {
		t.Errorf("jpeg screenshot: %q", jpeg[:4])
	}
	a.failsWith(http.StatusBadRequest, "bad_request", "POST", "/screenshot", map[string]any{"type": "gif"})
	a.failsWith(http.StatusBadRequest, "bad_request", "POST", "/screenshot", map[string]any{"type": "jpeg", "quality": 101})
	a.ok("GET", "/snapshot", nil)
	ann := a.ok("POST", "/screenshot", map[string]any{"annotate": true})
	if refs, _ := ann.m["refs"].([]any); len(refs) < 5 || !strings.Contains(ann.raw, `"ref":"btn-sign-in"`) {
		t.Errorf("annotated screenshot lists its refs: %.300s", ann.raw)
	}
	el := decode(a.ok("POST", "/screenshot", map[string]any{"ref": "btn-sign-in"}))
	byLoc := decode(a.ok("POST", "/screenshot", map[string]any{"ref": `role=button[name="Sign in"]`}))
	if len(el) == 0 || len(el) >= len(png) || len(byLoc) == 0 {
		t.Errorf("element screenshots should be smaller than the viewport: %d, %d vs %d", len(el), len(byLoc), len(png))
	}
	a.failsWith(http.StatusConflict, "not_found", "POST", "/screenshot", map[string]any{"ref": "btn-never-issued"})
	pdf := decode(a.ok("POST", "/pdf", map[string]any{}))
	if !bytes.HasPrefix(pdf, []byte("%PDF")) {
		t.Errorf("pdf: %q", pdf[:8])
	}
	all := a.ok("GET", "/console", nil)
	if !strings.Contains(all.raw, "app loaded") || !strings.Contains(all.raw, "app error line") {
		t.Errorf("console: %s", all.raw)
	}
	errs := a.ok("GET", "/console?level=error", nil)
	if strings.Contains(errs.raw, "app loaded") || !strings.Contains(errs.raw, "app error line") {
		t.Errorf("console level=error: %s", errs.raw)
	}
}

// The library's policy options hold through the API.
func TestPolicyOptions(t *testing.T) {
	t.Parallel()
	base := pages(t)
	allowed := t.TempDir()
	a := newAPI(t, server.WithLauncher(func(ctx context.Context) (*rodagent.Browser, error) {
		return rodagent.Launch(ctx, rodagent.WithDownload(false),
			rodagent.WithAllowedOrigins(base), rodagent.WithUploadDirs(allowed),
			rodagent.WithApprover(rodagent.ApproverFunc(func(ctx context.Context, act rodagent.Action) error {
				if act.Verb == "click" && act.Name == "Delete" {
					return fmt.Errorf("deleting needs a person")
				}
				return nil
			})))
	}))
	a.ok("POST", "/navigate", map[string]any{"url": base + "/app"})
	a.failsWith(http.StatusForbidden, "not_allowed", "POST", "/navigate", map[string]any{"url": "http://localhost:1/"})
	a.ok("GET", "/snapshot", nil)
	outside := filepath.Join(t.TempDir(), "secret.txt")
	os.WriteFile(outside, []byte("s"), 0o644)
	a.failsWith(http.StatusForbidden, "not_allowed", "POST", "/hooks/file-chooser", map[string]any{"paths": []string{outside}})
	r := a.do("POST", "/act", map[string]any{"kind": "upload", "ref": `label="Document"`, "paths": []string{outside}})
	if r.code != http.StatusForbidden {
		t.Errorf("upload outside the allowed directory: %d %s", r.code, r.raw)
	}
	// The Approver's refusal is the status denied; the page never saw the click.
	d := a.failsWith(http.StatusForbidden, "denied", "POST", "/act", map[string]any{"kind": "click", "ref": "btn-delete"})
	if !strings.Contains(d.str("next"), "do not retry") {
		t.Errorf("a denial says not to retry: %s", d.raw)
	}
	a.act(map[string]any{"kind": "click", "ref": "btn-rename"})
}
