package ax

import (
	"strconv"
	"strings"

	"github.com/go-rod/rod/lib/proto"
)

// Registry keeps the handles of one document (one main-frame document of a
// tab): which handle names which node, every handle ever minted, and the last
// state of each live element, from which deltas are computed.
type Registry struct {
	minter *Minter
	live   map[string]*Element
	byNode map[NodeKey]string
	byDOM  map[NodeKey]string // by backend node id, for elements keyed otherwise
	order  []string
	shown  bool                // a snapshot of this document has been returned
	moved  map[string]bool     // handles re-bound by actions since the last snapshot
	away   map[NodeKey]string  // handles of elements that left; the same node coming back gets its handle again
	left   map[string]*Element // the elements behind those handles
	texts  []TextEntry         // the page text of the last inventory, in document order
}

// TextEntry is one piece of page text of an inventory: a paragraph, a table
// row, a live region.
type TextEntry struct {
	Key      NodeKey
	Kind     string // "text", "row", "status", "alert", "log", "marquee", "timer"
	Text     string
	Landmark string
}

// TextDiff is one piece of page text that appeared ("+"), changed ("~"),
// changed places ("↕") or went away ("-") between two inventories.
type TextDiff struct {
	Op string
	TextEntry
}

// UpdateText records the page text of a fresh inventory and returns what
// changed since the previous one, in document order (what went away last).
// Text is known by the element that holds it; an empty live region counts,
// so the line it later shows reads as a change of that region.
func (r *Registry) UpdateText(ts []TextEntry) []TextDiff {
	old := make(map[NodeKey]TextEntry, len(r.texts))
	for _, t := range r.texts {
		old[t.Key] = t
	}
	var out []TextDiff
	seen := make(map[NodeKey]bool, len(ts))
	for _, t := range ts {
		seen[t.Key] = true
		o, had := old[t.Key]
		switch {
		case !had || (o.Text == "" && o.Kind != t.Kind):
			if t.Text != "" {
				out = append(out, TextDiff{Op: "+", TextEntry: t})
			}
		case o.Text != t.Text || o.Kind != t.Kind:
			if t.Text == "" && !isLive(t.Kind) {
				out = append(out, TextDiff{Op: "-", TextEntry: o})
			} else if o.Text == "" && !isLive(t.Kind) {
				out = append(out, TextDiff{Op: "+", TextEntry: t})
			} else {
				out = append(out, TextDiff{Op: "~", TextEntry: t})
			}
		}
	}
	// Text that stands in a new order (a table sorted by its rows' nodes
	// moving) is news too: "↕" for each piece of the reordered stretch, in
	// its new order — a piece that also changed too, or the stretch would
	// read as complete without it.
	oldKeys := make([]NodeKey, 0, len(r.texts))
	for _, o := range r.texts {
		if o.Text != "" {
			oldKeys = append(oldKeys, o.Key)
		}
	}
	nowKeys := make([]NodeKey, 0, len(ts))
	byKey := make(map[NodeKey]TextEntry, len(ts))
	for _, t := range ts {
		if t.Text != "" {
			nowKeys = append(nowKeys, t.Key)
			byKey[t.Key] = t
		}
	}
	if run := ReorderedRun(oldKeys, nowKeys); len(run) > 1 {
		for _, k := range run {
			out = append(out, TextDiff{Op: "↕", TextEntry: byKey[k]})
		}
	}
	for _, o := range r.texts {
		if !seen[o.Key] && o.Text != "" {
			out = append(out, TextDiff{Op: "-", TextEntry: o})
		}
	}
	r.texts = ts
	return out
}

func isLive(kind string) bool {
	switch kind {
	case "status", "alert", "log", "marquee", "timer":
		return true
	}
	return false
}

// ApplyText applies text diffs to the text of an earlier inventory, keyed by
// element: what a reader of the deltas alone knows of the page's text.
func ApplyText(old map[NodeKey]string, d []TextDiff) map[NodeKey]string {
	out := make(map[NodeKey]string, len(old)+len(d))
	for k, v := range old {
		out[k] = v
	}
	for _, x := range d {
		if x.Op == "-" {
			delete(out, x.Key)
		} else {
			out[x.Key] = x.Text
		}
	}
	return out
}

// NewRegistry returns an empty registry for a new document.
func NewRegistry() *Registry {
	return &Registry{minter: NewMinter(), live: map[string]*Element{}, byNode: map[NodeKey]string{},
		byDOM: map[NodeKey]string{}, moved: map[string]bool{}, away: map[NodeKey]string{}, left: map[string]*Element{}}
}

// Field is one changed field of an element: name, value, checked, expanded,
// pressed, selected or disabled.
type Field struct {
	Name string
	Old  string
	New  string
}

