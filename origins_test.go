package rodagent_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rodagent/rodagent"
)

// twoOrigins serves pages under two origins of one server: allowed
// (127.0.0.1) and forbidden (localhost). Every request the forbidden origin
// receives is counted: enforcement means that count stays 0.
type twoOrigins struct {
	allowed, forbidden string
	forbiddenHits      atomic.Int64
	mu                 sync.Mutex
	pages              map[string]string
	handlers           map[string]http.HandlerFunc
	hits               map[string]int // requests per host+path
}

func newTwoOrigins(t *testing.T) *twoOrigins {
	t.Helper()
	o := &twoOrigins{pages: map[string]string{}, handlers: map[string]http.HandlerFunc{}, hits: map[string]int{}}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &httptest.Server{Listener: ln, Config: &http.Server{Handler: http.HandlerFunc(o.serve)}}
	srv.Start()
	t.Cleanup(srv.Close)
	port := ln.Addr().(*net.TCPAddr).Port
	o.allowed = fmt.Sprintf("http://127.0.0.1:%d", port)
	o.forbidden = fmt.Sprintf("http://localhost:%d", port)
	return o
}

func (o *twoOrigins) page(path, html string) {
	o.mu.Lock()
	o.pages[path] = strings.ReplaceAll(strings.ReplaceAll(html, "FORBIDDEN", o.forbidden), "ALLOWED", o.allowed)
	o.mu.Unlock()
}

// handle serves path (on both origins) with h.
func (o *twoOrigins) handle(path string, h http.HandlerFunc) {
	o.mu.Lock()
	o.handlers[path] = h
	o.mu.Unlock()
}

// hitCount is how many requests origin+path received ("http://…/api").
func (o *twoOrigins) hitCount(url string) int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.hits[url]
}

func (o *twoOrigins) serve(w http.ResponseWriter, r *http.Request) {
	if strings.HasPrefix(r.Host, "localhost") {
		o.forbiddenHits.Add(1)
	}
	o.mu.Lock()
	o.hits["http://"+r.Host+r.URL.Path]++
	h := o.handlers[r.URL.Path]
	o.mu.Unlock()
	if h != nil {
		h(w, r)
		return
	}
	if r.URL.Path == "/redirect" {
		http.Redirect(w, r, r.URL.Query().Get("to"), http.StatusFound)
		return
	}
	o.mu.Lock()
	html, ok := o.pages[r.URL.Path]
	o.mu.Unlock()
	if !ok {
		html = `<!doctype html><title>landing</title><button onclick="fetch('/clicked')">Delete account</button>`
	}
	w.Header().Set("Content-Type", "text/html")
	fmt.Fprint(w, html)
}

