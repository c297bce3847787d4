package rodagent

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/go-rod/rod/lib/proto"

	"github.com/rodagent/rodagent/internal/ax"
	"github.com/rodagent/rodagent/internal/session"
)

// The fast path: each frame is read by an in-page inventory script that runs
// in an isolated world (the page can neither see nor fake it). Roles and
// names come from accname.js, a page-side implementation of HTML-AAM and
// accname 1.2 that matches Chromium's AX tree on the fixtures and the APG
// examples (TestAccnameMatchesChromium), so every Chromium is fast — one
// reached by Connect without launch flags included — and the first look
// never pays for building the AX tree. Chromium's own Element.computedRole and
// computedName (exposed with --enable-blink-features=ComputedAccessibilityInfo,
// which Launch sets) are the cross-check. On a 6,000-control page the
// inventory costs a tenth of Accessibility.getFullAXTree, and later snapshots
// read only what changed. Frames it cannot read — a closed shadow root, which
// only the AX tree sees into — are read from the AX tree instead.

// errUseAX says a frame must be read from the AX tree.
var errUseAX = errors.New("read this frame from the AX tree")

// Sources: which path read a snapshot (Snapshot.Source).
const (
	// SourceInventory: the in-page inventory with roles and names computed
	// in the page (accname.js): the default on every Chromium.
	SourceInventory = "inventory"
	// SourceInventoryComputed: the in-page inventory with Chromium's
	// computedRole/computedName (a cross-check; needs the launch flag).
	SourceInventoryComputed = "inventory+computed"
	// SourceAXTree: Accessibility.getFullAXTree plus DOMSnapshot.
	SourceAXTree = "axtree"
)

// readPath is how a page reads its frames, and what it last told the logger.
type readPath struct {
	computed bool   // roles and names from Chromium's computedRole/computedName
	logged   string // the source last logged for this page
	sent     int    // walks that had to send the inventory script (the early install missed a world)
	declined int    // finds that declined, the frame walked instead (S.find in inventory.js says when)
}

// sourceOf names the path that read inv: the main frame's, followed by the
// other paths frames of the page took, if any.
func (p *Page) sourceOf(inv *inventory) string {
	p.mu.Lock()
	computed, mainFrame := p.path.computed, p.mainFrame
	p.mu.Unlock()
	name := func(j *frameJob) string {
		switch {
		case !j.fast:
			return SourceAXTree
		case computed:
			return SourceInventoryComputed
		}
		return SourceInventory
	}
	src := ""
	if mj := inv.byID[mainFrame]; mj != nil {
		src = name(mj)
	}
	for _, j := range inv.frames {
		if j.err != nil || j.info.id == mainFrame {
			continue
		}
		if n := name(j); !strings.Contains(src, n) || (n == SourceInventory && src == SourceInventoryComputed) {
			src += ", " + n
		}
	}
	p.mu.Lock()
	log := src != p.path.logged
	p.path.logged = src
	p.mu.Unlock()
	if log {
		p.b.cfg.log.Info("rodagent: snapshot source", "source", src, "url", inv.url)
	}
	return src
}

// fastFrame is the in-page inventory of one frame's document.
type fastFrame struct {
	loader proto.NetworkLoaderID
	world  proto.RuntimeExecutionContextID // the library's isolated world in this document
	walk   *ax.Walk
	useAX  bool // this document needs the AX tree
	seen   bool // hidden holds the verdict of the last read
	hidden bool // its parent did not list it at the last read (see hiddenFrames)
}

// fastAllowed reports whether f may be read by the in-page inventory.
func (p *Page) fastAllowed(f frameInfo) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.noFast {
		return false
	}
	ff := p.fast[f.id]
	return ff == nil || ff.loader != f.loader || !ff.useAX
}

