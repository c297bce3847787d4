// Package browsertest gives tests in any Go project a real Chromium with no
// ceremony: one browser per test binary, a fresh tab per call, the tab
// closed when the test ends.
//
//	func TestMain(m *testing.M) { os.Exit(browsertest.Main(m)) } // closes the browser after the tests
//
//	func TestSignIn(t *testing.T) {
//		url := browsertest.Serve(t, myapp.Handler())
//		p := browsertest.Page(t, url)
//		…
//	}
//
// The browser is the system's Chromium or Chrome (never downloaded: tests on
// a machine without one fail with the install hint, they do not skip).
// Without Main, the browser lives until the test binary exits, and the kernel
// ends it then on Linux.
package browsertest

import (
	"context"
	"net/http"
	"net/http/httptest"
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

// Page opens url in a new tab and closes the tab when the test ends.
func Page(t testing.TB, url string) *rodagent.Page {
	t.Helper()
	b := Browser(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	p, err := b.NewPage(ctx, url)
	if err != nil {
		t.Fatalf("browsertest: opening %s: %v", url, err)
	}
	t.Cleanup(func() { _ = p.Close() })
	return p
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