// guardedContext connects to the shared browser with an allowlist and gives
// the test an isolated context of its own.
func guardedContext(t *testing.T, allowed ...string) *rodagent.Browser {
	t.Helper()
	ctx := testCtx(t, 30*time.Second)
	b, err := rodagent.Connect(ctx, shared.DevToolsURL(), rodagent.WithAllowedOrigins(allowed...))
	if err != nil {
		t.Fatalf("Connect: %v", err)
	}
	t.Cleanup(func() { _ = b.Close() })
	c, err := b.NewContext(ctx)
	if err != nil {
		t.Fatalf("NewContext: %v", err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return c
}

// waitBlocked takes snapshots until one reports a blocked navigation, and
// returns its text.
func waitBlocked(t *testing.T, p *rodagent.Page) string {
	t.Helper()
	// how soon the block shows is not the subject: a work budget, which a
	// loaded machine stretches (it failed at 15 s at load 60)
	ctx := testCtx(t, workBudget)
	for {
		s, err := p.Snapshot(ctx)
		if err != nil {
			t.Fatalf("no snapshot reported a blocked navigation: %v", err)
		}
		if len(s.Blocked) > 0 {
			return s.String()
		}
	}
}

func TestOriginsEnforcedWhereNavigationLands(t *testing.T) {
	t.Parallel()
	o := newTwoOrigins(t)
	b := guardedContext(t, o.allowed)
	o.page("/link", `<a href="FORBIDDEN/landing">Go away</a>`)
	o.page("/redirect-link", `<a href="/redirect?to=FORBIDDEN/landing">Go via redirect</a>`)
	o.page("/form", `<form action="FORBIDDEN/landing" method="post"><input name="q" value="x"><button>Send</button></form>`)
	o.page("/script", `<button onclick="location.href='FORBIDDEN/landing'">Move</button>`)
	o.page("/popup", `<button onclick="window.open('FORBIDDEN/landing')">Open popup</button>`)
	o.page("/blank-link", `<a href="FORBIDDEN/landing" target="_blank">New tab</a>`)
	o.page("/timer", `<title>timer</title><p>soon</p><script>setTimeout(() => { location.href = 'FORBIDDEN/landing' }, 50)</script>`)
	o.page("/meta", `<meta http-equiv="refresh" content="0;url=FORBIDDEN/landing"><p>refreshing</p>`)
	o.page("/iframe", `<p>outer</p><iframe title="Elsewhere" src="FORBIDDEN/landing"></iframe>`)
	o.page("/ok", `<a href="/ok2">Next</a>`)
	o.page("/ok2", `<p>second page</p>`)

	clicks := []struct{ name, path, role, label string }{
		{"link click", "/link", "link", "Go away"},
		{"server redirect", "/redirect-link", "link", "Go via redirect"},
		{"form submit", "/form", "button", "Send"},
		{"location= immediate", "/script", "button", "Move"},
		{"popup", "/popup", "button", "Open popup"},
		{"target=_blank", "/blank-link", "link", "New tab"},
	}
	for _, tc := range clicks {
		t.Run(tc.name, func(t *testing.T) {
			ctx := testCtx(t, 30*time.Second)
			p, err := b.NewPage(ctx, o.allowed+tc.path)
			if err != nil {
				t.Fatalf("NewPage: %v", err)
			}
			defer p.Close()
			s := snapshot(t, p)
			st, err := p.Click(ctx, refNamed(t, s, tc.role, tc.label))
			if !errors.Is(err, rodagent.ErrNotAllowed) || !errors.Is(err, rodagent.ErrNavigationBlocked) || st != rodagent.NavigationBlocked {
				t.Fatalf("the click that set off a navigation to a forbidden origin should fail with navigation_blocked and ErrNotAllowed, got %q, %v", st, err)
			}
			if !strings.HasPrefix(p.URL(), o.allowed) {
				t.Fatalf("the tab left the allowed origin: %s", p.URL())
			}
			// The navigation is decided (blocked): the next look does not
			// wait for it (it used to wait navSettleCap, 10 s, for a stop
			// Chromium never reports).
			after, err := p.Snapshot(testCtx(t, 8*time.Second))
			if err != nil {
				t.Fatalf("the look after a blocked navigation: %v", err)
			}
			text := after.String()
			if !strings.Contains(text, "blocked navigation to "+o.forbidden) {
				t.Errorf("the next snapshot should say where the blocked navigation went:\n%s", text)
			}
			if strings.Contains(text, "opened a new tab") {
				t.Errorf("a popup the allowlist closed is reported opened:\n%s", text)
			}
			tabs := waitTabs(t, b, 1)
			if len(tabs) != 1 {
				t.Errorf("a popup to a forbidden origin should be closed; tabs: %+v", tabs)
			}
		})
	}
	for _, tc := range []struct{ name, path string }{{"location= on a timer", "/timer"}, {"meta refresh", "/meta"}} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := testCtx(t, 30*time.Second)
			p, err := b.NewPage(ctx, o.allowed+tc.path)
			if err != nil {
				t.Fatalf("NewPage: %v", err)
			}
			defer p.Close()
			text := waitBlocked(t, p)
			if !strings.Contains(text, "blocked navigation to "+o.forbidden) || !strings.HasPrefix(p.URL(), o.allowed) {
				t.Errorf("the page should stay at %s and say what was blocked; at %s:\n%s", o.allowed, p.URL(), text)
			}
		})
	}
	t.Run("iframe", func(t *testing.T) {
		ctx := testCtx(t, 30*time.Second)
		p, err := b.NewPage(ctx, o.allowed+"/iframe")
		if err != nil {
			t.Fatalf("NewPage: %v", err)
		}
		defer p.Close()
		text := waitBlocked(t, p)
		s := snapshot(t, p, rodagent.WithFull())
		blockedFrame := false
		for _, f := range s.Frames {
			if f.Prefix != "" && strings.Contains(f.Error, "blocked navigation to "+o.forbidden) {
				blockedFrame = true
			}
		}
		if !blockedFrame {
			t.Errorf("the iframe should be shown as blocked: %+v\n%s", s.Frames, text)
		}
		for _, r := range s.Refs {
			if r.Name == "Delete account" {
				t.Errorf("the forbidden frame's content is reachable: %+v", r)
			}
		}
	})
	t.Run("Open through a redirect", func(t *testing.T) {
		ctx := testCtx(t, 30*time.Second)
		p, err := b.NewPage(ctx, o.allowed+"/ok")
		if err != nil {
			t.Fatalf("NewPage: %v", err)
		}
		defer p.Close()
		err = p.Open(ctx, o.allowed+"/redirect?to="+o.forbidden+"/landing")
		if !errors.Is(err, rodagent.ErrNotAllowed) {
			t.Fatalf("Open through a redirect to a forbidden origin: want ErrNotAllowed, got %v", err)
		}
		if _, err := b.NewPage(ctx, o.allowed+"/redirect?to="+o.forbidden+"/landing"); !errors.Is(err, rodagent.ErrNotAllowed) {
			t.Fatalf("NewPage through a redirect to a forbidden origin: want ErrNotAllowed, got %v", err)
		}
	})
	t.Run("allowed navigation still works", func(t *testing.T) {
		ctx := testCtx(t, 30*time.Second)
		p, err := b.NewPage(ctx, o.allowed+"/ok")
		if err != nil {
			t.Fatalf("NewPage: %v", err)
		}
		defer p.Close()
		if _, err := p.Click(ctx, refNamed(t, snapshot(t, p), "link", "Next")); err != nil {
			t.Fatalf("click to an allowed page: %v", err)
		}
		if err := p.Wait(ctx, rodagent.TextPresent("second page")); err != nil {
			t.Fatalf("the allowed navigation did not land: %v (at %s)", err, p.URL())
		}
	})
	if n := o.forbiddenHits.Load(); n != 0 {
		t.Errorf("the forbidden origin received %d requests; want none", n)
	}
}

