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
	"time"

	"github.com/rodagent/rodagent"
)

// Routes answer requests without a server: here an API is mocked and
// images are refused, in every frame of the tab.
func ExamplePage_Route() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	b, err := rodagent.Launch(ctx)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer b.Close()
	p, err := b.NewPage(ctx, "")
	if err != nil {
		fmt.Println(err)
		return
	}
	_, _ = p.Route(ctx, "https://api.example/**", func(ctx context.Context, r rodagent.RoutedRequest) rodagent.RouteAction {
		return rodagent.Fulfill(rodagent.Fulfillment{
			Headers: map[string]string{"Content-Type": "application/json", "Access-Control-Allow-Origin": "*"},
			Body:    []byte(`{"user": "ada"}`),
		})
	})
	_, _ = p.Route(ctx, "**/*.{png,jpg}", func(ctx context.Context, r rodagent.RoutedRequest) rodagent.RouteAction {
		return rodagent.Abort("blockedbyclient")
	})
	_ = p.Open(ctx, page(`<p id="out">…</p><img src="https://img.example/logo.png" onerror="this.alt = 'no image'">
		<script>fetch('https://api.example/me').then(r => r.json()).then(j => out.textContent = 'hello ' + j.user)</script>`))
	if err := p.Wait(ctx, rodagent.TextPresent("hello ada")); err != nil {
		fmt.Println(err)
		return
	}
	text, _ := p.Text(ctx)
	fmt.Println(strings.TrimSpace(text))
	// Output: hello ada
}

// A request log shows what the tab asked the network for.
func ExampleRequestLog_Requests() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/" {
			fmt.Fprint(w, `<!doctype html><link rel="icon" href="data:,"><p>home</p><img src="/logo.png" alt="">`)
			return
		}
		http.NotFound(w, r)
	}))
	defer srv.Close()
	b, err := rodagent.Launch(ctx)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer b.Close()
	p, err := b.NewPage(ctx, "")
	if err != nil {
		fmt.Println(err)
		return
	}
	log, err := p.RecordRequests(ctx)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer log.Stop()
	_ = p.Open(ctx, srv.URL+"/")
	_ = p.Wait(ctx, rodagent.NetworkIdle())
	for _, r := range log.Requests() {
		fmt.Println(r.Method, r.ResourceType, strings.TrimPrefix(r.URL, srv.URL), r.Status)
	}
	// Output:
	// GET Document / 200
	// GET Image /logo.png 404
}

// A login carried from one browser context to another — or, with
// SaveStorageState and WithStorageState, to another browser or to Playwright.
func ExampleBrowser_StorageState() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/login" {
			http.SetCookie(w, &http.Cookie{Name: "session", Value: "ada", HttpOnly: true, Path: "/"})
		}
		user := "nobody"
		if c, err := r.Cookie("session"); err == nil {
			user = c.Value
		}
		fmt.Fprintf(w, `<!doctype html><link rel="icon" href="data:,"><p>user: %s</p>`, user)
	}))
	defer srv.Close()
	b, err := rodagent.Launch(ctx)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer b.Close()
	first, _ := b.NewContext(ctx)
	if _, err := first.NewPage(ctx, srv.URL+"/login"); err != nil {
		fmt.Println(err)
		return
	}
	state, err := first.StorageState(ctx)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("cookies:", len(state.Cookies), state.Cookies[0].Name)

	second, _ := b.NewContext(ctx)
	if err := second.SetStorageState(ctx, state); err != nil {
		fmt.Println(err)
		return
	}
	p, _ := second.NewPage(ctx, srv.URL+"/home")
	text, _ := p.Text(ctx)
	fmt.Println(text)
	// Output:
	// cookies: 1 session
	// user: ada
}

// WaitDownload keeps a file the page downloads: its trigger is a click on
// a download link, or an Open of the file's URL. Without a WaitDownload
// waiting, a launched browser refuses downloads, and Open says the URL is
// a file.
func ExamplePage_WaitDownload() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/report.csv" {
			w.Header().Set("Content-Type", "text/csv")
			w.Header().Set("Content-Disposition", `attachment; filename="report.csv"`)
			fmt.Fprint(w, "month,total\nmay,42\n")
			return
		}
		fmt.Fprint(w, `<!doctype html><link rel="icon" href="data:,"><a href="/report.csv">Get report</a>`)
	}))
	defer srv.Close()
	b, err := rodagent.Launch(ctx)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer b.Close()
	p, err := b.NewPage(ctx, srv.URL)
	if err != nil {
		fmt.Println(err)
		return
	}
	var nav *rodagent.NavigationError
	if err := p.Open(ctx, srv.URL+"/report.csv"); errors.As(err, &nav) {
		fmt.Println("Open alone: a download of", nav.Download)
	}
	dir, err := os.MkdirTemp("", "reports-")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	if _, err := p.Snapshot(ctx); err != nil { // mints lnk-get-report
		fmt.Println(err)
		return
	}
	dl, err := p.WaitDownload(ctx, dir, func(ctx context.Context) error {
		_, err := p.Click(ctx, "lnk-get-report")
		return err
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	body, _ := os.ReadFile(dl.Path)
	fmt.Printf("by click: %s, %q\n", filepath.Base(dl.Path), body)
	dl, err = p.WaitDownload(ctx, dir, func(ctx context.Context) error { return p.Open(ctx, srv.URL+"/report.csv") })
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("by Open:", filepath.Base(dl.Path))
	// Output:
	// Open alone: a download of report.csv
	// by click: report.csv, "month,total\nmay,42\n"
	// by Open: report (1).csv
}