// readInventory reads frame f with its in-page inventory: a delta when the
// inventory has seen this document before, else a full walk.
func (p *Page) readInventory(ctx context.Context, f frameInfo, full, settle bool) (*ax.Walk, error) {
	p.mu.Lock()
	ff := p.fast[f.id]
	if ff == nil || ff.loader != f.loader {
		ff = &fastFrame{loader: f.loader}
		p.fast[f.id] = ff
	}
	p.mu.Unlock()
	bc := f.sess.Bind(ctx)
	moving := "" // what a delta's settle saw still going, when a walk follows it
	primed := false
	for attempt := 0; attempt < 3; attempt++ {
		p.mu.Lock()
		world := ff.world
		p.mu.Unlock()
		if world == 0 {
			w, err := p.world(ctx, f)
			if err != nil {
				return nil, err
			}
			p.mu.Lock()
			ff.world, ff.walk = w, nil
			p.mu.Unlock()
			world = w
		}
		if ff.walk != nil && !full {
			ok, err := ff.walk.Delta(ctx, bc, world, settle)
			switch {
			case err == nil && ok:
				return ff.walk, nil
			case errors.Is(err, ax.ErrContextGone):
				p.forgetWorld(ff)
				primed = false // a new document, with its own AX context
				continue
			case err != nil && !errors.Is(err, ax.ErrNoInventory):
				return nil, err
			case err == nil && settle:
				// the delta settled the page before it found a walk
				// needed: the walk reads it at once
				moving, settle = ff.walk.Moving, false
			}
		}
		p.mu.Lock()
		computed := p.path.computed
		p.mu.Unlock()
		// The world holds the inventory already: registered for every new
		// document (ax.InstallInventory), or installed by an earlier walk.
		w, err := ax.WalkFrame(ctx, bc, world, settle, computed, true, primed)
		switch {
		case errors.Is(err, ax.ErrContextGone):
			p.forgetWorld(ff)
			primed = false // a new document, with its own AX context
			continue
		case err != nil:
			return nil, err
		case w.Unsupported != "":
			// Chromium's values were asked for and the browser lacks them:
			// the page-side computation reads this page from now on.
			p.mu.Lock()
			p.path.computed = false
			p.mu.Unlock()
			continue
		case w.Closed:
			p.mu.Lock()
			ff.useAX = true
			p.mu.Unlock()
			return nil, errUseAX
		case w.Cold:
			// The document has no live AX context yet: make one, then walk.
			if err := p.primeAX(ctx, f, world); err != nil {
				return nil, err
			}
			primed = true
			continue
		}
		if w.Sent {
			p.mu.Lock()
			p.path.sent++
			p.mu.Unlock()
		}
		if moving != "" {
			w.Moving = moving
		}
		ff.walk = w
		return w, nil
	}
	return nil, errUseAX
}

// findInventory reads frame f for a locator (findMode): by its delta when
// the inventory has walked this document, else by a find of parts, which
// leaves no walk behind (the next look walks). It walks when the find
// declines.
func (p *Page) findInventory(ctx context.Context, f frameInfo, mode readMode, settle bool) (*ax.Walk, error) {
	p.mu.Lock()
	ff := p.fast[f.id]
	walked := ff != nil && ff.loader == f.loader && ff.walk != nil && !mode.force
	computed := p.path.computed
	p.mu.Unlock()
	if walked || computed {
		return p.readInventory(ctx, f, false, settle)
	}
	world, err := p.world(ctx, f)
	if err != nil {
		return nil, err
	}
	parts := mode.find
	if !p.mayBeFrame(mode.frame, f) {
		parts = []ax.FindPart{} // the way to its frames only
	}
	w, err := ax.FindFrame(ctx, f.sess.Bind(ctx), world, settle, false, true, parts)
	switch {
	case errors.Is(err, ax.ErrContextGone):
		p.forgetWorldOf(f)
		return p.readInventory(ctx, f, false, settle)
	case err != nil:
		return nil, err
	case w.Declined:
		p.mu.Lock()
		p.path.declined++
		p.mu.Unlock()
		// the find settled the page already
		rw, err := p.readInventory(ctx, f, false, false)
		if err == nil && rw != nil && rw.Moving == "" {
			rw.Moving = w.Moving
		}
		return rw, err
	}
	if w.Sent {
		p.mu.Lock()
		p.path.sent++
		p.mu.Unlock()
	}
	return w, nil
}