// waitTabs lists the context's tabs until there are want of them (a closed
// popup can take a moment to leave the list), or returns the last listing.
func waitTabs(t *testing.T, b *rodagent.Browser, want int) []rodagent.Tab {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	for {
		tabs, err := b.Tabs(ctx)
		if err != nil || len(tabs) == want {
			return tabs
		}
		select {
		case <-ctx.Done():
			return tabs
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// A popup the program never attached to is held too, down to its own
// out-of-process frames: a cross-site iframe inside an allowed popup that
// navigates itself to a forbidden origin on a timer is stopped.
func TestOriginsHoldInsideAPopupsFrames(t *testing.T) {
	t.Parallel()
	o := newTwoOrigins(t)
	ln, err := net.Listen("tcp", "127.0.0.2:0")
	if err != nil {
		t.Fatalf("a third origin on 127.0.0.2: %v", err)
	}
	third := &httptest.Server{Listener: ln, Config: &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprintf(w, `<!doctype html><p>third</p><script>setTimeout(() => { location.href = %q }, 100)</script>`, o.forbidden+"/landing")
	})}}
	third.Start()
	defer third.Close()
	thirdOrigin := "http://" + ln.Addr().String()
	o.page("/opener", `<button onclick="window.open('/popup-page')">Open</button>`)
	o.page("/popup-page", `<p>popup</p><iframe title="Third" src="`+thirdOrigin+`/frame"></iframe>`)
	b := guardedContext(t, o.allowed, thirdOrigin)
	ctx := testCtx(t, 60*time.Second)
	p, err := b.NewPage(ctx, o.allowed+"/opener")
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if _, err := p.Click(ctx, refNamed(t, snapshot(t, p), "button", "Open")); err != nil {
		t.Fatalf("opening an allowed popup: %v", err)
	}
	text := waitBlocked(t, p)
	if !strings.Contains(text, "blocked navigation to "+o.forbidden) {
		t.Errorf("the opener's snapshot should report the blocked navigation:\n%s", text)
	}
	if n := o.forbiddenHits.Load(); n != 0 {
		t.Errorf("the forbidden origin received %d requests; want none", n)
	}
}

// prefetchPage has speculation rules that make Chromium prefetch a page of
// the forbidden origin, and a link there. A navigation Chromium serves from
// such a prefetch never passes the tab's Fetch interception. Its script says
// "rules read" half a second after load, well after Chromium acts on the
// rules (the prefetch request arrives within about 100 ms of the load).
const prefetchPage = `<!doctype html><title>prefetch</title><p>spec</p><a href="FORBIDDEN/landing">Go</a>
<script type="speculationrules">{"prefetch":[{"source":"list","urls":["FORBIDDEN/landing"]}],
"prerender":[{"source":"list","urls":["FORBIDDEN/landing"]}]}</script>
<script>addEventListener('load', () => setTimeout(() => document.body.append('rules read'), 500))</script>`

