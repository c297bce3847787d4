package rodagent_test

import (
	"strings"
	"testing"
	"time"

	"github.com/rodagent/rodagent"
)

// A paragraph reads whole: its inline links' words stay in the sentence
// (the links stay refs, on their own lines), on both read paths. A block
// holding only links (a cell with its invoice link) shows no text of them:
// the app shell stays within its budget.
func TestSeeTextKeepsInlineLinkWords(t *testing.T) {
	t.Parallel()
	onReadPaths(t, "apg/content/patterns/dialog-modal/examples/datepicker-dialog.html", func(t *testing.T, p *rodagent.Page, rp readPath) {
		apgSettled(t, p)
		s := snapshot(t, p)
		full := s.FullText()
		for _, want := range []string{
			`text "The example below includes a date input field and a button that opens a date picker that implements the Dialog (Modal) Pattern. The dialog`,
			`text "Alert Dialog Example: A confirmation prompt that demonstrates an alert dialog."`,
			`as specified in the Grid Pattern, only one`,
			"\n lnk-dialog-modal-pattern\n", "\n lnk-alert-dialog-example\n",
		} {
			if !strings.Contains(full, want) {
				t.Errorf("the snapshot should contain %q:\n%s", want, full)
			}
		}
		a := open(t, "appshell.html")
		rp.set(a)
		text := snapshot(t, a).String()
		if len(text) > 3000 {
			t.Errorf("app shell snapshot is %d chars, want ≤ 3000", len(text))
		}
		if !strings.Contains(text, `row "Umbrella GmbH | €99.99" chk-select-inv-1004`) {
			t.Errorf("a cell holding only its link shows no text of it:\n%s", text)
		}
	})
}

// An expanded tree item is named as a person reads it, "Projects", not by
// its files too: the delta says it opened, and its handle does not change
// (APG file-directory trees, both read paths).
func TestSeeTreeItemNameWithoutChildren(t *testing.T) {
	t.Parallel()
	for _, page := range []string{"treeview-1a.html", "treeview-1b.html"} {
		t.Run(page, func(t *testing.T) {
			t.Parallel()
			onReadPaths(t, "apg/content/patterns/treeview/examples/"+page, func(t *testing.T, p *rodagent.Page, _ readPath) {
				ctx := testCtx(t, 60*time.Second)
				apgSettled(t, p)
				s := snapshot(t, p)
				h := refNamed(t, s, "treeitem", "Projects")
				if _, err := p.Click(ctx, h); err != nil {
					t.Fatal(err)
				}
				d := snapshot(t, p)
				if !strings.Contains(d.String(), "~ "+h+" expanded") || strings.Contains(d.String(), h+"-") {
					t.Errorf("expanding %s is a change of its state, under the same handle:\n%s", h, d)
				}
				if r, ok := d.Ref(h); !ok || r.Name != "Projects" {
					t.Errorf("%s after expanding: %+v", h, r)
				}
			})
		})
	}
}

// Where the browser's name of an open tree item holds its children's text
// (the nested items sit in a plain list, not a group), the name shown
// leaves them out and the browser's name stays in RawName; a menu item's
// submenu likewise.
func TestSeeNestedItemNames(t *testing.T) {
	t.Parallel()
	onReadPaths(t, "nested-names.html", func(t *testing.T, p *rodagent.Page, _ readPath) {
		s := snapshot(t, p)
		for _, c := range []struct{ role, name, raw string }{
			{"treeitem", "Alpha", ""}, {"treeitem", "Beta", "Beta b1 leaf"}, {"treeitem", "Gamma", "Gamma g1 leaf"},
			{"menuitem", "File", ""}, {"menuitem", "Edit", ""},
		} {
			found := false
			for _, r := range s.Refs {
				if r.Role == c.role && r.Name == c.name {
					found = true
					if r.RawName != c.raw {
						t.Errorf("%s %q: raw name %q, want %q", c.role, c.name, r.RawName, c.raw)
					}
				}
			}
			if !found {
				t.Errorf("no %s named %q:\n%s", c.role, c.name, s.FullText())
			}
		}
	})
}

// A picture is content: its text alternative stands in the text where the
// picture does ("[img meat]" beside the dish, a logo inside its sentence, an
// ARIA img's label), and a decorative, hidden or presentational one adds
// nothing; a picture inside a control names the control and adds no text. A
// control named by a symbol ("+", "-", "×") prints the symbol: its handle
// cannot carry it. A span a pointer cursor alone makes clickable is a ref
// on both paths. An agent reading only the text orders the meat dish.
func TestSeePicturesAndSymbols(t *testing.T) {
	t.Parallel()
	onReadPaths(t, "pictures.html", func(t *testing.T, p *rodagent.Page, _ readPath) {
		s := snapshot(t, p)
		full := s.FullText()
		for _, want := range []string{
			`text "Served by [img Chez Ada] since 1998."`,
			`text "[img meat] [img spicy]"`,
			`text "[img vegetarian]"`,
			`text "[img Rated 4 out of 5]"`,
			` "+"`, ` "-"`, ` "×"`,
			// a pointer cursor alone: Chromium keeps no AX node for the
			// span, the AX path places it where its text stands
			"\n el-show-allergens (generic)\n",
		} {
			if !strings.Contains(full, want) {
				t.Errorf("the snapshot should contain %q:\n%s", want, full)
			}
		}
		for _, bad := range []string{"spacer", "hidden badge", "collapsed", "[img Close basket]", "[img ]"} {
			if strings.Contains(full, bad) {
				t.Errorf("the snapshot should not contain %q:\n%s", bad, full)
			}
		}
		// The agent: the "+" on the line after the meat dish's pictures.
		lines := strings.Split(full, "\n")
		add := ""
		for i, l := range lines {
			if strings.Contains(l, "[img meat]") {
				for _, m := range lines[i+1:] {
					if f := strings.Fields(m); len(f) > 0 && strings.HasSuffix(m, `"+"`) {
						add = f[0]
						break
					}
				}
				break
			}
		}
		if add == "" {
			t.Fatalf("no \"+\" ref after the meat dish:\n%s", full)
		}
		ctx := testCtx(t, 30*time.Second)
		if st, err := p.Click(ctx, add); err != nil {
			t.Fatalf("click %s: %v %v", add, st, err)
		}
		d := snapshot(t, p)
		if !strings.Contains(d.String(), "Chicken wings: 1") {
			t.Errorf("the delta should show the order's status:\n%s", d.String())
		}
	})
}
