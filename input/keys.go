package input

import (
	"context"
	"fmt"
	"strings"
	"unicode/utf8"

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
	Shift   bool   // on a US keyboard the character needs Shift held
}

var keys = map[string]Key{
	"Enter":       {Key: "Enter", Code: "Enter", KeyCode: 13, Text: "\r"},
	"Tab":         {Key: "Tab", Code: "Tab", KeyCode: 9},
	"Escape":      {Key: "Escape", Code: "Escape", KeyCode: 27},
	"Space":       {Key: " ", Code: "Space", KeyCode: 32, Text: " "},
	"ArrowUp":     {Key: "ArrowUp", Code: "ArrowUp", KeyCode: 38},
	"ArrowDown":   {Key: "ArrowDown", Code: "ArrowDown", KeyCode: 40},
	"ArrowLeft":   {Key: "ArrowLeft", Code: "ArrowLeft", KeyCode: 37},
	"ArrowRight":  {Key: "ArrowRight", Code: "ArrowRight", KeyCode: 39},
	"Backspace":   {Key: "Backspace", Code: "Backspace", KeyCode: 8},
	"Delete":      {Key: "Delete", Code: "Delete", KeyCode: 46},
	"Home":        {Key: "Home", Code: "Home", KeyCode: 36},
	"End":         {Key: "End", Code: "End", KeyCode: 35},
	"PageUp":      {Key: "PageUp", Code: "PageUp", KeyCode: 33},
	"PageDown":    {Key: "PageDown", Code: "PageDown", KeyCode: 34},
	"Insert":      {Key: "Insert", Code: "Insert", KeyCode: 45},
	"ContextMenu": {Key: "ContextMenu", Code: "ContextMenu", KeyCode: 93},
	"Shift":       {Key: "Shift", Code: "ShiftLeft", KeyCode: 16},
	"Control":     {Key: "Control", Code: "ControlLeft", KeyCode: 17},
	"Alt":         {Key: "Alt", Code: "AltLeft", KeyCode: 18},
	"Meta":        {Key: "Meta", Code: "MetaLeft", KeyCode: 91},
}

func init() {
	for i := 1; i <= 12; i++ {
		n := fmt.Sprintf("F%d", i)
		keys[n] = Key{Key: n, Code: n, KeyCode: 111 + i}
	}
}

// usPunct is the US layout's punctuation: the unshifted and shifted
// character of each key, its code and Windows key code.
var usPunct = []struct {
	plain, shifted rune
	code           string
	keyCode        int
}{
	{'`', '~', "Backquote", 192}, {'-', '_', "Minus", 189}, {'=', '+', "Equal", 187},
	{'[', '{', "BracketLeft", 219}, {']', '}', "BracketRight", 221}, {'\\', '|', "Backslash", 220},
	{';', ':', "Semicolon", 186}, {'\'', '"', "Quote", 222}, {',', '<', "Comma", 188},
	{'.', '>', "Period", 190}, {'/', '?', "Slash", 191},
}

const shiftedDigits = ")!@#$%^&*(" // Shift+0 … Shift+9

// CharKey returns the key a US keyboard types c with, and whether there is
// one: letters, digits, punctuation and space. Other characters (accents,
// other scripts, emoji) have no key; Type inserts them as text.
func CharKey(c rune) (Key, bool) {
	s := string(c)
	switch {
	case c >= 'a' && c <= 'z':
		return Key{Key: s, Code: "Key" + strings.ToUpper(s), KeyCode: int(c - 'a' + 'A'), Text: s}, true
	case c >= 'A' && c <= 'Z':
		return Key{Key: s, Code: "Key" + s, KeyCode: int(c), Text: s, Shift: true}, true
	case c >= '0' && c <= '9':
		return Key{Key: s, Code: "Digit" + s, KeyCode: int(c), Text: s}, true
	case c == ' ':
		return keys["Space"], true
	}
	if i := strings.IndexRune(shiftedDigits, c); i >= 0 {
		return Key{Key: s, Code: fmt.Sprintf("Digit%d", i), KeyCode: '0' + i, Text: s, Shift: true}, true
	}
	for _, p := range usPunct {
		if c == p.plain {
			return Key{Key: s, Code: p.code, KeyCode: p.keyCode, Text: s}, true
		}
		if c == p.shifted {
			return Key{Key: s, Code: p.code, KeyCode: p.keyCode, Text: s, Shift: true}, true
		}
	}
	return Key{}, false
}

