package rodagent_test

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"html"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-rod/rod/lib/cdp"

	"github.com/rodagent/rodagent"
)

// slowServer answers every page after delay, as a real server over a real
// network does; /redirect/X answers 302 to /X (also after delay).
func slowServer(t *testing.T, delay time.Duration) *httptest.Server {
	t.Helper()
	s := httptest.NewServer(slowHandler(delay))
	t.Cleanup(s.Close)
	return s
}

// slowHandler serves slowServer's pages.
func slowHandler(delay time.Duration) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(delay) // the server's latency, not a wait of the code under test
		if rest, ok := strings.CutPrefix(r.URL.Path, "/redirect/"); ok {
			http.Redirect(w, r, "/"+rest, http.StatusFound)
			return
		}
		name := strings.Trim(r.URL.Path, "/")
		if name == "" {
			name = "home"
		}
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprintf(w, `<!doctype html><title>%[1]s</title><h1>Page %[1]s</h1>
<p id=out>waiting</p>
<button onclick="document.getElementById('out').textContent='clicked %[1]s'">Go %[1]s</button>
<a href="/dest-link">To link</a>
<button onclick="location='/dest-script'">Script away</button>
<form action="/dest-form" method="get"><label>Query <input name=q></label><button>Submit form</button></form>
<a href="#section">Hash</a>
<button onclick="history.pushState({}, '', '/pushed')">Push</button>
<img alt="Logo" src="data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7" width=20 height=20>
`, name)
	})
	return mux
}

// typedErr fails the test when err is a raw protocol error: every failure a
// public call returns is one of the library's types.
func typedErr(t *testing.T, what string, err error) {
	t.Helper()
	if err == nil {
		return
	}
	var ae *rodagent.ActionError
	var ne *rodagent.NavigationError
	switch {
	case errors.As(err, &ae), errors.As(err, &ne), errors.Is(err, rodagent.ErrClosed), errors.Is(err, rodagent.ErrBrowserGone),
		errors.Is(err, rodagent.ErrPageCrashed), errors.Is(err, rodagent.ErrNotAllowed):
		return
	}
	var ce *cdp.Error
	if errors.As(err, &ce) {
		t.Fatalf("%s: raw CDP error escaped: %v", what, err)
	}
	t.Fatalf("%s: untyped error %T: %v", what, err, err)
}

// Open returns with the new document committed and loaded: the snapshot
// that follows mints refs under it and a click on one of them is ready,
// every time, on a server that takes 300 ms per page.
func TestOpenSnapshotClickSlowServer(t *testing.T) {
	t.Parallel()
	srv := slowServer(t, 300*time.Millisecond)
	p := openURL(t, srv.URL+"/a")
	for i := 0; i < 20; i++ {
		ctx := testCtx(t, 30*time.Second)
		name := fmt.Sprintf("p%d", i)
		err := p.Open(ctx, srv.URL+"/"+name)
		typedErr(t, "Open", err)
		if err != nil {
			t.Fatalf("run %d: Open: %v", i, err)
		}
		if got := p.URL(); got != srv.URL+"/"+name {
			t.Fatalf("run %d: URL() right after Open = %s", i, got)
		}
		s := snapshot(t, p)
		btn := refNamed(t, s, "button", "Go "+name)
		st, err := p.Click(ctx, btn)
		typedErr(t, "Click", err)
		if err != nil || st != rodagent.Ready {
			t.Fatalf("run %d: Click(%s) = %s, %v", i, btn, st, err)
		}
		var out string
		eval(t, p, "document.getElementById('out').textContent", &out)
		if out != "clicked "+name {
			t.Fatalf("run %d: the click did not land: %q", i, out)
		}
	}
}

