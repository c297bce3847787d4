package rodagent_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/go-rod/rod/lib/proto"

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
	// takes a round trip after the call returned, which on a loaded machine
	// took longer than a fixed 15 s: the bound is the work budget (ctx).
	start := time.Now()
	var tabs []rodagent.Tab
	for {
		tabs, err = c.Tabs(ctx)
		if err != nil || len(tabs) == 0 {
			break
		}
		select {
		case <-ctx.Done():
		case <-time.After(50 * time.Millisecond): // polling a condition, bounded by ctx
			continue
		}
		break
	}
	if err != nil && ctx.Err() == nil {
		t.Fatal(err)
	}
	if len(tabs) != 0 || ctx.Err() != nil {
		t.Errorf("NewPage calls that failed left %d tabs after %v: %+v", len(tabs), time.Since(start), tabs)
	}
}

// Attaching to a tab with a ctx that ends midway leaves no session attached.
func TestAttachGivenUpDetaches(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t, 60*time.Second)
	res, err := proto.TargetCreateTarget{URL: "about:blank"}.Call(shared.Rod()) // a tab nobody attached to
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _, _ = proto.TargetCloseTarget{TargetID: res.TargetID}.Call(shared.Rod()) }()
	b, err := rodagent.Connect(ctx, shared.DevToolsURL())
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = b.Close() }() // the last connection, which the loop may have replaced
	for _, d := range []time.Duration{time.Millisecond, 5 * time.Millisecond, 20 * time.Millisecond, 80 * time.Millisecond} {
		short, cancel := context.WithTimeout(ctx, d)
		p, err := b.Page(short, string(res.TargetID))
		cancel()
		if err == nil {
			// attached in time: this ctx did not end midway; detach and go on
			_ = b.Close()
			b, err = rodagent.Connect(ctx, shared.DevToolsURL())
			if err != nil {
				t.Fatal(err)
			}
			_ = p
			continue
		}
	}
	// The detach follows the attach's answer, which comes from the tab's
	// renderer: on a loaded machine (that renderer busy with another test's
	// page) it can take longer than any fixed wait, so the bound is the
	// work budget (testCtx), not a number of seconds.
	start := time.Now()
	for {
		info, err := proto.TargetGetTargetInfo{TargetID: res.TargetID}.Call(shared.Rod().Context(ctx))
		if err != nil {
			t.Fatalf("a session attached for a caller that gave up is still attached after %v (%v)", time.Since(start), err)
		}
		if !info.TargetInfo.Attached {
			break
		}
		select {
		case <-ctx.Done():
			t.Fatalf("a session attached for a caller that gave up is still attached after %v", time.Since(start))
		case <-time.After(50 * time.Millisecond): // polling a condition, bounded by ctx
		}
	}
}

// A tab of a launched browser is a window of its own, and headless
// Chromium 156 gives every window two hidden omnibox popup pages of browser
// UI unless Launch switches them off: a new tab must bring no target but
// itself.
func TestNewPageBringsNoHiddenBrowserPages(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t, 60*time.Second)
	c, err := shared.NewContext(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for range 2 {
		if _, err := c.NewPage(ctx, originA+"/basic.html"); err != nil {
			t.Fatal(err)
		}
	}
	// The popups came with the window, before the tab's first document.
	res, err := proto.TargetGetTargets{}.Call(shared.Rod())
	if err != nil {
		t.Fatal(err)
	}
	for _, ti := range res.TargetInfos {
		if ti.Type == "browser_ui" || strings.HasPrefix(ti.URL, "chrome://omnibox") {
			t.Errorf("a hidden page of browser UI came with the tabs: %s %s", ti.Type, ti.URL)
		}
	}
}
