package rodagent

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/go-rod/rod/lib/proto"
	"golang.org/x/sync/errgroup"

	"github.com/rodagent/rodagent/internal/ax"
	"github.com/rodagent/rodagent/internal/session"
)

// SnapshotOption configures one Snapshot call.
type SnapshotOption func(*snapConfig)

type snapConfig struct {
	full     bool
	maxChars int
	landmark string
	frame    string
	within   string
	from     string
}

// WithFull makes the snapshot's text the whole inventory even when a delta
// is available, and re-reads every frame from scratch.
func WithFull() SnapshotOption { return func(c *snapConfig) { c.full = true } }

// WithMaxChars sets this snapshot's character budget for its text.
func WithMaxChars(n int) SnapshotOption { return func(c *snapConfig) { c.maxChars = n } }

// WithinLandmark shows only what lies inside a landmark — given as its role
// ("navigation"), its name ("Main") or both (`navigation "Main"`) — as a full
// inventory. Refs still lists every ref.
func WithinLandmark(landmark string) SnapshotOption {
	return func(c *snapConfig) { c.landmark, c.full = landmark, true }
}

// WithinFrame shows only one frame (its prefix: "f1"), as a full inventory.
func WithinFrame(prefix string) SnapshotOption {
	return func(c *snapConfig) { c.frame, c.full = prefix, true }
}

// WithinRef shows only the refs inside the element a ref names (the options
// of a listbox, the items of a menu, …), as a full inventory.
func WithinRef(ref string) SnapshotOption {
	return func(c *snapConfig) { c.within, c.full = ref, true }
}

// WithFrom shows the full inventory from a ref on, in document order: how to
// page through a page larger than the budget (the fold line names the ref
// to continue from).
func WithFrom(ref string) SnapshotOption {
	return func(c *snapConfig) { c.from, c.full = ref, true }
}

// Snapshot reads the accessibility tree of every frame of the tab and returns
// its interactive elements as refs. The first snapshot of a document is the
// full inventory; later ones carry a Delta of what moved, and their text
// shows only that. Refs always lists every current ref.
func (p *Page) Snapshot(ctx context.Context, opts ...SnapshotOption) (*Snapshot, error) {
	cfg := snapConfig{maxChars: p.b.cfg.maxChars}
	for _, o := range opts {
		if o != nil {
			o(&cfg)
		}
	}
	unlock, err := p.lock(ctx, "snapshot")
	if err != nil {
		return nil, err
	}
	defer unlock()
	inv, reg, err := p.collectSettled(ctx, cfg.full && cfg.landmark == "" && cfg.frame == "" && cfg.within == "" && cfg.from == "")
	if err != nil {
		return nil, err
	}
	d := reg.Update(inv.elems)
	td := reg.UpdateText(inv.texts)
	snap := inv.build(p)
	snap.Navigated = p.noteLook(inv.url)
	snap.Source = p.sourceOf(inv)
	snap.Unsettled = inv.unsettled
	if snap.Unsettled != "" {
		// the next look waits for the page to come to rest again: the
		// "look again" the text asks for is then worth taking
		p.settleAgain()
	}
	snap.view = cfg
	snap.Dialogs = p.takeDialogs()
	snap.Blocked = p.takeBlocked()
	snap.Downloads = p.takeUnclaimed()
	snap.Opened = p.takeOpened(ctx)
	if !d.Full && !cfg.full {
		snap.Delta = &Delta{Added: d.Added, Removed: d.Removed, Rebound: d.Rebound, Changed: []RefChange{}, Focus: d.Focus, FocusLeft: d.Blurred,
			Moved: d.Moved}
		for _, t := range td {
			snap.Delta.Text = append(snap.Delta.Text, TextChange{Op: t.Op, Kind: t.Kind, Text: t.Text, Landmark: t.Landmark})
		}
		for _, c := range d.Changed {
			rc := RefChange{Ref: c.Handle}
			for _, f := range c.Fields {
				rc.Fields = append(rc.Fields, FieldChange{Field: f.Name, Old: f.Old, New: f.New})
			}
			snap.Delta.Changed = append(snap.Delta.Changed, rc)
		}
		snap.text = snap.DeltaText()
	}
	if snap.Delta == nil {
		snap.text, snap.Shown = snap.renderFull()
	} else {
		_, snap.Shown = snap.renderFull()
	}
	return snap, nil
}

