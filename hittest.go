package rodagent

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/go-rod/rod/lib/proto"
	"github.com/ysmood/gson"

	"github.com/rodagent/rodagent/input"
	"github.com/rodagent/rodagent/internal/ax"
)

// The hit test asks the target's own document, in the library's isolated
// world (the page cannot fake elementFromPoint there), what a press at the
// click point would reach. elementFromPoint answers as the browser's mouse
// targeting does: a pseudo-element's box and a text node belong to their
// element, pointer-events:none lets the press through. The target counts
// when the hit is the target, inside it in the flat tree (open shadow trees
// are descended into, and a host's light children count where their slot
// puts them) or a label of it. Anything else covers it, and is named by
// the topmost foreign element: the hit's ancestor just below the lowest one
// it shares with the target, so a cookie banner is named, not the landmark
// that holds both.
//
// The same call tells whether a running animation or transition of the target
// or an ancestor may be moving it; only then does the stability check wait
// for frames, so a still target costs no frame.

// judgeJS runs on the target with the click point (x, y) and the top-left of
// the target's quads (qx, qy), both in the session's viewport coordinates.
const judgeJS = `function (x, y, qx, qy, arm) {
	const self = this;
` + movesJS + `
	const up = n => n.assignedSlot || ((n.nodeType === 11 && n.host) ? n.host : n.parentNode);
	const within = (n, anc) => { for (; n; n = up(n)) if (n === anc) return true; return false; };
	const tag = el => {
		let s = el.tagName ? el.tagName.toLowerCase() : 'node';
		if (el.id) s += '#' + el.id;
		else if (typeof el.className === 'string' && el.className.trim()) s += '.' + el.className.trim().split(/\s+/)[0];
		return s;
	};
	// guard arms the press guard (see pressGuardJS) when the press follows;
	// a hit test for any other input disarms one a failed action left, so
	// it never judges a press it was not armed for.
	if (!arm && globalThis.__rodagentPressGuard) { globalThis.__rodagentPressGuard.off(); globalThis.__rodagentPressGuard = null; }
	let through = null; // the box a press passes through the target to, when judged its (below)
	const guard = on => {
		if (!on) return true;
` + pressGuardJS + `
		return true;
	};
	let motion = '';
	for (const a of document.getAnimations()) {
		if (a.playState !== 'running') continue;
		const tg = a.effect && a.effect.target;
		if (!tg || !within(self, tg) || !moves(a)) continue;
		const what = a.transitionProperty ? 'a transition of ' + a.transitionProperty :
			'animation ' + (a.animationName || a.id || '');
		motion = what + ' on ' + tag(tg);
		break;
	}
	const r = self.getBoundingClientRect();
	const lx = x - qx + r.left, ly = y - qy + r.top;
	const root = self.getRootNode();
	let hit = (root && root.elementFromPoint ? root : document).elementFromPoint(lx, ly);
	for (let i = 0; hit && hit.shadowRoot && i < 32; i++) {
		const d = hit.shadowRoot.elementFromPoint(lx, ly);
		if (!d || d === hit) break;
		hit = d;
	}
	if (!hit) return {motion, ok: false, desc: 'nothing at its click point'};
	if (within(hit, self)) return {motion, ok: guard(arm)};
	for (let n = hit; n; n = up(n)) if (n.tagName === 'LABEL' && n.control && within(self, n.control)) return {motion, ok: guard(arm)};
	// A press on a host's own light text (a custom button's label, slotted
	// into the control inside its shadow tree) hits the host, yet the event
	// travels the flat tree through the slot and reaches the control.
	if (hit.shadowRoot && within(self, hit)) {
		for (const c of hit.childNodes) if (c.assignedSlot && within(c.assignedSlot, self)) return {motion, ok: guard(arm)};
	}
	// A target the page made let presses through (pointer-events: none) to
	// the box it is drawn in, which shows a hand for it (Vuetify's select:
	// its input passes the press to the field, which opens the list), is
	// pressed where it shows: the press reaches that box, as a person's
	// does. Without the hand the box is no control the page offers there
	// (Bootstrap's disabled link button): the message says why.
	const passes = within(self, hit) && getComputedStyle(self).pointerEvents === 'none';
	if (passes && getComputedStyle(hit).cursor === 'pointer') { through = hit; return {motion, ok: guard(arm)}; }
	let cover = hit;
	for (let n = hit; n; n = up(n)) { if (n.nodeType === 1 && within(self, n)) break; if (n.nodeType === 1) cover = n; }
	if (passes) return {motion, ok: false, through: true, desc: tag(hit), text: ''};
	window.__rodagentCover = cover;
	const text = (cover.getAttribute('aria-label') || cover.innerText || cover.textContent || cover.title || '').trim().replace(/\s+/g, ' ');
	return {motion, ok: false, desc: tag(cover), text: text.slice(0, 80)};
}`

