package rodagent

import (
	"errors"
	"strings"

	"github.com/rodagent/rodagent/input"
)

// ActionStatus is the outcome of an action, as a stable string a program can
// branch on and a model can read. Ready and StaleRefRecovered are successes;
// every other status comes with an *ActionError.
type ActionStatus string

// Action statuses. The string values are part of the API and never change.
const (
	// Ready: the action ran on the element the ref named.
	Ready ActionStatus = "ready"
	// StaleRefRecovered: the ref's node had been replaced (a re-render); the
	// ref was re-bound to the node that took its place, and the action ran there.
	StaleRefRecovered ActionStatus = "stale_ref_recovered"

	// NotFound: the ref was never issued on this tab, or the tab has no snapshot.
	NotFound ActionStatus = "not_found"
	// StaleRefUnresolved: the ref's element is gone and nothing took its place.
	StaleRefUnresolved ActionStatus = "stale_ref_unresolved"
	// PageChanged: the ref belongs to a document this tab (or frame) has since navigated away from.
	PageChanged ActionStatus = "page_changed"
	// ZeroRect: the element is rendered with no area.
	ZeroRect ActionStatus = "zero_rect"
	// NotVisible: the element is not rendered (display:none, visibility:hidden, detached box).
	NotVisible ActionStatus = "not_visible"
	// Obscured: another element would receive the input: at the element's
	// click point, or (Type) the keyboard focus, which the page moved away.
	Obscured ActionStatus = "obscured"
	// Disabled: the element is disabled (disabled or aria-disabled).
	Disabled ActionStatus = "disabled"
	// NotEditable: text input was asked of an element that does not take it.
	NotEditable ActionStatus = "not_editable"
	// NotASelect: Select was asked of something that is not a native <select>.
	NotASelect ActionStatus = "not_a_select"
	// Ambiguous: more than one element fits and guessing could act on the wrong one.
	Ambiguous ActionStatus = "ambiguous"
	// FrameUnreachable: the frame holding the element is detached, crashed or refused.
	FrameUnreachable ActionStatus = "frame_unreachable"
	// UnsupportedKey: Press was given a key outside the supported set.
	UnsupportedKey ActionStatus = "unsupported_key"
	// NoSuchTab: no tab with that id.
	NoSuchTab ActionStatus = "no_such_tab"
	// Timeout: the caller's deadline passed before the action finished.
	Timeout ActionStatus = "timeout"
	// NativeBackendUnavailable: the browser refused the native input command.
	NativeBackendUnavailable ActionStatus = "native_backend_unavailable"
	// InvalidValue: the value does not fit the field (a malformed date, a number outside a range's bounds).
	InvalidValue ActionStatus = "invalid_value"
	// NotStable: the element kept moving (an animation or transition) past the stability check's bound.
	NotStable ActionStatus = "not_stable"
	// NotChanged: Check or Uncheck clicked, or Type keyed an ARIA slider, but the
	// control's state did not change. The message says so when the page has
	// not fired its load event yet (a page may wire its controls only then).
	NotChanged ActionStatus = "not_changed"
	// Denied: the embedding application's Approver refused the call; nothing
	// reached the page. The error matches ErrNotAllowed (and ErrDenied) and
	// wraps the Approver's own error.
	Denied ActionStatus = "denied"
	// NavigationBlocked: the input reached the page, but the navigation it
	// set off — or the frame it targets — goes to an origin outside
	// WithAllowedOrigins; the navigation was stopped before it loaded (or,
	// in a browser reached with Connect whose own prefetch served it, as it
	// committed, and the tab was taken back). The error matches ErrNotAllowed.
	NavigationBlocked ActionStatus = "navigation_blocked"
)

// OK reports whether s is a success (Ready or StaleRefRecovered).
func (s ActionStatus) OK() bool { return s == Ready || s == StaleRefRecovered }

// Sentinel errors, one per failure status, for errors.Is:
//
//	if errors.Is(err, rodagent.ErrObscured) { … }
var (
	ErrNotFound                 error = &statusSentinel{NotFound}
	ErrStaleRefUnresolved       error = &statusSentinel{StaleRefUnresolved}
	ErrPageChanged              error = &statusSentinel{PageChanged}
	ErrZeroRect                 error = &statusSentinel{ZeroRect}
	ErrNotVisible               error = &statusSentinel{NotVisible}
	ErrObscured                 error = &statusSentinel{Obscured}
	ErrDisabled                 error = &statusSentinel{Disabled}
	ErrNotEditable              error = &statusSentinel{NotEditable}
	ErrNotASelect               error = &statusSentinel{NotASelect}
	ErrAmbiguous                error = &statusSentinel{Ambiguous}
	ErrFrameUnreachable         error = &statusSentinel{FrameUnreachable}
	ErrUnsupportedKey           error = &statusSentinel{UnsupportedKey}
	ErrNoSuchTab                error = &statusSentinel{NoSuchTab}
	ErrTimeout                  error = &statusSentinel{Timeout}
	ErrNativeBackendUnavailable error = &statusSentinel{NativeBackendUnavailable}
	ErrNotChanged               error = &statusSentinel{NotChanged}
	ErrNotStable                error = &statusSentinel{NotStable}
	ErrInvalidValue             error = &statusSentinel{InvalidValue}
	ErrDenied                   error = &statusSentinel{Denied}
	ErrNavigationBlocked        error = &statusSentinel{NavigationBlocked}
)

