package server_test

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rodagent/rodagent/server"
)

// POST /act kind=download: off unless the server has a download directory;
// on, it clicks the target and saves the file the click downloads there,
// answering with its name, path and size. A plain click on the same link
// saves nothing, and its snapshot says the download was refused. A click
// that downloads nothing ends as timeout within the server's bound.
func TestDownloadKind(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/files", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(`<!doctype html><title>Files</title><main><h1>Files</h1>
<a href="/report.csv">Quarterly report</a> <button type="button">Nothing here</button></main>`))
	})
	mux.HandleFunc("/report.csv", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/csv")
		w.Header().Set("Content-Disposition", `attachment; filename="report.csv"`)
		w.Write([]byte("quarter,total\nQ1,10\n"))
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)

	off := newAPI(t)
	off.failsWith(http.StatusForbidden, "not_allowed", "POST", "/act", map[string]any{"kind": "download", "ref": "lnk-quarterly-report"})

	dir := t.TempDir()
	a := newAPI(t, server.WithDownloadDir(dir))
	a.ok("POST", "/tabs/open", map[string]any{"url": srv.URL + "/files"})
	snap := a.ok("GET", "/snapshot", nil).str("snapshot")
	if !strings.Contains(snap, "lnk-quarterly-report") {
		t.Fatalf("no link in the snapshot:\n%s", snap)
	}

	plain := a.act(map[string]any{"kind": "click", "ref": "lnk-quarterly-report"})
	if s := plain.str("snapshot"); !strings.Contains(s, `download "report.csv" refused`) {
		t.Errorf("the snapshot after a plain click on a download link does not say it was refused:\n%s", s)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("a plain click saved %d files into the download directory", len(entries))
	}

	r := a.act(map[string]any{"kind": "download", "ref": "lnk-quarterly-report"})
	file, _ := r.m["result"].(map[string]any)
	path, _ := file["path"].(string)
	if file["name"] != "report.csv" || filepath.Dir(path) != dir || file["size"] != float64(len("quarter,total\nQ1,10\n")) {
		t.Fatalf("download answered %s, want report.csv of 20 bytes in %s", r.raw, dir)
	}
	if b, err := os.ReadFile(path); err != nil || string(b) != "quarter,total\nQ1,10\n" {
		t.Errorf("the saved file: %q, %v", b, err)
	}
	if s := r.str("snapshot"); strings.Contains(s, "refused") {
		t.Errorf("the snapshot after a saved download calls it refused:\n%s", s)
	}

	defer server.SetDownloadWait(2 * time.Second)()
	start := time.Now()
	none := a.failsWith(http.StatusGatewayTimeout, "timeout", "POST", "/act", map[string]any{"kind": "download", "ref": "btn-nothing-here"})
	if !strings.Contains(none.str("error"), "no file was saved") || none.str("next") == "" {
		t.Errorf("a click that downloads nothing: %s", none.raw)
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("a click that downloads nothing took %v, past the server's bound", d)
	}
}
