package rodagent

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/go-rod/rod/lib/proto"
	"github.com/ysmood/gson"
	"golang.org/x/sync/errgroup"

	"github.com/rodagent/rodagent/internal/ax"
)

// Locator names elements by what a person sees — role and name, label, text,
// placeholder, test id — for scripts that know the site and want no CSS or
// XPath. It resolves against Chromium's accessibility tree (its computed
// roles and names) in every frame, shadow roots included, to the same
// BrowserRef a snapshot gives.
//
// Locators are values: modifiers return a copy. By default a name or text
// matches case-insensitively as a substring; Exact makes it a whole,
// case-sensitive match. Every locator has a text form (String, ParseLocator)
// so scripts can keep them in configuration:
//
//	role=button[name="Submit"]
//	label="Email"
//	testid=invoice-total
//	role=region[name="Done column"] >> role=button[nth=0]
//
// Actions through a locator (Page.Locate) are strict: when it matches more
// than one element, a write fails with Ambiguous and the candidates — never
// the first match. Reads are strict too unless Nth or First picks one.
type Locator struct {
	kind     locKind
	role     string
	value    string // name (role), label, text, placeholder, test id or selector
	hasValue bool
	exact    bool
	landmark string
	frame    string
	nth      int // -1 when not set
	parent   *Locator
}

type locKind uint8

const (
	locRole locKind = iota + 1
	locLabel
	locText
	locPlaceholder
	locTestID
	locCSS
)

var kindNames = map[locKind]string{locRole: "role", locLabel: "label", locText: "text",
	locPlaceholder: "placeholder", locTestID: "testid", locCSS: "css"}

// ByRole matches elements with a role (button, link, textbox, checkbox,
// combobox, option, region, heading, img, …) and, when name is not empty,
// that accessible name. Roles are compared in one canonical form: the ARIA
// names ("img") and Chromium's internal ones ("image") both work.
func ByRole(role, name string) Locator {
	return Locator{kind: locRole, role: role, value: name, hasValue: name != "", nth: -1}
}

// ByLabel matches form controls by their label (their accessible name).
func ByLabel(text string) Locator {
	return Locator{kind: locLabel, value: text, hasValue: true, nth: -1}
}

// ByText matches elements by the text they show; a text inside a button or
// link resolves to that button or link.
func ByText(text string) Locator { return Locator{kind: locText, value: text, hasValue: true, nth: -1} }

// ByPlaceholder matches inputs by their placeholder attribute.
func ByPlaceholder(text string) Locator {
	return Locator{kind: locPlaceholder, value: text, hasValue: true, nth: -1}
}

// ByTestID matches the element whose data-testid (or data-test-id) is id,
// exactly.
func ByTestID(id string) Locator {
	return Locator{kind: locTestID, value: id, hasValue: true, exact: true, nth: -1}
}

// ByCSS matches a CSS selector in the main document of each frame process:
// the escape hatch. It does not reach into shadow roots.
func ByCSS(selector string) Locator {
	return Locator{kind: locCSS, value: selector, hasValue: true, exact: true, nth: -1}
}

// Exact makes the name or text match whole and case-sensitively.
func (l Locator) Exact() Locator { l.exact = true; return l }

// WithinLandmark keeps matches inside a landmark, given as its role
// ("navigation"), its name ("Main") or both (`navigation "Main"`).
func (l Locator) WithinLandmark(landmark string) Locator { l.landmark = landmark; return l }

// WithinFrame keeps matches inside one frame: its prefix in snapshots ("f1")
// or text its URL contains (an origin, a path).
func (l Locator) WithinFrame(frame string) Locator { l.frame = frame; return l }

// Within keeps matches inside an element parent matches.
func (l Locator) Within(parent Locator) Locator { l.parent = &parent; return l }

// Nth picks the i-th match (from 0) in document order.
func (l Locator) Nth(i int) Locator {
	if i < 0 {
		i = 0
	}
	l.nth = i
	return l
}

// First picks the first match: Nth(0).
func (l Locator) First() Locator { return l.Nth(0) }

// matchText compares a name with the locator's value.
func (l Locator) matchText(s string) bool {
	if l.exact {
		return strings.TrimSpace(s) == strings.TrimSpace(l.value)
	}
	return strings.Contains(strings.ToLower(collapseSpace(s)), strings.ToLower(collapseSpace(l.value)))
}

