package rodagent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/go-rod/rod/lib/proto"

	"github.com/rodagent/rodagent/internal/session"
)

// ErrBadCookie: a cookie given to SetCookies (or found in a storage state)
// cannot be set: no name, or neither a URL nor a domain.
var ErrBadCookie = errors.New("rodagent: bad cookie")

// Cookie is one cookie of a browser context, in the shape of Playwright's
// storageState cookies, so sessions carry across tools.
type Cookie struct {
	Name     string  `json:"name"`
	Value    string  `json:"value"`
	Domain   string  `json:"domain"`        // "example.com"; a leading dot matches subdomains
	Path     string  `json:"path"`          // "/" when empty
	Expires  float64 `json:"expires"`       // Unix seconds; -1 (or 0 when setting) for a session cookie
	HTTPOnly bool    `json:"httpOnly"`      // hidden from document.cookie
	Secure   bool    `json:"secure"`        // sent over https only
	SameSite string  `json:"sameSite"`      // "Strict", "Lax" or "None"
	URL      string  `json:"url,omitempty"` // SetCookies only: set the cookie as this URL would (instead of Domain and Path)
}

// NameValue is one localStorage entry.
type NameValue struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// OriginStorage is the localStorage of one origin.
type OriginStorage struct {
	Origin       string      `json:"origin"` // "https://example.com"
	LocalStorage []NameValue `json:"localStorage"`
}

// StorageState is a browser context's login state — its cookies and the
// localStorage of its origins — in Playwright's storageState JSON shape: a
// file saved by one can be loaded by the other.
type StorageState struct {
	Cookies []Cookie        `json:"cookies"`
	Origins []OriginStorage `json:"origins"`
}

// WithStorageState loads a storage state file (see StorageState) into the
// browser's default context when Launch or Connect returns: its cookies, and
// the localStorage of each origin. A file that cannot be read or loaded fails
// Launch/Connect. For a context from NewContext, call LoadStorageState.
func WithStorageState(file string) Option { return func(c *config) { c.storageState = file } }

// Cookies returns the cookies of this browser context, all of them, or only
// those a request to one of urls would send (domain, path and secure
// matched; SameSite is not considered).
func (b *Browser) Cookies(ctx context.Context, urls ...string) ([]Cookie, error) {
	if err := b.isClosed(); err != nil {
		return nil, err
	}
	res, err := proto.StorageGetCookies{BrowserContextID: b.contextID}.Call(b.browserSession().Bind(ctx))
	if err != nil {
		return nil, b.wrapErr(ctx, err)
	}
	var parsed []*url.URL
	for _, raw := range urls {
		u, err := url.Parse(raw)
		if err != nil || u.Host == "" {
			return nil, fmt.Errorf("rodagent: cookies for %q: not an absolute URL", raw)
		}
		parsed = append(parsed, u)
	}
	out := []Cookie{}
	for _, c := range res.Cookies {
		if len(parsed) > 0 && !cookieFor(c, parsed) {
			continue
		}
		out = append(out, cookieOf(c))
	}
	return out, nil
}

func cookieOf(c *proto.NetworkCookie) Cookie {
	ck := Cookie{Name: c.Name, Value: c.Value, Domain: c.Domain, Path: c.Path, Expires: float64(c.Expires),
		HTTPOnly: c.HTTPOnly, Secure: c.Secure, SameSite: string(c.SameSite)}
	if c.Session || ck.Expires <= 0 {
		ck.Expires = -1
	}
	if ck.SameSite == "" {
		ck.SameSite = "Lax" // what Chromium does with a cookie that names none
	}
	return ck
}

// cookieFor reports whether a request to any of urls would carry c.
func cookieFor(c *proto.NetworkCookie, urls []*url.URL) bool {
	for _, u := range urls {
		host := strings.ToLower(u.Hostname())
		d := strings.ToLower(c.Domain)
		hostOK := host == strings.TrimPrefix(d, ".") || (strings.HasPrefix(d, ".") && strings.HasSuffix(host, d))
		p := u.Path
		if p == "" {
			p = "/"
		}
		pathOK := p == c.Path || strings.HasPrefix(p, strings.TrimSuffix(c.Path, "/")+"/") || c.Path == "/"
		secureOK := !c.Secure || u.Scheme == "https" || host == "localhost" || host == "127.0.0.1"
		if hostOK && pathOK && secureOK {
			return true
		}
	}
	return false
}