// pressGuardJS, run inside judgeJS when a press follows a passed hit test,
// watches the press itself: the box the hit test saw can move between the
// test and the press (a dialog sliding in on the compositor, a list that
// re-lays out), and the press then lands on whatever took its place. The
// first trusted pointerdown or mousedown of the press is judged as the hit
// test judges: on the target, inside it in the flat tree, or on a label of
// it. A press that misses is stopped before the page sees it (down, up and
// click, default actions included), so the wrong element never acts, and
// the action tries again on the box as it is now (pressLanded). The guard
// disarms when read, or by itself after a few seconds should the press
// never come.
const pressGuardJS = `
		const old = globalThis.__rodagentPressGuard;
		if (old) old.off();
		const types = ['pointerdown', 'mousedown', 'pointerup', 'mouseup', 'click', 'dblclick', 'auxclick', 'contextmenu'];
		const g = {seen: 0, miss: ''};
		// A listener on the window sees no node inside a closed shadow
		// tree: there, a press inside the outermost closed tree's host
		// is as close as it can tell.
		let anchor = self;
		for (let n = self; ; ) {
			const r = n.getRootNode();
			if (r.nodeType !== 11 || !r.host) break;
			if (r.mode === 'closed') anchor = r.host;
			n = r.host;
		}
		let stopping = false;
		const watch = e => {
			if (!e.isTrusted) return;
			if (e.type === 'pointerdown' || e.type === 'mousedown') {
				const path = e.composedPath();
				const on = path.includes(anchor) || (through && path[0] === through) || path.some(n => n.tagName === 'LABEL' && n.control && within(self, n.control));
				if (on) { g.seen++; stopping = false; }
				else if (!stopping) {
					const t = path[0] && path[0].nodeType === 1 ? path[0] : path[1];
					g.miss = t ? tag(t) : 'node';
					stopping = true;
				}
			}
			if (stopping) { e.preventDefault(); e.stopImmediatePropagation(); }
		};
		for (const ty of types) window.addEventListener(ty, watch, true);
		const timer = setTimeout(() => g.off(), 5000);
		g.off = () => { clearTimeout(timer); for (const ty of types) window.removeEventListener(ty, watch, true); };
		globalThis.__rodagentPressGuard = g;
`

// pressLandedJS reads and disarms the press guard: null when none is armed.
const pressLandedJS = `(() => {
	const g = globalThis.__rodagentPressGuard;
	if (!g) return null;
	g.off();
	globalThis.__rodagentPressGuard = null;
	return {seen: g.seen, miss: g.miss};
})()`

// movesJS defines moves(a): whether an animation or transition changes
// geometry (a colour or opacity change moves nothing, and costs no wait).
const movesJS = `
	const geometric = /^(all|transform|translate|scale|rotate|left|top|right|bottom|inset.*|width|height|margin.*|padding.*|flex.*|grid.*|offset.*|zoom|font-size|line-height|border.*width)$/;
	const moves = a => {
		if (a.transitionProperty) return geometric.test(a.transitionProperty);
		try {
			for (const k of a.effect.getKeyframes()) {
				for (const p of Object.keys(k)) {
					if (geometric.test(p.replace(/[A-Z]/g, c => '-' + c.toLowerCase()))) return true;
				}
			}
		} catch (e) { return true; }
		return false;
	};
`

// pendingJS resolves at the next animation frame with whether an animation
// that moves the target has not started yet: its first frames hold it still.
const pendingJS = `function () {
	const self = this;
	const up = n => n.assignedSlot || ((n.nodeType === 11 && n.host) ? n.host : n.parentNode);
	const within = (n, anc) => { for (; n; n = up(n)) if (n === anc) return true; return false; };
` + movesJS + `
	return new Promise(r => requestAnimationFrame(() => r(document.getAnimations().some(a =>
		a.pending && a.effect && a.effect.target && within(self, a.effect.target) && moves(a)))));
}`

// coverJS returns the element judgeJS found covering the target.
const coverJS = `function () { const c = window.__rodagentCover; window.__rodagentCover = null; return c || null; }`

// verdict is what judgeJS says.
type verdict struct {
	motion string // a running animation that may move the target, if any
	ok     bool   // the press reaches the target
	desc   string // the covering element as tag#id
	text   string // its text
	// the target lets presses through (pointer-events: none) to desc, a
	// box it is drawn in
	through bool
}

var hitGroups atomic.Int64

