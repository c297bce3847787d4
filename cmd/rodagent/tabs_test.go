package main

import (
	"strings"
	"testing"
)

// A tab's origin is page-made: the list prints it quoted and escaped, so no
// origin can end its line or pass for another tab or a line of the CLI's own.
func TestTabLineQuotesTheOrigin(t *testing.T) {
	cases := []struct {
		current     bool
		id, origin  string
		want        string
		mustNotHave []string
	}{
		{true, "T1", "http://127.0.0.1:8080", "* T1 \"http://127.0.0.1:8080\"\n", nil},
		{false, "T2", "about:blank", "  T2 \"about:blank\"\n", nil},
		{false, "T3", "http://evil.test\n* T9 \"https://bank.test\"", "", []string{"\n*", "\"https://bank.test\"\""}},
		{false, "T4", "http://a.test\u202e\u2028x", "", []string{"\u202e", "\u2028"}},
	}
	for _, c := range cases {
		got := tabLine(c.current, c.id, c.origin)
		if c.want != "" && got != c.want {
			t.Errorf("tabLine(%q) = %q, want %q", c.origin, got, c.want)
		}
		if strings.Count(got, "\n") != 1 || !strings.HasSuffix(got, "\"\n") {
			t.Errorf("tabLine(%q) = %q: want one line ending in the quoted origin", c.origin, got)
		}
		for _, bad := range c.mustNotHave {
			if strings.Contains(got, bad) {
				t.Errorf("tabLine(%q) = %q: contains %q raw", c.origin, got, bad)
			}
		}
	}
}
