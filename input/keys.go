package input

import (
	"context"
	"fmt"
	"strings"

	"github.com/go-rod/rod/lib/proto"
)

// Key describes one key as Chromium needs it to perform the key's default
// action: Enter submits only with text "\r"; Backspace, Delete and the arrows
// act only with their Windows virtual key code.
type Key struct {
	Key     string // KeyboardEvent.key
	Code    string // KeyboardEvent.code
	KeyCode int    // Windows virtual key code
	Text    string // text the key produces, if any
}

var keys = map[string]Key{
	"Enter":      {Key: "Enter", Code: "Enter", KeyCode: 13, Text: "\r"},
	"Tab":        {Key: "Tab", Code: "Tab", KeyCode: 9},
	"Escape":     {Key: "Escape", Code: "Escape", KeyCode: 27},
	"Space":      {Key: " ", Code: "Space", KeyCode: 32, Text: " "},
	"ArrowUp":    {Key: "ArrowUp", Code: "ArrowUp", KeyCode: 38},
	"ArrowDown":  {Key: "ArrowDown", Code: "ArrowDown", KeyCode: 40},
	"ArrowLeft":  {Key: "ArrowLeft", Code: "ArrowLeft", KeyCode: 37},
	"ArrowRight": {Key: "ArrowRight", Code: "ArrowRight", KeyCode: 39},
	"Backspace":  {Key: "Backspace", Code: "Backspace", KeyCode: 8},
	"Delete":     {Key: "Delete", Code: "Delete", KeyCode: 46},
	"Home":       {Key: "Home", Code: "Home", KeyCode: 36},
	"End":        {Key: "End", Code: "End", KeyCode: 35},
	"PageUp":     {Key: "PageUp", Code: "PageUp", KeyCode: 33},
	"PageDown":   {Key: "PageDown", Code: "PageDown", KeyCode: 34},
}

// SupportedKeys lists the key names Press accepts, in a fixed order. Each may be
// prefixed by modifiers: "Shift+Tab", "Control+Shift+ArrowLeft".
var SupportedKeys = []string{"Enter", "Tab", "Shift+Tab", "Escape", "Space", "ArrowUp", "ArrowDown", "ArrowLeft",
	"ArrowRight", "Backspace", "Delete", "Home", "End", "PageUp", "PageDown"}

var modifierNames = map[string]Modifier{"Shift": Shift, "Control": Control, "Ctrl": Control, "Alt": Alt, "Meta": Meta}

// ParseKey parses a key name with optional modifiers ("Shift+Tab"). Names are
// case-insensitive; "Esc", "Return" and " " are accepted as aliases.
func ParseKey(name string) (Key, Modifier, error) {
	parts := strings.Split(name, "+")
	if name == "+" || len(parts) == 0 {
		return Key{}, 0, fmt.Errorf("unsupported key %q", name)
	}
	var mods Modifier
	for _, m := range parts[:len(parts)-1] {
		bit, ok := lookupModifier(m)
		if !ok {
			return Key{}, 0, fmt.Errorf("unsupported key %q", name)
		}
		mods |= bit
	}
	k, ok := lookupKey(parts[len(parts)-1])
	if !ok {
		return Key{}, 0, fmt.Errorf("unsupported key %q", name)
	}
	return k, mods, nil
}

func lookupModifier(s string) (Modifier, bool) {
	for n, m := range modifierNames {
		if strings.EqualFold(n, strings.TrimSpace(s)) {
			return m, true
		}
	}
	return 0, false
}

func lookupKey(s string) (Key, bool) {
	switch strings.ToLower(s) {
	case "esc":
		s = "Escape"
	case "return":
		s = "Enter"
	case " ", "spacebar":
		s = "Space"
	}
	for n, k := range keys {
		if strings.EqualFold(n, strings.TrimSpace(s)) {
			return k, true
		}
	}
	return Key{}, false
}

// Press sends one key down and up to the focused element of the page. A key
// that produces text goes down as keyDown with its text (which also fires
// keypress and input); others as rawKeyDown, which is where Chromium runs
// default actions such as moving focus on Tab.
func Press(ctx context.Context, s Session, k Key, mods Modifier) error {
	down := proto.InputDispatchKeyEvent{Type: proto.InputDispatchKeyEventTypeRawKeyDown, Modifiers: int(mods),
		Key: k.Key, Code: k.Code, WindowsVirtualKeyCode: k.KeyCode, NativeVirtualKeyCode: k.KeyCode}
	if k.Text != "" && mods&(Control|Alt|Meta) == 0 {
		down.Type = proto.InputDispatchKeyEventTypeKeyDown
		down.Text, down.UnmodifiedText = k.Text, k.Text
	}
	if err := down.Call(bind(ctx, s)); err != nil {
		return err
	}
	return proto.InputDispatchKeyEvent{Type: proto.InputDispatchKeyEventTypeKeyUp, Modifiers: int(mods),
		Key: k.Key, Code: k.Code, WindowsVirtualKeyCode: k.KeyCode, NativeVirtualKeyCode: k.KeyCode}.Call(bind(ctx, s))
}
