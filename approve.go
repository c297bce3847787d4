package rodagent

import "context"

// Action describes one acting call, as an Approver sees it before it runs.
type Action struct {
	Verb   string // "click", "dblclick", "hover", "focus", "type", "press", "scroll", "select", "check", "uncheck", "upload", "drag", "open", "back", "forward", "reload"
	Target string // the ref or locator as given, if any
	Role   string // the target's role, when known
	Name   string // the target's accessible name, when known
	Text   string // text to type, key to press, URL to open, files to upload
	Origin string // origin of the page acted on
	// AlwaysAsk is set for calls that must be confirmed every time, even after
	// a blanket approval (pressing Enter, which submits forms).
	AlwaysAsk bool
}

// Approver is the embedding application's hook over acting calls. Approve runs
// before the call touches the page; a non-nil error refuses it, and the call
// returns an error wrapping ErrNotAllowed and that error. Approve may block
// (to ask a person) until ctx ends. Without an Approver everything is allowed:
// a library must not stand in a script's way.
type Approver interface {
	Approve(ctx context.Context, a Action) error
}

// ApproverFunc adapts a function to Approver.
type ApproverFunc func(ctx context.Context, a Action) error

// Approve calls f.
func (f ApproverFunc) Approve(ctx context.Context, a Action) error { return f(ctx, a) }

// Approve asks the Browser's Approver about an acting call that happens
// outside the library's verbs — a tool closing a tab, arming a dialog — so
// that every surface over the library goes through the same hook. It returns
// nil when no Approver is set, and an error wrapping ErrNotAllowed when the
// Approver refuses.
func (b *Browser) Approve(ctx context.Context, a Action) error { return b.approve(ctx, a) }
