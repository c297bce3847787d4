package ax

import (
	"cmp"
	"math"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf16"

	"github.com/go-rod/rod/lib/proto"
)

// DOMInfo is what the DOM snapshot tells about one element.
type DOMInfo struct {
	Stable      string // "#id", "[data-testid=…]" or "[name=…]"
	Bounds      Box    // border box in the coordinates of its own document
	HasBounds   bool
	Doc         int // index into DOMIndex.Docs
	Tag         string
	Pointer     bool // cursor:pointer set on the element itself (not inherited from its parent)
	Placeholder string
	TestID      string
	Parent      proto.DOMBackendNodeID // parent element (a shadow root's host), 0 at a document root
	Clips       bool                   // clips its overflow (a scrolling list, overflow:hidden): its box bounds what it holds
	Position    string                 // the CSS position, "" when it has no box
	Current     string                 // aria-current, "" when absent or "false"
	Sort        string                 // aria-sort, "" when absent or "none"
	Tabbable    bool                   // a tabindex of 0 or more puts it in the tab order
	HasTabIndex bool                   // a tabindex attribute of any value, -1 included
	Labelled    bool                   // it has aria-label or aria-labelledby
	RowCount    int                    // aria-rowcount: -1 or a count of rows, 0 when absent or not a count
	Range       rangeAttrs             // what it says of its value, if it is a range (slider, spin button, …)
	AriaInvalid bool                   // aria-invalid set to anything but "false"
	Required    bool                   // the required attribute, or aria-required="true"
}

// rangeAttrs are the attributes a range widget states its value with: the
// ARIA ones, and an <input>'s own type, min and max.
type rangeAttrs struct {
	Now, Text, Min, Max        string // aria-valuenow, aria-valuetext, aria-valuemin, aria-valuemax
	Type, NativeMin, NativeMax string // an <input>'s type, min and max
}

// DocInfo is one document of a DOM snapshot.
type DocInfo struct {
	FrameID proto.PageFrameID
	URL     string
	ScrollX float64
	ScrollY float64
	Owner   proto.DOMBackendNodeID // the <iframe> in the parent document, for child documents
}

// DOMIndex maps backend node ids of one process's documents to their DOM facts.
type DOMIndex struct {
	Nodes map[proto.DOMBackendNodeID]DOMInfo
	Order []proto.DOMBackendNodeID // elements in document order
	Docs  []DocInfo
	Texts []DOMText // text nodes with something to read, in document order
	// TextParent is the element each text node sits in: the AX tree shows
	// a text node under its nearest ancestor the tree includes, which is not
	// always its element.
	TextParent map[proto.DOMBackendNodeID]proto.DOMBackendNodeID
}

// DOMText is a text node and the element it sits in.
type DOMText struct {
	Parent proto.DOMBackendNodeID
	Value  string
}

// SnapshotStyles are the computed styles a DOM snapshot must ask for (and
// the order IndexDOM reads them in).
var SnapshotStyles = []string{"cursor", "overflow-x", "overflow-y", "position"}

