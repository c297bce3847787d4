package rodagent

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/rodagent/rodagent/internal/ax"
)

func TestRefLine(t *testing.T) {
	for _, tc := range []struct {
		r    BrowserRef
		want string
	}{
		{BrowserRef{Ref: "btn-sign-in", Role: "button", Name: "Sign in"}, "btn-sign-in"},
		{BrowserRef{Ref: "btn-edit-3", Role: "button", Name: "Edit"}, "btn-edit-3"},
		{BrowserRef{Ref: "inp-email", Role: "textbox", Name: "Email", State: State{Value: "me@x.io", Focused: true}}, `inp-email value="me@x.io" focused`},
		{BrowserRef{Ref: "chk-remember-me", Role: "checkbox", Name: "Remember me", State: State{Checked: "false"}}, "chk-remember-me unchecked"},
		{BrowserRef{Ref: "chk-all", Role: "checkbox", Name: "All", State: State{Checked: "mixed", Disabled: true}}, "chk-all mixed disabled"},
		{BrowserRef{Ref: "lnk-read-the-full-announcement", Role: "link", Name: "Read the full announcement about pricing"}, `lnk-read-the-full-announcement "Read the full announcement about pricing"`},
		{BrowserRef{Ref: "el-card", Role: "generic", Name: "Card"}, "el-card (generic)"},
		{BrowserRef{Ref: "btn-1", Role: "button", Name: ""}, "btn-1"},
		{BrowserRef{Ref: "btn-submit-btn", Role: "button", Name: "Go", Stable: "#submit-btn"}, `btn-submit-btn "Go"`},
		{BrowserRef{Ref: "f1/inp-card-holder", Role: "textbox", Name: "Card holder"}, "f1/inp-card-holder"},
		{BrowserRef{Ref: "cmb-country", Role: "combobox", Name: "Country", State: State{Value: "France", Expanded: "false"}}, `cmb-country value="France" collapsed`},
		{BrowserRef{Ref: "opt-france", Role: "option", Name: "France", State: State{Selected: true}}, "opt-france selected"},
		{BrowserRef{Ref: "inp-q", Role: "textbox", Name: "Q", State: State{Value: "say \"hi\"\nnow", Required: true, Invalid: true}}, `inp-q value="say \"hi\"\nnow" required invalid`},
	} {
		if got := refLine(&tc.r); got != tc.want {
			t.Errorf("refLine(%s) = %q, want %q", tc.r.Ref, got, tc.want)
		}
	}
}

func snapOf(n int) *Snapshot {
	s := &Snapshot{URL: "http://127.0.0.1:1/app?token=secret#x", byRef: map[string]int{}, view: snapConfig{maxChars: 600}}
	s.lines = append(s.lines, line{depth: 0, ref: -1, text: "[main]", kind: lineLandmark, lm: "main", up: -1})
	for i := 0; i < n; i++ {
		r := BrowserRef{Ref: fmt.Sprintf("btn-item-%d", i), Role: "button", Name: fmt.Sprintf("Item %d", i)}
		s.byRef[r.Ref] = len(s.Refs)
		s.Refs = append(s.Refs, r)
		s.lines = append(s.lines, line{depth: 1, ref: i, up: -1, group: "table", row: i + 1})
	}
	return s
}

func TestFullTextCap(t *testing.T) {
	s := snapOf(200)
	out := s.FullText()
	if len(out) > 600+len(SafetyLine)+1 {
		t.Errorf("text of %d chars exceeds its budget of 600 (+ the safety line)", len(out))
	}
	if !strings.Contains(out, "refs not shown") || !strings.Contains(out, "continue from btn-item-") {
		t.Errorf("a capped text must say what it left out and how to narrow:\n%s", out)
	}
	if !strings.HasSuffix(out, SafetyLine+"\n") {
		t.Errorf("text must end with the safety line")
	}
	if strings.Contains(out, "secret") {
		t.Errorf("the header must not show the query string:\n%s", out)
	}
	if small := snapOf(3).FullText(); strings.Contains(small, "not shown") {
		t.Errorf("an uncapped text says nothing is left out:\n%s", small)
	}
}

