package rodagent

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/go-rod/rod/lib/proto"
	"golang.org/x/sync/errgroup"

	"github.com/rodagent/rodagent/internal/ax"
	"github.com/rodagent/rodagent/internal/session"
)

// target is a ref resolved to a live node, ready for actionability checks.
type target struct {
	handle string
	elem   *ax.Element
	frame  frameInfo
	sess   session.Session // the session that owns the node's document
	status ActionStatus    // Ready or StaleRefRecovered
	ax     *proto.AccessibilityAXNode
	state  ax.State
}

// resolve finds the live node behind a handle: the cached backend node if it
// is still in the document with the same role, else the node the re-bind
// ladder recognises in the same frame and document. It also scrolls the node
// into view, which is the first actionability step and the cheapest proof
// that the node is attached.
func (p *Page) resolve(ctx context.Context, action, handle string) (*target, error) {
	p.mu.Lock()
	p.resetRefsLocked()
	reg := p.reg
	e, ok := reg.Lookup(handle)
	if !ok {
		issued := reg.Issued(handle)
		old := false
		for _, r := range p.oldRegs {
			old = old || r.Issued(handle)
		}
		var lostFrame string
		if e, ok := reg.Left(handle); ok {
			// Gone with its frame (removed, crashed): say so, not "element gone".
			fi := p.frames[proto.PageFrameID(e.Frame)]
			if fi == nil || fi.detached {
				lostFrame = "its frame is gone"
			} else if c := p.children[fi.sess.ID]; c != nil && (c.crashed || c.detached) {
				lostFrame = "frame " + displayURL(fi.url) + " crashed"
			}
		}
		p.mu.Unlock()
		switch {
		case lostFrame != "":
			return nil, failure(action, handle, FrameUnreachable, lostFrame, nil)
		case issued:
			return nil, failure(action, handle, StaleRefUnresolved, "it left the page in an earlier snapshot", nil)
		case old:
			return nil, failure(action, handle, PageChanged, "the tab has navigated since this ref was taken", nil)
		}
		return nil, failure(action, handle, NotFound, "", nil)
	}
	fi := p.frames[proto.PageFrameID(e.Frame)]
	var f frameInfo
	if fi != nil {
		f = *fi
	}
	crashed := false
	if c := p.children[f.sess.ID]; c != nil {
		crashed = c.crashed
	}
	p.mu.Unlock()
	switch {
	case fi == nil || f.detached || crashed:
		return nil, failure(action, handle, FrameUnreachable, "frame "+displayURL(f.url)+" is gone", nil)
	case string(f.loader) != e.Doc:
		return nil, failure(action, handle, PageChanged, "its frame has navigated since this ref was taken", nil)
	}
	t := &target{handle: handle, elem: e, frame: f, sess: f.sess, status: Ready}
	if err := p.scrollFrameIntoView(ctx, f); err != nil {
		return nil, t.fail(ctx, p, action, err)
	}
	var err error
	if e.Node == 0 && e.Local != 0 {
		// On a large page the snapshot resolved only what was in view.
		id, lerr := p.localNode(ctx, f, e.Local)
		if lerr != nil {
			return nil, t.fail(ctx, p, action, lerr)
		}
		p.mu.Lock()
		reg.SetNode(handle, id)
		p.mu.Unlock()
	}
	if e.Node == 0 {
		err = errStale
	} else {
		err = p.probe(ctx, t)
	}
	if err == nil {
		return t, nil
	}
	if !errors.Is(err, errStale) {
		return nil, t.fail(ctx, p, action, err)
	}
	if err := p.rebind(ctx, action, t); err != nil {
		return nil, err
	}
	if err := p.probe(ctx, t); err != nil {
		if errors.Is(err, errStale) {
			return nil, failure(action, handle, StaleRefUnresolved, "the element was replaced again while acting", nil)
		}
		return nil, t.fail(ctx, p, action, err)
	}
	t.status = StaleRefRecovered
	return t, nil
}