// collectSettled waits for a navigation under way to land, then reads the
// tab. A document that goes away under the read (a navigation that started
// meanwhile) is read again once the next one has loaded; a page that keeps
// navigating is a typed PageChanged, never a raw protocol error.
func (p *Page) collectSettled(ctx context.Context, full bool) (*inventory, *ax.Registry, error) {
	for attempt := 0; ; attempt++ {
		if err := p.settleNavigation(ctx, "snapshot"); err != nil {
			return nil, nil, err
		}
		p.mu.Lock()
		p.resetRefsLocked()
		reg := p.reg
		m := p.navMarkLocked()
		p.mu.Unlock()
		inv, err := p.collect(ctx, readFast, full)
		p.mu.Lock()
		moved := p.navSeq != m.seq || p.nav.pending || p.nav.requested != m.requested
		if f := p.frames[p.mainFrame]; f != nil {
			moved = moved || f.loader != m.loader
		}
		p.mu.Unlock()
		if err == nil && !moved {
			return inv, reg, nil
		}
		if err != nil && !moved && !isNavigationGone(err) {
			return nil, nil, err
		}
		if attempt == 2 {
			if err == nil {
				return inv, reg, nil // still moving: show what was read, under the URL it was read at
			}
			return nil, nil, failure("snapshot", "", PageChanged, "the page kept navigating while it was read", err)
		}
	}
}

// readJob reads one frame of a collection into j.
func (p *Page) readJob(ctx context.Context, j *frameJob, mode readMode, full, settle bool, mainFrame proto.PageFrameID) error {
	// A frame that does not answer (a renderer hung or dying) is named
	// unreachable rather than holding up the whole snapshot.
	if j.info.id != mainFrame {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, frameReadTimeout)
		defer cancel()
	}
	p.mu.Lock()
	hook := p.beforeFrameRead
	p.mu.Unlock()
	if hook != nil && j.info.id != mainFrame {
		hook(ctx, j.info.id)
	}
	if j.info.id != mainFrame {
		p.awaitParsed(ctx, j.info.id)
	}
	if !mode.ax && p.fastAllowed(j.info) {
		var w *ax.Walk
		var err error
		if mode.find != nil && !full {
			w, err = p.findInventory(ctx, j.info, mode, settle)
		} else {
			w, err = p.readInventory(ctx, j.info, full, settle)
		}
		if err == nil && w != nil {
			j.items, j.fast, j.moving = w.Items, true, w.Moving
			return nil
		}
		if err != nil && !errors.Is(err, errUseAX) {
			j.err = err
			return nil
		}
	}
	if settle {
		j.moving = p.settle(ctx, j.info)
	}
	if !mode.ax {
		// The page text, by the same in-page rules as the fast path.
		if w, err := p.world(ctx, j.info); err == nil {
			j.texts, _ = ax.TextFrame(ctx, j.info.sess.Bind(ctx), w)
		}
	}
	res, err := proto.AccessibilityGetFullAXTree{FrameID: j.info.id}.Call(j.info.sess.Bind(ctx))
	if err != nil && strings.Contains(err.Error(), "Could not find object") {
		// the AX objects were rebuilt under the call (another frame of the
		// session primed its AX context): ask once more
		res, err = proto.AccessibilityGetFullAXTree{FrameID: j.info.id}.Call(j.info.sess.Bind(ctx))
	}
	if err != nil {
		j.err = err
		return nil
	}
	j.nodes = res.Nodes
	return nil
}

// frameParseGrace bounds how long a look waits for a frame other than the
// main one to finish parsing its document (see awaitParsed).
const frameParseGrace = 3 * time.Second

// parsedJS waits, in a frame's isolated world, until its document is
// parsed (DOMContentLoaded), at most the grace in ms it is given.
const parsedJS = `document.readyState !== 'loading' || new Promise(r => {
	document.addEventListener('DOMContentLoaded', () => r(true), {once: true});
	setTimeout(() => r(false), %d);
})`

