package rodagent_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-rod/rod/lib/proto"

	"github.com/rodagent/rodagent"
)

// downloadServer serves /start — a link to a file, a link to a URL that
// answers 204 No Content, and a button that writes "still here" — the
// file, and that URL.
func downloadServer(t *testing.T) *httptest.Server {
	mux := http.NewServeMux()
	mux.HandleFunc("/start", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, `<!doctype html><title>Start</title><p id=out>waiting</p>
<a href="/report.csv">Get report</a> <a href="/nothing">Nothing here</a>
<button onclick="document.getElementById('out').textContent='still here'">Ping</button>`)
	})
	mux.HandleFunc("/report.csv", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/csv")
		w.Header().Set("Content-Disposition", `attachment; filename="report.csv"`)
		fmt.Fprint(w, "a,b\n1,2\n")
	})
	mux.HandleFunc("/nothing", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNoContent) })
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

// Open of a URL that answers with a file, or with no content, is no page:
// the error says which, the tab stays where it was, and WaitDownload takes
// such an Open as the trigger of its download.
func TestOpenOfADownloadOrNoContent(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t, 60*time.Second)
	srv := downloadServer(t)
	p := openURL(t, srv.URL+"/start")

	err := p.Open(ctx, srv.URL+"/report.csv")
	var ne *rodagent.NavigationError
	if !errors.As(err, &ne) || ne.Download != "report.csv" || !strings.Contains(err.Error(), "WaitDownload") {
		t.Errorf("Open(a download) = %v, want a NavigationError naming report.csv and WaitDownload", err)
	}
	err = p.Open(ctx, srv.URL+"/nothing")
	if !errors.As(err, &ne) || ne.Download != "" || !strings.Contains(err.Error(), "204") {
		t.Errorf("Open(204) = %v, want a NavigationError saying there was no content", err)
	}
	if !strings.HasSuffix(p.URL(), "/start") {
		t.Errorf("the tab should have stayed on /start, it is on %s", p.URL())
	}

	dir := t.TempDir()
	dl, err := p.WaitDownload(ctx, dir, func(ctx context.Context) error { return p.Open(ctx, srv.URL+"/report.csv") })
	if err != nil {
		t.Fatalf("WaitDownload(Open): %v", err)
	}
	if body, err := os.ReadFile(dl.Path); err != nil || string(body) != "a,b\n1,2\n" || filepath.Dir(dl.Path) != dir {
		t.Errorf("download %+v: %q %v", dl, body, err)
	}
}

// A page of a launched browser cannot save a file unless WaitDownload is
// waiting for one: Chromium's own default put every download of every page
// into the user's Downloads directory, and the suite's runs left files there.
// Not parallel: it points HOME, and so the browser's Downloads, at a
// directory of its own.
func TestDownloadsNobodyWaitsForAreRefused(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_DOWNLOAD_DIR", filepath.Join(home, "Downloads"))
	ctx := testCtx(t, 90*time.Second)
	b, err := rodagent.Launch(ctx, rodagent.WithDownload(false), rodagent.WithFlags(testBrowserFlags...))
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	srv := downloadServer(t)
	p, err := b.NewPage(ctx, srv.URL+"/start")
	if err != nil {
		t.Fatal(err)
	}
	link := refNamed(t, snapshot(t, p), "link", "Get report")
	// clickFor clicks the link and returns how Chromium ended the download.
	clickFor := func() proto.PageDownloadProgressState {
		t.Helper()
		ended := make(chan proto.PageDownloadProgressState, 1)
		wait := p.Rod().Context(ctx).EachEvent(func(e *proto.PageDownloadProgress) bool {
			if e.State == proto.PageDownloadProgressStateInProgress {
				return false
			}
			ended <- e.State
			return true
		})
		go wait()
		if st, err := p.Click(ctx, link); err != nil || !st.OK() {
			t.Fatalf("Click = %s, %v", st, err)
		}
		select {
		case s := <-ended:
			return s
		case <-ctx.Done():
			t.Fatal("the download never ended")
			return ""
		}
	}
	// noted is what the looks after a download say of it: the router may
	// hand the library Page.downloadWillBegin after this test saw the
	// download end, so a second look is allowed to be the one that says it.
	noted := func() []rodagent.UnclaimedDownload {
		t.Helper()
		for i := 0; i < 2; i++ {
			s := snapshot(t, p)
			if len(s.Downloads) > 0 {
				if want := `download "report.csv" refused: nothing was waiting to save it`; !strings.Contains(s.String(), want) {
					t.Errorf("the look's text does not say %q:\n%s", want, s)
				}
				return s.Downloads
			}
		}
		return nil
	}
	if s := clickFor(); s != proto.PageDownloadProgressStateCanceled {
		t.Errorf("a download nobody waits for ended %s, want canceled", s)
	}
	if d := noted(); len(d) != 1 || d[0] != (rodagent.UnclaimedDownload{Name: "report.csv", Refused: true}) {
		t.Errorf("the look after a refused download reports %+v, want it named and refused", d)
	}
	dl, err := p.WaitDownload(ctx, t.TempDir(), func(ctx context.Context) error {
		_, err := p.Click(ctx, link)
		return err
	})
	if err != nil || dl.Size != 8 {
		t.Fatalf("WaitDownload = %+v, %v", dl, err)
	}
	if d := snapshot(t, p).Downloads; len(d) != 0 {
		t.Errorf("the look after a download WaitDownload saved reports %+v as unclaimed", d)
	}
	if s := clickFor(); s != proto.PageDownloadProgressStateCanceled {
		t.Errorf("a download after WaitDownload returned ended %s, want canceled", s)
	}
	if d := noted(); len(d) != 1 || !d[0].Refused {
		t.Errorf("the look after the second refused download reports %+v", d)
	}
	if files, _ := filepath.Glob(filepath.Join(home, "*", "report*")); len(files) > 0 {
		t.Errorf("the page saved files into the user's directories: %q", files)
	}
}
