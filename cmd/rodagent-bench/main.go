// Command rodagent-bench measures what an agent pays for each step on the
// reference pages in testdata/fixtures, against a real Chromium, and prints
// the figures as Markdown for BENCHMARKS.md:
//
//	go run ./cmd/rodagent-bench            # from the repository root
//	go run ./cmd/rodagent-bench -n 21 -fixtures path/to/testdata/fixtures
//	go run ./cmd/rodagent-bench -playwright DIR -playwright-mcp DIR2  # peers, measured in the same run
//	go run ./cmd/rodagent-bench -only peers -playwright-mcp DIR2        # the peers section alone
//	go run ./cmd/rodagent-bench -only cold                              # the cold first look alone
//
// For each page: the snapshot's characters and refs; the full snapshot's time
// (median and spread); the raw Accessibility.getFullAXTree of the same page in
// the same run; a delta's time and characters after one change; Go heap held
// by a snapshot; and a click by ref — its time and CDP round trips — against a
// bare rod click of the same node (scrollIntoViewIfNeeded, getContentQuads,
// three mouse events), the floor any CDP click pays.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"runtime"
	"sort"
	"strings"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"

	"github.com/rodagent/rodagent"
	"github.com/rodagent/rodagent/input"
)

// page is one reference page and the steps measured on it.
type page struct {
	name   string
	path   string
	click  string // role and name of a control to click by ref (harmless to repeat)
	change string // role and name of a control whose click changes the page, for the delta
	runs   int    // runs of the slow measurements
}

var pages = []page{
	{name: "app shell (89 controls)", path: "appshell.html", click: "button/Refresh", change: "button/Mute notifications"},
	{name: "form (locator form)", path: "components/locator-form.html", click: "checkbox/Subscribe", change: "checkbox/Subscribe"},
	{name: "large table (6,005 controls)", path: "bigtable.html", click: "checkbox/Select row 3", change: "checkbox/Select row 1", runs: 5},
}

