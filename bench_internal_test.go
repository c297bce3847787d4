package rodagent

import (
	"context"
	"net"
	"net/http"
	"strconv"
	"testing"
	"time"
)

// BenchmarkFramesParallel and BenchmarkFramesSequential time a snapshot of a
// page with three frames (the main one, a same-origin frame and a cross-site,
// out-of-process one), reading the frames at once or one after another.
func BenchmarkFramesParallel(b *testing.B)   { benchFrames(b, 0) }
func BenchmarkFramesSequential(b *testing.B) { benchFrames(b, 1) }

func benchFrames(b *testing.B, limit int) {
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
	port := ln.Addr().(*net.TCPAddr).Port
	p, err := br.NewPage(ctx, "http://127.0.0.1:"+strconv.Itoa(port)+"/frames.html?other=http://localhost:"+strconv.Itoa(port))
	if err != nil {
		b.Fatal(err)
	}
	if _, err := p.Snapshot(ctx); err != nil {
		b.Fatal(err)
	}
	frameReadLimit = limit
	defer func() { frameReadLimit = 0 }()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s, err := p.Snapshot(ctx, WithFull())
		if err != nil || len(s.Frames) != 3 {
			b.Fatalf("snapshot: %v, %d frames", err, len(s.Frames))
		}
	}
}
