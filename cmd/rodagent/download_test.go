package main

import (
	"bytes"
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rodagent/rodagent/server"
)

// `rodagent download TARGET` on a serve with a download directory clicks the
// target, saves the file and prints where, then what moved; on a serve
// without one it fails with the server's not_allowed.
func TestCLIDownload(t *testing.T) {
	site := http.NewServeMux()
	site.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(`<!doctype html><title>Files</title><main><a href="/report.csv">Quarterly report</a></main>`))
	})
	site.HandleFunc("/report.csv", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Disposition", `attachment; filename="report.csv"`)
		w.Write([]byte("q,total\n"))
	})
	pages := httptest.NewServer(site)
	defer pages.Close()

	for _, on := range []bool{true, false} {
		dir := t.TempDir()
		var opts []server.Option
		if on {
			opts = append(opts, server.WithDownloadDir(dir))
		}
		const tok = "cli-download-token"
		h, err := server.New(tok, opts...)
		if err != nil {
			t.Fatal(err)
		}
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		api := &httptest.Server{Listener: ln, Config: &http.Server{Handler: h}}
		api.Start()
		state := t.TempDir()
		s, err := newSession("dl", state)
		if err != nil {
			t.Fatal(err)
		}
		s.Addr, s.PID = ln.Addr().String(), os.Getpid()
		if err := s.writeToken(tok); err != nil {
			t.Fatal(err)
		}
		if err := s.writeAddr(); err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		cli := func(args ...string) (string, string, int) {
			var out, errb bytes.Buffer
			code := runCLI(ctx, args[0], append(args[1:], "--session", "dl", "--state-dir", state), &out, &errb)
			return out.String(), errb.String(), code
		}
		if out, errs, code := cli("open", pages.URL+"/"); code != 0 {
			t.Fatalf("open: exit %d\n%s%s", code, out, errs)
		}
		if _, errs, code := cli("snapshot"); code != 0 {
			t.Fatalf("snapshot: exit %d %s", code, errs)
		}
		out, errs, code := cli("download", "lnk-quarterly-report")
		if on {
			want := `download lnk-quarterly-report → ready` + "\n" + `saved "report.csv" (8 bytes) at "` + filepath.Join(dir, "report.csv") + `"`
			if code != 0 || !strings.HasPrefix(out, want) {
				t.Errorf("download: exit %d\n%s%s\nwant it to begin with\n%s", code, out, errs, want)
			}
		} else if code == 0 || !strings.Contains(errs, "not_allowed") || !strings.Contains(errs, "--download-dir") {
			t.Errorf("download on a serve without a download directory: exit %d\n%s%s", code, out, errs)
		}
		cancel()
		api.Close()
		if err := h.Close(); err != nil {
			t.Errorf("closing the server's browser: %v", err)
		}
	}
}
