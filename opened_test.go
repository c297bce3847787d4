package rodagent_test

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/rodagent/rodagent"
)

// A link with target=_blank or a window.open leaves the tab as it was: the
// click reports ready and nothing moved. The next look says a tab was
// opened, which one and where (origin only), once; Browser.Page takes it.
func TestLookSaysWhichTabTheActionOpened(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t, 60*time.Second)
	p := open(t, "opener.html")
	s := snapshot(t, p)
	for _, c := range []struct{ role, name, path string }{
		{"link", "Open the report", "/basic.html"},
		{"button", "Preview", "/next.html"},
	} {
		if st, err := p.Click(ctx, refNamed(t, s, c.role, c.name)); err != nil || !st.OK() {
			t.Fatalf("Click(%s) = %s, %v", c.name, st, err)
		}
		look := snapshot(t, p)
		if len(look.Opened) != 1 {
			t.Fatalf("the look after %s reports %d opened tabs, want 1:\n%s", c.name, len(look.Opened), look)
		}
		o := look.Opened[0]
		if want := "opened a new tab " + o.ID; !strings.Contains(look.String(), want) {
			t.Errorf("the look's text lacks %q:\n%s", want, look)
		}
		tab, err := shared.Page(ctx, o.ID)
		if err != nil {
			t.Fatalf("Browser.Page(%s): %v", o.ID, err)
		}
		if err := tab.Wait(ctx, rodagent.URLMatches(regexp.QuoteMeta(c.path)+"$")); err != nil {
			t.Errorf("the opened tab never reached %s: %v (at %s)", c.path, err, tab.URL())
		}
		if o.Origin != originA && o.Origin != "" {
			t.Errorf("opened tab's origin %q, want %s (or none before it loaded)", o.Origin, originA)
		}
		if err := tab.Close(); err != nil {
			t.Errorf("closing the opened tab: %v", err)
		}
		if again := snapshot(t, p); len(again.Opened) != 0 {
			t.Errorf("a second look reports the tab again: %+v", again.Opened)
		}
	}
}

// A window.open() with no address that the opener writes into stays at
// about:blank: the look says the tab is blank so far, not that it is
// loading, and the tab shows what the opener wrote.
func TestLookSaysAnOpenedTabIsBlankSoFar(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t, 60*time.Second)
	p := open(t, "opener.html")
	s := snapshot(t, p)
	if st, err := p.Click(ctx, refNamed(t, s, "button", "Print view")); err != nil || !st.OK() {
		t.Fatalf("Click = %s, %v", st, err)
	}
	look := snapshot(t, p)
	if len(look.Opened) != 1 || look.Opened[0].Origin != "about:blank" {
		t.Fatalf("the look reports opened tabs %+v, want one at about:blank:\n%s", look.Opened, look)
	}
	if want := "opened a new tab " + look.Opened[0].ID + " at about:blank, blank so far"; !strings.Contains(look.String(), want) {
		t.Errorf("the look's text lacks %q:\n%s", want, look)
	}
	tab, err := shared.Page(ctx, look.Opened[0].ID)
	if err != nil {
		t.Fatalf("Browser.Page: %v", err)
	}
	defer tab.Close()
	if err := tab.Wait(ctx, rodagent.TextPresent("Printable copy")); err != nil {
		t.Errorf("the opened tab does not show what its opener wrote: %v", err)
	}
}
