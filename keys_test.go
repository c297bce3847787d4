package rodagent_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/rodagent/rodagent"
)

type keyRecord struct {
	ID, Type, Key, Data, InputType string
	Trusted, Shift, Ctrl           bool
}

func keyLog(t *testing.T, p *rodagent.Page) []keyRecord {
	t.Helper()
	var out []keyRecord
	eval(t, p, "window.__log.map(r => ({ID: r.id, Type: r.type, Key: r.key, Data: r.data, InputType: r.inputType, Trusted: r.trusted, Shift: r.shift, Ctrl: r.ctrl}))", &out)
	return out
}

// Type sends a trusted keystroke per character: keydown, keypress,
// beforeinput, input and keyup, Shift held for capitals.
func TestTypeSendsKeystrokes(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t, 30*time.Second)
	p := open(t, "keys.html")
	s := snapshot(t, p)
	name := refNamed(t, s, "textbox", "Name")
	eval(t, p, "(document.getElementById('name').value = 'old', 1)", nil)
	if st, err := p.Type(ctx, name, "Hi!"); err != nil || st != rodagent.Ready {
		t.Fatalf("Type: %s %v", st, err)
	}
	var v string
	eval(t, p, "document.getElementById('name').value", &v)
	if v != "Hi!" {
		t.Fatalf("value = %q, want the content replaced", v)
	}
	var seq []string
	for _, r := range keyLog(t, p) {
		if !r.Trusted {
			t.Errorf("untrusted %s event", r.Type)
		}
		if r.Type == "keydown" || r.Type == "keyup" || r.Type == "keypress" {
			if r.Key == "Shift" || r.Key == "" {
				continue // Shift held for capitals; the select-all command before typing
			}
			seq = append(seq, r.Type+":"+r.Key)
		}
	}
	want := "keydown:H keypress:H keyup:H keydown:i keypress:i keyup:i keydown:! keypress:! keyup:!"
	if strings.Join(seq, " ") != want {
		t.Errorf("key events:\n got %s\nwant %s", strings.Join(seq, " "), want)
	}
	for _, r := range keyLog(t, p) {
		if r.Type == "keydown" && r.Key == "H" && !r.Shift {
			t.Errorf("H typed without Shift held")
		}
	}
	// Characters no key types, and long text, are inserted as text.
	eval(t, p, "(window.__log = [], 1)", nil)
	if _, err := p.Type(ctx, name, "café ✓"); err != nil {
		t.Fatal(err)
	}
	eval(t, p, "document.getElementById('name').value", &v)
	if v != "café ✓" {
		t.Fatalf("value = %q", v)
	}
	long := strings.Repeat("abcdefgh", 40)
	if _, err := p.Type(ctx, name, long); err != nil {
		t.Fatal(err)
	}
	eval(t, p, "document.getElementById('name').value", &v)
	if v != long {
		t.Fatalf("long text: value has %d characters", len(v))
	}
	// A line break is text, never an Enter that would submit.
	notes := refNamed(t, s, "textbox", "Notes")
	if _, err := p.Type(ctx, notes, "one\ntwo"); err != nil {
		t.Fatal(err)
	}
	eval(t, p, "document.getElementById('notes').value", &v)
	if v != "one\ntwo" {
		t.Fatalf("textarea = %q", v)
	}
}

// A field that reacts on keyup sees what Type typed.
func TestTypeKeyupFilter(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t, 30*time.Second)
	p := open(t, "keys.html")
	s := snapshot(t, p)
	if _, err := p.Type(ctx, refNamed(t, s, "textbox", "Filter"), "abc"); err != nil {
		t.Fatal(err)
	}
	var echo string
	eval(t, p, "document.getElementById('echo').textContent", &echo)
	if echo != "keyup:abc" {
		t.Fatalf("keyup handler saw %q", echo)
	}
}

// The APG autocomplete combobox filters its list on keyup: Type opens it with
// the matching states, and the keyboard picks one.
func TestTypeAPGAutocomplete(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t, 30*time.Second)
	p := open(t, "apg/content/patterns/combobox/examples/combobox-autocomplete-list.html")
	s := snapshot(t, p)
	cb := refNamed(t, s, "combobox", "State")
	if st, err := p.Type(ctx, cb, "Ca"); err != nil || st != rodagent.Ready {
		t.Fatalf("Type: %s %v", st, err)
	}
	s = snapshot(t, p, rodagent.WithFull())
	refNamed(t, s, "option", "California")
	for _, r := range s.Refs {
		if r.Role == "option" && !strings.HasPrefix(r.Name, "C") {
			t.Errorf("the list was not filtered: %s", r.Name)
		}
	}
	if _, err := p.Press(ctx, "ArrowDown"); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Press(ctx, "Enter"); err != nil {
		t.Fatal(err)
	}
	var v string
	eval(t, p, "document.getElementById('cb1-input').value", &v)
	if v != "California" {
		t.Fatalf("combobox value = %q", v)
	}
}

