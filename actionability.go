package rodagent

import (
	"context"
	"fmt"
	"math"

	"github.com/go-rod/rod/lib/proto"
	"golang.org/x/sync/errgroup"

	"github.com/rodagent/rodagent/input"
	"github.com/rodagent/rodagent/internal/session"
)

// needs says which checks an action requires beyond "rendered with a box".
type needs struct {
	enabled  bool // not disabled
	editable bool // takes text
	hit      bool // receives pointer input at the click point
	move     bool // move the pointer there while hit testing (the action presses next)
}

// actionable runs the checks after resolve (which already scrolled the node
// into view): visible, enabled, editable, a non-zero box, and that the node
// itself receives input at the point the mouse will use. It returns that
// point in top-level viewport coordinates.
func (p *Page) actionable(ctx context.Context, action string, t *target, n needs) (input.Point, error) {
	fail := func(st ActionStatus, detail string) (input.Point, error) {
		return input.Point{}, failure(action, t.handle, st, detail, nil)
	}
	if t.ax != nil && t.ax.Ignored {
		if st, why := ignoredStatus(t.ax); st != "" {
			return fail(st, why)
		}
	}
	if n.enabled && t.state.Disabled {
		return fail(Disabled, "")
	}
	if n.editable && (!t.state.Editable || t.state.Readonly) {
		detail := "it is a " + t.elem.Role
		if t.state.Readonly {
			detail = "it is read-only"
		}
		return fail(NotEditable, detail)
	}
	var quads []proto.DOMQuad
	var qErr, mErr, oErr error
	var metrics *proto.PageGetLayoutMetricsResult
	var ox, oy float64
	var g errgroup.Group
	g.Go(func() error {
		res, err := proto.DOMGetContentQuads{BackendNodeID: t.elem.Node}.Call(t.sess.Bind(ctx))
		if err == nil {
			quads = res.Quads
		}
		qErr = err
		return nil
	})
	g.Go(func() error {
		metrics, mErr = proto.PageGetLayoutMetrics{}.Call(t.sess.Bind(ctx))
		return nil
	})
	if t.sess.ID != p.main.ID {
		g.Go(func() error {
			ox, oy, oErr = p.frameOrigin(ctx, t.frame)
			return nil
		})
	}
	_ = g.Wait()
	for _, err := range []error{qErr, oErr} {
		if err == nil {
			continue
		}
		if session.IsNoLayout(err) {
			return fail(NotVisible, "it is not rendered")
		}
		if session.IsNodeGone(err) {
			return fail(StaleRefUnresolved, "it left the page while acting")
		}
		if session.IsSessionGone(err) {
			err = fmt.Errorf("%w: %w", errFrameGone, err)
		}
		return input.Point{}, t.fail(ctx, p, action, err)
	}
	if mErr != nil {
		return input.Point{}, p.actionErr(ctx, action, t.handle, mErr)
	}
	if p.stableCheck() {
		var err error
		if quads, err = p.waitStable(ctx, t, quads); err != nil {
			return input.Point{}, p.actionErr(ctx, action, t.handle, err)
		}
	}
	local, st := clickPoint(quads, metrics)
	if st != "" {
		return fail(st, "")
	}
	pt := input.Point{X: local.X + ox, Y: local.Y + oy}
	if !n.hit {
		return pt, nil
	}
	// Moving the pointer is what a person does before the press, and harmless
	// if the hit test then finds the target covered: run both at once.
	var moveErr error
	var g2 errgroup.Group
	if n.move {
		g2.Go(func() error {
			moveErr = input.Move(ctx, p.main, pt)
			return nil
		})
	}
	hitErr := p.hitTest(ctx, action, t, local, metrics)
	_ = g2.Wait()
	if hitErr != nil {
		return input.Point{}, hitErr
	}
	if moveErr != nil {
		return input.Point{}, p.inputErr(ctx, action, t.handle, moveErr)
	}
	return pt, nil
}

