package rodagent_test

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-rod/rod/lib/proto"

	"github.com/rodagent/rodagent"
)

// The package's tests share one browser (launching one per test would
// dominate the run time) and one fixture server; each test opens its own tabs.
var (
	shared   *rodagent.Browser
	fixtures *httptest.Server
	// origin A and origin B are the same server under two hostnames: two
	// different sites, so an iframe from B inside A is out of process.
	originA, originB string
)

func TestMain(m *testing.M) {
	flag.Parse()
	pageParallelism()
	os.Exit(runTests(m))
}

// pageParallelism lets twice as many parallel tests run at once as go
// test's default of one per CPU, unless -parallel was given. A test here spends
// most of its time waiting on the browser — a page loading, a timer of the
// page firing (APG pages show their CodePen buttons from a 500 ms interval),
// a frame settling, a DOM staying quiet for 300 ms — so with one test per CPU
// the CPUs idle while the queue of page tests waits. Budgets of work are
// bounded by the binary's deadline (testCtx), so the contention this adds on
// a busy machine slows tests without failing them.
func pageParallelism() {
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	if !set {
		_ = flag.Set("test.parallel", strconv.Itoa(2*runtime.GOMAXPROCS(0)))
	}
}

func runTests(m *testing.M) int {
	mux := http.NewServeMux()
	mux.Handle("/", http.FileServer(http.Dir("testdata/fixtures")))
	mux.HandleFunc("/download/report.txt", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		w.Header().Set("Content-Disposition", `attachment; filename="report.txt"`)
		fmt.Fprint(w, "quarterly report: all good\n")
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, "listen:", err)
		return 1
	}
	fixtures = &httptest.Server{Listener: ln, Config: &http.Server{Handler: mux}}
	fixtures.Start()
	defer fixtures.Close()
	port := ln.Addr().(*net.TCPAddr).Port
	originA = fmt.Sprintf("http://127.0.0.1:%d", port)
	originB = fmt.Sprintf("http://localhost:%d", port)

	// Launching is work, not the subject of a test: a quarter of the
	// binary's timeout (a fixed minute ran out at a load of ~100, two suites
	// and other engineers' tests on 2 cores).
	budget := 5 * time.Minute
	if d, err := time.ParseDuration(flag.Lookup("test.timeout").Value.String()); err == nil && d > 0 {
		budget = d / 4
	}
	ctx, cancel := context.WithTimeout(context.Background(), budget)
	defer cancel()
	shared, err = rodagent.Launch(ctx, rodagent.WithDownload(false), rodagent.WithFlags(testBrowserFlags...))
	if err != nil {
		if errors.Is(err, rodagent.ErrNoBrowser) {
			fmt.Fprintf(os.Stderr, "\nFAIL: these tests drive a real Chromium and none was found.\n"+
				"Install one (Debian/Ubuntu: apt-get install -y chromium) or set ROD_BROWSER_BIN.\n%v\n\n", err)
		} else {
			fmt.Fprintln(os.Stderr, "launching the browser:", err)
		}
		return 1
	}
	code := m.Run()
	if err := shared.Close(); err != nil {
		fmt.Fprintln(os.Stderr, "closing the browser:", err)
		code = 1
	}
	return code
}

// testBrowserFlags are the shared browser's switches beyond Launch's, for
// the suite only. --in-process-gpu runs the display compositor on a thread
// of the browser process instead of a GPU process of its own: the same
// software compositing without the process and its IPC (TestAccnameMatchesChromium,
// A/B in one run on a loaded 2-core machine: 73.6 -> 69.9 CPU-seconds). It
// changes no page's behaviour; users' Launch keeps Chromium's default.
// offlineResolver is the other.
var testBrowserFlags = []string{"--in-process-gpu", offlineResolver}

// offlineResolver keeps the suite's browsers off the internet: a name other
// than the fixture servers' two fails at once, without asking this machine's
// DNS. Fixtures copied from elsewhere name outside hosts (every APG example
// embeds a frame from aria-at.w3.org), and how long a lookup takes to fail
// on a machine without a network is that machine's business — a slow one
// held the APG pages' load back by seconds. The suite's pages are all
// served by the test itself.
const offlineResolver = "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.*, EXCLUDE localhost"

// workBudget is where a test's deadlines stop being the subject of the test
// and start being a budget for work: opening fixture pages, reading them,
// launching a browser. Every deadline a test asserts on (a call must end at
// its deadline, a wait must time out) is shorter.
const workBudget = 30 * time.Second