// A page that wires its buttons in a window load listener (the W3C APG
// examples do) is not handed back before load, whatever holds load back
// past DOMContentLoaded and the network quiet (the moment a page with no
// load listener counts as loaded): an image, a frame of the page's own
// origin or one of another site, each taking 4.5 s — past the 3 s a load
// that is merely near is waited for. A frame still fetching its document
// shows its initial about:blank, complete and readable from the parent:
// that read as a frame already loaded, so APG pages whose frame from
// aria-at.w3.org failed slowly were handed back with their buttons unwired
// (TestTypeMovesARIASliders in two concurrent suites).
func TestOpenWaitsForLoadListeners(t *testing.T) {
	t.Parallel()
	waiting := waitAtOnce(t)
	defer waiting.wait()
	for _, c := range []struct{ name, held string }{
		{"image", `<img alt="" src="/slow.gif" width=10 height=10>`},
		{"frame", `<iframe title=late src="/slow.html"></iframe>`},
		{"cross-site frame", `<iframe title=late src="//{other}/slow.html"></iframe>`},
	} {
		waiting.run(c.name, func(t *testing.T) {
			mux := http.NewServeMux()
			// the server's latency: load comes later than the 3 s a load
			// that is merely near is waited for, within the 10 s a listened
			// one is
			const latency = 4500 * time.Millisecond
			mux.HandleFunc("/slow.gif", func(w http.ResponseWriter, r *http.Request) {
				time.Sleep(latency)
				w.Header().Set("Content-Type", "image/gif")
				b, _ := base64.StdEncoding.DecodeString("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7")
				_, _ = w.Write(b)
			})
			mux.HandleFunc("/slow.html", func(w http.ResponseWriter, r *http.Request) {
				time.Sleep(latency)
				w.Header().Set("Content-Type", "text/html")
				fmt.Fprint(w, `<!doctype html><title>late</title><p>late frame</p>`)
			})
			mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/html")
				// {other} is this server under its other name: another site
				other := strings.Replace(r.Host, "127.0.0.1", "localhost", 1)
				fmt.Fprint(w, `<!doctype html><title>late wiring</title>
<p id=out>waiting</p><button id=go>Go</button>`+strings.ReplaceAll(c.held, "{other}", other)+`
<script>window.addEventListener('load', () => {
  document.getElementById('go').addEventListener('click', () => { document.getElementById('out').textContent = 'clicked'; });
});</script>`)
			})
			srv := httptest.NewServer(mux)
			t.Cleanup(srv.Close)
			p := openURL(t, srv.URL+"/")
			ctx := testCtx(t, 30*time.Second)
			st, err := p.Click(ctx, refNamed(t, snapshot(t, p), "button", "Go"))
			if err != nil || st != rodagent.Ready {
				t.Fatalf("Click = %s, %v", st, err)
			}
			var out string
			eval(t, p, "document.getElementById('out').textContent", &out)
			if out != "clicked" {
				t.Fatalf("the click came before the page's load listener wired the button: %q", out)
			}
		})
	}
}

// A control that does not react while the page is still loading says so:
// here the page wires its checkbox when the document completes (no window
// load listener, so Open returns on DOMContentLoaded and the network quiet
// while an image is held back), and Check's not_changed names the load as
// the next thing to wait for. Once the image comes and load fires, Wait(Load)
// returns and the same Check lands.
func TestNotChangedSaysThePageIsStillLoading(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	var released atomic.Bool
	free := func() {
		if released.CompareAndSwap(false, true) {
			close(release)
		}
	}
	t.Cleanup(free)
	mux := http.NewServeMux()
	mux.HandleFunc("/held.gif", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
			return
		}
		w.Header().Set("Content-Type", "image/gif")
		b, _ := base64.StdEncoding.DecodeString("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7")
		_, _ = w.Write(b)
	})
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, `<!doctype html><title>wired when complete</title>
<label><input type=checkbox id=c onclick="if (document.readyState !== 'complete') event.preventDefault()"> Agree</label>
<img alt="" src="/held.gif" width=10 height=10>`)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	p := openURL(t, srv.URL+"/")
	ctx := testCtx(t, 30*time.Second)
	ref := refNamed(t, snapshot(t, p), "checkbox", "Agree")
	st, err := p.Check(ctx, ref)
	if st != rodagent.NotChanged || err == nil || !strings.Contains(err.Error(), "has not finished loading") {
		t.Fatalf("Check before load = %s, %v; want not_changed saying the page is still loading", st, err)
	}
	free()
	if err := p.Wait(ctx, rodagent.Load()); err != nil {
		t.Fatalf("Wait(Load): %v", err)
	}
	if st, err := p.Check(ctx, ref); err != nil || !st.OK() {
		t.Fatalf("Check after load = %s, %v", st, err)
	}
}

// A page that builds itself in its load handler is drawn when Open
// returns: its first frame (style, layout and paint of what the handler
// built) is not left for the first look to wait behind. The page is small
// enough for that frame to come well within Open's 1 s bound on a loaded
// machine: with 3,000 rows, two suites running at once took longer, and
// Open rightly stopped waiting. Where a machine is loaded past even that
// (two suites on two slow cores), an Open that waited out its bound passes
// and one that returned sooner fails.
func TestOpenReturnsOnceDrawn(t *testing.T) {
	t.Parallel()
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, `<!doctype html><title>built on load</title><table id=t></table>
<script>window.addEventListener('load', () => {
  const t = document.getElementById('t');
  for (let i = 0; i < 300; i++) t.insertRow().innerHTML = '<td>row ' + i + '</td><td><button>Delete ' + i + '</button></td>';
  // the page's own mark, set after the frame that draws the rows, as the library's is
  requestAnimationFrame(() => setTimeout(() => { window.drawn = true; }, 0));
});</script>`)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	p := open(t, "basic.html")
	ctx := testCtx(t, 60*time.Second)
	for i := 0; i < 3; i++ {
		start := time.Now()
		if err := p.Open(ctx, srv.URL+"/?"+strconv.Itoa(i)); err != nil {
			t.Fatal(err)
		}
		took := time.Since(start)
		var drawn bool
		eval(t, p, "window.drawn === true", &drawn)
		switch {
		case drawn:
		case took < time.Second:
			t.Fatalf("load %d: Open returned after %v, before the page had drawn what its load handler built", i, took)
		default:
			// The wait for the frame is bounded (a second): two suites on
			// two loaded cores have run past it (CI's concurrent step). An
			// Open that did not wait at all returns sooner on any machine
			// not that loaded.
			t.Logf("load %d: not drawn when Open returned after %v (its frame wait is bounded)", i, took)
		}
	}
}

