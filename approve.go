package rodagent

import (
	"context"
	"fmt"

	"github.com/go-rod/rod/lib/proto"
)

// Action describes one acting call, as an Approver sees it before it runs.
//
// For a call on an element (click, type, select, upload, drag, …) the facts
// are read when the call runs, from the element the target resolves to (after
// any re-binding), never from the last snapshot: a button the page renamed
// from "Cancel" to "Delete account" is presented as "Delete account", and an
// element inside a cross-origin iframe carries that frame's origin and URL.
// Resolving a target scrolls it into view; nothing else reaches the page
// before the Approver answers.
type Action struct {
	Verb   string // "click", "dblclick", "rightclick", "hover", "focus", "type", "press", "scroll", "select", "check", "uncheck", "upload", "drag", "open", "back", "forward", "reload", "eval", "close"
	Target string // the ref or locator as given, if any
	Role   string // the target's role, read from the live element
	Name   string // the target's accessible name, read from the live element
	Text   string // text to type, key to press, URL to open, files to upload
	// Origin is the origin of the document acted on: the target's frame for
	// an element (an iframe's own origin when it is cross-origin), the tab's
	// page otherwise, and the destination for open.
	Origin string
	URL    string // that document's URL (the destination for open), read at act time
	// TabOrigin is the origin of the tab's top-level page, which differs from
	// Origin for an element inside a cross-origin frame.
	TabOrigin string
	// AlwaysAsk is set for calls that must be confirmed every time, even after
	// a blanket approval (pressing Enter, which submits forms).
	AlwaysAsk bool
}

// Approver is the embedding application's hook over acting calls. Approve runs
// before the call touches the page; a non-nil error refuses it, and the call
// returns an error wrapping ErrNotAllowed and that error. Approve may block
// (to ask a person) until ctx ends. Without an Approver everything is allowed:
// a library must not stand in a script's way. For a call on an element,
// Approve runs while the call holds the page's turn, so the facts it is shown
// stay true until the call acts; other calls on that page wait meanwhile.
type Approver interface {
	Approve(ctx context.Context, a Action) error
}

// ApproverFunc adapts a function to Approver.
type ApproverFunc func(ctx context.Context, a Action) error

// Approve calls f.
func (f ApproverFunc) Approve(ctx context.Context, a Action) error { return f(ctx, a) }

// Approve asks the Browser's Approver about an acting call that a surface
// over the library makes itself (a tool closing a tab, a server's own verbs);
// the library's own calls ask on their own. It returns nil when there is no
// Approver, else the Approver's answer as Denied with an error matching
// ErrNotAllowed.
func (b *Browser) Approve(ctx context.Context, a Action) error { return b.approve(ctx, a) }

// approve asks the Approver; a refusal is the status Denied, with an error
// that matches ErrNotAllowed and the Approver's own error.
func (b *Browser) approve(ctx context.Context, a Action) error {
	if b.cfg.approver == nil {
		return nil
	}
	if err := b.cfg.approver.Approve(ctx, a); err != nil {
		return failure(a.Verb, a.Target, Denied, "the approver refused it", fmt.Errorf("%w: %s refused: %w", ErrNotAllowed, a.Verb, err))
	}
	return nil
}

// approvePage asks about a call on the tab as a whole (press, scroll, back,
// reload, eval): the page's live URL and origin.
func (p *Page) approvePage(ctx context.Context, a Action) error {
	if p.b.cfg.approver == nil {
		return nil
	}
	u := p.URL()
	if a.URL == "" {
		a.URL = u
	}
	if a.Origin == "" {
		a.Origin = originOf(a.URL)
	}
	a.TabOrigin = originOf(u)
	return p.b.approve(ctx, a)
}

// approveTarget asks about a call on the element t resolved to, with its
// role and name as the browser computes them now and its frame's URL.
func (p *Page) approveTarget(ctx context.Context, a Action, t *target) error {
	if p.b.cfg.approver == nil {
		return nil
	}
	a.Role, a.Name = p.liveRoleName(ctx, t)
	p.mu.Lock()
	a.URL = t.frame.url
	if fi := p.frames[t.frame.id]; fi != nil {
		a.URL = fi.url
	}
	p.mu.Unlock()
	a.Origin = originOf(a.URL)
	a.TabOrigin = originOf(p.URL())
	return p.b.approve(ctx, a)
}

// liveRoleName is the role and accessible name of t's node as Chromium
// computes them now: from the AX node the resolve step read, else read here.
// The snapshot's values are the last resort, when the browser cannot say.
func (p *Page) liveRoleName(ctx context.Context, t *target) (string, string) {
	n := t.ax
	if n == nil && t.elem != nil && t.elem.Node != 0 {
		if res, err := (proto.AccessibilityGetPartialAXTree{BackendNodeID: t.elem.Node}).Call(t.sess.Bind(ctx)); err == nil {
			for _, x := range res.Nodes {
				if x.BackendDOMNodeID == t.elem.Node {
					n = x
					break
				}
			}
		}
	}
	role, name := "", ""
	if t.elem != nil {
		role, name = t.elem.Role, t.elem.Name
	}
	if n != nil && !n.Ignored {
		if r := axRole(n); r != "" {
			role = r
		}
		if n.Name != nil {
			name = n.Name.Value.Str()
		}
	}
	return role, name
}
