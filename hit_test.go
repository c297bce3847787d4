package rodagent_test

import (
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/rodagent/rodagent"
)

// A button's own icon — a ::before glyph, an <i>, an ::after layer, an SVG —
// is part of the button: the click is ready and lands.
func TestIconButtonsClick(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t, 30*time.Second)
	p := open(t, "hit.html")
	s := snapshot(t, p)
	for _, name := range []string{"Bold", "Star", "Layered", "Search"} {
		st, err := p.Click(ctx, refNamed(t, s, "button", name))
		if err != nil || st != rodagent.Ready {
			t.Errorf("click %s: %s %v", name, st, err)
		}
	}
	var ids []string
	eval(t, p, "window.__log.map(r => r.id)", &ids)
	if fmt.Sprint(ids) != "[bold glyph layer svg]" {
		t.Errorf("clicks landed on %v", ids)
	}
}

// What covers a target is the topmost foreign element — the cookie notice —
// not the landmark that holds both.
func TestObscuredNamesTopmostForeign(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t, 30*time.Second)
	p := open(t, "hit.html")
	s := snapshot(t, p)
	st, err := p.Click(ctx, refNamed(t, s, "button", "Pay"))
	if !errors.Is(err, rodagent.ErrObscured) || st != rodagent.Obscured {
		t.Fatalf("click under a cookie notice: %s %v", st, err)
	}
	if !strings.Contains(err.Error(), "cookie-notice") || !strings.Contains(err.Error(), "We use cookies") || strings.Contains(err.Error(), "main") {
		t.Errorf("obscured should name the cookie notice: %v", err)
	}
	var n int
	eval(t, p, "window.__log.length", &n)
	if n != 0 {
		t.Errorf("a covered target must not be clicked")
	}
}

// An item of a menu that is still sliding in is clicked right, or not at
// all: never the item that happened to be under the point.
func TestClickInAnimatingMenu(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t, 60*time.Second)
	p := open(t, "hit.html")
	s := snapshot(t, p)
	openMenu := refNamed(t, s, "button", "Open menu")
	right, refused := 0, 0
	for run := 0; run < 20; run++ {
		eval(t, p, "(window.__log = [], 1)", nil)
		if _, err := p.Click(ctx, openMenu); err != nil {
			t.Fatal(err)
		}
		s := snapshot(t, p, rodagent.WithFull())
		item := refNamed(t, s, "menuitem", "Item 3")
		st, err := p.Click(ctx, item)
		var ids []string
		eval(t, p, "window.__log.map(r => r.id)", &ids)
		switch {
		case err == nil && fmt.Sprint(ids) == "[open-menu m3]":
			right++
		case err != nil && fmt.Sprint(ids) == "[open-menu]":
			refused++
		default:
			t.Fatalf("run %d: click returned %s %v, clicks %v", run, st, err, ids)
		}
	}
	t.Logf("animating menu: %d right, %d refused of 20", right, refused)
	if right < 18 {
		t.Errorf("want the item clicked right nearly always, got %d of 20", right)
	}
}

// ScrollAt turns the wheel over an element: the feed scrolls, the page does not.
func TestScrollAtFeed(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t, 30*time.Second)
	p := open(t, "scroll.html")
	s := snapshot(t, p)
	feed := ""
	for _, r := range s.Refs {
		if r.Stable == "#feed" {
			feed = r.Ref
		}
	}
	if feed == "" {
		t.Fatalf("no ref for the feed:\n%s", s.FullText())
	}
	if st, err := p.ScrollAt(ctx, feed, "down", 300); err != nil || st != rodagent.Ready {
		t.Fatalf("ScrollAt: %s %v", st, err)
	}
	var pos struct{ Feed, Page, Wheels float64 }
	eval(t, p, "({Feed: document.getElementById('feed').scrollTop, Page: window.scrollY, Wheels: window.__wheels})", &pos)
	if pos.Feed < 100 || pos.Page != 0 || pos.Wheels < 1 {
		t.Fatalf("after a wheel over the feed: %+v", pos)
	}
	if st, err := p.ScrollAt(ctx, feed, "sideways", 0); st != rodagent.InvalidValue || err == nil {
		t.Fatalf("bad direction: %s %v", st, err)
	}
}

