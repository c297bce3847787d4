// Package ax turns Chromium's accessibility tree into the library's
// inventory: it walks the AX nodes of each frame, keeps the interactive ones
// and the structure around them (landmarks, headings, frames), mints the
// legible handles, re-binds handles to replaced nodes and computes deltas.
//
// It knows CDP and the AX tree, and nothing about actions.
package ax

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/go-rod/rod/lib/proto"
	"github.com/ysmood/gson"
)

// Kind tells what an Item is.
type Kind uint8

// Item kinds.
const (
	KindRef      Kind = iota // an interactive element: gets a handle
	KindLandmark             // banner, navigation, main, … and dialogs: structure
	KindHeading              // a heading: structure
	KindFrame                // an <iframe>: its frame's items follow in their own section
	KindText                 // page text: a paragraph, list item, table row or live region (Role says which)
)

// Item is one line of a frame's inventory, in document order.
type Item struct {
	Kind     Kind
	Depth    int // nesting among landmarks, for indentation
	Role     string
	Name     string
	Level    int // heading level
	Node     proto.DOMBackendNodeID
	State    State
	Landmark string // nearest enclosing landmark, `navigation "Main"`
	Context  string // nearest named container or preceding heading, for telling duplicates apart
	Path     string // structural path such as `table>row:3>cell:2>button:0`
	Stable   string // "#id", "[data-testid=…]" or "[name=…]" when the page offers one
	Box      Box    // border box in CSS px of the frame's viewport (of the top-level one, once placed)
	HasBox   bool
	Clip     Box    // where ancestors that clip their overflow let it show, in Box's coordinates (may be empty)
	HasClip  bool   // some ancestor clips it: only the part of Box inside Clip can be seen
	Local    int    // key of the element in the frame's in-page inventory (fast path), 0 if none
	Group    string // the table or grid it sits in: `table "Orders"`
	Row      int    // its row's number in that table (from 1), 0 outside rows
	Up       int    // 1 + index of the ref item it sits inside, in the same slice; 0 for none
	RawName  string // the accessible name as the browser computed it, when Name is a cleaned form of it
	upLocal  int    // (fast path) Local of that ref, from which Up is recomputed as items come and go
	nested   bool   // (in-page read) Name leaves out the nested items the browser's name holds
	lent     bool   // (in-page read) Name is what a person calls a control the browser leaves unnamed
	covered  bool   // (in-page read) a wrapper the walk took back for the one control inside it
	stoodIn  bool   // (in-page read) a clipped form control a visible widget stands in for (stoodIn)
	onlyShow bool   // (in-page text read) a ref sent only for the text it shows (State.Shows), its State.Error or its State.Choices
	pageText *Item  // (in-page text read) the text a ref holds of its own (a focusable tab panel's)
}

// State is an element's state as the AX tree reports it.
type State struct {
	Value    string
	Shows    string // the text a person reads on it when its name says something else (the in-page read's showsOf)
	Checked  string // "true", "false", "mixed" or "" when not checkable
	Pressed  string
	Expanded string
	Selected bool
	Disabled bool
	Focused  bool
	Readonly bool
	Required bool
	Invalid  bool
	// Choices are the first labels a drop-down <select> offers, of
	// ChoiceCount (the in-page read's choicesOf).
	Choices     []string
	ChoiceCount int
	Error       string // the browser's message for a native field that fails its constraints after the person touched it (the in-page read's errorOf)
	Editable    bool   // takes text: a text field or contenteditable
	Focusable   bool
	Modal       bool
	HasPopup    string
	Owns        bool // aria-owns: the name may repeat what the element owns
	Busy        bool
	Multi       bool   // multiselectable
	Current     string // aria-current: "page", "step", "true", …
	Sort        string // aria-sort: "ascending", "descending", "other"
	Level       string // aria-level, or a tree item's depth
	ValueMin    string
	ValueMax    string
	ValueText   string
}

var interactiveRoles = map[string]bool{
	"button": true, "link": true, "textbox": true, "searchbox": true, "checkbox": true, "radio": true,
	"combobox": true, "listbox": true, "option": true, "tab": true, "menuitem": true, "menuitemcheckbox": true,
	"menuitemradio": true, "slider": true, "spinbutton": true, "switch": true, "treeitem": true,
	"MenuListOption": true, "PopUpButton": true, "ToggleButton": true, "DisclosureTriangle": true,
	"textField": true, "TextField": true, "SearchBox": true, "Date": true, "DateTime": true, "InputTime": true,
	"ColorWell": true,
}

