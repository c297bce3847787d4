package rodagent

import (
	"strings"
	"testing"

	"github.com/rodagent/rodagent/internal/ax"
)

func TestWithDeclaredRows(t *testing.T) {
	row := func(frame, group string, n int) invLine {
		return invLine{depth: 2, kind: lineText, text: "row", tkind: "row", frame: frame, group: group, row: n}
	}
	ref := func(frame, group string, n int) invLine {
		return invLine{depth: 3, kind: lineRef, frame: frame, elem: &ax.Element{Item: ax.Item{Role: "gridcell", Group: group, Row: n}}}
	}
	heading := invLine{depth: 1, kind: lineHeading, text: `# "Page"`}
	people := `grid "People"` + "\x00" + "1200"
	cases := []struct {
		name  string
		lines []invLine
		want  []string // the text of each line after, refs as "ref"
	}{
		{"more declared than held: a line after the last row, at the first row's depth",
			[]invLine{heading, row("", people, 1), ref("", people, 1), row("", people, 2), ref("", people, 2), heading},
			[]string{`# "Page"`, "row", "ref", "row", "ref",
				`… grid "People" says it has 1,200 rows; 2 are in the page — scroll it or page through it to reach the others`, `# "Page"`}},
		{"as many declared as held: nothing added",
			[]invLine{row("", "table\x002", 1), row("", "table\x002", 2)},
			[]string{"row", "row"}},
		{"no count declared: nothing added",
			[]invLine{row("", `table "Orders"`, 1), row("", `table "Orders"`, 2)},
			[]string{"row", "row"}},
		{"an unknown count",
			[]invLine{row("", "table\x00-1", 1)},
			[]string{"row", "… table does not say how many rows it has; 1 is in the page — scroll it or page through it for more"}},
		{"the same label in two frames is two tables",
			[]invLine{row("", people, 1), row("f1", people, 1), row("f1", people, 2)},
			[]string{"row", `… grid "People" says it has 1,200 rows; 1 is in the page — scroll it or page through it to reach the others`,
				"row", "row", `… grid "People" says it has 1,200 rows; 2 are in the page — scroll it or page through it to reach the others`}},
		{"a tree grid's rows also wait under collapsed rows",
			[]invLine{row("", "treegrid\x0040", 1), row("", "treegrid\x0040", 2)},
			[]string{"row", "row", "… treegrid says it has 40 rows; 2 are in the page — expand its rows or scroll it to reach the others"}},
		{"a label that escapes the line is quoted whole",
			[]invLine{row("", "table \"a\u2028b\"\x005", 1)},
			[]string{"row", `… "table \"a\u2028b\"" says it has 5 rows; 1 is in the page — scroll it or page through it to reach the others`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := len(c.lines)
			out := withDeclaredRows(c.lines)
			if len(c.lines) != before {
				t.Fatalf("the lines given changed")
			}
			var got []string
			for _, l := range out {
				if l.elem != nil {
					got = append(got, "ref")
				} else {
					got = append(got, l.text)
				}
			}
			if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(c.want, "\n"))
			}
		})
	}
}
