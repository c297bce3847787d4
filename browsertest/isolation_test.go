package browsertest_test

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"os"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rodagent/rodagent"
	"github.com/rodagent/rodagent/browsertest"
)

// loginServer is a site with a login: /login sets a session cookie for user,
// and every page says which session cookie it received.
func loginServer(t *testing.T, user string) string {
	return browsertest.Serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/login" {
			http.SetCookie(w, &http.Cookie{Name: "session", Value: user, Path: "/"})
		}
		got := "none"
		if c, err := r.Cookie("session"); err == nil {
			got = c.Value
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, "<main><h1>%s</h1><p id=who>session: %s</p></main>", user, got)
	}))
}

func session(t *testing.T, p *rodagent.Page) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	s, err := p.Locate(rodagent.ByCSS("#who")).Text(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimPrefix(s, "session: ")
}

// Two tests log in to two servers on 127.0.0.1 (different ports, so the same
// cookie jar for a browser). With a context per Page, neither sees the other's
// session; the control shows that one shared context would leak it.
func TestTwoTestsDoNotShareCookies(t *testing.T) {
	alice, bob := loginServer(t, "alice"), loginServer(t, "bob")
	t.Run("alice logs in", func(t *testing.T) {
		p := browsertest.Page(t, alice+"/login")
		if got := session(t, browsertest.Page(t, alice+"/home", browsertest.InContext(browsertest.Context(t)))); got != "none" {
			t.Errorf("another test's context saw alice's session: %q", got)
		}
		_ = p
	})
	t.Run("bob, next", func(t *testing.T) {
		p := browsertest.Page(t, bob+"/home")
		if got := session(t, p); got != "none" {
			t.Errorf("bob's test sees a session it never made: %q (leaked from the previous test)", got)
		}
		browsertest.Page(t, bob+"/login")
	})
	t.Run("control: one context shares the jar across ports", func(t *testing.T) {
		c := browsertest.Context(t)
		browsertest.Page(t, alice+"/login", browsertest.InContext(c))
		if got := session(t, browsertest.Page(t, bob+"/home", browsertest.InContext(c))); got != "alice" {
			t.Errorf("in one context, cookies should cross ports (that is the leak the default prevents), got %q", got)
		}
	})
}

func TestParallelPagesAreIsolated(t *testing.T) {
	srv := loginServer(t, "shared-site")
	for i := range 3 {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			t.Parallel()
			p := browsertest.Page(t, srv+"/home")
			if got := session(t, p); got != "none" {
				t.Errorf("page %d starts with a session: %q", i, got)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			if err := p.Open(ctx, srv+"/login"); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// fakeT stands in for a test's *testing.T, recording what a test would log
// and report, so a failing test can be checked from a passing one.
type fakeT struct {
	testing.TB // unimplemented methods panic: browsertest must not call them
	name       string

	mu       sync.Mutex
	logs     []string
	failed   bool
	cleanups []func()
}

func (f *fakeT) Helper()      {}
func (f *fakeT) Name() string { return f.name }
func (f *fakeT) Cleanup(fn func()) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.cleanups = append(f.cleanups, fn)
}
func (f *fakeT) Failed() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.failed
}
func (f *fakeT) Log(args ...any) { f.record(fmt.Sprint(args...)) }
func (f *fakeT) Logf(format string, args ...any) {
	f.record(fmt.Sprintf(format, args...))
}
func (f *fakeT) Errorf(format string, args ...any) {
	f.record(fmt.Sprintf(format, args...))
	f.mu.Lock()
	f.failed = true
	f.mu.Unlock()
}
func (f *fakeT) Fatalf(format string, args ...any) {
	f.Errorf(format, args...)
	runtime.Goexit()
}
func (f *fakeT) record(s string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.logs = append(f.logs, s)
}

// run runs body as a test would: on its own goroutine (Fatalf ends it), then
// the cleanups, last registered first.
func (f *fakeT) run(body func(t testing.TB)) string {
	done := make(chan struct{})
	go func() {
		defer close(done)
		body(f)
	}()
	<-done
	for {
		f.mu.Lock()
		if len(f.cleanups) == 0 {
			f.mu.Unlock()
			break
		}
		fn := f.cleanups[len(f.cleanups)-1]
		f.cleanups = f.cleanups[:len(f.cleanups)-1]
		f.mu.Unlock()
		fn()
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	return strings.Join(f.logs, "\n")
}

func TestAFailingTestExplainsItsPage(t *testing.T) {
	url := browsertest.Serve(t, app) + "/signup"
	dir := t.TempDir()
	t.Setenv("BROWSERTEST_ARTIFACTS", dir)
	ft := &fakeT{name: "TestSignup/deliberately failing"}
	log := ft.run(func(ft testing.TB) {
		p := browsertest.Page(ft, url)
		browsertest.Expect(ft, p, rodagent.TextPresent("Welcome aboard"), browsertest.Within(500*time.Millisecond))
		t.Errorf("Expect should have stopped the test: the text never appears")
	})
	if !ft.Failed() {
		t.Fatalf("the expectation should have failed the test; log:\n%s", log)
	}
	for _, want := range []string{
		`browsertest: expected text "Welcome aboard" within 500ms; the page at ` + url + " shows:",
		"Subscribe", // the page's text in the expectation's message
		"the test failed with its page at " + url, // the URL at cleanup
		"btn-subscribe", // the snapshot
	} {
		if !strings.Contains(log, want) {
			t.Errorf("the failing test's log should contain %q; it is:\n%s", want, log)
		}
	}
	if strings.Contains(log, "Snapshot again") || strings.Contains(log, "Snapshot to see") {
		t.Errorf("a test's reader gets no advice meant for a model:\n%s", log)
	}
	m := regexp.MustCompile(`browsertest: screenshot: (\S+\.png)`).FindStringSubmatch(log)
	if m == nil {
		t.Fatalf("the log names no screenshot:\n%s", log)
	}
	if !strings.HasPrefix(m[1], dir) {
		t.Errorf("the screenshot %s should be under $BROWSERTEST_ARTIFACTS (%s)", m[1], dir)
	}
	png, err := os.ReadFile(m[1])
	if err != nil || !bytes.HasPrefix(png, []byte("\x89PNG")) {
		t.Errorf("the screenshot named in the log should be a PNG that outlives the test: %d bytes, %v", len(png), err)
	}
	tabs, err := browsertest.Browser(t).Tabs(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, tab := range tabs {
		if strings.HasPrefix(url, tab.Origin) && tab.Origin != "" {
			t.Errorf("the failed test's tab is still open after its cleanup: %+v", tab)
		}
	}
}

func TestAPassingTestLogsNothing(t *testing.T) {
	ft := &fakeT{name: "TestQuiet"}
	log := ft.run(func(ft testing.TB) {
		p := browsertest.Page(ft, browsertest.Serve(t, app))
		browsertest.Expect(ft, p, rodagent.TextPresent("Subscribe"))
	})
	if ft.Failed() || log != "" {
		t.Errorf("a passing test should log nothing; failed=%v log:\n%s", ft.Failed(), log)
	}
}

func contains(s, sub string) bool { return strings.Contains(s, sub) }
