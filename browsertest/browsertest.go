// Package browsertest gives tests in any Go project a real Chromium with no
// ceremony: one browser per test binary, and for every Page a fresh isolated
// browser context (its own cookies, storage and cache), closed when the test
// ends. A failing test says what the page looked like: its URL, a snapshot
// of its refs and text, and the path of a screenshot.
//
//	func TestMain(m *testing.M) { os.Exit(browsertest.Main(m)) } // closes the browser after the tests
//
//	func TestSignIn(t *testing.T) {
//		t.Parallel()
//		p := browsertest.Page(t, browsertest.Serve(t, myapp.Handler()))
//		…
//		browsertest.Expect(t, p, rodagent.TextPresent("Welcome"))
//	}
//
// Separate httptest servers do not keep tests apart on their own: cookies
// ignore ports, so every server on 127.0.0.1 shares them. A context per Page
// does. Pages that must share a session (two tabs of one user) use InContext.
//
// The browser is the system's Chromium or Chrome (never downloaded: tests on
// a machine without one fail with the install hint, they do not skip).
// Without Main, the browser lives until the test binary exits, and the kernel
// ends it then on Linux. Everything here is safe for parallel tests.
package browsertest

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rodagent/rodagent"
)

var (
	mu      sync.Mutex
	shared  *rodagent.Browser
	options []rodagent.Option
)

// Options sets the options the shared browser is launched with (before the
// first test that uses it).
func Options(opts ...rodagent.Option) {
	mu.Lock()
	defer mu.Unlock()
	options = opts
}