// Errors that are not about one action's target.
var (
	// ErrClosed: the Browser or Page was closed by this program.
	ErrClosed = errors.New("rodagent: closed")
	// ErrBrowserGone: the connection to the browser broke (it exited or crashed).
	ErrBrowserGone = errors.New("rodagent: browser connection lost")
	// ErrPageCrashed: the tab's renderer crashed; Reload or Open to continue.
	ErrPageCrashed = errors.New("rodagent: page crashed")
	// ErrNoBrowser: no Chromium or Chrome could be found or downloaded.
	ErrNoBrowser = errors.New("rodagent: no browser found")
	// ErrPageBroken: one of the page's event handlers failed (a bug in this
	// library, logged with its stack); the Page's view of its tab can no
	// longer be trusted, so every later call on it fails: Close it.
	ErrPageBroken = errors.New("rodagent: page broken")
	// ErrNotAllowed: the embedding application's Approver, or an allowlist, refused the call.
	ErrNotAllowed = errors.New("rodagent: not allowed")
)

type statusSentinel struct{ s ActionStatus }

func (e *statusSentinel) Error() string { return "rodagent: " + string(e.s) }

// Candidate is one of the elements an ambiguous target could mean.
type Candidate struct {
	Ref      string // handle, when the element has one
	Role     string // Chromium's computed role
	Name     string // accessible name
	Landmark string // nearest landmark: `navigation "Main"`
}

// String is the candidate as the error lists it: handle (or role), name and landmark.
func (c Candidate) String() string {
	s := c.Ref
	if s == "" {
		s = plainText(c.Role, 40)
	}
	if c.Name != "" {
		s += " " + quote(c.Name, 80)
	}
	if c.Landmark != "" {
		s += " in " + safeLabel(c.Landmark, 80)
	}
	return s
}

// ActionError is the error returned with every failure status. Next says, in
// words a model can follow, what to do next.
type ActionError struct {
	Action     string       // "click", "type", …
	Ref        string       // the target as given
	Status     ActionStatus // why it failed
	Next       string       // the next move, in words
	Detail     string       // what was found, e.g. the element covering the target
	Candidates []Candidate  // for Ambiguous
	Err        error        // underlying cause, if any
}

// Error reads "rodagent: click btn-save: obscured: covered by … — next move".
func (e *ActionError) Error() string {
	var b strings.Builder
	b.WriteString("rodagent: ")
	if e.Action != "" {
		b.WriteString(e.Action)
		if e.Ref != "" {
			b.WriteString(" " + e.Ref)
		}
		b.WriteString(": ")
	}
	b.WriteString(string(e.Status))
	if e.Detail != "" {
		// Details quote what they take from the page; safeLabel is the net
		// for one that did not.
		b.WriteString(": " + safeLabel(e.Detail, 400))
	}
	if e.Next != "" {
		b.WriteString(" — " + e.Next)
	}
	if len(e.Candidates) > 0 {
		b.WriteString(" [")
		for i, c := range e.Candidates {
			if i > 0 {
				b.WriteString("; ")
			}
			b.WriteString(c.String())
		}
		b.WriteString("]")
	}
	return b.String()
}

// Unwrap returns the underlying cause.
func (e *ActionError) Unwrap() error { return e.Err }

// Is matches the sentinel of e's status (ErrObscured for Obscured, …).
func (e *ActionError) Is(target error) bool {
	s, ok := target.(*statusSentinel)
	return ok && s.s == e.Status
}

// nextMove is the default next move for each failure status.
var nextMove = map[ActionStatus]string{
	NotFound:                 "unknown ref — Snapshot first",
	StaleRefUnresolved:       "element is gone — Snapshot again",
	PageChanged:              "page changed — Snapshot again",
	ZeroRect:                 "element is not visible — Snapshot again",
	NotVisible:               "element is not visible — Snapshot again",
	Obscured:                 "something covers it — dismiss or close that first, then retry",
	Disabled:                 "element is disabled — complete what enables it, or pick another",
	NotEditable:              "element does not take text — pick a text field",
	NotASelect:               "neither a native select nor a dropdown — click it, then click the option",
	Ambiguous:                "several elements match — pick one of the candidates by ref",
	FrameUnreachable:         "frame is unreachable — Snapshot again",
	UnsupportedKey:           "Press takes " + input.KeyGrammar,
	NoSuchTab:                "no such tab — list with Tabs",
	Timeout:                  "deadline passed — Snapshot to see the page, then retry",
	NativeBackendUnavailable: "the browser refused native input — use a Chromium with CDP Input support",
	NotChanged:               "state did not change — Snapshot to see why",
	InvalidValue:             "the field refuses that value — give it in the form the message names",
	NotStable:                "element keeps moving — wait for the page to settle, Snapshot, then retry",
	Denied:                   "the application refused this action — do not retry it; ask the user or do something else",
	NavigationBlocked:        "that origin is not allowed — stay on the allowed site; Snapshot to see where the tab is",
}

func failure(action, ref string, st ActionStatus, detail string, cause error) *ActionError {
	return &ActionError{Action: action, Ref: ref, Status: st, Next: nextMove[st], Detail: detail, Err: cause}
}