// Open follows redirects and returns on the final document.
func TestOpenRedirectSettles(t *testing.T) {
	t.Parallel()
	srv := slowServer(t, 150*time.Millisecond)
	p := openURL(t, srv.URL+"/a")
	ctx := testCtx(t, 30*time.Second)
	if err := p.Open(ctx, srv.URL+"/redirect/final"); err != nil {
		t.Fatal(err)
	}
	if p.URL() != srv.URL+"/final" {
		t.Fatalf("URL after a redirect = %s", p.URL())
	}
	s := snapshot(t, p)
	refNamed(t, s, "button", "Go final")
	if r := p.LastAction(); r.Verb != "open" || !r.Navigated || r.URL != srv.URL+"/final" {
		t.Fatalf("LastAction after Open = %+v", r)
	}
}

// An action that navigates — a link, a form submit, Enter in a field, a
// script's location= — is reported by LastAction, and the next Snapshot
// shows the new document under its URL, saying where the tab went.
func TestActionNavigationsSettle(t *testing.T) {
	t.Parallel()
	waiting := waitAtOnce(t)
	defer waiting.wait()
	srv := slowServer(t, 200*time.Millisecond)
	cases := []struct {
		name string
		act  func(t *testing.T, ctx context.Context, p *rodagent.Page, s *rodagent.Snapshot) (rodagent.ActionStatus, error)
		dest string
	}{
		{"link", func(t *testing.T, ctx context.Context, p *rodagent.Page, s *rodagent.Snapshot) (rodagent.ActionStatus, error) {
			return p.Click(ctx, refNamed(t, s, "link", "To link"))
		}, "/dest-link"},
		{"script", func(t *testing.T, ctx context.Context, p *rodagent.Page, s *rodagent.Snapshot) (rodagent.ActionStatus, error) {
			return p.Click(ctx, refNamed(t, s, "button", "Script away"))
		}, "/dest-script"},
		{"submit", func(t *testing.T, ctx context.Context, p *rodagent.Page, s *rodagent.Snapshot) (rodagent.ActionStatus, error) {
			return p.Click(ctx, refNamed(t, s, "button", "Submit form"))
		}, "/dest-form"},
		{"enter", func(t *testing.T, ctx context.Context, p *rodagent.Page, s *rodagent.Snapshot) (rodagent.ActionStatus, error) {
			if st, err := p.Type(ctx, refNamed(t, s, "textbox", "Query"), "hello"); err != nil {
				return st, err
			}
			return p.Press(ctx, "Enter")
		}, "/dest-form"},
	}
	for _, tc := range cases {
		waiting.run(tc.name, func(t *testing.T) { // each run opens a tab of its own
			for run := 0; run < 3; run++ {
				ctx := testCtx(t, 30*time.Second)
				p := openURL(t, srv.URL+"/start")
				s := snapshot(t, p)
				st, err := tc.act(t, ctx, p, s)
				typedErr(t, tc.name, err)
				if err != nil || !st.OK() {
					t.Fatalf("%s: %s %v", tc.name, st, err)
				}
				r := p.LastAction()
				if !r.Navigated || !strings.Contains(r.URL, tc.dest) {
					t.Fatalf("LastAction after %s = %+v, want a navigation to %s", tc.name, r, tc.dest)
				}
				s2, err := p.Snapshot(ctx)
				typedErr(t, "Snapshot", err)
				if err != nil {
					t.Fatal(err)
				}
				want := strings.TrimPrefix(tc.dest, "/")
				if !strings.Contains(s2.URL, tc.dest) || !strings.Contains(p.URL(), tc.dest) {
					t.Fatalf("snapshot URL %s, page URL %s, want %s", s2.URL, p.URL(), tc.dest)
				}
				if !navigatedLine(s2.String(), tc.dest) {
					t.Fatalf("the snapshot does not say where the tab went:\n%s", s2)
				}
				btn := refNamed(t, s2, "button", "Go "+want)
				if st, err := p.Click(ctx, btn); err != nil || st != rodagent.Ready {
					t.Fatalf("click on the new document: %s %v", st, err)
				}
				// The old document's refs say the page changed.
				if _, err := p.Click(ctx, refNamed(t, s, "button", "Go start")); !errors.Is(err, rodagent.ErrPageChanged) {
					t.Fatalf("old ref after navigation: %v", err)
				}
			}
		})
	}
}

