package rodagent_test

import (
	"strings"
	"testing"
	"time"

	"github.com/rodagent/rodagent"
)

// A right click is the secondary button, trusted, and fires the page's
// contextmenu and no click: a file row whose actions are in the app's own
// context menu can be deleted by ref. A locator right-clicks too.
func TestRightClickOpensThePagesContextMenu(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t, 60*time.Second)
	p := open(t, "contextmenu.html")
	s := snapshot(t, p, rodagent.WithFull())
	row, ok := findRef(s, "generic", "Notes.txt")
	if !ok {
		t.Fatalf("no ref for the Notes.txt row:\n%s", s)
	}
	if st, err := p.RightClick(ctx, row); err != nil || !st.OK() {
		t.Fatalf("RightClick(%s) = %s, %v", row, st, err)
	}
	look := snapshot(t, p)
	del, ok := findRef(look, "menuitem", "Delete")
	if !ok {
		t.Fatalf("the page's context menu is not in the look after the right click:\n%s", look)
	}
	log, err := p.Eval(ctx, `JSON.stringify(window.__log)`)
	if err != nil {
		t.Fatal(err)
	}
	if got := log.Str(); !strings.Contains(got, `{"type":"contextmenu","button":2,"trusted":true,"file":"Notes.txt"}`) || strings.Contains(got, `"type":"click"`) {
		t.Errorf("the right click's events: %s, want one trusted contextmenu with button 2 and no click", got)
	}
	if st, err := p.Click(ctx, del); err != nil || !st.OK() {
		t.Fatalf("Click(%s) = %s, %v", del, st, err)
	}
	if out, err := p.Eval(ctx, `document.getElementById('out').textContent`); err != nil || out.Str() != "delete Notes.txt" {
		t.Errorf("outcome %q, %v; want delete Notes.txt", out.Str(), err)
	}
	if st, err := p.Locate(rodagent.ByText("Q1.xlsx")).RightClick(ctx); err != nil || !st.OK() {
		t.Fatalf("Locate(text Q1.xlsx).RightClick = %s, %v", st, err)
	}
	if m, err := p.Eval(ctx, `(document.querySelector('[role=menu]') || {getAttribute: () => ''}).getAttribute('aria-label')`); err != nil || m.Str() != "Actions for Q1.xlsx" {
		t.Errorf("the locator's right click opened %q, %v; want the menu for Q1.xlsx", m.Str(), err)
	}
}

// Blueprint's ContextMenu (the real npm package, components6) opens on the
// contextmenu event React delegates to its root, at the pointer, in a
// portal: its items are refs in the next look, and choosing one acts on the
// row that was right-clicked. Its rows carry no signal of their own (no
// handler, no pointer cursor), so a locator by their text aims the click.
func TestRightClickBlueprintContextMenu(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t, 60*time.Second)
	p := open(t, "components6/blueprint-contextmenu.html")
	if st, err := p.Locate(rodagent.ByText("Q2.xlsx")).RightClick(ctx); err != nil || !st.OK() {
		t.Fatalf("RightClick(text Q2.xlsx) = %s, %v", st, err)
	}
	look := snapshot(t, p)
	del, ok := findRef(look, "menuitem", "Delete")
	if !ok {
		t.Fatalf("Blueprint's menu is not in the look after the right click:\n%s", look)
	}
	if st, err := p.Click(ctx, del); err != nil || !st.OK() {
		t.Fatalf("Click(%s) = %s, %v", del, st, err)
	}
	if look := snapshot(t, p); !strings.Contains(look.String(), "file=Q2.xlsx action=delete") {
		t.Errorf("the outcome is not in the look after Delete:\n%s", look)
	}
}
