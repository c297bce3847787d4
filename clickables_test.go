package rodagent_test

import (
	"strings"
	"testing"
	"time"

	"github.com/go-rod/rod/lib/proto"

	"github.com/rodagent/rodagent"
)

// Elements a script made clickable with addEventListener (or an onclick
// property) are refs, named by their text or a short description; listeners
// on the page itself or on containers of controls and items are not; and
// reading them changes nothing the page can observe.
func TestClickablesFromScriptListeners(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t, 60*time.Second)
	p := open(t, "clickables.html")
	var before, after int // the parser's own insertions after the page's script count before
	eval(t, p, "window.__mutations", &before)
	s := snapshot(t, p)
	want := map[string]string{
		"Inbox": "generic", "Work": "generic", "Travel": "generic", // span.folder
		"Ada Lovelace Engine notes": "generic", "Grace Hopper Compiler draft": "generic", // div.email-thread
		"Alan Turing Morphogenesis": "generic",
		"Paris":                     "listitem", "Prague": "listitem", // li.ui-menu-item (mousedown)
		"icon button (trash)": "generic", // icon-only, a CSS background image
		"Mark all read":       "generic", // el.onclick = …
		"City":                "textbox", "Reply": "button", "Forward": "button",
	}
	got := map[string]string{}
	for _, r := range s.Refs {
		got[r.Name] = r.Role
	}
	for name, role := range want {
		if got[name] != role {
			t.Errorf("want a %s ref %q, got role %q", role, name, got[name])
		}
	}
	if len(s.Refs) != len(want) {
		t.Errorf("%d refs, want %d (no ref for the page, a container of buttons, a list's own listener, a removed listener):\n%s",
			len(s.Refs), len(want), s.FullText())
	}
	if !strings.Contains(s.FullText(), `text "Ada"`) || !strings.Contains(s.FullText(), `text "Grace"`) {
		t.Errorf("the items of a list whose listener serves them stay text:\n%s", s.FullText())
	}
	snapshot(t, p, rodagent.WithFull())
	eval(t, p, "window.__mutations", &after)
	if after != before {
		t.Errorf("reading the page made %d mutations the page observed", after-before)
	}
	var native []string
	eval(t, p, `[EventTarget.prototype.addEventListener, EventTarget.prototype.removeEventListener, Function.prototype.toString,
		Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'onclick').set].map(f => Function.prototype.toString.call(f))`, &native)
	for _, s := range native {
		if !strings.Contains(s, "[native code]") {
			t.Errorf("the listener record shows itself to the page: %q", s)
		}
	}

	// Clicking such a ref is a person's click.
	for _, c := range []struct{ role, name, want string }{
		{"listitem", "Prague", `{"city":"Prague","type":"pick"}`},
		{"generic", "Grace Hopper Compiler draft", `{"id":"2","type":"open"}`},
		{"generic", "Work", `{"name":"Work","type":"folder"}`},
		{"generic", "icon button (trash)", `{"type":"trash"}`},
		{"generic", "Mark all read", `{"type":"read"}`},
	} {
		if _, err := p.Click(ctx, refNamed(t, s, c.role, c.name)); err != nil {
			t.Fatalf("click %s %q: %v", c.role, c.name, err)
		}
		log := logEntries(t, p)
		if len(log) == 0 || jsonOf(log[len(log)-1]) != c.want {
			t.Errorf("click %s %q: the page recorded %v, want %s", c.role, c.name, log, c.want)
		}
	}
}

// A listener added later shows in the next look, with or without a DOM
// change, and the delta equals a full read.
func TestClickablesAddedLater(t *testing.T) {
	t.Parallel()
	p := open(t, "clickables.html")
	prev := snapshot(t, p)
	if _, ok := findRef(prev, "generic", "Snooze"); ok {
		t.Fatalf("Snooze has no listener yet:\n%s", prev.FullText())
	}
	eval(t, p, "(arm(), true)", nil)
	d := sameAsFull(t, p, prev, "listener added, no DOM change")
	if _, ok := findRef(d, "generic", "Snooze"); !ok {
		t.Fatalf("a listener added without a DOM change should make a ref:\n%s", d.FullText())
	}
	eval(t, p, "(addThread(), true)", nil)
	d = sameAsFull(t, p, d, "a row added with its listener")
	if _, ok := findRef(d, "generic", "Edsger Dijkstra Goto"); !ok {
		t.Fatalf("a row added with its listener should be a ref:\n%s", d.FullText())
	}
}