// hitObject resolves the target into the library's isolated world of its
// frame, for judge. The world is made again when its document's was lost.
func (p *Page) hitObject(ctx context.Context, t *target) (*proto.RuntimeRemoteObject, string, error) {
	group := "rodagent-hit-" + strconv.FormatInt(hitGroups.Add(1), 10)
	for attempt := 0; ; attempt++ {
		w, err := p.world(ctx, t.frame)
		if err != nil {
			return nil, group, err
		}
		res, err := proto.DOMResolveNode{BackendNodeID: t.elem.Node, ExecutionContextID: w, ObjectGroup: group}.Call(t.sess.Bind(ctx))
		if err != nil && attempt == 0 && isNavigationGone(err) {
			p.forgetWorldOf(t.frame)
			continue
		}
		if err != nil {
			return nil, group, err
		}
		return res.Object, group, nil
	}
}

// releaseHit drops the objects of one hit test, off the action's path.
func (p *Page) releaseHit(t *target, group string) {
	p.background(func(ctx context.Context) {
		_ = proto.RuntimeReleaseObjectGroup{ObjectGroup: group}.Call(t.sess.Bind(ctx))
	})
}

// judge runs judgeJS on the target for the click point at.
func (p *Page) judge(ctx context.Context, t *target, obj *proto.RuntimeRemoteObject, at input.Point, quads []proto.DOMQuad, arm bool) (verdict, error) {
	qx, qy := math.Inf(1), math.Inf(1)
	for _, q := range quads {
		for i := 0; i+1 < len(q); i += 2 {
			qx, qy = math.Min(qx, q[i]), math.Min(qy, q[i+1])
		}
	}
	if math.IsInf(qx, 1) {
		qx, qy = at.X, at.Y
	}
	args := []*proto.RuntimeCallArgument{{Value: gson.New(at.X)}, {Value: gson.New(at.Y)}, {Value: gson.New(qx)}, {Value: gson.New(qy)},
		{Value: gson.New(arm)}}
	res, err := proto.RuntimeCallFunctionOn{ObjectID: obj.ObjectID, FunctionDeclaration: judgeJS, Arguments: args,
		ReturnByValue: true}.Call(t.sess.Bind(ctx))
	if err != nil {
		return verdict{}, err
	}
	if res.ExceptionDetails != nil {
		return verdict{}, fmt.Errorf("rodagent: hit test: %s", res.ExceptionDetails.Text)
	}
	v := res.Result.Value
	return verdict{motion: v.Get("motion").Str(), ok: v.Get("ok").Bool(), desc: v.Get("desc").Str(), text: v.Get("text").Str(), through: v.Get("through").Bool()}, nil
}

// coverText names what covers the target: its role and name from the
// accessibility tree (its tag and text when it has no role), and its ref when
// it has one.
func (p *Page) coverText(ctx context.Context, t *target, obj *proto.RuntimeRemoteObject, v verdict) string {
	fallback := v.desc
	if v.text != "" {
		fallback += " " + quote(v.text, 60)
	}
	res, err := proto.RuntimeCallFunctionOn{ObjectID: obj.ObjectID, FunctionDeclaration: coverJS,
		ObjectGroup: ""}.Call(t.sess.Bind(ctx))
	if err != nil || res.Result == nil || res.Result.ObjectID == "" {
		return fallback
	}
	return p.nodeText(ctx, t, res.Result.ObjectID, fallback)
}

// nodeText names the element behind obj (in t's session) by its role and
// name, and its ref when it has one; fallback when it cannot be read.
func (p *Page) nodeText(ctx context.Context, t *target, obj proto.RuntimeRemoteObjectID, fallback string) string {
	d, err := proto.DOMDescribeNode{ObjectID: obj}.Call(t.sess.Bind(ctx))
	if err != nil || d.Node == nil {
		return fallback
	}
	id := d.Node.BackendNodeID
	text := fallback
	if tree, err := (proto.AccessibilityGetPartialAXTree{BackendNodeID: id, FetchRelatives: false}).Call(t.sess.Bind(ctx)); err == nil {
		for _, n := range tree.Nodes {
			if n.BackendDOMNodeID == id && !n.Ignored && !roleless(axRole(n)) {
				text = describeAX(n)
				break
			}
		}
	}
	p.mu.Lock()
	h, ok := p.reg.HandleOf(ax.NodeKey{Frame: string(t.frame.id), Node: id})
	p.mu.Unlock()
	if ok {
		text += " (ref " + h + ")"
	}
	return text
}

// roleless reports whether a role says nothing a model can use to name an element.
func roleless(role string) bool {
	switch canonicalRole(role) {
	case "generic", "none", "statictext", "":
		return true
	}
	return false
}

// stableCap bounds the wait for a moving target to come to rest.
const stableCap = 5 * time.Second
