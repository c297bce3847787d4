package rodagent

import "testing"

func TestCanonicalRole(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"img", "img"}, {"image", "img"}, {"Image", "img"}, {" IMG ", "img"},
		{"button", "button"}, {"menuItem", "menuitem"}, {"menuitem", "menuitem"},
		{"textField", "textbox"}, {"textbox", "textbox"}, {"comboBoxSelect", "combobox"},
		{"genericContainer", "generic"}, {"presentation", "none"}, {"none", "none"},
		{"progressIndicator", "progressbar"}, {"DateTime", "date"}, {"Date", "date"}, {"checkBox", "checkbox"}, {"treeItem", "treeitem"},
		{"", ""},
	} {
		if got := canonicalRole(tc.in); got != tc.want {
			t.Errorf("canonicalRole(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
