package rodagent

import (
	"context"
	"net"
	"net/http"
	"sort"
	"strconv"
	"testing"
	"time"

	"github.com/go-rod/rod/lib/proto"

	"github.com/rodagent/rodagent/internal/ax"
)

// BenchmarkSettleNoChange times a click that changes nothing followed by the
// wait a look does after it, on settle.html (a page that keeps an interval,
// a poller, a frame loop and a spinner going) and settle-net.html (one that
// keeps a request poller, a long poll and an event stream going): "frame"
// is the settle looks did before (one frame and the tasks after it,
// ms-frame), and the one they do now (that, and what the action set in
// motion, ms-settle). Their difference (ms-added, the median of each pair's)
// is what the settle costs a click that sets nothing in motion.
func BenchmarkSettleNoChange(b *testing.B) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	stop := make(chan struct{})
	srv := &http.Server{Handler: SettleNetHandler(stop)}
	go func() { _ = srv.Serve(ln) }()
	defer srv.Close()
	defer close(stop)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	br, err := Launch(ctx, WithDownload(false))
	if err != nil {
		b.Fatal(err)
	}
	defer br.Close()
	for _, page := range []string{"settle.html", "settle-net.html"} {
		b.Run(page, func(b *testing.B) {
			p, err := br.NewPage(ctx, "http://127.0.0.1:"+strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)+"/"+page)
			if err != nil {
				b.Fatal(err)
			}
			defer p.Close()
			benchSettleNoChange(ctx, b, p)
		})
	}
}

func benchSettleNoChange(ctx context.Context, b *testing.B, p *Page) {
	s, err := p.Snapshot(ctx)
	if err != nil {
		b.Fatal(err)
	}
	ref := ""
	for _, r := range s.Refs {
		if r.Name == "Nothing" {
			ref = r.Ref
		}
	}
	// Alternated, so the machine's load weighs on both alike; timed by the
	// page's clock, and reported as medians (a loaded machine delays a
	// frame now and then by tens of milliseconds).
	exprs := []string{frameJS, ax.SettleExpr()}
	took := [2][]float64{}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for k, expr := range exprs {
			if _, err := p.Click(ctx, ref); err != nil {
				b.Fatal(err)
			}
			v, err := p.evalInWorldMS(ctx, expr)
			if err != nil {
				b.Fatal(err)
			}
			took[k] = append(took[k], v)
		}
	}
	diffs := make([]float64, b.N)
	for i := range diffs {
		diffs[i] = took[1][i] - took[0][i]
	}
	b.ReportMetric(median(took[0]), "ms-frame")
	b.ReportMetric(median(took[1]), "ms-settle")
	b.ReportMetric(median(diffs), "ms-added")
}

func median(xs []float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	if len(s) == 0 {
		return 0
	}
	return s[len(s)/2]
}

// evalInWorldMS runs expr (a promise) in the main frame's isolated world and
// returns how long it took to settle by the page's clock.
func (p *Page) evalInWorldMS(ctx context.Context, expr string) (float64, error) {
	w, err := p.world(ctx, p.mainFrameInfo())
	if err != nil {
		return 0, err
	}
	res, err := proto.RuntimeEvaluate{Expression: `(async () => { const t = performance.now(); await (` + expr + `); return performance.now() - t; })()`,
		ContextID: w, AwaitPromise: true, ReturnByValue: true}.Call(p.main.Bind(ctx))
	if err != nil {
		return 0, err
	}
	return res.Result.Value.Num(), nil
}
