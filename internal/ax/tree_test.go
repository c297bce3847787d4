package ax

import (
	"fmt"
	"strings"
	"testing"

	"github.com/go-rod/rod/lib/proto"
	"github.com/ysmood/gson"
)

// node builds an AX node: id, parent, role, name, backend id, and properties
// as "name=value" pairs.
type tnode struct {
	id, parent string
	role, name string
	backend    int
	ignored    bool
	props      []string
	value      string
}

func build(ns []tnode) []*proto.AccessibilityAXNode {
	var out []*proto.AccessibilityAXNode
	byID := map[string]*proto.AccessibilityAXNode{}
	for _, n := range ns {
		a := &proto.AccessibilityAXNode{NodeID: proto.AccessibilityAXNodeID(n.id), Ignored: n.ignored,
			ParentID: proto.AccessibilityAXNodeID(n.parent), BackendDOMNodeID: proto.DOMBackendNodeID(n.backend),
			Role: &proto.AccessibilityAXValue{Type: "role", Value: gson.New(n.role)},
			Name: &proto.AccessibilityAXValue{Type: "computedString", Value: gson.New(n.name)}}
		if n.value != "" {
			a.Value = &proto.AccessibilityAXValue{Type: "string", Value: gson.New(n.value)}
		}
		for _, p := range n.props {
			k, v, _ := strings.Cut(p, "=")
			var val any = v
			switch v {
			case "true":
				val = true
			case "false":
				val = false
			}
			typ := proto.AccessibilityAXValueTypeBoolean
			if k == "checked" || k == "expanded" || k == "pressed" {
				typ = proto.AccessibilityAXValueTypeTristate
				val = v
			}
			if k == "level" {
				typ, val = proto.AccessibilityAXValueTypeInteger, 2
			}
			if k == "editable" {
				typ = proto.AccessibilityAXValueTypeToken
			}
			a.Properties = append(a.Properties, &proto.AccessibilityAXProperty{Name: proto.AccessibilityAXPropertyName(k),
				Value: &proto.AccessibilityAXValue{Type: typ, Value: gson.New(val)}})
		}
		byID[n.id] = a
		out = append(out, a)
	}
	for _, n := range ns {
		if p := byID[n.parent]; p != nil {
			p.ChildIDs = append(p.ChildIDs, proto.AccessibilityAXNodeID(n.id))
		}
	}
	return out
}

func render(items []Item) string {
	var b strings.Builder
	for _, it := range items {
		switch it.Kind {
		case KindRef:
			fmt.Fprintf(&b, "%sref %s %q @%s ctx=%s\n", strings.Repeat(" ", it.Depth), it.Role, it.Name, it.Landmark, it.Context)
		case KindLandmark:
			fmt.Fprintf(&b, "%s[%s %q]\n", strings.Repeat(" ", it.Depth), it.Role, it.Name)
		case KindHeading:
			fmt.Fprintf(&b, "%s#%d %s\n", strings.Repeat(" ", it.Depth), it.Level, it.Name)
		case KindFrame:
			fmt.Fprintf(&b, "%sframe %q node=%d\n", strings.Repeat(" ", it.Depth), it.Name, it.Node)
		}
	}
	return b.String()
}

