package rodagent

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/go-rod/rod/lib/cdp"
	"github.com/go-rod/rod/lib/proto"
	"github.com/ysmood/gson"
	"golang.org/x/sync/errgroup"

	"github.com/rodagent/rodagent/input"
	"github.com/rodagent/rodagent/internal/ax"
	"github.com/rodagent/rodagent/internal/session"
)

// finder resolves an action's target — a ref or a locator — to a live node.
type finder struct {
	name string // the target as the caller wrote it, for approvals and errors
	role string // role and name when known before resolving
	elem string
	find func(ctx context.Context, verb string) (*target, error)
}

// byRef is the finder for a ref handle.
func (p *Page) byRef(ref string) finder {
	role, name := p.describeRef(ref)
	return finder{name: ref, role: role, elem: name, find: func(ctx context.Context, verb string) (*target, error) {
		return p.resolve(ctx, verb, ref)
	}}
}

// act is the path every action takes: approval, the page's turn, a
// navigation still under way lands, resolve, actionability, native input,
// then the report of what it did (LastAction).
func (p *Page) act(ctx context.Context, a Action, f finder, n needs, do func(t *target, at input.Point) error) (ActionStatus, error) {
	a.Target, a.Role, a.Name = f.name, f.role, f.elem
	unlock, err := p.lock(ctx, a.Verb)
	if err != nil {
		return statusOf(err), err
	}
	defer unlock()
	st, nav, err := p.actLocked(ctx, a, f, n, do)
	p.finish(ctx, a.Verb, f.name, st, nav, err)
	return st, err
}

func (p *Page) actLocked(ctx context.Context, a Action, f finder, n needs, do func(t *target, at input.Point) error) (ActionStatus, navMark, error) {
	verb := a.Verb
	m := p.navMark()
	if err := p.settleNavigation(ctx, verb); err != nil {
		return statusOf(err), m, err
	}
	t, err := f.find(ctx, verb)
	if err != nil {
		return statusOf(err), m, err
	}
	// Asked here, under the page's turn and after resolving: the Approver
	// sees the element as it is now, not as the last snapshot had it.
	if !n.approved {
		if err := p.approveTarget(ctx, a, t); err != nil {
			return statusOf(err), m, err
		}
	}
	for tries := 1; ; tries++ {
		at, err := p.actionable(ctx, verb, t, n)
		if err != nil {
			if n.press {
				p.pressLanded(ctx, t) // a hit test that passed before a later check failed armed it
			}
			return statusOf(err), m, err
		}
		p.markActed()
		m = p.navMark()
		err = p.guardNavigation(ctx, verb, t, func() error { return do(t, at) })
		if n.press {
			// A stopped press is what went wrong even when the action
			// then failed on its own terms (a checkbox still unchecked).
			if landed, miss := p.pressLanded(ctx, t); miss != "" && (err == nil || landed == 0) {
				switch {
				case landed > 0:
					// A double click whose first press landed: trying
					// again would press it more often than asked.
					err = failure(verb, f.name, NotStable, fmt.Sprintf("the first press landed, then %s took the target's place and the next press was stopped (snapshot to see what the first one did)", miss), nil)
				case tries < pressTries && ctx.Err() == nil:
					// The guard stopped the press: nothing was pressed,
					// so trying again on the box as it is now is safe.
					p.b.cfg.log.Debug("press missed its target; trying again", "verb", verb, "ref", f.name, "landed on", miss)
					continue
				default:
					err = failure(verb, f.name, NotStable, fmt.Sprintf("the press landed on %s, which took the target's place as it was pressed (%d tries); nothing was pressed", miss, tries), nil)
				}
			}
		}
		if err != nil {
			err = p.inputErr(ctx, verb, f.name, err)
			return statusOf(err), m, err
		}
		return t.status, m, nil
	}
}

// pressTries bounds how often a press the guard stopped is tried again.
const pressTries = 3

// pressLanded reads and disarms the press guard the hit test armed in the
// target's frame (see pressGuardJS): how many presses landed on the target,
// and the element the first one that missed landed on, else "". A guard that
// cannot be read (the press navigated, a dialog holds the page) reports no
// miss: it stopped nothing it could not name, and disarms by itself.
func (p *Page) pressLanded(ctx context.Context, t *target) (int, string) {
	ctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	w, err := p.world(ctx, t.frame)
	if err != nil {
		return 0, ""
	}
	res, err := proto.RuntimeEvaluate{Expression: pressLandedJS, ContextID: w, ReturnByValue: true}.Call(t.sess.Bind(ctx))
	if err != nil || res.ExceptionDetails != nil || res.Result == nil {
		return 0, ""
	}
	return res.Result.Value.Get("seen").Int(), res.Result.Value.Get("miss").Str()
}

// finish records the report of an action that held the page's turn, asking
// the renderer whether its input started a navigation (ctx is the action's:
// see afterInput for how long the question may take).
func (p *Page) finish(ctx context.Context, verb, target string, st ActionStatus, m navMark, err error) {
	r := ActionReport{Verb: verb, Ref: target, Status: st}
	if err != nil && r.Status == "" {
		r.Status = statusOf(err)
	}
	if p.alive() == nil {
		r.Navigated, r.URL = p.afterInput(ctx, m)
	}
	p.report(r)
}