func main() {
	fixtures := flag.String("fixtures", "testdata/fixtures", "directory of the reference pages")
	n := flag.Int("n", 15, "runs per measurement")
	bin := flag.String("chromium", "/usr/bin/chromium", "the Chromium binary started for Connect and Playwright")
	pwDir := flag.String("playwright", "", "a directory where `npm install playwright-core` ran: measure Playwright's AI snapshot on the same pages")
	pwMCPDir := flag.String("playwright-mcp", "", "a directory where `npm install @playwright/mcp` ran: measure what Playwright MCP's browser_snapshot returns on the same pages")
	timeout := flag.Duration("timeout", 40*time.Minute, "the whole run's deadline (a busy machine needs more)")
	only := flag.String("only", "", "run one section only: \"peers\" (Playwright and Playwright MCP next to rodagent), \"cold\" (the cold first look) or \"locator\" (locator reads)")
	flag.Parse()
	log.SetFlags(0)
	if _, err := os.Stat(*fixtures); err != nil {
		log.Fatalf("rodagent-bench: %v (run from the repository root, or pass -fixtures)", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), *timeout)
	defer cancel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Fatal(err)
	}
	srv := &http.Server{Handler: http.FileServer(http.Dir(*fixtures))}
	go func() { _ = srv.Serve(ln) }()
	defer srv.Close()

	b, err := rodagent.Launch(ctx, rodagent.WithDownload(false))
	if err != nil {
		log.Fatal(err)
	}
	defer b.Close()
	version := "?"
	if v, err := (proto.BrowserGetVersion{}).Call(b.Rod()); err == nil {
		version = v.Product
	}
	fmt.Printf("rodagent-bench · %s · %s/%s · %d CPUs · %s · %s · %s · %d runs\n\n", time.Now().UTC().Format("2006-01-02 15:04 MST"),
		runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), machine(), version, runtime.Version(), *n)
	base := "http://" + ln.Addr().String()
	if *only == "peers" {
		if err := allPeers(ctx, b, base, *pwDir, *pwMCPDir, *bin, *n); err != nil {
			log.Fatal(err)
		}
		return
	} else if *only != "" && *only != "cold" && *only != "locator" {
		log.Fatalf("rodagent-bench: -only %q: the sections that run alone are \"peers\", \"cold\" and \"locator\"", *only)
	}
	ws, stop, err := stockChromium(ctx, *bin)
	if err != nil {
		log.Fatalf("starting a stock Chromium for Connect: %v", err)
	}
	defer stop()
	stock, err := rodagent.Connect(ctx, ws)
	if err != nil {
		log.Fatalf("Connect: %v", err)
	}
	defer stock.Close()
	if *only == "" {
		fmt.Println("### Launch and Connect to a stock Chromium (1,000 controls)")
		fmt.Println()
		if err := launchVsConnect(ctx, b, stock, base, *n); err != nil {
			log.Fatal(err)
		}
	}
	if *only != "locator" {
		fmt.Printf("### Cold first look on the large table (6,005 controls): a fresh load each run (%d runs), then the snapshot and a raw getFullAXTree, alternating which goes first\n", 2*max(*n, 3))
		fmt.Println()
		fmt.Println("| browser | first snapshot median (min–max) | raw getFullAXTree median (min–max) | ratio | snapshot median: snapshot first / raw first | raw median: snapshot first / raw first |")
		fmt.Println("| --- | --- | --- | --- | --- | --- |")
		for _, x := range []struct {
			name string
			b    *rodagent.Browser
		}{{"Launch", b}, {"Connect (stock)", stock}} {
			// Twice -n and even: whichever reads a fresh page first pays its first
			// style and layout, so both orders need as many runs, and six in all
			// left the median on the boundary between them.
			if err := coldFirstLook(ctx, x.b, x.name, base+"/bigtable.html", 2*max(*n, 3)); err != nil {
				log.Fatal(err)
			}
		}
		if *only == "cold" {
			return
		}
	}
	fmt.Println()
	fmt.Printf("### Locator read on the large table (6,005 controls): cold on a fresh load each run (%d runs), warm after a snapshot\n", *n)
	fmt.Println()
	fmt.Println("| browser | read | cold median (min–max) | round trips | warm median (min–max) | round trips | largest scrollY after |")
	fmt.Println("| --- | --- | --- | --- | --- | --- | --- |")
	for _, x := range []struct {
		name string
		b    *rodagent.Browser
	}{{"Launch", b}, {"Connect (stock)", stock}} {
		if err := locatorReads(ctx, x.b, x.name, base+"/bigtable.html", *n); err != nil {
			log.Fatal(err)
		}
	}
	if *only == "locator" {
		return
	}
	fmt.Println()
	if err := allPeers(ctx, b, base, *pwDir, *pwMCPDir, *bin, *n); err != nil {
		log.Fatal(err)
	}
	fmt.Println()
	fmt.Println("### Snapshots, deltas and clicks (Launch)")
	fmt.Println()
	fmt.Println("| page | refs | text chars | full snapshot median (min–max) | raw getFullAXTree median | ratio | delta after one change | delta chars | Go heap held |")
	fmt.Println("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
	var clicks []string
	for _, pg := range pages {
		runs := *n
		if pg.runs > 0 && pg.runs < runs {
			runs = pg.runs
		}
		r, c, err := measure(ctx, b, "http://"+ln.Addr().String()+"/"+pg.path, pg, runs, *n)
		if err != nil {
			log.Fatalf("%s: %v", pg.name, err)
		}
		fmt.Printf("| %s | %s\n", pg.name, r)
		clicks = append(clicks, fmt.Sprintf("| %s | %s", pg.name, c))
	}
	fmt.Println()
	fmt.Println("| page | click by ref median (min–max) | round trips | bare rod click median (min–max) | round trips | ratio |")
	fmt.Println("| --- | --- | --- | --- | --- | --- |")
	for _, c := range clicks {
		fmt.Println(c)
	}
	fmt.Println()
	if err := perAction(ctx, b, "http://"+ln.Addr().String()+"/native.html", *n); err != nil {
		log.Fatal(err)
	}
}

// allPeers prints the peers' sections: Playwright's AI snapshot, then what
// Playwright MCP returns to a model.
func allPeers(ctx context.Context, b *rodagent.Browser, base, pwDir, pwMCPDir, bin string, n int) error {
	fmt.Println("### Peers on the same pages, same run")
	fmt.Println()
	if err := peers(ctx, b, base, pwDir, bin, min(n, 5)); err != nil {
		return err
	}
	fmt.Println()
	fmt.Println("### Sizes next to Playwright MCP (same pages, same run)")
	fmt.Println()
	return peersMCP(ctx, b, base, pwMCPDir, bin, min(n, 5))
}