// roles whose children are the browser's own widgetry (the segments of a date
// field, the options of a closed native select): one ref for the control is
// the right grain, and Select or Type operates it.
var opaqueRoles = map[string]bool{"Date": true, "DateTime": true, "InputTime": true, "MenuListPopup": true,
	"ColorWell": true}

// roles that are interactive only when focusable
var focusOnlyRoles = map[string]bool{"gridcell": true, "row": true, "cell": true, "columnheader": true, "rowheader": true}

// composite widgets that are refs with a tabindex of any value
var rovingContainer = map[string]bool{"grid": true, "treegrid": true}

// roles that never get a ref even when focusable: documents, frames and text.
var neverRef = map[string]bool{
	"RootWebArea": true, "WebArea": true, "Iframe": true, "IframePresentational": true, "StaticText": true,
	"InlineTextBox": true, "LineBreak": true, "document": true, "application": false, "none": true,
	"presentation": true, "ListMarker": true, "Canvas": false,
}

var landmarkRoles = map[string]bool{
	"banner": true, "navigation": true, "main": true, "complementary": true, "contentinfo": true,
	"search": true, "form": true, "region": true, "dialog": true, "alertdialog": true,
}

// container roles whose name tells duplicates apart
var contextRoles = map[string]bool{
	"row": true, "listitem": true, "group": true, "article": true, "dialog": true, "alertdialog": true,
	"region": true, "form": true, "tabpanel": true, "menu": true, "listbox": true, "table": true, "grid": true,
	"list": true, "treeitem": true, "radiogroup": true, "toolbar": true, "figure": true, "section": true,
	"complementary": true, "navigation": true, "banner": true, "contentinfo": true, "search": true,
}

// structural roles skipped when building a path
var transparent = map[string]bool{"generic": true, "none": true, "presentation": true, "paragraph": true,
	"LabelText": true, "Section": true, "StaticText": true, "InlineTextBox": true, "Div": true}

// validatedTags are the elements constraint validation checks.
var validatedTags = map[string]bool{"input": true, "select": true, "textarea": true}

// IsInteractive reports whether an element with this role and state gets a
// ref. inRef says an ancestor already has one: the weaker signals (editable,
// focusable) then belong to that ancestor's inner parts, such as the
// editable box inside a text field.
func IsInteractive(role string, st State, name string, inRef bool) bool {
	if neverRef[role] {
		return false
	}
	if interactiveRoles[role] {
		return true
	}
	if focusOnlyRoles[role] {
		return st.Focusable
	}
	if inRef {
		return false
	}
	if st.Editable && !st.Readonly {
		return true // contenteditable regions
	}
	// Anything else the page made focusable (tabindex) and named: a custom control.
	return st.Focusable && name != "" && !landmarkRoles[role]
}

// CleanName is the name a person reads: without private-use glyphs (icon
// fonts draw their icons with them: "\uf07b Projects") and, for an element
// that owns others through aria-owns, without the words the owned elements
// repeat ("About About").
func CleanName(name string, owns bool) string {
	if strings.IndexFunc(name, privateUse) >= 0 {
		name = collapse(strings.TrimSpace(strings.Map(func(r rune) rune {
			if privateUse(r) {
				return ' '
			}
			return r
		}, name)))
	}
	if owns {
		if w := strings.Fields(name); len(w) >= 2 && len(w)%2 == 0 {
			h := len(w) / 2
			if strings.Join(w[:h], " ") == strings.Join(w[h:], " ") {
				name = strings.Join(w[:h], " ")
			}
		}
	}
	return name
}

func privateUse(r rune) bool {
	return r >= 0xE000 && r <= 0xF8FF || r >= 0xF0000 && r <= 0x10FFFD
}

func isLandmark(role, name string) bool {
	switch role {
	case "form", "region":
		return name != "" // unnamed forms and sections are not landmarks
	}
	return landmarkRoles[role]
}

// Flatten walks one frame's AX nodes (as getFullAXTree returns them) and
// returns its inventory in document order. clickable, when not nil, tells
// which other named nodes a person would see as clickable (the page gave them
// a pointer cursor): they get refs too, unless inside another ref.
func Flatten(nodes []*proto.AccessibilityAXNode, clickable func(proto.DOMBackendNodeID) bool) []Item {
	return flatten(nodes, clickable, nil, nil)
}