// A navigation a click's handler starts only after the renderer has been
// busy for a while — a heavy handler, or any handler on a loaded machine —
// is still the click's: LastAction says so. The renderer answers the
// library's question (did the input navigate?) only once that work is
// done; the question waited 1 s at most, so a renderer slower than that
// read as no navigation (TestActionNavigationsSettle under load), and the
// question could be answered before the task that navigates ran.
func TestActionNavigationAfterBusyRenderer(t *testing.T) {
	t.Parallel()
	srv := slowServer(t, 0)
	p := openURL(t, srv.URL+"/start")
	ctx := testCtx(t, 30*time.Second)
	// The handler returns at once (the click's input is acknowledged); the
	// renderer is then busy for 1.5 s, by its own clock, before it navigates.
	eval(t, p, `(document.querySelector('button').addEventListener('click', () => setTimeout(() => {
		const t = performance.now();
		while (performance.now() - t < 1500) {}
		location = '/dest-busy';
	}, 0)), true)`, nil)
	s := snapshot(t, p)
	st, err := p.Click(ctx, refNamed(t, s, "button", "Go start"))
	typedErr(t, "Click", err)
	if err != nil || !st.OK() {
		t.Fatalf("Click: %s %v", st, err)
	}
	if r := p.LastAction(); !r.Navigated || !strings.Contains(r.URL, "/dest-busy") {
		t.Fatalf("LastAction after a click whose handler navigates after 1.5 s of work = %+v, want a navigation to /dest-busy", r)
	}
	s2, err := p.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !navigatedLine(s2.String(), "/dest-busy") {
		t.Fatalf("the snapshot does not say where the tab went:\n%s", s2)
	}
}

// The next action waits for a navigation under way, so it never acts on the
// document that is being left: a ref of that document is PageChanged.
func TestActionAfterNavigationWaits(t *testing.T) {
	t.Parallel()
	srv := slowServer(t, 400*time.Millisecond)
	p := openURL(t, srv.URL+"/start")
	ctx := testCtx(t, 30*time.Second)
	s := snapshot(t, p)
	if _, err := p.Click(ctx, refNamed(t, s, "link", "To link")); err != nil {
		t.Fatal(err)
	}
	_, err := p.Click(ctx, refNamed(t, s, "button", "Go start"))
	if !errors.Is(err, rodagent.ErrPageChanged) {
		t.Fatalf("acting on the old document while a navigation is under way: %v", err)
	}
	if !strings.HasSuffix(p.URL(), "/dest-link") {
		t.Fatalf("URL = %s", p.URL())
	}
}

// Same-document navigations (a fragment, pushState) keep refs.
func TestSameDocumentNavigationKeepsRefs(t *testing.T) {
	t.Parallel()
	srv := slowServer(t, 0)
	p := openURL(t, srv.URL+"/start")
	ctx := testCtx(t, 30*time.Second)
	s := snapshot(t, p)
	if st, err := p.Click(ctx, refNamed(t, s, "link", "Hash")); err != nil || !st.OK() {
		t.Fatalf("hash link: %s %v", st, err)
	}
	if st, err := p.Click(ctx, refNamed(t, s, "button", "Push")); err != nil || !st.OK() {
		t.Fatalf("pushState: %s %v", st, err)
	}
	s2 := snapshot(t, p)
	if !strings.HasSuffix(s2.URL, "/pushed") {
		t.Fatalf("URL after pushState = %s", s2.URL)
	}
	if st, err := p.Click(ctx, refNamed(t, s, "button", "Go start")); err != nil || st != rodagent.Ready {
		t.Fatalf("a ref taken before the route change: %s %v", st, err)
	}
	// A history step between entries of one document is no navigation that
	// ended empty: each lands, and the refs still act.
	for i := range 2 {
		before := p.URL()
		if err := p.Back(ctx); err != nil {
			t.Fatalf("Back %d to an entry of the same document: %v", i+1, err)
		}
		if p.URL() == before {
			t.Fatalf("Back %d stayed at %s", i+1, before)
		}
	}
	if st, err := p.Click(ctx, refNamed(t, s, "button", "Push")); err != nil || st != rodagent.Ready {
		t.Fatalf("a ref after stepping back within the document: %s %v", st, err)
	}
}

