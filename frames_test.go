package rodagent_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-rod/rod/lib/proto"

	"github.com/rodagent/rodagent"
)

// sessionClient sends raw CDP commands on one session of the shared browser.
type sessionClient struct {
	sid proto.TargetSessionID
	ctx context.Context
}

func (c sessionClient) Call(_ context.Context, _, method string, params any) ([]byte, error) {
	return shared.Rod().Call(c.ctx, string(c.sid), method, params)
}

// evalInFrame evaluates expr in the main world of an out-of-process frame.
func evalInFrame(t *testing.T, f rodagent.Frame, expr string, out any) {
	t.Helper()
	sess := sessionClient{sid: f.SessionID, ctx: testCtx(t, 10*time.Second)}
	res, err := proto.RuntimeEvaluate{Expression: "JSON.stringify(" + expr + ")", ReturnByValue: true}.Call(sess)
	if err != nil || res.ExceptionDetails != nil {
		t.Fatalf("eval in frame %s: %v %v", f.URL, err, res)
	}
	decode(t, res.Result.Value.Str(), out)
}

func frameOf(t *testing.T, s *rodagent.Snapshot, prefix string) rodagent.FrameInfo {
	t.Helper()
	for _, f := range s.Frames {
		if f.Prefix == prefix {
			return f
		}
	}
	t.Fatalf("no frame %s in %+v", prefix, s.Frames)
	return rodagent.FrameInfo{}
}

// A form inside a cross-site (out-of-process) iframe, completed by refs only.
func TestCrossOriginFrameForm(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t, 60*time.Second)
	p := openURL(t, originA+"/frames.html?other="+originB)
	s := snapshot(t, p)
	pay := frameOf(t, s, "f2")
	if !pay.OutOfProc || pay.Origin != originB {
		t.Fatalf("the Payment frame should be out of process from %s: %+v", originB, pay)
	}
	if !strings.Contains(s.String(), `[frame f2 "Payment" `+originB+`]`) {
		t.Errorf("the text shows each frame as a section with its origin:\n%s", s)
	}
	holder := refNamed(t, s, "textbox", "Card holder") // the first one is in f1; take the f2 one by handle
	_ = holder
	for _, h := range []string{"f2/inp-card-holder", "f2/cmb-card-type", "f2/chk-save-card", "f2/btn-pay"} {
		if _, ok := s.Ref(h); !ok {
			t.Fatalf("missing %s:\n%s", h, s)
		}
	}
	steps := []func() (rodagent.ActionStatus, error){
		func() (rodagent.ActionStatus, error) { return p.Type(ctx, "f2/inp-card-holder", "Ada Lovelace") },
		func() (rodagent.ActionStatus, error) { return p.Focus(ctx, "f2/cmb-card-type") },
		func() (rodagent.ActionStatus, error) { return p.Press(ctx, "ArrowDown") }, // native select by keyboard
		func() (rodagent.ActionStatus, error) { return p.Click(ctx, "f2/chk-save-card") },
		func() (rodagent.ActionStatus, error) { return p.Click(ctx, "f2/btn-pay") },
	}
	for i, step := range steps {
		if st, err := step(); err != nil || st != rodagent.Ready {
			t.Fatalf("step %d: %s, %v", i, st, err)
		}
	}
	// Inside the frame: its own record.
	var inFrame []map[string]any
	evalInFrame(t, pay.Frame, "window.__log.filter(r => r.type === 'submit')", &inFrame)
	if len(inFrame) != 1 || inFrame[0]["holder"] != "Ada Lovelace" || inFrame[0]["cardType"] != "mastercard" || inFrame[0]["saveCard"] != true {
		t.Fatalf("frame's submit record: %v", inFrame)
	}
	for _, r := range inFrame {
		if r["isTrusted"] != true {
			t.Errorf("submit was not trusted: %v", r)
		}
	}
	// In the parent: the frame's postMessage.
	var msgs []map[string]any
	eval(t, p, "window.__log.filter(r => r.type === 'message').map(r => r.data)", &msgs)
	if len(msgs) != 1 || msgs[0]["type"] != "paid" || msgs[0]["holder"] != "Ada Lovelace" {
		t.Fatalf("parent's record of the frame's message: %v", msgs)
	}
	s2 := snapshot(t, p)
	if r, _ := s2.Ref("f2/chk-save-card"); r.Checked != "true" {
		t.Errorf("the frame's checkbox state in the next snapshot: %+v\n%s", r, s2)
	}
	// The same-origin frame works the same way.
	if _, err := p.Type(ctx, "f1/inp-card-holder", "Grace"); err != nil {
		t.Fatal(err)
	}
	var v string
	eval(t, p, `document.querySelector('iframe[title="Same origin"]').contentDocument.getElementById('holder').value`, &v)
	if v != "Grace" {
		t.Errorf("same-origin frame input = %q", v)
	}
}

