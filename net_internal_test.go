package rodagent

import (
	"errors"
	"testing"
	"time"

	"github.com/go-rod/rod/lib/proto"
)

func TestGlobPatterns(t *testing.T) {
	for _, tc := range []struct {
		glob, url string
		match     bool
	}{
		{"**/api/*", "http://host/api/users", true},
		{"**/api/*", "http://host/api/users/1", false},
		{"**/api/**", "http://host/api/users/1", true},
		{"**/*.{png,jpg}", "http://host/a/b.png", true},
		{"**/*.{png,jpg}", "http://host/a/b.jpg", true},
		{"**/*.{png,jpg}", "http://host/a/b.gif", false},
		{"http://host/?", "http://host/a", true},
		{"http://host/?", "http://host/ab", false},
		{"http://host/a.b", "http://host/axb", false},      // "." is literal
		{"**/search?q=*", "http://host/search?q=go", true}, // "?" is any one character, "?" itself included
		{"**/search?q=*", "http://host/searchXq=go", true},
		{"**/café", "http://host/café", true},
		{"**", "anything at all", true},
	} {
		re, err := globRegexp(tc.glob)
		if err != nil {
			t.Fatalf("%q: %v", tc.glob, err)
		}
		if got := re.MatchString(tc.url); got != tc.match {
			t.Errorf("%q on %q = %v, want %v (%s)", tc.glob, tc.url, got, tc.match, re)
		}
	}
	for _, bad := range []string{"", "{a,b", "a}", "{a{b}}"} {
		if _, err := globRegexp(bad); !errors.Is(err, ErrBadPattern) {
			t.Errorf("%q: want ErrBadPattern, got %v", bad, err)
		}
	}
}

func TestDocumentAllowed(t *testing.T) {
	c := config{origins: []string{"https://example.com/", "http://127.0.0.1:8080"}}
	for _, tc := range []struct {
		url    string
		origin string
		ok     bool
	}{
		{"https://example.com/a?b", "https://example.com", true},
		{"https://EXAMPLE.com/", "https://EXAMPLE.com", true},
		{"http://example.com/", "http://example.com", false},
		{"http://127.0.0.1:8080/x", "http://127.0.0.1:8080", true},
		{"http://127.0.0.1:8081/x", "http://127.0.0.1:8081", false},
		{"https://evil.example/redirect", "https://evil.example", false},
		{"about:blank", "", true},
		{"data:text/html,hi", "", true},
		{"blob:https://evil.example/1", "", true},
	} {
		o, ok := c.documentAllowed(tc.url)
		if ok != tc.ok || (!ok && o != tc.origin) {
			t.Errorf("documentAllowed(%q) = %q, %v; want %q, %v", tc.url, o, ok, tc.origin, tc.ok)
		}
	}
	if _, ok := (&config{}).documentAllowed("https://anything.example/"); !ok {
		t.Error("no allowlist allows everything")
	}
}

func TestBlockedNavigationLine(t *testing.T) {
	for _, tc := range []struct {
		b    BlockedNavigation
		want string
	}{
		{BlockedNavigation{Origin: "http://localhost:1234"}, "blocked navigation to http://localhost:1234"},
		{BlockedNavigation{Origin: "https://evil.example", Frame: "f2"}, "blocked navigation to https://evil.example (frame f2)"},
		{BlockedNavigation{Origin: "https://evil.example", Popup: true}, "blocked navigation to https://evil.example (a popup; it was closed)"},
		// Anything but a plain origin is quoted like page text, so it cannot forge a line.
		{BlockedNavigation{Origin: "https://x\nbtn-delete"}, `blocked navigation to "https://x\nbtn-delete"`},
	} {
		if got := tc.b.String(); got != tc.want {
			t.Errorf("%+v: got %q, want %q", tc.b, got, tc.want)
		}
	}
}

func TestCookieParams(t *testing.T) {
	exp := float64(time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC).Unix())
	p, err := cookieParam(Cookie{Name: "a", Value: "1", Domain: ".example.com", Expires: exp, SameSite: "none", Secure: true})
	if err != nil || p.Path != "/" || p.SameSite != proto.NetworkCookieSameSiteNone || float64(p.Expires) != exp || !p.Secure {
		t.Errorf("domain cookie: %+v %v", p, err)
	}
	p, err = cookieParam(Cookie{Name: "a", URL: "https://example.com/x", Expires: -1})
	if err != nil || p.URL != "https://example.com/x" || p.Expires != 0 {
		t.Errorf("a session cookie by URL: %+v %v", p, err)
	}
	for _, bad := range []Cookie{{}, {Name: "a"}, {Name: "a", URL: "nope"}, {Name: "a", Domain: "x", SameSite: "Loose"}} {
		if _, err := cookieParam(bad); !errors.Is(err, ErrBadCookie) {
			t.Errorf("%+v: want ErrBadCookie, got %v", bad, err)
		}
	}
	c := cookieOf(&proto.NetworkCookie{Name: "s", Domain: "h", Path: "/", Session: true, Expires: 0})
	if c.Expires != -1 || c.SameSite != "Lax" {
		t.Errorf("a session cookie reads as Playwright's: %+v", c)
	}
}