// awaitParsed waits, at most frameParseGrace, for frame id to finish
// parsing its document, and asks once per document. The main frame's
// navigation settles on DOMContentLoaded; a child frame's does not, and on
// a busy machine Chromium's parser yields mid-document: a look read a
// cross-site payment form with its <select> but not yet its options, its
// checkbox or its button (TestCrossOriginFrameForm, two suites at once).
// The frame itself is asked, not its lifecycle events: those travel on the
// frame's own session and trailed, under load, the page's word that the
// document had begun. A frame whose parser never finishes (a document
// streamed forever) is read as it stands after the first wait.
func (p *Page) awaitParsed(ctx context.Context, id proto.PageFrameID) {
	p.mu.Lock()
	f := p.frames[id]
	if f == nil || f.detached || f.parseAsked == f.loader {
		p.mu.Unlock()
		return
	}
	f.parseAsked = f.loader
	info := *f
	p.mu.Unlock()
	ctx, cancel := context.WithTimeout(ctx, frameParseGrace+time.Second)
	defer cancel()
	p.runInWorld(ctx, info, fmt.Sprintf(parsedJS, frameParseGrace.Milliseconds()))
}

// rereadMoved reads again each frame that committed a new document while
// it was read. Its refs name the document they were taken in, and the read
// may have seen either one: a ref tied to the document left behind would
// fail as PageChanged on a page that never changed again. This is common
// right after an out-of-process frame is resumed, when its first document
// commits under the first look. The events that came before the answers
// are handled first (Sync), so a commit the read saw is never missed.
func (p *Page) rereadMoved(ctx context.Context, inv *inventory, mode readMode, full bool, mainFrame proto.PageFrameID) {
	for round := 0; round < 2; round++ {
		if p.b.conn.Sync(ctx) != nil {
			return
		}
		var moved []*frameJob
		p.mu.Lock()
		for _, j := range inv.frames {
			f := p.frames[j.info.id]
			if j.info.id == mainFrame || f == nil || f.detached || f.loader == j.info.loader || f.sess.ID != j.info.sess.ID {
				continue // the main frame's own move is collectSettled's to read again
			}
			if c := p.children[f.sess.ID]; c != nil && c.crashed {
				continue
			}
			// what the look's settle saw still going holds for the frame's new document too
			*j = frameJob{info: *f, owner: j.owner, box: j.box, hasBox: j.hasBox, moving: j.moving}
			moved = append(moved, j)
		}
		p.mu.Unlock()
		if len(moved) == 0 {
			return
		}
		var g errgroup.Group
		for _, j := range moved {
			// no settle: the look has waited once already
			g.Go(func() error { return p.readJob(ctx, j, mode, full, false, mainFrame) })
		}
		_ = g.Wait()
	}
}

// frameJob is one frame to read and what was read of it.
type frameJob struct {
	info    frameInfo
	nodes   []*proto.AccessibilityAXNode       // the AX tree, when read that way
	texts   map[proto.DOMBackendNodeID]ax.Item // the page text, when read that way
	items   []ax.Item
	fast    bool   // read by the in-page inventory
	moving  string // what the settle after an action saw still going at its bound (settle.js)
	err     error
	owner   proto.DOMBackendNodeID // the <iframe> holding it, in the parent's session
	box     ax.Box                 // content box of the <iframe>, in its own session's viewport
	hasBox  bool
	originX float64 // where the frame's viewport starts in the top-level viewport
	originY float64
	placed  bool
}

type sessionJob struct {
	sess session.Session
	dom  *ax.DOMIndex
	err  error
	root proto.PageFrameID // the frame the session is the local root of
}

type inventory struct {
	url      string
	frames   []*frameJob
	byID     map[proto.PageFrameID]*frameJob
	sessions map[proto.TargetSessionID]*sessionJob
	elems    []*ax.Element
	texts    []ax.TextEntry
	lines    []invLine
	vw, vh   float64
	// what the look after an action found still going, when it stopped
	// waiting at the settle's bound
	unsettled Unsettled
}

type invLine struct {
	depth int
	elem  *ax.Element
	text  string
	kind  lineKind
	frame string // prefix of the frame the line belongs to
	lm    string // landmark text, for landmark lines
	tkind string // text lines: "text", "row", "status", …
	group string // text lines: the table or grid of a row
	row   int
}

// frameReadTimeout bounds how long a frame other than the main one may take
// to answer a snapshot.
const frameReadTimeout = 10 * time.Second

var errFrameCrashed = errors.New("its renderer crashed")

// frameReadLimit bounds how many reads of one snapshot run at once; 0 is no
// bound. Benchmarks set it to 1 to compare sequential with parallel reads.
var frameReadLimit = 0

// readMode says how collect reads frames: readFast, readAX, or a find
// (findMode).
type readMode struct {
	ax    bool
	find  []ax.FindPart // a find: what the locator names
	frame string        // a find: the locator's WithinFrame; other frames are read only for the way to theirs
	force bool          // (tests) a find even where the inventory walked before
}

