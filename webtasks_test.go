package rodagent_test

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rodagent/rodagent"
)

// Web tasks (suggestion menus, file trees) put clickables inside other
// clickables: a focusable suggestion list whose items the list's listener
// serves, a tree whose items each listen. A person clicks the item, not the
// list, so every item a person sees is a ref, on both read paths; a folded
// folder is named by what shows of it, not by its hidden children.
func TestWebtasksNestedClickables(t *testing.T) {
	t.Parallel()
	onReadPaths(t, "webtasks-nested-clickables.html", func(t *testing.T, p *rodagent.Page, _ readPath) {
		ctx := testCtx(t, 30*time.Second)
		s := snapshot(t, p)
		apricot := refByName(t, s, "Apricot")
		recipes := refByName(t, s, "Recipes")
		if _, ok := refWithName(s, "Pie"); ok {
			t.Errorf("a folded folder's file is a ref:\n%s", s)
		}
		if _, err := p.Click(ctx, apricot); err != nil {
			t.Fatalf("Click %s: %v", apricot, err)
		}
		s = snapshot(t, p)
		if !strings.Contains(s.String(), `"picked Apricot"`) {
			t.Errorf("the pick's outcome is not in the delta:\n%s", s)
		}
		if _, err := p.Click(ctx, recipes); err != nil {
			t.Fatalf("Click %s: %v", recipes, err)
		}
		s = snapshot(t, p)
		jam := refByName(t, s, "Jam")
		if !strings.Contains(s.String(), "+ "+jam) {
			t.Errorf("the opened folder's file is not added in the delta:\n%s", s)
		}
		if _, err := p.Click(ctx, jam); err != nil {
			t.Fatalf("Click %s: %v", jam, err)
		}
		s = snapshot(t, p)
		if !strings.Contains(s.String(), `"opened Jam"`) {
			t.Errorf("clicking the file did not open it:\n%s", s)
		}
	})
}

// refByName is the handle of the ref named name, whatever its role.
func refByName(t *testing.T, s *rodagent.Snapshot, name string) string {
	t.Helper()
	ref, ok := refWithName(s, name)
	if !ok {
		t.Fatalf("no ref named %q:\n%s", name, s.FullText())
	}
	return ref
}

func refWithName(s *rodagent.Snapshot, name string) (string, bool) {
	for _, r := range s.Refs {
		if r.Name == name {
			return r.Ref, true
		}
	}
	return "", false
}

// An icon a page draws as the element's own content (content: url(…), as
// mail apps draw their search and reply buttons) names the clickable after
// the image, as a background image does, on both read paths.
func TestWebtasksIconFromContentImage(t *testing.T) {
	t.Parallel()
	onReadPaths(t, "webtasks-nested-clickables.html", func(t *testing.T, p *rodagent.Page, _ readPath) {
		s := snapshot(t, p)
		find := refByName(t, s, "icon button (search)")
		if _, err := p.Click(testCtx(t, 30*time.Second), find); err != nil {
			t.Fatalf("Click %s: %v", find, err)
		}
		if s = snapshot(t, p); !strings.Contains(s.String(), `"find opened"`) {
			t.Errorf("clicking the icon did not reach it:\n%s", s)
		}
	})
}

// A task page in a short body of plain divs (the instruction, the work
// area, a score panel beside them) reads as a person reads it: the
// instruction on a line of its own, before the controls, not run together
// with the work area and the score panel into one line of page text.
func TestWebtasksInstructionReadsApart(t *testing.T) {
	t.Parallel()
	onReadPaths(t, "webtasks-task-panel.html", func(t *testing.T, p *rodagent.Page, _ readPath) {
		ctx := testCtx(t, 30*time.Second)
		s := snapshot(t, p)
		text := s.String()
		ask := lineWith(text, "Type the word shown below")
		if ask < 0 || strings.Contains(lines(text)[ask], "Last score") || strings.Contains(lines(text)[ask], "violet") {
			t.Fatalf("the instruction is not a line of its own:\n%s", text)
		}
		word := lineWith(text, `"violet"`)
		answer := refNamed(t, s, "textbox", "Answer")
		if word < 0 || word < ask || lineWith(text, answer) < word {
			t.Errorf("the instruction, the word and the field are not in reading order:\n%s", text)
		}
		if _, err := p.Type(ctx, answer, "violet"); err != nil {
			t.Fatalf("Type: %v", err)
		}
		if _, err := p.Click(ctx, refNamed(t, s, "button", "Go")); err != nil {
			t.Fatalf("Click: %v", err)
		}
		if s = snapshot(t, p); !strings.Contains(s.String(), `"right"`) {
			t.Errorf("the outcome is not in the delta:\n%s", s)
		}
	})
}

