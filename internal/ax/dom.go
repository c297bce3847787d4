package ax

import (
	"regexp"
	"strings"

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
	Parent      proto.DOMBackendNodeID // parent element, 0 at a document root
	Current     string                 // aria-current, "" when absent or "false"
	Sort        string                 // aria-sort, "" when absent or "none"
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
}

// DOMText is a text node and the element it sits in.
type DOMText struct {
	Parent proto.DOMBackendNodeID
	Value  string
}

// SnapshotStyles are the computed styles a DOM snapshot must ask for.
var SnapshotStyles = []string{"cursor"}

// IndexDOM reads a DOMSnapshot.captureSnapshot result (taken with SnapshotStyles).
func IndexDOM(r *proto.DOMSnapshotCaptureSnapshotResult) *DOMIndex {
	idx := &DOMIndex{Nodes: map[proto.DOMBackendNodeID]DOMInfo{}}
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
		cursor := func(ni int) string {
			li, ok := layoutOf[ni]
			if !ok || d.Layout == nil || li >= len(d.Layout.Styles) || len(d.Layout.Styles[li]) == 0 {
				return ""
			}
			return str(d.Layout.Styles[li][0])
		}
		for ni, id := range n.BackendNodeID {
			if ni < len(n.NodeType) && n.NodeType[ni] == 3 && ni < len(n.NodeValue) && ni < len(n.ParentIndex) {
				if v := collapse(str(n.NodeValue[ni])); v != "" && n.ParentIndex[ni] >= 0 {
					idx.Texts = append(idx.Texts, DOMText{Parent: n.BackendNodeID[n.ParentIndex[ni]], Value: v})
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
					}
				}
			}
			if li, ok := layoutOf[ni]; ok && li < len(d.Layout.Bounds) && len(d.Layout.Bounds[li]) == 4 {
				b := d.Layout.Bounds[li]
				info.Bounds, info.HasBounds = Box{b[0], b[1], b[2], b[3]}, true
			}
			if ni < len(n.ParentIndex) && n.ParentIndex[ni] >= 0 && n.ParentIndex[ni] < len(n.BackendNodeID) {
				info.Parent = n.BackendNodeID[n.ParentIndex[ni]]
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

var generatedID = regexp.MustCompile(`[:«»]|^(radix-|mui-|headlessui-|react-aria|rc[-_]|ember\d|__)|[-_][0-9a-f]{6,}$|^[0-9]`)

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
			if !generatedID.MatchString(v) {
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
		}
		if di.HasBounds {
			doc := dom.Docs[di.Doc]
			it.Box = Box{X: di.Bounds.X - doc.ScrollX, Y: di.Bounds.Y - doc.ScrollY, W: di.Bounds.W, H: di.Bounds.H}
			it.HasBox = true
		}
	}
}

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
	items := flatten(nodes, clickable, texts)
	AttachDOM(items, dom)
	return items
}