// fail maps an error met while acting on t, naming t's frame when that is
// what went away.
func (t *target) fail(ctx context.Context, p *Page, action string, err error) error {
	if errors.Is(err, errFrameGone) {
		return failure(action, t.handle, FrameUnreachable, "frame "+displayURL(t.frame.url)+" is gone", err)
	}
	// A navigation that started under the action took the node with it.
	p.mu.Lock()
	fi := p.frames[t.frame.id]
	moved := fi != nil && string(fi.loader) != t.elem.Doc
	p.mu.Unlock()
	if moved && ctx.Err() == nil {
		return failure(action, t.handle, PageChanged, "the page navigated while acting", err)
	}
	return p.actionErr(ctx, action, t.handle, err)
}

var (
	errStale    = errors.New("stale node")
	errNoLayout = errors.New("node has no layout")
)

// probe scrolls the node into view and reads its AX node, in parallel: one
// round trip of latency that proves the node is attached, has the role the
// ref was minted for, and tells its disabled/editable state.
func (p *Page) probe(ctx context.Context, t *target) error {
	var scrollErr, axErr error
	var res *proto.AccessibilityGetPartialAXTreeResult
	var g errgroup.Group
	g.Go(func() error {
		scrollErr = proto.DOMScrollIntoViewIfNeeded{BackendNodeID: t.elem.Node}.Call(t.sess.Bind(ctx))
		return nil
	})
	g.Go(func() error {
		res, axErr = proto.AccessibilityGetPartialAXTree{BackendNodeID: t.elem.Node, FetchRelatives: false}.Call(t.sess.Bind(ctx))
		return nil
	})
	_ = g.Wait()
	for _, err := range []error{scrollErr, axErr} {
		switch {
		case err == nil:
		case session.IsNodeGone(err):
			return errStale
		case session.IsSessionGone(err):
			return fmt.Errorf("%w: %w", errFrameGone, err)
		}
	}
	if axErr != nil {
		return axErr
	}
	var n *proto.AccessibilityAXNode
	for _, x := range res.Nodes {
		if x.BackendDOMNodeID == t.elem.Node {
			n = x
			break
		}
	}
	if n == nil && len(res.Nodes) > 0 {
		n = res.Nodes[0]
	}
	if n == nil {
		return errStale
	}
	st := ax.ParseState(n)
	// An editing host no role marks is a textbox on both read paths and
	// "generic" in Chromium's tree.
	if !n.Ignored && !sameRole(axRole(n), t.elem.Role) && !(st.Editable && canonicalRole(axRole(n)) == "generic" && canonicalRole(t.elem.Role) == "textbox") {
		return errStale // the node now means something else
	}
	t.ax = n
	t.state = st
	if scrollErr != nil {
		if session.IsNoLayout(scrollErr) {
			return errNoLayout
		}
		return scrollErr
	}
	return nil
}

var errFrameGone = errors.New("frame gone")

// sameRole reports whether the node's role in the AX tree is the role its
// ref was given. A clickable with no role of its own is "generic" in the
// inventory; Chromium calls the same element an image when a style draws
// its content from an image (content: url(search.png)).
func sameRole(ax, ref string) bool {
	a, r := canonicalRole(ax), canonicalRole(ref)
	return a == r || r == "generic" && a == "img" || a == "generic" && itemRoles[r]
}

// itemRoles are the roles of items Chromium may take for generic boxes when
// the context they require is not where it looks (jQuery UI's role=option
// divs inside role-less <li>s): the page says they are items, and both read
// paths list them so; the same node reading generic is still the item.
var itemRoles = map[string]bool{"option": true, "menuitem": true, "menuitemcheckbox": true, "menuitemradio": true,
	"tab": true, "treeitem": true}

func axRole(n *proto.AccessibilityAXNode) string {
	if n.Role == nil {
		return ""
	}
	return n.Role.Value.Str()
}

// actionErr maps probe and transport errors to statuses.
func (p *Page) actionErr(ctx context.Context, action, handle string, err error) error {
	var ae *ActionError
	switch {
	case errors.As(err, &ae):
		if ae.Action == "" {
			ae.Action, ae.Ref = action, handle
		}
		return ae
	case errors.Is(err, errNoLayout):
		return failure(action, handle, NotVisible, "it is not rendered (display:none or detached box)", nil)
	case errors.Is(err, errFrameGone):
		return failure(action, handle, FrameUnreachable, "its frame is gone", err)
	case ctx.Err() != nil:
		return failure(action, handle, Timeout, "", ctx.Err())
	}
	if e := p.alive(); e != nil {
		return e
	}
	return p.b.wrapErr(ctx, err)
}

