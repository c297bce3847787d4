package rodagent

import (
	"context"

	"github.com/go-rod/rod"
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
	c.unsub = p.b.conn.SubscribeOwned(e.SessionID, func(m *rod.Message) { p.onEvent(child, m) }, p.markBroken)
	p.notify()
	p.mu.Unlock()

	p.background(func(ctx context.Context) {
		defer close(c.ready)
		bc := child.Bind(ctx)
		if !p.netChildReady(ctx, child) {
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
		_ = proto.RuntimeRunIfWaitingForDebugger{}.Call(bc)
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