// IndexDOM reads a DOMSnapshot.captureSnapshot result (taken with SnapshotStyles).
func IndexDOM(r *proto.DOMSnapshotCaptureSnapshotResult) *DOMIndex {
	idx := &DOMIndex{Nodes: map[proto.DOMBackendNodeID]DOMInfo{}, TextParent: map[proto.DOMBackendNodeID]proto.DOMBackendNodeID{}}
	if r == nil {
		return idx
	}
	str := func(i proto.DOMSnapshotStringIndex) string {
		if i >= 0 && int(i) < len(r.Strings) {
			return r.Strings[i]
		}
		return ""
	}
	idx.Docs = make([]DocInfo, len(r.Documents))
	for di, d := range r.Documents {
		idx.Docs[di].FrameID = proto.PageFrameID(str(d.FrameID))
		idx.Docs[di].URL = str(d.DocumentURL)
		if d.ScrollOffsetX != nil {
			idx.Docs[di].ScrollX = *d.ScrollOffsetX
		}
		if d.ScrollOffsetY != nil {
			idx.Docs[di].ScrollY = *d.ScrollOffsetY
		}
	}
	for di, d := range r.Documents {
		n := d.Nodes
		if n == nil {
			continue
		}
		if n.ContentDocumentIndex != nil {
			for k, ni := range n.ContentDocumentIndex.Index {
				child := n.ContentDocumentIndex.Value[k]
				if child >= 0 && child < len(idx.Docs) && ni < len(n.BackendNodeID) {
					idx.Docs[child].Owner = n.BackendNodeID[ni]
				}
			}
		}
		layoutOf := map[int]int{}
		if d.Layout != nil {
			for li, ni := range d.Layout.NodeIndex {
				if _, seen := layoutOf[ni]; !seen {
					layoutOf[ni] = li
				}
			}
		}
		style := func(ni, k int) string {
			li, ok := layoutOf[ni]
			if !ok || d.Layout == nil || li >= len(d.Layout.Styles) || len(d.Layout.Styles[li]) <= k {
				return ""
			}
			return str(d.Layout.Styles[li][k])
		}
		cursor := func(ni int) string { return style(ni, 0) }
		for ni, id := range n.BackendNodeID {
			if ni < len(n.NodeType) && n.NodeType[ni] == 3 && ni < len(n.NodeValue) && ni < len(n.ParentIndex) {
				if v := collapse(str(n.NodeValue[ni])); v != "" && n.ParentIndex[ni] >= 0 {
					idx.Texts = append(idx.Texts, DOMText{Parent: n.BackendNodeID[n.ParentIndex[ni]], Value: v})
					idx.TextParent[id] = n.BackendNodeID[n.ParentIndex[ni]]
				}
				continue
			}
			if ni >= len(n.NodeType) || n.NodeType[ni] != 1 { // elements only
				continue
			}
			info := DOMInfo{Doc: di}
			if ni < len(n.NodeName) {
				info.Tag = strings.ToLower(str(n.NodeName[ni]))
			}
			if ni < len(n.Attributes) {
				attrs := n.Attributes[ni]
				info.Stable = stableOf(attrs, str)
				for i := 0; i+1 < len(attrs); i += 2 {
					switch str(attrs[i]) {
					case "placeholder":
						info.Placeholder = str(attrs[i+1])
					case "data-testid", "data-test-id":
						info.TestID = str(attrs[i+1])
					case "aria-current":
						if v := str(attrs[i+1]); v != "false" {
							info.Current = v
						}
					case "aria-sort":
						if v := str(attrs[i+1]); v != "none" {
							info.Sort = v
						}
					case "aria-label", "aria-labelledby":
						info.Labelled = true
					case "aria-invalid":
						info.AriaInvalid = str(attrs[i+1]) != "false"
					case "required":
						info.Required = true
					case "aria-required":
						info.Required = info.Required || str(attrs[i+1]) == "true"
					case "aria-rowcount":
						info.RowCount = DeclaredRows(str(attrs[i+1]))
					case "tabindex":
						v := strings.TrimSpace(str(attrs[i+1]))
						info.HasTabIndex = true
						info.Tabbable = v != "" && v[0] != '-' && v[0] >= '0' && v[0] <= '9' || v != "" && v[0] == '+'
					case "aria-valuenow":
						info.Range.Now = str(attrs[i+1])
					case "aria-valuetext":
						info.Range.Text = str(attrs[i+1])
					case "aria-valuemin":
						info.Range.Min = str(attrs[i+1])
					case "aria-valuemax":
						info.Range.Max = str(attrs[i+1])
					case "type":
						info.Range.Type = strings.ToLower(str(attrs[i+1]))
					case "min":
						info.Range.NativeMin = str(attrs[i+1])
					case "max":
						info.Range.NativeMax = str(attrs[i+1])
					}
				}
			}
			if li, ok := layoutOf[ni]; ok && li < len(d.Layout.Bounds) && len(d.Layout.Bounds[li]) == 4 {
				b := d.Layout.Bounds[li]
				info.Bounds, info.HasBounds = Box{b[0], b[1], b[2], b[3]}, true
			}
			// the parent element; a shadow root stands for its host
			for pi, k := ni, 0; pi < len(n.ParentIndex) && k < 4; k++ {
				pi = n.ParentIndex[pi]
				if pi < 0 || pi >= len(n.BackendNodeID) {
					break
				}
				if pi < len(n.NodeType) && n.NodeType[pi] == 1 {
					info.Parent = n.BackendNodeID[pi]
					break
				}
			}
			info.Position = style(ni, 3)
			if ox, oy := style(ni, 1), style(ni, 2); info.Tag != "html" && info.Tag != "body" && (ox != "" && ox != "visible" || oy != "" && oy != "visible") {
				info.Clips = true
			}
			if c := cursor(ni); c == "pointer" {
				parent := -1
				if ni < len(n.ParentIndex) {
					parent = n.ParentIndex[ni]
				}
				info.Pointer = parent < 0 || cursor(parent) != "pointer"
			}
			idx.Nodes[id] = info
			idx.Order = append(idx.Order, id)
		}
	}
	return idx
}