func collapseSpace(s string) string { return strings.Join(strings.Fields(s), " ") }

func (l Locator) matchLandmark(lm string) bool {
	if l.landmark == "" {
		return true
	}
	want := strings.TrimSpace(l.landmark)
	if strings.EqualFold(lm, want) {
		return true
	}
	role, name, _ := strings.Cut(lm, " ")
	name = strings.Trim(name, `"`)
	return strings.EqualFold(role, want) || (name != "" && strings.EqualFold(name, strings.Trim(want, `"`)))
}

// located is one match: an element of a frame.
type located struct {
	elem *ax.Element
	node ax.Node
	idx  int
	job  *frameJob
}

// locate resolves l against a fresh read of every frame: the in-page
// inventory when it can answer l (locate_fast.go), else the AX tree. With
// whole, the matches carry all a snapshot's refs do (Find returns them);
// without, what acting on or reading them needs, which a find reads in a
// fraction of a first look on a page not read before.
func (p *Page) locate(ctx context.Context, l Locator, whole bool) ([]located, *inventory, error) {
	if err := p.awaitCommit(ctx, "locate"); err != nil {
		return nil, nil, err
	}
	if fastLocatable(l) {
		// The inventory lists controls only: a label or test id can also
		// name an element that is not one (a total, a status line), which
		// the AX tree finds.
		m, inv, err := p.locateFast(ctx, l, whole)
		if err != nil || len(m) > 0 {
			return m, inv, err
		}
	}
	inv, err := p.collect(ctx, readAX, false)
	if err != nil {
		return nil, nil, err
	}
	nodes := map[*frameJob][]ax.Node{}
	for _, j := range inv.frames {
		if j.err == nil {
			nodes[j] = ax.Nodes(j.nodes)
		}
	}
	var css map[*frameJob]map[proto.DOMBackendNodeID]bool
	if usesCSS(l) {
		css = p.cssMatches(ctx, inv, l)
	}
	m := p.match(inv, nodes, css, l)
	return m, inv, nil
}

func usesCSS(l Locator) bool {
	for x := &l; x != nil; x = x.parent {
		if x.kind == locCSS {
			return true
		}
	}
	return false
}

func (p *Page) match(inv *inventory, nodes map[*frameJob][]ax.Node, css map[*frameJob]map[proto.DOMBackendNodeID]bool, l Locator) []located {
	var parents []located
	if l.parent != nil {
		parents = p.match(inv, nodes, css, *l.parent)
		if len(parents) == 0 {
			return nil
		}
	}
	var out []located
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, j := range inv.frames {
		ns := nodes[j]
		if ns == nil || !p.frameMatches(l.frame, j) {
			continue
		}
		var dom *ax.DOMIndex
		if s := inv.sessions[j.info.sess.ID]; s != nil {
			dom = s.dom
		}
		if l.kind == locTestID || l.kind == locCSS || l.kind == locText {
			// Matched in the DOM: the element need not be in the AX tree.
			ns = withDOMOnly(ns, dom, j.info.id)
		}
		seen := map[int]bool{}
		for i, n := range ns {
			idx, ok := l.matchNode(ns, i, n, dom, css[j])
			if !ok || seen[idx] || !l.matchLandmark(ns[idx].Landmark) {
				continue
			}
			if parents != nil && !insideAny(parents, j, ns, idx) {
				continue
			}
			seen[idx] = true
			out = append(out, located{node: ns[idx], idx: idx, job: j})
		}
		if l.kind == locText && dom != nil {
			// Text the AX tree folds away (a <label for>'s, which names its
			// control) is still text a person reads and clicks.
			at := map[proto.DOMBackendNodeID]int{}
			for i, n := range ns {
				if n.Backend != 0 {
					at[n.Backend] = i
				}
			}
			for _, tx := range dom.Texts {
				i, ok := at[tx.Parent]
				if !ok || !ns[i].Ignored || ns[i].Hidden || !dom.Nodes[tx.Parent].HasBounds || !l.matchText(tx.Value) {
					continue
				}
				idx := ownerOf(ns, i)
				if seen[idx] || !l.matchLandmark(ns[idx].Landmark) || (parents != nil && !insideAny(parents, j, ns, idx)) {
					continue
				}
				seen[idx] = true
				out = append(out, located{node: ns[idx], idx: idx, job: j})
			}
		}
		nodes[j] = ns
	}
	if l.nth >= 0 {
		if l.nth >= len(out) {
			return nil
		}
		out = out[l.nth : l.nth+1]
	}
	for k := range out {
		out[k].elem = inv.elementOf(p, out[k].job, out[k].node)
	}
	return out
}

