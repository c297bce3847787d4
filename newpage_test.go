package rodagent_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/rodagent/rodagent"
)

// NewPage whose ctx ends midway — while the tab is made, attached or
// navigating to a page that never answers — leaves no tab behind.
func TestNewPageLeaksNoTabs(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	hang := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select { // a server that never answers, until the test ends
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer hang.Close()
	defer close(release)

	ctx := testCtx(t, 90*time.Second)
	c, err := shared.NewContext(ctx) // its Tabs lists only this test's tabs
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for _, d := range []time.Duration{time.Millisecond, 10 * time.Millisecond, 50 * time.Millisecond,
		150 * time.Millisecond, 400 * time.Millisecond, time.Second, 2 * time.Second} {
		short, cancel := context.WithTimeout(ctx, d)
		p, err := c.NewPage(short, hang.URL+"/slow")
		cancel()
		if err == nil {
			_ = p.Close()
			t.Fatalf("NewPage within %v of a page that never answers succeeded", d)
		}
		if !errors.Is(err, rodagent.ErrTimeout) && !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("NewPage past its deadline (%v): %v, want a timeout", d, err)
		}
	}
	// Tabs given up on are closed as soon as the browser names them; that
	// takes at most a round trip after the call returned.
	deadline := time.Now().Add(15 * time.Second)
	var tabs []rodagent.Tab
	for {
		tabs, err = c.Tabs(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if len(tabs) == 0 || time.Now().After(deadline) {
			break
		}
		time.Sleep(50 * time.Millisecond) // polling a condition, bounded by the deadline
	}
	if len(tabs) != 0 {
		t.Errorf("NewPage calls that failed left %d tabs: %+v", len(tabs), tabs)
	}
}