// rebind runs the re-bind ladder for a ref whose node is gone: it reads the
// frame again and looks for the one node that is recognisably the same
// element. It never guesses: a tie is Ambiguous, no match StaleRefUnresolved.
func (p *Page) rebind(ctx context.Context, action string, t *target) error {
	// The document must be the one the ref was taken in: a node gone because
	// the frame navigated is PageChanged, not something to re-bind.
	tree, err := proto.PageGetFrameTree{}.Call(t.sess.Bind(ctx))
	if err != nil {
		return p.actionErr(ctx, action, t.handle, err)
	}
	if loader, ok := findLoader(tree.FrameTree, t.frame.id); !ok {
		return failure(action, t.handle, FrameUnreachable, "its frame is gone", nil)
	} else if string(loader) != t.elem.Doc {
		return failure(action, t.handle, PageChanged, "its frame has navigated since this ref was taken", nil)
	}
	cands, err := p.readFrame(ctx, t.frame)
	if err != nil {
		return p.actionErr(ctx, action, t.handle, err)
	}
	p.mu.Lock()
	reg := p.reg
	free := cands[:0:0]
	for _, c := range cands {
		if h, taken := reg.HandleOf(c.Key()); taken && h != t.handle {
			continue // another live ref names this node
		}
		free = append(free, c)
	}
	p.mu.Unlock()
	best, tied := ax.Pick(t.elem, free)
	switch {
	case best >= 0:
		p.mu.Lock()
		if p.reg == reg {
			reg.Rebind(t.handle, free[best])
		}
		p.mu.Unlock()
		t.elem = free[best]
		return nil
	case len(tied) > 0:
		ae := failure(action, t.handle, Ambiguous, "its element was re-rendered and several elements now fit it", nil)
		for _, i := range tied {
			c := free[i]
			ae.Candidates = append(ae.Candidates, Candidate{Role: c.Role, Name: c.Name, Landmark: c.Landmark})
		}
		return ae
	}
	return failure(action, t.handle, StaleRefUnresolved, "", nil)
}

func findLoader(t *proto.PageFrameTree, id proto.PageFrameID) (proto.NetworkLoaderID, bool) {
	if t == nil {
		return "", false
	}
	if t.Frame.ID == id {
		return t.Frame.LoaderID, true
	}
	for _, c := range t.ChildFrames {
		if l, ok := findLoader(c, id); ok {
			return l, true
		}
	}
	return "", false
}

// readFrame reads one frame's elements afresh — through its in-page
// inventory when it has one, else from the AX tree and a DOM snapshot — with
// boxes placed by the frame's origin at the last snapshot.
func (p *Page) readFrame(ctx context.Context, f frameInfo) ([]*ax.Element, error) {
	var items []ax.Item
	if p.fastAllowed(f) {
		w, err := p.readInventory(ctx, f, true, false)
		switch {
		case err == nil:
			items = w.Items
		case !errors.Is(err, errUseAX):
			return nil, err
		}
	}
	if items == nil {
		var nodes []*proto.AccessibilityAXNode
		var dom *ax.DOMIndex
		var axErr error
		var g errgroup.Group
		g.Go(func() error {
			res, err := proto.AccessibilityGetFullAXTree{FrameID: f.id}.Call(f.sess.Bind(ctx))
			if err != nil {
				axErr = err
				return nil
			}
			nodes = res.Nodes
			return nil
		})
		g.Go(func() error {
			res, err := proto.DOMSnapshotCaptureSnapshot{ComputedStyles: ax.SnapshotStyles}.Call(f.sess.Bind(ctx))
			if err == nil {
				dom = ax.IndexDOM(res)
			}
			return nil
		})
		_ = g.Wait()
		if axErr != nil {
			return nil, axErr
		}
		items = ax.Items(nodes, dom)
	}
	p.mu.Lock()
	origin := p.origins[f.id]
	prefix := ""
	if f.id != p.mainFrame {
		prefix = p.framePrefix(f.id) + "/"
	}
	p.mu.Unlock()
	var out []*ax.Element
	nth := map[string]int{}
	for _, it := range items {
		if it.Kind != ax.KindRef {
			continue
		}
		e := elementOf(it, f, prefix, origin[0], origin[1])
		key := it.Role + "\x00" + it.Name
		e.Nth = nth[key]
		nth[key]++
		out = append(out, e)
	}
	return out, nil
}

