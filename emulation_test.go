package rodagent_test

import (
	"bytes"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/rodagent/rodagent"
)

func TestEmulationIsObservedByThePage(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t, 60*time.Second)
	p := open(t, "emulation.html")
	steps := []struct {
		name string
		set  func() error
		js   string
		want any
	}{
		{"locale", func() error { return p.SetLocale(ctx, "fr-FR") },
			"[navigator.language, Intl.DateTimeFormat().resolvedOptions().locale, new Intl.NumberFormat().format(1234.5)]",
			[]any{"fr-FR", "fr-FR", "1\u202f234,5"}},
		{"timezone", func() error { return p.SetTimezone(ctx, "Asia/Tokyo") },
			"[Intl.DateTimeFormat().resolvedOptions().timeZone, new Date(0).getTimezoneOffset()]", []any{"Asia/Tokyo", -540.0}},
		{"user agent", func() error { return p.SetUserAgent(ctx, "rodagent-test/1.0") },
			"[navigator.userAgent, navigator.language]", []any{"rodagent-test/1.0", "fr-FR"}},
		{"dark", func() error { return p.SetColorScheme(ctx, "dark") },
			"[matchMedia('(prefers-color-scheme: dark)').matches, getComputedStyle(document.body).backgroundColor]", []any{true, "rgb(0, 0, 0)"}},
		{"reduced motion", func() error { return p.SetReducedMotion(ctx, true) },
			"[matchMedia('(prefers-reduced-motion: reduce)').matches, matchMedia('(prefers-color-scheme: dark)').matches]", []any{true, true}},
		{"print", func() error { return p.SetMediaType(ctx, "print") },
			"[matchMedia('print').matches, getComputedStyle(document.querySelector('h1')).color]", []any{true, "rgb(255, 0, 0)"}},
		{"screen again", func() error { return p.SetMediaType(ctx, "") },
			"[matchMedia('print').matches, matchMedia('(prefers-reduced-motion: reduce)').matches]", []any{false, true}},
		{"light", func() error { return p.SetColorScheme(ctx, "light") },
			"matchMedia('(prefers-color-scheme: dark)').matches", false},
		{"geolocation", func() error {
			if err := p.GrantPermissions(ctx, "geolocation"); err != nil {
				return err
			}
			return p.SetGeolocation(ctx, 48.8584, 2.2945, 10)
		}, `new Promise((ok, fail) => navigator.geolocation.getCurrentPosition(
				p => ok([p.coords.latitude, p.coords.longitude, p.coords.accuracy]), e => fail(new Error(e.message))))`,
			[]any{48.8584, 2.2945, 10.0}},
		{"viewport", func() error { return p.SetViewport(ctx, 640, 480, 2) },
			"[innerWidth, innerHeight, devicePixelRatio]", []any{640.0, 480.0, 2.0}},
	}
	for _, s := range steps {
		if err := s.set(); err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		v, err := p.Eval(ctx, s.js)
		if err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		if got, want := v.JSON("", ""), jsonOf(s.want); got != want {
			t.Errorf("%s: the page sees %s, want %s", s.name, got, want)
		}
	}
	// The viewport holds for screenshots, at the device scale.
	shot, err := p.Screenshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if d := decodeShot(t, shot).Bounds().Size(); d.X != 1280 || d.Y != 960 {
		t.Errorf("a 640x480 viewport at scale 2 should capture 1280x960, got %v", d)
	}
	// The emulation outlives a navigation of the tab.
	if err := p.Reload(ctx); err != nil {
		t.Fatal(err)
	}
	if v, err := p.Eval(ctx, "[navigator.language, Intl.DateTimeFormat().resolvedOptions().timeZone, innerWidth]"); err != nil ||
		v.JSON("", "") != `["fr-FR","Asia/Tokyo",640]` {
		t.Errorf("after Reload the page sees %v (%v)", v, err)
	}
	if err := p.SetViewport(ctx, 0, 0, 0); err != nil {
		t.Fatal(err)
	}
	if v, err := p.Eval(ctx, "innerWidth"); err != nil || v.Int() == 640 {
		t.Errorf("SetViewport(0, 0, 0) should return to the window's size, innerWidth = %v (%v)", v, err)
	}

	bad := map[string]error{
		"time zone":    p.SetTimezone(ctx, "Mars/Olympus"),
		"viewport":     p.SetViewport(ctx, -1, 10, 1),
		"color scheme": p.SetColorScheme(ctx, "purple"),
		"media":        p.SetMediaType(ctx, "tv"),
		"position":     p.SetGeolocation(ctx, 91, 0, 1),
		"permission":   p.GrantPermissions(ctx, "teleport"),
		"locale":       p.SetLocale(ctx, "en-US, fr"),
	}
	for name, err := range bad {
		if !errors.Is(err, rodagent.ErrBadOption) {
			t.Errorf("bad %s: want ErrBadOption, got %v", name, err)
		}
	}
}