// Browser returns the test binary's browser, launching it on first use.
func Browser(t testing.TB) *rodagent.Browser {
	t.Helper()
	mu.Lock()
	defer mu.Unlock()
	if shared != nil {
		return shared
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	b, err := rodagent.Launch(ctx, append([]rodagent.Option{rodagent.WithDownload(false)}, options...)...)
	if err != nil {
		t.Fatalf("browsertest: %v", err)
	}
	shared = b
	return b
}

// Context returns a fresh isolated browser context of the shared browser,
// closed (with its tabs) when the test ends: for tests that open several
// pages of one session (see InContext).
func Context(t testing.TB) *rodagent.Browser {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c, err := Browser(t).NewContext(ctx)
	if err != nil {
		t.Fatalf("browsertest: new browser context: %v", err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return c
}

// PageOption configures Page.
type PageOption func(*pageConfig)

type pageConfig struct {
	in *rodagent.Browser
}

// InContext opens the page in c (from Context) instead of a fresh context of
// its own, so it shares c's cookies and storage with c's other pages.
func InContext(c *rodagent.Browser) PageOption { return func(pc *pageConfig) { pc.in = c } }

// Page opens url in a new tab of a fresh isolated context and closes both
// when the test ends. If the test failed by then, it first logs the page's
// URL, a full snapshot and the path of a screenshot (see ArtifactsDir).
func Page(t testing.TB, url string, opts ...PageOption) *rodagent.Page {
	t.Helper()
	var cfg pageConfig
	for _, o := range opts {
		if o != nil {
			o(&cfg)
		}
	}
	in := cfg.in
	if in == nil {
		in = Context(t)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	p, err := in.NewPage(ctx, url)
	if err != nil {
		t.Fatalf("browsertest: opening %s: %v", url, err)
	}
	// Registered after the context's cleanup, so it runs first: the page
	// is still there to be described.
	t.Cleanup(func() {
		if t.Failed() {
			describe(t, p)
		}
		_ = p.Close()
	})
	return p
}

// describe logs what a failed test's page showed.
func describe(t testing.TB, p *rodagent.Page) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	var b strings.Builder
	fmt.Fprintf(&b, "browsertest: the test failed with its page at %s", p.URL())
	if shot, err := p.Screenshot(ctx); err != nil {
		fmt.Fprintf(&b, "\nbrowsertest: no screenshot: %v", err)
	} else if path, err := saveShot(t, shot.Data); err != nil {
		fmt.Fprintf(&b, "\nbrowsertest: screenshot not saved: %v", err)
	} else {
		fmt.Fprintf(&b, "\nbrowsertest: screenshot: %s", path)
	}
	if snap, err := p.Snapshot(ctx, rodagent.WithFull()); err != nil {
		fmt.Fprintf(&b, "\nbrowsertest: no snapshot: %v", err)
	} else {
		fmt.Fprintf(&b, "\nbrowsertest: snapshot:\n%s", snap.FullText())
	}
	t.Log(b.String())
}

// ArtifactsDir is where a failed test's screenshots go. With `go test
// -artifacts` it is the test's t.ArtifactDir(), kept under the output
// directory. Otherwise it is a directory under os.TempDir() named after the
// test, which is kept: t.TempDir() and an ArtifactDir without -artifacts are
// deleted as the test ends, which would leave the logged path pointing at
// nothing. $BROWSERTEST_ARTIFACTS, when set, is used instead of os.TempDir().
func ArtifactsDir(t testing.TB) (string, error) {
	if f := flag.Lookup("test.artifacts"); f != nil && f.Value.String() == "true" {
		return t.ArtifactDir(), nil
	}
	base := os.Getenv("BROWSERTEST_ARTIFACTS")
	if base == "" {
		base = filepath.Join(os.TempDir(), "browsertest")
	}
	if err := os.MkdirAll(base, 0o755); err != nil {
		return "", err
	}
	name := strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r == ':' || r == ' ' || r < 32 {
			return '_'
		}
		return r
	}, t.Name())
	return os.MkdirTemp(base, name+"-")
}

var shotSeq struct {
	sync.Mutex
	n int
}

func saveShot(t testing.TB, png []byte) (string, error) {
	dir, err := ArtifactsDir(t)
	if err != nil {
		return "", err
	}
	shotSeq.Lock()
	shotSeq.n++
	n := shotSeq.n
	shotSeq.Unlock()
	path := filepath.Join(dir, fmt.Sprintf("page-%d.png", n))
	return path, os.WriteFile(path, png, 0o644)
}

// ExpectOption configures Expect.
type ExpectOption func(*expectConfig)

type expectConfig struct{ within time.Duration }

// Within sets how long Expect waits for its condition (default 10 seconds).
func Within(d time.Duration) ExpectOption { return func(c *expectConfig) { c.within = d } }

// Expect waits until cond holds on p — retrying as the page changes, the way
// Page.Wait does, with no sleeps — and fails the test (t.Fatalf) when it does
// not within the time allowed, saying what was expected and what the page
// showed instead:
//
//	browsertest.Expect(t, p, rodagent.TextPresent("Saved"))
//	browsertest.Expect(t, p, rodagent.Present(rodagent.ByRole("dialog", "Confirm")), browsertest.Within(2*time.Second))
func Expect(t testing.TB, p *rodagent.Page, cond rodagent.Condition, opts ...ExpectOption) {
	t.Helper()
	cfg := expectConfig{within: 10 * time.Second}
	for _, o := range opts {
		if o != nil {
			o(&cfg)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), cfg.within)
	defer cancel()
	err := p.Wait(ctx, cond)
	if err == nil {
		return
	}
	if errors.Is(err, rodagent.ErrTimeout) {
		t.Fatalf("browsertest: expected %s within %v; the page at %s shows:\n%s", cond, cfg.within, p.URL(), visibleText(p))
	}
	t.Fatalf("browsertest: expected %s, but the page cannot be checked: %v", cond, plain(err))
}

// visibleText is the page's text for a failure message, short enough to read.
func visibleText(p *rodagent.Page) string {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	text, err := p.Text(ctx)
	if err != nil {
		return "(its text could not be read: " + plain(err) + ")"
	}
	if r := []rune(strings.TrimSpace(text)); len(r) > 600 {
		text = string(r[:600]) + "…"
	}
	return indent(text)
}

// plain drops the advice for a model ("— Snapshot again") from an error: a
// test's reader needs what happened, not the agent's next move.
func plain(err error) string {
	var ae *rodagent.ActionError
	if errors.As(err, &ae) {
		c := *ae
		c.Next = ""
		return c.Error()
	}
	return err.Error()
}

func indent(s string) string {
	return "    " + strings.ReplaceAll(strings.TrimSpace(s), "\n", "\n    ")
}

// Serve serves h on 127.0.0.1 for the length of the test and returns its URL.
func Serve(t testing.TB, h http.Handler) string {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv.URL
}

// Main runs the tests and then closes the shared browser, so no browser
// process outlives the test binary. Call it from TestMain:
//
//	func TestMain(m *testing.M) { os.Exit(browsertest.Main(m)) }
func Main(m *testing.M) int {
	code := m.Run()
	mu.Lock()
	defer mu.Unlock()
	if shared != nil {
		if err := shared.Close(); err != nil && code == 0 {
			code = 1
		}
		shared = nil
	}
	return code
}