// scrollFrameIntoView brings the <iframe>s holding an out-of-process frame
// into view, outermost first, so the element inside can be scrolled to and
// hit. Same-process frames scroll along with their elements.
func (p *Page) scrollFrameIntoView(ctx context.Context, f frameInfo) error {
	chain := p.ownerChain(f)
	for i := len(chain) - 1; i >= 0; i-- {
		o := chain[i]
		if err := (proto.DOMScrollIntoViewIfNeeded{BackendNodeID: o.owner}).Call(o.sess.Bind(ctx)); err != nil {
			if session.IsNodeGone(err) || session.IsSessionGone(err) {
				return fmt.Errorf("%w: %w", errFrameGone, err)
			}
			return err
		}
	}
	return nil
}

type ownerLink struct {
	owner proto.DOMBackendNodeID
	sess  session.Session // the session holding the <iframe>
	frame proto.PageFrameID
}

// ownerChain lists, innermost first, the <iframe>s that separate f's session
// from the top-level page: one per out-of-process boundary. It stops at an
// <iframe> no look has found yet (owner 0); see ownerChainNow.
func (p *Page) ownerChain(f frameInfo) []ownerLink {
	return p.ownerLinks(f, false)
}

// ownerChainNow is ownerChain through every boundary: an <iframe> no look has
// found yet is asked of its parent's document (DOM.getFrameOwner).
func (p *Page) ownerChainNow(ctx context.Context, f frameInfo) ([]ownerLink, error) {
	chain := p.ownerLinks(f, true)
	for i := range chain {
		if chain[i].owner != 0 {
			continue
		}
		res, err := proto.DOMGetFrameOwner{FrameID: chain[i].frame}.Call(chain[i].sess.Bind(ctx))
		if err != nil {
			return nil, err
		}
		chain[i].owner = res.BackendNodeID
	}
	return chain, nil
}

func (p *Page) ownerLinks(f frameInfo, unknown bool) []ownerLink {
	p.mu.Lock()
	defer p.mu.Unlock()
	var chain []ownerLink
	cur := p.frames[f.id]
	for depth := 0; cur != nil && cur.sess.ID != p.main.ID && depth < 32; depth++ {
		// the local root of cur's session: the out-of-process frame itself
		root := cur
		for root != nil && !root.oopif {
			root = p.frames[root.parent]
		}
		if root == nil {
			break
		}
		parent := p.frames[root.parent]
		if parent == nil || (root.owner == 0 && !unknown) {
			break
		}
		chain = append(chain, ownerLink{owner: root.owner, sess: parent.sess, frame: root.id})
		cur = parent
	}
	return chain
}

// frameOrigin is where the local root of f's session starts in the top-level
// viewport now: the content box of each <iframe> along the owner chain.
func (p *Page) frameOrigin(ctx context.Context, f frameInfo) (float64, float64, error) {
	x, y := 0.0, 0.0
	for _, o := range p.ownerChain(f) {
		bm, err := proto.DOMGetBoxModel{BackendNodeID: o.owner}.Call(o.sess.Bind(ctx))
		if err != nil {
			if session.IsNodeGone(err) || session.IsSessionGone(err) {
				return 0, 0, fmt.Errorf("%w: %w", errFrameGone, err)
			}
			return 0, 0, err
		}
		if bm.Model == nil || len(bm.Model.Content) < 2 {
			return 0, 0, fmt.Errorf("%w: its <iframe> has no box", errFrameGone)
		}
		x += bm.Model.Content[0]
		y += bm.Model.Content[1]
	}
	return x, y, nil
}

func describeAX(n *proto.AccessibilityAXNode) string {
	if n == nil {
		return "an element"
	}
	role := axRole(n)
	name := ""
	if n.Name != nil {
		name = strings.TrimSpace(n.Name.Value.Str())
	}
	if name != "" {
		return role + " " + quote(name, 60)
	}
	return role
}
