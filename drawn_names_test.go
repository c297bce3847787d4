package rodagent_test

import (
	"testing"

	"github.com/rodagent/rodagent"
)

// A name is what a person reads: words restyled by text-transform are
// named as drawn (Chromium's AX tree does so; accname.js must agree), and a
// slider nothing names takes the words of the one <label> that labels
// nothing in the box drawn around it — but not when the box holds another
// control the label may be for. A control nothing names is named as a
// person points at it (its icon, its class), on both paths. A field's box
// that calls itself a combobox around the input that is one is that input.
func TestNamesAsDrawn(t *testing.T) {
	t.Parallel()
	onReadPaths(t, "drawn-names.html", func(t *testing.T, p *rodagent.Page, _ readPath) {
		s := snapshot(t, p)
		for _, want := range []struct{ role, name string }{
			{"button", "SAVE DRAFT"},
			{"button", "send now"},
			{"button", "Open The (Old) Report"},
			{"link", "HELP CENTRE"},
			{"slider", "Brightness"},
		} {
			if _, ok := findRef(s, want.role, want.name); !ok {
				t.Errorf("no %s %q:\n%s", want.role, want.name, s)
			}
		}
		// The two sliders sharing a box with one label are not named by it;
		// nothing names them, and both paths point at them alike.
		for _, r := range s.Refs {
			if r.Role == "slider" && r.Name == "Range" {
				t.Errorf("a label beside two sliders named one of them: %+v\n%s", r, s)
			}
		}
		for _, want := range []struct{ role, name string }{{"slider", "clickable div (thumb)"}, {"button", "icon button (close)"}} {
			if _, ok := findRef(s, want.role, want.name); !ok {
				t.Errorf("no %s named %q, as the page draws it:\n%s", want.role, want.name, s)
			}
		}
		// The box drawn around the field is no combobox of its own.
		n := 0
		for _, r := range s.Refs {
			if r.Role == "combobox" {
				n++
			}
		}
		if _, ok := findRef(s, "combobox", "Colour"); !ok || n != 1 {
			t.Errorf("one combobox, the input \"Colour\", should stand for the field and its box; %d comboboxes:\n%s", n, s)
		}
	})
}