func TestNestedFramesThreeLevels(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t, 60*time.Second)
	p := openURL(t, originA+"/nested.html?a="+originA+"&b="+originB)
	s := snapshot(t, p)
	// The third level's process may attach after the top document's load:
	// a later look shows it, bounded.
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); {
		if _, ok := findRef(s, "button", "Deep button"); ok {
			break
		}
		s = snapshot(t, p, rodagent.WithFull())
	}
	deep := refNamed(t, s, "button", "Deep button")
	if !strings.HasPrefix(deep, "f3/") {
		t.Errorf("the deepest frame's ref should carry its frame prefix: %s", deep)
	}
	if st, err := p.Click(ctx, deep); err != nil || st != rodagent.Ready {
		t.Fatalf("Click(%s) = %s, %v", deep, st, err)
	}
	if err := p.Wait(ctx, rodagent.TextPresent("deep-click")); err != nil {
		t.Fatal(err)
	}
	var msgs []map[string]any
	eval(t, p, "window.__log.filter(r => r.type === 'message').map(r => r.data)", &msgs)
	if len(msgs) != 1 || msgs[0]["type"] != "deep-click" || msgs[0]["isTrusted"] != true {
		t.Fatalf("the click must land on the deep button: %v", msgs)
	}
}

// A frame that commits a new document while a look reads it may be read in
// either document; the refs the look hands out must work in the one the
// frame now holds. The hook navigates the same-origin frame just as the look
// starts reading it, after the look noted which document the frame held.
func TestFrameNavigatedUnderTheRead(t *testing.T) {
	t.Parallel()
	for _, rp := range readPaths {
		t.Run(rp.name, func(t *testing.T) {
			t.Parallel()
			ctx := testCtx(t, 60*time.Second)
			p := openURL(t, originA+"/frames.html?other="+originB)
			rp.set(p)
			s := snapshot(t, p)
			var same string
			for _, f := range s.Frames {
				if f.Prefix != "" && !f.OutOfProc {
					same = string(f.Frame.FrameID)
				}
			}
			if same == "" {
				t.Fatalf("no same-origin frame in %+v", s.Frames)
			}
			var once sync.Once
			hookErr := make(chan error, 1)
			rodagent.BeforeFrameRead(p, func(ctx context.Context, id string) {
				if id != same {
					return
				}
				once.Do(func() {
					// the new document is loaded before the read goes on
					_, err := proto.RuntimeEvaluate{Expression: `new Promise(r => {
					const f = document.getElementById('same-frame');
					f.addEventListener('load', () => r(true), {once: true});
					f.src = 'nested-3.html';
				})`, AwaitPromise: true}.Call(p.Rod().Context(ctx))
					hookErr <- err
				})
			})
			moved := snapshot(t, p, rodagent.WithFull())
			rodagent.BeforeFrameRead(p, nil)
			select {
			case err := <-hookErr:
				if err != nil {
					t.Fatalf("navigating the frame under the read: %v", err)
				}
			default:
				t.Fatal("the look never read the same-origin frame")
			}
			deep := refNamed(t, moved, "button", "Deep button")
			if st, err := p.Click(ctx, deep); err != nil || st != rodagent.Ready {
				t.Fatalf("Click(%s) on a ref the look took in the frame's new document = %s, %v", deep, st, err)
			}
			var log []map[string]any
			eval(t, p, "document.getElementById('same-frame').contentWindow.__log", &log)
			if len(log) != 1 || log[0]["id"] != "deep-button" || log[0]["isTrusted"] != true {
				t.Errorf("the click lands on the button in the frame's new document: %v", log)
			}
			if _, ok := moved.Ref("f1/inp-card-holder"); ok {
				t.Errorf("the look shows the frame's old document as well:\n%s", moved.FullText())
			}
		})
	}
}