// KeyGrammar says what Press accepts, for error messages.
const KeyGrammar = `a key, optionally after modifiers joined by "+": ` +
	`Control, Shift, Alt, Meta ("Control+A", "Shift+Tab", "Control+Shift+ArrowLeft"); ` +
	`keys: any single character ("a", "/", "é"), Enter, Tab, Escape, Space, Backspace, Delete, Insert, ` +
	`ArrowUp/Down/Left/Right, Home, End, PageUp, PageDown, F1–F12, ContextMenu, Shift, Control, Alt, Meta`

// SupportedKeys lists the named keys Press accepts, in a fixed order; any
// single character is accepted too. Each may be prefixed by modifiers:
// "Shift+Tab", "Control+Shift+ArrowLeft", "Control+A".
var SupportedKeys = []string{"Enter", "Tab", "Shift+Tab", "Escape", "Space", "ArrowUp", "ArrowDown", "ArrowLeft",
	"ArrowRight", "Backspace", "Delete", "Home", "End", "PageUp", "PageDown", "Insert", "F1", "F12", "Control+A"}

var modifierNames = map[string]Modifier{"Shift": Shift, "Control": Control, "Ctrl": Control, "Alt": Alt, "Meta": Meta,
	"Cmd": Meta, "Command": Meta, "Option": Alt}

// ParseKey parses a key with optional modifiers ("Shift+Tab", "Control+A",
// "a", "F5"). Names are case-insensitive; "Esc", "Return" and " " are
// accepted as aliases, and "+" alone (or after a modifier, "Control++") is
// the plus key. A single letter after Control, Alt or Meta is the letter's
// key ("Control+A" is Control with the A key, not a capital A).
func ParseKey(name string) (Key, Modifier, error) {
	if name == "" {
		return Key{}, 0, fmt.Errorf("unsupported key %q", name)
	}
	var parts []string
	switch {
	case name == "+":
		parts = []string{"+"}
	case strings.HasSuffix(name, "++"):
		parts = append(strings.Split(strings.TrimSuffix(name, "++"), "+"), "+")
	default:
		parts = strings.Split(name, "+")
	}
	var mods Modifier
	for _, m := range parts[:len(parts)-1] {
		bit, ok := lookupModifier(m)
		if !ok {
			return Key{}, 0, fmt.Errorf("unsupported key %q", name)
		}
		mods |= bit
	}
	last := parts[len(parts)-1]
	if k, ok := lookupKey(last); ok {
		return k, mods, nil
	}
	if utf8.RuneCountInString(last) == 1 {
		c, _ := utf8.DecodeRuneInString(last)
		if k, ok := CharKey(c); ok {
			if mods&(Control|Alt|Meta) != 0 && c >= 'A' && c <= 'Z' && mods&Shift == 0 {
				// Control+A: the A key, which names itself "a" without Shift.
				k, _ = CharKey(c - 'A' + 'a')
			}
			return k, mods, nil
		}
		// A character no US key types: sent as a key event carrying its text.
		return Key{Key: last, Text: last}, mods, nil
	}
	return Key{}, 0, fmt.Errorf("unsupported key %q", name)
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
	case "ctrl":
		s = "Control"
	}
	if utf8.RuneCountInString(s) == 1 {
		return Key{}, false // a character, not a key name
	}
	for n, k := range keys {
		if strings.EqualFold(n, strings.TrimSpace(s)) {
			return k, true
		}
	}
	return Key{}, false
}

var modifierKeys = []struct {
	bit  Modifier
	name string
}{{Control, "Control"}, {Alt, "Alt"}, {Meta, "Meta"}, {Shift, "Shift"}}