// Back, Forward and Reload return with the document they went to loaded and
// URL() already saying so.
func TestHistorySettles(t *testing.T) {
	t.Parallel()
	srv := slowServer(t, 300*time.Millisecond)
	p := openURL(t, srv.URL+"/one")
	ctx := testCtx(t, 60*time.Second)
	if err := p.Open(ctx, srv.URL+"/two"); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		err := p.Back(ctx)
		typedErr(t, "Back", err)
		if err != nil || p.URL() != srv.URL+"/one" {
			t.Fatalf("Back: %v, URL %s", err, p.URL())
		}
		refNamed(t, snapshot(t, p), "button", "Go one")
		err = p.Forward(ctx)
		typedErr(t, "Forward", err)
		if err != nil || p.URL() != srv.URL+"/two" {
			t.Fatalf("Forward: %v, URL %s", err, p.URL())
		}
		s := snapshot(t, p)
		if st, err := p.Click(ctx, refNamed(t, s, "button", "Go two")); err != nil || st != rodagent.Ready {
			t.Fatalf("click after Forward: %s %v", st, err)
		}
		err = p.Reload(ctx)
		typedErr(t, "Reload", err)
		if err != nil {
			t.Fatal(err)
		}
		s = snapshot(t, p)
		if st, err := p.Click(ctx, refNamed(t, s, "button", "Go two")); err != nil || st != rodagent.Ready {
			t.Fatalf("click after Reload: %s %v", st, err)
		}
	}
}

// ByRole takes the ARIA role names, and Chromium's internal ones as aliases.
func TestByRoleImg(t *testing.T) {
	t.Parallel()
	srv := slowServer(t, 0)
	p := openURL(t, srv.URL+"/start")
	ctx := testCtx(t, 30*time.Second)
	for _, role := range []string{"img", "image", "IMG"} {
		refs, err := p.Find(ctx, rodagent.ByRole(role, "Logo"))
		if err != nil || len(refs) != 1 {
			t.Fatalf("ByRole(%q, Logo): %v %v", role, refs, err)
		}
	}
	l, err := rodagent.ParseLocator(`role=img[name="Logo"]`)
	if err != nil {
		t.Fatal(err)
	}
	if refs, err := p.Find(ctx, l); err != nil || len(refs) != 1 {
		t.Fatalf("role=img: %v %v", refs, err)
	}
}

// A page that keeps navigating itself: whatever a public call returns while
// documents come and go is a result or a typed error, never a raw protocol one.
func TestNoRawErrorsWhileNavigating(t *testing.T) {
	t.Parallel()
	// Once stop is set, documents carry a cookie that ends the chain of
	// navigations, so the test can show the same tab read afterwards.
	var stop atomic.Bool
	slow := slowHandler(50 * time.Millisecond)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if stop.Load() {
			http.SetCookie(w, &http.Cookie{Name: "rodagent-stop", Value: "1", Path: "/"})
		}
		slow.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	p := openURL(t, srv.URL+"/start")
	ctx := testCtx(t, 90*time.Second)
	// Every document of the tab moves on to the next after 0–150 ms.
	if _, err := p.Rod().EvalOnNewDocument(`document.cookie.includes('rodagent-stop=1') || setTimeout(() => { location.href = '/n' + Math.floor(Math.random() * 1000); }, Math.random() * 150)`); err != nil {
		t.Fatal(err)
	}
	if err := p.Reload(ctx); err != nil {
		typedErr(t, "Reload", err)
	}
	ok := 0
	for i := 0; i < 20; i++ {
		// 2 s: a call either reads a document in a moment between two
		// navigations or times out, typed; a longer deadline only waits longer.
		c, cancel := context.WithTimeout(ctx, 2*time.Second)
		s, err := p.Snapshot(c)
		typedErr(t, "Snapshot", err)
		if err == nil {
			ok++
			if len(s.Refs) > 0 {
				_, err := p.Click(c, s.Refs[0].Ref)
				typedErr(t, "Click", err)
			}
		}
		_, err = p.Text(c)
		typedErr(t, "Text", err)
		_, err = p.Console(c)
		typedErr(t, "Console", err)
		_, err = p.Press(c, "Tab")
		typedErr(t, "Press", err)
		_, err = p.Find(c, rodagent.ByRole("button", ""))
		typedErr(t, "Find", err)
		cancel()
	}
	// How many looks fit between two navigations depends on the machine's
	// load (none at a load of ~25 on 2 cores), so it is reported, not
	// asserted; what is asserted is that the tab reads once it stops.
	t.Logf("%d of 20 snapshots read a document while the tab kept navigating", ok)
	stop.Store(true)
	for {
		s, err := p.Snapshot(ctx)
		typedErr(t, "Snapshot", err)
		if err == nil {
			if _, found := findRef(s, "button", "Script away"); found {
				break
			}
		}
		if ctx.Err() != nil {
			t.Fatalf("no snapshot of the tab after it stopped navigating: %v", err)
		}
	}
}

