package rodagent_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rodagent/rodagent"
)

// The seed design's verification: snapshot → click a button that changes the
// DOM → snapshot shows exactly that change; type → snapshot shows the value.
func TestSnapshotClickTypeLoop(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t, 30*time.Second)
	p := open(t, "basic.html")
	s := snapshot(t, p)
	if s.Delta != nil {
		t.Fatalf("first snapshot of a document must be the full inventory, got a delta")
	}
	if !strings.HasSuffix(strings.TrimSpace(s.String()), rodagent.SafetyLine) {
		t.Fatalf("snapshot text must end with the safety line:\n%s", s)
	}
	add := refNamed(t, s, "button", "Add row")
	if add != "btn-add-row" {
		t.Errorf("handle of button \"Add row\" = %q, want btn-add-row", add)
	}
	st, err := p.Click(ctx, add)
	if err != nil || st != rodagent.Ready {
		t.Fatalf("Click(%s) = %s, %v", add, st, err)
	}
	s2 := snapshot(t, p)
	if s2.Delta == nil {
		t.Fatalf("second snapshot should be a delta:\n%s", s2)
	}
	if len(s2.Delta.Added) != 1 || s2.Delta.Added[0] != "btn-remove-row-1" {
		t.Fatalf("delta after Add row: added %v, want [btn-remove-row-1]\n%s", s2.Delta.Added, s2)
	}
	if len(s2.Delta.Removed)+len(s2.Delta.Rebound) != 0 {
		t.Errorf("nothing should be removed or rebound: %+v", s2.Delta)
	}
	if !strings.Contains(s2.String(), "+ btn-remove-row-1") {
		t.Errorf("delta text lacks the added ref:\n%s", s2)
	}
	if _, ok := s2.Ref("btn-add-row"); !ok {
		t.Errorf("Refs must still list every current ref in a delta snapshot")
	}

	email := refNamed(t, s2, "textbox", "Email")
	if st, err := p.Type(ctx, email, "me@example.com"); err != nil || st != rodagent.Ready {
		t.Fatalf("Type = %s, %v", st, err)
	}
	s3 := snapshot(t, p)
	r, _ := s3.Ref(email)
	if r.Value != "me@example.com" {
		t.Fatalf("value after Type = %q, want me@example.com\n%s", r.Value, s3)
	}
	if len(s3.Delta.Changed) != 1 || s3.Delta.Changed[0].Ref != email || s3.Delta.Changed[0].Fields[0].Field != "value" {
		t.Errorf("delta after typing: %+v", s3.Delta)
	}
	// Type replaces, never appends.
	if _, err := p.Type(ctx, email, "other@example.com"); err != nil {
		t.Fatal(err)
	}
	var v string
	eval(t, p, "document.getElementById('email').value", &v)
	if v != "other@example.com" {
		t.Errorf("Type must replace the content: got %q", v)
	}
	// The page saw trusted input, not a value assignment.
	var trusted []bool
	eval(t, p, "window.__log.filter(r => r.type === 'input').map(r => r.isTrusted)", &trusted)
	if len(trusted) == 0 {
		t.Fatalf("no input events recorded")
	}
	for _, tr := range trusted {
		if !tr {
			t.Errorf("an input event was not trusted")
		}
	}
	if _, err := p.Type(ctx, email, ""); err != nil {
		t.Fatal(err)
	}
	eval(t, p, "document.getElementById('email').value", &v)
	if v != "" {
		t.Errorf("Type with empty text should clear the field, got %q", v)
	}
}