// testCtx is the context of a test's calls. A deadline under workBudget is
// kept exactly: the test is about it. A longer one is a budget for work whose
// time is not the test's to assert — on a machine shared with another test
// run (.ci/concurrent) or other engineers, loading a page can take many times
// what it takes alone — so it ends no earlier than d but otherwise at the
// test binary's own deadline (go test -timeout) less a margin: contention
// slows a test without failing it, and a hang still fails it with its own
// message before the binary's timeout panics.
func testCtx(t testing.TB, d time.Duration) context.Context {
	t.Helper()
	deadline := time.Now().Add(d)
	if d >= workBudget {
		deadline = workDeadline(t, d)
	}
	ctx, cancel := context.WithDeadline(context.Background(), deadline)
	t.Cleanup(cancel)
	return ctx
}

// workDeadline is the test binary's deadline less a margin (a tenth of the
// time left, at most a minute) for the failure to be reported, and never
// sooner than d from now.
func workDeadline(t testing.TB, d time.Duration) time.Time {
	now := time.Now()
	end := now.Add(30 * time.Minute) // go test -timeout 0: no deadline of its own
	if dl, ok := t.(interface{ Deadline() (time.Time, bool) }); ok {
		if binEnd, ok := dl.Deadline(); ok {
			end = binEnd.Add(-min(time.Minute, binEnd.Sub(now)/10))
		}
	}
	return later(end, now.Add(d))
}

func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

// open opens a fixture page in a new tab of the shared browser.
func open(t testing.TB, path string) *rodagent.Page {
	t.Helper()
	return openURL(t, originA+"/"+strings.TrimPrefix(path, "/"))
}

func openURL(t testing.TB, u string) *rodagent.Page {
	t.Helper()
	ctx := testCtx(t, 30*time.Second)
	p := reuseTab(ctx, u)
	if p == nil {
		var err error
		if p, err = shared.NewPage(ctx, u); err != nil {
			t.Fatalf("NewPage(%s): %v", u, err)
		}
	}
	t.Cleanup(func() { keepTab(t, p) })
	return p
}

// spareTabs are tabs of the shared browser whose tests passed, left on
// about:blank with no Page attached. A new tab costs Chromium a window, a
// WebContents and a renderer process — about 0.9 s of CPU against 0.35 s
// for navigating a tab it has — and the package opens hundreds.
var spareTabs struct {
	sync.Mutex
	ids []string
}

// reuseTab is a spare tab with a fresh Page navigated to u, its history
// cut to u as a new tab's is, or nil when there is none or it fails.
func reuseTab(ctx context.Context, u string) *rodagent.Page {
	for {
		spareTabs.Lock()
		n := len(spareTabs.ids)
		if n == 0 {
			spareTabs.Unlock()
			return nil
		}
		id := spareTabs.ids[n-1]
		spareTabs.ids = spareTabs.ids[:n-1]
		spareTabs.Unlock()
		p, err := shared.Page(ctx, id)
		if err != nil {
			continue
		}
		if err := p.Open(ctx, u); err != nil {
			_ = p.Close()
			return nil
		}
		if err := (proto.PageResetNavigationHistory{}).Call(p.Rod().Context(ctx)); err != nil {
			_ = p.Close()
			return nil
		}
		return p
	}
}