// Chords: Control+A selects all, Shift+Tab moves focus back; characters and
// F-keys are keys; a bad key's error gives the grammar.
func TestPressChords(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t, 30*time.Second)
	p := open(t, "keys.html")
	s := snapshot(t, p)
	name := refNamed(t, s, "textbox", "Name")
	if _, err := p.Type(ctx, name, "hello world"); err != nil {
		t.Fatal(err)
	}
	if st, err := p.Press(ctx, "Control+A"); err != nil || st != rodagent.Ready {
		t.Fatalf("Control+A: %s %v", st, err)
	}
	var sel []int
	eval(t, p, "[document.getElementById('name').selectionStart, document.getElementById('name').selectionEnd]", &sel)
	if len(sel) != 2 || sel[0] != 0 || sel[1] != 11 {
		t.Fatalf("selection after Control+A = %v", sel)
	}
	if _, err := p.Press(ctx, "x"); err != nil {
		t.Fatal(err)
	}
	var v string
	eval(t, p, "document.getElementById('name').value", &v)
	if v != "x" {
		t.Fatalf("typing over the selection: %q", v)
	}
	if _, err := p.Press(ctx, "Shift+ArrowLeft"); err != nil {
		t.Fatal(err)
	}
	eval(t, p, "[document.getElementById('name').selectionStart, document.getElementById('name').selectionEnd]", &sel)
	if sel[0] != 0 || sel[1] != 1 {
		t.Fatalf("selection after Shift+ArrowLeft = %v", sel)
	}
	if _, err := p.Focus(ctx, refNamed(t, s, "button", "Second")); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Press(ctx, "Shift+Tab"); err != nil {
		t.Fatal(err)
	}
	var focused string
	eval(t, p, "document.activeElement.id", &focused)
	if focused != "first" {
		t.Fatalf("Shift+Tab moved focus to %q", focused)
	}
	if st, err := p.Press(ctx, "F5"); err != nil || st != rodagent.Ready {
		t.Fatalf("F5: %s %v", st, err)
	}
	st, err := p.Press(ctx, "Hyper+Q")
	if st != rodagent.UnsupportedKey || !errors.Is(err, rodagent.ErrUnsupportedKey) || !strings.Contains(err.Error(), "Control+A") {
		t.Fatalf("bad key: %s %v", st, err)
	}
}