// statusOf is the status carried by an error (Timeout for a passed deadline).
func statusOf(err error) ActionStatus {
	var ae *ActionError
	if errors.As(err, &ae) {
		return ae.Status
	}
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		return Timeout
	}
	return ""
}

// inputErr maps a failure of the input step itself.
func (p *Page) inputErr(ctx context.Context, verb, ref string, err error) error {
	var ae *ActionError
	if errors.As(err, &ae) {
		return err
	}
	var ce *cdp.Error
	if errors.As(err, &ce) && ce.Code == -32601 {
		return failure(verb, ref, NativeBackendUnavailable, ce.Message, err)
	}
	return p.actionErr(ctx, verb, ref, err)
}

// describeRef returns the role and name a handle stands for, for approvers.
func (p *Page) describeRef(handle string) (string, string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if e, ok := p.reg.Lookup(handle); ok {
		return e.Role, e.Name
	}
	return "", ""
}

// Click clicks the element a ref names, as a person would: the pointer moves
// to the middle of its visible box, then the left button goes down and up
// (pointer, mouse and click events, focus, default actions). Before that, the
// element is scrolled into view and checked: rendered, with area, enabled,
// and not covered at that point. Dialogs the click opens are answered (see
// ArmDialog) so the click never hangs.
func (p *Page) Click(ctx context.Context, ref string) (ActionStatus, error) {
	return p.clickN(ctx, "click", p.byRef(ref), 1)
}

// DblClick double-clicks the element a ref names (two clicks, the second
// with clickCount 2, so dblclick fires).
func (p *Page) DblClick(ctx context.Context, ref string) (ActionStatus, error) {
	return p.clickN(ctx, "dblclick", p.byRef(ref), 2)
}

// RightClick presses the right mouse button on the element a ref names,
// after the same checks as Click: the page gets contextmenu (and auxclick),
// so its own context menu opens — a file manager's row, an editor, a grid.
// Chromium's own menu never shows in a headless browser; a page that keeps
// the default opens nothing, and the next look shows no change.
func (p *Page) RightClick(ctx context.Context, ref string) (ActionStatus, error) {
	return p.rightClick(ctx, p.byRef(ref))
}

func (p *Page) rightClick(ctx context.Context, f finder) (ActionStatus, error) {
	return p.act(ctx, Action{Verb: "rightclick"}, f, needs{enabled: true, hit: true, move: true, press: true}, func(t *target, at input.Point) error {
		return input.PressButtonAt(ctx, p.main, at, input.Right, 1, 0)
	})
}

func (p *Page) clickN(ctx context.Context, verb string, f finder, count int) (ActionStatus, error) {
	return p.press(ctx, verb, f, count, false)
}

// press clicks the element f finds count times; approved skips asking the
// Approver (only for a step of a call it already allowed), not the checks.
func (p *Page) press(ctx context.Context, verb string, f finder, count int, approved bool) (ActionStatus, error) {
	return p.act(ctx, Action{Verb: verb}, f, needs{enabled: true, hit: true, move: true, press: true, approved: approved}, func(t *target, at input.Point) error {
		return input.PressAt(ctx, p.main, at, count, 0)
	})
}

// Hover moves the pointer over the element a ref names (pointerover,
// mouseover, mousemove…), after the same checks as Click.
func (p *Page) Hover(ctx context.Context, ref string) (ActionStatus, error) {
	return p.hover(ctx, p.byRef(ref))
}

func (p *Page) hover(ctx context.Context, f finder) (ActionStatus, error) {
	return p.act(ctx, Action{Verb: "hover"}, f, needs{hit: true, move: true}, func(t *target, at input.Point) error {
		return nil // actionable moved the pointer there
	})
}

// Focus gives keyboard focus to the element a ref names, without clicking.
func (p *Page) Focus(ctx context.Context, ref string) (ActionStatus, error) {
	return p.focus(ctx, p.byRef(ref))
}

func (p *Page) focus(ctx context.Context, f finder) (ActionStatus, error) {
	return p.act(ctx, Action{Verb: "focus"}, f, needs{}, func(t *target, _ input.Point) error {
		return proto.DOMFocus{BackendNodeID: t.elem.Node}.Call(t.sess.Bind(ctx))
	})
}

// Type replaces the content of the text field a ref names with text, as a
// person types it: focus, select all, then a trusted keystroke per character
// (keydown, keypress, beforeinput, input, keyup — so widgets that filter or
// autocomplete on key events react). Characters no US key produces (accents,
// other scripts, emoji), line breaks and tabs are inserted as text
// (Input.insertText: beforeinput and input of type insertText), and text
// longer than 256 characters is inserted in one go. Never a value
// assignment, so framework-controlled inputs keep their state. An empty text
// clears the field. Date, time, datetime-local, month and week inputs take
// their ISO value ("2024-03-09", "13:45", "2024-03-09T13:45", "2024-03",
// "2024-W10"), typed into the field's own segments; a range input takes a
// number, reached with arrow keys, and so does a slider or spin button drawn
// with ARIA (aria-valuenow), moved with the arrow and page keys by as much
// as one press is seen to move it. Fails with NotEditable for anything that
// does not take text.
func (p *Page) Type(ctx context.Context, ref, text string) (ActionStatus, error) {
	return p.typeText(ctx, p.byRef(ref), text)
}

