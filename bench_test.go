package rodagent_test

import (
	"testing"
	"time"

	"github.com/go-rod/rod/lib/proto"

	"github.com/rodagent/rodagent"
	"github.com/rodagent/rodagent/input"
)

// Benchmarks of what an agent pays per step, against the shared browser:
//
//	go test -run XXX -bench . -benchtime 20x
//
// cmd/rodagent-bench prints the same figures as a table for BENCHMARKS.md.

func benchSnapshot(b *testing.B, path string, opts ...rodagent.SnapshotOption) {
	p := open(b, path)
	ctx := testCtx(b, 10*time.Minute)
	if _, err := p.Snapshot(ctx); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s, err := p.Snapshot(ctx, opts...)
		if err != nil {
			b.Fatal(err)
		}
		if i == 0 {
			b.ReportMetric(float64(len(s.String())), "chars")
			b.ReportMetric(float64(len(s.Refs)), "refs")
		}
	}
}

func BenchmarkSnapshotAppShell(b *testing.B)  { benchSnapshot(b, "appshell.html", rodagent.WithFull()) }
func BenchmarkSnapshotLargePage(b *testing.B) { benchSnapshot(b, "bigtable.html", rodagent.WithFull()) }

func BenchmarkRawGetFullAXTreeLargePage(b *testing.B) {
	p := open(b, "bigtable.html")
	for i := 0; i < b.N; i++ {
		if _, err := (proto.AccessibilityGetFullAXTree{}).Call(p.Rod()); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDeltaLargePage: tick one checkbox (not timed), then look again.
func BenchmarkDeltaLargePage(b *testing.B) {
	p := open(b, "bigtable.html")
	ctx := testCtx(b, 10*time.Minute)
	if _, err := p.Snapshot(ctx); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		if _, err := p.Click(ctx, "chk-select-row-2"); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		if _, err := p.Snapshot(ctx); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkClickByRefAppShell(b *testing.B) {
	p := open(b, "appshell.html")
	ctx := testCtx(b, 10*time.Minute)
	s, err := p.Snapshot(ctx)
	if err != nil {
		b.Fatal(err)
	}
	ref := refNamed(b, s, "button", "Refresh")
	before := p.RoundTrips()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := p.Click(ctx, ref); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(p.RoundTrips()-before)/float64(b.N), "roundtrips/op")
}

// BenchmarkBareClickAppShell is the floor: scroll into view, read the
// quads, three mouse events — on the same node, with no checks.
func BenchmarkBareClickAppShell(b *testing.B) {
	p := open(b, "appshell.html")
	ctx := testCtx(b, 10*time.Minute)
	s, err := p.Snapshot(ctx)
	if err != nil {
		b.Fatal(err)
	}
	r, _ := s.Ref(refNamed(b, s, "button", "Refresh"))
	rp := p.Rod().Context(ctx)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := (proto.DOMScrollIntoViewIfNeeded{BackendNodeID: r.BackendNodeID}).Call(rp); err != nil {
			b.Fatal(err)
		}
		q, err := proto.DOMGetContentQuads{BackendNodeID: r.BackendNodeID}.Call(rp)
		if err != nil {
			b.Fatal(err)
		}
		x, y := (q.Quads[0][0]+q.Quads[0][4])/2, (q.Quads[0][1]+q.Quads[0][5])/2
		if err := input.Click(ctx, rp, input.Point{X: x, Y: y}, 1, 0); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(5, "roundtrips/op")
}