// Change lists what changed on one element.
type Change struct {
	Handle string
	Fields []Field
}

// Diff is what moved between two snapshots of a document.
type Diff struct {
	Added   []string // handles, in document order
	Removed []string
	Changed []Change
	Rebound []string // handles whose element was replaced by a new node
	Full    bool     // the caller should show the full inventory instead
	Focus   string   // the handle that has focus now, when focus moved since the last inventory
	Blurred bool     // focus left every ref
	Moved   []string // refs that changed places (ReorderedRun), outermost only, in their new order
}

// ReorderedRun returns the stretch of now, in now's order, whose order
// differs from old's: of the items both hold, from the first that stands
// elsewhere to the last. A sorted table, a reversed list, a card dragged to
// the top: the same elements, in a new order, which no added, removed or
// changed item says. Empty when the common items keep their order.
func ReorderedRun[T comparable](old, now []T) []T {
	inNow := make(map[T]bool, len(now))
	for _, x := range now {
		inNow[x] = true
	}
	inOld := make(map[T]bool, len(old))
	var a []T // old's items that now still holds, in old's order
	for _, x := range old {
		if inNow[x] && !inOld[x] {
			inOld[x] = true
			a = append(a, x)
		}
	}
	var b []T // the same items in now's order
	seen := make(map[T]bool, len(a))
	for _, x := range now {
		if inOld[x] && !seen[x] {
			seen[x] = true
			b = append(b, x)
		}
	}
	first, last := -1, -1
	for i := range b {
		if a[i] != b[i] {
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	if first < 0 {
		return nil
	}
	return b[first : last+1]
}

// Lookup returns the live element behind handle h.
func (r *Registry) Lookup(h string) (*Element, bool) {
	e, ok := r.live[h]
	return e, ok
}

// Left returns the element behind a handle that left the page in an earlier
// snapshot (its last known state).
func (r *Registry) Left(h string) (*Element, bool) {
	e, ok := r.left[h]
	return e, ok
}

// Issued reports whether h was ever minted in this document.
func (r *Registry) Issued(h string) bool { return r.minter.Used(h) }

// HandleOf returns the handle currently naming node k.
func (r *Registry) HandleOf(k NodeKey) (string, bool) {
	h, ok := r.byNode[k]
	if !ok && k.Local == 0 {
		h, ok = r.byDOM[k]
	}
	return h, ok
}

// SetNode records the backend node id of a live element found after the
// snapshot (the in-page inventory gives ids for what is in view only).
func (r *Registry) SetNode(h string, id proto.DOMBackendNodeID) {
	if e := r.live[h]; e != nil && id != 0 {
		e.Node = id
		r.byDOM[NodeKey{Frame: e.Frame, Node: id}] = h
	}
}

// Rebind records that handle h now names element e (an action found it).
func (r *Registry) Rebind(h string, e *Element) {
	if old := r.live[h]; old != nil {
		delete(r.byNode, old.Key())
	}
	e.Handle = h
	r.live[h] = e
	r.byNode[e.Key()] = h
	if e.Node != 0 {
		r.byDOM[NodeKey{Frame: e.Frame, Node: e.Node}] = h
	}
	r.moved[h] = true
}

// Update assigns handles to a fresh inventory and returns what moved since
// the previous one. An element keeps its handle while its node lives; a node
// replaced by another that the ladder recognises passes its handle on
// (rebound); anything else gets a new handle, never one used before.
func (r *Registry) Update(elems []*Element) Diff {
	var d Diff
	claimed := make(map[string]bool, len(elems))
	var fresh []*Element
	for _, e := range elems {
		h, ok := r.byNode[e.Key()]
		if !ok && e.Local == 0 && e.Node != 0 {
			// read from the AX tree after the in-page inventory (a frame
			// that grew a closed shadow root): the same node keeps its handle
			h, ok = r.byDOM[NodeKey{Frame: e.Frame, Node: e.Node}]
		}
		if ok && !claimed[h] && r.live[h] != nil && r.live[h].Role == e.Role && !renamedItem(r.live[h], e) {
			e.Handle = h
			claimed[h] = true
			continue
		}
		fresh = append(fresh, e)
	}
	var vanished []*Element
	for _, h := range r.order {
		if e := r.live[h]; e != nil && !claimed[h] {
			vanished = append(vanished, e)
		}
	}
	rebound := map[*Element]string{}
	if len(vanished) > 0 && len(fresh) > 0 {
		// A pair is re-bound only when each is the other's single best choice.
		bestFor := make([]int, len(vanished))
		for i, v := range vanished {
			bestFor[i], _ = Pick(v, fresh)
		}
		for i, v := range vanished {
			j := bestFor[i]
			if j < 0 {
				continue
			}
			back, _ := Pick(fresh[j], vanished)
			if back == i && !renamedItem(v, fresh[j]) {
				rebound[fresh[j]] = v.Handle
			}
		}
	}
	var lead map[*Element]*Element // each row's first control, once a row is minted
	for _, e := range fresh {
		if h, ok := rebound[e]; ok {
			e.Handle = h
			claimed[h] = true
			d.Rebound = append(d.Rebound, h)
			continue
		}
		// The very node that left earlier (a menu closed and opened again, a
		// row hidden behind a modal) takes its old handle back: the handle
		// still names the same element.
		if h, ok := r.away[e.Key()]; ok && !claimed[h] && r.live[h] == nil {
			if old := r.left[h]; old != nil && old.Role == e.Role && !renamedItem(old, e) {
				e.Handle = h
				claimed[h] = true
				delete(r.away, e.Key())
				delete(r.left, h)
				d.Added = append(d.Added, h)
				continue
			}
		}
		name := e.Name
		if e.Role == "row" {
			if lead == nil {
				lead = leadingControls(elems)
			}
			name = rowData(e, lead[e])
		}
		e.Handle = r.minter.Mint(e.Prefix, Base(e.Role, name, e.Stable))
		d.Added = append(d.Added, e.Handle)
	}
	for _, v := range vanished {
		if !claimed[v.Handle] {
			d.Removed = append(d.Removed, v.Handle)
			if len(r.away) > 20000 {
				r.away, r.left = map[NodeKey]string{}, map[string]*Element{}
			}
			r.away[v.Key()] = v.Handle
			r.left[v.Handle] = v
		}
	}
	// Handles an action re-bound since the last look are news too.
	for _, e := range elems {
		if r.moved[e.Handle] && !contains(d.Rebound, e.Handle) {
			d.Rebound = append(d.Rebound, e.Handle)
		}
	}
	r.moved = map[string]bool{}
	was, now := "", ""
	for _, e := range elems {
		if e.State.Focused {
			now = e.Handle
		}
		if old := r.live[e.Handle]; old != nil && old.State.Focused {
			was = e.Handle
		}
	}
	for h, e := range r.live {
		if e.State.Focused {
			was = h
		}
	}
	if now != was {
		d.Focus, d.Blurred = now, now == ""
	}
	handles := make([]string, 0, len(elems))
	byHandle := make(map[string]*Element, len(elems))
	for _, e := range elems {
		handles = append(handles, e.Handle)
		byHandle[e.Handle] = e
	}
	if run := ReorderedRun(r.order, handles); len(run) > 1 {
		in := make(map[string]bool, len(run))
		for _, h := range run {
			in[h] = true
		}
		for _, h := range run {
			outer := true
			for p := byHandle[h].Parent; p != nil; p = p.Parent {
				if in[p.Handle] {
					outer = false // its row (list item, card) says it
					break
				}
			}
			if outer {
				d.Moved = append(d.Moved, h)
			}
		}
	}
	for _, e := range elems {
		if old := r.live[e.Handle]; old != nil {
			if f := changedFields(old, e); len(f) > 0 {
				d.Changed = append(d.Changed, Change{Handle: e.Handle, Fields: f})
			}
		}
	}
	// Replace the live set.
	r.live = make(map[string]*Element, len(elems))
	r.byNode = make(map[NodeKey]string, len(elems))
	r.byDOM = make(map[NodeKey]string, len(elems))
	r.order = r.order[:0]
	for _, e := range elems {
		r.live[e.Handle] = e
		r.byNode[e.Key()] = e.Handle
		if e.Node != 0 {
			r.byDOM[NodeKey{Frame: e.Frame, Node: e.Node}] = e.Handle
		}
		r.order = append(r.order, e.Handle)
	}
	d.Full = !r.shown || (len(elems) > 0 && 2*len(d.Added) >= len(elems))
	r.shown = true
	return d
}

// itemRoles are the items of composite widgets: what they are is their name.
var itemRoles = map[string]bool{"gridcell": true, "cell": true, "columnheader": true, "rowheader": true, "option": true,
	"treeitem": true, "tab": true, "tabpanel": true, "row": true}

// renamedItem reports whether e, found where old was (the same node, or the
// node that replaced it), is another item of a composite widget: a grid's
// cell or what it holds, an option, a tree item, a tab or tab panel whose
// name no longer says what old's handle says. Libraries re-render such items
// in place as the view moves (a calendar pages to the next month, a virtual
// list scrolls, one tab panel element shows another tab), and a handle
// naming the old item would mislead: e gets a handle of its own. A control
// that relabels itself (Follow → Following) is the same control in a new
// state, and keeps its handle.
func renamedItem(old, e *Element) bool {
	if old.Name == e.Name || Slug(old.Name) == Slug(e.Name) {
		return false
	}
	return itemRoles[e.Role] || e.Row > 0 && (strings.HasPrefix(e.Group, "grid") || strings.HasPrefix(e.Group, "treegrid"))
}

// ChoicesKey is a select's choices as one string: the count, then each
// label, a line each (labels are folded onto one line).
func ChoicesKey(s State) string {
	if s.ChoiceCount == 0 && len(s.Choices) == 0 {
		return ""
	}
	return strconv.Itoa(s.ChoiceCount) + "\n" + strings.Join(s.Choices, "\n")
}

// changedFields compares the fields a delta reports.
func changedFields(a, b *Element) []Field {
	var f []Field
	add := func(name, x, y string) {
		if x != y {
			f = append(f, Field{Name: name, Old: x, New: y})
		}
	}
	add("name", a.Name, b.Name)
	add("value", a.State.Value, b.State.Value)
	add("shows", a.State.Shows, b.State.Shows)
	add("checked", a.State.Checked, b.State.Checked)
	add("pressed", a.State.Pressed, b.State.Pressed)
	add("expanded", a.State.Expanded, b.State.Expanded)
	add("selected", strconv.FormatBool(a.State.Selected), strconv.FormatBool(b.State.Selected))
	add("disabled", strconv.FormatBool(a.State.Disabled), strconv.FormatBool(b.State.Disabled))
	add("current", a.State.Current, b.State.Current)
	add("sort", a.State.Sort, b.State.Sort)
	add("invalid", strconv.FormatBool(a.State.Invalid), strconv.FormatBool(b.State.Invalid))
	add("error", a.State.Error, b.State.Error)
	add("choices", ChoicesKey(a.State), ChoicesKey(b.State))
	add("busy", strconv.FormatBool(a.State.Busy), strconv.FormatBool(b.State.Busy))
	return f
}

// Fields is the part of an element a delta speaks of; a delta applied to the
// Fields of the old inventory gives the Fields of the new one.
type Fields struct {
	Role, Name, Value, Shows, Checked, Pressed, Expanded string
	Selected, Disabled                                   bool
}

// FieldsOf reads e's Fields.
func FieldsOf(e *Element) Fields {
	return Fields{Role: e.Role, Name: e.Name, Value: e.State.Value, Shows: e.State.Shows, Checked: e.State.Checked,
		Pressed: e.State.Pressed, Expanded: e.State.Expanded, Selected: e.State.Selected, Disabled: e.State.Disabled}
}

// Apply applies d to old (handle → Fields). Added elements take their Fields
// from added, the data a delta shows beside each added handle.
func Apply(old map[string]Fields, d Diff, added map[string]Fields) map[string]Fields {
	out := make(map[string]Fields, len(old)+len(d.Added))
	for h, f := range old {
		out[h] = f
	}
	for _, h := range d.Removed {
		delete(out, h)
	}
	for _, h := range d.Added {
		out[h] = added[h]
	}
	for _, c := range d.Changed {
		f := out[c.Handle]
		for _, x := range c.Fields {
			switch x.Name {
			case "name":
				f.Name = x.New
			case "value":
				f.Value = x.New
			case "shows":
				f.Shows = x.New
			case "checked":
				f.Checked = x.New
			case "pressed":
				f.Pressed = x.New
			case "expanded":
				f.Expanded = x.New
			case "selected":
				f.Selected = x.New == "true"
			case "disabled":
				f.Disabled = x.New == "true"
			}
		}
		out[c.Handle] = f
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// selectionRoles are the controls a table row leads with to select it (AG
// Grid's "Press Space to toggle row selection", MUI DataGrid's "Select
// row"): their label is no part of the row's data.
var selectionRoles = map[string]bool{"checkbox": true, "radio": true, "switch": true}

// leadingControls maps each row among elems to the first selection control
// inside it, in document order.
func leadingControls(elems []*Element) map[*Element]*Element {
	out := map[*Element]*Element{}
	for _, e := range elems {
		if !selectionRoles[e.Role] {
			continue
		}
		for up := e.Parent; up != nil; up = up.Parent {
			if up.Role == "row" {
				if out[up] == nil {
					out[up] = e
				}
				break
			}
		}
	}
	return out
}

// rowData is what a row's handle is minted from: its name without the
// label of the selection control it starts with, when that leaves any.
// The row's name itself is untouched.
func rowData(row, lead *Element) string {
	if lead == nil || lead.Name == "" || !strings.HasPrefix(row.Name, lead.Name) {
		return row.Name
	}
	if rest := strings.TrimSpace(row.Name[len(lead.Name):]); rest != "" {
		return rest
	}
	return row.Name
}
