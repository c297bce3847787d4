package rodagent

import (
	"context"
	"net"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/rodagent/rodagent/internal/ax"
)

// BenchmarkSettleNoChange times a click that changes nothing followed by the
// wait a look does after it, on settle.html (a page that keeps an interval,
// a poller, a frame loop and a spinner going): "frame" is the settle looks
// did before (one frame and the tasks after it, ms-frame), and the one they
// do now (that, and what the action set in motion, ms-settle). Their
// difference is what the settle costs a click that sets nothing in motion.
func BenchmarkSettleNoChange(b *testing.B) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	srv := &http.Server{Handler: http.FileServer(http.Dir("testdata/fixtures"))}
	go func() { _ = srv.Serve(ln) }()
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	br, err := Launch(ctx, WithDownload(false))
	if err != nil {
		b.Fatal(err)
	}
	defer br.Close()
	p, err := br.NewPage(ctx, "http://127.0.0.1:"+strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)+"/settle.html")
	if err != nil {
		b.Fatal(err)
	}
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
	// Alternated, so the machine's load weighs on both alike.
	exprs := []string{frameJS, ax.SettleExpr()}
	var waited [2]time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for k, expr := range exprs {
			if _, err := p.Click(ctx, ref); err != nil {
				b.Fatal(err)
			}
			start := time.Now()
			p.runInWorld(ctx, p.mainFrameInfo(), expr)
			waited[k] += time.Since(start)
		}
	}
	b.ReportMetric(float64(waited[0].Microseconds())/float64(b.N)/1000, "ms-frame/op")
	b.ReportMetric(float64(waited[1].Microseconds())/float64(b.N)/1000, "ms-settle/op")
}
