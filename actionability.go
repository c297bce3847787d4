package rodagent

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

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
	press    bool // arm the press guard: the press that follows must land on the target
	// approved: the Approver already allowed the call this step is part
	// of (a Select's clicks on a drawn dropdown): it is not asked again.
	approved bool
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
	var qErr, mErr, oErr, hErr error
	var metrics *proto.PageGetLayoutMetricsResult
	var ox, oy float64
	var obj *proto.RuntimeRemoteObject
	var group string
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
	if n.hit {
		// The hit test's handle on the target, fetched alongside the box so
		// the hit test itself is the only round trip it adds.
		g.Go(func() error {
			obj, group, hErr = p.hitObject(ctx, t)
			return nil
		})
	}
	_ = g.Wait()
	if group != "" {
		defer p.releaseHit(t, group)
	}
	for _, err := range []error{qErr, oErr, hErr} {
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
	standIn := false // quads are a label's that stands in for the target
	if n.hit && tinyBox(quads) {
		// A control drawn by its label (rating stars, custom radios and
		// checkboxes: the input itself is a visually hidden 1px box) is
		// pressed where a person presses, on its visible label, which
		// forwards the click to it; at the input's own point lies whatever
		// the layout put there, often the next item's label.
		lq, lobj, err := p.labelStandIn(ctx, t, obj, group)
		if err != nil {
			return input.Point{}, t.fail(ctx, p, action, err)
		}
		if lobj != nil {
			quads, obj = lq, lobj
			standIn = true
		}
	}
	local, st := clickPoint(quads, metrics)
	if st == ZeroRect && obj != nil {
		// An image a hover just swapped has no box until it loads: wait,
		// frame by frame, for a box with area that holds still.
		if q, err := p.waitBox(ctx, t, obj); err == nil {
			quads = q
			local, st = clickPoint(quads, metrics)
		}
	}
	if st == NotVisible && len(quads) > 0 && !standIn {
		// The box has area but none of it is in the viewport, though resolve
		// scrolled it in: the page moved it since (content inserted above
		// it — the APG pages add their CodePen buttons from a 500 ms
		// interval — or its view scrolled). A person scrolls to it again
		// and looks; so does the action, once.
		if q, m, err := p.rescroll(ctx, t); err == nil {
			quads, metrics = q, m
			local, st = clickPoint(quads, metrics)
		}
	}
	if st != "" {
		return fail(st, outOfView(st, quads, metrics))
	}
	if !n.hit {
		return input.Point{X: local.X + ox, Y: local.Y + oy}, nil
	}
	local, err := p.settledHit(ctx, action, t, obj, quads, metrics, n.press)
	if errors.Is(err, ErrObscured) {
		// A control a wrapper clips to nothing (a visually hidden input
		// behind a drawn field: its own box is whole, so it is not tiny)
		// is pressed where a person presses, on the field that draws it;
		// at its own point lies the drawing, which the field's click
		// handler serves. Asked only once the press would miss, so a
		// plain click costs no extra round trip.
		fq, fobj, ferr := p.standIn(ctx, t, obj, group, clippedStandInJS)
		if ferr == nil && fobj == nil {
			fq, fobj, ferr = p.standIn(ctx, t, obj, group, coveredStandInJS)
		}
		if ferr != nil {
			return input.Point{}, t.fail(ctx, p, action, ferr)
		}
		if fobj != nil {
			if _, st := clickPoint(fq, metrics); st == "" {
				local, err = p.settledHit(ctx, action, t, fobj, fq, metrics, n.press)
			}
		}
	}
	if err != nil {
		return input.Point{}, err
	}
	pt := input.Point{X: local.X + ox, Y: local.Y + oy}
	if n.move {
		if err := input.Move(ctx, p.main, pt); err != nil {
			return input.Point{}, p.inputErr(ctx, action, t.handle, err)
		}
	}
	return pt, nil
}

// rescroll scrolls the target into view again and reads its box and the
// viewport afresh.
func (p *Page) rescroll(ctx context.Context, t *target) ([]proto.DOMQuad, *proto.PageGetLayoutMetricsResult, error) {
	bc := t.sess.Bind(ctx)
	if err := (proto.DOMScrollIntoViewIfNeeded{BackendNodeID: t.elem.Node}).Call(bc); err != nil {
		return nil, nil, err
	}
	q, err := proto.DOMGetContentQuads{BackendNodeID: t.elem.Node}.Call(bc)
	if err != nil {
		return nil, nil, err
	}
	m, err := proto.PageGetLayoutMetrics{}.Call(bc)
	if err != nil {
		return nil, nil, err
	}
	return q.Quads, m, nil
}