var (
	// readFast reads each frame with the in-page inventory where the browser
	// allows it (one round trip, Chromium's computed roles and names, deltas
	// from a mutation observer), and with the AX tree elsewhere.
	readFast = readMode{}
	// readAX reads the whole AX tree of every frame: what locators need, since
	// they match text and structure as well as controls.
	readAX = readMode{ax: true}
)

// findMode reads as readFast does, except that a frame the inventory has
// not walked yet is read by a find (ax.FindFrame): only the refs parts may
// name, without walking the whole document. A locator's first read of a
// large page costs a fraction of a first look that way; a frame walked
// before is read by its delta, as a look reads it.
// A frame the locator's WithinFrame (frame) rules out is read for its
// frames alone.
func findMode(parts []ax.FindPart, frame string) readMode {
	return readMode{find: parts, frame: frame}
}

// collect reads every reachable frame in parallel, then places frames and
// assembles the inventory in document order.
func (p *Page) collect(ctx context.Context, mode readMode, full bool) (*inventory, error) {
	if err := p.waitChildren(ctx); err != nil {
		return nil, err
	}
	p.mu.Lock()
	inv := &inventory{byID: map[proto.PageFrameID]*frameJob{}, sessions: map[proto.TargetSessionID]*sessionJob{}}
	mainFrame := p.mainFrame
	if f := p.frames[mainFrame]; f != nil {
		inv.url = f.url
	}
	for _, f := range p.frames {
		if f.detached || f.sess.Conn == nil {
			continue
		}
		c := p.children[f.sess.ID]
		if f.sess.ID != p.main.ID && (c == nil || c.detached) {
			continue
		}
		j := &frameJob{info: *f, owner: f.owner}
		if c != nil && c.crashed {
			j.err = errFrameCrashed // named in the snapshot, never asked: it would not answer
		}
		if o, ok := p.b.cfg.documentAllowed(f.url); !ok {
			j.err = &forbiddenDocumentError{origin: o}
		}
		inv.frames = append(inv.frames, j)
		inv.byID[f.id] = j
		if inv.sessions[f.sess.ID] == nil {
			inv.sessions[f.sess.ID] = &sessionJob{sess: f.sess}
		}
		if f.oopif || f.id == mainFrame {
			inv.sessions[f.sess.ID].root = f.id
		}
	}
	p.mu.Unlock()
	if inv.byID[mainFrame] == nil {
		return nil, fmt.Errorf("rodagent: snapshot: the tab has no main frame yet")
	}

	settle := p.takeActed()
	var g errgroup.Group
	if frameReadLimit > 0 {
		g.SetLimit(frameReadLimit)
	}
	for _, j := range inv.frames {
		if j.err != nil {
			continue
		}
		g.Go(func() error { return p.readJob(ctx, j, mode, full, settle, mainFrame) })
		if parent := inv.byID[j.info.parent]; j.info.id != mainFrame && parent != nil && j.owner == 0 {
			g.Go(func() error {
				res, err := proto.DOMGetFrameOwner{FrameID: j.info.id}.Call(parent.info.sess.Bind(ctx))
				if err == nil {
					j.owner = res.BackendNodeID
				}
				return nil
			})
		}
	}
	g.Go(func() error {
		m, err := proto.PageGetLayoutMetrics{}.Call(p.main.Bind(ctx))
		if err == nil && m.CSSLayoutViewport != nil {
			inv.vw, inv.vh = float64(m.CSSLayoutViewport.ClientWidth), float64(m.CSSLayoutViewport.ClientHeight)
		}
		return nil
	})
	_ = g.Wait()
	p.rereadMoved(ctx, inv, mode, full, mainFrame)
	if err := ctx.Err(); err != nil {
		return nil, failure("snapshot", "", Timeout, "", err)
	}
	for _, j := range inv.frames {
		if j.moving != "" && inv.unsettled == "" {
			inv.unsettled = Unsettled(j.moving)
		}
	}
	if mj := inv.byID[mainFrame]; mj.err != nil {
		return nil, p.b.wrapErr(ctx, fmt.Errorf("rodagent: snapshot: reading the page: %w", mj.err))
	}

	// Frames read through the AX tree take attributes and boxes from one DOM
	// snapshot of their session.
	var g2 errgroup.Group
	for _, s := range inv.sessions {
		need := false
		for _, j := range inv.frames {
			need = need || (j.info.sess.ID == s.sess.ID && j.nodes != nil)
		}
		if !need {
			continue
		}
		g2.Go(func() error {
			res, err := proto.DOMSnapshotCaptureSnapshot{ComputedStyles: ax.SnapshotStyles}.Call(s.sess.Bind(ctx))
			if err != nil {
				s.err = err
				return nil
			}
			s.dom = ax.IndexDOM(res)
			return nil
		})
	}
	// Where each child frame's content box sits, in its parent session's viewport.
	for _, j := range inv.frames {
		parent := inv.byID[j.info.parent]
		if j.info.id == mainFrame || parent == nil || j.owner == 0 {
			continue
		}
		g2.Go(func() error {
			bm, err := proto.DOMGetBoxModel{BackendNodeID: j.owner}.Call(parent.info.sess.Bind(ctx))
			if err == nil && bm.Model != nil && len(bm.Model.Content) >= 8 {
				q := bm.Model.Content
				j.box, j.hasBox = ax.Box{X: q[0], Y: q[1], W: q[2] - q[0], H: q[5] - q[1]}, true
			}
			return nil
		})
	}
	_ = g2.Wait()
	for _, j := range inv.frames {
		if j.nodes == nil || j.err != nil {
			continue
		}
		var dom *ax.DOMIndex
		if s := inv.sessions[j.info.sess.ID]; s != nil {
			dom = s.dom
		}
		j.items = ax.ItemsWithText(j.nodes, dom, j.texts)
	}
	hidden := inv.hiddenFrames(mainFrame)
	p.rereadUnhidden(ctx, inv, hidden, full)
	inv.place(mainFrame)
	inv.assemble(p, mainFrame, hidden)
	return inv, nil
}

