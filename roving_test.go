package rodagent_test

import (
	"fmt"
	"testing"
	"time"
)

// React Aria's grids (its Table, its TagGroup) are in the tab order until
// focus goes inside, then tabindex=-1: focus roves between the grid and its
// items. The look after a click inside said the grid was gone ("-
// el-people") though the table stood where it was. A grid with a tabindex
// of any value is one ref through the move, on both read paths.
func TestAGridStaysWhileFocusMovesInside(t *testing.T) {
	t.Parallel()
	cases := []struct {
		page, role, name, grid string
		removed                string
	}{
		{"components7/aria-table.html", "checkbox", "Select Carla Ruiz", "el-people", "[]"},
		{"components7/aria-taggroup.html", "button", "Remove Travel", "el-categories", "[row-travel btn-remove-travel]"},
	}
	for _, rp := range readPaths {
		for _, tc := range cases {
			t.Run(rp.name+"/"+tc.page, func(t *testing.T) {
				t.Parallel()
				ctx := testCtx(t, 60*time.Second)
				p := open(t, tc.page)
				rp.set(p)
				waitReady(t, p)
				s := snapshot(t, p)
				if _, ok := s.Ref(tc.grid); !ok {
					t.Fatalf("no %s in the first look:\n%s", tc.grid, s)
				}
				if st, err := p.Click(ctx, refNamed(t, s, tc.role, tc.name)); err != nil || !st.OK() {
					t.Fatalf("Click = %s, %v", st, err)
				}
				look := snapshot(t, p)
				if look.Delta == nil {
					t.Fatalf("the second look carries no delta:\n%s", look)
				}
				if got := fmt.Sprint(look.Delta.Removed); got != tc.removed {
					t.Errorf("removed %s, want %s: the grid is still on the page:\n%s", got, tc.removed, look)
				}
				if _, ok := look.Ref(tc.grid); !ok {
					t.Errorf("%s is missing from the look's refs:\n%s", tc.grid, look.FullText())
				}
			})
		}
	}
}