func TestLateAndRemovedFrames(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t, 60*time.Second)
	p := openURL(t, originA+"/late-frame.html?other="+originB)
	s := snapshot(t, p)
	if len(s.Frames) != 1 {
		t.Fatalf("no frames yet: %+v", s.Frames)
	}
	if _, err := p.Click(ctx, refNamed(t, s, "button", "Add frame")); err != nil {
		t.Fatal(err)
	}
	if err := p.Wait(ctx, rodagent.TextPresent("frame-loaded")); err != nil {
		t.Fatal(err)
	}
	s2 := snapshot(t, p)
	holder := ""
	for _, r := range s2.Refs {
		if strings.HasSuffix(r.Ref, "/inp-card-holder") {
			holder = r.Ref
		}
	}
	if holder == "" || !strings.Contains(s2.String(), holder) {
		t.Fatalf("the injected frame's controls should appear in the next snapshot:\n%s", s2)
	}
	if st, err := p.Type(ctx, holder, "Late"); err != nil || st != rodagent.Ready {
		t.Fatalf("Type into the late frame: %s, %v", st, err)
	}
	if _, err := p.Click(ctx, refNamed(t, s2, "button", "Remove frame")); err != nil {
		t.Fatal(err)
	}
	st, err := p.Type(ctx, holder, "gone")
	wantStatus(t, "a removed frame's ref", st, err, rodagent.FrameUnreachable, rodagent.ErrFrameUnreachable)
	if !strings.Contains(err.Error(), "localhost") {
		t.Errorf("frame_unreachable should name the frame: %v", err)
	}
	s3 := snapshot(t, p)
	if !strings.Contains(s3.String(), "- "+holder) {
		t.Errorf("the removed frame's refs should go:\n%s", s3)
	}
}

func TestShadowRoots(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t, 30*time.Second)
	p := open(t, "shadow.html")
	s := snapshot(t, p)
	for _, c := range []struct{ field, button, text string }{
		{"Shadow name", "Shadow save", "open root"},
		{"Closed name", "Closed save", "closed root"},
	} {
		if st, err := p.Type(ctx, refNamed(t, s, "textbox", c.field), c.text); err != nil || st != rodagent.Ready {
			t.Fatalf("Type(%s): %s, %v", c.field, st, err)
		}
		if st, err := p.Click(ctx, refNamed(t, s, "button", c.button)); err != nil || st != rodagent.Ready {
			t.Fatalf("Click(%s): %s, %v", c.button, st, err)
		}
	}
	var clicks []map[string]any
	eval(t, p, "window.__log.filter(r => r.type === 'click')", &clicks)
	if len(clicks) != 2 || clicks[0]["shadow"] != "open" || clicks[1]["shadow"] != "closed" {
		t.Fatalf("clicks inside shadow roots: %v", clicks)
	}
	if clicks[0]["value"] != "open root" || clicks[1]["value"] != "closed root" {
		t.Errorf("typed values seen by the shadow code: %v", clicks)
	}
}

// A frame whose renderer crashed is named in the snapshot, and its refs say
// frame_unreachable; the rest of the page is unaffected.
func TestCrashedFrameIsNamed(t *testing.T) {
	// Not parallel: with other tests running (race build, load ~90) a click
	// on a ref of the crashed frame once answered not_found instead of
	// frame_unreachable: which of the frame's crash and its detach wins
	// depends on timing. Its own browser context all the same.
	ctx := testCtx(t, 60*time.Second)
	p := openIsolated(t, originA+"/frames.html?other="+originB)
	// The page sets the Payment frame's src from a script, so a first look
	// can come before its document has loaded: its button was then never a
	// ref, and a click on it was rightly not_found. Look until it is one.
	s := snapshot(t, p)
	for _, ok := s.Ref("f2/btn-pay"); !ok; _, ok = s.Ref("f2/btn-pay") {
		if ctx.Err() != nil {
			t.Fatalf("the Payment frame's button never became a ref:\n%s", s)
		}
		s = snapshot(t, p)
	}
	pay := frameOf(t, s, "f2")
	// It never answers (the renderer is gone); the request is sent before
	// the call waits, so the wait is only how long the test idles.
	_ = proto.PageCrash{}.Call(sessionClient{sid: pay.Frame.SessionID, ctx: testCtx(t, 250*time.Millisecond)})
	s2, err := p.Snapshot(ctx)
	if err != nil {
		t.Fatalf("a crashed frame must not fail the snapshot: %v", err)
	}
	text := s2.String()
	if !strings.Contains(text, "f2") || !strings.Contains(text, "unreachable") {
		t.Errorf("the crashed frame should be named unreachable:\n%s", text)
	}
	st, err := p.Click(ctx, "f2/btn-pay")
	wantStatus(t, "a ref in a crashed frame", st, err, rodagent.FrameUnreachable, rodagent.ErrFrameUnreachable)
	if st, err := p.Click(ctx, refNamed(t, s2, "button", "Top button")); err != nil || st != rodagent.Ready {
		t.Errorf("the rest of the page still works: %s, %v", st, err)
	}
}