func TestFlatten(t *testing.T) {
	nodes := build([]tnode{
		{id: "1", role: "RootWebArea", name: "Page"},
		{id: "2", parent: "1", role: "banner"},
		{id: "3", parent: "2", role: "link", name: "Home", backend: 3},
		{id: "4", parent: "1", role: "main"},
		{id: "5", parent: "4", role: "heading", name: "Invoices", props: []string{"level=2"}},
		{id: "6", parent: "4", role: "generic", ignored: true},
		{id: "7", parent: "6", role: "button", name: "Export", backend: 7}, // under an ignored wrapper: still shown
		{id: "8", parent: "4", role: "row", name: "Invoice 1003"},
		{id: "9", parent: "8", role: "button", name: "Edit", backend: 9},
		{id: "10", parent: "4", role: "textbox", name: "Email", backend: 10, props: []string{"focusable=true", "editable=plaintext"}, value: "a@b.c"},
		{id: "11", parent: "10", role: "generic", props: []string{"editable=plaintext"}, backend: 11}, // inner editor: no ref
		{id: "12", parent: "4", role: "generic", name: "Card", backend: 12, props: []string{"focusable=true"}},
		{id: "13", parent: "4", role: "generic", name: "Tile", backend: 13}, // clickable by cursor
		{id: "14", parent: "4", role: "combobox", name: "Country", backend: 14, props: []string{"expanded=false"}},
		{id: "15", parent: "14", role: "MenuListPopup"},
		{id: "16", parent: "15", role: "option", name: "France", backend: 16}, // a closed native select's options: no refs
		{id: "17", parent: "4", role: "Iframe", name: "Payment", backend: 17},
		{id: "18", parent: "4", role: "button", name: "Hidden", backend: 18, ignored: true},
		{id: "19", parent: "4", role: "checkbox", name: "Agree", backend: 19, props: []string{"checked=true", "disabled=true"}},
		{id: "20", parent: "4", role: "form"}, // unnamed form: not a landmark
		{id: "21", parent: "1", role: "contentinfo"},
	})
	items := Flatten(nodes, func(id proto.DOMBackendNodeID) bool { return id == 13 })
	want := `[banner ""]
 ref link "Home" @banner ctx=
[main ""]
 #2 Invoices
 ref button "Export" @main ctx=heading "Invoices"
 ref button "Edit" @main ctx=row "Invoice 1003"
 ref textbox "Email" @main ctx=heading "Invoices"
 ref generic "Card" @main ctx=heading "Invoices"
 ref generic "Tile" @main ctx=heading "Invoices"
 ref combobox "Country" @main ctx=heading "Invoices"
 frame "Payment" node=17
 ref checkbox "Agree" @main ctx=heading "Invoices"
[contentinfo ""]
`
	if got := render(items); got != want {
		t.Errorf("Flatten:\n%s\nwant:\n%s", got, want)
	}
	for _, it := range items {
		if it.Role == "checkbox" && (it.State.Checked != "true" || !it.State.Disabled) {
			t.Errorf("checkbox state = %+v", it.State)
		}
		if it.Role == "textbox" && (it.State.Value != "a@b.c" || !it.State.Editable) {
			t.Errorf("textbox state = %+v", it.State)
		}
	}
}

func TestFlattenSurvivesHostileShapes(t *testing.T) {
	// A cycle and a very deep chain must not hang or blow the stack.
	deep := []tnode{{id: "0", role: "RootWebArea"}}
	for i := 1; i < 5000; i++ {
		deep = append(deep, tnode{id: fmt.Sprint(i), parent: fmt.Sprint(i - 1), role: "generic"})
	}
	deep = append(deep, tnode{id: "x", parent: "4999", role: "button", name: "Deep", backend: 1})
	if items := Flatten(build(deep), nil); len(items) > 1 {
		t.Errorf("items past the depth limit: %d", len(items))
	}
	cyc := build([]tnode{{id: "1", role: "RootWebArea"}, {id: "2", parent: "1", role: "button", name: "A", backend: 2}})
	cyc[1].ChildIDs = append(cyc[1].ChildIDs, "1") // a child pointing back at the root
	if items := Flatten(cyc, nil); len(items) != 1 {
		t.Errorf("a cycle must be walked once: %d items", len(items))
	}
	if Flatten(nil, nil) != nil {
		t.Errorf("no nodes, no items")
	}
}

// The in-page read's verdicts the AX path takes: a control Chromium leaves
// unnamed gets the name a person reads for it (lent), a wrapper the walk
// took back for the control inside it is no ref (covered), and an item the
// page marks that Chromium takes for a generic box is a ref (a weak row).
func TestFlattenTakesInPageVerdicts(t *testing.T) {
	nodes := build([]tnode{
		{id: "1", role: "RootWebArea", name: "Page"},
		{id: "2", parent: "1", role: "main"},
		{id: "3", parent: "2", role: "generic", name: "Send me the newsletter", backend: 3, props: []string{"focusable=true"}},
		{id: "4", parent: "3", role: "checkbox", name: "", backend: 4},
		{id: "5", parent: "2", role: "combobox", name: "", backend: 5},
		{id: "6", parent: "2", role: "generic", name: "", backend: 6},
		{id: "7", parent: "2", role: "textbox", name: "Email", backend: 7},
	})
	texts := map[proto.DOMBackendNodeID]Item{
		3: {Kind: KindRef, Role: "generic", Name: "Send me the newsletter", covered: true},
		4: {Kind: KindRef, Role: "checkbox", Name: "Send me the newsletter", lent: true},
		5: {Kind: KindRef, Role: "combobox", Name: "Select a speed", lent: true},
		6: {Kind: KindRef, Role: "option", Name: "Fast"},
		7: {Kind: KindRef, Role: "textbox", Name: "Check-in:", lent: true}, // the browser's name wins
	}
	items := flatten(nodes, nil, nil, texts)
	want := `[main ""]
 ref checkbox "Send me the newsletter" @main ctx=
 ref combobox "Select a speed" @main ctx=
 ref option "Fast" @main ctx=
 ref textbox "Email" @main ctx=
`
	if got := render(items); got != want {
		t.Errorf("flatten:\n%s\nwant:\n%s", got, want)
	}
}