// mayBeFrame reports whether frame f may be the one a locator's
// WithinFrame names (want: a prefix or part of its URL), before the read
// that places it: a child frame with no prefix yet may be any.
func (p *Page) mayBeFrame(want string, f frameInfo) bool {
	if want == "" || strings.Contains(f.url, want) {
		return true
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if f.id == p.mainFrame {
		return false
	}
	prefix, ok := p.prefixes[f.id]
	return !ok || prefix == want
}

// forgetWorld drops a world that is gone (its document navigated away).
func (p *Page) forgetWorld(ff *fastFrame) {
	p.mu.Lock()
	ff.world, ff.walk = 0, nil
	p.mu.Unlock()
}

// forgetWorldOf drops frame f's world if it still names the one of f's document.
func (p *Page) forgetWorldOf(f frameInfo) {
	p.mu.Lock()
	if ff := p.fast[f.id]; ff != nil && ff.loader == f.loader {
		ff.world, ff.walk = 0, nil
	}
	p.mu.Unlock()
}

// world returns the library's isolated world in frame f's current document,
// creating it when the document has none yet.
func (p *Page) world(ctx context.Context, f frameInfo) (proto.RuntimeExecutionContextID, error) {
	p.mu.Lock()
	ff := p.fast[f.id]
	if ff == nil || ff.loader != f.loader {
		ff = &fastFrame{loader: f.loader}
		p.fast[f.id] = ff
	}
	w := ff.world
	p.mu.Unlock()
	if w != 0 {
		return w, nil
	}
	res, err := proto.PageCreateIsolatedWorld{FrameID: f.id, WorldName: ax.WorldName}.Call(f.sess.Bind(ctx))
	if err != nil {
		if session.IsSessionGone(err) {
			return 0, fmt.Errorf("%w: %w", errFrameGone, err)
		}
		return 0, err
	}
	p.mu.Lock()
	if ff.loader == f.loader {
		ff.world = res.ExecutionContextID
	}
	p.mu.Unlock()
	return res.ExecutionContextID, nil
}

// primeAX enables the Accessibility domain (once per session) and asks one
// question of the document's AX tree, which keeps its AX context alive.
func (p *Page) primeAX(ctx context.Context, f frameInfo, world proto.RuntimeExecutionContextID) error {
	bc := f.sess.Bind(ctx)
	p.mu.Lock()
	enabled := p.axOn[f.sess.ID]
	p.mu.Unlock()
	if !enabled {
		if err := (proto.AccessibilityEnable{}).Call(bc); err != nil {
			return err
		}
		p.mu.Lock()
		p.axOn[f.sess.ID] = true
		p.mu.Unlock()
	}
	doc, err := proto.RuntimeEvaluate{Expression: "document.documentElement", ContextID: world}.Call(bc)
	if err != nil {
		return err
	}
	if doc.Result == nil || doc.Result.ObjectID == "" {
		return nil
	}
	// Release just this object: frames of one session are primed concurrently.
	defer func() {
		_ = proto.RuntimeReleaseObject{ObjectID: doc.Result.ObjectID}.Call(f.sess.Bind(context.WithoutCancel(ctx)))
	}()
	_, err = proto.AccessibilityGetPartialAXTree{ObjectID: doc.Result.ObjectID, FetchRelatives: false}.Call(bc)
	return err
}

// localNode finds the backend node id of an element the inventory knows by
// key but did not resolve at snapshot time (on a large page, one out of view).
func (p *Page) localNode(ctx context.Context, f frameInfo, local int) (proto.DOMBackendNodeID, error) {
	p.mu.Lock()
	ff := p.fast[f.id]
	var world proto.RuntimeExecutionContextID
	if ff != nil && ff.loader == f.loader {
		world = ff.world
	}
	p.mu.Unlock()
	if world == 0 {
		return 0, nil
	}
	id, err := ax.NodeOf(ctx, f.sess.Bind(ctx), world, local)
	if errors.Is(err, ax.ErrContextGone) || errors.Is(err, ax.ErrNoInventory) {
		return 0, nil
	}
	return id, err
}

// frameJS lets the page run the tasks an input queued: one rendered frame
// and the tasks after it, at most 100 ms, none when hidden.
const frameJS = `document.visibilityState !== 'visible' ? true : Promise.race([
	new Promise(r => requestAnimationFrame(() => setTimeout(() => r(true), 0))),
	new Promise(r => setTimeout(() => r(true), 100)),
])`

// settle lets frame f render what the last action set in motion before it
// is read from the AX tree (the in-page inventory does this itself): the
// timers, animation frames and animations it started, at most 1.5 s (see
// internal/ax/settle.js).
func (p *Page) settle(ctx context.Context, f frameInfo) (moving string) {
	v := p.runInWorld(ctx, f, ax.SettleExpr())
	if v != nil && v.Type == proto.RuntimeRemoteObjectTypeString {
		moving = v.Value.Str()
	}
	return moving
}

// nextTasks lets frame f run the tasks an input queued (a form submits from
// a task), so what they start has been asked for.
func (p *Page) nextTasks(ctx context.Context, f frameInfo) {
	p.runInWorld(ctx, f, frameJS)
}

// runInWorld evaluates expr in frame f's isolated world and returns its
// value, or nil when the frame did not answer.
func (p *Page) runInWorld(ctx context.Context, f frameInfo, expr string) *proto.RuntimeRemoteObject {
	w, err := p.world(ctx, f)
	if err != nil {
		return nil
	}
	res, err := proto.RuntimeEvaluate{Expression: expr, ContextID: w, AwaitPromise: true, ReturnByValue: true}.Call(f.sess.Bind(ctx))
	if err != nil || res.ExceptionDetails != nil {
		return nil
	}
	return res.Result
}

// markActed records that the page was acted on: the next look waits for it
// to render what the action set off.
func (p *Page) markActed() {
	p.mu.Lock()
	p.acted, p.resettles = true, 0
	p.mu.Unlock()
}

// maxResettles bounds how many looks in a row, after a look that found the
// page still moving, wait for it again (each up to the settle's 1.5 s): a
// request that never answers holds three more looks, not every look after.
const maxResettles = 3

// settleAgain makes the next look wait for the page to come to rest, as
// the look before it found the page still moving, unless maxResettles
// looks since the last action have.
func (p *Page) settleAgain() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.resettles < maxResettles {
		p.acted = true
		p.resettles++
	}
}

// takeActed reports whether the page was acted on since the last look.
func (p *Page) takeActed() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	a := p.acted
	p.acted = false
	return a
}