// navigatedLine reports whether a snapshot's text says the tab navigated to a URL with path.
func navigatedLine(text, path string) bool {
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(l, "navigated to ") && strings.Contains(l, path) {
			return true
		}
	}
	return false
}

// loadServer serves pages whose load event comes late: /page?script=URL has
// an async script (its load event waits for it) and a load handler that
// collapses a disclosure menu and builds a button, as the APG examples do;
// /img-page?img=URL waits on an image instead. /slow.js?ms=N answers after N
// ms; /hang (a script or an image) never answers while the test runs.
func loadServer(t *testing.T) *httptest.Server {
	t.Helper()
	stop := make(chan struct{})
	latency := func(r *http.Request, d time.Duration) bool { return rodagent.ServerLatency(r, d, stop) }
	const page = `<!doctype html><link rel=icon href="data:,"><title>Late load</title>
<nav><button id=menu-button aria-expanded=true aria-controls=menu>Menu</button>
<ul id=menu><li><a href="#item">Menu item</a></li></ul></nav>
<main id=main><h1>Late load</h1></main>
%s
<script>
addEventListener('load', () => {
	document.getElementById('menu-button').setAttribute('aria-expanded', 'false');
	document.getElementById('menu').hidden = true;
	const b = document.createElement('button');
	b.textContent = 'Built on load';
	document.getElementById('main').append(b);
});
</script>`
	mux := http.NewServeMux()
	mux.HandleFunc("/page", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprintf(w, page, `<script async src="`+html.EscapeString(r.URL.Query().Get("script"))+`"></script>`)
	})
	mux.HandleFunc("/img-page", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprintf(w, page, `<img alt="Camera" width=20 height=20 src="`+html.EscapeString(r.URL.Query().Get("img"))+`">`)
	})
	mux.HandleFunc("/slow.js", func(w http.ResponseWriter, r *http.Request) {
		ms, err := strconv.Atoi(r.URL.Query().Get("ms"))
		if err != nil || !latency(r, time.Duration(ms)*time.Millisecond) {
			return
		}
		w.Header().Set("Content-Type", "text/javascript")
		fmt.Fprint(w, "window.slowScript = true;")
	})
	mux.HandleFunc("/hang", func(w http.ResponseWriter, r *http.Request) { latency(r, time.Hour) })
	s := httptest.NewServer(mux)
	t.Cleanup(func() {
		close(stop)
		s.Close()
	})
	return s
}

// Open returns once the page's load handlers have run when its load event
// is near: an async script that arrives 1.5 s after the page (Chromium's
// network quiet, two connections for 500 ms, comes before it) is waited for,
// so the first look shows the menu the load handler collapsed and the
// button it built; Reload waits alike. A page whose load never comes does
// not hold Open: an image that never answers (a stream) returns at the
// network quiet, a script that never answers at the grace (3 s).
func TestOpenWaitsForNearLoad(t *testing.T) {
	t.Parallel()
	waiting := waitAtOnce(t)
	defer waiting.wait()
	srv := loadServer(t)
	waiting.run("slow script", func(t *testing.T) {
		ctx := testCtx(t, 60*time.Second)
		p := openURL(t, "about:blank")
		for _, verb := range []string{"open", "reload"} {
			var err error
			if verb == "open" {
				err = p.Open(ctx, srv.URL+"/page?script=/slow.js%3Fms%3D1500")
			} else {
				err = p.Reload(ctx)
			}
			if err != nil {
				t.Fatalf("%s: %v", verb, err)
			}
			s := snapshot(t, p, rodagent.WithFull())
			text := s.String()
			if _, ok := findRef(s, "button", "Built on load"); !ok || strings.Contains(text, "Menu item") {
				t.Errorf("after %s the first look should show the page after its load handler ran (menu collapsed, button built):\n%s", verb, text)
			}
		}
	})
	for _, c := range []struct{ name, path string }{
		{"script that never answers", "/page?script=/hang"},
		{"image that never answers", "/img-page?img=/hang"},
	} {
		waiting.run(c.name, func(t *testing.T) {
			p := openURL(t, "about:blank")
			ctx := testCtx(t, 60*time.Second)
			start := time.Now()
			if err := p.Open(ctx, srv.URL+c.path); err != nil {
				t.Fatalf("Open: %v", err)
			}
			took := time.Since(start)
			t.Logf("Open of a page whose load never fires (%s): %v", c.name, took)
			// the network quiet (500 ms) and the grace (3 s), on a loaded machine
			if took > 20*time.Second {
				t.Errorf("Open of a page whose load never fires took %v: it should return at the network quiet or the grace", took)
			}
			var slow bool
			eval(t, p, "document.readyState !== 'complete'", &slow)
			if !slow {
				t.Errorf("the page loaded after all: the case is not tested")
			}
		})
	}
}