// A closed shadow root on a plain element — a <div>, a <span>, not only a
// custom element — hides its tree from the inventory's world, where the
// host looks empty: its controls were no refs at all. The page's own
// attachShadow calls are recorded, and such a document is read from the AX
// tree, which sees inside; a root attached after the first look counts too.
func TestClosedShadowRootOnAnyHost(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, `<!doctype html><title>Closed</title><body>
<h1>Account</h1><div id=host></div>
<button onclick="late()">Add panel</button>
<script>
window.log = [];
if (!location.search.includes('late')) {
  const root = document.getElementById('host').attachShadow({mode: 'closed'});
  root.innerHTML = '<label>Inner name <input id=n></label> <button id=b>Inner save</button>';
  root.getElementById('b').onclick = () => log.push('saved ' + root.getElementById('n').value);
}
function late() {
  const s = document.createElement('span');
  document.body.appendChild(s);
  const r = s.attachShadow({mode: 'closed'});
  r.innerHTML = '<button>Late button</button>';
  r.querySelector('button').onclick = () => log.push('late');
}
</script>`)
	}))
	t.Cleanup(srv.Close)
	ctx := testCtx(t, 60*time.Second)
	p := openURL(t, srv.URL)
	s := snapshot(t, p)
	// The page cannot tell attachShadow is watched.
	var f struct {
		Name, Source string
		Length       int
		Proto, Own   bool
	}
	eval(t, p, `(() => { const f = Element.prototype.attachShadow, d = Object.getOwnPropertyDescriptor(Element.prototype, 'attachShadow');
		return {name: f.name, source: Function.prototype.toString.call(f), length: f.length, proto: 'prototype' in f,
			own: !!d && d.writable && d.enumerable && d.configurable}; })()`, &f)
	if f.Name != "attachShadow" || f.Source != "function attachShadow() { [native code] }" || f.Length != 1 || f.Proto || !f.Own {
		t.Errorf("attachShadow shows the record to the page: %+v", f)
	}
	if st, err := p.Type(ctx, refNamed(t, s, "textbox", "Inner name"), "Ada"); err != nil || !st.OK() {
		t.Fatalf("Type(Inner name) = %s, %v", st, err)
	}
	if st, err := p.Click(ctx, refNamed(t, s, "button", "Inner save")); err != nil || !st.OK() {
		t.Fatalf("Click(Inner save) = %s, %v", st, err)
	}
	if refs, err := p.Find(ctx, rodagent.ByRole("button", "Inner save")); err != nil || len(refs) != 1 {
		t.Errorf("Find(button Inner save) = %d refs, %v", len(refs), err)
	}
	if st, err := p.Click(ctx, refNamed(t, s, "button", "Add panel")); err != nil || !st.OK() {
		t.Fatalf("Click(Add panel) = %s, %v", st, err)
	}
	s = snapshot(t, p)
	if st, err := p.Click(ctx, refNamed(t, s, "button", "Late button")); err != nil || !st.OK() {
		t.Fatalf("Click(Late button) = %s, %v", st, err)
	}
	var log []string
	eval(t, p, "window.log", &log)
	if strings.Join(log, ",") != "saved Ada,late" {
		t.Errorf("the page's log = %q, want the save with the typed name, then the late button", log)
	}

	// The first closed root comes after the first look, which the
	// inventory read: the next look must not take it for a delta of that.
	p = openURL(t, srv.URL+"/?late")
	s = snapshot(t, p)
	if st, err := p.Click(ctx, refNamed(t, s, "button", "Add panel")); err != nil || !st.OK() {
		t.Fatalf("Click(Add panel) = %s, %v", st, err)
	}
	s = snapshot(t, p)
	if st, err := p.Click(ctx, refNamed(t, s, "button", "Late button")); err != nil || !st.OK() {
		t.Fatalf("Click(Late button) after a first look without closed roots = %s, %v", st, err)
	}
	eval(t, p, "window.log", &log)
	if strings.Join(log, ",") != "late" {
		t.Errorf("the page's log = %q, want the late button", log)
	}
}

