package rodagent_test

import (
	"strings"
	"testing"
	"time"

	"github.com/rodagent/rodagent"
)

// The W3C ARIA Authoring Practices examples (testdata/fixtures/apg, W3C
// licence) are the reference widgets of the web. Used as an agent would:
// open the page, open or expand the widget, and the snapshot shows what a
// sighted user sees — options, cells, tree levels, current, selected,
// sorted and pressed state.
func TestAPGExamplesShowWhatAPersonSees(t *testing.T) {
	t.Parallel()
	type act struct{ role, name string } // a ref to click: role and the start of its name
	for _, tc := range []struct {
		page  string
		click *act
		want  []string       // in the text after the click (the delta), else in the full text
		roles map[string]int // at least this many refs of these roles
	}{
		{"combobox/examples/combobox-select-only.html", &act{"combobox", "Favorite Fruit"},
			[]string{"+ opt-apple", "+ opt-banana", "expanded"}, map[string]int{"option": 10}},
		// The month heading shows with the days, and the blank days around the
		// month (tabindex=-1, no text) are no refs: cell-1 is the 1st.
		{"combobox/examples/combobox-datepicker.html", &act{"button", "Choose Date"},
			[]string{"+ ", "[dialog", `## "`, "cell-1 (gridcell)", "cell-28 (gridcell)"}, map[string]int{"gridcell": 28}},
		{"combobox/examples/grid-combo.html", nil, []string{"cmb-"}, map[string]int{"combobox": 1}},
		{"listbox/examples/listbox-scrollable.html", nil, []string{"opt-"}, map[string]int{"option": 10}},
		{"listbox/examples/listbox-grouped.html", nil, []string{"opt-"}, map[string]int{"option": 8}},
		{"listbox/examples/listbox-rearrangeable.html", nil, []string{"multiselectable"}, map[string]int{"option": 8}},
		{"menu-button/examples/menu-button-links.html", &act{"button", "WAI-ARIA Quick Links"},
			[]string{"+ ", "expanded"}, map[string]int{"menuitem": 5}},
		{"menu-button/examples/menu-button-actions.html", &act{"button", "Actions"},
			[]string{"+ ", "expanded"}, map[string]int{"menuitem": 4}},
		// The menubar shows four items (Home, About, Admissions, Academics); their
		// submenus are display:none until opened, so a person sees four, not five.
		{"menubar/examples/menubar-navigation.html", nil, []string{"collapsed"}, map[string]int{"menuitem": 4}},
		// This copy of the example lists Danish composers (Maria Ahlefeldt, Carl
		// Andersen, …), not the "Agnes/Joke" tabs of other APG versions.
		{"tabs/examples/tabs-automatic.html", &act{"tab", "Carl Andersen"}, []string{"selected"}, map[string]int{"tab": 4}},
		{"tabs/examples/tabs-manual.html", nil, []string{"selected"}, map[string]int{"tab": 4}},
		{"treeview/examples/treeview-1a.html", &act{"treeitem", "Projects"},
			[]string{`level="2"`, "expanded"}, map[string]int{"treeitem": 5}},
		// Four top-level items show; every child group is collapsed (display:none)
		// on load, so a person sees four tree items, not five.
		{"treeview/examples/treeview-navigation.html", nil, []string{`level="1"`}, map[string]int{"treeitem": 4}},
		{"treegrid/examples/treegrid-1.html", nil, []string{`level="1"`}, map[string]int{"row": 3}},
		// A gridcell's handle prefix is "cell" (internal/ax/handle.go), never "gc".
		{"grid/examples/data-grids.html", nil, []string{"cell-", "(gridcell)"}, map[string]int{"gridcell": 20}},
		{"grid/examples/layout-grids.html", nil, nil, map[string]int{"gridcell": 5}},
		// This copy of advanced-data-grid.html is the APG's unfinished template: its
		// example div holds two placeholder paragraphs and no grid at all, so the
		// snapshot must show those paragraphs, not gridcells.
		{"grid/examples/advanced-data-grid.html", nil, []string{"This is the place where the reader will experience"}, nil},
		{"table/examples/sortable-table.html", nil, []string{`sort="ascending"`, `row "`}, nil},
		{"table/examples/table.html", nil, []string{`row "`}, nil},
		{"button/examples/button.html", nil, []string{"unpressed"}, nil},
		{"checkbox/examples/checkbox-mixed.html", nil, []string{"mixed"}, map[string]int{"checkbox": 4}},
		{"checkbox/examples/checkbox.html", nil, []string{"unchecked"}, map[string]int{"checkbox": 4}},
		{"switch/examples/switch.html", nil, []string{"checked"}, map[string]int{"switch": 1}},
		{"radio/examples/radio.html", nil, []string{"unchecked"}, map[string]int{"radio": 6}},
		{"slider/examples/slider-temperature.html", nil, []string{"range="}, map[string]int{"slider": 1}},
		{"spinbutton/examples/quantity-spinbutton.html", nil, []string{"value="}, map[string]int{"spinbutton": 1}},
		{"accordion/examples/accordion.html", nil, []string{"expanded", "collapsed"}, nil},
		{"disclosure/examples/disclosure-faq.html", &act{"button", "What do I do if I lose my permit"},
			[]string{"+ text", "expanded"}, nil},
		{"alert/examples/alert.html", &act{"button", "Trigger Alert"}, []string{"alert \""}, nil},
		{"dialog-modal/examples/dialog.html", &act{"button", "Add Delivery Address"}, []string{"+ "}, map[string]int{"textbox": 3}},
		{"breadcrumb/examples/breadcrumb.html", nil, []string{`current="page"`}, nil},
		{"toolbar/examples/toolbar.html", nil, []string{"pressed"}, nil},
	} {
		t.Run(tc.page, func(t *testing.T) {
			t.Parallel()
			ctx := testCtx(t, 60*time.Second)
			p := open(t, "apg/content/patterns/"+tc.page)
			if tc.click != nil {
				// The page's own late changes must not fall between the two
				// looks: under load the second came back once as a full read
				// (half or more of its refs new) instead of a delta.
				apgSettled(t, p)
			}
			s := snapshot(t, p)
			text, first := s.String(), ""
			if tc.click != nil {
				h := refStarting(t, s, tc.click.role, tc.click.name)
				if _, err := p.Click(ctx, h); err != nil {
					t.Fatalf("click %s: %v", h, err)
				}
				first = text
				s = snapshot(t, p)
				text = s.String()
			}
			for _, w := range tc.want {
				if !strings.Contains(text, w) {
					t.Errorf("the snapshot should show %q:\n%s\nthe look before:\n%s", w, text, first)
				}
			}
			for _, r := range s.Refs {
				if r.Role == "gridcell" && r.Name == "" && !r.Focused {
					t.Errorf("%s: a blank grid cell outside the tab order is nothing to act on:\n%s", r.Ref, text)
				}
			}
			for role, n := range tc.roles {
				got := 0
				for _, r := range s.Refs {
					if r.Role == role {
						got++
					}
				}
				if got < n {
					t.Errorf("%d %s refs, want at least %d:\n%s", got, role, n, s.FullText())
				}
			}
		})
	}
}

var _ = rodagent.WithFull