// perAction prints the CDP round trips and median time of each action on a
// page of native controls: what each verb costs an agent.
func perAction(ctx context.Context, b *rodagent.Browser, url string, n int) error {
	p, err := b.NewPage(ctx, url)
	if err != nil {
		return err
	}
	defer p.Close()
	s, err := p.Snapshot(ctx)
	if err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "rodagent-bench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	country, remember, bio := find(s, "combobox/Country"), find(s, "checkbox/Remember me"), find(s, "textbox/Bio")
	steps := []struct {
		name string
		do   func() (rodagent.ActionStatus, error)
	}{
		{"Click", func() (rodagent.ActionStatus, error) { return p.Click(ctx, remember) }},
		{"DblClick", func() (rodagent.ActionStatus, error) { return p.DblClick(ctx, bio) }},
		{"Hover", func() (rodagent.ActionStatus, error) { return p.Hover(ctx, remember) }},
		{"Focus", func() (rodagent.ActionStatus, error) { return p.Focus(ctx, bio) }},
		{"Type", func() (rodagent.ActionStatus, error) { return p.Type(ctx, bio, "hello") }},
		{"Press", func() (rodagent.ActionStatus, error) { return p.Press(ctx, "End") }},
		{"Scroll (wheel)", func() (rodagent.ActionStatus, error) { return p.Scroll(ctx, "down", 10) }},
		{"Scroll (to ref)", func() (rodagent.ActionStatus, error) { return p.Scroll(ctx, country, 0) }},
		{"Check (already checked)", func() (rodagent.ActionStatus, error) { return p.Check(ctx, remember) }},
		{"Select", func() (rodagent.ActionStatus, error) { return p.Select(ctx, country, "Germany") }},
		{"Snapshot (delta after a click that ticks a box; the click not counted)", nil},
		{"Snapshot (full)", func() (rodagent.ActionStatus, error) {
			_, err := p.Snapshot(ctx, rodagent.WithFull())
			return rodagent.Ready, err
		}},
	}
	fmt.Println("| action (native.html) | round trips | median (min–max) |")
	fmt.Println("| --- | --- | --- |")
	for _, st := range steps {
		var ds []time.Duration
		var rts int64
		if st.do == nil {
			st.do = func() (rodagent.ActionStatus, error) { _, err := p.Snapshot(ctx); return rodagent.Ready, err }
		}
		for i := 0; i < n; i++ {
			if strings.HasPrefix(st.name, "Snapshot (delta") {
				if _, err := p.Click(ctx, remember); err != nil {
					return err
				}
			}
			before := p.RoundTrips()
			start := time.Now()
			if _, err := st.do(); err != nil {
				return fmt.Errorf("%s: %w", st.name, err)
			}
			ds = append(ds, time.Since(start))
			rts = p.RoundTrips() - before
		}
		fmt.Printf("| %s | %d | %s |\n", st.name, rts, spread(ds))
	}
	return nil
}