func insideAny(parents []located, j *frameJob, ns []ax.Node, idx int) bool {
	for _, pa := range parents {
		if pa.job == j && pa.idx != idx && ax.Within(ns, idx, pa.idx) {
			return true
		}
	}
	return false
}

// matchNode decides whether node i matches; for text it returns the element
// the text belongs to.
func (l Locator) matchNode(ns []ax.Node, i int, n ax.Node, dom *ax.DOMIndex, css map[proto.DOMBackendNodeID]bool) (int, bool) {
	switch l.kind {
	case locRole:
		return i, !n.Ignored && canonicalRole(n.Role) == canonicalRole(l.role) && (!l.hasValue || l.matchText(n.Name))
	case locLabel:
		return i, !n.Ignored && n.Ref && n.Name != "" && l.matchText(n.Name)
	case locText:
		// A label's text is ignored by the AX tree (it names its control), yet
		// a person reads and clicks it: only text nobody can see is left out.
		if n.Hidden || n.Role != "StaticText" || !l.matchText(n.Name) {
			return 0, false
		}
		return textOwner(ns, i), true
	case locPlaceholder:
		if dom == nil || n.Backend == 0 {
			return 0, false
		}
		ph := dom.Nodes[n.Backend].Placeholder
		return i, ph != "" && l.matchText(ph)
	case locTestID:
		if dom == nil || n.Backend == 0 {
			return 0, false
		}
		return i, dom.Nodes[n.Backend].TestID == l.value
	case locCSS:
		return i, n.Backend != 0 && css[n.Backend]
	}
	return 0, false
}

// withDOMOnly adds, for elements of frame's document that the AX tree leaves
// out, a node placed under their nearest ancestor the tree has, so DOM-based
// locators (test id, CSS) find them and Within still works.
func withDOMOnly(ns []ax.Node, dom *ax.DOMIndex, frame proto.PageFrameID) []ax.Node {
	if dom == nil {
		return ns
	}
	at := make(map[proto.DOMBackendNodeID]int, len(ns))
	for i, n := range ns {
		if n.Backend != 0 {
			at[n.Backend] = i
		}
	}
	out := ns
	for _, id := range dom.Order {
		if _, ok := at[id]; ok {
			continue
		}
		di := dom.Nodes[id]
		if dom.Docs[di.Doc].FrameID != frame {
			continue
		}
		parent := -1
		for up, k := di.Parent, 0; up != 0 && k < 256; up, k = dom.Nodes[up].Parent, k+1 {
			if i, ok := at[up]; ok {
				parent = i
				break
			}
		}
		if parent < 0 {
			continue // not under this frame's tree
		}
		out = append(out, ax.Node{Role: "generic", Backend: id, Parent: parent, Ignored: true, Landmark: out[parent].Landmark})
		at[id] = len(out) - 1
	}
	return out
}

// textOwner is the element a text node belongs to for a person: the control
// it sits in when there is one nearby, else its parent element.
func textOwner(ns []ax.Node, i int) int {
	parent := ns[i].Parent
	for parent >= 0 && ns[parent].Role == "StaticText" {
		parent = ns[parent].Parent
	}
	if parent < 0 {
		return i
	}
	return ownerOf(ns, parent)
}

// ownerOf is element i, or the control it sits in when there is one within
// a few levels (the text of a button belongs to the button).
func ownerOf(ns []ax.Node, i int) int {
	for k, up := i, 0; k >= 0 && up < 4; k, up = ns[k].Parent, up+1 {
		if ns[k].Ref {
			return k
		}
	}
	return i
}

// frameMatches applies WithinFrame; the caller holds p.mu.
func (p *Page) frameMatches(want string, j *frameJob) bool {
	if want == "" {
		return true
	}
	prefix := ""
	if j.info.id != p.mainFrame {
		prefix = p.framePrefix(j.info.id)
	}
	return want == prefix || (want != "" && strings.Contains(j.info.url, want))
}

