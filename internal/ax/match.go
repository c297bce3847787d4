package ax

import (
	"sort"

	"github.com/go-rod/rod/lib/proto"
)

// Box is an element's border box in CSS pixels of the top-level viewport.
type Box struct{ X, Y, W, H float64 }

// Center is the middle of the box.
func (b Box) Center() (float64, float64) { return b.X + b.W/2, b.Y + b.H/2 }

// Empty reports whether the box has no area.
func (b Box) Empty() bool { return b.W <= 0 || b.H <= 0 }

// Element is an interactive item with everything a ref needs.
type Element struct {
	Item
	Handle string
	Frame  string   // frame id
	Prefix string   // handle prefix of the frame: "" for the main frame, "f1/" …
	Nth    int      // index among elements with the same role and name in the frame
	Doc    string   // loader id of the frame's document
	Parent *Element // the ref it sits inside, if any
}

// NodeKey identifies an element across snapshots: its backend node id, or
// for elements read by the in-page inventory, the inventory's own key (their
// backend id may not be known yet).
type NodeKey struct {
	Frame string
	Node  proto.DOMBackendNodeID
	Local int
}

// Key is e's NodeKey.
func (e *Element) Key() NodeKey {
	if e.Local != 0 {
		return NodeKey{Frame: e.Frame, Local: e.Local}
	}
	return NodeKey{Frame: e.Frame, Node: e.Node}
}

// The re-bind ladder's weights. A candidate must reach Threshold, and beat the
// runner-up by more than Margin, or the match is refused: a wrong element is
// worse than a stale ref.
const (
	Threshold = 3.0
	Margin    = 1.0

	wStable   = 5.0
	wName     = 3.0
	wNameNear = 1.5
	wLandmark = 1.0
	wContext  = 2.0
	wPath     = 0.5
	wNth      = 0.4
	penalty   = -3.0
)

// Score rates how well candidate c could be the element old was. A different
// role, frame, document or a conflicting stable attribute is a veto (ok false).
func Score(old, c *Element) (score float64, ok bool) {
	if old.Role != c.Role || old.Frame != c.Frame || old.Doc != c.Doc {
		return 0, false
	}
	switch {
	case old.Stable != "" && c.Stable != "" && old.Stable == c.Stable:
		score += wStable
	case old.Stable != "" && c.Stable != "" && old.Stable != c.Stable:
		return 0, false
	}
	switch {
	case old.Name == c.Name:
		score += wName
	case nameNear(old.Name, c.Name):
		score += wNameNear
	}
	if old.Landmark == c.Landmark {
		score += wLandmark
	} else {
		score += penalty
	}
	if old.Context != "" && c.Context != "" {
		if old.Context == c.Context {
			score += wContext
		} else {
			score += penalty
		}
	}
	if old.Path != "" && old.Path == c.Path {
		score += wPath
	}
	if old.Nth == c.Nth {
		score += wNth
	}
	return score, true
}

// nameNear: at least half of the words in common (a label that gained or lost a word).
func nameNear(a, b string) bool {
	wa, wb := words(a), words(b)
	if len(wa) == 0 || len(wb) == 0 {
		return false
	}
	set := map[string]bool{}
	for _, w := range wa {
		set[w] = true
	}
	common := 0
	for _, w := range wb {
		if set[w] {
			common++
		}
	}
	union := len(wa) + len(wb) - common
	return float64(common)/float64(union) >= 0.5
}

// Pick chooses which candidate old became. It returns the index of the single
// candidate that clears Threshold and beats every other by more than Margin.
// When several stay too close it returns -1 and their indexes (ambiguous);
// when none clears Threshold, -1 and nil.
//
// Position does not break ties: in a list that re-orders as it re-renders, the
// element now standing where the old one stood is a different item, and a
// wrong element is worse than an ambiguous ref.
func Pick(old *Element, cands []*Element) (best int, tied []int) {
	type scored struct {
		i int
		s float64
	}
	var ok []scored
	for i, c := range cands {
		if s, fine := Score(old, c); fine && s >= Threshold {
			ok = append(ok, scored{i, s})
		}
	}
	if len(ok) == 0 {
		return -1, nil
	}
	sort.SliceStable(ok, func(a, b int) bool { return ok[a].s > ok[b].s })
	if len(ok) == 1 || ok[0].s-ok[1].s > Margin {
		return ok[0].i, nil
	}
	var close []int
	for _, s := range ok {
		if ok[0].s-s.s <= Margin {
			close = append(close, s.i)
		}
	}
	return -1, close
}

// InViewport reports whether some of the item can be seen in a viewport of
// this size: its box reaches into the viewport and, when ancestors clip it
// (a scrolling list), into what they show.
func (it *Item) InViewport(vw, vh float64) bool {
	if !it.HasBox || vw <= 0 {
		return false
	}
	b := it.Box
	if it.HasClip {
		c := it.Clip
		if !(b.X < c.X+c.W && b.X+b.W > c.X && b.Y < c.Y+c.H && b.Y+b.H > c.Y) {
			return false
		}
		x, y := max(b.X, c.X), max(b.Y, c.Y)
		b = Box{X: x, Y: y, W: min(b.X+b.W, c.X+c.W) - x, H: min(b.Y+b.H, c.Y+c.H) - y}
	}
	return b.X+b.W > 0 && b.Y+b.H > 0 && b.X < vw && b.Y < vh
}
