package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/go-rod/rod/lib/proto"

	"github.com/rodagent/rodagent"
)

// stockChromium starts a Chromium with none of rodagent's launch flags (no
// ComputedAccessibilityInfo), as a fleet would run it, for Connect. stop ends
// that process only.
func stockChromium(ctx context.Context, bin string) (ws string, stop func(), err error) {
	dir, err := os.MkdirTemp("", "rodagent-bench-stock-")
	if err != nil {
		return "", nil, err
	}
	args := []string{"--headless", "--remote-debugging-port=0", "--user-data-dir=" + dir, "--no-first-run",
		"--no-default-browser-check", "--disable-gpu", "--disable-dev-shm-usage", "about:blank"}
	if os.Geteuid() == 0 {
		args = append(args, "--no-sandbox")
	}
	cmd := exec.Command(bin, args...)
	pipe, err := cmd.StderrPipe()
	if err != nil {
		return "", nil, err
	}
	if err := cmd.Start(); err != nil {
		return "", nil, err
	}
	stop = func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		_ = os.RemoveAll(dir)
	}
	found := make(chan string, 1)
	go func() {
		re := regexp.MustCompile(`DevTools listening on (ws://\S+)`)
		sc := bufio.NewScanner(pipe)
		for sc.Scan() {
			if m := re.FindStringSubmatch(sc.Text()); m != nil {
				found <- m[1]
				break
			}
		}
		for sc.Scan() {
		}
	}()
	select {
	case ws = <-found:
		return ws, stop, nil
	case <-ctx.Done():
		stop()
		return "", nil, ctx.Err()
	case <-time.After(60 * time.Second):
		stop()
		return "", nil, fmt.Errorf("%s printed no DevTools address", bin)
	}
}

// pathRow measures, on one page of browser b: the first look (cold), the
// full snapshot and the delta after a real change, and which path read it.
type pathRow struct {
	source            string
	first             time.Duration
	full, delta       []time.Duration
	fullRTs, deltaRTs int64
	refs              int
}

func measurePath(ctx context.Context, b *rodagent.Browser, url, change string, n int) (*pathRow, error) {
	p, err := b.NewPage(ctx, url)
	if err != nil {
		return nil, err
	}
	defer p.Close()
	start := time.Now()
	first, err := p.Snapshot(ctx)
	if err != nil {
		return nil, err
	}
	r := &pathRow{source: first.Source, first: time.Since(start), refs: len(first.Refs)}
	target := find(first, change)
	for i := 0; i < n; i++ {
		before := p.RoundTrips()
		start := time.Now()
		if _, err := p.Snapshot(ctx, rodagent.WithFull()); err != nil {
			return nil, err
		}
		r.full = append(r.full, time.Since(start))
		r.fullRTs = p.RoundTrips() - before
	}
	for i := 0; i < n; i++ {
		if _, err := p.Click(ctx, target); err != nil {
			return nil, err
		}
		before := p.RoundTrips()
		start := time.Now()
		d, err := p.Snapshot(ctx)
		if err != nil {
			return nil, err
		}
		r.delta = append(r.delta, time.Since(start))
		r.deltaRTs = p.RoundTrips() - before
		if d.Delta == nil || len(d.Delta.Changed) == 0 {
			return nil, fmt.Errorf("the delta after clicking %s shows no change", target)
		}
	}
	return r, nil
}

// launchVsConnect prints the Launch path next to Connect to a stock Chromium.
func launchVsConnect(ctx context.Context, launched, connected *rodagent.Browser, base string, n int) error {
	url := base + "/bigtable.html?rows=333"
	fmt.Println("| browser (bigtable.html?rows=333) | source | refs | first look | full snapshot median (min–max) | round trips | delta after one change median (min–max) | round trips |")
	fmt.Println("| --- | --- | --- | --- | --- | --- | --- | --- |")
	var rows []*pathRow
	for _, x := range []struct {
		name string
		b    *rodagent.Browser
	}{{"Launch (flag set)", launched}, {"Connect, stock Chromium (no flag)", connected}} {
		r, err := measurePath(ctx, x.b, url, "checkbox/Select row 1", n)
		if err != nil {
			return fmt.Errorf("%s: %w", x.name, err)
		}
		rows = append(rows, r)
		fmt.Printf("| %s | %s | %d | %s | %s | %d | %s | %d |\n", x.name, r.source, r.refs, ms(r.first), spread(r.full), r.fullRTs, spread(r.delta), r.deltaRTs)
	}
	fmt.Printf("\nConnect ÷ Launch, same run: full snapshot %.2f×, delta %.2f×.\n\n",
		float64(median(rows[1].full))/float64(median(rows[0].full)), float64(median(rows[1].delta))/float64(median(rows[0].delta)))
	return nil
}

