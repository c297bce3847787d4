package rodagent_test

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/rodagent/rodagent"
)

// What the snapshot prints of component-library widgets, on both read
// paths: one ref per thing a person clicks, rows of controls as rows, the
// handle of an item that a library re-renders in place naming the item it
// shows now, and separate blocks of text on separate lines.
func TestSeeComponentWidgetsAsAPersonDoes(t *testing.T) {
	t.Parallel()
	type check struct {
		page   string
		act    func(t *testing.T, p *rodagent.Page, s *rodagent.Snapshot) // nil: the first look
		want   []string                                                   // printed lines (regexps, one per line)
		reject []string
	}
	click := func(role, name string) func(t *testing.T, p *rodagent.Page, s *rodagent.Snapshot) {
		return func(t *testing.T, p *rodagent.Page, s *rodagent.Snapshot) {
			if _, err := p.Click(testCtx(t, 30*time.Second), refNamed(t, s, role, name)); err != nil {
				t.Fatal(err)
			}
		}
	}
	checks := []check{
		// a: a day is one ref, the button; a week reads as one row; the
		// picked day says it is selected
		{page: "components/day-picker.html",
			want:   []string{`^ *row btn-sunday-june-2nd-2024 btn-monday-june-3rd-2024 btn-tuesday-june-4th-2024 `},
			reject: []string{`\(gridcell\)`, `^ *cell-`}},
		{page: "components/day-picker.html", act: click("button", "Saturday, June 15th, 2024"),
			want:   []string{`btn-saturday-june-15th-2024\S* [^\n]*\bselected\b`, `status "checkin=2024-06-15"`},
			reject: []string{`\(gridcell\)`}},
		{page: "components/aria-datepicker.html", act: click("button", "Calendar Event date"),
			want:   []string{`^ *row btn-sunday-june-2-2024 .*btn-monday-june-3-2024-selected ("[^"]*" )?selected\b`},
			reject: []string{`\(gridcell\)`}},
		// b: the star rating is its radios
		{page: "components/mui-rating.html", want: []string{`^ *rad-4-stars unchecked$`}, reject: []string{`\(generic\)`, `text "1 Star"`}},
		// c: a select's frame is no ref of its own
		{page: "components/react-select.html", act: click("combobox", "Flavour"),
			want: []string{`opt-pistachio`}, reject: []string{`\(generic\)`}},
		{page: "components/antd-select.html", want: []string{`^ *cmb-city collapsed`}, reject: []string{`\(generic\)`}},
		// d: the shown tab panel is named by its tab, and its handle says so
		{page: "components/radix-tabs.html", act: click("tab", "Billing"),
			want: []string{`billing`}, reject: []string{`^[+~] \S*account\S* .*name="Billing"`}},
		// e, f: a tree's folder and a suggestion list's items are one ref each
		{page: "webtasks-nested-clickables.html",
			want:   []string{`^ *el-apple \(listitem\)$`, `^ *el-recipes \(listitem\)$`},
			reject: []string{`\(list\)`, `el-apple-apricot`}},
		{page: "components/antd-tree.html", want: []string{`^ *tri-caret-down-folder-documents collapsed`}, reject: []string{`\(tree\)`}},
		// h: the task's sentence and the score panel beside it are separate lines
		{page: "blocks.html", want: []string{`^text "Click on the \\"Submit\\" button\."$`, `^text "Last reward:"$`}},
	}
	for _, c := range checks {
		for _, rp := range readPaths {
			name := rp.name + "/" + c.page
			if c.act != nil {
				name += "/after"
			}
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				p := open(t, c.page)
				rp.set(p)
				if strings.HasPrefix(c.page, "components/") {
					waitReady(t, p)
				}
				s := snapshot(t, p)
				if c.act != nil {
					c.act(t, p, s)
					s = snapshot(t, p)
				}
				// what the agent reads next, and the whole page after it
				for i, text := range []string{s.String(), snapshot(t, p, rodagent.WithFull()).String()} {
					for _, w := range c.want {
						if i == 0 && c.act != nil {
							break // a delta prints what moved; the full read prints the rest
						}
						if !regexp.MustCompile(`(?m)` + w).MatchString(text) {
							t.Errorf("no line matches %s:\n%s", w, text)
						}
					}
					for _, r := range c.reject {
						if m := regexp.MustCompile(`(?m)` + r).FindString(text); m != "" {
							t.Errorf("%q should not be printed (%s):\n%s", m, r, text)
						}
					}
				}
			})
		}
	}
}
