package rodagent

import (
	"fmt"
	"testing"
)

// board lays out n×m refs of one role and size, gap pixels apart, named by
// name(row, col).
func board(rows, cols int, size, gap float64, role string, name func(r, c int) string) []BrowserRef {
	var out []BrowserRef
	for r := 0; r < rows; r++ {
		for c := 0; c < cols; c++ {
			out = append(out, BrowserRef{Role: role, Name: name(r, c),
				Box: Box{X: 10 + float64(c)*(size+gap), Y: 20 + float64(r)*(size+gap), Width: size, Height: size}})
		}
	}
	return out
}

func TestPlaceLattices(t *testing.T) {
	same := func(int, int) string { return "clickable span" }
	cases := []struct {
		name string
		refs []BrowserRef
		want []string // Cell of each ref, in order
	}{
		{"a 3×3 game board", board(3, 3, 40, 2, "generic", same), []string{
			"row 1/3, col 1/3", "row 1/3, col 2/3", "row 1/3, col 3/3",
			"row 2/3, col 1/3", "row 2/3, col 2/3", "row 2/3, col 3/3",
			"row 3/3, col 1/3", "row 3/3, col 2/3", "row 3/3, col 3/3"}},
		{"marks keep their place when half the names still repeat", board(2, 2, 30, 0, "button", func(r, c int) string {
			if r == 0 && c == 0 {
				return "icon button (x)"
			}
			return "clickable div"
		}), []string{"row 1/2, col 1/2", "row 1/2, col 2/2", "row 2/2, col 1/2", "row 2/2, col 2/2"}},
		{"a calendar's days are told apart by their names", board(2, 7, 30, 2, "button", func(r, c int) string {
			return fmt.Sprint(r*7 + c + 1)
		}), make([]string, 14)},
		{"corner handles far apart are no board", board(2, 2, 8, 400, "generic", same), make([]string, 4)},
		{"links are never a board", board(3, 3, 40, 2, "link", same), make([]string, 9)},
		{"a missing cell leaves no full grid", board(3, 3, 40, 2, "generic", same)[:8], make([]string, 8)},
		{"a single row is a list, not a board", board(1, 6, 40, 2, "generic", same), make([]string, 6)},
		{"uneven gaps are no board", func() []BrowserRef {
			b := board(2, 3, 20, 2, "generic", same)
			b[2].Box.X += 60
			b[5].Box.X += 60
			return b
		}(), make([]string, 6)},
		{"two in one place overlap, not a board", func() []BrowserRef {
			b := board(2, 2, 20, 2, "generic", same)
			return append(b, b[0])
		}(), make([]string, 5)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			placeLattices(tc.refs)
			for i, r := range tc.refs {
				if r.Cell != tc.want[i] {
					t.Errorf("ref %d (%s %q at %v): Cell %q, want %q", i, r.Role, r.Name, r.Box, r.Cell, tc.want[i])
				}
			}
		})
	}
}
