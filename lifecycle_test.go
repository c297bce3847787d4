package rodagent_test

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"strings"
	"testing"
	"time"

	"github.com/rodagent/rodagent"
)

// Parallel with the rest: the goroutines it counts are those started, at any
// depth, from its own goroutine (they inherit its pprof label), and the
// processes those of the group its browser leads.
func TestCloseLeavesNothingBehind(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t, 60*time.Second)
	label := fmt.Sprintf("%s-%d", t.Name(), time.Now().UnixNano())
	pprof.SetGoroutineLabels(pprof.WithLabels(context.Background(), pprof.Labels(leakLabel, label)))
	defer pprof.SetGoroutineLabels(context.Background())

	b, err := rodagent.Launch(ctx, rodagent.WithDownload(false))
	if err != nil {
		t.Fatal(err)
	}
	// Close is about to end the browser anyway; this only runs if the test fails first.
	defer b.Close()
	p, err := b.NewPage(ctx, originA+"/frames.html?other="+originB)
	if err != nil {
		t.Fatal(err)
	}
	s, err := p.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Click(ctx, s.Refs[0].Ref); err != nil {
		t.Fatal(err)
	}
	// The browser's processes are those of the group it leads: this test's
	// own, never another program's Chromium.
	pgid := b.PID()
	mine := groupProcs(t, pgid)
	if len(mine) < 2 {
		t.Fatalf("expected the launched browser and its helpers in process group %d, found %v", pgid, mine)
	}
	if _, ok := mine[pgid]; !ok {
		t.Fatalf("the browser (pid %d) is not among its group's processes: %v", pgid, mine)
	}
	dir := b.ProfileDir()
	if got := userDataDir(mine[pgid]); got != dir || dir == "" {
		t.Fatalf("ProfileDir %q, but the browser runs with --user-data-dir=%q", dir, got)
	}
	if _, err := os.Stat(dir); err != nil {
		t.Fatalf("profile dir %q: %v", dir, err)
	}
	// Chromium's single-instance socket lives in a directory of its own,
	// linked from the profile (on Linux and macOS).
	socket, err := os.Readlink(filepath.Join(dir, "SingletonSocket"))
	if err != nil && runtime.GOOS != "windows" {
		t.Fatalf("the profile has no SingletonSocket link: %v", err)
	}
	// Nothing of this browser runs outside its group, where Close could miss it.
	outside := liveProcs(t, func(_, group int, cmd string) bool {
		return group != pgid && strings.Contains(cmd, "--user-data-dir="+dir)
	})
	if len(outside) > 0 {
		t.Errorf("processes of this browser left its process group %d: %v", pgid, outside)
	}

	if n, _ := labelledGoroutines(label); n == 0 {
		t.Fatalf("no goroutine of the open browser carries the test's label: the leak check below would prove nothing")
	}
	if err := b.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if left := groupProcs(t, pgid); len(left) > 0 {
		t.Errorf("processes of the browser's group %d outlived Close: %v", pgid, left)
	}
	if left := profileProcs(t, dir); len(left) > 0 {
		t.Errorf("processes of the browser's profile outlived Close: %v", left)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("profile dir %s outlived Close (stat: %v)", dir, err)
	}
	if socket != "" {
		if _, err := os.Stat(filepath.Dir(socket)); !os.IsNotExist(err) {
			t.Errorf("Chromium's singleton directory %s outlived Close (stat: %v)", filepath.Dir(socket), err)
		}
	}
	// Goroutines wind down as their channels close; wait for that, bounded.
	n, stacks := labelledGoroutines(label)
	for deadline := time.Now().Add(5 * time.Second); n > 0 && time.Now().Before(deadline); n, stacks = labelledGoroutines(label) {
		runtime.Gosched()
		time.Sleep(5 * time.Millisecond) // polling a condition, bounded by the deadline
	}
	if n > 0 {
		t.Errorf("%d goroutines started by Launch and the calls on its browser outlived Close:\n%s", n, stacks)
	}
	// A closed browser says so.
	if _, err := p.Snapshot(ctx); err == nil {
		t.Errorf("Snapshot on a closed browser should fail")
	}
	if err := b.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
}

// leakLabel is the pprof label key by which a test marks the goroutines it
// starts: every goroutine created from a labelled one inherits its labels.
const leakLabel = "rodagent-test"

