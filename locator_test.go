package rodagent_test

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rodagent/rodagent"
	. "github.com/rodagent/rodagent" //nolint:staticcheck // locators read best unqualified in a script
)

func must(t *testing.T, what string, st rodagent.ActionStatus, err error) {
	t.Helper()
	if err != nil || !st.OK() {
		t.Fatalf("%s: %s, %v", what, st, err)
	}
}

// The form of the locator fixture, completed with locators only: no CSS, no refs.
func TestLocatorsCompleteAForm(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t, 60*time.Second)
	avatar := filepath.Join(t.TempDir(), "me.png")
	os.WriteFile(avatar, []byte("not really a png"), 0o644)
	p := open(t, "components/locator-form.html")
	waitReady(t, p)

	st, err := p.Locate(ByLabel("Full name")).Type(ctx, "Ada Lovelace")
	must(t, "full name", st, err)
	st, err = p.Locate(ByPlaceholder("you@example.com")).Type(ctx, "ada@example.com")
	must(t, "email", st, err)
	st, err = p.Locate(ByPlaceholder("Notes").Exact()).Type(ctx, "first programmer")
	must(t, "notes", st, err)
	st, err = p.Locate(ByRole("checkbox", "Subscribe")).Check(ctx)
	must(t, "subscribe", st, err)
	st, err = p.Locate(ByRole("radio", "Pro").Within(ByRole("group", "Plan"))).Check(ctx)
	must(t, "plan", st, err)
	st, err = p.Locate(ByLabel("Size")).Select(ctx, "Large")
	must(t, "size", st, err)
	st, err = p.Locate(ByLabel("Avatar")).Upload(ctx, avatar)
	must(t, "avatar", st, err)
	st, err = p.Locate(ByRole("combobox", "Color")).Click(ctx) // a Radix Select
	must(t, "open color", st, err)
	st, err = p.Locate(ByRole("option", "Green").Exact()).Click(ctx)
	must(t, "pick green", st, err)
	st, err = p.Locate(ByRole("button", "Submit")).Click(ctx)
	must(t, "submit", st, err)

	var data map[string]any
	if err := json.Unmarshal([]byte(resultText(t, p)), &data); err != nil {
		t.Fatalf("result: %v", err)
	}
	want := map[string]any{"fullName": "Ada Lovelace", "email": "ada@example.com", "notes": "first programmer",
		"subscribe": true, "plan": "pro", "size": "large", "avatar": []any{"me.png"}, "color": "green"}
	for k, v := range want {
		if got, _ := json.Marshal(data[k]); string(got) != mustJSON(v) {
			t.Errorf("%s = %s, want %s", k, got, mustJSON(v))
		}
	}

	// Getters.
	if txt, err := p.Locate(ByTestID("invoice-total")).Text(ctx); err != nil || txt != "42.00" {
		t.Errorf("Text(testid=invoice-total) = %q, %v", txt, err)
	}
	if v, err := p.Locate(ByLabel("Full name")).Value(ctx); err != nil || v != "Ada Lovelace" {
		t.Errorf("Value = %q, %v", v, err)
	}
	if on, err := p.Locate(ByRole("checkbox", "Subscribe")).Checked(ctx); err != nil || !on {
		t.Errorf("Checked = %v, %v", on, err)
	}
	if on, err := p.Locate(ByRole("button", "Submit")).Enabled(ctx); err != nil || !on {
		t.Errorf("Enabled = %v, %v", on, err)
	}
	if on, err := p.Locate(ByRole("button", "Submit")).Visible(ctx); err != nil || !on {
		t.Errorf("Visible = %v, %v", on, err)
	}
	if on, err := p.Locate(ByRole("button", "No such button")).Visible(ctx); err != nil || on {
		t.Errorf("Visible of nothing = %v, %v", on, err)
	}
	if v, ok, err := p.Locate(ByLabel("Email")).Attribute(ctx, "type"); err != nil || !ok || v != "email" {
		t.Errorf("Attribute(type) = %q %v %v", v, ok, err)
	}
	if _, ok, err := p.Locate(ByLabel("Email")).Attribute(ctx, "data-nope"); err != nil || ok {
		t.Errorf("absent attribute: %v %v", ok, err)
	}
	// The text form drives the same path.
	loc, err := ParseLocator(`role=button[name="Submit"]`)
	if err != nil {
		t.Fatal(err)
	}
	if refs, err := p.Find(ctx, loc); err != nil || len(refs) != 1 || refs[0].Role != "button" {
		t.Errorf("Find(%s) = %+v, %v", loc, refs, err)
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func TestLocatorWritesAreStrict(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t, 30*time.Second)
	p := open(t, "react/duplicates.html")
	waitReady(t, p)
	st, err := p.Locate(ByRole("button", "Edit")).Click(ctx)
	wantStatus(t, "ambiguous locator", st, err, rodagent.Ambiguous, rodagent.ErrAmbiguous)
	var ae *rodagent.ActionError
	if errors.As(err, &ae) && len(ae.Candidates) != 7 {
		t.Errorf("7 candidates expected: %+v", ae.Candidates)
	}
	if n := len(logEntries(t, p)); n != 0 {
		t.Fatalf("an ambiguous locator must not act: %v", logEntries(t, p))
	}
	// Narrowed, it acts; reads may pick explicitly.
	st, err = p.Locate(ByRole("button", "Edit").WithinLandmark("Filters")).Click(ctx)
	must(t, "Edit in the Filters aside", st, err)
	st, err = p.Locate(ByRole("button", "Edit").Within(ByRole("row", "Invoice 1003"))).Click(ctx)
	must(t, "Edit in row 1003", st, err)
	st, err = p.Locate(ByRole("button", "Edit").Nth(6)).Click(ctx)
	must(t, "the 7th Edit", st, err)
	var got []string
	eval(t, p, "window.__log.filter(r => r.type === 'edit').map(r => r.where || r.row)", &got)
	if mustJSON(got) != `["aside","1003","aside"]` {
		t.Errorf("edits: %v", got)
	}
	if _, err := p.Locate(ByRole("button", "Edit")).Text(ctx); !errors.Is(err, rodagent.ErrAmbiguous) {
		t.Errorf("a read with several matches and no Nth is ambiguous: %v", err)
	}
	if txt, err := p.Locate(ByRole("button", "Edit").First()).Text(ctx); err != nil || txt != "Edit" {
		t.Errorf("First().Text = %q, %v", txt, err)
	}
	st, err = p.Locate(ByRole("button", "Nothing like it")).Click(ctx)
	wantStatus(t, "no match", st, err, rodagent.NotFound, rodagent.ErrNotFound)
}