// ignoredStatus explains an ignored AX node as a status, or "" when the node
// can still take input (aria-hidden content is hidden from assistive tech
// only; people still see and click it).
func ignoredStatus(n *proto.AccessibilityAXNode) (ActionStatus, string) {
	for _, r := range n.IgnoredReasons {
		switch r.Name {
		case "notRendered", "notVisible":
			return NotVisible, "it is hidden"
		case "inertElement", "inertSubtree":
			return Obscured, "a modal dialog or inert region blocks it"
		}
	}
	return "", ""
}

// clickPoint picks the centre of the first quad with area, clipped to the
// visible part of the frame's viewport.
func clickPoint(quads []proto.DOMQuad, m *proto.PageGetLayoutMetricsResult) (input.Point, ActionStatus) {
	if len(quads) == 0 {
		return input.Point{}, NotVisible
	}
	for _, q := range quads {
		if len(q) < 8 || quadArea(q) < 1 {
			continue
		}
		minX, minY, maxX, maxY := q[0], q[1], q[0], q[1]
		for i := 0; i < 8; i += 2 {
			minX, maxX = math.Min(minX, q[i]), math.Max(maxX, q[i])
			minY, maxY = math.Min(minY, q[i+1]), math.Max(maxY, q[i+1])
		}
		if m != nil && m.CSSLayoutViewport != nil {
			vw, vh := float64(m.CSSLayoutViewport.ClientWidth), float64(m.CSSLayoutViewport.ClientHeight)
			minX, minY = math.Max(minX, 0), math.Max(minY, 0)
			maxX, maxY = math.Min(maxX, vw), math.Min(maxY, vh)
			if maxX-minX < 1 || maxY-minY < 1 {
				continue // this quad is outside the viewport
			}
		}
		return input.Point{X: (minX + maxX) / 2, Y: (minY + maxY) / 2}, ""
	}
	for _, q := range quads {
		if len(q) >= 8 && quadArea(q) >= 1 {
			return input.Point{}, NotVisible // it has area, but none of it is in view
		}
	}
	return input.Point{}, ZeroRect
}

func quadArea(q proto.DOMQuad) float64 {
	a := 0.0
	for i := 0; i < 8; i += 2 {
		j := (i + 2) % 8
		a += q[i]*q[j+1] - q[j]*q[i+1]
	}
	return math.Abs(a) / 2
}

// hitTest asks the frame which node is at the click point. The target, a
// node inside it (shadow trees included) or a label of it may receive the
// input; anything else covers it, and is named in the error.
func (p *Page) hitTest(ctx context.Context, action string, t *target, local input.Point, m *proto.PageGetLayoutMetricsResult) error {
	px, py := 0.0, 0.0
	if m != nil && m.CSSLayoutViewport != nil {
		// getNodeForLocation takes document coordinates
		px, py = float64(m.CSSLayoutViewport.PageX), float64(m.CSSLayoutViewport.PageY)
	}
	res, err := proto.DOMGetNodeForLocation{X: int(math.Round(local.X + px)), Y: int(math.Round(local.Y + py)),
		IncludeUserAgentShadowDOM: false}.Call(t.sess.Bind(ctx))
	if err != nil {
		return p.actionErr(ctx, action, t.handle, err)
	}
	if res.BackendNodeID == t.elem.Node {
		return nil
	}
	ok, err := p.receives(ctx, t, res.BackendNodeID)
	if err != nil {
		return p.actionErr(ctx, action, t.handle, err)
	}
	if ok {
		return nil
	}
	return failure(action, t.handle, Obscured, "covered by "+p.describeNode(ctx, t.sess, res.BackendNodeID), nil)
}

// receivesJS decides, in the page, whether a click on hit reaches el: hit is
// el or inside it (crossing shadow roots), or a label whose control is el.
const receivesJS = `function (hit) {
	for (let n = hit; n; n = n.parentNode || n.host) { if (n === this) return true; }
	for (let n = hit; n; n = n.parentNode || n.host) {
		if (n.tagName === 'LABEL' && n.control === this) return true;
	}
	return false;
}`