// The trailing fields of a ref row: the browser's name when the shown one
// differs (nested), then 1 for a lent name or 2 for a covered wrapper.
func TestRowItemTrailingFlags(t *testing.T) {
	base := "0\t0\t1\t1\tName\t0\t\t0\t0\t10\t10\t1\t\t0\t0\t0\t0\t-1"
	pad := "\t\t\t\t\t\t\t\t\t\t"
	for _, tc := range []struct {
		row                   string
		raw                   string
		nested, lent, covered bool
	}{
		{base, "", false, false, false},
		{base + pad + "\tName with children", "Name with children", true, false, false},
		{base + pad + "\t\t1", "", false, true, false},
		{base + pad + "\t\t2", "", false, false, true},
	} {
		var rows [][]string
		for _, r := range rowsOf(tc.row) {
			rows = append(rows, r)
		}
		if len(rows) != 1 {
			t.Fatalf("%q: %d rows", tc.row, len(rows))
		}
		it, ok := rowItem(rows[0], nil, 0, []string{"checkbox"})
		if !ok || it.RawName != tc.raw || it.nested != tc.nested || it.lent != tc.lent || it.covered != tc.covered {
			t.Errorf("%q: ok=%v raw=%q nested=%v lent=%v covered=%v", tc.row, ok, it.RawName, it.nested, it.lent, it.covered)
		}
	}
}

func TestChoiceShown(t *testing.T) {
	for _, c := range []struct{ value, name, want string }{
		{"Color \u00a0", "Color", ""},     // Material's empty select: its label rests in the box
		{"Color Blue", "Color", "Blue"},   // the label floats above the choice
		{"Blue", "Color", "Blue"},         // the page's text only
		{"Colorful", "Color", "Colorful"}, // a word that begins with the name is no label
		{"  Apple  ", "", "Apple"},        // unnamed: the text as it is
		{"Size M", "Size M", ""},          // the name alone is no choice
		{"Choose a fruit", "Fruit", "Choose a fruit"},
	} {
		if got := choiceShown(c.value, c.name); got != c.want {
			t.Errorf("choiceShown(%q, %q) = %q, want %q", c.value, c.name, got, c.want)
		}
	}
}

func TestDeclaredRows(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int
	}{
		{"16", 16}, {" 9 ", 9}, {"\t1200\n", 1200}, {"-1", -1}, {"0", 0}, {"-2", 0}, {"", 0}, {"many", 0},
		{"12px", 0}, {"1.5", 0}, {"+3", 0}, {"-", 0}, {"1234567890", 0}, {"999999999", 999999999},
		{"\u00a016", 0}, // JS's \s would take a no-break space; the walk's pattern takes ASCII spaces only
	} {
		if got := DeclaredRows(c.in); got != c.want {
			t.Errorf("DeclaredRows(%q) = %d, want %d", c.in, got, c.want)
		}
	}
}

func TestGroupLabel(t *testing.T) {
	for _, c := range []struct {
		in, label string
		declared  int
	}{
		{`grid "People"` + "\x00" + "1200", `grid "People"`, 1200},
		{"table\x00-1", "table", -1},
		{`table "Orders"`, `table "Orders"`, 0},
		{"", "", 0},
	} {
		label, n := GroupLabel(c.in)
		if label != c.label || n != c.declared {
			t.Errorf("GroupLabel(%q) = %q, %d; want %q, %d", c.in, label, n, c.label, c.declared)
		}
	}
}