func TestPressEnterSubmitsAndTabMovesFocus(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t, 30*time.Second)
	p := open(t, "basic.html")
	s := snapshot(t, p)
	if _, err := p.Type(ctx, refNamed(t, s, "textbox", "Name"), "Ada"); err != nil {
		t.Fatal(err)
	}
	if st, err := p.Press(ctx, "Enter"); err != nil || st != rodagent.Ready {
		t.Fatalf("Press(Enter) = %s, %v", st, err)
	}
	var submits []map[string]any
	eval(t, p, "window.__log.filter(r => r.type === 'submit')", &submits)
	if len(submits) != 1 || submits[0]["name"] != "Ada" {
		t.Fatalf("Enter should submit the form once with name Ada, log: %v", submits)
	}

	if _, err := p.Click(ctx, refNamed(t, s, "textbox", "First")); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"Tab", "Tab", "Shift+Tab"} {
		if _, err := p.Press(ctx, k); err != nil {
			t.Fatalf("Press(%s): %v", k, err)
		}
	}
	var focus []string
	eval(t, p, "window.__log.filter(r => r.type === 'focus').map(r => r.id)", &focus)
	want := []string{"name", "first", "second", "third", "second"}
	if fmt.Sprint(focus) != fmt.Sprint(want) {
		t.Errorf("focus order = %v, want %v", focus, want)
	}
	s2 := snapshot(t, p)
	if r, _ := s2.Ref(refNamed(t, s2, "textbox", "Second")); !r.Focused {
		t.Errorf("snapshot should mark the focused field:\n%s", s2)
	}
}

func TestScroll(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t, 30*time.Second)
	p := open(t, "basic.html")
	s := snapshot(t, p)
	if st, err := p.Scroll(ctx, "down", 600); err != nil || st != rodagent.Ready {
		t.Fatalf("Scroll = %s, %v", st, err)
	}
	var y float64
	eval(t, p, "new Promise(r => requestAnimationFrame(() => r(window.scrollY)))", &y)
	if y < 500 || y > 700 {
		t.Errorf("scrollY after wheel of 600 = %v", y)
	}
	if _, err := p.Scroll(ctx, "up", 0); err != nil {
		t.Fatal(err)
	}
	eval(t, p, "new Promise(r => requestAnimationFrame(() => r(window.scrollY)))", &y)
	if y != 0 {
		t.Errorf("scrollY after scrolling up = %v", y)
	}
	bottom := refNamed(t, s, "button", "Bottom button")
	if r, _ := s.Ref(bottom); r.InViewport {
		t.Fatalf("the bottom button should start out of view")
	}
	if st, err := p.Scroll(ctx, bottom, 0); err != nil || st != rodagent.Ready {
		t.Fatalf("Scroll(ref) = %s, %v", st, err)
	}
	s2 := snapshot(t, p, rodagent.WithFull())
	if r, _ := s2.Ref(bottom); !r.InViewport {
		t.Errorf("after Scroll(ref) the button should be in view: %+v", r.Box)
	}
	// Clicking far below the fold scrolls by itself.
	if _, err := p.Scroll(ctx, "up", 5000); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Click(ctx, bottom); err != nil {
		t.Fatalf("Click on an off-screen button: %v", err)
	}
	var clicks []string
	eval(t, p, "window.__log.filter(r => r.type === 'click').map(r => r.id)", &clicks)
	if fmt.Sprint(clicks) != "[bottom-button]" {
		t.Errorf("clicks recorded: %v", clicks)
	}
}

// wantStatus checks an action failed with status st and an ActionError that
// matches the sentinel and names a next move.
func wantStatus(t *testing.T, what string, gotSt rodagent.ActionStatus, err error, st rodagent.ActionStatus, sentinel error) {
	t.Helper()
	if gotSt != st {
		t.Errorf("%s: status %q, want %q (err %v)", what, gotSt, st, err)
	}
	var ae *rodagent.ActionError
	if !errors.As(err, &ae) {
		t.Errorf("%s: error %v is not an *ActionError", what, err)
		return
	}
	if ae.Status != st || !errors.Is(err, sentinel) {
		t.Errorf("%s: ActionError status %q (Is sentinel: %v)", what, ae.Status, errors.Is(err, sentinel))
	}
	if ae.Next == "" {
		t.Errorf("%s: no next move in %v", what, err)
	}
}