func (p *Page) receives(ctx context.Context, t *target, hit proto.DOMBackendNodeID) (bool, error) {
	const group = "rodagent-hit"
	bc := t.sess.Bind(ctx)
	defer func() {
		_ = proto.RuntimeReleaseObjectGroup{ObjectGroup: group}.Call(t.sess.Bind(context.WithoutCancel(ctx)))
	}()
	var el, h *proto.DOMResolveNodeResult
	var e1, e2 error
	var g errgroup.Group
	g.Go(func() error {
		el, e1 = proto.DOMResolveNode{BackendNodeID: t.elem.Node, ObjectGroup: group}.Call(bc)
		return nil
	})
	g.Go(func() error {
		h, e2 = proto.DOMResolveNode{BackendNodeID: hit, ObjectGroup: group}.Call(bc)
		return nil
	})
	_ = g.Wait()
	if e1 != nil {
		return false, e1
	}
	if e2 != nil {
		return false, nil // the hit node is in another document: something covers the target
	}
	res, err := proto.RuntimeCallFunctionOn{ObjectID: el.Object.ObjectID, FunctionDeclaration: receivesJS,
		Arguments: []*proto.RuntimeCallArgument{{ObjectID: h.Object.ObjectID}}, ReturnByValue: true}.Call(bc)
	if err != nil {
		return false, err
	}
	return res.Result.Value.Bool(), nil
}

// describeNode names an element the way a model reads it: the role and name
// of the nearest ancestor-or-self that has them.
func (p *Page) describeNode(ctx context.Context, s session.Session, id proto.DOMBackendNodeID) string {
	res, err := proto.AccessibilityGetPartialAXTree{BackendNodeID: id, FetchRelatives: true}.Call(s.Bind(ctx))
	if err != nil || len(res.Nodes) == 0 {
		return "another element"
	}
	byID := map[proto.AccessibilityAXNodeID]*proto.AccessibilityAXNode{}
	var start *proto.AccessibilityAXNode
	for _, n := range res.Nodes {
		byID[n.NodeID] = n
		if n.BackendDOMNodeID == id && start == nil {
			start = n
		}
	}
	if start == nil {
		start = res.Nodes[len(res.Nodes)-1]
	}
	for n, depth := start, 0; n != nil && depth < 50; n, depth = byID[n.ParentID], depth+1 {
		role := axRole(n)
		if n.Ignored || role == "generic" || role == "none" || role == "StaticText" || role == "RootWebArea" {
			continue
		}
		return describeAX(n)
	}
	return "another element"
}

// SetStabilityCheck turns on (or off) waiting, before pointer input, until the
// target's box is the same across two animation frames — for elements that
// slide or grow. It costs two round trips per frame waited; off by default.
func (p *Page) SetStabilityCheck(on bool) {
	p.mu.Lock()
	p.stable = on
	p.mu.Unlock()
}

func (p *Page) stableCheck() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.stable
}

const nextFrameJS = `new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))`

// waitStable waits, frame by frame, until the target's quads stop changing,
// bounded by ctx.
func (p *Page) waitStable(ctx context.Context, t *target, quads []proto.DOMQuad) ([]proto.DOMQuad, error) {
	for {
		if _, err := (proto.RuntimeEvaluate{Expression: nextFrameJS, AwaitPromise: true}).Call(t.sess.Bind(ctx)); err != nil {
			return nil, err
		}
		res, err := proto.DOMGetContentQuads{BackendNodeID: t.elem.Node}.Call(t.sess.Bind(ctx))
		if err != nil {
			return nil, err
		}
		if sameQuads(quads, res.Quads) {
			return res.Quads, nil
		}
		quads = res.Quads
	}
}

func sameQuads(a, b []proto.DOMQuad) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if len(a[i]) != len(b[i]) {
			return false
		}
		for k := range a[i] {
			if math.Abs(a[i][k]-b[i][k]) > 0.5 {
				return false
			}
		}
	}
	return true
}