// generatedID is GENERATED_ID of inventory.js: ids a library makes up per
// load, which cannot re-bind a ref.
var generatedID = regexp.MustCompile(`[:«»]|_r_[0-9a-z]+_|^(radix-|mui-|headlessui-|react-aria|rc[-_]|ember\d|__|mantine-|fui-|pr_id_|ui-id-|j_idt\d|ariakit-)|^(sl|cds|mat|mat-mdc|cdk|chakra|downshift|react-select|el-id|ext-gen|ext-comp|gwt-uid|yui|tippy|select2|dijit|reach|react-tabs|floating-ui|base-ui)[-_].*\d|[-_][0-9a-f]{6,}$|^[0-9]`)

// isGeneratedID is isGeneratedID of inventory.js, for the AX-tree path: a
// library's id (generatedID) or one with a random-looking part.
func isGeneratedID(id string) bool {
	return generatedID.MatchString(id) || randomID(id)
}

// randomID is randomID of inventory.js: a part of the id of five or more
// letters and digits that switches between them at least twice and holds
// no word (four or more letters with a vowel) reads as Math.random() or
// nanoid output, where an authored id reads as words and numbers.
func randomID(id string) bool {
	for _, p := range strings.FieldsFunc(id, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
	}) {
		if len(p) < 5 {
			continue
		}
		flips, run, word := 0, 0, false
		vowel := false
		for i := 0; i < len(p); i++ {
			d := p[i] <= '9'
			if i > 0 && d != (p[i-1] <= '9') {
				flips++
			}
			if d {
				run, vowel = 0, false
				continue
			}
			run++
			if strings.IndexByte("aeiouAEIOU", p[i]) >= 0 {
				vowel = true
			}
			if run >= 4 && vowel {
				word = true
			}
		}
		if flips >= 2 && !word {
			return true
		}
	}
	return false
}

// stableOf picks the attribute a re-rendered element most likely keeps:
// a test id, then an id that does not look generated, then a form name.
func stableOf(attrs proto.DOMSnapshotArrayOfStrings, str func(proto.DOMSnapshotStringIndex) string) string {
	var id, name, testid string
	for i := 0; i+1 < len(attrs); i += 2 {
		k, v := str(attrs[i]), str(attrs[i+1])
		if v == "" {
			continue
		}
		switch k {
		case "data-testid", "data-test-id", "data-test", "data-qa", "data-cy":
			if testid == "" {
				testid = "[" + k + "=" + v + "]"
			}
		case "id":
			if !isGeneratedID(v) {
				id = "#" + v
			}
		case "name":
			name = "[name=" + v + "]"
		}
	}
	switch {
	case testid != "":
		return testid
	case id != "":
		return id
	}
	return name
}