func flatten(nodes []*proto.AccessibilityAXNode, clickable func(proto.DOMBackendNodeID) bool, dom *DOMIndex, texts map[proto.DOMBackendNodeID]Item) []Item {
	if len(nodes) == 0 {
		return nil
	}
	byID := make(map[proto.AccessibilityAXNodeID]*proto.AccessibilityAXNode, len(nodes))
	for _, n := range nodes {
		byID[n.NodeID] = n
	}
	var root *proto.AccessibilityAXNode
	for _, n := range nodes {
		if n.ParentID == "" || byID[n.ParentID] == nil {
			root = n
			break
		}
	}
	if root == nil {
		root = nodes[0]
	}
	w := walker{byID: byID, items: make([]Item, 0, len(nodes)/8), clickable: clickable, dom: dom, texts: texts,
		seen: make(map[proto.AccessibilityAXNodeID]bool, len(nodes))}
	if dom != nil && texts != nil {
		w.inTree = make(map[proto.DOMBackendNodeID]bool, len(nodes))
		for _, n := range nodes {
			w.inTree[n.BackendDOMNodeID] = true
		}
	}
	w.walk(root, frameCtx{counts: map[string]int{}}, 0)
	return w.items
}

type walker struct {
	byID      map[proto.AccessibilityAXNodeID]*proto.AccessibilityAXNode
	clickable func(proto.DOMBackendNodeID) bool
	dom       *DOMIndex                       // the frame's DOM snapshot, nil when there is none
	texts     map[proto.DOMBackendNodeID]Item // page text by the element holding it
	items     []Item
	heading   string // text of the last heading seen, for context
	seen      map[proto.AccessibilityAXNodeID]bool
	inTree    map[proto.DOMBackendNodeID]bool // elements the AX tree has a node for (with a DOM snapshot and page text)
}

// absentClickable places a clickable the in-page read found (a span with a
// pointer cursor and nothing else) that Chromium keeps no AX node for: its
// text shows in the tree under an ancestor, and the clickable goes where
// that text stands, as on the fast path, walked as a node of its own.
func (w *walker) absentClickable(n *proto.AccessibilityAXNode, c frameCtx, level int) {
	if w.inTree == nil || c.inRef || str(n.Role) != "StaticText" {
		return
	}
	var at proto.DOMBackendNodeID
	for e, k := w.dom.TextParent[n.BackendDOMNodeID], 0; e != 0 && !w.inTree[e] && k < 8; e, k = w.dom.Nodes[e].Parent, k+1 {
		if it, ok := w.texts[e]; ok && it.Kind == KindRef && !it.nested {
			at = e // the outermost counts
		}
	}
	if at == 0 {
		return
	}
	w.inTree[at] = true // placed once
	w.walk(&proto.AccessibilityAXNode{NodeID: proto.AccessibilityAXNodeID(fmt.Sprintf("dom-%d", at)), BackendDOMNodeID: at,
		Role: &proto.AccessibilityAXValue{Type: proto.AccessibilityAXValueTypeRole, Value: gson.New("generic")}}, c, level)
}

// absentText places page text whose element Chromium keeps no AX node
// for (a dialog body's <span>: the tree holds only its text, under the
// body): the text goes where its text node stands, else it would be lost.
func (w *walker) absentText(n *proto.AccessibilityAXNode, c frameCtx) {
	if w.inTree == nil || str(n.Role) != "StaticText" {
		return
	}
	for e, k := w.dom.TextParent[n.BackendDOMNodeID], 0; e != 0 && !w.inTree[e] && k < 8; e, k = w.dom.Nodes[e].Parent, k+1 {
		if it, ok := w.texts[e]; ok && it.Kind == KindText {
			w.text(&proto.AccessibilityAXNode{BackendDOMNodeID: e}, c, c.group, c.row)
			return
		}
	}
}

// boxlessCells are the roles of structure a person sees only through what
// it holds.
var boxlessCells = map[string]bool{"cell": true, "gridcell": true, "columnheader": true, "rowheader": true}

// boxlessCell reports a table or grid cell with no box of its own (display:
// contents: React Aria's tag cells), which nothing can click: the in-page
// read, which sees only what is rendered, gives it no ref either, and what
// it holds is read as the row's.
func (w *walker) boxlessCell(n *proto.AccessibilityAXNode, role string) bool {
	if w.dom == nil || !boxlessCells[role] {
		return false
	}
	di, ok := w.dom.Nodes[n.BackendDOMNodeID]
	return ok && !di.HasBounds && di.Tag != ""
}

// frameCtx is what a node inherits from its significant ancestors.
type frameCtx struct {
	landmark string
	depth    int
	path     string
	context  string
	counts   map[string]int // role → siblings seen so far under the nearest significant ancestor
	inRef    bool           // an ancestor already has a ref
	up       int            // 1 + item index of the nearest ancestor ref
	group    string         // nearest table or grid
	rows     *int           // rows seen so far in it
	row      int
}

