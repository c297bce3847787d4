// Package input sends trusted, native input to a page over CDP: mouse
// buttons and wheel, keys, text and files.
//
// Everything here is what a person's hardware would produce, dispatched with
// Input.dispatchMouseEvent, Input.dispatchKeyEvent and Input.insertText, so
// pages see isTrusted events in the order a real browser emits them. Nothing
// calls el.click() or assigns a value. The package knows points, keys and
// files; it knows nothing about refs or the accessibility tree.
//
// Mouse and keyboard input always goes to a page's top-level session, in
// top-level viewport coordinates (CSS pixels): Chromium routes it to the frame
// under the point, out-of-process frames included.
package input

import (
	"context"

	"github.com/go-rod/rod/lib/proto"
)

// Session is a CDP session input is sent through. A *rod.Page satisfies it, as
// does rodagent's internal session type.
type Session interface {
	proto.Client
	proto.Sessionable
}

// Point is a position in CSS pixels of the top-level viewport.
type Point struct {
	X float64 // from the left edge
	Y float64 // from the top edge
}

type bound struct {
	s   Session
	ctx context.Context
}

func (b bound) Call(ctx context.Context, sid, method string, params any) ([]byte, error) {
	return b.s.Call(ctx, sid, method, params)
}
func (b bound) GetContext() context.Context         { return b.ctx }
func (b bound) GetSessionID() proto.TargetSessionID { return b.s.GetSessionID() }

func bind(ctx context.Context, s Session) bound { return bound{s: s, ctx: ctx} }

// Modifier is a bit set of held modifier keys, as CDP encodes it.
type Modifier int

// Modifier bits.
const (
	Alt     Modifier = 1
	Control Modifier = 2
	Meta    Modifier = 4
	Shift   Modifier = 8
)

// Move moves the pointer to p with no button held.
func Move(ctx context.Context, s Session, p Point) error {
	return proto.InputDispatchMouseEvent{Type: proto.InputDispatchMouseEventTypeMouseMoved, X: p.X, Y: p.Y,
		Button: proto.InputMouseButtonNone, PointerType: proto.InputDispatchMouseEventPointerTypeMouse}.Call(bind(ctx, s))
}

// Click moves to p and presses and releases the left button count times in a
// row (count 2 is a double click). Chromium fires no click event unless
// clickCount is set on both press and release, so each pair carries it.
func Click(ctx context.Context, s Session, p Point, count int, mods Modifier) error {
	if count < 1 {
		count = 1
	}
	if err := Move(ctx, s, p); err != nil {
		return err
	}
	return PressAt(ctx, s, p, count, mods)
}

// Button is a mouse button.
type Button int

// Mouse buttons.
const (
	Left  Button = iota // the primary button: click, select, drag
	Right               // the secondary button: the page's context menu (contextmenu)
)

func button(ctx context.Context, s Session, typ proto.InputDispatchMouseEventType, p Point, b Button, count int, mods Modifier) error {
	name, held := proto.InputMouseButtonLeft, 1 // MouseEvent.buttons: 1 primary, 2 secondary
	if b == Right {
		name, held = proto.InputMouseButtonRight, 2
	}
	buttons := 0
	if typ == proto.InputDispatchMouseEventTypeMousePressed {
		buttons = held
	}
	return proto.InputDispatchMouseEvent{Type: typ, X: p.X, Y: p.Y, Button: name,
		Buttons: &buttons, ClickCount: count, Modifiers: int(mods),
		PointerType: proto.InputDispatchMouseEventPointerTypeMouse}.Call(bind(ctx, s))
}

// PressAt presses and releases the left button at p count times, with the
// pointer already there (see Move): the second half of Click.
func PressAt(ctx context.Context, s Session, p Point, count int, mods Modifier) error {
	return PressButtonAt(ctx, s, p, Left, count, mods)
}

// PressButtonAt presses and releases button b at p count times, with the
// pointer already there. The right button fires the page's contextmenu
// event (Chromium shows no menu of its own in a headless browser).
func PressButtonAt(ctx context.Context, s Session, p Point, b Button, count int, mods Modifier) error {
	if count < 1 {
		count = 1
	}
	for i := 1; i <= count; i++ {
		if err := button(ctx, s, proto.InputDispatchMouseEventTypeMousePressed, p, b, i, mods); err != nil {
			return err
		}
		if err := button(ctx, s, proto.InputDispatchMouseEventTypeMouseReleased, p, b, i, mods); err != nil {
			return err
		}
	}
	return nil
}

// Down presses the left button at p (the pointer must already be there).
func Down(ctx context.Context, s Session, p Point) error {
	return button(ctx, s, proto.InputDispatchMouseEventTypeMousePressed, p, Left, 1, 0)
}

// Up releases the left button at p.
func Up(ctx context.Context, s Session, p Point) error {
	return button(ctx, s, proto.InputDispatchMouseEventTypeMouseReleased, p, Left, 1, 0)
}

// DragMove moves the pointer to p with the left button held.
func DragMove(ctx context.Context, s Session, p Point) error {
	buttons := 1
	return proto.InputDispatchMouseEvent{Type: proto.InputDispatchMouseEventTypeMouseMoved, X: p.X, Y: p.Y,
		Button: proto.InputMouseButtonLeft, Buttons: &buttons,
		PointerType: proto.InputDispatchMouseEventPointerTypeMouse}.Call(bind(ctx, s))
}

// Wheel turns the mouse wheel at p by dx, dy CSS pixels (positive dy scrolls down).
func Wheel(ctx context.Context, s Session, p Point, dx, dy float64) error {
	return proto.InputDispatchMouseEvent{Type: proto.InputDispatchMouseEventTypeMouseWheel, X: p.X, Y: p.Y,
		DeltaX: dx, DeltaY: dy, PointerType: proto.InputDispatchMouseEventPointerTypeMouse}.Call(bind(ctx, s))
}

// InsertText types text into the focused element as one input event of type
// insertText (replacing the selection), the way an input method commits text.
func InsertText(ctx context.Context, s Session, text string) error {
	return proto.InputInsertText{Text: text}.Call(bind(ctx, s))
}

// SelectAll selects the whole content of the focused editable element through
// the editing command, which works for inputs, textareas and contenteditable.
func SelectAll(ctx context.Context, s Session) error {
	return proto.InputDispatchKeyEvent{Type: proto.InputDispatchKeyEventTypeRawKeyDown,
		Commands: []string{"selectAll"}}.Call(bind(ctx, s))
}

// SetFiles puts the files at paths into the <input type=file> with the given
// backend node id, in the session that owns the node; Chromium fires input and
// change as for a person's choice.
func SetFiles(ctx context.Context, s Session, node proto.DOMBackendNodeID, paths []string) error {
	return proto.DOMSetFileInputFiles{Files: paths, BackendNodeID: node}.Call(bind(ctx, s))
}