func (p *Page) typeText(ctx context.Context, f finder, text string) (ActionStatus, error) {
	return p.act(ctx, Action{Verb: "type", Text: text}, f, needs{enabled: true}, func(t *target, _ input.Point) error {
		if t.state.Readonly {
			return failure("type", f.name, NotEditable, "it is read-only", nil)
		}
		if !t.state.Editable {
			// Date, time, range and colour inputs take a value but no free text.
			handled, err := p.typeValue(ctx, t, text)
			if err != nil || handled {
				return err
			}
			if t.elem.Role == "slider" || t.elem.Role == "spinbutton" {
				if handled, err := p.setARIAValue(ctx, t, "type", text); err != nil || handled {
					return err
				}
			}
			if ok, err := p.editableOnFocus(ctx, t); err != nil {
				return err
			} else if !ok {
				return failure("type", f.name, NotEditable, "it is a "+t.elem.Role, nil)
			}
		}
		obj, group, err := p.focusFor(ctx, t, f.name)
		if group != "" {
			defer p.releaseHit(t, group)
		}
		if err != nil {
			return err
		}
		if err := input.SelectAll(ctx, p.main); err != nil {
			return err
		}
		if text == "" {
			k, _, _ := input.ParseKey("Delete")
			err = input.Press(ctx, p.main, k, 0)
		} else {
			err = input.TypeText(ctx, p.main, text)
		}
		if err != nil {
			return err
		}
		if away := p.focusAway(ctx, t, obj, "after", text); text != "" && away != "" {
			return focusTaken("type", f.name, "the page moved the keyboard focus to "+away+
				" while the text was typed, and neither field took it (snapshot to see)")
		}
		return nil
	})
}

// contentEditableJS tells whether the element is an editing host by its
// attribute, whatever its style makes of it now.
const contentEditableJS = `function () {
	const a = this.getAttribute('contenteditable');
	return a !== null && a.toLowerCase() !== 'false';
}`

// editableOnFocus focuses an editing host the browser reads as not editable
// and reads it again: a field may be editable only while it has focus. MUI
// X's date field styles its sections -webkit-user-modify: read-only until
// then, so Chromium called them not editable and Type refused the month a
// person types into after clicking it. Anything else is left unfocused.
func (p *Page) editableOnFocus(ctx context.Context, t *target) (bool, error) {
	v, err := p.callOn(ctx, "type", t, contentEditableJS)
	if err != nil || !v.Bool() {
		return false, err
	}
	if err := (proto.DOMFocus{BackendNodeID: t.elem.Node}).Call(t.sess.Bind(ctx)); err != nil {
		return false, p.actionErr(ctx, "type", t.handle, err)
	}
	res, err := proto.AccessibilityGetPartialAXTree{BackendNodeID: t.elem.Node}.Call(t.sess.Bind(ctx))
	if err != nil {
		return false, p.actionErr(ctx, "type", t.handle, err)
	}
	for _, n := range res.Nodes {
		if n.BackendDOMNodeID != t.elem.Node {
			continue
		}
		st := ax.ParseState(n)
		if !st.Editable || st.Readonly {
			return false, nil
		}
		t.ax, t.state = n, st
		return true, nil
	}
	return false, nil
}

// focusFor focuses the target as a person's click or Tab would, and checks
// that the keyboard focus is then in it: a page can move focus on (a focus
// or blur handler that focuses another field), and keys sent then would land
// in the other field while the action reported success. It returns the
// target's object in the library's world for the check after typing, and
// its object group for the caller to release.
func (p *Page) focusFor(ctx context.Context, t *target, ref string) (*proto.RuntimeRemoteObject, string, error) {
	var obj *proto.RuntimeRemoteObject
	var group string
	var g errgroup.Group
	g.Go(func() error { // in parallel: the focus costs no extra round trip
		var err error
		obj, group, err = p.hitObject(ctx, t)
		return err
	})
	focusErr := (proto.DOMFocus{BackendNodeID: t.elem.Node}).Call(t.sess.Bind(ctx))
	objErr := g.Wait()
	if focusErr != nil {
		return nil, group, focusErr
	}
	if objErr != nil {
		return nil, group, objErr
	}
	if away := p.focusAway(ctx, t, obj, "before", ""); away != "" {
		return nil, group, focusTaken("type", ref, "the page moved the keyboard focus to "+away+
			" as soon as it was focused; nothing was typed")
	}
	return obj, group, nil
}

// focusTaken is the failure of keys the page's focus handling would send
// elsewhere: Obscured, as for a press something else would receive.
func focusTaken(action, ref, detail string) *ActionError {
	e := failure(action, ref, Obscured, detail, nil)
	e.Next = "the page keeps the focus on another field — fill or close what it wants first, then retry"
	return e
}

// focusAwayJS returns the element that holds the keyboard focus when it is
// neither the target nor inside it (shadow trees included), else null.
// Before the keys it notes the target's text; after them, focus elsewhere
// counts only when the text landed nowhere: a field that takes its
// characters and moves the focus on (a one-time-code box, a card number
// into its expiry), or a widget that opens its own search field on the
// first key and takes the rest there (Select2), did what it does for a
// person — the snapshot shows where the text and the focus went.
const focusAwayJS = `function(phase, typed) {
	const text = el => el ? (typeof el.value === 'string' ? el.value : el.textContent) || '' : '';
	if (phase === 'before') this.__rodagentTyped = text(this); // this world's wrapper: the page never sees it
	let a = this.ownerDocument.activeElement;
	while (a && a.shadowRoot && a.shadowRoot.activeElement) a = a.shadowRoot.activeElement;
	for (let n = a; n; n = n.parentNode || n.host) if (n === this) return null;
	// a closed shadow root hides its focus: the host is as deep as it shows
	for (let r = this.getRootNode(); r.host; r = r.host.getRootNode()) if (r.host === a) return null;
	if (phase === 'after' && (text(this) !== this.__rodagentTyped || text(a).includes(typed.slice(-1)))) return null;
	return a && a !== this.ownerDocument.body ? a : null;
}`