// AttachDOM fills in the stable attribute and box of items from a DOM
// snapshot of their session, boxes in the frame's viewport (its document's
// scroll taken off).
func AttachDOM(items []Item, dom *DOMIndex) {
	if dom == nil {
		return
	}
	cl := &clipper{dom: dom, regions: map[proto.DOMBackendNodeID]clipRegion{}}
	for i := range items {
		it := &items[i]
		if it.Node == 0 {
			continue
		}
		di, ok := dom.Nodes[it.Node]
		if !ok {
			continue
		}
		it.Stable = di.Stable
		if it.Kind == KindRef {
			it.State.Current, it.State.Sort = di.Current, di.Sort
			rangeState(it, di)
			it.State.Value = capUTF16(it.State.Value, maxValue)
		}
		if di.HasBounds {
			doc := dom.Docs[di.Doc]
			it.Box = Box{X: di.Bounds.X - doc.ScrollX, Y: di.Bounds.Y - doc.ScrollY, W: di.Bounds.W, H: di.Bounds.H}
			it.HasBox = true
		}
		if it.Kind == KindRef {
			it.Clip, it.HasClip = cl.limit(it.Node)
		}
	}
}

// rangeRoles state a value within a range.
var rangeRoles = map[string]bool{"slider": true, "spinbutton": true, "progressbar": true, "scrollbar": true, "meter": true}

// rangeState states a range widget's value as the page wrote it, the way
// the in-page inventory does (extrasOf and valueOf in inventory.js): the
// number a person reads is aria-valuetext when there is one ("25.0 degrees
// Celsius", "thirtieth"), and its bounds are the page's own strings.
// Chromium's tree gives the bare numbers ("25", "10") and, for a text field
// that is a spin button, repeats the value as its value text.
func rangeState(it *Item, di DOMInfo) {
	if !rangeRoles[it.Role] {
		return
	}
	r, st := di.Range, &it.State
	st.ValueText = r.Text
	if di.Tag == "input" {
		st.ValueMin, st.ValueMax = r.NativeMin, r.NativeMax
		if st.ValueMin == "" {
			st.ValueMin = r.Min
		}
		if st.ValueMax == "" {
			st.ValueMax = r.Max
		}
		if r.Type == "range" {
			st.ValueMin, st.ValueMax = cmp.Or(st.ValueMin, "0"), cmp.Or(st.ValueMax, "100")
		}
		return
	}
	st.ValueMin, st.ValueMax = r.Min, r.Max
	if it.Role != "meter" && di.Tag != "textarea" {
		st.Value = cmp.Or(r.Text, r.Now)
	}
}

// maxValue is how much of a value a ref carries (in UTF-16 units, as the
// in-page inventory counts): a text area's whole text is page text enough.
const maxValue = 200

func capUTF16(s string, n int) string {
	if len(s) <= n {
		return s
	}
	u := utf16.Encode([]rune(s))
	if len(u) <= n {
		return s
	}
	return string(utf16.Decode(u[:n]))
}

// clipper computes where elements can be seen: what the ancestors that clip
// their overflow leave of the frame's viewport. It follows the in-page
// inventory's regionOf/limitOf (inventory.js) step for step, rounding as it
// does, so both read paths say the same "in view": change both or neither.
type clipper struct {
	dom     *DOMIndex
	regions map[proto.DOMBackendNodeID]clipRegion
}

type clipRegion struct {
	box Box
	ok  bool // false: no clip
}

// limit is the region element id shows in: that of its parent, or for an
// absolutely positioned element that of its containing block; none for a
// fixed one.
func (c *clipper) limit(id proto.DOMBackendNodeID) (Box, bool) { return c.limitAt(id, 0) }