// waitChildren waits until every attached out-of-process frame is set up.
func (p *Page) waitChildren(ctx context.Context) error {
	p.mu.Lock()
	var waits []chan struct{}
	for _, c := range p.children {
		waits = append(waits, c.ready)
	}
	p.mu.Unlock()
	for _, w := range waits {
		select {
		case <-w:
		case <-ctx.Done():
			return failure("snapshot", "", Timeout, "waiting for frames", ctx.Err())
		}
	}
	return nil
}

// place computes each frame's origin in the top-level viewport. Boxes from a
// same-process session are already relative to that session's local root;
// an out-of-process frame adds the offset of its own root along the chain.
func (inv *inventory) place(mainFrame proto.PageFrameID) {
	var origin func(j *frameJob, depth int) (float64, float64)
	origin = func(j *frameJob, depth int) (float64, float64) {
		if j.placed || depth > 64 {
			return j.originX, j.originY
		}
		j.placed = true
		if j.info.id == mainFrame || !j.hasBox {
			return j.originX, j.originY
		}
		parent := inv.byID[j.info.parent]
		rx, ry := 0.0, 0.0
		if parent != nil {
			// the local root of the parent's session
			if s := inv.sessions[parent.info.sess.ID]; s != nil && s.root != "" && s.root != mainFrame {
				if root := inv.byID[s.root]; root != nil {
					rx, ry = origin(root, depth+1)
				}
			}
		}
		j.originX, j.originY = rx+j.box.X, ry+j.box.Y
		return j.originX, j.originY
	}
	for _, j := range inv.frames {
		origin(j, 0)
	}
}