// A navigation the page asks for that never commits — the answer is a
// download, or 204 No Content — leaves the tab on its page. The next look
// and the next action read that page at once: they used to wait for the
// commit until navSettleCap (10 s), as Chromium's loading events for the
// main frame were dropped, and the deadline below failed them.
func TestNavigationThatNeverCommits(t *testing.T) {
	t.Parallel()
	srv := downloadServer(t)
	for _, link := range []string{"Get report", "Nothing here"} {
		t.Run(link, func(t *testing.T) {
			p := openURL(t, srv.URL+"/start")
			s := snapshot(t, p)
			if st, err := p.Click(testCtx(t, 30*time.Second), refNamed(t, s, "link", link)); err != nil || !st.OK() {
				t.Fatalf("Click(%s) = %s, %v", link, st, err)
			}
			// Well inside navSettleCap, and a work budget: the look takes
			// a fraction of a second.
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			s2, err := p.Snapshot(ctx)
			if err != nil {
				t.Fatalf("the look after %q waited for a navigation that never commits: %v", link, err)
			}
			if !strings.HasSuffix(s2.URL, "/start") {
				t.Errorf("the tab should still show /start, the snapshot says %s", s2.URL)
			}
			if st, err := p.Click(ctx, refNamed(t, s2, "button", "Ping")); err != nil || !st.OK() {
				t.Fatalf("Click(Ping) = %s, %v", st, err)
			}
			if out := snapshot(t, p).String(); !strings.Contains(out, "still here") {
				t.Errorf("the page should have answered the click:\n%s", out)
			}
		})
	}
}

// While the server of the next document has not answered, Chromium holds
// every command to the tab until a document commits, so a look cannot read
// the page it is leaving. The look waits navSettleCap for the document and
// then says so — a typed timeout before the caller's deadline, naming the
// navigation — instead of sending reads that wait out that deadline. Once
// the server answers, the next look reads the new page.
func TestLookWhileTheNextDocumentHangs(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	mux := http.NewServeMux()
	mux.HandleFunc("/start", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, `<!doctype html><title>Start</title><a href="/hang">Slow report</a>`)
	})
	mux.HandleFunc("/hang", func(w http.ResponseWriter, r *http.Request) {
		select { // the server's own stall, released by the test
		case <-release:
		case <-r.Context().Done():
		}
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, `<!doctype html><title>Report</title><p>report ready</p>`)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	released := false
	t.Cleanup(func() {
		if !released {
			close(release)
		}
	})
	p := openURL(t, srv.URL+"/start")
	s := snapshot(t, p)
	// The click learns from the navigation's own events that it navigated:
	// its round trip to the page, which the browser holds too, is dropped
	// (it took the 10 s bound).
	ctx := testCtx(t, 60*time.Second)
	cctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if st, err := p.Click(cctx, refNamed(t, s, "link", "Slow report")); err != nil || !st.OK() || cctx.Err() != nil {
		t.Fatalf("Click = %s, %v (its deadline passed: %v); it should return once the navigation starts", st, err, cctx.Err() != nil)
	}
	if r := p.LastAction(); !r.Navigated || !strings.HasSuffix(r.URL, "/hang") {
		t.Errorf("LastAction = %+v, want a navigation to /hang", r)
	}
	_, err := p.Snapshot(ctx)
	typedErr(t, "Snapshot", err)
	if !errors.Is(err, rodagent.ErrTimeout) || ctx.Err() != nil || !strings.Contains(err.Error(), "still navigating to") {
		t.Fatalf("a look while the next document hangs should say so when the navigation bound passes, before the caller's deadline; got %v (deadline passed: %v)", err, ctx.Err() != nil)
	}
	// The reads that do not wait for a load say the same, and at once: the
	// navigation began longer than the bound ago. (They sent their round
	// trip, which the browser held to the caller's deadline.)
	reads := map[string]func(context.Context) error{
		"Eval": func(ctx context.Context) error { _, err := p.Eval(ctx, "1"); return err },
		"Text": func(ctx context.Context) error { _, err := p.Text(ctx); return err },
		"Find": func(ctx context.Context) error {
			_, err := p.Find(ctx, rodagent.ByRole("link", "Slow report"))
			return err
		},
		"Screenshot": func(ctx context.Context) error { _, err := p.Screenshot(ctx); return err },
	}
	for name, read := range reads {
		rctx, cancel := context.WithTimeout(ctx, 8*time.Second)
		start := time.Now()
		err := read(rctx)
		cancel()
		typedErr(t, name, err)
		if !errors.Is(err, rodagent.ErrTimeout) || !strings.Contains(err.Error(), "still navigating to") || time.Since(start) > 4*time.Second {
			t.Errorf("%s while the next document hangs past the bound = %v after %v; want the navigation's timeout at once", name, err, time.Since(start).Round(time.Millisecond))
		}
	}
	close(release)
	released = true
	s2 := snapshot(t, p)
	if !strings.HasSuffix(s2.URL, "/hang") || !strings.Contains(s2.String(), "report ready") {
		t.Fatalf("once the server answers, the look should read the new page:\n%s", s2)
	}
}