// editCommands are the editing commands a chord runs: Chromium performs
// them from the key event only where the platform's editing behaviour maps
// the chord (not on macOS), so they ride along explicitly.
func editCommands(k Key, mods Modifier) []string {
	if (mods == Control || mods == Meta) && k.Code == "KeyA" {
		return []string{"selectAll"}
	}
	return nil
}

// Press sends one key down and up to the focused element of the page, with
// the modifiers held: each modifier key goes down first and up last, as on a
// keyboard. A key that produces text goes down as keyDown with its text
// (which also fires keypress, beforeinput and input); others as rawKeyDown,
// which is where Chromium runs default actions such as moving focus on Tab.
func Press(ctx context.Context, s Session, k Key, mods Modifier) error {
	if k.Shift {
		mods |= Shift
	}
	var held Modifier
	for _, m := range modifierKeys {
		if mods&m.bit == 0 || k.Key == m.name {
			continue
		}
		held |= m.bit
		mk := keys[m.name]
		if err := keyEvent(ctx, s, proto.InputDispatchKeyEventTypeRawKeyDown, mk, held, nil); err != nil {
			return err
		}
	}
	down := proto.InputDispatchKeyEventTypeRawKeyDown
	if k.Text != "" && mods&(Control|Alt|Meta) == 0 {
		down = proto.InputDispatchKeyEventTypeKeyDown
	}
	if err := keyEvent(ctx, s, down, k, mods, editCommands(k, mods)); err != nil {
		return err
	}
	if err := keyEvent(ctx, s, proto.InputDispatchKeyEventTypeKeyUp, k, mods, nil); err != nil {
		return err
	}
	for i := len(modifierKeys) - 1; i >= 0; i-- {
		m := modifierKeys[i]
		if held&m.bit == 0 {
			continue
		}
		held &^= m.bit
		if err := keyEvent(ctx, s, proto.InputDispatchKeyEventTypeKeyUp, keys[m.name], held, nil); err != nil {
			return err
		}
	}
	return nil
}

func keyEvent(ctx context.Context, s Session, typ proto.InputDispatchKeyEventType, k Key, mods Modifier, commands []string) error {
	e := proto.InputDispatchKeyEvent{Type: typ, Modifiers: int(mods), Key: k.Key, Code: k.Code,
		WindowsVirtualKeyCode: k.KeyCode, NativeVirtualKeyCode: k.KeyCode, Commands: commands}
	if typ == proto.InputDispatchKeyEventTypeKeyDown {
		e.Text, e.UnmodifiedText = k.Text, k.Text
	}
	if k.Code == "" {
		e.NativeVirtualKeyCode = 0
	}
	return e.Call(bind(ctx, s))
}

// LongText is the length (in characters) above which TypeText inserts text
// in one input event instead of a keystroke per character: past it, per-key
// events cost more time than any widget's key handling is worth.
const LongText = 256

// TypeText types text into the focused element as a person's keyboard
// would: each character a US keyboard has a key for is a trusted keydown,
// keypress, beforeinput, input and keyup (with Shift held for capitals and
// shifted symbols). Characters no key produces (accents, other scripts,
// emoji) and line breaks and tabs — whose keys would submit a form or move
// focus — are inserted as text (Input.insertText: beforeinput and input of
// type insertText). Text longer than LongText characters is inserted in one go.
func TypeText(ctx context.Context, s Session, text string) error {
	if utf8.RuneCountInString(text) > LongText {
		return InsertText(ctx, s, text)
	}
	var pending strings.Builder
	flush := func() error {
		if pending.Len() == 0 {
			return nil
		}
		t := pending.String()
		pending.Reset()
		return InsertText(ctx, s, t)
	}
	for _, c := range text {
		k, ok := CharKey(c)
		if !ok {
			pending.WriteRune(c)
			continue
		}
		if err := flush(); err != nil {
			return err
		}
		if err := Press(ctx, s, k, 0); err != nil {
			return err
		}
	}
	return flush()
}
