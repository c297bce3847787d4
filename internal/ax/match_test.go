package ax

import "testing"

func el(role, name, landmark, context, stable, path string, nth int, x, y float64) *Element {
	return &Element{Item: Item{Kind: KindRef, Role: role, Name: name, Landmark: landmark, Context: context, Path: path,
		Stable: stable, Box: Box{X: x, Y: y, W: 10, H: 10}, HasBox: true}, Frame: "F", Doc: "D", Nth: nth}
}

// The re-bind ladder: which candidate, if any, an old element becomes.
func TestPick(t *testing.T) {
	old := el("button", "Edit", "main", `row "Invoice 1003"`, "", "table:0>row:3>cell:2>button:0", 2, 100, 300)
	type want struct {
		best int
		tied int // number of tied candidates when best < 0
	}
	for _, tc := range []struct {
		name  string
		old   *Element
		cands []*Element
		want  want
	}{
		{"same everything, new node", old, []*Element{
			el("button", "Edit", "main", `row "Invoice 1003"`, "", "table:0>row:3>cell:2>button:0", 2, 100, 300),
		}, want{0, 0}},
		{"row moved: its context tells it apart from the row now in its place", old, []*Element{
			el("button", "Edit", "main", `row "Invoice 1004"`, "", "table:0>row:3>cell:2>button:0", 2, 100, 300),
			el("button", "Edit", "main", `row "Invoice 1003"`, "", "table:0>row:1>cell:2>button:0", 0, 100, 200),
			el("button", "Edit", "main", `row "Invoice 1002"`, "", "table:0>row:0>cell:2>button:0", 1, 100, 150),
		}, want{1, 0}},
		{"role differs: veto", old, []*Element{
			el("link", "Edit", "main", `row "Invoice 1003"`, "", "", 2, 100, 300),
		}, want{-1, 0}},
		{"same name in another landmark: not it", el("button", "Save draft", "main", "", "", "", 0, 10, 10), []*Element{
			el("button", "Save draft", `complementary "Sidebar"`, "", "", "", 0, 500, 10),
		}, want{-1, 0}},
		{"conflicting stable attribute rules out", el("button", "Save", "main", "", "#save-a", "", 0, 0, 0), []*Element{
			el("button", "Save", "main", "", "#save-b", "", 0, 0, 0),
		}, want{-1, 0}},
		{"equal stable attribute wins despite a new name", el("button", "Save", "main", "", "[data-testid=save]", "", 0, 0, 0), []*Element{
			el("button", "Saving…", "main", "", "[data-testid=save]", "", 0, 0, 0),
			el("button", "Cancel", "main", "", "", "", 0, 0, 0),
		}, want{0, 0}},
		{"identical twins: ambiguous, never a guess", el("button", "Edit", "main", "", "", "", 0, 0, 0), []*Element{
			el("button", "Edit", "main", "", "", "", 0, 100, 100),
			el("button", "Edit", "main", "", "", "", 1, 300, 300),
		}, want{-1, 2}},
		{"twins, one where the old one was: position does not decide", el("button", "More", "main", "", "", "x", 1, 300, 300), []*Element{
			el("button", "More", "main", "", "", "x", 0, 100, 100),
			el("button", "More", "main", "", "", "x", 1, 300, 300),
		}, want{-1, 2}},
		{"position alone never matches", el("button", "Edit", "main", "", "", "", 0, 100, 100), []*Element{
			el("button", "Delete", "main", "", "", "", 0, 100, 100),
		}, want{-1, 0}},
		{"a label that gained a word still matches in the same place", el("button", "Follow", "main", `heading "Grace Hopper"`, "", "", 1, 0, 0), []*Element{
			el("button", "Follow back", "main", `heading "Grace Hopper"`, "", "", 0, 0, 0),
		}, want{0, 0}},
		{"another document: veto", old, []*Element{func() *Element {
			e := el("button", "Edit", "main", `row "Invoice 1003"`, "", "table:0>row:3>cell:2>button:0", 2, 100, 300)
			e.Doc = "D2"
			return e
		}()}, want{-1, 0}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			best, tied := Pick(tc.old, tc.cands)
			if best != tc.want.best || len(tied) != tc.want.tied {
				t.Errorf("Pick = %d, tied %v; want %d, %d tied", best, tied, tc.want.best, tc.want.tied)
			}
		})
	}
}