// elementOf builds the element for a located node, with its box.
func (inv *inventory) elementOf(p *Page, j *frameJob, n ax.Node) *ax.Element {
	prefix := ""
	if j.info.id != p.mainFrame {
		prefix = p.framePrefix(j.info.id) + "/"
	}
	items := []ax.Item{{Kind: ax.KindRef, Role: n.Role, Name: n.Name, Node: n.Backend, State: n.State, Landmark: n.Landmark}}
	if s := inv.sessions[j.info.sess.ID]; s != nil {
		ax.AttachDOM(items, s.dom)
	}
	e := elementOf(items[0], j.info, prefix, j.originX, j.originY)
	if h, ok := p.reg.HandleOf(ax.NodeKey{Frame: e.Frame, Node: e.Node}); ok {
		e.Handle = h
	}
	return e
}

// cssMatches runs the CSS selectors of l in the main document of each
// session and returns the matching backend node ids per frame.
func (p *Page) cssMatches(ctx context.Context, inv *inventory, l Locator) map[*frameJob]map[proto.DOMBackendNodeID]bool {
	var sels []string
	for x := &l; x != nil; x = x.parent {
		if x.kind == locCSS {
			sels = append(sels, x.value)
		}
	}
	out := map[*frameJob]map[proto.DOMBackendNodeID]bool{}
	var g errgroup.Group
	var mu sync.Mutex
	for _, s := range inv.sessions {
		root := inv.byID[s.root]
		if root == nil {
			continue
		}
		g.Go(func() error {
			bc := s.sess.Bind(ctx)
			doc, err := proto.DOMGetDocument{Depth: new(int)}.Call(bc)
			if err != nil {
				return nil
			}
			found := map[proto.DOMBackendNodeID]bool{}
			for _, sel := range sels {
				res, err := proto.DOMQuerySelectorAll{NodeID: doc.Root.NodeID, Selector: sel}.Call(bc)
				if err != nil {
					continue
				}
				for _, id := range res.NodeIDs {
					d, err := proto.DOMDescribeNode{NodeID: id}.Call(bc)
					if err == nil {
						found[d.Node.BackendNodeID] = true
					}
				}
			}
			mu.Lock()
			out[root] = found
			mu.Unlock()
			return nil
		})
	}
	_ = g.Wait()
	return out
}

// byLocator is the finder for a locator: strict, so more than one match is
// Ambiguous, with the candidates.
func (p *Page) byLocator(l Locator) finder {
	f := finder{name: l.String()}
	if l.kind == locRole {
		f.role, f.elem = l.role, l.value
	}
	f.find = func(ctx context.Context, verb string) (*target, error) {
		m, _, err := p.locate(ctx, l, false)
		if err != nil {
			return nil, err
		}
		switch {
		case len(m) == 0:
			ae := failure(verb, f.name, NotFound, "nothing on the page matches it", nil)
			ae.Next = "check the locator, or Snapshot to see what the page offers"
			return nil, ae
		case len(m) > 1:
			ae := failure(verb, f.name, Ambiguous, fmt.Sprintf("%d elements match it", len(m)), nil)
			ae.Next = "narrow the locator (Exact, WithinLandmark, Within, Nth) or pick a candidate by ref"
			for _, x := range m {
				ae.Candidates = append(ae.Candidates, Candidate{Ref: x.elem.Handle, Role: x.elem.Role, Name: x.elem.Name, Landmark: x.elem.Landmark})
			}
			return nil, ae
		}
		e := m[0].elem
		p.mu.Lock()
		fi := p.frames[proto.PageFrameID(e.Frame)]
		var fr frameInfo
		if fi != nil {
			fr = *fi
		}
		p.mu.Unlock()
		name := f.name
		if e.Handle != "" {
			name = e.Handle
		}
		t := &target{handle: name, elem: e, frame: fr, sess: fr.sess, status: Ready}
		if err := p.scrollFrameIntoView(ctx, fr); err != nil {
			return nil, t.fail(ctx, p, verb, err)
		}
		if err := p.probe(ctx, t); err != nil {
			if errors.Is(err, errStale) {
				return nil, failure(verb, f.name, StaleRefUnresolved, "the element went away while acting", nil)
			}
			return nil, t.fail(ctx, p, verb, err)
		}
		return t, nil
	}
	return f
}