// A page's speculation rules cannot carry a navigation past the allowlist.
// A launched browser does no preloading at all, so the forbidden origin
// hears nothing and the click is blocked before anything loads. A browser
// reached with Connect keeps its own preloading: there the prefetch reaches
// the forbidden origin (nothing in CDP can stop it), and the navigation it
// serves commits without a request to hold — it is still reported as
// blocked, never read or acted in, and the tab is taken back.
func TestOriginsHoldAgainstPrefetch(t *testing.T) {
	t.Parallel()
	click := func(t *testing.T, b *rodagent.Browser, o *twoOrigins, afterRules func(ctx context.Context)) (*rodagent.Page, error) {
		ctx := testCtx(t, 60*time.Second)
		p, err := b.NewPage(ctx, o.allowed+"/prefetch")
		if err != nil {
			t.Fatalf("NewPage: %v", err)
		}
		t.Cleanup(func() { _ = p.Close() })
		if err := p.Wait(ctx, rodagent.TextPresent("rules read")); err != nil {
			t.Fatalf("the page's script never ran: %v", err)
		}
		afterRules(ctx)
		st, err := p.Click(ctx, refNamed(t, snapshot(t, p), "link", "Go"))
		if !errors.Is(err, rodagent.ErrNotAllowed) || st != rodagent.NavigationBlocked {
			t.Fatalf("the click to a prefetched forbidden page: want navigation_blocked and ErrNotAllowed, got %q, %v (tab at %s)", st, err, p.URL())
		}
		return p, err
	}
	t.Run("Launch: no preloading", func(t *testing.T) {
		t.Parallel()
		o := newTwoOrigins(t)
		o.page("/prefetch", prefetchPage)
		b := guardedContext(t, o.allowed) // the suite's browser, started by Launch
		p, err := click(t, b, o, func(context.Context) {})
		if !strings.Contains(err.Error(), "blocked before it loaded") {
			t.Errorf("the navigation should have been stopped before it loaded: %v", err)
		}
		if n := o.forbiddenHits.Load(); n != 0 {
			t.Errorf("the forbidden origin received %d requests; want none (a prefetch?)", n)
		}
		if !strings.HasPrefix(p.URL(), o.allowed) {
			t.Errorf("the tab left the allowed origin: %s", p.URL())
		}
	})
	t.Run("Connect: a prefetched navigation is taken back", func(t *testing.T) {
		t.Parallel()
		o := newTwoOrigins(t)
		o.page("/prefetch", prefetchPage)
		ctx := testCtx(t, 60*time.Second)
		b, err := rodagent.Connect(ctx, stockChromium(t), rodagent.WithAllowedOrigins(o.allowed))
		if err != nil {
			t.Fatalf("Connect: %v", err)
		}
		t.Cleanup(func() { _ = b.Close() })
		p, err := click(t, b, o, func(ctx context.Context) {
			// the case under test needs the prefetch made
			for o.hitCount(o.forbidden+"/landing") == 0 {
				select {
				case <-ctx.Done():
					t.Fatalf("stock Chromium never prefetched the forbidden page: this test no longer covers a navigation served from a prefetch")
				case <-time.After(20 * time.Millisecond):
				}
			}
		})
		if !strings.Contains(err.Error(), "taken back") {
			t.Errorf("the error should say the tab was taken back: %v", err)
		}
		s, err := p.Snapshot(testCtx(t, workBudget), rodagent.WithFull())
		if err != nil {
			t.Fatalf("the look after the navigation was taken back: %v", err)
		}
		text := s.String()
		if !strings.HasPrefix(p.URL(), o.allowed+"/prefetch") || strings.Contains(text, "Delete account") || strings.Contains(text, "delete-account") {
			t.Errorf("the tab should be back on the page it left, with nothing of the forbidden one; at %s:\n%s", p.URL(), text)
		}
		if o.hitCount(o.allowed+"/clicked") != 0 || o.hitCount(o.forbidden+"/clicked") != 0 {
			t.Errorf("something on the forbidden page was clicked")
		}
	})
}