// region is the rectangle in which a's in-flow content shows.
func (c *clipper) region(a proto.DOMBackendNodeID, depth int) clipRegion {
	if r, ok := c.regions[a]; ok {
		return r
	}
	var r clipRegion
	if depth < maxDepth {
		r.box, r.ok = c.limitAt(a, depth)
	}
	if di := c.dom.Nodes[a]; di.Clips && di.HasBounds {
		doc := c.dom.Docs[di.Doc]
		b := Box{X: jsRound(di.Bounds.X - doc.ScrollX), Y: jsRound(di.Bounds.Y - doc.ScrollY), W: jsRound(di.Bounds.W), H: jsRound(di.Bounds.H)}
		if !r.ok {
			r = clipRegion{b, true}
		} else {
			l, t := max(r.box.X, b.X), max(r.box.Y, b.Y)
			r.box = Box{X: l, Y: t, W: max(0, min(r.box.X+r.box.W, b.X+b.W)-l), H: max(0, min(r.box.Y+r.box.H, b.Y+b.H)-t)}
		}
	}
	c.regions[a] = r
	return r
}

// limitAt is limit at a depth of the recursion, which it bounds.
func (c *clipper) limitAt(id proto.DOMBackendNodeID, depth int) (Box, bool) {
	di, ok := c.dom.Nodes[id]
	if !ok || di.Position == "fixed" {
		return Box{}, false
	}
	p := di.Parent
	if di.Position == "absolute" {
		for k := 0; p != 0 && k < maxDepth; k++ {
			pi := c.dom.Nodes[p]
			if pi.Tag == "html" || pi.Position != "static" && pi.Position != "" {
				break
			}
			p = pi.Parent
		}
	}
	if p == 0 {
		return Box{}, false
	}
	r := c.region(p, depth+1)
	return r.box, r.ok
}

// jsRound rounds as JavaScript's Math.round does (halves up, -2.5 to -2).
func jsRound(x float64) float64 { return math.Floor(x + 0.5) }

// Items flattens one frame's AX nodes and fills in what its session's DOM
// snapshot knows (stable attributes, boxes, pointer cursors), dom may be nil.
func Items(nodes []*proto.AccessibilityAXNode, dom *DOMIndex) []Item {
	return ItemsWithText(nodes, dom, nil)
}

// ItemsWithText is Items with the frame's page text (TextFrame, by the
// element holding each piece) placed where its element stands in the tree.
func ItemsWithText(nodes []*proto.AccessibilityAXNode, dom *DOMIndex, texts map[proto.DOMBackendNodeID]Item) []Item {
	var clickable func(proto.DOMBackendNodeID) bool
	if dom != nil {
		clickable = func(id proto.DOMBackendNodeID) bool { return dom.Nodes[id].Pointer }
	}
	items := flatten(nodes, clickable, dom, texts)
	AttachDOM(items, dom)
	return items
}

// DeclaredRows reads an aria-rowcount value as the in-page walk does: an
// integer of at most nine digits between ASCII spaces, kept when it is -1
// (the table does not know its size) or positive; else 0.
func DeclaredRows(v string) int {
	v = strings.Trim(v, " \t\n\f\r")
	digits := strings.TrimPrefix(v, "-")
	if digits == "" || len(digits) > 9 || strings.Trim(digits, "0123456789") != "" {
		return 0
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < -1 || n == 0 {
		return 0
	}
	return n
}

// GroupLabel splits a table's group as both read paths make it: its label
// (`grid "Orders"`) and the rows it declares (DeclaredRows; 0 for none).
func GroupLabel(group string) (label string, declared int) {
	label, n, ok := strings.Cut(group, "\x00")
	if !ok {
		return group, 0
	}
	declared, _ = strconv.Atoi(n)
	return label, declared
}
