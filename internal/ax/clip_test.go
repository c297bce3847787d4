package ax

import (
	"testing"

	"github.com/go-rod/rod/lib/proto"
)

func TestItemInViewport(t *testing.T) {
	list := Box{X: 0, Y: 100, W: 200, H: 60} // a scrolling list, 60 px tall
	for _, tc := range []struct {
		name string
		it   Item
		want bool
	}{
		{"no box", Item{}, false},
		{"in view, unclipped", Item{Box: Box{10, 10, 50, 20}, HasBox: true}, true},
		{"below the viewport", Item{Box: Box{10, 900, 50, 20}, HasBox: true}, false},
		{"zero size in view counts, as before", Item{Box: Box{10, 10, 0, 0}, HasBox: true}, true},
		{"inside its list", Item{Box: Box{0, 120, 200, 20}, HasBox: true, Clip: list, HasClip: true}, true},
		{"scrolled above its list", Item{Box: Box{0, 60, 200, 20}, HasBox: true, Clip: list, HasClip: true}, false},
		{"scrolled below its list", Item{Box: Box{0, 160, 200, 20}, HasBox: true, Clip: list, HasClip: true}, false},
		{"half shown at the list's edge", Item{Box: Box{0, 150, 200, 20}, HasBox: true, Clip: list, HasClip: true}, true},
		{"list itself out of view", Item{Box: Box{0, 820, 200, 20}, HasBox: true, Clip: Box{0, 800, 200, 60}, HasClip: true}, false},
		{"clipped to nothing", Item{Box: Box{0, 120, 200, 20}, HasBox: true, Clip: Box{0, 120, 0, 0}, HasClip: true}, false},
	} {
		if got := tc.it.InViewport(800, 600); got != tc.want {
			t.Errorf("%s: InViewport = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// The AX path's clip follows the in-page regionOf: parents that clip their
// overflow bound what they hold; an absolutely positioned element escapes
// those inside its containing block, a fixed one all of them. (IndexDOM
// never marks <html> or <body> as clipping: their overflow is the viewport's.)
func TestClipperRegions(t *testing.T) {
	dom := &DOMIndex{Docs: []DocInfo{{ScrollY: 50}}, Nodes: map[proto.DOMBackendNodeID]DOMInfo{
		1:  {Tag: "html"},
		2:  {Tag: "body", Parent: 1, HasBounds: true, Bounds: Box{0, 0, 10, 10}},
		3:  {Tag: "div", Parent: 2, Position: "relative"},
		4:  {Tag: "div", Parent: 3, Clips: true, Position: "static", HasBounds: true, Bounds: Box{0, 150, 200, 60.4}},
		5:  {Tag: "div", Parent: 4, Position: "static"},                                            // in the list
		6:  {Tag: "div", Parent: 4, Position: "absolute"},                                          // escapes to 3: unclipped
		7:  {Tag: "div", Parent: 5, Position: "fixed"},                                             // escapes everything
		8:  {Tag: "div", Parent: 2, Position: "static"},                                            // under body only
		9:  {Tag: "div", Parent: 4, Clips: true, HasBounds: true, Bounds: Box{150, 150, 100, 100}}, // nested clip
		10: {Tag: "span", Parent: 9},
	}}
	c := &clipper{dom: dom, regions: map[proto.DOMBackendNodeID]clipRegion{}}
	for _, tc := range []struct {
		id   proto.DOMBackendNodeID
		want Box
		ok   bool
	}{
		{5, Box{0, 100, 200, 60}, true}, // the document's scroll taken off, rounded as Math.round
		{6, Box{}, false},
		{7, Box{}, false},
		{8, Box{}, false},
		{10, Box{150, 100, 50, 60}, true},
	} {
		got, ok := c.limit(tc.id)
		if ok != tc.ok || got != tc.want {
			t.Errorf("limit(%d) = %v %v, want %v %v", tc.id, got, ok, tc.want, tc.ok)
		}
	}
}

func TestCapUTF16(t *testing.T) {
	long := ""
	for i := 0; i < 250; i++ {
		long += "é"
	}
	if got := []rune(capUTF16(long, 200)); len(got) != 200 {
		t.Errorf("capped to %d runes, want 200", len(got))
	}
	if got := capUTF16("short", 200); got != "short" {
		t.Errorf("short values stay: %q", got)
	}
	emoji := "😀😀😀" // two UTF-16 units each, as JavaScript counts
	if got := capUTF16(emoji, 4); got != "😀😀" {
		t.Errorf("capUTF16(emoji, 4) = %q", got)
	}
}