func TestInitScripts(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t, 60*time.Second)
	b, err := rodagent.Connect(ctx, shared.DevToolsURL(), rodagent.WithInitScript("window.__init = 'from WithInitScript'"))
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	p, err := b.NewPage(ctx, originA+"/emulation.html")
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if v, err := p.Eval(ctx, "__sawInit"); err != nil || v.Str() != "from WithInitScript" {
		t.Errorf("the page's first script should see the init script's work: %v %v", v, err)
	}
	if err := p.AddInitScript(ctx, "window.__init = 'from AddInitScript'"); err != nil {
		t.Fatal(err)
	}
	if err := p.Reload(ctx); err != nil {
		t.Fatal(err)
	}
	if v, err := p.Eval(ctx, "__sawInit"); err != nil || v.Str() != "from AddInitScript" {
		t.Errorf("after AddInitScript and a reload: %v %v", v, err)
	}
}

func TestPDF(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t, 60*time.Second)
	p := open(t, "emulation.html")
	pdf, err := p.PDF(ctx)
	if err != nil || !bytes.HasPrefix(pdf, []byte("%PDF-")) {
		t.Fatalf("PDF: %d bytes, %v", len(pdf), err)
	}
	// US Letter portrait is 612x792 points; landscape A4 is 842x595.
	if !bytes.Contains(pdf, []byte("/MediaBox [0 0 612 792]")) {
		t.Errorf("default paper should be US Letter")
	}
	a4, err := p.PDF(ctx, rodagent.PDFPaper(8.27, 11.69), rodagent.PDFLandscape(), rodagent.PDFBackground(), rodagent.PDFMargins(0, 0, 0, 0))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(a4, []byte("/MediaBox [0 0 841")) && !bytes.Contains(a4, []byte("/MediaBox [0 0 842")) {
		t.Errorf("landscape A4 should be 842 points wide")
	}
	if _, err := p.PDF(ctx, rodagent.PDFScale(5)); !errors.Is(err, rodagent.ErrBadOption) {
		t.Errorf("scale 5: want ErrBadOption, got %v", err)
	}
	if _, err := p.PDF(ctx, rodagent.PDFPageRanges("7-9")); !errors.Is(err, rodagent.ErrBadOption) {
		t.Errorf("pages past the end: want ErrBadOption, got %v", err)
	}
}

// Out-of-process frames run in their own renderer, which does not inherit
// the tab's overrides: they must see the same emulation, whether the frame
// was there before the call or arrives after it.
func TestEmulationReachesOutOfProcessFrames(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t, 90*time.Second)
	p := openURL(t, originA+"/emulation-parent.html?other="+originB)
	snap := snapshot(t, p)
	oopif := false
	for _, f := range snap.Frames {
		oopif = oopif || f.OutOfProc
	}
	if !oopif {
		t.Fatalf("the fixture's child frame should be out of process: %+v", snap.Frames)
	}
	for _, err := range []error{
		p.SetLocale(ctx, "ja-JP"),
		p.SetTimezone(ctx, "Pacific/Auckland"),
		p.SetColorScheme(ctx, "dark"),
		p.AddInitScript(ctx, "window.__init = 'page init'"),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	want := `{"dark":true,"init":%s,"language":"ja-JP","locale":"ja-JP","timeZone":"Pacific/Auckland"}`
	v, err := p.Eval(ctx, "ask()")
	if err != nil {
		t.Fatal(err)
	}
	if got := v.JSON("", ""); got != fmt.Sprintf(want, "null") {
		t.Errorf("the frame that was already there sees %s", got)
	}
	// A reload brings a new out-of-process frame, set up before it runs.
	if err := p.Reload(ctx); err != nil {
		t.Fatal(err)
	}
	snapshot(t, p) // waits for the frames
	if v, err = p.Eval(ctx, "ask()"); err != nil {
		t.Fatal(err)
	}
	if got := v.JSON("", ""); got != fmt.Sprintf(want, `"page init"`) {
		t.Errorf("the frame that arrived later sees %s", got)
	}
}

// A launched headless browser's pages see the mouse the library drives them
// with: a fine pointer that hovers, as a person's desktop reports it, so a
// page that adapts to the device serves its desktop variant.
func TestPagesSeeAMouse(t *testing.T) {
	t.Parallel()
	p := open(t, "basic.html")
	var got string
	eval(t, p, `['(pointer: fine)', '(hover: hover)', '(any-pointer: fine)', '(any-hover: hover)']
		.map(q => q + ' ' + matchMedia(q).matches).join(', ')`, &got)
	if want := "(pointer: fine) true, (hover: hover) true, (any-pointer: fine) true, (any-hover: hover) true"; got != want {
		t.Errorf("the page's media queries: %s\nwant %s", got, want)
	}
}
