package server_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"

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
