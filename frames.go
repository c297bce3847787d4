package rodagent

import (
	"context"
	"time"

	"github.com/go-rod/rod/lib/proto"

	"github.com/rodagent/rodagent/internal/ax"
	"github.com/rodagent/rodagent/internal/session"
)

// childTarget is an out-of-process iframe attached to the page: its own CDP
// session, found through Target.setAutoAttach.
type childTarget struct {
	sess     session.Session
	parent   proto.TargetSessionID
	targetID proto.TargetTargetID
	url      string
	crashed  bool
	detached bool
	ready    chan struct{} // closed once its domains are enabled and its frames known
	unsub    func()
}

// armAutoAttach asks s to attach to its out-of-process children (flattened
// onto this connection) and to hold each one until it has been set up, so no
// early event is missed. Every child session arms it again, so out-of-process
// frames nested at any depth are found.
func (p *Page) armAutoAttach(ctx context.Context, s session.Session) error {
	return proto.TargetSetAutoAttach{AutoAttach: true, WaitForDebuggerOnStart: true, Flatten: true}.Call(s.Bind(ctx))
}

func (p *Page) onAttached(parent session.Session, e *proto.TargetAttachedToTarget) {
	child := session.Session{Conn: p.b.conn, ID: e.SessionID, Calls: &p.calls}
	if e.TargetInfo.Type != "iframe" {
		// Workers and the like: let them run, and leave them alone.
		p.background(func(ctx context.Context) {
			_ = proto.RuntimeRunIfWaitingForDebugger{}.Call(child.Bind(ctx))
			_ = proto.TargetDetachFromTarget{SessionID: e.SessionID}.Call(parent.Bind(ctx))
		})
		return
	}
	c := &childTarget{sess: child, parent: parent.ID, targetID: e.TargetInfo.TargetID, url: e.TargetInfo.URL,
		ready: make(chan struct{})}
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return
	}
	p.children[e.SessionID] = c
	fid := proto.PageFrameID(e.TargetInfo.TargetID)
	fi := p.frames[fid]
	if fi == nil {
		fi = &frameInfo{id: fid}
		p.frames[fid] = fi
	}
	fi.sess, fi.oopif, fi.detached = child, true, false
	if fi.url == "" {
		fi.url = e.TargetInfo.URL
	}
	c.unsub = p.b.conn.SubscribeOwned(e.SessionID, func(m *session.Message) { p.onEvent(child, m) }, p.markBroken)
	p.notify()
	p.mu.Unlock()

	p.background(func(ctx context.Context) {
		defer close(c.ready)
		// The frame waits paused until it is resumed, and the page's load
		// waits for the frame: resume it however the setup went (unless
		// the allowlist cannot watch it), on a context of its own, since a
		// setup that used up ctx on a loaded machine would leave the
		// frame, and the page's load event, stuck for good. It ends when the
		// Page lets go of the tab: its sessions go, and with them what held
		// the frame paused.
		resume := true
		defer func() {
			if !resume {
				return
			}
			rctx, cancel := context.WithTimeout(p.life, 10*time.Second)
			defer cancel()
			_ = proto.RuntimeRunIfWaitingForDebugger{}.Call(child.Bind(rctx))
		}()
		bc := child.Bind(ctx)
		if !p.netChildReady(ctx, child) {
			resume = false
			return
		}
		_ = proto.PageEnable{}.Call(bc)
		_ = proto.PageSetLifecycleEventsEnabled{Enabled: true}.Call(bc)
		_ = proto.RuntimeEnable{}.Call(bc)
		_ = proto.PageSetInterceptFileChooserDialog{Enabled: true}.Call(bc)
		_ = p.armAutoAttach(ctx, child)
		if tree, err := (proto.PageGetFrameTree{}).Call(bc); err == nil {
			p.mu.Lock()
			parentFrame := tree.FrameTree.Frame.ParentID
			if old := p.frames[tree.FrameTree.Frame.ID]; old != nil && parentFrame == "" {
				parentFrame = old.parent
			}
			p.addFrameTree(child, tree.FrameTree, parentFrame)
			if fi := p.frames[tree.FrameTree.Frame.ID]; fi != nil {
				fi.oopif = true
			}
			p.notify()
			p.mu.Unlock()
		}
		p.emulateChild(ctx, child)
		_ = ax.InstallListenerRecord(bc)
		_ = ax.InstallInventory(bc)
	})
}

func (p *Page) onDetached(e *proto.TargetDetachedFromTarget) {
	p.mu.Lock()
	c := p.children[e.SessionID]
	if c == nil {
		p.mu.Unlock()
		return
	}
	delete(p.children, e.SessionID)
	c.detached = true
	for _, f := range p.frames {
		if f.sess.ID == e.SessionID {
			f.detached = true
		}
	}
	unsub := c.unsub
	p.notify()
	p.mu.Unlock()
	if unsub != nil {
		unsub()
	}
}

// A frame's document cannot see its own <iframe> being hidden or shown: an
// iframe set to display:none leaves the child's viewport, its events and its
// DOM as they were (only its layout goes), so the child's change watcher
// records nothing. Its parent's read can: a shown frame is one its parent
// lists. The inventory shows a frame only while its parent lists it, and a
// frame's delta gives way to a full read of it when that verdict flips.

// hiddenFrames names the frames of inv whose parent was read and does not
// list them (display:none, hidden, aria-hidden or inert on the <iframe> or
// around it), and the frames inside those. A frame whose parent or owner is
// unknown is not called hidden.
func (inv *inventory) hiddenFrames(mainFrame proto.PageFrameID) map[*frameJob]bool {
	listed := map[*frameJob]map[proto.DOMBackendNodeID]bool{}
	for _, j := range inv.frames {
		if j.err != nil || (j.items == nil && j.nodes == nil) {
			continue
		}
		m := map[proto.DOMBackendNodeID]bool{}
		for _, it := range j.items {
			if it.Kind == ax.KindFrame && it.Node != 0 {
				m[it.Node] = true
			}
		}
		listed[j] = m
	}
	hidden := map[*frameJob]bool{}
	var isHidden func(j *frameJob, depth int) bool
	isHidden = func(j *frameJob, depth int) bool {
		if j.info.id == mainFrame || depth > 32 {
			return false
		}
		parent := inv.byID[j.info.parent]
		if parent == nil || j.owner == 0 {
			return false
		}
		m, read := listed[parent]
		if !read {
			return false
		}
		return !m[j.owner] || isHidden(parent, depth+1)
	}
	for _, j := range inv.frames {
		if isHidden(j, 0) {
			hidden[j] = true
		}
	}
	return hidden
}

// rereadUnhidden reads again, in full, each frame read by its delta whose
// shown-or-hidden verdict changed since its document was last read: its own
// watcher saw nothing of it, and while hidden its walk saw no layout.
func (p *Page) rereadUnhidden(ctx context.Context, inv *inventory, hidden map[*frameJob]bool, full bool) {
	type reread struct {
		j  *frameJob
		ff *fastFrame
	}
	var again []reread
	p.mu.Lock()
	for _, j := range inv.frames {
		ff := p.fast[j.info.id]
		if !j.fast || j.err != nil || ff == nil || ff.loader != j.info.loader {
			continue
		}
		h := hidden[j]
		if ff.seen && ff.hidden != h && !full {
			again = append(again, reread{j, ff})
		}
		ff.seen, ff.hidden = true, h
	}
	p.mu.Unlock()
	for _, r := range again {
		if w, err := p.readInventory(ctx, r.j.info, true, false); err == nil && w != nil {
			r.j.items = w.Items
		}
	}
}