// Drag libraries mark what they move only by turning off touch panning on
// it; swatches and drawn shapes show only their colour and form. Each is a
// ref a person would point at ("Banana", "blue #0000ff", "red #ff0000
// rectangle"), and acting on it through its ref lands, on both read paths.
func TestWebtasksDragHandlesAndShapes(t *testing.T) {
	t.Parallel()
	onReadPaths(t, "webtasks-drag-shapes.html", func(t *testing.T, p *rodagent.Page, _ readPath) {
		ctx := testCtx(t, 30*time.Second)
		s := snapshot(t, p)
		apple, cherry := refByName(t, s, "Apple"), refByName(t, s, "Cherry")
		if _, err := p.Drag(ctx, apple, cherry); err != nil {
			t.Fatalf("Drag %s → %s: %v", apple, cherry, err)
		}
		if s = snapshot(t, p); !strings.Contains(s.String(), `"order: Banana, Cherry, Apple, Damson"`) {
			t.Errorf("the drag did not move the item:\n%s", s)
		}
		for _, c := range []struct{ look, outcome string }{
			{"(swatch) blue #0000ff", "picked blue"},
			{"red #ff0000 rectangle", "clicked the rectangle"},
			{"blue #0000ff triangle", "clicked the triangle"},
			{"green #008000 circle", "clicked the circle"},
		} {
			ref := refContaining(t, s, c.look)
			if _, err := p.Click(ctx, ref); err != nil {
				t.Fatalf("Click %s: %v", ref, err)
			}
			if s = snapshot(t, p); !strings.Contains(s.String(), strconv.Quote(c.outcome)) {
				t.Errorf("clicking %s (%s) did not land:\n%s", ref, c.look, s)
			}
		}
	})
}

// A swatch is named by the colour word a person would say for it, not by
// the nearest of a few RGB points: a plain green (#51d651) is "green", a
// pale one "light green", a deep red "dark red", on both read paths. So
// "pick every shade of green" is answered from the names.
func TestWebtasksShadesNamedAsSeen(t *testing.T) {
	t.Parallel()
	onReadPaths(t, "webtasks-drag-shapes.html", func(t *testing.T, p *rodagent.Page, _ readPath) {
		ctx := testCtx(t, 30*time.Second)
		s := snapshot(t, p)
		for _, c := range []struct{ hex, word string }{
			{"#51d651", "green"}, {"#ddb1b1", "pink"}, {"#a1d4a1", "light green"}, {"#8888ce", "blue"},
			{"#891010", "dark red"}, {"#2f6b2f", "dark green"}, {"#444444", "dark gray"},
		} {
			ref := refContaining(t, s, c.hex)
			r, _ := s.Ref(ref)
			if !strings.HasSuffix(r.Name, " "+c.word+" "+c.hex) {
				t.Errorf("%s is named %q, want it to end in %q", ref, r.Name, c.word+" "+c.hex)
			}
		}
		// a box among a sentence's words is read there by its colour; the
		// boxes of a board are refs, and not repeated in the text
		text := s.FullText()
		if !strings.Contains(text, `text "Pick every shade of green, or the [color light green #a1d4a1] one, or the [color blue #0000ff] one."`) {
			t.Errorf("the sentence's swatches should read as their colours:\n%s", text)
		}
		if strings.Contains(text, "[color green #51d651]") {
			t.Errorf("a board's boxes are refs, not text:\n%s", text)
		}
		refContaining(t, s, "(chip) blue #0000ff") // the clickable one is named by its colour too
		ref := refContaining(t, s, "light green #a1d4a1")
		if _, err := p.Click(ctx, ref); err != nil {
			t.Fatalf("Click %s: %v", ref, err)
		}
		if s = snapshot(t, p); !strings.Contains(s.String(), `"picked shade 3"`) {
			t.Errorf("clicking %s did not land:\n%s", ref, s)
		}
	})
}

// refContaining is the handle of the only ref whose name holds part.
func refContaining(t *testing.T, s *rodagent.Snapshot, part string) string {
	t.Helper()
	var found []string
	for _, r := range s.Refs {
		if strings.Contains(r.Name, part) {
			found = append(found, r.Ref)
		}
	}
	if len(found) != 1 {
		t.Fatalf("%d refs named with %q (%v):\n%s", len(found), part, found, s.FullText())
	}
	return found[0]
}

func lines(text string) []string { return strings.Split(text, "\n") }

// lineWith is the index of the first line of text holding part, or -1.
func lineWith(text, part string) int {
	for i, l := range lines(text) {
		if strings.Contains(l, part) {
			return i
		}
	}
	return -1
}

// A long field value shows its end as well as its start: the last word of
// a passage is in the snapshot line, on both read paths.
func TestWebtasksLongValueShowsItsEnd(t *testing.T) {
	t.Parallel()
	onReadPaths(t, "webtasks-task-panel.html", func(t *testing.T, p *rodagent.Page, _ readPath) {
		s := snapshot(t, p)
		notes := refNamed(t, s, "textbox", "Notes")
		line := lines(s.String())[lineWith(s.String(), notes)]
		if !strings.Contains(line, `value="Long notes`) || !strings.Contains(line, `zephyr"`) {
			t.Errorf("the value's start or end is missing: %s\n%s", line, s)
		}
	})
}

