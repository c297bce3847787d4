package ax

import (
	"strconv"
	"strings"

	"github.com/go-rod/rod/lib/proto"
)

// Node is any node of a frame's AX tree, exposed or not, as semantic
// locators see it: with its role, name, state and nearest exposed ancestor.
type Node struct {
	Role     string
	Name     string
	Backend  proto.DOMBackendNodeID
	Parent   int // index of the parent node in the slice, -1 at the root
	Ignored  bool
	Hidden   bool   // ignored because a person cannot see it (not rendered, hidden, aria-hidden, inert)
	Landmark string // nearest enclosing landmark: `navigation "Main"`
	State    State
	Ref      bool // it would get a ref in a snapshot
}

// Nodes lists every node of one frame's AX tree in document order, keeping
// the tree shape through Parent.
func Nodes(nodes []*proto.AccessibilityAXNode) []Node {
	if len(nodes) == 0 {
		return nil
	}
	byID := make(map[proto.AccessibilityAXNodeID]*proto.AccessibilityAXNode, len(nodes))
	for _, n := range nodes {
		byID[n.NodeID] = n
	}
	root := nodes[0]
	for _, n := range nodes {
		if n.ParentID == "" || byID[n.ParentID] == nil {
			root = n
			break
		}
	}
	out := make([]Node, 0, len(nodes))
	seen := make(map[proto.AccessibilityAXNodeID]bool, len(nodes))
	var walk func(n *proto.AccessibilityAXNode, parent int, landmark string, inRef bool, depth int)
	walk = func(n *proto.AccessibilityAXNode, parent int, landmark string, inRef bool, depth int) {
		if n == nil || seen[n.NodeID] || depth > maxDepth {
			return
		}
		seen[n.NodeID] = true
		role := str(n.Role)
		if role == "InlineTextBox" {
			return
		}
		name := strings.TrimSpace(collapse(str(n.Name)))
		st := ParseState(n)
		isRef := !n.Ignored && IsInteractive(role, st, name, inRef)
		out = append(out, Node{Role: role, Name: name, Backend: n.BackendDOMNodeID, Parent: parent, Ignored: n.Ignored,
			Hidden: n.Ignored && hiddenReason(n), Landmark: landmark, State: st, Ref: isRef})
		me := len(out) - 1
		if !n.Ignored && isLandmark(role, name) {
			landmark = role
			if name != "" {
				landmark += " " + strconv.Quote(name)
			}
		}
		for _, id := range n.ChildIDs {
			walk(byID[id], me, landmark, inRef || isRef, depth+1)
		}
	}
	walk(root, -1, "", false, 0)
	nameFromContent(out)
	return out
}

// contentNamed are roles whose name a person reads off their content; Chromium
// leaves it empty for table rows and list items, so it is filled in here from
// the text inside, for locators such as ByRole("row", "Invoice 1003").
var contentNamed = map[string]bool{"row": true, "listitem": true, "cell": true, "gridcell": true}

func nameFromContent(ns []Node) {
	children := make([][]int, len(ns))
	for i, n := range ns {
		if n.Parent >= 0 {
			children[n.Parent] = append(children[n.Parent], i)
		}
	}
	var text func(i int, b *strings.Builder)
	text = func(i int, b *strings.Builder) {
		if b.Len() > 200 {
			return
		}
		if ns[i].Role == "StaticText" && !ns[i].Ignored {
			if b.Len() > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(ns[i].Name)
			return
		}
		for _, c := range children[i] {
			text(c, b)
		}
	}
	for i := range ns {
		if ns[i].Name == "" && !ns[i].Ignored && contentNamed[ns[i].Role] {
			var b strings.Builder
			text(i, &b)
			ns[i].Name = collapse(b.String())
		}
	}
}

// Within reports whether node i lies inside node anc (or is it).
func Within(ns []Node, i, anc int) bool {
	for d := 0; i >= 0 && d < maxDepth; d++ {
		if i == anc {
			return true
		}
		i = ns[i].Parent
	}
	return false
}

// hiddenReason reports whether an ignored node is ignored because it cannot
// be seen, rather than because it is folded into another (a label's text).
func hiddenReason(n *proto.AccessibilityAXNode) bool {
	for _, r := range n.IgnoredReasons {
		switch r.Name {
		case "notRendered", "notVisible", "ariaHiddenElement", "ariaHiddenSubtree", "inertElement", "inertSubtree":
			return true
		}
	}
	return len(n.IgnoredReasons) == 0
}
