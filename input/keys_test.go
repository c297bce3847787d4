package input

import "testing"

func TestParseKey(t *testing.T) {
	for _, tc := range []struct {
		in   string
		key  string
		mods Modifier
		text string
		ok   bool
	}{
		{"Enter", "Enter", 0, "\r", true},
		{"enter", "Enter", 0, "\r", true},
		{"Return", "Enter", 0, "\r", true},
		{"Tab", "Tab", 0, "", true},
		{"Shift+Tab", "Tab", Shift, "", true},
		{"Control+Shift+ArrowLeft", "ArrowLeft", Control | Shift, "", true},
		{"Ctrl+Home", "Home", Control, "", true},
		{"Esc", "Escape", 0, "", true},
		{"Space", " ", 0, " ", true},
		{" ", " ", 0, " ", true},
		{"PageDown", "PageDown", 0, "", true},
		{"F13", "", 0, "", false},
		{"a", "", 0, "", false},
		{"Hyper+Tab", "", 0, "", false},
		{"+", "", 0, "", false},
		{"", "", 0, "", false},
	} {
		k, mods, err := ParseKey(tc.in)
		if (err == nil) != tc.ok {
			t.Errorf("ParseKey(%q) err = %v, want ok=%v", tc.in, err, tc.ok)
			continue
		}
		if tc.ok && (k.Key != tc.key || mods != tc.mods || k.Text != tc.text) {
			t.Errorf("ParseKey(%q) = %q %v %q, want %q %v %q", tc.in, k.Key, mods, k.Text, tc.key, tc.mods, tc.text)
		}
	}
}

// Every key the docs list parses, and carries the Windows key code Chromium
// needs for its default action.
func TestSupportedKeysParse(t *testing.T) {
	for _, name := range SupportedKeys {
		k, _, err := ParseKey(name)
		if err != nil || k.KeyCode == 0 || k.Code == "" {
			t.Errorf("%s: %+v %v", name, k, err)
		}
	}
}