// A press lands where the hit test looked, or nowhere. A banner a hover
// inserts above the target moves it after the pointer arrives: the press
// made at the old point would buy the upgrade; it is stopped, and the click
// is made again on the target where it now is. Check is guarded the same way. A target that jumps from the
// pointer every time fails NotStable naming what it uncovered, and the
// decoy it uncovered is never pressed.
func TestPressLandsOnTargetOrNowhere(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t, 60*time.Second)
	p := open(t, "hit-shift.html")
	s := snapshot(t, p)
	st, err := p.Click(ctx, refNamed(t, s, "button", "Save draft"))
	if err != nil || st != rodagent.Ready {
		t.Errorf("click a button a hover moves: %s %v", st, err)
	}
	var log []string
	eval(t, p, "window.__log", &log)
	if fmt.Sprint(log) != "[draft saved]" {
		t.Errorf("the press should land on Save draft only; the page recorded %q", log)
	}
	st, err = p.Check(ctx, refNamed(t, s, "checkbox", "Remember me"))
	if err != nil || st != rodagent.Ready {
		t.Errorf("check a checkbox a hover moves: %s %v", st, err)
	}
	eval(t, p, "window.__log", &log)
	if fmt.Sprint(log) != "[draft saved remember=true]" {
		t.Errorf("the press should land on Remember me only; the page recorded %q", log)
	}
	st, err = p.Click(ctx, refNamed(t, s, "button", "Catch me"))
	if !errors.Is(err, rodagent.ErrNotStable) || st != rodagent.NotStable {
		t.Errorf("click a button that jumps from the pointer: %s %v, want not_stable", st, err)
	} else if !strings.Contains(err.Error(), "landed on") || !strings.Contains(err.Error(), "nothing was pressed") {
		t.Errorf("the error should say where the press landed and that nothing was pressed: %v", err)
	}
	eval(t, p, "window.__log", &log)
	if fmt.Sprint(log) != "[draft saved remember=true]" {
		t.Errorf("a stopped press must reach nothing; the page recorded %q", log)
	}
}

// A control the page made let presses through (pointer-events: none) to
// the box it is drawn in, which shows a hand for it, is pressed where it
// shows, as a person presses it: Vuetify's select passes the press from
// its input to the box around it (which also holds a hidden <select>), and
// the field around that opens the list. The guard that stops a
// press landing elsewhere lets this one through. Where the box shows no
// hand, nothing covers the control and no click reaches it: the failure
// says so, and names no cover to dismiss.
func TestPressPassesThroughToItsBox(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, `<!doctype html><title>Through</title><main>
<div id=field style="padding:8px;border:1px solid" onclick="log.push('field:' + event.isTrusted)">
  <label for=country>Country</label>
  <div id=box style="cursor:pointer;display:inline-block"><select hidden><option>France</option></select>
    <input id=country role=combobox aria-expanded=false style="pointer-events:none;caret-color:transparent"></div>
</div>
<div style="padding:8px"><a id=off class="btn disabled" href="#x" style="pointer-events:none;display:inline-block;padding:4px;border:1px solid" onclick="log.push('link')">Archive</a></div>
</main><script>window.log = []; document.body.onclick = e => log.push('body:' + (e.target.id || e.target.localName));</script>`)
	}))
	t.Cleanup(srv.Close)
	ctx := testCtx(t, 30*time.Second)
	p := openURL(t, srv.URL)
	s := snapshot(t, p)
	if st, err := p.Click(ctx, refNamed(t, s, "combobox", "Country")); err != nil || st != rodagent.Ready {
		t.Fatalf("Click(Country) through its input to the field = %s, %v", st, err)
	}
	var log []string
	eval(t, p, "log", &log)
	if fmt.Sprint(log) != "[field:true body:box]" {
		t.Errorf("the press should reach the field box, trusted: %v", log)
	}
	st, err := p.Click(ctx, refNamed(t, s, "link", "Archive"))
	if st != rodagent.Obscured || !errors.Is(err, rodagent.ErrObscured) {
		t.Fatalf("Click on a link that takes no presses, in a box with no hand = %s, %v", st, err)
	}
	if msg := err.Error(); !strings.Contains(msg, "pointer-events: none") || strings.Contains(msg, "dismiss") {
		t.Errorf("the failure should say the link takes no presses, not that something covers it: %v", err)
	}
	eval(t, p, "log", &log)
	if fmt.Sprint(log) != "[field:true body:box]" {
		t.Errorf("nothing should be pressed when the link takes no presses: %v", log)
	}
}