// focusAway names the element the page moved the focus to, or "" when the
// focus is in the target — or cannot be read (the typing navigated, the
// object is gone): then nothing is claimed. phase is "before" or "after"
// the keys, typed the text they carried.
func (p *Page) focusAway(ctx context.Context, t *target, obj *proto.RuntimeRemoteObject, phase, typed string) string {
	res, err := proto.RuntimeCallFunctionOn{ObjectID: obj.ObjectID, FunctionDeclaration: focusAwayJS,
		Arguments: []*proto.RuntimeCallArgument{{Value: gson.New(phase)}, {Value: gson.New(typed)}}}.Call(t.sess.Bind(ctx))
	if err != nil || res.ExceptionDetails != nil || res.Result == nil || res.Result.ObjectID == "" {
		return ""
	}
	return p.nodeText(ctx, t, res.Result.ObjectID, "another element")
}

// Press presses one key on whatever has focus in the tab, with optional
// modifiers held: any single character ("a", "/", "é"), the named keys
// (Enter, Tab, Escape, Space, Backspace, Delete, Insert, the arrows, Home,
// End, PageUp, PageDown, F1–F12, ContextMenu) and chords with Control,
// Shift, Alt and Meta ("Control+A", "Shift+Tab", "Shift+ArrowDown"); the
// modifier keys go down before the key and up after it. Anything else fails
// with UnsupportedKey, whose message gives the grammar. Enter always goes
// through the Approver as a call that must be confirmed, since it submits
// forms.
func (p *Page) Press(ctx context.Context, key string) (ActionStatus, error) {
	k, mods, err := input.ParseKey(key)
	if err != nil {
		return UnsupportedKey, failure("press", key, UnsupportedKey, fmt.Sprintf("%q is not a key", key), nil)
	}
	if err := p.approvePage(ctx, Action{Verb: "press", Text: key, AlwaysAsk: k.Key == "Enter"}); err != nil {
		return statusOf(err), err
	}
	return p.pressKey(ctx, key, k, mods)
}

// pressKey presses a parsed key under the page's turn, without asking the
// Approver: Press asks first, and a step of a call the Approver already
// allowed (the Escape that closes what a failed Select opened) does not ask.
func (p *Page) pressKey(ctx context.Context, key string, k input.Key, mods input.Modifier) (ActionStatus, error) {
	unlock, err := p.lock(ctx, "press")
	if err != nil {
		return statusOf(err), err
	}
	defer unlock()
	st, m, err := p.pressLocked(ctx, key, k, mods)
	p.finish(ctx, "press", key, st, m, err)
	return st, err
}

func (p *Page) pressLocked(ctx context.Context, key string, k input.Key, mods input.Modifier) (ActionStatus, navMark, error) {
	if err := p.settleNavigation(ctx, "press"); err != nil {
		return statusOf(err), p.navMark(), err
	}
	p.markActed()
	m := p.navMark()
	if err := input.Press(ctx, p.main, k, mods); err != nil {
		err = p.inputErr(ctx, "press", key, err)
		return statusOf(err), m, err
	}
	return Ready, m, nil
}

// Scroll turns the mouse wheel at the middle of the viewport by amount CSS
// pixels in a direction — where is "up", "down", "left" or "right" (amount 0
// means 80% of the viewport) — or, when where is a ref, scrolls that
// element into view. To scroll inside an element (a feed, a panel), see
// ScrollAt.
func (p *Page) Scroll(ctx context.Context, where string, amount int) (ActionStatus, error) {
	dir := strings.ToLower(strings.TrimSpace(where))
	if _, ok := scrollUnits[dir]; !ok {
		// resolve already scrolls the element into view
		return p.act(ctx, Action{Verb: "scroll"}, p.byRef(where), needs{}, func(*target, input.Point) error { return nil })
	}
	if err := p.approvePage(ctx, Action{Verb: "scroll", Text: dir}); err != nil {
		return statusOf(err), err
	}
	unlock, err := p.lock(ctx, "scroll")
	if err != nil {
		return statusOf(err), err
	}
	defer unlock()
	st, nm, err := p.wheelViewport(ctx, where, dir, amount)
	p.finish(ctx, "scroll", dir, st, nm, err)
	return st, err
}