func TestFailureStatuses(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t, 60*time.Second)
	p := open(t, "actionability.html?banner=off")
	fresh := open(t, "basic.html")

	st, err := fresh.Click(ctx, "btn-add-row")
	wantStatus(t, "click before any snapshot", st, err, rodagent.NotFound, rodagent.ErrNotFound)
	if !strings.Contains(err.Error(), "unknown ref — Snapshot first") {
		t.Errorf("not_found wording: %v", err)
	}

	s := snapshot(t, p)
	st, err = p.Click(ctx, "btn-never-issued")
	wantStatus(t, "unknown ref", st, err, rodagent.NotFound, rodagent.ErrNotFound)

	st, err = p.Click(ctx, refNamed(t, s, "button", "Zero"))
	wantStatus(t, "zero-size button", st, err, rodagent.ZeroRect, rodagent.ErrZeroRect)

	st, err = p.Click(ctx, refNamed(t, s, "button", "Disabled"))
	wantStatus(t, "disabled button", st, err, rodagent.Disabled, rodagent.ErrDisabled)
	st, err = p.Click(ctx, refNamed(t, s, "button", "Aria disabled"))
	wantStatus(t, "aria-disabled button", st, err, rodagent.Disabled, rodagent.ErrDisabled)

	st, err = p.Type(ctx, refNamed(t, s, "textbox", "Readonly"), "x")
	wantStatus(t, "readonly input", st, err, rodagent.NotEditable, rodagent.ErrNotEditable)
	st, err = p.Type(ctx, refNamed(t, s, "button", "Far away"), "x")
	wantStatus(t, "typing into a button", st, err, rodagent.NotEditable, rodagent.ErrNotEditable)

	st, err = p.Click(ctx, refNamed(t, s, "button", "Pointer none"))
	wantStatus(t, "pointer-events:none button", st, err, rodagent.Obscured, rodagent.ErrObscured)
	if !strings.Contains(err.Error(), `button "Underneath"`) {
		t.Errorf("obscured should name what receives the click: %v", err)
	}

	// Hidden after the snapshot was taken.
	moving := refNamed(t, s, "button", "Moving")
	eval(t, p, "(document.getElementById('moving').style.display = 'none', 1)", nil)
	st, err = p.Click(ctx, moving)
	wantStatus(t, "display:none after snapshot", st, err, rodagent.NotVisible, rodagent.ErrNotVisible)
	if !strings.Contains(err.Error(), "element is not visible — Snapshot again") {
		t.Errorf("not_visible wording: %v", err)
	}

	// Moved after the snapshot to where no scroll reaches it: the failure
	// says where its box lies, not that it is hidden.
	away := refNamed(t, s, "button", "Start moving")
	eval(t, p, "(Object.assign(document.getElementById('start-moving').style, {position: 'fixed', top: '-300px'}), 1)", nil)
	st, err = p.Click(ctx, away)
	wantStatus(t, "moved out of reach", st, err, rodagent.NotVisible, rodagent.ErrNotVisible)
	if err == nil || !strings.Contains(err.Error(), "lies outside the") {
		t.Errorf("not_visible out of view should say where the box lies: %v", err)
	}

	// Gone after the snapshot was taken, nothing in its place.
	removeMe := refNamed(t, s, "button", "Remove me")
	if _, err := p.Click(ctx, removeMe); err != nil {
		t.Fatal(err)
	}
	st, err = p.Click(ctx, removeMe)
	wantStatus(t, "removed element", st, err, rodagent.StaleRefUnresolved, rodagent.ErrStaleRefUnresolved)

	st, err = p.Press(ctx, "F13")
	wantStatus(t, "unsupported key", st, err, rodagent.UnsupportedKey, rodagent.ErrUnsupportedKey)
	if !strings.Contains(err.Error(), "Enter") || !strings.Contains(err.Error(), "PageDown") {
		t.Errorf("unsupported_key should list the keys: %v", err)
	}

	_, err = shared.Page(ctx, "no-such-target-id")
	wantStatus(t, "unknown tab", rodagent.NoSuchTab, err, rodagent.NoSuchTab, rodagent.ErrNoSuchTab)
	if !strings.Contains(err.Error(), "no such tab — list with Tabs") {
		t.Errorf("no_such_tab wording: %v", err)
	}

	st, err = p.Select(ctx, refNamed(t, s, "button", "Far away"), "x")
	wantStatus(t, "select on a button", st, err, rodagent.NotASelect, rodagent.ErrNotASelect)

	// A deadline that has passed is a Timeout, whatever was in progress.
	dead, cancel := context.WithCancel(ctx)
	cancel()
	st, err = p.Click(dead, refNamed(t, s, "button", "Far away"))
	wantStatus(t, "cancelled context", st, err, rodagent.Timeout, rodagent.ErrTimeout)

	// A ref from before a navigation.
	far := refNamed(t, s, "button", "Far away")
	if err := p.Open(ctx, originA+"/next.html"); err != nil {
		t.Fatal(err)
	}
	st, err = p.Click(ctx, far)
	wantStatus(t, "ref from the previous page", st, err, rodagent.PageChanged, rodagent.ErrPageChanged)
	if !strings.Contains(err.Error(), "page changed — Snapshot again") {
		t.Errorf("page_changed wording: %v", err)
	}
}