// Over budget, what an open dialog holds comes first: its heading (a date
// picker's month) and its refs, ahead of the page's text around it.
func TestFullTextDialogFirst(t *testing.T) {
	s := &Snapshot{URL: "http://127.0.0.1:1/", byRef: map[string]int{}, view: snapConfig{maxChars: 2000}}
	s.lines = append(s.lines, line{depth: 0, ref: -1, text: "[main]", kind: lineLandmark, lm: "main", up: -1})
	for i := 0; i < 40; i++ {
		s.lines = append(s.lines, line{depth: 1, ref: -1, text: fmt.Sprintf("text \"Paragraph %d of the documentation around the widget\"", i), kind: lineText, up: -1})
	}
	s.lines = append(s.lines, line{depth: 1, ref: -1, text: `[dialog "Choose Date" modal]`, kind: lineLandmark, lm: `dialog "Choose Date" modal`, up: -1})
	s.lines = append(s.lines, line{depth: 2, ref: -1, text: `## "December 2026"`, kind: lineHeading, up: -1})
	for d := 1; d <= 31; d++ {
		r := BrowserRef{Ref: fmt.Sprintf("cell-%d", d), Role: "gridcell", Name: fmt.Sprint(d), InViewport: true}
		s.byRef[r.Ref] = len(s.Refs)
		s.lines = append(s.lines, line{depth: 2, ref: len(s.Refs), up: -1})
		s.Refs = append(s.Refs, r)
	}
	out := s.FullText()
	for _, want := range []string{`## "December 2026"`, "cell-1 (gridcell)", "cell-31 (gridcell)"} {
		if !strings.Contains(out, want) {
			t.Errorf("over budget, the dialog's %q must show before the page's text:\n%s", want, out)
		}
	}
	if !strings.Contains(out, "Paragraph 39") {
		t.Errorf("what the budget has left goes to the page's text:\n%s", out)
	}
}

// Over budget, the page's outline stays with what it titles: a line shown
// brings the headings it sits under (its section's and the page's title),
// and a section none of whose lines fit leaves its heading out too.
func TestFullTextKeepsOutline(t *testing.T) {
	s := &Snapshot{URL: "http://127.0.0.1:1/", byRef: map[string]int{}, view: snapConfig{maxChars: 2000}}
	add := func(depth int, kind lineKind, text string) {
		s.lines = append(s.lines, line{depth: depth, ref: -1, text: text, kind: kind, up: -1})
	}
	addRef := func(depth int, name string) {
		r := BrowserRef{Ref: "btn-" + name, Role: "button", Name: name, InViewport: true}
		s.byRef[r.Ref] = len(s.Refs)
		s.lines = append(s.lines, line{depth: depth, ref: len(s.Refs), up: -1})
		s.Refs = append(s.Refs, r)
	}
	add(0, lineLandmark, "[main]")
	add(1, lineHeading, `# "Shop"`)
	add(1, lineHeading, `## "Basket"`)
	addRef(1, "checkout")
	add(1, lineHeading, `## "Reviews"`)
	for i := 0; i < 60; i++ {
		add(1, lineText, fmt.Sprintf("text \"Review %d: a long paragraph of praise for the product on this page\"", i))
	}
	add(1, lineHeading, `### "Older reviews"`)
	for i := 0; i < 60; i++ {
		add(1, lineText, fmt.Sprintf("text \"Old review %d: a long paragraph of praise for the product on this page\"", i))
	}
	add(0, lineLandmark, "[contentinfo]")
	add(1, lineHeading, `## "Legal"`)
	add(1, lineText, `text "All rights reserved"`)
	out := s.FullText()
	for _, want := range []string{`# "Shop"`, `## "Basket"`, "btn-checkout", `## "Reviews"`, "Review 0:"} {
		if !strings.Contains(out, want) {
			t.Errorf("over budget, %q must show:\n%s", want, out)
		}
	}
	if strings.Contains(out, "Old review") || strings.Contains(out, "Older reviews") {
		t.Errorf("a section none of whose lines fit shows no heading:\n%s", out)
	}
	head, headUp := s.outline()
	at := func(text string) int {
		for i, l := range s.lines {
			if l.text == text {
				return i
			}
		}
		t.Fatalf("no line %q", text)
		return -1
	}
	for _, c := range []struct {
		line, head string
		up         bool // head is the heading line's headUp
	}{
		{"btn-checkout", `## "Basket"`, false},
		{`## "Reviews"`, `# "Shop"`, true},
		{`### "Older reviews"`, `## "Reviews"`, true},
		{`text "All rights reserved"`, `## "Legal"`, false},
		{`## "Legal"`, "", true}, // a landmark starts an outline of its own
	} {
		i := -1
		if strings.HasPrefix(c.line, "btn-") {
			i = len(s.lines) - 1
			for k, l := range s.lines {
				if l.ref >= 0 && s.Refs[l.ref].Ref == c.line {
					i = k
				}
			}
		} else {
			i = at(c.line)
		}
		got := head[i]
		if c.up {
			got = headUp[i]
		}
		want := -1
		if c.head != "" {
			want = at(c.head)
		}
		if got != want {
			t.Errorf("%s sits under line %d, want %d (%s)", c.line, got, want, c.head)
		}
	}
}

