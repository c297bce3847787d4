package rodagent

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/go-rod/rod/lib/cdp"
	"github.com/go-rod/rod/lib/proto"
	"golang.org/x/sync/errgroup"

	"github.com/rodagent/rodagent/internal/session"
)

// emulation is what a page has been told to pretend, kept because several
// CDP commands replace their whole state at once (the user agent carries the
// language; emulated media carries every media feature).
type emulation struct {
	mu       sync.Mutex
	ua       string // "" until SetUserAgent or SetLocale needed it
	lang     string // Accept-Language and navigator.language
	locale   string // ICU form (fr_FR)
	tz       string
	geo      *[3]float64
	media    string
	features map[string]string
	scripts  []string // from AddInitScript
	sent     bool     // a user agent override was sent
}

// SetViewport sets the tab's viewport to width×height CSS pixels and the
// device scale factor (device pixels per CSS pixel; 0 keeps the screen's).
// The page sees a resize, as when a window changes size. Zero width and
// height return to the window's own size.
func (p *Page) SetViewport(ctx context.Context, width, height int, scale float64) error {
	if width < 0 || height < 0 || (width == 0) != (height == 0) || width > 10000000 || height > 10000000 ||
		scale < 0 || scale > 10 || math.IsNaN(scale) {
		return fmt.Errorf("%w: viewport %dx%d at scale %g", ErrBadOption, width, height, scale)
	}
	return p.emulate(ctx, "viewport", func(bc proto.Client) error {
		if width == 0 {
			return proto.EmulationClearDeviceMetricsOverride{}.Call(bc)
		}
		return proto.EmulationSetDeviceMetricsOverride{Width: width, Height: height, DeviceScaleFactor: scale}.Call(bc)
	})
}

// SetUserAgent makes the tab send ua as its User-Agent and report it as
// navigator.userAgent.
func (p *Page) SetUserAgent(ctx context.Context, ua string) error {
	if strings.TrimSpace(ua) == "" {
		return fmt.Errorf("%w: empty user agent", ErrBadOption)
	}
	p.emu.mu.Lock()
	defer p.emu.mu.Unlock()
	p.emu.ua = ua
	return p.emulate(ctx, "user agent", func(bc proto.Client) error { return p.sendUserAgent(bc) })
}

// sendUserAgent sends the user agent and language together, as CDP takes
// them; the caller holds p.emu.mu.
func (p *Page) sendUserAgent(bc proto.Client) error {
	if p.emu.ua == "" {
		v, err := proto.BrowserGetVersion{}.Call(bc)
		if err != nil {
			return err
		}
		p.emu.ua = v.UserAgent
	}
	p.emu.sent = true
	return proto.EmulationSetUserAgentOverride{UserAgent: p.emu.ua, AcceptLanguage: p.emu.lang}.Call(bc)
}

// SetLocale makes the tab speak locale (a BCP 47 tag such as "fr-FR"): the
// Intl default locale, navigator.language(s) and the Accept-Language header.
func (p *Page) SetLocale(ctx context.Context, locale string) error {
	if strings.TrimSpace(locale) == "" || strings.ContainsAny(locale, " ,;") {
		return fmt.Errorf("%w: locale %q: want one BCP 47 tag such as fr-FR", ErrBadOption, locale)
	}
	p.emu.mu.Lock()
	defer p.emu.mu.Unlock()
	return p.emulate(ctx, "locale", func(bc proto.Client) error {
		if err := (proto.EmulationSetLocaleOverride{Locale: strings.ReplaceAll(locale, "-", "_")}).Call(bc); err != nil {
			return err
		}
		p.emu.lang, p.emu.locale = locale, strings.ReplaceAll(locale, "-", "_")
		return p.sendUserAgent(bc)
	})
}

// SetTimezone sets the tab's time zone, an IANA name such as "Asia/Tokyo".
func (p *Page) SetTimezone(ctx context.Context, tz string) error {
	if strings.TrimSpace(tz) == "" {
		return fmt.Errorf("%w: empty time zone", ErrBadOption)
	}
	if err := p.alive(); err != nil {
		return err
	}
	// Chromium takes any name and falls back to UTC; the page's own Intl
	// knows the real list, so ask it (in the library's world) first.
	w, err := p.world(ctx, p.mainFrameInfo())
	if err != nil {
		return p.emuErr(ctx, "timezone", err)
	}
	res, err := proto.RuntimeEvaluate{Expression: "new Intl.DateTimeFormat('en', {timeZone: " + strconv.Quote(tz) + "}) && true",
		ContextID: w, ReturnByValue: true}.Call(p.main.Bind(ctx))
	if err != nil {
		return p.emuErr(ctx, "timezone", err)
	}
	if res.ExceptionDetails != nil {
		return fmt.Errorf("%w: unknown time zone %q: want an IANA name such as Europe/Paris", ErrBadOption, tz)
	}
	p.emu.mu.Lock()
	defer p.emu.mu.Unlock()
	p.emu.tz = tz
	return p.emulate(ctx, "timezone", func(bc proto.Client) error {
		return proto.EmulationSetTimezoneOverride{TimezoneID: tz}.Call(bc)
	})
}