func TestLocatorsReachFramesAndShadowRoots(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t, 60*time.Second)
	p := openURL(t, originA+"/frames.html?other="+originB)
	holder := ByRole("textbox", "Card holder")
	if _, err := p.Locate(holder).Type(ctx, "x"); !errors.Is(err, rodagent.ErrAmbiguous) {
		t.Errorf("the holder field exists in two frames: want ambiguous, got %v", err)
	}
	st, err := p.Locate(holder.WithinFrame("localhost")).Type(ctx, "Cross Origin")
	must(t, "type in the cross-origin frame", st, err)
	refs, err := p.Find(ctx, holder.WithinFrame("localhost"))
	if err != nil || len(refs) != 1 || refs[0].Value != "Cross Origin" || refs[0].Frame.URL == "" {
		t.Errorf("Find in the frame: %+v %v", refs, err)
	}

	s := open(t, "shadow.html")
	st, err = s.Locate(ByLabel("Shadow name")).Type(ctx, "in the open root")
	must(t, "type in an open shadow root", st, err)
	st, err = s.Locate(ByRole("button", "Shadow save")).Click(ctx)
	must(t, "click in an open shadow root", st, err)
	var clicks []map[string]any
	eval(t, s, "window.__log.filter(r => r.type === 'click')", &clicks)
	if len(clicks) != 1 || clicks[0]["value"] != "in the open root" {
		t.Errorf("shadow clicks: %v", clicks)
	}
}

func TestLocatorTextAndCSS(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t, 30*time.Second)
	p := open(t, "basic.html")
	st, err := p.Locate(ByCSS("#add-row")).Click(ctx)
	must(t, "css", st, err)
	st, err = p.Locate(ByText("Remove row 1")).Click(ctx) // text inside a button resolves to the button
	must(t, "text", st, err)
	var got []string
	eval(t, p, "window.__log.filter(r => r.type.endsWith('row')).map(r => r.type)", &got)
	if mustJSON(got) != `["add-row","remove-row"]` {
		t.Errorf("log: %v", got)
	}
	refs, err := p.Find(ctx, ByText("Next page"))
	if err != nil || len(refs) != 1 || refs[0].Role != "link" {
		t.Errorf("Find(text=Next page) = %+v, %v", refs, err)
	}
}

func TestDragWithLocators(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t, 30*time.Second)
	p := open(t, "drag.html")
	st, err := p.Locate(ByRole("button", "Card A")).DragTo(ctx, ByRole("region", "Done column"))
	must(t, "pointer drag", st, err)
	st, err = p.Locate(ByRole("button", "Task 1")).DragTo(ctx, ByRole("region", "Archive"))
	must(t, "HTML5 drag", st, err)
	var drops []map[string]any
	eval(t, p, "window.__log.filter(r => r.type === 'drop')", &drops)
	if len(drops) != 2 || drops[0]["target"] != "Done column" || drops[1]["target"] != "Archive" || drops[1]["data"] != "task-1" {
		t.Fatalf("drops: %v", drops)
	}
	// Refs work for the source; the drop zone has no ref (a region), so a locator names it.
}

// A sortable list moves an item only once the pointer has crossed the middle
// of the item it is dragged onto, as a person drags until it moves: the drag
// ends a little past the target's centre, in the direction of travel.
func TestDragReordersASortableList(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t, 30*time.Second)
	for _, tc := range []struct{ from, to, want string }{
		{"Alpha", "Charlie", "order=Bravo,Charlie,Alpha,Delta"},
		{"Delta", "Bravo", "order=Alpha,Delta,Bravo,Charlie"},
	} {
		p := open(t, "sortable.html")
		s := snapshot(t, p)
		from, to := refNamed(t, s, "listitem", tc.from), refNamed(t, s, "listitem", tc.to)
		st, err := p.Drag(ctx, from, to)
		must(t, "drag "+from+" onto "+to, st, err)
		s = snapshot(t, p)
		if !strings.Contains(s.String(), tc.want) {
			t.Errorf("drag %s onto %s: want %q in the next look:\n%s", from, to, tc.want, s)
		}
	}
}
