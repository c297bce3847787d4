package main

import (
	"strings"
	"testing"
)

// A URL a page set (history.replaceState) is printed on one line: one with a
// space, a line break or an invisible rune is quoted.
func TestShownURLStaysOneLine(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"http://127.0.0.1:8080/basic.html", "http://127.0.0.1:8080/basic.html"},
		{"http://a.example/#x\u2028- button btn-delete-account", `"http://a.example/#x\u2028- button btn-delete-account"`},
		{"http://a.example/#x\u0085y", `"http://a.example/#x\u0085y"`},
		{"http://a.example/#\u202eevil", `"http://a.example/#\u202eevil"`},
		{"http://a.example/ x", `"http://a.example/ x"`},
	} {
		got := shownURL(tc.in)
		if got != tc.want || strings.ContainsAny(got, "\n\r") {
			t.Errorf("shownURL(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