// SetGeolocation makes navigator.geolocation report this position (degrees,
// accuracy in metres). The page must also hold the "geolocation" permission:
// see GrantPermissions.
func (p *Page) SetGeolocation(ctx context.Context, latitude, longitude, accuracy float64) error {
	if math.Abs(latitude) > 90 || math.Abs(longitude) > 180 || accuracy < 0 || math.IsNaN(latitude+longitude+accuracy) {
		return fmt.Errorf("%w: position %g,%g ±%g", ErrBadOption, latitude, longitude, accuracy)
	}
	p.emu.mu.Lock()
	defer p.emu.mu.Unlock()
	p.emu.geo = &[3]float64{latitude, longitude, accuracy}
	return p.emulate(ctx, "geolocation", func(bc proto.Client) error {
		return proto.EmulationSetGeolocationOverride{Latitude: &latitude, Longitude: &longitude, Accuracy: &accuracy}.Call(bc)
	})
}

// GrantPermissions grants permissions to the tab's current origin, for every
// tab of the tab's browser context: CDP names such as "geolocation",
// "notifications", "clipboardReadWrite", "camera" (see proto.BrowserPermissionType).
func (p *Page) GrantPermissions(ctx context.Context, permissions ...string) error {
	origin := originOf(p.URL())
	if !strings.Contains(origin, "://") {
		return fmt.Errorf("%w: grant permissions: the tab has no web origin (%s); Open a page first", ErrBadOption, p.URL())
	}
	perms := make([]proto.BrowserPermissionType, 0, len(permissions))
	for _, n := range permissions {
		perms = append(perms, proto.BrowserPermissionType(n))
	}
	if err := p.alive(); err != nil {
		return err
	}
	err := proto.BrowserGrantPermissions{Permissions: perms, Origin: origin, BrowserContextID: p.b.contextID}.Call(p.b.browserSession().Bind(ctx))
	return p.emuErr(ctx, "permissions", err)
}

// SetColorScheme makes the page's prefers-color-scheme media query match
// scheme: "light", "dark", or "" for the browser's own.
func (p *Page) SetColorScheme(ctx context.Context, scheme string) error {
	if scheme != "" && scheme != "light" && scheme != "dark" && scheme != "no-preference" {
		return fmt.Errorf("%w: color scheme %q: want light, dark or \"\"", ErrBadOption, scheme)
	}
	return p.setMedia(ctx, "", "prefers-color-scheme", scheme)
}

// SetReducedMotion makes prefers-reduced-motion match "reduce" (on) or the
// browser's own setting (off).
func (p *Page) SetReducedMotion(ctx context.Context, reduce bool) error {
	v := ""
	if reduce {
		v = "reduce"
	}
	return p.setMedia(ctx, "", "prefers-reduced-motion", v)
}

// SetMediaType makes CSS media queries see "print" or "screen" ("" for the
// browser's own): how to check print styles without printing.
func (p *Page) SetMediaType(ctx context.Context, media string) error {
	if media != "" && media != "print" && media != "screen" {
		return fmt.Errorf("%w: media type %q: want print, screen or \"\"", ErrBadOption, media)
	}
	return p.setMedia(ctx, media, "", "")
}

// setMedia changes one part of the emulated media and sends all of it, since
// CDP replaces the whole set on every call.
func (p *Page) setMedia(ctx context.Context, media, feature, value string) error {
	p.emu.mu.Lock()
	defer p.emu.mu.Unlock()
	if feature != "" {
		if p.emu.features == nil {
			p.emu.features = map[string]string{}
		}
		p.emu.features[feature] = value
	} else {
		p.emu.media = media
	}
	req := p.emu.mediaRequest()
	return p.emulate(ctx, "media", func(bc proto.Client) error { return req.Call(bc) })
}