// SetCookies sets cookies in this browser context. Each needs a Name and
// either a URL or a Domain (Path defaults to "/").
func (b *Browser) SetCookies(ctx context.Context, cookies ...Cookie) error {
	if err := b.isClosed(); err != nil {
		return err
	}
	params := make([]*proto.NetworkCookieParam, 0, len(cookies))
	for _, c := range cookies {
		p, err := cookieParam(c)
		if err != nil {
			return err
		}
		params = append(params, p)
	}
	if len(params) == 0 {
		return nil
	}
	err := proto.StorageSetCookies{Cookies: params, BrowserContextID: b.contextID}.Call(b.browserSession().Bind(ctx))
	if err != nil {
		if b.isClosed() == nil && !isTransportErr(err) && ctx.Err() == nil {
			return fmt.Errorf("%w: the browser refused them: %w", ErrBadCookie, err)
		}
		return b.wrapErr(ctx, err)
	}
	return nil
}

func cookieParam(c Cookie) (*proto.NetworkCookieParam, error) {
	if c.Name == "" {
		return nil, fmt.Errorf("%w: a cookie needs a name", ErrBadCookie)
	}
	p := &proto.NetworkCookieParam{Name: c.Name, Value: c.Value, HTTPOnly: c.HTTPOnly, Secure: c.Secure}
	switch {
	case c.URL != "":
		u, err := url.Parse(c.URL)
		if err != nil || u.Host == "" {
			return nil, fmt.Errorf("%w: cookie %q: URL %q is not absolute", ErrBadCookie, c.Name, c.URL)
		}
		p.URL = c.URL
	case c.Domain != "":
		p.Domain, p.Path = c.Domain, c.Path
		if p.Path == "" {
			p.Path = "/"
		}
	default:
		return nil, fmt.Errorf("%w: cookie %q needs a URL or a domain", ErrBadCookie, c.Name)
	}
	if c.Expires > 0 {
		p.Expires = proto.TimeSinceEpoch(c.Expires)
	}
	switch strings.ToLower(c.SameSite) {
	case "":
	case "strict":
		p.SameSite = proto.NetworkCookieSameSiteStrict
	case "lax":
		p.SameSite = proto.NetworkCookieSameSiteLax
	case "none":
		p.SameSite = proto.NetworkCookieSameSiteNone
	default:
		return nil, fmt.Errorf("%w: cookie %q: sameSite %q is not Strict, Lax or None", ErrBadCookie, c.Name, c.SameSite)
	}
	return p, nil
}

// ClearCookies deletes every cookie of this browser context.
func (b *Browser) ClearCookies(ctx context.Context) error {
	if err := b.isClosed(); err != nil {
		return err
	}
	return b.wrapErr(ctx, proto.StorageClearCookies{BrowserContextID: b.contextID}.Call(b.browserSession().Bind(ctx)))
}

// StorageState returns this browser context's cookies and the localStorage
// of every origin open in its pages (main frames and iframes, out-of-process
// ones included). localStorage of origins no page of this Browser shows is
// not included: open a page there first.
func (b *Browser) StorageState(ctx context.Context) (*StorageState, error) {
	cookies, err := b.Cookies(ctx)
	if err != nil {
		return nil, err
	}
	st := &StorageState{Cookies: cookies, Origins: []OriginStorage{}}
	b.mu.Lock()
	pages := make([]*Page, 0, len(b.pages))
	for _, p := range b.pages {
		pages = append(pages, p)
	}
	b.mu.Unlock()
	seen := map[string]bool{}
	for _, p := range pages {
		if p.alive() != nil {
			continue
		}
		for _, f := range p.storageFrames(seen) {
			items, err := readLocalStorage(ctx, f)
			if err != nil {
				if ctx.Err() != nil {
					return nil, b.wrapErr(ctx, ctx.Err())
				}
				continue // a frame that went away or forbids storage
			}
			if len(items) > 0 {
				st.Origins = append(st.Origins, OriginStorage{Origin: originOf(f.url), LocalStorage: items})
			}
		}
	}
	sort.Slice(st.Origins, func(i, k int) bool { return st.Origins[i].Origin < st.Origins[k].Origin })
	return st, nil
}

