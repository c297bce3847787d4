package rodagent_test

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rodagent/rodagent"
)

// stockChromium starts a Chromium of its own — no launch flags of rodagent's
// (the suite's offline resolver aside), in particular not
// ComputedAccessibilityInfo — as a fleet or a user would
// run it, and returns its DevTools websocket address. Only that process is
// stopped at the end of the test.
func stockChromium(t testing.TB) string {
	t.Helper()
	bin := os.Getenv("ROD_BROWSER_BIN")
	if bin == "" {
		bin = "/usr/bin/chromium"
	}
	if _, err := os.Stat(bin); err != nil {
		t.Fatalf("no Chromium to start for Connect (%v): install chromium or set ROD_BROWSER_BIN", err)
	}
	// The same window as Launch's default, so both paths see one viewport.
	args := []string{"--headless", "--remote-debugging-port=0", "--user-data-dir=" + t.TempDir(), "--no-first-run",
		"--window-size=1280,900",
		"--no-default-browser-check", "--disable-gpu", "--disable-dev-shm-usage", offlineResolver, "about:blank"}
	if os.Geteuid() == 0 {
		args = append(args, "--no-sandbox")
	}
	cmd := exec.Command(bin, args...)
	// Its own process group: cleanup ends exactly the processes this test
	// started, helpers included, before the profile directory is removed;
	// and it dies with the test binary (a timeout skips every cleanup).
	cmd.SysProcAttr = ownGroupAttr()
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting %s: %v", bin, err)
	}
	t.Cleanup(func() {
		pgid := cmd.Process.Pid
		_ = syscall.Kill(-pgid, syscall.SIGKILL)
		_ = cmd.Wait()
		for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
			if tt, ok := t.(*testing.T); !ok || len(groupProcs(tt, pgid)) == 0 {
				return
			}
		}
	})
	found := make(chan string, 1)
	go func() {
		re := regexp.MustCompile(`DevTools listening on (ws://\S+)`)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if m := re.FindStringSubmatch(sc.Text()); m != nil {
				found <- m[1]
				break
			}
		}
		for sc.Scan() { // keep draining so Chromium never blocks on a full pipe
		}
	}()
	select {
	case ws := <-found:
		return ws
	case <-time.After(time.Until(workDeadline(t, 60*time.Second))): // a launch is work (see testCtx)
		t.Fatalf("%s printed no DevTools address", bin)
	}
	return ""
}

// connectStock connects to a stock Chromium started by the test.
func connectStock(t testing.TB, ctx context.Context) *rodagent.Browser {
	t.Helper()
	b, err := rodagent.Connect(ctx, stockChromium(t))
	if err != nil {
		t.Fatalf("Connect: %v", err)
	}
	t.Cleanup(func() { _ = b.Close() })
	return b
}

// A browser reached by Connect without the ComputedAccessibilityInfo feature
// reads pages with the in-page inventory (never the slow AX-tree path), and
// its refs — roles, names, states, handles — are identical to the Launch
// path reading Chromium's own computedRole/computedName, on every fixture.
func TestConnectWithoutFlagMatchesLaunch(t *testing.T) {
	t.Parallel()
	// The stock browser lives as long as the test; each page gets its own
	// deadline when its subtest runs: parallel subtests may wait long for a
	// slot behind the package's other parallel tests, and a deadline set
	// here would pass before they start.
	stock := connectStock(t, testCtx(t, 20*time.Minute))
	pages := parityPages()
	if !*sweep {
		// Every fixture runs under -sweep (.ci/run). The plain run keeps one
		// page of each kind: plain controls, an out-of-process frame, nested
		// frames across origins, shadow DOM, a React app, a component
		// library. (bigtable.html alone took 24 s of the package's wall time:
		// Chromium's computedRole on 6,000 cells; -sweep keeps it.)
		pages = []string{"basic.html", "frames.html?other=" + originB, "nested.html?a=" + originA + "&b=" + originB,
			"shadow.html", "react/remount.html", "components/mui-autocomplete.html"}
	}
	for _, path := range pages {
		t.Run(path, func(t *testing.T) {
			t.Parallel()
			ctx := testCtx(t, 120*time.Second)
			launched := open(t, path)
			rodagent.UseComputedRoles(launched, true)
			connected, err := stock.NewPage(ctx, originA+"/"+path)
			if err != nil {
				t.Fatal(err)
			}
			defer connected.Close()
			var ready bool
			eval(t, launched, "new Promise(r => { const c = () => (window.__ready !== false) ? r(true) : requestAnimationFrame(c); c(); })", &ready)
			var flag bool
			eval(t, connected, "new Promise(r => { const c = () => (window.__ready !== false) ? r('computedRole' in Element.prototype) : requestAnimationFrame(c); c(); })", &flag)
			if flag {
				t.Fatalf("the stock Chromium exposes computedRole: the test would prove nothing")
			}
			a := snapshot(t, launched)
			b, err := connected.Snapshot(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(b.Source, rodagent.SourceInventory) || strings.HasPrefix(b.Source, rodagent.SourceInventoryComputed) {
				if path != "shadow.html" {
					t.Errorf("Connect read the page through %q, not the in-page inventory", b.Source)
				}
			}
			if !strings.HasPrefix(a.Source, rodagent.SourceInventoryComputed) && path != "shadow.html" {
				t.Errorf("the Launch page read %q, not Chromium's computed values", a.Source)
			}
			// Frames load on their own schedule (nested.html's third level
			// arrives after the main document is ready): read again until the
			// two agree, bounded.
			for deadline := time.Now().Add(10 * time.Second); describeRefs(b) != describeRefs(a) && time.Now().Before(deadline); {
				if b, err = connected.Snapshot(ctx, rodagent.WithFull()); err != nil {
					t.Fatal(err)
				}
				if describeRefs(b) != describeRefs(a) {
					a = snapshot(t, launched, rodagent.WithFull())
				}
			}
			if got, want := describeRefs(b), describeRefs(a); got != want {
				t.Errorf("refs differ between Connect (page-side roles and names) and Launch (Chromium's):\n%s", diffLines(got, want))
			}
		})
	}
}

// Chromium's computed values are read on a page whose layout is dirty at
// the start of every task (busy/layout.html): the walk's probe of computedRole
// then pays for a layout, slow as a dead AX context is, and a walk right
// after priming the context must not take the slowness for a dead context
// again and fall back to the AX tree.
func TestComputedValuesOnABusyPage(t *testing.T) {
	t.Parallel()
	p := open(t, "busy/layout.html")
	rodagent.UseComputedRoles(p, true)
	for i := 0; i < 3; i++ {
		s := snapshot(t, p, rodagent.WithFull())
		if s.Source != rodagent.SourceInventoryComputed {
			t.Fatalf("look %d read %q, not Chromium's computed values", i+1, s.Source)
		}
		refNamed(t, s, "button", "Refresh")
	}
}
