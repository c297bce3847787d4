package rodagent

import "testing"

// An allowlist entry is matched as the origin it names, however it is
// written; nothing else matches it.
func TestAllowlistEntriesAreCanonical(t *testing.T) {
	for _, tc := range []struct {
		entry, origin string
		want          bool
	}{
		{"https://a.example", "https://a.example", true},
		{"https://A.Example:443/", "https://a.example", true},
		{"HTTP://a.example:80", "http://a.example", true},
		{"https://a.example/app/", "https://a.example", true},
		{"http://127.0.0.1:8080", "http://127.0.0.1:8080", true},
		{"https://a.example:8443", "https://a.example", false},
		{"http://a.example", "https://a.example", false},
		{"https://a.example", "https://a.example.evil.test", false},
		{"https://a.example", "https://evil.test", false},
		{"http://[::1]:80", "http://[::1]", true},
	} {
		if got := originListed([]string{tc.entry}, tc.origin); got != tc.want {
			t.Errorf("entry %q, origin %q: listed = %v, want %v", tc.entry, tc.origin, got, tc.want)
		}
	}
}