func measure(ctx context.Context, b *rodagent.Browser, url string, pg page, runs, clickRuns int) (string, string, error) {
	p, err := b.NewPage(ctx, url)
	if err != nil {
		return "", "", err
	}
	defer p.Close()
	if err := p.Wait(ctx, rodagent.NetworkIdle()); err != nil {
		return "", "", err
	}
	first, err := p.Snapshot(ctx) // the first look builds what later ones reuse
	if err != nil {
		return "", "", err
	}
	var full []time.Duration
	var snap *rodagent.Snapshot
	for i := 0; i < runs; i++ {
		start := time.Now()
		snap, err = p.Snapshot(ctx, rodagent.WithFull())
		if err != nil {
			return "", "", err
		}
		full = append(full, time.Since(start))
	}
	var raw []time.Duration
	for i := 0; i < min(runs, 5); i++ {
		start := time.Now()
		if _, err := (proto.AccessibilityGetFullAXTree{}).Call(p.Rod().Context(ctx)); err != nil {
			return "", "", err
		}
		raw = append(raw, time.Since(start))
	}
	heap := heldBy(func() any { s, _ := p.Snapshot(ctx, rodagent.WithFull()); return s })

	// Delta: one change (not timed), then the next look (timed).
	var delta []time.Duration
	deltaChars := 0
	change := find(snap, pg.change)
	for i := 0; i < runs; i++ {
		if _, err := p.Click(ctx, change); err != nil {
			return "", "", err
		}
		start := time.Now()
		d, err := p.Snapshot(ctx)
		if err != nil {
			return "", "", err
		}
		delta = append(delta, time.Since(start))
		deltaChars = len(strings.TrimSuffix(d.String(), rodagent.SafetyLine+"\n"))
	}

	// Click by ref, and the bare floor on the same node.
	target := find(snap, pg.click)
	var click, bare []time.Duration
	var rts, bareRTs int64
	for i := 0; i < clickRuns; i++ {
		before := p.RoundTrips()
		start := time.Now()
		if _, err := p.Click(ctx, target); err != nil {
			return "", "", err
		}
		click = append(click, time.Since(start))
		rts = p.RoundTrips() - before
	}
	cur, err := p.Snapshot(ctx, rodagent.WithFull())
	if err != nil {
		return "", "", err
	}
	ref, _ := cur.Ref(target)
	rp := p.Rod().Context(ctx)
	for i := 0; i < clickRuns; i++ {
		start := time.Now()
		calls, err := bareClick(ctx, rp, ref.BackendNodeID)
		if err != nil {
			return "", "", err
		}
		bare = append(bare, time.Since(start))
		bareRTs = calls
	}
	row := fmt.Sprintf("%d | %d | %s | %s | %.2f× | %s | %d | %.1f MB |",
		len(snap.Refs), len(first.FullText()), spread(full), ms(median(raw)),
		float64(median(full))/float64(median(raw)), spread(delta), deltaChars, heap)
	crow := fmt.Sprintf("%s | %d | %s | %d | %.2f× |", spread(click), rts, spread(bare), bareRTs,
		float64(median(click))/float64(median(bare)))
	return row, crow, nil
}

// counting is a CDP client that counts the commands sent through it, so the
// bare click's round trips are measured, not written in.
type counting struct {
	*rod.Page
	n int64
}

func (c *counting) Call(ctx context.Context, sessionID, method string, params any) ([]byte, error) {
	c.n++
	return c.Page.Call(ctx, sessionID, method, params)
}

// bareClick is the least a CDP click can do: scroll the node into view, read
// its quads, and press at the centre. It returns the round trips it made.
func bareClick(ctx context.Context, rp *rod.Page, id proto.DOMBackendNodeID) (int64, error) {
	c := &counting{Page: rp}
	if err := (proto.DOMScrollIntoViewIfNeeded{BackendNodeID: id}).Call(c); err != nil {
		return 0, err
	}
	q, err := proto.DOMGetContentQuads{BackendNodeID: id}.Call(c)
	if err != nil || len(q.Quads) == 0 {
		return 0, fmt.Errorf("quads: %v", err)
	}
	x, y := 0.0, 0.0
	for i := 0; i < 8; i += 2 {
		x += q.Quads[0][i] / 4
		y += q.Quads[0][i+1] / 4
	}
	err = input.Click(ctx, c, input.Point{X: x, Y: y}, 1, 0)
	return c.n, err
}

func find(s *rodagent.Snapshot, roleName string) string {
	role, name, _ := strings.Cut(roleName, "/")
	for _, r := range s.Refs {
		if r.Role == role && r.Name == name {
			return r.Ref
		}
	}
	log.Fatalf("no %s %q on the page", role, name)
	return ""
}

// heldBy is the Go heap still in use while the value made by mk is held.
func heldBy(mk func() any) float64 {
	var a, b runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&a)
	v := mk()
	runtime.GC()
	runtime.ReadMemStats(&b)
	runtime.KeepAlive(v)
	return float64(int64(b.HeapAlloc)-int64(a.HeapAlloc)) / 1e6
}

func median(ds []time.Duration) time.Duration {
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2]
}

func spread(ds []time.Duration) string {
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return fmt.Sprintf("%s (%s–%s)", ms(s[len(s)/2]), ms(s[0]), ms(s[len(s)-1]))
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1000) }