const maxDepth = 2000

func (w *walker) walk(n *proto.AccessibilityAXNode, c frameCtx, level int) {
	if n == nil || level > maxDepth || w.seen[n.NodeID] {
		return
	}
	w.seen[n.NodeID] = true
	w.absentClickable(n, c, level)
	w.absentText(n, c)
	role := str(n.Role)
	weak, isWeak := w.texts[n.BackendDOMNodeID]
	isCovered := isWeak && weak.Kind == KindRef && weak.covered
	isStoodIn := isWeak && weak.Kind == KindRef && weak.stoodIn
	// The in-page walk decides where its clickables stand, inside a weaker
	// clickable too (the items of a focusable suggestion list): its verdict holds here.
	isWeak = isWeak && weak.Kind == KindRef && !weak.nested && !weak.covered && !weak.stoodIn && !weak.onlyShow
	if n.Ignored && isWeak {
		role = weak.Role // a clickable the tree leaves out as uninteresting
	} else if n.Ignored || w.boxlessCell(n, role) {
		w.text(n, c, c.group, c.row)
		// An ignored node's children can still be exposed (a hidden wrapper around visible content).
		for _, id := range n.ChildIDs {
			w.walk(w.byID[id], c, level+1)
		}
		return
	}
	name := strings.TrimSpace(collapse(str(n.Name)))
	st := ParseState(n)
	// Chromium calls a native field invalid on its own terms — a required
	// checkbox or select from the start, a text field as soon as it is
	// edited — and a required checkbox or select not required. As on the
	// fast path: invalid is aria-invalid, or the browser's verdict once the
	// person touched the field (the in-page read's message, merged below);
	// required is the attribute.
	if w.dom != nil {
		if di, ok := w.dom.Nodes[n.BackendDOMNodeID]; ok && validatedTags[di.Tag] {
			st.Invalid = di.AriaInvalid
			st.Required = st.Required || di.Required
		}
	}
	significant := !transparent[role] && role != "RootWebArea"
	child := c
	if significant {
		idx := c.counts[role]
		c.counts[role] = idx + 1
		seg := role + ":" + strconv.Itoa(idx)
		if c.path == "" {
			child.path = seg
		} else {
			child.path = c.path + ">" + seg
		}
		child.path = trimPath(child.path)
		child.counts = map[string]int{}
	}
	switch {
	case role == "Iframe" || role == "IframePresentational":
		w.items = append(w.items, Item{Kind: KindFrame, Depth: c.depth, Role: "Iframe", Name: name,
			Node: n.BackendDOMNodeID, Landmark: c.landmark, Path: child.path})
		return
	case isLandmark(role, name):
		lm := role
		if name != "" {
			lm += " " + strconv.Quote(name)
		}
		w.items = append(w.items, Item{Kind: KindLandmark, Depth: c.depth, Role: role, Name: name,
			Node: n.BackendDOMNodeID, Landmark: c.landmark, State: st})
		child.landmark = lm
		child.depth = c.depth + 1
		w.heading = ""
	case role == "heading":
		w.items = append(w.items, Item{Kind: KindHeading, Depth: c.depth, Role: role, Name: name,
			Level: headingLevel(n), Node: n.BackendDOMNodeID, Landmark: c.landmark})
		w.heading = name
	}
	if role == "table" || role == "grid" || role == "treegrid" {
		child.group = role
		if name != "" {
			child.group += " " + strconv.Quote(truncate(name, 60))
		}
		if w.dom != nil {
			if rc := w.dom.Nodes[n.BackendDOMNodeID].RowCount; rc != 0 {
				child.group += "\x00" + strconv.Itoa(rc)
			}
		}
		child.rows, child.row = new(int), 0
	}
	if role == "row" && c.rows != nil {
		*c.rows++
		child.row = *c.rows
	}
	if contextRoles[role] {
		label := name
		if (role == "row" || role == "listitem") && w.dom != nil && !w.dom.Nodes[n.BackendDOMNodeID].Labelled {
			// Chromium names a row by all its cells; a person (and the
			// in-page inventory) tells rows apart by the first one
			label = ""
		}
		if label == "" {
			label = w.firstText(n, 0)
		}
		if label != "" {
			child.context = role + " " + strconv.Quote(truncate(label, 60))
		}
	}
	isRef := IsInteractive(role, st, name, c.inRef)
	if isRef && w.dom != nil && !interactiveRoles[role] && !focusOnlyRoles[role] && !(st.Editable && !st.Readonly) {
		// Made a ref only for being focusable and named: Chromium counts
		// tabindex=-1 (a heading a script moves focus to) and scrolling
		// boxes as focusable, but a person clicks neither. What the page put
		// in the tab order counts, as on the fast path.
		if di, ok := w.dom.Nodes[n.BackendDOMNodeID]; ok && !di.Tabbable {
			isRef = false
		}
	}
	if !isRef && !c.inRef && name != "" && w.clickable != nil && !neverRef[role] && !landmarkRoles[role] &&
		role != "heading" && w.clickable(n.BackendDOMNodeID) {
		isRef = true
	}
	// Every item of a grid or tree grid is a ref, whatever its tabindex,
	// unless it is blank (a date picker's empty days): nothing to act on.
	// A cell that holds the control a person clicks (a date picker's day
	// button) is that control, as on the fast path.
	if !isRef && name != "" && (role == "gridcell" || role == "columnheader" || role == "rowheader") &&
		(strings.HasPrefix(c.group, "grid") || strings.HasPrefix(c.group, "treegrid")) && !w.onlyControls(n, 0) {
		isRef = true
	}
	// An empty cell outside the tab order (a date picker's blank days,
	// tabindex=-1) is nothing to act on, as on the fast path.
	if isRef && name == "" && (role == "gridcell" || role == "columnheader" || role == "rowheader") && w.dom != nil {
		if di, ok := w.dom.Nodes[n.BackendDOMNodeID]; ok && !di.Tabbable {
			isRef = false
		}
	}
	if !isRef && role == "row" && strings.HasPrefix(c.group, "treegrid") {
		isRef = true
	}
	// A sorted column's header: a person clicks it to sort, and its sort
	// order is its state (the AX tree carries no aria-sort: the DOM does).
	if !isRef && (role == "columnheader" || role == "rowheader") && w.dom != nil && w.dom.Nodes[n.BackendDOMNodeID].Sort != "" {
		isRef = true
	}
	if !isRef && isWeak && !neverRef[role] && !landmarkRoles[role] && role != "heading" {
		isRef = true
		if name == "" {
			name = weak.Name
		}
		// The in-page rules found it, and name its role as they do: a
		// <label> standing in for its hidden input is "generic" there and
		// Chromium's internal "LabelText" here.
		role = weak.Role
	}
	// The box a library draws around the field that is the combobox
	// (Vuetify's v-field, role=combobox, around its input role=combobox):
	// the field is the one ref, as on the fast path.
	if isRef && role == "combobox" && name == "" && w.dom != nil {
		if di, ok := w.dom.Nodes[n.BackendDOMNodeID]; ok && !di.HasTabIndex && di.Tag != "input" && di.Tag != "select" && !st.Editable && w.holdsRole(n, "combobox", 0) {
			isRef = false
		}
	}
	// A grid whose focus roves between it and its items (React Aria's grid
	// is tabindex=0 until focus is inside, then -1) stays one ref through
	// the move, as its items with any tabindex do: the table did not go.
	if !isRef && !c.inRef && rovingContainer[role] && w.dom != nil && w.dom.Nodes[n.BackendDOMNodeID].HasTabIndex {
		isRef = true
	}
	// A wrapper the in-page walk took back for the one control inside it
	// (a custom element's focusable, labelled host around its checkbox):
	// the control is the ref, as on the fast path.
	if isRef && isCovered && !interactiveRoles[role] {
		isRef = false
	}
	// A form control clipped to 1 px inside a visible widget that shows a
	// control of its own (PrimeReact's hidden input and <select> beside its
	// drawn trigger): the widget is what a person acts on, as on the fast path.
	if isRef && isStoodIn {
		isRef = false
	}
	// A toggle role on a box outside the tab order, around the native
	// checkbox a person's click and focus reach: the input is the ref, as on
	// the fast path.
	if isRef && (role == "checkbox" || role == "switch" || role == "radio") && w.dom != nil {
		if di, ok := w.dom.Nodes[n.BackendDOMNodeID]; ok && di.Tag != "input" && !di.Tabbable && w.holdsToggleInput(n, 0) {
			isRef = false
		}
	}
	if isRef && !st.Selected && (role == "button" || role == "link") {
		// the control standing for its grid cell carries the cell's selection
		if p := w.byID[n.ParentID]; p != nil && !p.Ignored {
			if pr := str(p.Role); (pr == "gridcell" || pr == "columnheader" || pr == "rowheader") && ParseState(p).Selected {
				st.Selected = true
			}
		}
	}
	// An editing host no role marks (Quill's editor, a bare contenteditable
	// div: Chromium's "generic") is a field a person types into: a textbox,
	// as on the fast path, and an empty editor's lone line break no value.
	if isRef && st.Editable && !st.Readonly && role == "generic" && !c.inRef {
		role = "textbox"
	}
	if isRef && st.Editable && st.Value != "" && strings.TrimSpace(st.Value) == "" && w.dom != nil {
		if di, ok := w.dom.Nodes[n.BackendDOMNodeID]; ok && di.Tag != "input" && di.Tag != "textarea" {
			st.Value = "" // an empty editor's lone line break (TipTap's, CodeMirror's too)
		}
	}
	if isRef && role == "combobox" && !st.Editable && w.dom != nil {
		if di, ok := w.dom.Nodes[n.BackendDOMNodeID]; ok && di.Tag != "select" && di.Tag != "input" && di.Range.Text == "" {
			st.Value = choiceShown(st.Value, name)
		}
	}
	if isRef {
		child.inRef = true
		ctxName := c.context
		if ctxName == "" && w.heading != "" {
			ctxName = "heading " + strconv.Quote(truncate(w.heading, 60))
		}
		clean := CleanName(name, st.Owns)
		raw := ""
		if clean != name {
			raw = name
		}
		// An expanded tree item or a menu item with its submenu: the
		// in-page read names it as a person reads it, without its nested
		// items' text (Chromium's name may hold it), so it reads and is
		// handled the same open or closed.
		if t, ok := w.texts[n.BackendDOMNodeID]; ok && t.Kind == KindRef && t.nested && t.Name != "" {
			clean, raw = t.Name, name
			if raw == clean {
				raw = ""
			}
		}
		// A control Chromium leaves unnamed that the page names for a
		// person (the checkbox inside a labelled custom element, a field
		// after its text): the in-page read's name, as on the fast path.
		if t, ok := w.texts[n.BackendDOMNodeID]; ok && t.Kind == KindRef && t.lent && name == "" {
			clean = t.Name
		}
		// The text a person reads on it, where its name says something
		// else: the in-page read's, as on the fast path.
		if t, ok := w.texts[n.BackendDOMNodeID]; ok && t.Kind == KindRef {
			st.Shows = t.State.Shows
			// The browser's message for a field that fails its constraints,
			// which the AX tree does not carry.
			if t.State.Error != "" {
				st.Invalid, st.Error = true, t.State.Error
			}
			st.Choices, st.ChoiceCount = t.State.Choices, t.State.ChoiceCount
		}
		w.items = append(w.items, Item{Kind: KindRef, Depth: c.depth, Role: role, Name: clean, RawName: raw,
			Node: n.BackendDOMNodeID, State: st, Landmark: c.landmark, Context: ctxName, Path: child.path,
			Group: child.group, Row: child.row, Up: c.up})
		child.up = len(w.items)
	}
	w.text(n, c, child.group, child.row)
	if opaqueRoles[role] {
		return
	}
	for _, id := range n.ChildIDs {
		w.walk(w.byID[id], child, level+1)
	}
}