// mediaRequest is the whole emulated media; the caller holds e.mu.
func (e *emulation) mediaRequest() proto.EmulationSetEmulatedMedia {
	names := make([]string, 0, len(e.features))
	for n := range e.features {
		names = append(names, n)
	}
	sort.Strings(names)
	req := proto.EmulationSetEmulatedMedia{Media: e.media, Features: []*proto.EmulationMediaFeature{}}
	for _, n := range names {
		req.Features = append(req.Features, &proto.EmulationMediaFeature{Name: n, Value: e.features[n]})
	}
	return req
}

// AddInitScript runs js in every new document of the tab and of its frames
// (out-of-process ones included) before the page's own scripts, from the
// next navigation on. WithInitScript does the same for every tab of a browser.
func (p *Page) AddInitScript(ctx context.Context, js string) error {
	if strings.TrimSpace(js) == "" {
		return fmt.Errorf("%w: empty init script", ErrBadOption)
	}
	p.emu.mu.Lock()
	defer p.emu.mu.Unlock()
	p.emu.scripts = append(p.emu.scripts, js)
	return p.emulate(ctx, "init script", func(bc proto.Client) error {
		_, err := proto.PageAddScriptToEvaluateOnNewDocument{Source: js}.Call(bc)
		return err
	})
}

// WithInitScript runs js in every new document of every tab this Browser
// opens or attaches to, and of their frames, before the page's own scripts: to stub APIs, seed test data or record events from the start.
func WithInitScript(js string) Option {
	return func(c *config) { c.initScripts = append(c.initScripts, js) }
}

// emulate runs one emulation command on the tab's session, then on the
// sessions of its out-of-process frames (their renderers do not inherit the
// tab's overrides), and maps the tab's error. A frame that went away while
// this ran has nothing left to emulate.
func (p *Page) emulate(ctx context.Context, what string, call func(bc proto.Client) error) error {
	if err := p.alive(); err != nil {
		return err
	}
	if err := p.emuErr(ctx, what, call(p.main.Bind(ctx))); err != nil {
		return err
	}
	p.mu.Lock()
	var children []session.Session
	for _, c := range p.children {
		if !c.detached && !c.crashed {
			children = append(children, c.sess)
		}
	}
	p.mu.Unlock()
	var g errgroup.Group
	for _, c := range children {
		g.Go(func() error { _ = call(c.Bind(ctx)); return nil })
	}
	_ = g.Wait()
	return nil
}

// emulateChild brings a newly attached out-of-process frame to the tab's
// emulation and init scripts, before it runs (frames.go holds it paused).
func (p *Page) emulateChild(ctx context.Context, s session.Session) {
	bc := s.Bind(ctx)
	for _, js := range p.b.cfg.initScripts {
		_, _ = proto.PageAddScriptToEvaluateOnNewDocument{Source: js}.Call(bc)
	}
	p.emu.mu.Lock()
	defer p.emu.mu.Unlock()
	e := &p.emu
	for _, js := range e.scripts {
		_, _ = proto.PageAddScriptToEvaluateOnNewDocument{Source: js}.Call(bc)
	}
	if e.locale != "" {
		_ = proto.EmulationSetLocaleOverride{Locale: e.locale}.Call(bc)
	}
	if e.sent {
		_ = proto.EmulationSetUserAgentOverride{UserAgent: e.ua, AcceptLanguage: e.lang}.Call(bc)
	}
	if e.tz != "" {
		_ = proto.EmulationSetTimezoneOverride{TimezoneID: e.tz}.Call(bc)
	}
	if e.geo != nil {
		_ = proto.EmulationSetGeolocationOverride{Latitude: &e.geo[0], Longitude: &e.geo[1], Accuracy: &e.geo[2]}.Call(bc)
	}
	if e.media != "" || len(e.features) > 0 {
		_ = e.mediaRequest().Call(bc)
	}
}

func (p *Page) emuErr(ctx context.Context, what string, err error) error {
	if err == nil || errors.Is(err, ErrBadOption) {
		return err
	}
	if ctx.Err() != nil {
		return failure(what, "", Timeout, "", ctx.Err())
	}
	if e := p.alive(); e != nil {
		return e
	}
	if werr := p.b.wrapErr(ctx, err); werr != err {
		return werr
	}
	// What is left is Chromium refusing the value (an unknown time zone,
	// locale or permission): the caller's input.
	return fmt.Errorf("%w: %s: %s", ErrBadOption, what, cdpMessage(err))
}

// cdpMessage is the human part of a CDP error ("Invalid timezone ID").
func cdpMessage(err error) string {
	var ce *cdp.Error
	if errors.As(err, &ce) {
		return ce.Message
	}
	return capRunes(err.Error(), 200)
}
