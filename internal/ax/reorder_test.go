package ax

import (
	"fmt"
	"testing"
)

func TestReorderedRun(t *testing.T) {
	for _, c := range []struct {
		name     string
		old, now string
		want     string
	}{
		{"same order", "abc", "abc", ""},
		{"empty", "", "", ""},
		{"sorted", "apf", "pfa", "pfa"},
		{"reversed", "abcd", "dcba", "dcba"},
		{"one moved to the top", "abcde", "dabce", "dabc"},
		{"two swapped in the middle", "abcde", "adcbe", "dcb"},
		{"added and removed keep the order", "abc", "xacy", ""},
		{"added among a reorder", "abc", "cxab", "cab"},
		{"only one in common", "ab", "bz", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := ReorderedRun([]rune(c.old), []rune(c.now))
			if string(got) != c.want {
				t.Errorf("ReorderedRun(%q, %q) = %q, want %q", c.old, c.now, string(got), c.want)
			}
		})
	}
}

// A list whose rows changed places reports the rows, in their new order,
// and not what they hold; the same rows in the same order report nothing.
func TestRegistryReportsRowsThatMoved(t *testing.T) {
	rows := func(order ...int) []*Element {
		var out []*Element
		for _, n := range order {
			row := ref(n, "row", fmt.Sprint("Person ", n))
			box := ref(100+n, "checkbox", fmt.Sprint("Select person ", n))
			box.Parent = row
			out = append(out, row, box)
		}
		return out
	}
	r := NewRegistry()
	r.Update(rows(1, 2, 3))
	if d := r.Update(rows(1, 2, 3)); len(d.Moved) != 0 {
		t.Errorf("the same order moved %v", d.Moved)
	}
	d := r.Update(rows(3, 2, 1))
	if got := fmt.Sprint(d.Moved); got != "[row-person-3 row-person-2 row-person-1]" {
		t.Errorf("moved = %s, want the three rows in their new order", got)
	}
	if len(d.Added)+len(d.Removed)+len(d.Changed) != 0 {
		t.Errorf("a reorder adds, removes or changes nothing: %+v", d)
	}
}

// Text that changed places is reported "↕" in its new order; text that
// changed as well is "~" too, and keeps its place in the "↕" stretch.
func TestUpdateTextReportsReorders(t *testing.T) {
	entry := func(n int, text string) TextEntry {
		return TextEntry{Key: NodeKey{Frame: "F", Local: n}, Kind: "row", Text: text}
	}
	r := NewRegistry()
	r.UpdateText([]TextEntry{entry(1, "Apple | 3"), entry(2, "Pear | 1"), entry(3, "Fig | 2")})
	got := r.UpdateText([]TextEntry{entry(2, "Pear | 1"), entry(3, "Fig | 2"), entry(1, "Apple | 3 (sale)")})
	var lines []string
	for _, d := range got {
		lines = append(lines, d.Op+" "+d.Text)
	}
	if want := "[~ Apple | 3 (sale) ↕ Pear | 1 ↕ Fig | 2 ↕ Apple | 3 (sale)]"; fmt.Sprint(lines) != want {
		t.Errorf("text diff %v, want %s", lines, want)
	}
	if again := r.UpdateText([]TextEntry{entry(2, "Pear | 1"), entry(3, "Fig | 2"), entry(1, "Apple | 3 (sale)")}); len(again) != 0 {
		t.Errorf("the same order again: %v", again)
	}
}