// choiceShown is what a person reads as the choice of a combobox that is
// neither a field nor a <select>, from Chromium's value: all the text
// inside it, with the label a field draws in its own box (Material's
// outlined select: the label Color rests in the empty field and floats above
// the choice once there is one; Chromium's value reads "Color" and
// "Color Blue") left out, as on the fast path, which reads the text the page
// put in the control.
func choiceShown(value, name string) string {
	v := strings.TrimSpace(collapse(value))
	if name == "" {
		return v
	}
	if v == name {
		return ""
	}
	if strings.HasPrefix(v, name+" ") {
		return v[len(name)+1:]
	}
	return v
}

// text places the page text held by n's element, if any, at n.
func (w *walker) text(n *proto.AccessibilityAXNode, c frameCtx, group string, row int) {
	if w.texts == nil || n.BackendDOMNodeID == 0 {
		return
	}
	it, ok := w.texts[n.BackendDOMNodeID]
	if ok && it.Kind == KindRef && it.pageText != nil {
		held := *it.pageText
		it.pageText = nil
		w.texts[n.BackendDOMNodeID] = it
		it = held
	} else if !ok || it.Kind != KindText {
		return
	} else {
		delete(w.texts, n.BackendDOMNodeID)
	}
	it.Depth, it.Landmark, it.Group, it.Row = c.depth, c.landmark, group, row
	it.Up = c.up
	w.items = append(w.items, it)
}