// coldFirstLook loads the large page afresh for each run and times the first
// snapshot and a raw Accessibility.getFullAXTree on that load, alternating
// which goes first.
func coldFirstLook(ctx context.Context, b *rodagent.Browser, name, url string, runs int) error {
	var snap, raw []time.Duration
	// by order: [0] the snapshot read the fresh page first, [1] the raw tree did
	var snapBy, rawBy [2][]time.Duration
	for i := 0; i < runs; i++ {
		p, err := b.NewPage(ctx, url)
		if err != nil {
			return err
		}
		doSnap := func() error {
			start := time.Now()
			_, err := p.Snapshot(ctx)
			snap = append(snap, time.Since(start))
			return err
		}
		doRaw := func() error {
			start := time.Now()
			_, err := proto.AccessibilityGetFullAXTree{}.Call(p.Rod().Context(ctx))
			raw = append(raw, time.Since(start))
			return err
		}
		order := []func() error{doSnap, doRaw}
		if i%2 == 1 {
			order = []func() error{doRaw, doSnap}
		}
		for _, f := range order {
			if err := f(); err != nil {
				_ = p.Close()
				return err
			}
		}
		_ = p.Close()
		snapBy[i%2] = append(snapBy[i%2], snap[len(snap)-1])
		rawBy[i%2] = append(rawBy[i%2], raw[len(raw)-1])
	}
	// Whichever read comes first pays for what the page's load left behind
	// (its garbage, collected by the first read that runs much JavaScript;
	// before Open waited for a frame, its first layout too): the medians by
	// order show how much of the spread that is.
	fmt.Printf("| %s | %s | %s | %.2f× | %s / %s | %s / %s |\n", name, spread(snap), spread(raw), float64(median(snap))/float64(median(raw)),
		ms(median(snapBy[0])), ms(median(snapBy[1])), ms(median(rawBy[0])), ms(median(rawBy[1])))
	return nil
}

// countRange prints counts of several runs: the count when every run had
// it, else the least and the most and how many runs had more than the least.
func countRange(c []int64) string {
	if len(c) == 0 {
		return "-"
	}
	lo, hi := slices.Min(c), slices.Max(c)
	if lo == hi {
		return fmt.Sprint(lo)
	}
	more := 0
	for _, x := range c {
		if x > lo {
			more++
		}
	}
	return fmt.Sprintf("%d–%d (more than %d in %d of %d)", lo, hi, lo, more, len(c))
}

// locatorReads times locator reads on the large page: cold (a fresh load
// each run, no snapshot before) and warm (after a snapshot), with the round
// trips of every run, and checks that no read scrolled the page. On a page
// not read before, both are read by a find: by role, the elements of the
// role (less those an aria-label names that lacks a word of the name); by
// label, the elements holding the label's rarest word, and the elements
// whose names they feed.
func locatorReads(ctx context.Context, b *rodagent.Browser, browser, url string, n int) error {
	for _, l := range []rodagent.Locator{
		rodagent.ByRole("checkbox", "Select row 1500").Exact(),
		rodagent.ByLabel("Select row 1500").Exact(),
	} {
		var cold, warm []time.Duration
		var coldRTs, warmRTs []int64
		scrolled := 0.0
		for i := 0; i < n; i++ {
			p, err := b.NewPage(ctx, url)
			if err != nil {
				return err
			}
			scrollY := func() float64 {
				r, err := proto.RuntimeEvaluate{Expression: "scrollY", ReturnByValue: true}.Call(p.Rod().Context(ctx))
				if err != nil {
					return -1
				}
				return r.Result.Value.Num()
			}
			before := p.RoundTrips()
			start := time.Now()
			if _, err := p.Locate(l).Checked(ctx); err != nil {
				p.Close()
				return err
			}
			cold = append(cold, time.Since(start))
			coldRTs = append(coldRTs, p.RoundTrips()-before)
			if i == 0 {
				// the warm reads: after a snapshot, on the first page
				if _, err := p.Snapshot(ctx); err != nil {
					p.Close()
					return err
				}
				for k := 0; k < n; k++ {
					before := p.RoundTrips()
					start := time.Now()
					if _, err := p.Locate(l).Checked(ctx); err != nil {
						p.Close()
						return err
					}
					warm = append(warm, time.Since(start))
					warmRTs = append(warmRTs, p.RoundTrips()-before)
				}
			}
			scrolled = max(scrolled, scrollY())
			p.Close()
		}
		fmt.Printf("| %s | `Locate(%s).Checked` | %s | %s | %s | %s | %v |\n", browser, l, spread(cold), countRange(coldRTs), spread(warm), countRange(warmRTs), scrolled)
	}
	return nil
}

