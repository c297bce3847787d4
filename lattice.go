package rodagent

import (
	"fmt"
	"math"
	"sort"
)

// A board of look-alike clickables (a game's cells, a plot's points, a
// palette) is read by a person as a 2-D grid: "the middle cell", "the point
// at (2,-1)". Their names cannot tell them apart ("clickable span" nine
// times), and a list of refs loses the layout, so each member of such a
// lattice carries its place in it: row and column, counted from the top
// left. Only the boxes are used, so both read paths place alike.

// latticeMin is the fewest members a lattice has: 2×2.
const latticeMin = 4

// latticeSpread is how far apart, in cell sizes, a board's cells stand at
// most: a board is packed (a plot's points stand a few radii apart), while
// the same small handle at each corner of a dialog is no board.
const latticeSpread = 5

// latticeRoles are the roles a board's cells take; form fields, links and
// items of a composite widget have names and structure of their own.
var latticeRoles = map[string]bool{
	"generic": true, "button": true, "img": true, "image": true, "gridcell": true, "cell": true,
	"graphics-symbol": true, "graphics-document": true, "graphics-object": true, "none": true, "": true,
}

type latticeKey struct {
	frame string
	role  string
	w, h  int
}

// placeLattices sets Cell on every ref that belongs to a regular lattice of
// same-sized, same-role refs most of whose names repeat.
func placeLattices(refs []BrowserRef) {
	groups := map[latticeKey][]int{}
	for i := range refs {
		r := &refs[i]
		r.Cell = ""
		if !latticeRoles[r.Role] || r.Box.Width < 1 || r.Box.Height < 1 {
			continue
		}
		k := latticeKey{string(r.Frame.FrameID), r.Role, int(math.Round(r.Box.Width)), int(math.Round(r.Box.Height))}
		groups[k] = append(groups[k], i)
	}
	for k, members := range groups {
		if len(members) < latticeMin || !namesRepeat(refs, members) {
			continue
		}
		cols := centres(refs, members, func(b Box) float64 { return b.X + b.Width/2 }, float64(k.w)/2)
		rows := centres(refs, members, func(b Box) float64 { return b.Y + b.Height/2 }, float64(k.h)/2)
		if len(cols) < 2 || len(rows) < 2 || len(cols)*len(rows) != len(members) ||
			!evenlySpaced(cols) || !evenlySpaced(rows) || cols[1]-cols[0] > latticeSpread*float64(k.w) || rows[1]-rows[0] > latticeSpread*float64(k.h) {
			continue
		}
		seen := map[[2]int]bool{}
		for _, i := range members {
			b := refs[i].Box
			c, r := nearest(cols, b.X+b.Width/2), nearest(rows, b.Y+b.Height/2)
			if seen[[2]int{r, c}] {
				seen = nil // two members in one place: overlapping, not a board
				break
			}
			seen[[2]int{r, c}] = true
		}
		if seen == nil {
			continue
		}
		for _, i := range members {
			b := refs[i].Box
			c, r := nearest(cols, b.X+b.Width/2), nearest(rows, b.Y+b.Height/2)
			refs[i].Cell = fmt.Sprintf("row %d/%d, col %d/%d", r+1, len(rows), c+1, len(cols))
		}
	}
}

// namesRepeat: at least half of the members share their name with another
// member, so the name alone does not say which one is meant (a calendar's
// days, each named by its number, need no place).
func namesRepeat(refs []BrowserRef, members []int) bool {
	count := map[string]int{}
	for _, i := range members {
		count[refs[i].Name]++
	}
	dup := 0
	for _, i := range members {
		if count[refs[i].Name] > 1 {
			dup++
		}
	}
	return 2*dup >= len(members)
}

// centres clusters the members' centres along one axis: positions within
// tol of a cluster's first one fall into it. Sorted ascending.
func centres(refs []BrowserRef, members []int, at func(Box) float64, tol float64) []float64 {
	vs := make([]float64, 0, len(members))
	for _, i := range members {
		vs = append(vs, at(refs[i].Box))
	}
	sort.Float64s(vs)
	var out []float64
	for _, v := range vs {
		if len(out) == 0 || v-out[len(out)-1] > tol {
			out = append(out, v)
		}
	}
	return out
}

// evenlySpaced: the gaps between neighbouring centres differ by at most
// half of the smallest, as a board's are.
func evenlySpaced(cs []float64) bool {
	lo, hi := math.Inf(1), 0.0
	for i := 1; i < len(cs); i++ {
		g := cs[i] - cs[i-1]
		lo, hi = math.Min(lo, g), math.Max(hi, g)
	}
	return hi-lo <= lo/2
}

func nearest(cs []float64, v float64) int {
	best, d := 0, math.Inf(1)
	for i, c := range cs {
		if e := math.Abs(c - v); e < d {
			best, d = i, e
		}
	}
	return best
}