// wheelViewport turns the wheel at the middle of the viewport.
func (p *Page) wheelViewport(ctx context.Context, where, dir string, amount int) (ActionStatus, navMark, error) {
	nm := p.navMark()
	if err := p.settleNavigation(ctx, "scroll"); err != nil {
		return statusOf(err), nm, err
	}
	m, err := proto.PageGetLayoutMetrics{}.Call(p.main.Bind(ctx))
	if err != nil {
		err = p.actionErr(ctx, "scroll", where, err)
		return statusOf(err), nm, err
	}
	vw, vh := float64(m.CSSLayoutViewport.ClientWidth), float64(m.CSSLayoutViewport.ClientHeight)
	unit := scrollUnits[dir]
	d := float64(amount)
	if d == 0 {
		d = 0.8 * (vw*math.Abs(unit[0]) + vh*math.Abs(unit[1])) // most of a screen
	}
	dx, dy := unit[0]*d, unit[1]*d
	p.markActed()
	nm = p.navMark()
	if err := input.Wheel(ctx, p.main, input.Point{X: vw / 2, Y: vh / 2}, dx, dy); err != nil {
		err = p.inputErr(ctx, "scroll", where, err)
		return statusOf(err), nm, err
	}
	// The compositor applies a wheel scroll on its own schedule; two animation
	// frames later it has reached the page, so what follows sees the new position.
	if _, err := (proto.RuntimeEvaluate{Expression: nextFrameJS, AwaitPromise: true}).Call(p.main.Bind(ctx)); err != nil {
		err = p.actionErr(ctx, "scroll", where, err)
		return statusOf(err), nm, err
	}
	return Ready, nm, nil
}

// ScrollAt turns the mouse wheel over the element a ref names — a feed, a
// virtual list, a scrollable panel, a map — by amount CSS pixels in a
// direction ("up", "down", "left", "right"; amount 0 means 80% of the
// element's box), so the element under the pointer scrolls as it would for a
// person, with wheel events the page can observe. The element is first
// brought into view and hit tested like a click target.
func (p *Page) ScrollAt(ctx context.Context, ref, direction string, amount int) (ActionStatus, error) {
	return p.scrollAt(ctx, p.byRef(ref), direction, amount)
}

func (p *Page) scrollAt(ctx context.Context, f finder, direction string, amount int) (ActionStatus, error) {
	dir := strings.ToLower(strings.TrimSpace(direction))
	unit, ok := scrollUnits[dir]
	if !ok {
		return InvalidValue, failure("scroll", f.name, InvalidValue, fmt.Sprintf("%s is not a direction: want up, down, left or right", quote(direction, 20)), nil)
	}
	return p.act(ctx, Action{Verb: "scroll", Text: dir}, f, needs{hit: true, move: true}, func(t *target, at input.Point) error {
		d := float64(amount)
		if d == 0 {
			d = 0.8 * (t.elem.Box.W*math.Abs(unit[0]) + t.elem.Box.H*math.Abs(unit[1]))
			if d < 1 {
				d = 300
			}
		}
		if err := input.Wheel(ctx, p.main, at, unit[0]*d, unit[1]*d); err != nil {
			return err
		}
		_, err := (proto.RuntimeEvaluate{Expression: nextFrameJS, AwaitPromise: true}).Call(p.main.Bind(ctx))
		return err
	})
}

// scrollUnits are the wheel directions Scroll takes.
var scrollUnits = map[string][2]float64{"up": {0, -1}, "down": {0, 1}, "left": {-1, 0}, "right": {1, 0}}

// Check makes sure the checkbox, radio or switch a ref names is checked,
// clicking it if it is not, then verifies the state changed (NotChanged when
// the page did not let it).
func (p *Page) Check(ctx context.Context, ref string) (ActionStatus, error) {
	return p.setChecked(ctx, "check", p.byRef(ref), true)
}

// Uncheck makes sure the checkbox or switch a ref names is not checked.
func (p *Page) Uncheck(ctx context.Context, ref string) (ActionStatus, error) {
	return p.setChecked(ctx, "uncheck", p.byRef(ref), false)
}

func (p *Page) setChecked(ctx context.Context, verb string, f finder, want bool) (ActionStatus, error) {
	wantS := fmt.Sprint(want)
	ref := f.name
	return p.act(ctx, Action{Verb: verb}, f, needs{enabled: true, hit: true, press: true}, func(t *target, at input.Point) error {
		cur := t.state.Checked
		if cur == "" {
			cur = t.state.Pressed
		}
		if cur == "" && t.state.Selected {
			cur = "true"
		}
		if cur == wantS {
			return nil
		}
		switch t.elem.Role {
		case "checkbox", "radio", "switch", "menuitemcheckbox", "menuitemradio":
		default:
			if t.state.Checked == "" && t.state.Pressed == "" {
				return failure(verb, ref, NotChanged, "it is a "+t.elem.Role+", not a checkbox, radio or switch", nil)
			}
		}
		if err := input.Click(ctx, p.main, at, 1, 0); err != nil {
			return err
		}
		// React and friends update on their own schedule: look again after
		// each of a few animation frames.
		for i := 0; i < 5; i++ {
			if err := p.probe(ctx, t); err != nil {
				return err
			}
			if t.state.Checked == wantS || t.state.Pressed == wantS {
				return nil
			}
			if _, err := (proto.RuntimeEvaluate{Expression: nextFrameJS, AwaitPromise: true}).Call(t.sess.Bind(ctx)); err != nil {
				return err
			}
		}
		return failure(verb, ref, NotChanged, "clicked, but it is still "+map[bool]string{true: "unchecked", false: "checked"}[want]+p.stillLoading(), nil)
	})
}

