package rodagent

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

func TestNoBrowserGivesTheInstallHint(t *testing.T) {
	saved := lookPath
	t.Cleanup(func() { lookPath = saved })
	lookPath = func() (string, bool) { return "", false }
	t.Setenv("ROD_BROWSER_BIN", "")
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, err := Launch(ctx, WithDownload(false))
	if !errors.Is(err, ErrNoBrowser) {
		t.Fatalf("err = %v, want ErrNoBrowser", err)
	}
	if !strings.Contains(err.Error(), "apt-get install -y chromium") {
		t.Errorf("the error should say how to install a browser: %v", err)
	}
}

func TestMissingExecutable(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, err := Launch(ctx, WithBrowserBin("/nonexistent/chromium"))
	if !errors.Is(err, ErrNoBrowser) {
		t.Fatalf("err = %v, want ErrNoBrowser", err)
	}
}

func TestBrowserArgsKeepSiteIsolation(t *testing.T) {
	c := defaultConfig()
	args := strings.Join(browserArgs(&c, "/tmp/x"), " ")
	for _, bad := range []string{"site-per-process", "disable-site-isolation-trials"} {
		if strings.Contains(args, bad) {
			t.Errorf("launch flags must keep site isolation on, found %q in %s", bad, args)
		}
	}
	for _, want := range []string{"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--no-first-run", "--disable-quic", "--headless", "--user-data-dir=/tmp/x"} {
		if !strings.Contains(args, want) {
			t.Errorf("missing %s in %s", want, args)
		}
	}
}

func TestOriginOf(t *testing.T) {
	for in, want := range map[string]string{
		"https://example.com/a/b?c#d":    "https://example.com",
		"http://127.0.0.1:8080/x":        "http://127.0.0.1:8080",
		"about:blank":                    "about:blank",
		"data:text/html,<b>hi</b>":       "data:",
		"chrome-error://chromewebdata/":  "chrome-error://chromewebdata",
		"":                               "",
		"file:///home/me/secret/doc.pdf": "file:",
	} {
		if got := originOf(in); got != want {
			t.Errorf("originOf(%q) = %q, want %q", in, got, want)
		}
	}
}

// A headless browser's pages see a mouse; a caller's own blink settings
// come after (and so over) Launch's, in the one --blink-settings Chromium
// reads; a headed browser reports the machine's own pointer.
func TestBlinkSettingsJoinLaunchs(t *testing.T) {
	for _, tc := range []struct {
		name     string
		headless bool
		flags    []string
		want     string // "" for no --blink-settings
	}{
		{"headless", true, nil, mousePointer},
		{"headless, caller's", true, []string{"--blink-settings=imagesEnabled=false", "--mute-audio"}, mousePointer + ",imagesEnabled=false"},
		{"headed", false, nil, ""},
		{"headed, caller's", false, []string{"--blink-settings=primaryHoverType=1"}, "primaryHoverType=1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := defaultConfig()
			c.headless, c.flags = tc.headless, tc.flags
			var lists []string
			for _, a := range browserArgs(&c, "/tmp/x") {
				if v, ok := strings.CutPrefix(a, "--blink-settings="); ok {
					lists = append(lists, v)
				}
			}
			switch {
			case tc.want == "" && len(lists) != 0:
				t.Errorf("want no --blink-settings, got %q", lists)
			case tc.want != "" && (len(lists) != 1 || lists[0] != tc.want):
				t.Errorf("--blink-settings %q, want one: %s", lists, tc.want)
			}
		})
	}
}

func TestCallersDisabledFeaturesJoinLaunchs(t *testing.T) {
	for _, tc := range []struct {
		name  string
		flags []string
		want  []string
	}{
		{"none", nil, disabledFeatures},
		{"one list", []string{"--disable-features=PaintHolding"}, append(append([]string(nil), disabledFeatures...), "PaintHolding")},
		{"two lists", []string{"--disable-features=A,B", "--mute-audio", "--disable-features=C"},
			append(append([]string(nil), disabledFeatures...), "A", "B", "C")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := defaultConfig()
			c.flags = tc.flags
			var lists []string
			for _, a := range browserArgs(&c, "/tmp/x") {
				if v, ok := strings.CutPrefix(a, "--disable-features="); ok {
					lists = append(lists, v)
				}
			}
			// Chromium keeps only the last one, so there must be one.
			if len(lists) != 1 {
				t.Fatalf("want one --disable-features, got %d: %q", len(lists), lists)
			}
			if got, want := lists[0], strings.Join(tc.want, ","); got != want {
				t.Errorf("--disable-features=%s, want %s", got, want)
			}
		})
	}
}