// playwrightJS is Playwright's AI snapshot (page.ariaSnapshot({mode: "ai"}))
// on one page of the same Chromium binary: cold (right after load) and warm.
const playwrightJS = `const { chromium } = require('playwright-core');
(async () => {
  const [url, runs, bin] = [process.argv[2], +process.argv[3], process.argv[4]];
  const browser = await chromium.launch({ executablePath: bin, headless: true, args: process.getuid() === 0 ? ['--no-sandbox'] : [] });
  const page = await browser.newPage();
  page.setDefaultTimeout(0); // the bench's own deadline bounds the run; a busy machine must not fail it
  await page.goto(url, { waitUntil: 'load', timeout: 0 });
  const snap = () => page.ariaSnapshot({ mode: 'ai' });
  let t = performance.now(); let s = await snap(); const cold = performance.now() - t;
  const warm = [];
  for (let i = 0; i < runs; i++) { t = performance.now(); s = await snap(); warm.push(performance.now() - t); }
  console.log(JSON.stringify({ cold, warm, chars: s.length, version: require('playwright-core/package.json').version }));
  await browser.close();
})().catch(e => { console.error(e); process.exit(1); });
`

// peers compares rodagent's first look, warm full snapshot and text size
// with Playwright's AI snapshot on the same pages in the same run.
func peers(ctx context.Context, b *rodagent.Browser, base, pwDir, bin string, n int) error {
	if pwDir == "" {
		fmt.Println("Playwright not measured: pass -playwright DIR (a directory where `npm install playwright-core` ran).")
		return nil
	}
	script := filepath.Join(pwDir, "rodagent-bench-playwright.js")
	if err := os.WriteFile(script, []byte(playwrightJS), 0o644); err != nil {
		return err
	}
	defer os.Remove(script)
	fmt.Println("| page | rodagent first look | rodagent full snapshot median | rodagent chars (budgeted / whole, no budget) | Playwright first ariaSnapshot(ai) | Playwright warm median | Playwright chars |")
	fmt.Println("| --- | --- | --- | --- | --- | --- | --- |")
	version := ""
	for _, path := range []string{"appshell.html", "bigtable.html?rows=333", "bigtable.html"} {
		p, err := b.NewPage(ctx, base+"/"+path)
		if err != nil {
			return err
		}
		start := time.Now()
		s, err := p.Snapshot(ctx)
		if err != nil {
			return err
		}
		first := time.Since(start)
		s, all, full, err := fullLooks(ctx, p, n)
		if err != nil {
			return err
		}
		cmd := exec.CommandContext(ctx, "node", script, base+"/"+path, fmt.Sprint(n), bin)
		cmd.Dir = pwDir
		var stderr strings.Builder
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			return fmt.Errorf("playwright on %s: %v: %.2000s", path, err, stderr.String())
		}
		var pw struct {
			Cold    float64
			Warm    []float64
			Chars   int
			Version string
		}
		if err := json.Unmarshal(out, &pw); err != nil {
			return fmt.Errorf("playwright output %q: %v", out, err)
		}
		version = pw.Version
		var warm []time.Duration
		for _, w := range pw.Warm {
			warm = append(warm, time.Duration(w*float64(time.Millisecond)))
		}
		fmt.Printf("| %s | %s | %s | %d / %d | %s | %s | %d |\n", path, ms(first), spread(full), len(s.String()), len(all.String()),
			ms(time.Duration(pw.Cold*float64(time.Millisecond))), spread(warm), pw.Chars)
	}
	fmt.Printf("\nPlaywright: playwright-core %s, `page.ariaSnapshot({mode: \"ai\"})`, same Chromium binary, launched by Playwright.\n", version)
	return nil
}

// machine describes where the figures were measured.
func machine() string {
	model := "unknown CPU"
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			if strings.HasPrefix(l, "model name") {
				_, model, _ = strings.Cut(l, ":")
				model = strings.TrimSpace(model)
				break
			}
		}
	}
	load := ""
	if b, err := os.ReadFile("/proc/loadavg"); err == nil {
		load = "load average " + strings.Join(strings.Fields(string(b))[:3], " ")
	}
	return model + ", " + load
}

// fullLooks times n full snapshots of p, then reads the same inventory
// without the character budget (the "whole" size), and closes p.
func fullLooks(ctx context.Context, p *rodagent.Page, n int) (last, whole *rodagent.Snapshot, times []time.Duration, err error) {
	defer p.Close()
	for i := 0; i < n; i++ {
		start := time.Now()
		if last, err = p.Snapshot(ctx, rodagent.WithFull()); err != nil {
			return nil, nil, nil, err
		}
		times = append(times, time.Since(start))
	}
	if whole, err = p.Snapshot(ctx, rodagent.WithFull(), rodagent.WithMaxChars(1<<30)); err != nil {
		return nil, nil, nil, err
	}
	return last, whole, times, nil
}