// selectJS chooses options of a native <select> by value or by label, the way
// the browser's own popup does, and fires input and change.
const selectJS = `function (wanted) {
	if (this.tagName !== 'SELECT') return {notSelect: true};
	const opts = Array.from(this.options);
	const picked = [];
	for (const w of wanted) {
		const o = opts.find(o => o.value === w) || opts.find(o => o.label === w) ||
			opts.find(o => o.label.trim().toLowerCase() === String(w).trim().toLowerCase());
		if (!o) return {missing: w, have: opts.map(o => o.label)};
		if (o.disabled) return {disabledOption: w};
		picked.push(o);
	}
	if (!this.multiple && picked.length > 1) return {tooMany: true};
	for (const o of opts) o.selected = picked.includes(o);
	this.dispatchEvent(new Event('input', {bubbles: true, composed: true}));
	this.dispatchEvent(new Event('change', {bubbles: true}));
	return {selected: picked.map(o => o.value)};
}`

// Select chooses options of the native <select> a ref names, by value or by
// visible label, and fires input and change as the browser's own popup does.
// On a range input, or a slider or spin button drawn with ARIA, it takes one
// number and moves it there with the keyboard, as Type does.
// On a dropdown drawn with ARIA (a combobox, listbox or popup button: Radix,
// MUI, Headless UI, react-select, Shoelace …) it does what a person does —
// opens it unless it is open, waits for the option named by each value
// (whole, else in part) and clicks it — and fails NotFound naming the options
// that showed when one is missing. Anything else fails with NotASelect.
func (p *Page) Select(ctx context.Context, ref string, values ...string) (ActionStatus, error) {
	return p.selectOptions(ctx, p.byRef(ref), values)
}

func (p *Page) selectOptions(ctx context.Context, f finder, values []string) (ActionStatus, error) {
	var role, expanded string
	st, err := p.selectNative(ctx, f, values, &role, &expanded)
	var ae *ActionError
	if !errors.As(err, &ae) || ae.Status != NotASelect || len(values) == 0 {
		return st, err
	}
	// A button is a dropdown only when it says it opens something
	// (aria-expanded): Select on a plain button must not press it.
	switch r := canonicalRole(role); {
	case r == "combobox", r == "listbox", r == "button" && expanded != "":
		return p.selectCustom(ctx, f, values, r, expanded == "true")
	}
	return st, err
}

// optionWait bounds how long a custom dropdown's options may take to show.
const optionWait = 3 * time.Second

// selectCustom chooses options of a dropdown drawn with ARIA (Radix, MUI,
// Headless UI, react-select, jQuery UI, Shoelace, Material …) as a person
// does: it opens the control unless it is open or is the list itself, waits
// for an option with the value as its name (whole, else in part), and
// clicks it; then the same for the next value, opening the control again if
// choosing closed it. Every click is a Click, with its checks; the Approver
// is not asked again: it allowed the Select (selectNative asked it, with the
// control's live facts), and the clicks are how a Select is done here.
func (p *Page) selectCustom(ctx context.Context, f finder, values []string, role string, open bool) (ActionStatus, error) {
	closed := !open && role != "listbox"
	for i, v := range values {
		var l Locator
		err := error(errNotShown)
		if !closed {
			// open already, or still open after the last choice (a
			// multi-select): the option may be there without a click
			wait := optionWait
			if i > 0 {
				wait = optionGlance
			}
			l, err = p.waitOption(ctx, v, wait)
		}
		clicked := false
		if err != nil && role != "listbox" && (closed || i > 0) && ctx.Err() == nil {
			if st, err := p.press(ctx, "select", f, 1, true); err != nil {
				return st, err
			}
			clicked = true
			l, err = p.waitOption(ctx, v, optionWait)
		}
		if err != nil {
			if clicked && ctx.Err() == nil {
				// leave the page as it was: close what this call opened
				// (part of the Select the Approver allowed: not asked again)
				if k, mods, err := input.ParseKey("Escape"); err == nil {
					_, _ = p.pressKey(ctx, "Escape", k, mods)
				}
			}
			return statusOf(err), err
		}
		if st, err := p.press(ctx, "select", p.byLocator(l), 1, true); err != nil {
			return st, err
		}
		closed = false
	}
	return Ready, nil
}

// optionGlance is how long Select looks for the next option in a list that
// may still be open before it opens the control again.
const optionGlance = 300 * time.Millisecond

var errNotShown = errors.New("no option shown yet")

// waitOption waits (at most wait) for an option named v, whole and
// case-sensitive first, else containing v, and returns its locator; a
// NotFound error lists the options that did show.
func (p *Page) waitOption(ctx context.Context, v string, wait time.Duration) (Locator, error) {
	exact, loose := ByRole("option", v).Exact(), ByRole("option", v)
	wctx, cancel := context.WithTimeout(ctx, wait)
	err := p.Wait(wctx, Present(exact))
	cancel()
	if err == nil {
		return exact, nil
	}
	if ctx.Err() != nil {
		return Locator{}, ctx.Err()
	}
	// the options have shown by now, if any will: one look for a partial name
	if m, _ := p.Find(ctx, loose); len(m) > 0 {
		return loose, nil
	}
	var have []string
	if refs, err := p.Find(ctx, ByRole("option", "")); err == nil {
		for _, r := range refs {
			if len(have) < 20 {
				have = append(have, quote(r.Name, 60))
			}
		}
	}
	detail := "opened it, but no option " + quote(v, 60) + " showed"
	if len(have) > 0 {
		detail += "; options: " + capRunes(strings.Join(have, ", "), 300)
	}
	e := failure("select", v, NotFound, detail, nil)
	if len(have) > 0 {
		e.Next = noSuchOption
	}
	return Locator{}, e
}

