package rodagent

import (
	"context"
	"fmt"
	"strings"

	"github.com/go-rod/rod/lib/proto"

	"github.com/rodagent/rodagent/internal/ax"
)

// Locators that name what the in-page inventory already lists — a control by
// role and name, by label, by test id, scoped by frame, landmark or an
// enclosing control — resolve through the same fast read as Snapshot (a
// delta when the page was read before) instead of every frame's whole AX
// tree; the others (text, placeholder, CSS, roles of structure such as
// region or heading) still need the AX tree and the DOM.

// refRoles are the roles every visible element of which the inventory lists.
var refRoles = map[string]bool{"button": true, "link": true, "textbox": true, "searchbox": true, "checkbox": true,
	"radio": true, "combobox": true, "listbox": true, "option": true, "tab": true, "menuitem": true,
	"menuitemcheckbox": true, "menuitemradio": true, "slider": true, "spinbutton": true, "switch": true, "treeitem": true}

// fastLocatable reports whether the inventory alone can answer l.
func fastLocatable(l Locator) bool {
	for x := &l; x != nil; x = x.parent {
		switch x.kind {
		case locRole:
			if !refRoles[strings.ToLower(x.role)] {
				return false
			}
		case locLabel, locTestID:
		default:
			return false
		}
	}
	return true
}

// findParts is what a find (findMode) looks for to answer l, or nil when a
// find cannot answer it.
func findParts(l Locator) []ax.FindPart {
	var parts []ax.FindPart
	for x := &l; x != nil; x = x.parent {
		switch x.kind {
		case locRole:
			part := ax.FindPart{Role: strings.ToLower(x.role), Landmark: x.landmark}
			if x.hasValue {
				v := x.value
				part.Value = &v
			}
			parts = append(parts, part)
		case locTestID:
			v := x.value
			parts = append(parts, ax.FindPart{TestID: &v})
		case locLabel:
			v := x.value
			parts = append(parts, ax.FindPart{Label: &v})
		default:
			return nil
		}
	}
	return parts
}

// locateFast matches l against the inventory's refs, read by a find when
// one answers l. With whole, the find reads the headings and landmarks too,
// so the refs carry their Context as a snapshot's do.
func (p *Page) locateFast(ctx context.Context, l Locator, whole bool) ([]located, *inventory, error) {
	mode := readFast
	if parts := findParts(l); parts != nil {
		if whole {
			parts = append(parts, ax.FindPart{Context: true})
		}
		mode = findMode(parts, l.frame)
	}
	return p.locateIn(ctx, l, mode)
}

// locateIn matches l against the refs of a read in mode.
func (p *Page) locateIn(ctx context.Context, l Locator, mode readMode) ([]located, *inventory, error) {
	inv, err := p.collect(ctx, mode, false)
	if err != nil {
		return nil, nil, err
	}
	m := p.matchRefs(inv, l)
	for k := range m {
		e := m[k].elem
		if e.Node == 0 && e.Local != 0 {
			// a ref out of view on a large page: its backend id on demand
			id, err := p.localNode(ctx, m[k].job.info, e.Local)
			if err != nil {
				return nil, nil, p.b.wrapErr(ctx, err)
			}
			e.Node = id
		}
		m[k].node = ax.Node{Role: e.Role, Name: e.Name, Backend: e.Node, Landmark: e.Landmark, State: e.State, Ref: true, Parent: -1}
	}
	return m, inv, nil
}

func (p *Page) matchRefs(inv *inventory, l Locator) []located {
	var parents []located
	if l.parent != nil {
		if parents = p.matchRefs(inv, *l.parent); len(parents) == 0 {
			return nil
		}
	}
	var out []located
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, e := range inv.elems {
		j := inv.byID[proto.PageFrameID(e.Frame)]
		if j == nil || !p.frameMatches(l.frame, j) || !l.matchLandmark(e.Landmark) || !l.matchRef(e) {
			continue
		}
		if parents != nil && !insideRef(parents, e) {
			continue
		}
		c := *e
		if h, ok := p.reg.HandleOf(e.Key()); ok {
			c.Handle = h
		}
		out = append(out, located{elem: &c, job: j})
	}
	if l.nth >= 0 {
		if l.nth >= len(out) {
			return nil
		}
		out = out[l.nth : l.nth+1]
	}
	return out
}

func (l Locator) matchRef(e *ax.Element) bool {
	switch l.kind {
	case locRole:
		return strings.EqualFold(e.Role, l.role) && (!l.hasValue || l.matchText(e.Name))
	case locLabel:
		return e.Name != "" && l.matchText(e.Name)
	case locTestID:
		return e.Stable == "[data-testid="+l.value+"]" || e.Stable == "[data-test-id="+l.value+"]"
	}
	return false
}

// insideRef reports whether e sits inside one of the parents' elements.
func insideRef(parents []located, e *ax.Element) bool {
	for up := e.Parent; up != nil; up = up.Parent {
		for _, pa := range parents {
			if pa.elem.Frame == up.Frame && pa.elem.Key() == up.Key() {
				return true
			}
		}
	}
	return false
}

// findForRead resolves l strictly for a read (Text, Value, Checked, …):
// like an action's resolution, but a read never scrolls the page or a frame,
// and takes the element's state from the read that found it.
func (p *Page) findForRead(ctx context.Context, verb string, l Locator) (*target, error) {
	name := l.String()
	m, _, err := p.locate(ctx, l, false)
	if err != nil {
		return nil, err
	}
	switch {
	case len(m) == 0:
		ae := failure(verb, name, NotFound, "nothing on the page matches it", nil)
		ae.Next = "check the locator, or Snapshot to see what the page offers"
		return nil, ae
	case len(m) > 1:
		ae := failure(verb, name, Ambiguous, fmt.Sprintf("%d elements match it", len(m)), nil)
		ae.Next = "narrow the locator (Exact, WithinLandmark, Within, Nth) or pick a candidate by ref"
		for _, x := range m {
			ae.Candidates = append(ae.Candidates, Candidate{Ref: x.elem.Handle, Role: x.elem.Role, Name: x.elem.Name, Landmark: x.elem.Landmark})
		}
		return nil, ae
	}
	e := m[0].elem
	if m[0].node.Hidden {
		return nil, failure(verb, name, NotVisible, "it is hidden", nil)
	}
	if e.Node == 0 {
		return nil, failure(verb, name, StaleRefUnresolved, "the element went away while reading", nil)
	}
	p.mu.Lock()
	var fr frameInfo
	if fi := p.frames[proto.PageFrameID(e.Frame)]; fi != nil {
		fr = *fi
	}
	p.mu.Unlock()
	handle := name
	if e.Handle != "" {
		handle = e.Handle
	}
	st := e.State
	if m[0].node.Backend != 0 {
		st = m[0].node.State
	}
	return &target{handle: handle, elem: e, frame: fr, sess: fr.sess, status: Ready, state: st}, nil
}