// firstText finds what names an unnamed container for a person: its row
// header, first cell, heading or first text, a few levels down.
func (w *walker) firstText(n *proto.AccessibilityAXNode, depth int) string {
	if n == nil || depth > 4 {
		return ""
	}
	for _, id := range n.ChildIDs {
		c := w.byID[id]
		if c == nil || c.Ignored && len(c.ChildIDs) == 0 {
			continue
		}
		switch str(c.Role) {
		case "rowheader", "cell", "gridcell", "columnheader":
			if w.holdsControl(c, 0) {
				continue // a cell with a control in it: the control's name says nothing about which row it is
			}
			if name := strings.TrimSpace(collapse(str(c.Name))); name != "" {
				return name
			}
		case "heading", "StaticText", "LabelText":
			if name := strings.TrimSpace(collapse(str(c.Name))); name != "" {
				return name
			}
		case "button", "link", "checkbox", "radio", "textbox", "combobox", "menuitem", "option", "switch":
			continue // a control's own name says nothing about which row it is
		}
		// nor does a form field's value (a spin button's "1"), as on the fast path
		if w.dom != nil {
			if di, ok := w.dom.Nodes[c.BackendDOMNodeID]; ok && (di.Tag == "input" || di.Tag == "select" || di.Tag == "textarea") {
				continue
			}
		}
		if s := w.firstText(c, depth+1); s != "" {
			return s
		}
	}
	return ""
}