// $(document).on('click', '.item', …): the one listener sits on the
// document and is no control; the items it serves cannot be told from their
// listeners, so their pointer cursor is the signal (without one they stay
// text).
func TestClickablesDelegatedToTheDocument(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t, 30*time.Second)
	p := open(t, "delegated.html")
	s := snapshot(t, p)
	if len(s.Refs) != 2 {
		t.Errorf("%d refs, want the 2 items with a pointer cursor:\n%s", len(s.Refs), s.FullText())
	}
	if !strings.Contains(s.FullText(), `text "Call the bank"`) {
		t.Errorf("an item without a cursor reads as text:\n%s", s.FullText())
	}
	if _, err := p.Click(ctx, refNamed(t, s, "generic", "Pay the rent")); err != nil {
		t.Fatal(err)
	}
	if log := logEntries(t, p); len(log) != 1 || log[0]["name"] != "Pay the rent" {
		t.Errorf("the delegated handler saw %v", log)
	}
}

// React listens for every event on its root container: the container holds
// the whole app and is no control, so the React pages show only their
// buttons.
func TestClickablesReactRootIsNoRef(t *testing.T) {
	t.Parallel()
	for _, path := range []string{"react/duplicates.html", "react/additem.html"} {
		p := open(t, path)
		waitReady(t, p)
		root, err := p.Rod().Element("#root")
		if err != nil {
			t.Fatal(err)
		}
		ls, err := proto.DOMDebuggerGetEventListeners{ObjectID: root.Object.ObjectID}.Call(p.Rod())
		if err != nil {
			t.Fatal(err)
		}
		clicks := 0
		for _, l := range ls.Listeners {
			if l.Type == "click" {
				clicks++
			}
		}
		if clicks == 0 {
			t.Fatalf("%s: React's root container should listen for clicks", path)
		}
		s := snapshot(t, p)
		for _, r := range s.Refs {
			if r.Role == "generic" || r.Stable == "#root" {
				t.Errorf("%s: %s %s %q should not be a ref:\n%s", path, r.Ref, r.Role, r.Name, s.FullText())
			}
		}
	}
}

// Text that controls act on, laid out in generic containers (cards of
// spans, mail rows of divs), reads as one line right before its controls.
func TestGenericContainerTextBeforeItsControls(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t, 30*time.Second)
	p := open(t, "cards.html")
	s := snapshot(t, p)
	lines := strings.Split(s.String(), "\n")
	next := func(text string) string {
		for i, l := range lines {
			if strings.TrimSpace(l) == `text "`+text+`"` && i+1 < len(lines) {
				return strings.TrimSpace(lines[i+1])
			}
		}
		t.Fatalf("no line %q:\n%s", text, s)
		return ""
	}
	del := next("Invoice 7 $980.00")
	next("Invoice 9 $1,200.00")
	archive := next("Grace Hopper Compiler draft")
	if !strings.HasPrefix(del, "btn-delete") || !strings.HasPrefix(archive, "btn-archive") {
		t.Fatalf("each card's text comes right before its button (%q, %q):\n%s", del, archive, s)
	}
	for _, ref := range []string{del, archive} {
		if _, err := p.Click(ctx, ref); err != nil {
			t.Fatal(err)
		}
	}
	log := logEntries(t, p)
	if len(log) != 2 || log[0]["what"] != "Invoice 7" || log[1]["what"] != "Grace Hopper" {
		t.Errorf("the buttons after the lines act on them: %v", log)
	}
}

// The AX-tree path shows these pages as the in-page inventory does.
func TestClickablesBothReadPathsAgree(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t, 60*time.Second)
	for _, path := range []string{"clickables.html", "delegated.html", "cards.html"} {
		fast := open(t, path)
		slow := open(t, path)
		rodagent.UseAXTree(slow)
		a := snapshot(t, fast)
		b, err := slow.Snapshot(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if a.Source != rodagent.SourceInventory || b.Source != rodagent.SourceAXTree {
			t.Fatalf("%s: sources %q and %q", path, a.Source, b.Source)
		}
		if got, want := describeRefs(a), describeRefs(b); got != want {
			t.Errorf("%s: refs differ between the fast path and the AX tree:\n%s", path, diffLines(got, want))
		}
		if got, want := withoutURL(a.FullText()), withoutURL(b.FullText()); got != want {
			t.Errorf("%s: text differs between the fast path and the AX tree:\n%s", path, diffLines(got, want))
		}
	}
}

// Frames get the listener record too: a same-origin frame (same process)
// and a cross-site one (its own process and session).
func TestClickablesInFrames(t *testing.T) {
	t.Parallel()
	for _, origin := range []string{originA, originB} {
		p := open(t, "frame-clickables.html?src="+origin+"/clickables.html")
		var s *rodagent.Snapshot
		found := false
		// The frame loads before its parent's load event (NewPage waits for
		// it); a frame whose session attached late is read on a later look.
		for try := 0; try < 5 && !found; try++ {
			s = snapshot(t, p)
			for _, r := range s.Refs {
				if r.Role == "generic" && r.Name == "Ada Lovelace Engine notes" && strings.HasPrefix(r.Ref, "f1/") {
					found = true
				}
			}
		}
		if !found {
			t.Errorf("%s: the framed mail rows should be refs:\n%s", origin, s.FullText())
		}
	}
}
