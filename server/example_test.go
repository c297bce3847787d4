package server_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"

	"github.com/rodagent/rodagent"
	"github.com/rodagent/rodagent/server"
)

// The control API is an http.Handler: mount it on any loopback listener.
// Requests carry the bearer token; the browser starts on the first request
// that needs one.
func ExampleNew() {
	h, err := server.New("s3cret", server.WithBrowserOptions(rodagent.WithAllowedOrigins("https://example.com")))
	if err != nil {
		panic(err)
	}
	defer h.Close()
	ts := httptest.NewServer(h)
	defer ts.Close()

	req, _ := http.NewRequest("GET", ts.URL+"/", nil)
	req.Header.Set("Authorization", "Bearer s3cret")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		panic(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	fmt.Print(string(body))

	res, _ = http.Get(ts.URL + "/tabs") // no token
	body, _ = io.ReadAll(res.Body)
	res.Body.Close()
	fmt.Print(res.StatusCode, " ", string(body))
	// Output:
	// {"ok":true,"running":false,"tabs":0,"evaluate":false,"maxBody":1048576}
	// 401 {"ok":false,"status":"unauthorized","error":"missing or wrong bearer token"}
}

// A server with a download directory saves the file a click downloads: the
// answer's result names it.
func ExampleWithDownloadDir() {
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/report.csv" {
			w.Header().Set("Content-Disposition", `attachment; filename="report.csv"`)
			io.WriteString(w, "q,total\n")
			return
		}
		io.WriteString(w, `<!doctype html><title>Files</title><a href="/report.csv">Quarterly report</a>`)
	}))
	defer site.Close()
	dir, err := os.MkdirTemp("", "downloads-")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)

	h, err := server.New("s3cret", server.WithDownloadDir(dir))
	if err != nil {
		panic(err)
	}
	defer h.Close()
	api := httptest.NewServer(h)
	defer api.Close()
	post := func(path, body string) map[string]any {
		req, _ := http.NewRequest("POST", api.URL+path, strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer s3cret")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			panic(err)
		}
		defer res.Body.Close()
		var m map[string]any
		_ = json.NewDecoder(res.Body).Decode(&m)
		return m
	}
	post("/tabs/open", `{"url":"`+site.URL+`/"}`)
	a := post("/act", `{"kind":"download","ref":"role=link[name=\"Quarterly report\"]"}`)
	file := a["result"].(map[string]any)
	fmt.Println(a["status"], file["name"], file["size"])
	// Output: ready report.csv 8
}