// Find returns the elements a locator matches, as BrowserRefs. Ref is set
// when the element is one of the refs of the tab's current snapshot.
func (p *Page) Find(ctx context.Context, l Locator) ([]BrowserRef, error) {
	unlock, err := p.lock(ctx, "find")
	if err != nil {
		return nil, err
	}
	defer unlock()
	m, _, err := p.locate(ctx, l, true)
	if err != nil {
		return nil, err
	}
	return refsOf(m), nil
}

// refsOf returns matches as BrowserRefs.
func refsOf(m []located) []BrowserRef {
	out := make([]BrowserRef, 0, len(m))
	for _, x := range m {
		out = append(out, refOf(x.elem, x.job))
	}
	return out
}

// Located is a locator bound to a page: the second way into every action,
// beside refs. Both go through the same resolve → actionability → input path.
//
//	st, err := p.Locate(rodagent.ByRole("button", "Save")).Click(ctx)
type Located struct {
	p *Page
	l Locator
}

// Locate binds a locator to the page.
func (p *Page) Locate(l Locator) *Located { return &Located{p: p, l: l} }

// Click clicks the single element the locator matches (see Page.Click).
func (x *Located) Click(ctx context.Context) (ActionStatus, error) {
	return x.p.clickN(ctx, "click", x.p.byLocator(x.l), 1)
}

// RightClick presses the right mouse button on the single element the
// locator matches (see Page.RightClick).
func (x *Located) RightClick(ctx context.Context) (ActionStatus, error) {
	return x.p.rightClick(ctx, x.p.byLocator(x.l))
}

// DblClick double-clicks the single element the locator matches.
func (x *Located) DblClick(ctx context.Context) (ActionStatus, error) {
	return x.p.clickN(ctx, "dblclick", x.p.byLocator(x.l), 2)
}

// Hover moves the pointer over the single element the locator matches.
func (x *Located) Hover(ctx context.Context) (ActionStatus, error) {
	return x.p.hover(ctx, x.p.byLocator(x.l))
}

// Focus focuses the single element the locator matches.
func (x *Located) Focus(ctx context.Context) (ActionStatus, error) {
	return x.p.focus(ctx, x.p.byLocator(x.l))
}

// Type replaces the content of the single text field the locator matches.
func (x *Located) Type(ctx context.Context, text string) (ActionStatus, error) {
	return x.p.typeText(ctx, x.p.byLocator(x.l), text)
}

// Check checks the single checkbox, radio or switch the locator matches.
func (x *Located) Check(ctx context.Context) (ActionStatus, error) {
	return x.p.setChecked(ctx, "check", x.p.byLocator(x.l), true)
}

// Uncheck unchecks the single checkbox or switch the locator matches.
func (x *Located) Uncheck(ctx context.Context) (ActionStatus, error) {
	return x.p.setChecked(ctx, "uncheck", x.p.byLocator(x.l), false)
}

// Select chooses options of the single native <select> the locator matches.
func (x *Located) Select(ctx context.Context, values ...string) (ActionStatus, error) {
	return x.p.selectOptions(ctx, x.p.byLocator(x.l), values)
}

// Upload puts files into the single file input (or chooser opener) the
// locator matches.
func (x *Located) Upload(ctx context.Context, paths ...string) (ActionStatus, error) {
	return x.p.upload(ctx, x.p.byLocator(x.l), paths)
}

// DragTo drags the single element the locator matches onto the single element to matches.
func (x *Located) DragTo(ctx context.Context, to Locator) (ActionStatus, error) {
	return x.p.drag(ctx, x.p.byLocator(x.l), x.p.byLocator(to))
}

// Refs returns every element the locator matches (Page.Find).
func (x *Located) Refs(ctx context.Context) ([]BrowserRef, error) { return x.p.Find(ctx, x.l) }

// read resolves the locator strictly and runs fn on the target, in the page's turn.
func (x *Located) read(ctx context.Context, verb string, fn func(t *target) error) error {
	unlock, err := x.p.lock(ctx, verb)
	if err != nil {
		return err
	}
	defer unlock()
	t, err := x.p.findForRead(ctx, verb, x.l)
	if err != nil {
		return err
	}
	return fn(t)
}