func TestObscuredNamesTheCover(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t, 30*time.Second)
	p := open(t, "actionability.html")
	s := snapshot(t, p)
	st, err := p.Click(ctx, refNamed(t, s, "button", "Covered"))
	wantStatus(t, "covered button", st, err, rodagent.Obscured, rodagent.ErrObscured)
	if !strings.Contains(err.Error(), `dialog "Cookie banner"`) {
		t.Errorf("obscured should name the cover: %v", err)
	}
	if n := len(logEntries(t, p)); n != 0 {
		t.Errorf("nothing may be clicked when the target is covered; log: %v", logEntries(t, p))
	}
	if _, err := p.Click(ctx, refNamed(t, s, "button", "Accept cookies")); err != nil {
		t.Fatal(err)
	}
	if st, err := p.Click(ctx, refNamed(t, s, "button", "Covered")); err != nil || st != rodagent.Ready {
		t.Fatalf("after the banner is gone: %s, %v", st, err)
	}
}

func TestDialogsDoNotHang(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t, 30*time.Second)
	p := open(t, "dialogs.html")
	s := snapshot(t, p)
	if st, err := p.Click(ctx, refNamed(t, s, "button", "Confirm")); err != nil || !st.OK() {
		t.Fatalf("Click(Confirm) = %s, %v", st, err)
	}
	var got []map[string]any
	eval(t, p, "window.__log.filter(r => r.type === 'confirm')", &got)
	if len(got) != 1 || got[0]["value"] != false {
		t.Fatalf("an unarmed confirm must be dismissed: %v", got)
	}
	s2 := snapshot(t, p)
	if len(s2.Dialogs) != 1 || s2.Dialogs[0].Type != "confirm" || s2.Dialogs[0].Accepted {
		t.Errorf("snapshot should report the dismissed dialog: %+v", s2.Dialogs)
	}
	if !strings.Contains(s2.String(), `dialog confirm "Are you sure?" was dismissed`) {
		t.Errorf("snapshot header should say the dialog was dismissed:\n%s", s2)
	}
	// A page that opens fifty alerts in a row still returns.
	if _, err := p.Click(ctx, refNamed(t, s, "button", "Alert loop")); err != nil {
		t.Fatal(err)
	}
	var done []map[string]any
	eval(t, p, "window.__log.filter(r => r.type === 'alert-loop-done')", &done)
	if len(done) != 1 {
		t.Errorf("alert loop did not finish")
	}
}