func TestDeltaText(t *testing.T) {
	s := snapOf(3)
	s.Delta = &Delta{
		Added:   []string{"btn-item-2"},
		Removed: []string{"btn-gone"},
		Changed: []RefChange{{Ref: "btn-item-0", Fields: []FieldChange{{"name", "Item 0", "Item zero"}, {"disabled", "false", "true"}}},
			{Ref: "btn-item-1", Fields: []FieldChange{{"checked", "false", "true"}, {"expanded", "true", "false"}}}},
		Rebound: []string{"btn-item-1"},
	}
	s.Refs[2].Landmark = "main"
	want := `page http://127.0.0.1:1 path "/app" (page-set) · 3 refs · changes
+ btn-item-2 in main
- btn-gone
~ btn-item-0 name="Item zero" disabled
~ btn-item-1 checked collapsed
* btn-item-1
` + SafetyLine + "\n"
	if got := s.String(); got != want {
		t.Errorf("delta text:\n%s\nwant:\n%s", got, want)
	}
	s.Delta = &Delta{}
	if got := s.String(); !strings.Contains(got, "no changes") {
		t.Errorf("an empty delta says so:\n%s", got)
	}
	// A ref added inside a ref the agent knows says which (an opened tree
	// item's children); inside one added with it, or none, its landmark.
	s = snapOf(4)
	for i := range s.Refs {
		s.Refs[i].Landmark = "main"
	}
	s.lines[3].up, s.lines[4].up = 1, 3 // item-2 sits in item-0; item-3 in item-2
	s.Delta = &Delta{Added: []string{"btn-item-2", "btn-item-3", "btn-item-1"}}
	for _, want := range []string{"+ btn-item-2 in btn-item-0\n", "+ btn-item-3 in main\n", "+ btn-item-1 in main\n"} {
		if got := s.String(); !strings.Contains(got, want) {
			t.Errorf("the delta should hold %q:\n%s", want, got)
		}
	}
}