// A feed's "more" icon opens a menu that was a hidden list beside it, with
// the pointer cursor only under the mouse: after the click the menu's items
// are in the delta, and the one for the right post acts, on both read paths.
func TestWebtasksMoreMenuOpensItems(t *testing.T) {
	t.Parallel()
	onReadPaths(t, "webtasks-more-menu.html", func(t *testing.T, p *rodagent.Page, _ readPath) {
		ctx := testCtx(t, 30*time.Second)
		s := snapshot(t, p)
		text := s.String()
		second := lineWith(text, `"@bob Second post."`)
		var more string
		for _, l := range lines(text)[second+1:] {
			if strings.HasPrefix(l, "el-icon-button-more") {
				more, _, _ = strings.Cut(l, " ")
				break
			}
		}
		if second < 0 || more == "" {
			t.Fatalf("no more icon after the second post:\n%s", text)
		}
		if _, err := p.Click(ctx, more); err != nil {
			t.Fatalf("Click %s: %v", more, err)
		}
		s = snapshot(t, p)
		mute := refByName(t, s, "Mute @bob")
		if !strings.Contains(s.String(), "+ "+mute) {
			t.Errorf("the opened menu's item is not added in the delta:\n%s", s)
		}
		if _, err := p.Click(ctx, mute); err != nil {
			t.Fatalf("Click %s: %v", mute, err)
		}
		if s = snapshot(t, p); !strings.Contains(s.String(), `"mute @bob"`) {
			t.Errorf("the menu item did not act:\n%s", s)
		}
	})
}

// A board of look-alike cells (a game's squares, a plot's points) reads
// as a grid: each cell's line says its row and column, so "row 2, column
// 3" names one ref; a mark drawn from an icon class reads in the sentence
// that shows it. On both read paths.
func TestWebtasksBoardCellsCarryTheirPlace(t *testing.T) {
	t.Parallel()
	onReadPaths(t, "webtasks-board.html", func(t *testing.T, p *rodagent.Page, _ readPath) {
		s := snapshot(t, p)
		text := s.String()
		if !strings.Contains(text, "[icon skip forward]") {
			t.Errorf("the icon in the instruction is not read:\n%s", text)
		}
		var cell string
		for _, r := range s.Refs {
			if r.Cell == "row 2/3, col 3/3" {
				cell = r.Ref
			}
		}
		if at := lineWith(text, cell+" "); cell == "" || at < 0 || !strings.Contains(lines(text)[at], "at row 2/3, col 3/3") {
			t.Fatalf("no cell at row 2, col 3 on its line:\n%s", text)
		}
		if _, err := p.Click(testCtx(t, 30*time.Second), cell); err != nil {
			t.Fatalf("Click %s: %v", cell, err)
		}
		if s = snapshot(t, p); !strings.Contains(s.String(), `"took row 2 col 3"`) {
			t.Errorf("the click did not take the cell:\n%s", s)
		}
	})
}

// An icon with no box yet (a hover swapped its image, not yet loaded) is
// clicked once it has a box that holds still, within the deadline, rather
// than failing with zero_rect at once.
func TestWebtasksClickWaitsForABox(t *testing.T) {
	t.Parallel()
	onReadPaths(t, "webtasks-board.html", func(t *testing.T, p *rodagent.Page, _ readPath) {
		s := snapshot(t, p)
		like := refByName(t, s, "Like")
		eval(t, p, "shrinkLike()", nil)
		if _, err := p.Click(testCtx(t, 30*time.Second), like); err != nil {
			t.Fatalf("Click %s: %v", like, err)
		}
		if s = snapshot(t, p); !strings.Contains(s.String(), `"liked"`) {
			t.Errorf("the click did not land:\n%s", s)
		}
	})
}

// A digit or letter drawn in an SVG picture among others like it is named
// by its colour, as a shape is: "click on a green digit" is answered from
// the names, on both read paths, and the click lands on the green 7, not
// the blue one.
func TestWebtasksGlyphsNamedByColour(t *testing.T) {
	t.Parallel()
	onReadPaths(t, "webtasks-click-shape.html", func(t *testing.T, p *rodagent.Page, _ readPath) {
		ctx := testCtx(t, 30*time.Second)
		s := snapshot(t, p)
		for _, want := range []string{"blue #0000ff 7", "green #008000 7", "red #ff0000 b", "green #008000 q", "red #ff0000 circle"} {
			refContaining(t, s, want)
		}
		ref := refContaining(t, s, "green #008000 7")
		if st, err := p.Click(ctx, ref); err != nil || !st.OK() {
			t.Fatalf("Click %s: %s %v", ref, st, err)
		}
		if s = snapshot(t, p); !strings.Contains(s.String(), `"clicked green 7"`) {
			t.Errorf("clicking %s did not land on the green 7:\n%s", ref, s)
		}
	})
}