// A frame's document arrives in parts (a slow server, or Chromium's parser
// yielding mid-document on a busy machine): the look waits for the frame's
// parser to finish rather than read half a form — once per document, and
// bounded, so a document that never finishes is read as it stands. The
// hook starts the server's remaining half as the look starts reading the
// frame; a look that did not wait read the form without its checkbox and
// button.
func TestAFrameIsReadOnceParsed(t *testing.T) {
	t.Parallel()
	for _, rp := range readPaths {
		for _, finishes := range []bool{true, false} {
			name := rp.name + "/finishes"
			if !finishes {
				name = rp.name + "/never"
			}
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				release := make(chan struct{})
				var releaseOnce sync.Once
				done := make(chan struct{})
				t.Cleanup(func() { close(done) })
				srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					w.Header().Set("Content-Type", "text/html; charset=utf-8")
					if r.URL.Path != "/form" {
						fmt.Fprintf(w, `<!doctype html><title>Outer</title>
<script>addEventListener('message', e => { if (e.data === 'partial') window.partial = true; });</script>
<h1>Checkout</h1><iframe title="Slow form" src="%s/form"></iframe>`, strings.Replace(r.Host, "127.0.0.1", "http://localhost", 1))
						return
					}
					fmt.Fprint(w, `<!doctype html><title>Form</title><h1>Payment details</h1>
<form aria-label="Payment details"><label>Card holder <input></label>
<script>parent.postMessage('partial', '*')</script>`)
					w.(http.Flusher).Flush()
					select {
					case <-release:
					case <-done:
						return
					case <-r.Context().Done():
						return
					}
					fmt.Fprint(w, `<label><input type="checkbox"> Save card</label><button type="button">Pay</button></form>`)
				}))
				t.Cleanup(srv.Close)
				p := openURL(t, srv.URL+"/")
				rp.set(p)
				var partial bool
				eval(t, p, `new Promise(r => { if (window.partial) r(true); addEventListener('message', e => e.data === 'partial' && r(true)); })`, &partial)
				var timer *time.Timer
				rodagent.BeforeFrameRead(p, func(context.Context, string) {
					if finishes {
						// the server's second half comes while the look waits
						releaseOnce.Do(func() { timer = time.AfterFunc(300*time.Millisecond, func() { close(release) }) })
					}
				})
				s := snapshot(t, p)
				rodagent.BeforeFrameRead(p, nil)
				if timer != nil {
					timer.Stop()
				}
				if _, ok := findRef(s, "textbox", "Card holder"); !ok {
					t.Fatalf("the part of the form that arrived is read:\n%s", s)
				}
				_, pay := findRef(s, "button", "Pay")
				_, save := findRef(s, "checkbox", "Save card")
				if finishes && (!pay || !save) {
					t.Fatalf("the look read the frame before its parser finished:\n%s", s)
				}
				if !finishes && (pay || save) {
					t.Fatalf("a document that never finished shows what never arrived:\n%s", s)
				}
				if !finishes {
					// the next look does not wait for it again: it takes less
					// than one wait would
					start := time.Now()
					if _, err := p.Snapshot(testCtx(t, 30*time.Second)); err != nil {
						t.Fatalf("a second look at a frame that never finishes parsing: %v", err)
					}
					if d := time.Since(start); d >= rodagent.FrameParseGrace {
						t.Errorf("the second look took %s: it waited for the frame's parser again", d)
					}
				}
			})
		}
	}
}
