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
		{"F1", "F1", 0, "", true},
		{"F12", "F12", 0, "", true},
		{"a", "a", 0, "a", true},
		{"A", "A", 0, "A", true},
		{"Control+A", "a", Control, "a", true},
		{"Control+a", "a", Control, "a", true},
		{"Control+Shift+A", "A", Control | Shift, "A", true},
		{"Shift+ArrowDown", "ArrowDown", Shift, "", true},
		{"Meta+Enter", "Enter", Meta, "\r", true},
		{"/", "/", 0, "/", true},
		{"é", "é", 0, "é", true},
		{"+", "+", 0, "+", true},
		{"Control++", "+", Control, "+", true},
		{"Hyper+Tab", "", 0, "", false},
		{"Control+", "", 0, "", false},
		{"ab", "", 0, "", false},
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

// Every character a US keyboard types has a code and key code, and the
// shifted ones say so.
func TestCharKey(t *testing.T) {
	for _, c := range "abcxyzABCXYZ0123456789 `~-_=+[]{}\\|;:'\",<.>/?!@#$%^&*()" {
		k, ok := CharKey(c)
		if !ok || k.Code == "" || k.KeyCode == 0 || k.Text != string(c) {
			t.Errorf("CharKey(%q) = %+v %v", c, k, ok)
		}
	}
	for c, shift := range map[rune]bool{'a': false, 'A': true, '1': false, '!': true, '/': false, '?': true} {
		if k, _ := CharKey(c); k.Shift != shift {
			t.Errorf("CharKey(%q).Shift = %v", c, k.Shift)
		}
	}
	for _, c := range "é中😀\n\t" {
		if _, ok := CharKey(c); ok {
			t.Errorf("CharKey(%q) should have no key", c)
		}
	}
}