// A script that rewrites its loaded page with document.open() and write(),
// without close(), starts the document's lifecycle over under the same
// loader, and a document never closed never fires load: the look after it
// waited navSettleCap (10 s) for a load that cannot come. It reads the
// rewritten page at once.
func TestLookAfterDocumentRewrite(t *testing.T) {
	t.Parallel()
	p := open(t, "basic.html")
	eval(t, p, `(() => { const b = document.createElement('button'); b.textContent = 'Rewrite';
		b.onclick = () => { document.open(); document.write('<p>rewritten</p><button>Again</button>'); };
		document.body.prepend(b); return 1; })()`, nil)
	s := snapshot(t, p)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if st, err := p.Click(ctx, refNamed(t, s, "button", "Rewrite")); err != nil || !st.OK() {
		t.Fatalf("Click(Rewrite) = %s, %v", st, err)
	}
	s2, err := p.Snapshot(ctx)
	if err != nil {
		t.Fatalf("the look after document.open() waited for a load that cannot come: %v", err)
	}
	if _, ok := findRef(s2, "button", "Again"); !ok || !strings.Contains(s2.String(), "rewritten") {
		t.Errorf("the look should show the rewritten page:\n%s", s2)
	}
	// The document is still open (loading, never closed), but no other
	// is on its way: the reads that do not wait for a load answer at once.
	start := time.Now()
	if _, err := p.Eval(ctx, "1"); err != nil || time.Since(start) > 2*time.Second {
		t.Errorf("Eval after document.open() = %v after %v", err, time.Since(start))
	}
	if _, err := p.Text(ctx); err != nil {
		t.Errorf("Text after document.open() = %v", err)
	}
}

// A page whose beforeunload handler asks to confirm leaving keeps the tab
// when nothing armed the dialog, and Open, Reload and Back say so at once
// with a NavigationError. Reload and Back used to wait for a navigation
// Chromium had cancelled — Reload to the caller's deadline — and Back then
// reported success with the tab where it was. A dialog armed to accept
// lets the next step leave.
func TestBeforeUnloadKeepsTheTabAndSaysSo(t *testing.T) {
	t.Parallel()
	o := newTwoOrigins(t)
	o.page("/first", `<!doctype html><a href="/stay">Go on</a>`)
	o.page("/stay", `<!doctype html><p>unsaved work</p><button>Edit</button>
<script>addEventListener('beforeunload', e => { e.preventDefault(); e.returnValue = 'unsaved' })</script>`)
	ctx := testCtx(t, 30*time.Second)
	p := openURL(t, o.allowed+"/first")
	if _, err := p.Click(ctx, refNamed(t, snapshot(t, p), "link", "Go on")); err != nil {
		t.Fatal(err)
	}
	// Chromium asks only a page the user has interacted with.
	if _, err := p.Click(ctx, refNamed(t, snapshot(t, p), "button", "Edit")); err != nil {
		t.Fatal(err)
	}
	stay := o.allowed + "/stay"
	steps := []struct {
		name string
		do   func(context.Context) error
	}{
		{"Open", func(ctx context.Context) error { return p.Open(ctx, o.allowed+"/first") }},
		{"Reload", p.Reload},
		{"Back", p.Back},
		{"Reload again", p.Reload},
		{"Back again", p.Back},
	}
	for _, step := range steps {
		// the deadline is the subject: a step must not wait it out
		err := step.do(testCtx(t, 10*time.Second))
		var nav *rodagent.NavigationError
		if !errors.As(err, &nav) {
			t.Fatalf("%s on a page that refuses to unload: want a NavigationError, got %v", step.name, err)
		}
		if p.URL() != stay {
			t.Fatalf("%s: the tab moved to %s", step.name, p.URL())
		}
		t.Logf("%s: %v", step.name, err)
	}
	p.ArmDialog(true, "", 0)
	if err := p.Back(ctx); err != nil {
		t.Fatalf("Back with the dialog armed to accept: %v", err)
	}
	if p.URL() != o.allowed+"/first" {
		t.Errorf("Back with the dialog armed should leave; the tab is at %s", p.URL())
	}
}