// FuzzDeltaText: any delta renders without panicking, one line per change,
// each starting with its mark, and always ends with the safety line.
func FuzzDeltaText(f *testing.F) {
	f.Add("a\x00b\x00c", "x\ny", uint8(7))
	f.Fuzz(func(t *testing.T, names string, value string, mask uint8) {
		parts := strings.Split(names, "\x00")
		s := snapOf(len(parts))
		for i, n := range parts {
			s.Refs[i].Name = n
			s.Refs[i].Value = value
		}
		d := &Delta{}
		for i := range parts {
			switch (int(mask) + i) % 4 {
			case 0:
				d.Added = append(d.Added, s.Refs[i].Ref)
			case 1:
				d.Removed = append(d.Removed, "btn-gone-"+fmt.Sprint(i))
			case 2:
				d.Changed = append(d.Changed, RefChange{Ref: s.Refs[i].Ref, Fields: []FieldChange{{"value", "", value}, {"name", "", parts[i]}}})
			case 3:
				d.Rebound = append(d.Rebound, s.Refs[i].Ref)
			}
		}
		s.Delta = d
		out := s.String()
		lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		if lines[len(lines)-1] != SafetyLine {
			t.Fatalf("last line is not the safety line: %q", lines[len(lines)-1])
		}
		body := lines[1 : len(lines)-1]
		if want := len(d.Added) + len(d.Removed) + len(d.Changed) + len(d.Rebound); len(body) != want && !(want == 0 && len(body) == 1) {
			t.Fatalf("%d lines for %d changes:\n%s", len(body), want, out)
		}
		for _, l := range body {
			if l == "no changes" {
				continue
			}
			if len(l) < 2 || !strings.Contains("+-~*", l[:1]) || l[1] != ' ' {
				t.Fatalf("line %q does not start with a change mark", l)
			}
		}
	})
}

// settleCode is settle.js without its comment lines.
var settleCode = regexp.MustCompile(`(?m)^\s*//.*$`).ReplaceAllString(ax.SettleExpr(), "")

// TestUnsettledNote: a look that stopped waiting with the page still moving
// says so under its header, in delta and full text alike, naming what was
// going; a look at rest says nothing.
func TestUnsettledNote(t *testing.T) {
	for _, tc := range []struct {
		u    Unsettled
		want string
	}{
		{"", ""},
		{UnsettledNoFrames, "the page drew no frame in the 1.5 s this look waited"},
		{UnsettledAnimation, "an animation was still running when this look stopped waiting (1.5 s)"},
		{UnsettledWork, "a timer or request the action started was still running when this look stopped waiting (1.5 s)"},
		{UnsettledDOM, "the page was still changing when this look stopped waiting (1.5 s)"},
	} {
		// the value is one settle.js's code (its comments aside) returns, as it is
		if tc.u != "" && !strings.Contains(settleCode, "'"+string(tc.u)+"'") {
			t.Errorf("settle.js never returns %q", tc.u)
		}
		for _, delta := range []bool{false, true} {
			s := snapOf(2)
			if delta {
				s.Delta = &Delta{}
			}
			s.Unsettled = tc.u
			lines := strings.Split(s.String(), "\n")
			switch {
			case tc.want == "" && strings.Contains(s.String(), "still moving"):
				t.Errorf("a settled look (delta %v) says it is still moving:\n%s", delta, s.String())
			case tc.want != "" && !(strings.HasPrefix(lines[1], "still moving: "+tc.want) && strings.HasSuffix(lines[1], "look again before you judge the action")):
				t.Errorf("%s (delta %v): the line under the header should say %q and to look again:\n%s", tc.u, delta, tc.want, s.String())
			}
		}
	}
}

// A select's choices are quoted one by one, so a label cannot close the
// list or start a line; what is left out is counted.
func TestChoicesText(t *testing.T) {
	for _, c := range []struct {
		labels []string
		total  int
		want   string
	}{
		{[]string{"Pick", "France"}, 2, `["Pick","France"]`},
		{[]string{"1", "2"}, 50, `["1","2"] +48 more`},
		{[]string{`a"],btn-x`, "b\nc"}, 2, `["a\"],btn-x","b\nc"]`},
		{nil, 3, `[] +3 more`},
	} {
		if got := choicesText(c.labels, c.total); got != c.want {
			t.Errorf("choicesText(%q, %d) = %s, want %s", c.labels, c.total, got, c.want)
		}
	}
}