// settledHit runs the hit test at the target's click point. When a running
// animation may be moving the target (and the stability check is on), it
// first waits until the box is the same on two consecutive animation frames
// (at most stableCap, else NotStable naming the motion), then tests again on
// the settled box: the press that follows lands where the test looked.
func (p *Page) settledHit(ctx context.Context, action string, t *target, obj *proto.RuntimeRemoteObject,
	quads []proto.DOMQuad, metrics *proto.PageGetLayoutMetricsResult, arm bool) (input.Point, error) {
	local, _ := clickPoint(quads, metrics)
	v, err := p.judge(ctx, t, obj, local, quads, arm)
	if err != nil {
		return input.Point{}, p.actionErr(ctx, action, t.handle, err)
	}
	if v.motion == "" && p.stableCheck() {
		// The judge re-bases the click point on the box as it is when the
		// judge runs, so a box that moved after its quads were read (an
		// animation that ended in between: no motion left to see) passes a
		// point the press, made on the old quads, would not hit. A target
		// found covered is read again too: one a script slides into place
		// (jQuery's animate, no CSS animation to see) is covered only until
		// it stops.
		q, err := p.quadsNow(ctx, action, t, obj)
		if err != nil {
			return input.Point{}, p.actionErr(ctx, action, t.handle, err)
		}
		if !sameQuads(quads, q) {
			v.motion = "a move since its box was read"
		}
	}
	if v.motion != "" && p.stableCheck() {
		settled, err := p.waitStill(ctx, t, obj, quads)
		if err != nil {
			if errors.Is(err, errStillMoving) {
				return input.Point{}, failure(action, t.handle, NotStable, "still moving after "+stableCap.String()+": "+v.motion, nil)
			}
			return input.Point{}, p.actionErr(ctx, action, t.handle, err)
		}
		var st ActionStatus
		if local, st = clickPoint(settled, metrics); st != "" {
			return input.Point{}, failure(action, t.handle, st, "", nil)
		}
		if v, err = p.judge(ctx, t, obj, local, settled, arm); err != nil {
			return input.Point{}, p.actionErr(ctx, action, t.handle, err)
		}
	}
	if !v.ok && v.through {
		e := failure(action, t.handle, Obscured, "it takes no presses (pointer-events: none): they reach "+v.desc+", which offers none", nil)
		e.Next = "nothing covers it, but the page lets no click reach it — try Focus and keys, or pick another element"
		return input.Point{}, e
	}
	if !v.ok {
		return input.Point{}, failure(action, t.handle, Obscured, "covered by "+p.coverText(ctx, t, obj, v), nil)
	}
	return local, nil
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

// tinyBox reports whether the quads make a box no person could aim at: at
// most 2 CSS px across, the size of a visually hidden input.
func tinyBox(quads []proto.DOMQuad) bool {
	if len(quads) == 0 {
		return false
	}
	for _, q := range quads {
		if len(q) < 8 {
			return false
		}
		minX, minY, maxX, maxY := q[0], q[1], q[0], q[1]
		for i := 0; i < 8; i += 2 {
			minX, maxX = math.Min(minX, q[i]), math.Max(maxX, q[i])
			minY, maxY = math.Min(minY, q[i+1]), math.Max(maxY, q[i+1])
		}
		if maxX-minX > 2 && maxY-minY > 2 {
			return false
		}
	}
	return true
}

// labelStandInJS returns the first label of the target that a person can
// see and aim at, else, for an unlabelled checkbox or radio, the box that
// draws it (the nearest ancestor, a few levels up, with room to press that
// holds no other control: Element Plus's switch, whose click handler is on
// the box around the input, its track and its words), or null.
const labelStandInJS = `function () {
	if (!this.labels) return null;
	const aim = e => { const b = e.getBoundingClientRect(); return b.width > 2 && b.height > 2 && e.checkVisibility({visibilityProperty: true}); };
	for (const l of this.labels) if (aim(l)) return l;
	if (this.labels.length || (this.type !== 'checkbox' && this.type !== 'radio')) return null;
	const controls = 'a[href],button,input:not([type=hidden]),select,textarea,label,[role=button],[role=link],[role=checkbox],[role=radio],[role=switch],[role=option],[role=tab],[role=combobox],[role=textbox],[role=slider]';
	for (let p = this.parentElement, k = 0; p && k < 3 && p !== document.body; p = p.parentElement, k++) {
		if (p.querySelectorAll(controls).length !== 1) return null;
		if (aim(p)) return p;
	}
	return null;
}`

// labelStandIn finds the visible label of a target too small to aim at, and
// its quads; a nil object when it has none.
func (p *Page) labelStandIn(ctx context.Context, t *target, obj *proto.RuntimeRemoteObject, group string) ([]proto.DOMQuad, *proto.RuntimeRemoteObject, error) {
	return p.standIn(ctx, t, obj, group, labelStandInJS)
}

// clippedStandInJS returns the field that draws a target an ancestor clips
// to at most 2 px (the visually hidden input of a custom select): the
// nearest ancestor of the clipping box with room to press that holds no
// other control in the tab order (the field's own arrow, outside it, is
// part of the field), or null.
const clippedStandInJS = `function () {
	const tiny = b => b.width <= 2 || b.height <= 2;
	let clipper = null;
	for (let n = this.parentElement; n && !clipper; n = n.parentElement) {
		const cs = getComputedStyle(n);
		if ((cs.overflowX !== 'visible' || cs.clip !== 'auto' || cs.clipPath !== 'none') && tiny(n.getBoundingClientRect())) clipper = n;
	}
	if (!clipper) return null;
	for (let f = clipper.parentElement; f && f !== document.body; f = f.parentElement) {
		if (tiny(f.getBoundingClientRect())) continue;
		for (const c of f.querySelectorAll('a[href],button,input,select,textarea,[tabindex],[role]')) {
			if (c === this || clipper.contains(c) || c.tabIndex < 0) continue;
			return null;
		}
		return f.checkVisibility({visibilityProperty: true}) ? f : null;
	}
	return null;
}`

// coveredStandInJS returns the field that draws an input whose own point
// the field's drawing covers (the placeholder or chosen value a custom
// select lays over its input, which its wrapper's click handler serves):
// the lowest ancestor with room to press shared by the input and what
// lies on its centre, when it holds no other control in the tab order,
// else null. A cover outside such a field (a banner, a modal's
// backdrop, another control) keeps the input covered.
const coveredStandInJS = `function () {
	if (this.tagName !== 'INPUT' && this.tagName !== 'TEXTAREA') return null;
	const r = this.getBoundingClientRect();
	const root = this.getRootNode();
	const hit = (root.elementFromPoint ? root : document).elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
	if (!hit || hit === this) return null;
	let f = this.parentElement;
	while (f && !f.contains(hit)) f = f.parentElement;
	const tiny = b => b.width <= 2 || b.height <= 2;
	while (f && tiny(f.getBoundingClientRect())) f = f.parentElement; // a row of absolutely placed parts
	if (!f || f === document.body || f === document.documentElement) return null;
	for (const c of f.querySelectorAll('a[href],button,input,select,textarea,[tabindex],[role]')) {
		if (c === this || c.tabIndex < 0) continue;
		return null;
	}
	return f.checkVisibility({visibilityProperty: true}) ? f : null;
}`

// standIn runs js on the target to find the element a press goes to in its
// place, and that element's quads; a nil object when there is none.
func (p *Page) standIn(ctx context.Context, t *target, obj *proto.RuntimeRemoteObject, group, js string) ([]proto.DOMQuad, *proto.RuntimeRemoteObject, error) {
	if obj == nil {
		return nil, nil, nil
	}
	res, err := proto.RuntimeCallFunctionOn{ObjectID: obj.ObjectID, FunctionDeclaration: js,
		ObjectGroup: group}.Call(t.sess.Bind(ctx))
	if err != nil {
		return nil, nil, err
	}
	if res.ExceptionDetails != nil || res.Result == nil || res.Result.ObjectID == "" {
		return nil, nil, nil
	}
	q, err := proto.DOMGetContentQuads{ObjectID: res.Result.ObjectID}.Call(t.sess.Bind(ctx))
	if err != nil {
		if session.IsNoLayout(err) {
			return nil, nil, nil
		}
		return nil, nil, err
	}
	return q.Quads, res.Result, nil
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

// outOfView says where a box with area lies when clickPoint found none of
// it in the viewport, so the failure names what a person would see: the
// target scrolled out of view (a page that moved its view after the action
// scrolled the target in), not a hidden one.
func outOfView(st ActionStatus, quads []proto.DOMQuad, m *proto.PageGetLayoutMetricsResult) string {
	if st != NotVisible || m == nil || m.CSSLayoutViewport == nil {
		return ""
	}
	for _, q := range quads {
		if len(q) < 8 || quadArea(q) < 1 {
			continue
		}
		minX, minY := math.Min(math.Min(q[0], q[2]), math.Min(q[4], q[6])), math.Min(math.Min(q[1], q[3]), math.Min(q[5], q[7]))
		return fmt.Sprintf("its box at (%.0f, %.0f) lies outside the %d×%d view", minX, minY,
			m.CSSLayoutViewport.ClientWidth, m.CSSLayoutViewport.ClientHeight)
	}
	return ""
}

func quadArea(q proto.DOMQuad) float64 {
	a := 0.0
	for i := 0; i < 8; i += 2 {
		j := (i + 2) % 8
		a += q[i]*q[j+1] - q[j]*q[i+1]
	}
	return math.Abs(a) / 2
}

// SetStabilityCheck turns off (or back on) waiting, before pointer input, for
// a moving target to come to rest. It is on by default: when a running CSS
// animation or transition of the target or an ancestor may be moving it, the
// press waits until the target's box is the same on two consecutive
// animation frames (at most 5 s, else NotStable), and the hit test runs again
// on the settled box. A still target costs no frame: the check rides on the
// hit test's round trip.
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

var errStillMoving = errors.New("still moving")

// waitStill waits, frame by frame, until the target's quads are the same on
// two consecutive animation frames with no animation that moves it still
// waiting to start, at most stableCap.
func (p *Page) waitStill(ctx context.Context, t *target, obj *proto.RuntimeRemoteObject, quads []proto.DOMQuad) ([]proto.DOMQuad, error) {
	deadline := time.Now().Add(stableCap)
	for time.Now().Before(deadline) {
		res, err := proto.RuntimeCallFunctionOn{ObjectID: obj.ObjectID, FunctionDeclaration: pendingJS, AwaitPromise: true,
			ReturnByValue: true}.Call(t.sess.Bind(ctx))
		if err != nil {
			return nil, err
		}
		pending := res.Result.Value.Bool()
		q, err := p.quadsNow(ctx, "", t, obj)
		if err != nil {
			return nil, err
		}
		if !pending && sameQuads(quads, q) {
			return q, nil
		}
		quads = q
	}
	return nil, errStillMoving
}

// quadsNow reads the box of obj, the node the hit test judges (a control's
// label when it stands in for a tiny control), with the errors of a box
// that is gone typed as the first read's are.
func (p *Page) quadsNow(ctx context.Context, action string, t *target, obj *proto.RuntimeRemoteObject) ([]proto.DOMQuad, error) {
	q, err := proto.DOMGetContentQuads{ObjectID: obj.ObjectID}.Call(t.sess.Bind(ctx))
	switch {
	case err == nil:
		return q.Quads, nil
	case session.IsNoLayout(err):
		return nil, failure(action, t.handle, NotVisible, "it is not rendered", nil)
	case session.IsNodeGone(err):
		return nil, failure(action, t.handle, StaleRefUnresolved, "it left the page while acting", nil)
	case session.IsSessionGone(err):
		return nil, fmt.Errorf("%w: %w", errFrameGone, err)
	case strings.Contains(err.Error(), "Could not find object with given id"):
		// obj lived in a document's world, which went with its document.
		return nil, failure(action, t.handle, PageChanged, "the page navigated under the call", err)
	}
	return nil, err
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

const frameFn = `function () { return new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(true)))) }`

// waitBox waits, one animation frame at a time, until the target's quads
// have area and are the same on two consecutive frames, at most stableCap
// or ctx's deadline; else errStillMoving (the caller reports ZeroRect).
func (p *Page) waitBox(ctx context.Context, t *target, obj *proto.RuntimeRemoteObject) ([]proto.DOMQuad, error) {
	deadline := time.Now().Add(stableCap)
	var prev []proto.DOMQuad
	for time.Now().Before(deadline) && ctx.Err() == nil {
		if _, err := (proto.RuntimeCallFunctionOn{ObjectID: obj.ObjectID, FunctionDeclaration: frameFn,
			AwaitPromise: true}).Call(t.sess.Bind(ctx)); err != nil {
			return nil, err
		}
		q, err := proto.DOMGetContentQuads{BackendNodeID: t.elem.Node}.Call(t.sess.Bind(ctx))
		if err != nil {
			return nil, err
		}
		area := false
		for _, qd := range q.Quads {
			area = area || len(qd) >= 8 && quadArea(qd) >= 1
		}
		if area && prev != nil && sameQuads(prev, q.Quads) {
			return q.Quads, nil
		}
		if area {
			prev = q.Quads
		} else {
			prev = nil
		}
	}
	return nil, errStillMoving
}