// noSuchOption is the next move when the ref was found and the option was
// not: the ref is fine, another name is wanted.
const noSuchOption = "choose one of the options named, by its label as written"

func (p *Page) selectNative(ctx context.Context, f finder, values []string, role, expanded *string) (ActionStatus, error) {
	ref := f.name
	return p.act(ctx, Action{Verb: "select", Text: strings.Join(values, ", ")}, f, needs{enabled: true}, func(t *target, _ input.Point) error {
		*role, *expanded = t.elem.Role, t.state.Expanded
		if r := canonicalRole(t.elem.Role); (r == "slider" || r == "spinbutton") && len(values) == 1 {
			if kind, _, err := p.valueInput(ctx, t); err == nil && kind == "range" {
				return p.setRange(ctx, t, "select", values[0])
			}
			if handled, err := p.setARIAValue(ctx, t, "select", values[0]); err != nil || handled {
				return err
			}
		}
		v, err := p.callOn(ctx, "select", t, selectJS, values)
		if err != nil {
			return err
		}
		switch {
		case v.Get("notSelect").Bool():
			return failure("select", ref, NotASelect, "it is a "+t.elem.Role+", not a native <select>", nil)
		case v.Has("missing"):
			var have []string
			for _, o := range v.Get("have").Arr() {
				have = append(have, quote(o.Str(), 60))
			}
			e := failure("select", ref, NotFound, "no option "+quote(v.Get("missing").Str(), 60)+"; options: "+capRunes(strings.Join(have, ", "), 300), nil)
			e.Next = noSuchOption
			return e
		case v.Has("disabledOption"):
			return failure("select", ref, Disabled, "option "+quote(v.Get("disabledOption").Str(), 60)+" is disabled", nil)
		case v.Get("tooMany").Bool():
			return fmt.Errorf("rodagent: select %s: it takes one option, got %d", ref, len(values))
		}
		return nil
	})
}

// Upload puts files into the file input a ref names (DOM.setFileInputFiles;
// input and change fire as for a person's choice). When the ref names
// something else — a drop zone or button that opens a file chooser — Upload
// clicks it and answers the chooser with the files.
func (p *Page) Upload(ctx context.Context, ref string, paths ...string) (ActionStatus, error) {
	return p.upload(ctx, p.byRef(ref), paths)
}

func (p *Page) upload(ctx context.Context, f finder, paths []string) (ActionStatus, error) {
	ref := f.name
	abs, err := p.b.cfg.checkUploads(paths)
	if err != nil {
		return "", err
	}
	var viaChooser bool
	st, err := p.act(ctx, Action{Verb: "upload", Text: strings.Join(abs, ", ")}, f, needs{enabled: true}, func(t *target, at input.Point) error {
		d, err := proto.DOMDescribeNode{BackendNodeID: t.elem.Node}.Call(t.sess.Bind(ctx))
		if err != nil {
			return err
		}
		if strings.EqualFold(d.Node.NodeName, "input") && attr(d.Node.Attributes, "type") == "file" {
			return input.SetFiles(ctx, t.sess, t.elem.Node, abs)
		}
		viaChooser = true
		return nil
	})
	if err != nil || !viaChooser {
		return st, err
	}
	// Not a file input: arm the chooser and click, as a person would.
	done := p.armChooserDone(abs)
	st, err = p.clickN(ctx, "click", f, 1)
	if err != nil {
		return st, err
	}
	select {
	case err := <-done:
		if err != nil {
			return "", err
		}
		return st, nil
	case <-ctx.Done():
		return Timeout, failure("upload", ref, Timeout, "clicking it opened no file chooser", ctx.Err())
	}
}

func attr(attrs []string, name string) string {
	for i := 0; i+1 < len(attrs); i += 2 {
		if strings.EqualFold(attrs[i], name) {
			return strings.ToLower(attrs[i+1])
		}
	}
	return ""
}

// Drag presses the pointer on the element ref from names, moves it in steps
// to the element ref to names, and releases it there. Pages that use HTML5
// drag and drop get it through Chromium's drag interception
// (Input.dispatchDragEvent with the page's own DataTransfer data).
func (p *Page) Drag(ctx context.Context, from, to string) (ActionStatus, error) {
	return p.drag(ctx, p.byRef(from), p.byRef(to))
}

func (p *Page) drag(ctx context.Context, from, to finder) (ActionStatus, error) {
	unlock, err := p.lock(ctx, "drag")
	if err != nil {
		return statusOf(err), err
	}
	defer unlock()
	st, nm, err := p.dragLocked(ctx, from, to)
	p.finish(ctx, "drag", from.name, st, nm, err)
	return st, err
}

func (p *Page) dragLocked(ctx context.Context, from, to finder) (ActionStatus, navMark, error) {
	nm := p.navMark()
	if err := p.settleNavigation(ctx, "drag"); err != nil {
		return statusOf(err), nm, err
	}
	st, err := p.dragResolved(ctx, from, to, &nm)
	return st, nm, err
}