// Type checks the keyboard focus is in its target before and after the
// keys: a page that moves focus on — a focus handler that focuses another
// field, a blur handler that takes it back on a timer — would otherwise get
// the text in the other field while Type reported ready. A field that takes
// its characters and moves the focus on, as a one-time-code box does for a
// person, is no failure.
func TestTypeWhereThePageMovesFocus(t *testing.T) {
	t.Parallel()
	o := newTwoOrigins(t)
	o.page("/focus-handler", `<!doctype html><label>First <input id=a></label><label>Second <input id=b></label>
<label>Third <input id=c></label><script>b.addEventListener('focus', () => a.focus())</script>`)
	o.page("/blur-timer", `<!doctype html><label>First <input id=a></label><label>Second <input id=b></label>
<label>Third <input id=c></label><script>a.addEventListener('blur', () => setTimeout(() => a.focus(), 0)); a.focus()</script>`)
	for _, path := range []string{"/focus-handler", "/blur-timer"} {
		t.Run(strings.TrimPrefix(path, "/"), func(t *testing.T) {
			p := openURL(t, o.allowed+path)
			ctx := testCtx(t, 30*time.Second)
			s := snapshot(t, p)
			st, err := p.Type(ctx, refNamed(t, s, "textbox", "Second"), "hello")
			wantStatus(t, "Type into a field the page takes the focus from", st, err, rodagent.Obscured, rodagent.ErrObscured)
			if err == nil || !strings.Contains(err.Error(), `textbox "First"`) {
				t.Errorf("the error should name the field that took the focus: %v", err)
			}
			var got string
			eval(t, p, `document.getElementById('b').value + '|' + document.getElementById('a').value`, &got)
			if path == "/focus-handler" && got != "|" {
				t.Errorf("nothing should have been typed anywhere (Second|First): %q", got)
			}
			if strings.HasPrefix(got, "hello") {
				t.Errorf("Second took the text although Type failed: %q", got)
			}
		})
	}
	t.Run("boxes that move the focus on as they fill", func(t *testing.T) {
		o.page("/code", `<!doctype html><fieldset><legend>Code</legend>
<input aria-label="Digit 1" maxlength=1><input aria-label="Digit 2" maxlength=1><input aria-label="Digit 3" maxlength=1></fieldset>
<script>const boxes = [...document.querySelectorAll('input')];
boxes.forEach((b, i) => b.addEventListener('input', () => { if (b.value && boxes[i + 1]) boxes[i + 1].focus() }))</script>`)
		p := openURL(t, o.allowed+"/code")
		ctx := testCtx(t, 30*time.Second)
		if st, err := p.Type(ctx, refNamed(t, snapshot(t, p), "textbox", "Digit 1"), "123"); err != nil || st != rodagent.Ready {
			t.Fatalf("Type into a box that moves the focus on as a person types: %s %v", st, err)
		}
		var got string
		eval(t, p, `[...document.querySelectorAll('input')].map(b => b.value).join('')`, &got)
		if got != "123" {
			t.Errorf("the boxes hold %q, want 123", got)
		}
	})
	t.Run("a widget that opens its own search field on the first key", func(t *testing.T) {
		o.page("/search-widget", `<!doctype html><label>Country <input id=pick></label>
<script>pick.addEventListener('keydown', () => { if (document.getElementById('q')) return;
  const q = document.createElement('input'); q.id = 'q'; q.setAttribute('aria-label', 'Search'); document.body.append(q); q.focus() })</script>`)
		p := openURL(t, o.allowed+"/search-widget")
		ctx := testCtx(t, 30*time.Second)
		if st, err := p.Type(ctx, refNamed(t, snapshot(t, p), "textbox", "Country"), "Peru"); err != nil || st != rodagent.Ready {
			t.Fatalf("Type into a widget whose search field takes the keys: %s %v", st, err)
		}
		var got string
		eval(t, p, `document.getElementById('q').value`, &got)
		if !strings.Contains(got, "eru") {
			t.Errorf("the search field holds %q", got)
		}
	})
	t.Run("keys that land nowhere", func(t *testing.T) {
		o.page("/hijack", `<!doctype html><label>Note <input id=n></label><button id=go>Continue</button>
<script>n.addEventListener('keydown', e => { e.preventDefault(); go.focus() })</script>`)
		p := openURL(t, o.allowed+"/hijack")
		ctx := testCtx(t, 30*time.Second)
		st, err := p.Type(ctx, refNamed(t, snapshot(t, p), "textbox", "Note"), "hello")
		wantStatus(t, "Type whose keys the page sends to a button", st, err, rodagent.Obscured, rodagent.ErrObscured)
		if err == nil || !strings.Contains(err.Error(), `button "Continue"`) {
			t.Errorf("the error should name the button that took the focus: %v", err)
		}
	})
	t.Run("a field in a closed shadow root", func(t *testing.T) {
		o.page("/closed", `<!doctype html><x-field></x-field><script>
customElements.define('x-field', class extends HTMLElement { constructor() { super();
  const r = this.attachShadow({mode: 'closed'}); r.innerHTML = '<label>Hidden away <input></label>' } })</script>`)
		p := openURL(t, o.allowed+"/closed")
		ctx := testCtx(t, 30*time.Second)
		if st, err := p.Type(ctx, refNamed(t, snapshot(t, p), "textbox", "Hidden away"), "hello"); err != nil || st != rodagent.Ready {
			t.Fatalf("Type into a field inside a closed shadow root: %s %v", st, err)
		}
		if out := snapshot(t, p).String(); !strings.Contains(out, `"hello"`) {
			t.Errorf("the field should show hello:\n%s", out)
		}
	})
	t.Run("a field that keeps its focus", func(t *testing.T) {
		p := openURL(t, o.allowed+"/focus-handler")
		ctx := testCtx(t, 30*time.Second)
		if st, err := p.Type(ctx, refNamed(t, snapshot(t, p), "textbox", "Third"), "hello"); err != nil || st != rodagent.Ready {
			t.Fatalf("Type into a plain field: %s %v", st, err)
		}
		var got string
		eval(t, p, `document.getElementById('c').value`, &got)
		if got != "hello" {
			t.Errorf("Third = %q, want hello", got)
		}
	})
}