func TestTabsShowOriginsOnly(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t, 30*time.Second)
	p := open(t, "basic.html") // its title is "Basic fixture"
	tabs, err := shared.Tabs(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var found bool
	for _, tab := range tabs {
		if tab.ID == p.ID() {
			found = true
			if tab.Origin != originA {
				t.Errorf("origin = %q, want %q", tab.Origin, originA)
			}
		}
	}
	if !found {
		t.Fatalf("tab %s not listed in %v", p.ID(), tabs)
	}
	js, _ := json.Marshal(tabs)
	if bytes.Contains(js, []byte("Basic fixture")) || bytes.Contains(js, []byte("basic.html")) {
		t.Errorf("tab listing leaks page text or paths: %s", js)
	}
	again, err := shared.Page(ctx, p.ID())
	if err != nil || again != p {
		t.Errorf("Page(id) should return the attached page: %v", err)
	}
	if err := p.Activate(ctx); err != nil {
		t.Errorf("Activate: %v", err)
	}
	var visible string
	eval(t, p, "document.visibilityState", &visible)
	if visible != "visible" {
		t.Errorf("an activated tab is visible, got %q", visible)
	}
}

func TestNavigation(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t, 30*time.Second)
	p := open(t, "basic.html")
	s := snapshot(t, p)
	if _, err := p.Click(ctx, refNamed(t, s, "link", "Next page")); err != nil {
		t.Fatal(err)
	}
	// The click started a navigation; wait for it to land.
	if err := p.Wait(ctx, rodagent.URLMatches("next.html")); err != nil {
		t.Fatal(err)
	}
	if err := p.Wait(ctx, rodagent.Load()); err != nil {
		t.Fatal(err)
	}
	s2 := snapshot(t, p)
	if s2.Delta != nil || !strings.Contains(s2.URL, "next.html") {
		t.Fatalf("a new document starts with a full inventory:\n%s", s2)
	}
	if err := p.Back(ctx); err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(p.URL(), "/basic.html") {
		t.Errorf("after Back, URL = %s", p.URL())
	}
	if err := p.Forward(ctx); err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(p.URL(), "/next.html") {
		t.Errorf("after Forward, URL = %s", p.URL())
	}
	if err := p.Reload(ctx); err != nil {
		t.Fatal(err)
	}
	text, err := p.Text(ctx)
	if err != nil || !strings.Contains(text, "Next") {
		t.Errorf("Text = %q, %v", text, err)
	}
	shot, err := p.Screenshot(ctx)
	if err != nil || !bytes.HasPrefix(shot.Data, []byte("\x89PNG")) || shot.Format != "png" {
		t.Fatalf("Screenshot: %+v, %v", shot, err)
	}
	eval(t, p, "(console.log('hello from the page'), 1)", nil)
	msgs, err := p.Console(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var seen bool
	for _, m := range msgs {
		seen = seen || (m.Type == "log" && m.Text == "hello from the page")
	}
	if !seen {
		t.Errorf("console message not captured: %+v", msgs)
	}
}

// A page runs one call at a time; separate pages run at once. The race
// detector checks the bookkeeping.
func TestConcurrentPages(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t, 60*time.Second)
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for i := 0; i < 3; i++ {
		p := open(t, "basic.html")
		wg.Add(1)
		go func() {
			defer wg.Done()
			s, err := p.Snapshot(ctx)
			if err != nil {
				errs <- err
				return
			}
			add, _ := s.Ref("btn-add-row")
			var inner sync.WaitGroup
			for k := 0; k < 4; k++ {
				inner.Add(1)
				go func() {
					defer inner.Done()
					if _, err := p.Click(ctx, add.Ref); err != nil {
						errs <- err
					}
				}()
			}
			inner.Wait()
			if _, err := p.Snapshot(ctx); err != nil {
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