// holdsToggleInput reports whether a shown native checkbox or radio (an
// <input>, whatever role it carries) sits inside n.
func (w *walker) holdsToggleInput(n *proto.AccessibilityAXNode, depth int) bool {
	if n == nil || depth > 4 {
		return false
	}
	for _, id := range n.ChildIDs {
		c := w.byID[id]
		if c == nil {
			continue
		}
		if r := str(c.Role); !c.Ignored && (r == "checkbox" || r == "switch" || r == "radio") {
			if di, ok := w.dom.Nodes[c.BackendDOMNodeID]; ok && di.Tag == "input" {
				return true
			}
		}
		if w.holdsToggleInput(c, depth+1) {
			return true
		}
	}
	return false
}

// holdsControl reports whether a control (a button, link, field) sits inside n.
func (w *walker) holdsControl(n *proto.AccessibilityAXNode, depth int) bool {
	if n == nil || depth > 6 {
		return false
	}
	for _, id := range n.ChildIDs {
		c := w.byID[id]
		if c == nil {
			continue
		}
		switch str(c.Role) {
		case "button", "link", "checkbox", "radio", "textbox", "searchbox", "combobox", "listbox", "spinbutton",
			"slider", "switch", "PopUpButton", "ToggleButton":
			return true
		}
		if w.holdsControl(c, depth+1) {
			return true
		}
	}
	return false
}

// onlyControls reports whether n holds a control and all the text in it is
// inside its controls (a calendar cell holding its day's button).
func (w *walker) onlyControls(n *proto.AccessibilityAXNode, depth int) bool {
	if n == nil || depth > 6 {
		return false
	}
	held := false
	for _, id := range n.ChildIDs {
		c := w.byID[id]
		if c == nil {
			continue
		}
		switch r := str(c.Role); {
		case interactiveRoles[r]:
			held = true
		case r == "StaticText" || r == "InlineTextBox":
			if !c.Ignored && strings.TrimSpace(str(c.Name)) != "" {
				return false
			}
		default:
			if w.hasText(c, depth+1) {
				if !w.onlyControls(c, depth+1) {
					return false
				}
				held = true
			}
		}
	}
	return held
}

// hasText reports whether n holds visible text or a control.
func (w *walker) hasText(n *proto.AccessibilityAXNode, depth int) bool {
	if n == nil || depth > 8 {
		return false
	}
	if r := str(n.Role); interactiveRoles[r] || (r == "StaticText" && !n.Ignored && strings.TrimSpace(str(n.Name)) != "") {
		return true
	}
	for _, id := range n.ChildIDs {
		if w.hasText(w.byID[id], depth+1) {
			return true
		}
	}
	return false
}

// trimPath keeps the last four segments: enough to tell structure apart,
// short enough not to change whenever a distant ancestor does.
func trimPath(p string) string {
	n := 0
	for i := len(p) - 1; i >= 0; i-- {
		if p[i] == '>' {
			n++
			if n == 4 {
				return p[i+1:]
			}
		}
	}
	return p
}