// storageFrames is one frame per http(s) origin of the page not yet seen.
func (p *Page) storageFrames(seen map[string]bool) []frameInfo {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []frameInfo
	for _, f := range p.frames {
		o := originOf(f.url)
		if f.detached || seen[o] || !(strings.HasPrefix(o, "http://") || strings.HasPrefix(o, "https://")) {
			continue
		}
		seen[o] = true
		out = append(out, *f)
	}
	return out
}

const readStorageJS = `(() => { const out = []; for (let i = 0; i < localStorage.length; i++) { const k = localStorage.key(i); out.push({name: k, value: localStorage.getItem(k)}) } return JSON.stringify(out) })()`

// readLocalStorage reads a frame's localStorage from an isolated world, where
// the page's own scripts cannot change what localStorage means.
func readLocalStorage(ctx context.Context, f frameInfo) ([]NameValue, error) {
	bc := f.sess.Bind(ctx)
	w, err := proto.PageCreateIsolatedWorld{FrameID: f.id, WorldName: "rodagent-storage"}.Call(bc)
	if err != nil {
		return nil, err
	}
	res, err := proto.RuntimeEvaluate{Expression: readStorageJS, ContextID: w.ExecutionContextID, ReturnByValue: true}.Call(bc)
	if err != nil {
		return nil, err
	}
	if res.ExceptionDetails != nil {
		return nil, fmt.Errorf("reading localStorage: %s", res.ExceptionDetails.Text)
	}
	var items []NameValue
	if err := json.Unmarshal([]byte(res.Result.Value.Str()), &items); err != nil {
		return nil, err
	}
	return items, nil
}

// SaveStorageState writes StorageState to file as JSON (mode 0600: it holds
// session cookies).
func (b *Browser) SaveStorageState(ctx context.Context, file string) error {
	st, err := b.StorageState(ctx)
	if err != nil {
		return err
	}
	data, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(file, data, 0o600)
}

// LoadStorageState reads a storage state file (Playwright's or
// SaveStorageState's) and loads it with SetStorageState.
func (b *Browser) LoadStorageState(ctx context.Context, file string) error {
	data, err := os.ReadFile(file)
	if err != nil {
		return fmt.Errorf("rodagent: storage state: %w", err)
	}
	var st StorageState
	if err := json.Unmarshal(data, &st); err != nil {
		return fmt.Errorf("rodagent: storage state %s: %w", file, err)
	}
	return b.SetStorageState(ctx, &st)
}

// SetStorageState adds a storage state to this browser context: its cookies,
// then each origin's localStorage entries. To write localStorage, a hidden
// tab visits each origin with every request answered locally by an empty
// page, so no server is contacted; origins outside an allowlist
// (WithAllowedOrigins) are skipped.
func (b *Browser) SetStorageState(ctx context.Context, st *StorageState) error {
	if st == nil {
		return nil
	}
	if err := b.SetCookies(ctx, st.Cookies...); err != nil {
		return err
	}
	var origins []OriginStorage
	for _, o := range st.Origins {
		if _, ok := b.cfg.documentAllowed(o.Origin); ok && len(o.LocalStorage) > 0 {
			origins = append(origins, o)
		}
	}
	if len(origins) == 0 {
		return nil
	}
	return b.writeLocalStorage(ctx, origins)
}