func (p *Page) dragResolved(ctx context.Context, from, to finder, nm *navMark) (ActionStatus, error) {
	src, err := from.find(ctx, "drag")
	if err != nil {
		return statusOf(err), err
	}
	a, err := p.actionable(ctx, "drag", src, needs{enabled: true, hit: true})
	if err != nil {
		return statusOf(err), err
	}
	dst, err := to.find(ctx, "drag")
	if err != nil {
		return statusOf(err), err
	}
	if err := p.approveTarget(ctx, Action{Verb: "drag", Target: from.name, Text: to.name}, src); err != nil {
		return statusOf(err), err
	}
	b, err := p.actionable(ctx, "drag", dst, needs{})
	if err != nil {
		return statusOf(err), err
	}
	if dst.elem.HasBox {
		b = pastCentre(a, b, dst.elem.Box.W, dst.elem.Box.H)
	}
	p.markActed()
	*nm = p.navMark()
	if err := p.dragPath(ctx, a, b); err != nil {
		err = p.inputErr(ctx, "drag", from.name, err)
		return statusOf(err), err
	}
	if src.status == StaleRefRecovered || dst.status == StaleRefRecovered {
		return StaleRefRecovered, nil
	}
	return Ready, nil
}

const dragSteps = 12

// dragRest is how many frames an HTML5 drag rests on its drop point, a
// dragover on each, before it drops.
const dragRest = 3

// pastCentre moves the drop point b a little past the target's centre in the
// direction of travel (a quarter of its smaller side, at most 8 px): sortable
// lists move an item only once the pointer has crossed the middle of the one
// it is dragged onto, as a person drags until the item moves, and a drop zone
// still holds the point.
func pastCentre(a, b input.Point, w, h float64) input.Point {
	dx, dy := b.X-a.X, b.Y-a.Y
	d := math.Hypot(dx, dy)
	if d < 1 || w <= 0 || h <= 0 {
		return b
	}
	s := math.Min(8, math.Min(w, h)/4)
	return input.Point{X: b.X + dx/d*s, Y: b.Y + dy/d*s}
}

// dragPath moves with the button held from a to b. Drag interception is on
// for the move: if the page starts an HTML5 drag, Chromium hands over its
// data and the rest of the gesture goes out as drag events.
func (p *Page) dragPath(ctx context.Context, a, b input.Point) error {
	intercepted := make(chan *proto.InputDragData, 1)
	unsub := p.b.conn.Subscribe(p.main.ID, func(m *session.Message) {
		var e proto.InputDragIntercepted
		if m.Method == "Input.dragIntercepted" && m.Load(&e) {
			select {
			case intercepted <- e.Data:
			default:
			}
		}
	})
	defer unsub()
	bc := p.main.Bind(ctx)
	if err := (proto.InputSetInterceptDrags{Enabled: true}).Call(bc); err != nil {
		return err
	}
	defer func() { _ = proto.InputSetInterceptDrags{Enabled: false}.Call(p.main.Bind(context.WithoutCancel(ctx))) }()
	if err := input.Move(ctx, p.main, a); err != nil {
		return err
	}
	if err := input.Down(ctx, p.main, a); err != nil {
		return err
	}
	var data *proto.InputDragData
	for i := 1; i <= dragSteps; i++ {
		f := float64(i) / dragSteps
		pt := input.Point{X: a.X + (b.X-a.X)*f, Y: a.Y + (b.Y-a.Y)*f}
		if data == nil {
			if err := input.DragMove(ctx, p.main, pt); err != nil {
				return err
			}
			select {
			case data = <-intercepted:
				// The page began an HTML5 drag: continue as drag events.
				if err := dragEvent(ctx, p, proto.InputDispatchDragEventTypeDragEnter, pt, data); err != nil {
					return err
				}
			default:
			}
			continue
		}
		if err := dragEvent(ctx, p, proto.InputDispatchDragEventTypeDragOver, pt, data); err != nil {
			return err
		}
	}
	if data != nil {
		// A person rests on the drop point until the item moves there, and
		// the browser keeps firing dragover meanwhile; the steps above come
		// back to back, and a list that ignores dragover for a moment after
		// each move (SortableJS: 30 ms) would drop the item where the last
		// move it took left it. Rest a few frames, a dragover on each.
		for i := 0; i < dragRest; i++ {
			if _, err := (proto.RuntimeEvaluate{Expression: nextFrameJS, AwaitPromise: true}).Call(bc); err != nil {
				return err
			}
			if err := dragEvent(ctx, p, proto.InputDispatchDragEventTypeDragOver, b, data); err != nil {
				return err
			}
		}
		if err := dragEvent(ctx, p, proto.InputDispatchDragEventTypeDrop, b, data); err != nil {
			return err
		}
	}
	return input.Up(ctx, p.main, b)
}

func dragEvent(ctx context.Context, p *Page, typ proto.InputDispatchDragEventType, pt input.Point, data *proto.InputDragData) error {
	return proto.InputDispatchDragEvent{Type: typ, X: pt.X, Y: pt.Y, Data: data}.Call(p.main.Bind(ctx))
}

// armChooserDone arms the next file chooser and reports when it was answered.
func (p *Page) armChooserDone(paths []string) <-chan error {
	done := make(chan error, 1)
	p.mu.Lock()
	p.arms.chooser = &chooserArm{paths: paths, expires: time.Now().Add(DefaultArmTimeout), done: done}
	p.mu.Unlock()
	return done
}
