package browsertest_test

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"testing"
	"time"

	"github.com/rodagent/rodagent"
	"github.com/rodagent/rodagent/browsertest"
)

func TestMain(m *testing.M) {
	browsertest.Options(rodagent.WithWindowSize(1024, 700))
	os.Exit(browsertest.Main(m))
}

var app = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	fmt.Fprint(w, `<form aria-label="Subscribe"><label>Email <input name="email"></label>
		<button onclick="event.preventDefault(); this.textContent = 'Subscribed'">Subscribe</button></form>`)
})

func TestPageInATest(t *testing.T) {
	// The page first: the first test to ask for it launches the binary's
	// browser, which is browsertest's budget, not this test's.
	p := browsertest.Page(t, browsertest.Serve(t, app))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := p.Locate(rodagent.ByLabel("Email")).Type(ctx, "me@example.com"); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Locate(rodagent.ByRole("button", "Subscribe")).Click(ctx); err != nil {
		t.Fatal(err)
	}
	if err := p.Wait(ctx, rodagent.TextPresent("Subscribed")); err != nil {
		t.Fatal(err)
	}
	if browsertest.Browser(t) != browsertest.Browser(t) {
		t.Errorf("one browser per test binary")
	}
	w, err := p.Locate(rodagent.ByRole("button", "Subscribed")).Visible(ctx)
	if err != nil || !w {
		t.Errorf("the button should read Subscribed: %v %v", w, err)
	}
	tabs, err := browsertest.Browser(t).Tabs(ctx)
	if err != nil || len(tabs) != 1 {
		t.Errorf("one tab open during the test: %v %v", tabs, err)
	}
}