// assemble turns the frames' items into elements and lines, splicing each
// child frame in where its <iframe> stands. Frames their parent does not show
// (hiddenFrames) are left out.
func (inv *inventory) assemble(p *Page, mainFrame proto.PageFrameID, hidden map[*frameJob]bool) {
	byOwner := map[proto.TargetSessionID]map[proto.DOMBackendNodeID]*frameJob{}
	for _, j := range inv.frames {
		parent := inv.byID[j.info.parent]
		if j.info.id == mainFrame || parent == nil || j.owner == 0 {
			continue
		}
		m := byOwner[parent.info.sess.ID]
		if m == nil {
			m = map[proto.DOMBackendNodeID]*frameJob{}
			byOwner[parent.info.sess.ID] = m
		}
		m[j.owner] = j
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, j := range inv.frames {
		p.origins[j.info.id] = [2]float64{j.originX, j.originY}
		if fi := p.frames[j.info.id]; fi != nil && j.owner != 0 {
			fi.owner = j.owner
		}
	}
	// Sized once: on a large page the lines and elements run to thousands,
	// and growing them by appends copied them over and over.
	n, refs := 0, 0
	for _, j := range inv.frames {
		n += len(j.items)
		for i := range j.items {
			if j.items[i].Kind == ax.KindRef {
				refs++
			}
		}
	}
	inv.lines = make([]invLine, 0, n+len(inv.frames))
	inv.elems = make([]*ax.Element, 0, refs)
	type nthKey struct{ frame, role, name string }
	nth := make(map[nthKey]int, refs) // sized up front: growing it through thousands of refs rehashed it a dozen times
	emitted := map[*frameJob]bool{}
	var emit func(j *frameJob, depth int)
	emit = func(j *frameJob, depth int) {
		if emitted[j] || depth > 32 {
			return
		}
		emitted[j] = true
		prefix := ""
		if j.info.id != mainFrame {
			prefix = p.framePrefix(j.info.id) + "/"
		}
		fp := strings.TrimSuffix(prefix, "/")
		at := make([]*ax.Element, len(j.items))
		for i, it := range j.items {
			switch it.Kind {
			case ax.KindFrame:
				child := byOwner[j.info.sess.ID][it.Node]
				if child == nil {
					continue
				}
				cp := p.framePrefix(child.info.id)
				inv.lines = append(inv.lines, invLine{depth: depth + it.Depth, text: frameLine(cp, it.Name, child), kind: lineFrame, frame: cp})
				if child.err == nil {
					emit(child, depth+it.Depth+1)
				}
			case ax.KindLandmark:
				inv.lines = append(inv.lines, invLine{depth: depth + it.Depth, text: landmarkLine(it), kind: lineLandmark, frame: fp,
					lm: strings.TrimSuffix(strings.TrimPrefix(landmarkLine(it), "["), "]")})
			case ax.KindHeading:
				inv.lines = append(inv.lines, invLine{depth: depth + it.Depth, text: headingLine(it), kind: lineHeading, frame: fp})
				if it.Node != 0 || it.Local != 0 {
					// a heading's text is page text: when it changes (a page
					// title an SPA route or a tab rewrote) the delta says so
					inv.texts = append(inv.texts, ax.TextEntry{Key: ax.NodeKey{Frame: string(j.info.id), Node: it.Node, Local: it.Local},
						Kind: "heading", Text: it.Name, Landmark: it.Landmark})
				}
			case ax.KindText:
				inv.texts = append(inv.texts, ax.TextEntry{Key: ax.NodeKey{Frame: string(j.info.id), Node: it.Node, Local: it.Local},
					Kind: it.Role, Text: it.Name, Landmark: it.Landmark})
				if it.Name != "" {
					inv.lines = append(inv.lines, invLine{depth: depth + it.Depth, text: textLine(it.Role, it.Name), kind: lineText,
						frame: fp, tkind: it.Role, group: it.Group, row: it.Row})
				} else if it.Role == "row" && it.Row > 0 && i+1 < len(j.items) && j.items[i+1].Kind == ax.KindRef &&
					j.items[i+1].Row == it.Row && j.items[i+1].Group == it.Group {
					// a row of controls and no text (a calendar's week of day
					// buttons) still reads as one row: its refs go on this line
					inv.lines = append(inv.lines, invLine{depth: depth + it.Depth, text: "row", kind: lineText,
						frame: fp, tkind: it.Role, group: it.Group, row: it.Row})
				}
			case ax.KindRef:
				e := elementOf(it, j.info, prefix, j.originX, j.originY)
				if it.Up > 0 && it.Up <= len(at) {
					e.Parent = at[it.Up-1]
				}
				at[i] = e
				key := nthKey{string(j.info.id), it.Role, it.Name}
				e.Nth = nth[key]
				nth[key]++
				inv.elems = append(inv.elems, e)
				inv.lines = append(inv.lines, invLine{depth: depth + it.Depth, elem: e, kind: lineRef, frame: fp})
			}
		}
	}
	emit(inv.byID[mainFrame], 0)
	for _, j := range inv.frames {
		if !emitted[j] && j.err == nil && j.info.id != mainFrame && !hidden[j] {
			// a frame whose <iframe> could not be placed: show it at the end
			cp := p.framePrefix(j.info.id)
			inv.lines = append(inv.lines, invLine{depth: 0, text: frameLine(cp, "", j), kind: lineFrame, frame: cp})
			emit(j, 1)
		}
	}
}

// elementOf makes the element of an item read from frame f, its box moved
// into the top-level viewport by the frame's origin.
func elementOf(it ax.Item, f frameInfo, prefix string, ox, oy float64) *ax.Element {
	e := &ax.Element{Item: it, Frame: string(f.id), Prefix: prefix, Doc: string(f.loader)}
	e.Kind = ax.KindRef
	if e.HasBox {
		e.Box.X += ox
		e.Box.Y += oy
	}
	if e.HasClip {
		e.Clip.X += ox
		e.Clip.Y += oy
	}
	return e
}

// framePrefix returns the stable prefix ("f1") of a non-main frame; the
// caller holds p.mu.
func (p *Page) framePrefix(id proto.PageFrameID) string {
	if s, ok := p.prefixes[id]; ok {
		return s
	}
	p.nextFrame++
	s := "f" + strconv.Itoa(p.nextFrame)
	p.prefixes[id] = s
	return s
}

func frameLine(prefix, title string, j *frameJob) string {
	s := "[frame " + prefix
	if title != "" {
		s += " " + quote(title, 60)
	}
	s += " " + plainText(originOf(j.info.url), 80) + "]"
	if j.err != nil {
		s += " unreachable"
	}
	return s
}

func landmarkLine(it ax.Item) string {
	s := "[" + plainText(it.Role, 40)
	if it.Name != "" {
		s += " " + quote(it.Name, 60)
	}
	if it.State.Modal {
		s += " modal"
	}
	return s + "]"
}

// textLine is a piece of page text as the snapshot shows it: `status
// "Saved"`, `text "…"`, `row "Acme Corp | €1,200.00"` (a row's refs follow
// on its line).
func textLine(kind, text string) string {
	max := 160
	if kind == "row" {
		max = 120
	}
	return kind + " " + quote(text, max)
}

func headingLine(it ax.Item) string {
	lvl := it.Level
	if lvl < 1 {
		lvl = 2
	}
	if lvl > 6 {
		lvl = 6
	}
	return strings.Repeat("#", lvl) + " " + quote(it.Name, 100)
}

// withDeclaredRows returns lines with a line after each table that says it
// has more rows (aria-rowcount) than the page holds: a virtualized or paged
// grid renders the rows in view, and without the line a reader takes them
// for all there is. The rows a table holds are its highest row number, as
// the fold line counts them. lines itself is left as it is: an inventory is
// built more than once.
func withDeclaredRows(lines []invLine) []invLine {
	type table struct {
		first, last, rows, declared int
	}
	type key struct{ frame, group string }
	var tables map[key]*table
	var order []key
	for i, l := range lines {
		group, row := l.group, l.row
		if l.elem != nil {
			group, row = l.elem.Group, l.elem.Row
		}
		if group == "" {
			continue
		}
		k := key{l.frame, group}
		t := tables[k]
		if t == nil {
			_, declared := ax.GroupLabel(group)
			if declared == 0 {
				continue
			}
			if tables == nil {
				tables = map[key]*table{}
			}
			t = &table{first: i, declared: declared}
			tables[k] = t
			order = append(order, k)
		}
		t.last, t.rows = i, max(t.rows, row)
	}
	after := map[int][]invLine{}
	for _, k := range order {
		t := tables[k]
		if t.declared > 0 && t.declared <= t.rows {
			continue
		}
		label, _ := ax.GroupLabel(k.group)
		after[t.last] = append(after[t.last], invLine{depth: lines[t.first].depth, kind: lineText, frame: k.frame,
			tkind: "rows", group: k.group, text: declaredRowsLine(safeLabel(label, 80), strings.HasPrefix(label, "treegrid"), t.declared, t.rows)})
	}
	if len(after) == 0 {
		return lines
	}
	out := make([]invLine, 0, len(lines)+len(after))
	for i, l := range lines {
		out = append(out, l)
		out = append(out, after[i]...)
	}
	return out
}

// declaredRowsLine says that a table holds fewer rows than it has, and how
// to reach the others: a tree grid's rows also wait under collapsed rows.
func declaredRowsLine(label string, tree bool, declared, rows int) string {
	held := thousands(rows) + " are in the page"
	if rows == 1 {
		held = "1 is in the page"
	}
	move := "scroll it or page through it"
	if tree {
		move = "expand its rows or scroll it"
	}
	if declared < 0 {
		return fmt.Sprintf("… %s does not say how many rows it has; %s — %s for more", label, held, move)
	}
	return fmt.Sprintf("… %s says it has %s rows; %s — %s to reach the others", label, thousands(declared), held, move)
}

// build turns the inventory into the public Snapshot.
func (inv *inventory) build(p *Page) *Snapshot {
	s := &Snapshot{URL: inv.url, Refs: make([]BrowserRef, 0, len(inv.elems)), byRef: make(map[string]int, len(inv.elems))}
	index := make(map[*ax.Element]int, len(inv.elems))
	for _, e := range inv.elems {
		j := inv.byID[proto.PageFrameID(e.Frame)]
		r := refOf(e, j)
		r.InViewport = e.InViewport(inv.vw, inv.vh)
		index[e] = len(s.Refs)
		s.byRef[r.Ref] = len(s.Refs)
		s.Refs = append(s.Refs, r)
	}
	placeLattices(s.Refs)
	lines := withDeclaredRows(inv.lines)
	lineOf := make(map[*ax.Element]int, len(inv.elems))
	s.lines = make([]line, 0, len(lines))
	for i, l := range lines {
		ln := line{depth: l.depth, ref: -1, text: l.text, kind: l.kind, frame: l.frame, lm: l.lm, up: -1}
		if l.kind == lineText {
			ln.tkind, ln.group, ln.row = l.tkind, l.group, l.row
		}
		if l.elem != nil {
			ln.ref = index[l.elem]
			lineOf[l.elem] = i
			if l.elem.Parent != nil {
				if u, ok := lineOf[l.elem.Parent]; ok {
					ln.up = u
				}
			}
			ln.group, ln.row = l.elem.Group, l.elem.Row
		}
		s.lines = append(s.lines, ln)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, j := range inv.frames {
		fi := FrameInfo{Frame: Frame{FrameID: j.info.id, SessionID: j.info.sess.ID, URL: j.info.url},
			Origin: originOf(j.info.url), OutOfProc: j.info.oopif}
		if j.info.id != p.mainFrame {
			fi.Prefix = p.framePrefix(j.info.id)
		}
		if j.err != nil {
			fi.Error = frameErrText(j.err)
		}
		if o := p.frameBlockedLocked(j.info.id); o != "" {
			fi.Error = "blocked navigation to " + safeOrigin(o)
		}
		s.Frames = append(s.Frames, fi)
	}
	sort.Slice(s.Frames, func(i, k int) bool { return framePrefixLess(s.Frames[i].Prefix, s.Frames[k].Prefix) })
	return s
}

// framePrefixLess orders "" (the main frame) first, then f1, f2, … f10.
func framePrefixLess(a, b string) bool {
	if len(a) != len(b) {
		return len(a) < len(b)
	}
	return a < b
}

func frameErrText(err error) string {
	switch {
	case errors.As(err, new(*forbiddenDocumentError)):
		return err.Error()
	case errors.Is(err, errFrameCrashed):
		return "its renderer crashed"
	case errors.Is(err, context.DeadlineExceeded):
		return "it did not answer in time"
	case session.IsSessionGone(err):
		return "the frame's process is gone"
	}
	return capRunes(err.Error(), 120)
}

func refOf(e *ax.Element, j *frameJob) BrowserRef {
	r := BrowserRef{
		Ref: e.Handle, BackendNodeID: e.Node, Role: e.Role, Name: e.Name, RawName: e.RawName, Nth: e.Nth,
		Box:      Box{X: e.Box.X, Y: e.Box.Y, Width: e.Box.W, Height: e.Box.H},
		Landmark: e.Landmark, Context: e.Context, Stable: e.Stable, Document: e.Doc,
		State: State{Value: e.State.Value, Shows: e.State.Shows, Checked: e.State.Checked, Pressed: e.State.Pressed, Expanded: e.State.Expanded,
			Selected: e.State.Selected, Disabled: e.State.Disabled, Focused: e.State.Focused, Readonly: e.State.Readonly,
			Required: e.State.Required, Invalid: e.State.Invalid, Error: e.State.Error, Choices: e.State.Choices, ChoiceCount: e.State.ChoiceCount, Editable: e.State.Editable,
			Busy: e.State.Busy, Multiselectable: e.State.Multi, Current: e.State.Current, Sort: e.State.Sort,
			Level: e.State.Level, ValueMin: e.State.ValueMin, ValueMax: e.State.ValueMax, ValueText: e.State.ValueText},
	}
	if j != nil {
		r.Frame = Frame{FrameID: j.info.id, SessionID: j.info.sess.ID, URL: j.info.url}
	}
	return r
}