// keepTab closes p, or — when its test passed and the tab is still well —
// unloads its page and keeps the tab for reuseTab. A tab that does not
// reach about:blank in a few seconds (a hung page, a dialog) is closed.
func keepTab(t testing.TB, p *rodagent.Page) {
	if t.Failed() {
		_ = p.Close()
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := p.Open(ctx, "about:blank"); err != nil || !rodagent.DetachTab(p) {
		_ = p.Close()
		return
	}
	spareTabs.Lock()
	spareTabs.ids = append(spareTabs.ids, p.ID())
	spareTabs.Unlock()
}

// waiting runs subtests whose time goes to waiting on the page — a
// carousel's timer, a slow server, a settle's bound — all at once, each in a
// goroutine of its own (t.Run may be called from several), inside the one
// slot of go test's -parallel their parent holds. As parallel subtests they
// each held a slot for seconds of waiting; a group of them starting together
// filled every slot and left the CPUs idle while CPU-bound tests queued
// (4–20% busy for 5–10 s at a time in a profiled run on 2 cores). Its
// subtests must not call t.Parallel: a parallel subtest waits for its
// parent, which waits for it.
type waiting struct {
	t  *testing.T
	wg sync.WaitGroup
}

// waitAtOnce starts a group of waiting subtests of t; t defers its wait.
func waitAtOnce(t *testing.T) *waiting { return &waiting{t: t} }

func (w *waiting) run(name string, f func(t *testing.T)) {
	w.wg.Add(1)
	go func() {
		defer w.wg.Done()
		w.t.Run(name, f)
	}()
}

// wait returns once every subtest has: before the parent's function does,
// as t.Run requires.
func (w *waiting) wait() { w.wg.Wait() }

// openIsolated opens u in a new tab of a browser context of its own: Chromium
// never shares a renderer process across browser contexts, so a test that
// crashes this tab's renderers (or its frames') cannot take down a parallel
// test's page hosted in the same process.
func openIsolated(t testing.TB, u string) *rodagent.Page {
	t.Helper()
	c, err := shared.NewContext(testCtx(t, 30*time.Second))
	if err != nil {
		t.Fatalf("NewContext: %v", err)
	}
	t.Cleanup(func() { _ = c.Close() })
	p, err := c.NewPage(testCtx(t, 30*time.Second), u)
	if err != nil {
		t.Fatalf("NewPage(%s): %v", u, err)
	}
	return p
}

// eval runs a JS expression in the page's main frame and decodes its JSON value into out.
func eval(t testing.TB, p *rodagent.Page, expr string, out any) {
	t.Helper()
	// Bounded: a page that never gets ready (a custom element never
	// defined) fails its test, not the whole package at go test's timeout.
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	res, err := proto.RuntimeEvaluate{Expression: "(async () => JSON.stringify(await (" + expr + ")))()", ReturnByValue: true,
		AwaitPromise: true}.Call(p.Rod().Context(ctx))
	if err != nil {
		t.Fatalf("eval %s: %v", expr, err)
	}
	if res.ExceptionDetails != nil {
		t.Fatalf("eval %s: %s", expr, res.ExceptionDetails.Text)
	}
	decode(t, res.Result.Value.Str(), out)
}

func decode(t testing.TB, js string, out any) {
	t.Helper()
	if out != nil {
		if err := json.Unmarshal([]byte(js), out); err != nil {
			t.Fatalf("decoding %q: %v", js, err)
		}
	}
}

// logEntries returns the page's own record of what happened (window.__log).
func logEntries(t testing.TB, p *rodagent.Page) []map[string]any {
	t.Helper()
	var out []map[string]any
	eval(t, p, "window.__log || []", &out)
	return out
}

// snapshot takes a snapshot or fails the test.
func snapshot(t testing.TB, p *rodagent.Page, opts ...rodagent.SnapshotOption) *rodagent.Snapshot {
	t.Helper()
	s, err := p.Snapshot(testCtx(t, 30*time.Second), opts...)
	if err != nil {
		t.Fatalf("Snapshot: %v", err)
	}
	return s
}

// refNamed finds the handle of the ref with this role and name.
func refNamed(t testing.TB, s *rodagent.Snapshot, role, name string) string {
	t.Helper()
	if ref, ok := findRef(s, role, name); ok {
		return ref
	}
	t.Fatalf("no %s %q in snapshot:\n%s", role, name, s.FullText())
	return ""
}

// findRef is the handle of the first ref with this role and name.
func findRef(s *rodagent.Snapshot, role, name string) (string, bool) {
	for _, r := range s.Refs {
		if r.Role == role && r.Name == name {
			return r.Ref, true
		}
	}
	return "", false
}

// agentAct makes one move of a test agent by ref — the one step dispatch of
// the agent-task tests (TestComponentAgentTasks, TestAPGAgentTasks): do is
// click, dblclick, check, type, focus, select, drag (onto the ref to),
// scroll (the wheel over ref, times CSS px in direction text) or press (the
// key text on what has focus, times times, stopping at the first error).
func agentAct(ctx context.Context, t testing.TB, p *rodagent.Page, do, ref, text string, times int, to string) (rodagent.ActionStatus, error) {
	t.Helper()
	switch do {
	case "click":
		return p.Click(ctx, ref)
	case "dblclick":
		return p.DblClick(ctx, ref)
	case "check":
		return p.Check(ctx, ref)
	case "type":
		return p.Type(ctx, ref, text)
	case "focus":
		return p.Focus(ctx, ref)
	case "select":
		return p.Select(ctx, ref, text)
	case "drag":
		return p.Drag(ctx, ref, to)
	case "scroll":
		return p.ScrollAt(ctx, ref, text, times)
	case "press":
		var (
			status rodagent.ActionStatus
			err    error
		)
		for n := 0; n < max(times, 1) && err == nil; n++ {
			status, err = p.Press(ctx, text)
		}
		return status, err
	}
	t.Fatalf("unknown step %q", do)
	return "", nil
}