const (
	textJS  = `function () { return (this.innerText !== undefined ? this.innerText : this.textContent) || ""; }`
	valueJS = `function () { return this.value !== undefined ? String(this.value) : (this.textContent || ""); }`
	attrJS  = `function (n) { const v = this.getAttribute(n); return v === null ? {absent: true} : {value: v}; }`
)

// callOn runs a function with the target node as this, in the library's
// isolated world of the node's frame, and returns its value; the object it
// needed is released after. Not the page's world: a page can replace
// JSON, Array.prototype, DOM methods and getters there before any script of
// ours runs, and fn would trust them.
func (p *Page) callOn(ctx context.Context, verb string, t *target, fn string, args ...any) (gson.JSON, error) {
	obj, group, err := p.hitObject(ctx, t)
	bc := t.sess.Bind(ctx)
	defer func() {
		_ = proto.RuntimeReleaseObjectGroup{ObjectGroup: group}.Call(t.sess.Bind(context.WithoutCancel(ctx)))
	}()
	if err != nil {
		return gson.JSON{}, p.actionErr(ctx, verb, t.handle, err)
	}
	var cargs []*proto.RuntimeCallArgument
	for _, a := range args {
		cargs = append(cargs, &proto.RuntimeCallArgument{Value: gson.New(a)})
	}
	res, err := proto.RuntimeCallFunctionOn{ObjectID: obj.ObjectID, FunctionDeclaration: fn, Arguments: cargs,
		ReturnByValue: true}.Call(bc)
	if err != nil {
		return gson.JSON{}, p.actionErr(ctx, verb, t.handle, err)
	}
	if res.ExceptionDetails != nil {
		return gson.JSON{}, fmt.Errorf("rodagent: %s %s: %s", verb, t.handle, res.ExceptionDetails.Text)
	}
	return res.Result.Value, nil
}

// readString runs fn on the matched element and returns its string result.
func (x *Located) readString(ctx context.Context, verb, fn string, args ...any) (string, error) {
	var out string
	err := x.read(ctx, verb, func(t *target) error {
		v, err := x.p.callOn(ctx, verb, t, fn, args...)
		out = v.Str()
		return err
	})
	return out, err
}

// Text returns the visible text of the element the locator matches.
func (x *Located) Text(ctx context.Context) (string, error) { return x.readString(ctx, "text", textJS) }

// Value returns the current value of the form control the locator matches.
func (x *Located) Value(ctx context.Context) (string, error) {
	return x.readString(ctx, "value", valueJS)
}

// Attribute returns an attribute of the element the locator matches, and
// whether it is present.
func (x *Located) Attribute(ctx context.Context, name string) (string, bool, error) {
	var out string
	var ok bool
	err := x.read(ctx, "attribute", func(t *target) error {
		v, err := x.p.callOn(ctx, "attribute", t, attrJS, name)
		if err == nil {
			ok = !v.Get("absent").Bool()
			out = v.Get("value").Str()
		}
		return err
	})
	return out, ok, err
}

// Checked reports whether the checkbox, radio or switch the locator matches is checked.
func (x *Located) Checked(ctx context.Context) (bool, error) {
	var out bool
	err := x.read(ctx, "checked", func(t *target) error {
		out = t.state.Checked == "true" || t.state.Pressed == "true"
		return nil
	})
	return out, err
}

// Enabled reports whether the element the locator matches is enabled.
func (x *Located) Enabled(ctx context.Context) (bool, error) {
	var out bool
	err := x.read(ctx, "enabled", func(t *target) error {
		out = !t.state.Disabled
		return nil
	})
	return out, err
}

// Visible reports whether the element the locator matches is rendered with
// a box a person could see. An element that is not there is not visible (no error).
func (x *Located) Visible(ctx context.Context) (bool, error) {
	var out bool
	err := x.read(ctx, "visible", func(t *target) error {
		res, err := proto.DOMGetContentQuads{BackendNodeID: t.elem.Node}.Call(t.sess.Bind(ctx))
		if err != nil {
			return nil
		}
		for _, q := range res.Quads {
			if quadArea(q) >= 1 {
				out = true
			}
		}
		return nil
	})
	var ae *ActionError
	if errors.As(err, &ae) && (ae.Status == NotFound || ae.Status == NotVisible) {
		return false, nil
	}
	return out, err
}