// writeLocalStorage visits each origin in a throwaway tab whose every
// request is fulfilled locally, and writes its entries there.
func (b *Browser) writeLocalStorage(ctx context.Context, origins []OriginStorage) error {
	bs := b.browserSession()
	created, err := proto.TargetCreateTarget{URL: "about:blank", BrowserContextID: b.contextID, Background: true}.Call(bs.Bind(ctx))
	if err != nil {
		return b.wrapErr(ctx, err)
	}
	defer func() {
		_, _ = proto.TargetCloseTarget{TargetID: created.TargetID}.Call(bs.Bind(context.WithoutCancel(ctx)))
	}()
	att, err := proto.TargetAttachToTarget{TargetID: created.TargetID, Flatten: true}.Call(bs.Bind(ctx))
	if err != nil {
		return b.wrapErr(ctx, err)
	}
	s := session.Session{Conn: b.conn, ID: att.SessionID}
	docs := &originContexts{ids: map[string]proto.RuntimeExecutionContextID{}, added: make(chan struct{}, 1)}
	unsub := b.conn.Subscribe(s.ID, func(m *session.Message) {
		switch m.Method {
		case "Fetch.requestPaused":
			var e proto.FetchRequestPaused
			if !m.Load(&e) {
				return
			}
			go func() {
				_ = proto.FetchFulfillRequest{RequestID: e.RequestID, ResponseCode: 200, Body: []byte("<!doctype html><title></title>"),
					ResponseHeaders: []*proto.FetchHeaderEntry{{Name: "Content-Type", Value: "text/html"}}}.Call(s.Bind(ctx))
			}()
		case "Runtime.executionContextCreated":
			var e proto.RuntimeExecutionContextCreated
			if m.Load(&e) && e.Context != nil && e.Context.AuxData["isDefault"].Bool() {
				docs.add(e.Context.Origin, e.Context.ID)
			}
		}
	})
	defer unsub()
	bc := s.Bind(ctx)
	if err := (proto.FetchEnable{Patterns: []*proto.FetchRequestPattern{{URLPattern: "*"}}}).Call(bc); err != nil {
		return b.wrapErr(ctx, err)
	}
	if err := (proto.RuntimeEnable{}).Call(bc); err != nil {
		return b.wrapErr(ctx, err)
	}
	for _, o := range origins {
		if err := writeOrigin(ctx, bc, docs, o); err != nil {
			if ctx.Err() != nil || b.isClosed() != nil {
				return b.wrapErr(ctx, err)
			}
			return fmt.Errorf("rodagent: storage state: localStorage of %s: %w", o.Origin, err)
		}
	}
	return nil
}

// originContexts are the main-world script contexts of the hidden tab's
// documents, by origin, as Runtime announces them.
type originContexts struct {
	mu    sync.Mutex
	ids   map[string]proto.RuntimeExecutionContextID
	added chan struct{} // a context was added since the last wait
}

func (d *originContexts) add(origin string, id proto.RuntimeExecutionContextID) {
	d.mu.Lock()
	d.ids[origin] = id
	d.mu.Unlock()
	select {
	case d.added <- struct{}{}:
	default:
	}
}

// wait returns the context of origin's document once Runtime announced it,
// and forgets it.
func (d *originContexts) wait(ctx context.Context, origin string) (proto.RuntimeExecutionContextID, error) {
	for {
		d.mu.Lock()
		id, ok := d.ids[origin]
		delete(d.ids, origin) // the next visit to origin is a new document
		d.mu.Unlock()
		if ok {
			return id, nil
		}
		select {
		case <-d.added:
		case <-ctx.Done():
			return 0, ctx.Err()
		}
	}
}

func writeOrigin(ctx context.Context, bc session.Bound, docs *originContexts, o OriginStorage) error {
	origin := strings.TrimRight(o.Origin, "/")
	nav, err := proto.PageNavigate{URL: origin + "/"}.Call(bc)
	if err != nil {
		return err
	}
	if nav.ErrorText != "" {
		return errors.New(nav.ErrorText)
	}
	// Page.navigate answers once the document committed, before its script
	// context exists: write in the context Runtime announces for the new
	// origin, rather than asking the old one again and again until it is
	// replaced (which, on a busy machine, floods the tab while it loads).
	id, err := docs.wait(ctx, origin)
	if err != nil {
		return err
	}
	entries, _ := json.Marshal(o.LocalStorage)
	js := `(() => { if (location.origin !== ` + strconv.Quote(origin) + `) return false;
		for (const e of ` + string(entries) + `) localStorage.setItem(e.name, e.value); return true })()`
	res, err := proto.RuntimeEvaluate{Expression: js, ContextID: id, ReturnByValue: true}.Call(bc)
	if err != nil {
		return err
	}
	if res.ExceptionDetails != nil {
		return errors.New(res.ExceptionDetails.Text)
	}
	if !res.Result.Value.Bool() {
		return fmt.Errorf("the page at %s is not of that origin", origin)
	}
	return nil
}