// labelledGoroutines counts the live goroutines labelled leakLabel=value, with
// their stacks.
func labelledGoroutines(value string) (int, string) {
	var buf bytes.Buffer
	_ = pprof.Lookup("goroutine").WriteTo(&buf, 1)
	want := fmt.Sprintf("%q:%q", leakLabel, value)
	n := 0
	var stacks strings.Builder
	// Records are separated by blank lines: "N @ pcs", "# labels: {...}", frames.
	for _, rec := range strings.Split(buf.String(), "\n\n") {
		lines := strings.SplitN(rec, "\n", 3)
		if len(lines) < 2 || !strings.HasPrefix(lines[1], "# labels: ") || !strings.Contains(lines[1], want) {
			continue
		}
		if strings.Contains(rec, "rodagent_test.labelledGoroutines") {
			continue // the caller itself, the labelled test goroutine
		}
		var c int
		if _, err := fmt.Sscanf(lines[0], "%d @", &c); err == nil {
			n += c
			stacks.WriteString(rec + "\n\n")
		}
	}
	return n, stacks.String()
}

func TestConnectDetachesWithoutClosing(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t, 60*time.Second)
	owner, err := rodagent.Launch(ctx, rodagent.WithDownload(false))
	if err != nil {
		t.Fatal(err)
	}
	defer owner.Close()
	hostPort := strings.Split(strings.TrimPrefix(owner.DevToolsURL(), "ws://"), "/")[0]
	for _, addr := range []string{owner.DevToolsURL(), hostPort, "http://" + hostPort} {
		c, err := rodagent.Connect(ctx, addr)
		if err != nil {
			t.Fatalf("Connect(%s): %v", addr, err)
		}
		p, err := c.NewPage(ctx, originA+"/basic.html")
		if err != nil {
			t.Fatal(err)
		}
		s, err := p.Snapshot(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := p.Click(ctx, s.Refs[0].Ref); err != nil {
			t.Fatal(err)
		}
		if err := c.Close(); err != nil {
			t.Fatal(err)
		}
		tabs, err := owner.Tabs(ctx)
		if err != nil {
			t.Fatalf("the shared browser must survive a connected Close: %v", err)
		}
		found := false
		for _, tab := range tabs {
			found = found || tab.ID == p.ID()
		}
		if !found {
			t.Errorf("Close of a connected Browser must leave its tabs open")
		}
	}
}

func TestIsolatedContexts(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t, 60*time.Second)
	a, err := shared.NewContext(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := shared.NewContext(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	pa, err := a.NewPage(ctx, originA+"/basic.html")
	if err != nil {
		t.Fatal(err)
	}
	pb, err := b.NewPage(ctx, originA+"/basic.html")
	if err != nil {
		t.Fatal(err)
	}
	eval(t, pa, "(localStorage.setItem('who', 'a'), document.cookie = 'c=a', 1)", nil)
	var who, cookie string
	eval(t, pb, "localStorage.getItem('who') || ''", &who)
	eval(t, pb, "document.cookie", &cookie)
	if who != "" || cookie != "" {
		t.Errorf("contexts share storage: %q %q", who, cookie)
	}
	tabs, err := a.Tabs(ctx)
	if err != nil || len(tabs) != 1 || tabs[0].ID != pa.ID() {
		t.Errorf("a context lists only its own tabs: %v %v", tabs, err)
	}
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := shared.Tabs(ctx); err != nil {
		t.Errorf("closing a context must not close the browser: %v", err)
	}
}

func TestLaunchOptions(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t, 60*time.Second)
	var logs bytes.Buffer
	log := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	b, err := rodagent.Launch(ctx, rodagent.WithDownload(false), rodagent.WithHeadless(true),
		rodagent.WithWindowSize(800, 600), rodagent.WithLogger(log), rodagent.WithDefaultMaxChars(400),
		rodagent.WithSandbox(false))
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	p, err := b.NewPage(ctx, originA+"/appshell.html")
	if err != nil {
		t.Fatal(err)
	}
	var size []int
	eval(t, p, "[innerWidth, innerHeight]", &size)
	if len(size) != 2 || size[0] != 800 || size[1] > 600 {
		t.Errorf("viewport %v, want 800 wide and at most 600 high", size)
	}
	s, err := p.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(s.String()); n > 400+len(rodagent.SafetyLine)+1 || !strings.Contains(s.String(), "refs not shown") {
		t.Errorf("WithDefaultMaxChars(400): text of %d chars:\n%s", n, s)
	}
	wide, err := p.Snapshot(ctx, rodagent.WithMaxChars(100000))
	if err != nil {
		t.Fatal(err)
	}
	if wide.Shown != len(wide.Refs) {
		t.Errorf("WithMaxChars overrides the default: %d of %d shown", wide.Shown, len(wide.Refs))
	}
	if !strings.Contains(logs.String(), "browser launched") {
		t.Errorf("WithLogger gets the library's logs: %q", logs.String())
	}
}