func headingLevel(n *proto.AccessibilityAXNode) int {
	for _, p := range n.Properties {
		if p.Name == proto.AccessibilityAXPropertyNameLevel && p.Value != nil {
			return p.Value.Value.Int()
		}
	}
	return 0
}

// ParseState reads the state properties of an AX node.
func ParseState(n *proto.AccessibilityAXNode) State {
	var st State
	if n.Value != nil {
		st.Value = valueString(n.Value)
	}
	for _, p := range n.Properties {
		if p.Value == nil {
			continue
		}
		v := p.Value.Value
		switch p.Name {
		case proto.AccessibilityAXPropertyNameChecked:
			st.Checked = tristate(p.Value)
		case proto.AccessibilityAXPropertyNamePressed:
			st.Pressed = tristate(p.Value)
		case proto.AccessibilityAXPropertyNameExpanded:
			st.Expanded = tristate(p.Value)
		case proto.AccessibilityAXPropertyNameSelected:
			st.Selected = v.Bool()
		case proto.AccessibilityAXPropertyNameDisabled:
			st.Disabled = v.Bool()
		case proto.AccessibilityAXPropertyNameFocused:
			st.Focused = v.Bool()
		case proto.AccessibilityAXPropertyNameFocusable:
			st.Focusable = v.Bool()
		case proto.AccessibilityAXPropertyNameReadonly:
			st.Readonly = v.Bool()
		case proto.AccessibilityAXPropertyNameRequired:
			st.Required = v.Bool()
		case proto.AccessibilityAXPropertyNameInvalid:
			s := v.Str()
			st.Invalid = s != "" && s != "false"
		case proto.AccessibilityAXPropertyNameEditable:
			st.Editable = v.Str() != ""
		case proto.AccessibilityAXPropertyNameModal:
			st.Modal = v.Bool()
		case proto.AccessibilityAXPropertyNameOwns:
			st.Owns = true
		case proto.AccessibilityAXPropertyNameBusy:
			st.Busy = v.Bool()
		case proto.AccessibilityAXPropertyNameMultiselectable:
			st.Multi = v.Bool()
		case proto.AccessibilityAXPropertyNameLevel:
			st.Level = valueString(p.Value)
		case proto.AccessibilityAXPropertyNameValuemin:
			st.ValueMin = valueString(p.Value)
		case proto.AccessibilityAXPropertyNameValuemax:
			st.ValueMax = valueString(p.Value)
		case proto.AccessibilityAXPropertyNameValuetext:
			st.ValueText = valueString(p.Value)
		case proto.AccessibilityAXPropertyNameHasPopup:
			if s := v.Str(); s != "false" {
				st.HasPopup = s
			}
		}
	}
	// Chromium gives every list item its list's nesting level; the page-side
	// read (and a person) sees a level on tree items and aria-level only, so
	// a clickable list item reads the same on both paths.
	if n.Role != nil && n.Role.Value.Str() == "listitem" {
		st.Level = ""
	}
	return st
}

func tristate(v *proto.AccessibilityAXValue) string {
	if v.Type == proto.AccessibilityAXValueTypeTristate || v.Type == proto.AccessibilityAXValueTypeToken ||
		v.Type == proto.AccessibilityAXValueTypeString {
		s := v.Value.Str()
		switch s {
		case "true", "false", "mixed":
			return s
		}
		return ""
	}
	if v.Value.Bool() {
		return "true"
	}
	return "false"
}

func valueString(v *proto.AccessibilityAXValue) string {
	if v == nil {
		return ""
	}
	val := v.Value.Val()
	switch x := val.(type) {
	case string:
		return x
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case bool:
		return strconv.FormatBool(x)
	case nil:
		return ""
	default:
		return v.Value.JSON("", "")
	}
}

func str(v *proto.AccessibilityAXValue) string {
	if v == nil {
		return ""
	}
	return v.Value.Str()
}

func collapse(s string) string {
	if !strings.ContainsAny(s, "\n\t\r  ") {
		return s
	}
	return strings.Join(strings.Fields(s), " ")
}

func truncate(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}

// holdsRole reports whether a node below n, a few levels down, has role.
func (w *walker) holdsRole(n *proto.AccessibilityAXNode, role string, depth int) bool {
	if depth > 8 {
		return false
	}
	for _, id := range n.ChildIDs {
		c := w.byID[id]
		if c == nil {
			continue
		}
		if !c.Ignored && str(c.Role) == role {
			return true
		}
		if w.holdsRole(c, role, depth+1) {
			return true
		}
	}
	return false
}
