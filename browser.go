package rodagent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/cdp"
	"github.com/go-rod/rod/lib/defaults"
	"github.com/go-rod/rod/lib/proto"
	"github.com/ysmood/gson"

	"github.com/rodagent/rodagent/internal/session"
)

// Browser is a connection to one Chromium: launched and owned (Launch), or
// attached to (Connect). It is safe for concurrent use; pages act in parallel.
// A Browser from NewContext is an isolated browser context on the same
// connection (its own cookies and storage).
type Browser struct {
	wsURL string
	cfg   config
	conn  *session.Conn
	ws    *cdp.WebSocket
	proc  *process // nil unless this Browser launched the browser

	cancel    context.CancelFunc
	contextID proto.BrowserBrowserContextID // "" for the default context
	parent    *Browser

	mu       sync.Mutex
	closed   bool
	pages    map[proto.TargetTargetID]*Page
	children []*Browser
	browser  *browserState // shared by a root Browser and its contexts
}

// browserState is what a root Browser and the contexts made from it share.
type browserState struct {
	downloads *downloadHub
	guard     *originGuard // origins.go

	mu        sync.Mutex
	destroyed map[proto.TargetTargetID]bool // targets gone, which getTargets may still list for a moment
}

func (s *browserState) onEvent(m *session.Message) {
	if m.Method != "Target.targetDestroyed" {
		return
	}
	var e proto.TargetTargetDestroyed
	if !m.Load(&e) {
		return
	}
	s.mu.Lock()
	if len(s.destroyed) > 4096 {
		s.destroyed = map[proto.TargetTargetID]bool{}
	}
	s.destroyed[e.TargetID] = true
	s.mu.Unlock()
}

func (s *browserState) gone(id proto.TargetTargetID) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.destroyed[id]
}

// Launch starts a new Chromium and connects to it. It looks for a system
// browser (WithBrowserBin, $ROD_BROWSER_BIN, then chrome/chromium on PATH and
// in the usual places); only when none exists does it download one with rod's
// launcher (WithDownload(false) forbids that). The browser is headless by
// default, runs with site isolation on, and is owned by the Browser: Close
// ends every process it started and removes its temporary profile.
func Launch(ctx context.Context, opts ...Option) (*Browser, error) {
	cfg := buildConfig(opts)
	proc, wsURL, err := startBrowser(ctx, &cfg)
	if err != nil {
		return nil, err
	}
	b, err := dial(ctx, cfg, wsURL)
	if err != nil {
		proc.kill()
		proc.stop(0)
		return nil, err
	}
	b.proc = proc
	cfg.log.Debug("browser launched", "pid", proc.pid(), "ws", wsURL)
	// Chromium's own default saves a page's downloads into the user's
	// Downloads directory; WaitDownload allows them while it waits.
	if err := (proto.BrowserSetDownloadBehavior{Behavior: proto.BrowserSetDownloadBehaviorBehaviorDeny}).Call(b.browserSession().Bind(ctx)); err != nil {
		_ = b.Close()
		return nil, b.wrapErr(ctx, err)
	}
	if err := b.startNet(ctx); err != nil {
		_ = b.Close()
		return nil, err
	}
	return b, nil
}

// Connect attaches to a browser that is already running, by its DevTools
// websocket URL (ws://host:port/devtools/browser/…) or by host:port (or an
// http:// URL), from which the websocket URL is looked up. The browser is not
// owned: Close detaches and leaves the browser and its tabs running.
func Connect(ctx context.Context, addr string, opts ...Option) (*Browser, error) {
	cfg := buildConfig(opts)
	wsURL, err := resolveWebSocket(ctx, addr)
	if err != nil {
		return nil, err
	}
	b, err := dial(ctx, cfg, wsURL)
	if err == nil {
		err = b.startNet(ctx)
		if err != nil {
			_ = b.Close()
			return nil, err
		}
	}
	return b, err
}

func resolveWebSocket(ctx context.Context, addr string) (string, error) {
	addr = strings.TrimSpace(addr)
	if strings.HasPrefix(addr, "ws://") || strings.HasPrefix(addr, "wss://") {
		return addr, nil
	}
	if !strings.Contains(addr, "://") {
		addr = "http://" + addr
	}
	u, err := url.Parse(addr)
	if err != nil {
		return "", fmt.Errorf("rodagent: connect address %q: %w", addr, err)
	}
	if _, _, err := net.SplitHostPort(u.Host); err != nil {
		return "", fmt.Errorf("rodagent: connect address %q: want ws://…, host:port or http://host:port", addr)
	}
	u.Path = "/json/version"
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return "", err
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", fmt.Errorf("rodagent: connect %s: %w", u.Host, err)
	}
	defer res.Body.Close()
	var body map[string]any
	if err := json.NewDecoder(res.Body).Decode(&body); err != nil {
		return "", fmt.Errorf("rodagent: connect %s: reading /json/version: %w", u.Host, err)
	}
	ws := gson.New(body).Get("webSocketDebuggerUrl").Str()
	if ws == "" {
		return "", fmt.Errorf("rodagent: connect %s: no webSocketDebuggerUrl in /json/version", u.Host)
	}
	wu, err := url.Parse(ws)
	if err != nil {
		return "", err
	}
	wu.Host = u.Host // the browser reports its own idea of its address; use the one that reached it
	return wu.String(), nil
}

func dial(ctx context.Context, cfg config, wsURL string) (*Browser, error) {
	ws := &cdp.WebSocket{}
	if err := ws.Connect(ctx, wsURL, nil); err != nil {
		return nil, fmt.Errorf("rodagent: connecting to %s: %w", wsURL, err)
	}
	lifetime, cancel := context.WithCancel(context.Background())
	tap := session.NewTap(defaults.CDP)
	client := cdp.New().Logger(tap).Start(ws)
	rb := rod.New().Client(client).Context(lifetime).NoDefaultDevice()
	if err := connectRod(ctx, rb); err != nil {
		cancel()
		_ = ws.Close()
		return nil, fmt.Errorf("rodagent: connecting to %s: %w", wsURL, err)
	}
	b := &Browser{
		wsURL: wsURL,
		cfg:   cfg,
		conn: session.NewConn(lifetime, rb, tap, func(p *session.Panic) {
			cfg.log.Error("rodagent: an event handler panicked; its page is marked broken (a bug in rodagent, please report it)",
				"session", p.Session, "event", p.Method, "panic", fmt.Sprint(p.Value), "stack", string(p.Stack))
		}),
		ws:      ws,
		cancel:  cancel,
		pages:   map[proto.TargetTargetID]*Page{},
		browser: &browserState{destroyed: map[proto.TargetTargetID]bool{}},
	}
	b.browser.downloads = newDownloadHub(b)
	b.conn.Subscribe("", b.browser.onEvent)
	return b, nil
}

// connectRod starts rod's event loop, bounded by ctx (rod's Connect uses the
// browser's own lifetime context for its one call).
func connectRod(ctx context.Context, rb *rod.Browser) error {
	done := make(chan error, 1)
	go func() { done <- rb.Connect() }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// DevToolsURL is the browser's DevTools websocket address: another program
// (or another Browser, with Connect) can attach to it while this one runs.
func (b *Browser) DevToolsURL() string { return b.root().wsURL }

// PID is the process id of the browser this Browser launched, 0 for one
// reached with Connect. The launched browser leads its own process group (its
// zygote, renderers and other helpers are members), so PID is also that
// group's id: a program or test can tell its own browser's processes from any
// other Chromium on the machine by group, never by name.
func (b *Browser) PID() int {
	if r := b.root(); r.proc != nil {
		return r.proc.cmd.Process.Pid
	}
	return 0
}

// ProfileDir is the temporary profile directory of a launched browser (Close
// removes it), "" for one reached with Connect.
func (b *Browser) ProfileDir() string {
	if r := b.root(); r.proc != nil {
		return r.proc.dir
	}
	return ""
}

func (b *Browser) root() *Browser {
	if b.parent != nil {
		return b.parent
	}
	return b
}

func (b *Browser) browserSession() session.Session {
	return session.Session{Conn: b.conn}
}

// Rod returns the underlying *rod.Browser, for what this library does not cover.
func (b *Browser) Rod() *rod.Browser {
	if b.contextID != "" {
		rb := *b.conn.Rod
		rb.BrowserContextID = b.contextID
		return &rb
	}
	return b.conn.Rod
}

func (b *Browser) isClosed() error {
	b.mu.Lock()
	closed := b.closed
	b.mu.Unlock()
	if closed {
		return ErrClosed
	}
	if b.conn.Closed() {
		return ErrBrowserGone
	}
	return nil
}

// Tab is one open tab as listed by Tabs: its id and origin only. Titles are
// page-authored text and are deliberately left out of listings a model reads.
type Tab struct {
	ID     string `json:"id"`     // the target id, for Browser.Page
	Origin string `json:"origin"` // scheme://host[:port] of the tab's page, or "about:blank", "data:", …
}

// Tabs lists the open tabs of this browser (or of this context).
func (b *Browser) Tabs(ctx context.Context) ([]Tab, error) {
	if err := b.isClosed(); err != nil {
		return nil, err
	}
	res, err := proto.TargetGetTargets{}.Call(b.browserSession().Bind(ctx))
	if err != nil {
		return nil, b.wrapErr(ctx, err)
	}
	tabs := []Tab{}
	for _, t := range res.TargetInfos {
		if t.Type != proto.TargetTargetInfoTypePage || (b.contextID != "" && t.BrowserContextID != b.contextID) ||
			b.browser.gone(t.TargetID) {
			continue
		}
		tabs = append(tabs, Tab{ID: string(t.TargetID), Origin: originOf(t.URL)})
	}
	return tabs, nil
}

// originOf reduces a URL to its origin ("https://example.com"), or to its
// scheme for URLs without a host ("about:blank", "data:").
func originOf(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme == "" {
		return ""
	}
	if u.Host == "" {
		if u.Scheme == "about" {
			return "about:" + u.Opaque
		}
		return u.Scheme + ":"
	}
	return u.Scheme + "://" + u.Host
}

// NewPage opens a new tab, navigates it to rawURL (when not empty) and waits
// for the load event.
func (b *Browser) NewPage(ctx context.Context, rawURL string) (*Page, error) {
	if err := b.isClosed(); err != nil {
		return nil, err
	}
	if rawURL != "" {
		if err := b.cfg.allowURL(rawURL); err != nil {
			return nil, err
		}
		if err := b.approve(ctx, Action{Verb: "open", Text: rawURL, Origin: originOf(rawURL), URL: rawURL}); err != nil {
			return nil, err
		}
	}
	id, err := b.createTarget(ctx)
	if err != nil {
		return nil, err
	}
	p, err := b.attach(ctx, id)
	if err != nil {
		b.closeTarget(id)
		return nil, err
	}
	if rawURL != "" {
		if err := p.open(ctx, rawURL); err != nil {
			_ = p.Close()
			return nil, err
		}
	}
	return p, nil
}

// Page returns the tab with the given id (from Tabs), attaching to it if this
// Browser has not yet. An unknown id fails with NoSuchTab.
func (b *Browser) Page(ctx context.Context, id string) (*Page, error) {
	if err := b.isClosed(); err != nil {
		return nil, err
	}
	tid := proto.TargetTargetID(id)
	b.mu.Lock()
	p := b.pages[tid]
	b.mu.Unlock()
	if p != nil && !p.isGone() {
		return p, nil
	}
	tabs, err := b.Tabs(ctx)
	if err != nil {
		return nil, err
	}
	for _, t := range tabs {
		if t.ID == id {
			p, err := b.attach(ctx, tid)
			if err != nil && session.IsSessionGone(err) {
				return nil, failure("page", id, NoSuchTab, "the tab closed", err)
			}
			return p, err
		}
	}
	return nil, failure("page", id, NoSuchTab, "", nil)
}

func (b *Browser) attach(ctx context.Context, id proto.TargetTargetID) (*Page, error) {
	type result struct {
		p   *rod.Page
		err error
	}
	done := make(chan result, 1)
	go func() {
		// rod ties the page's lifetime to the context it is created with, so it
		// must be the connection's, not the caller's; the caller's bounds the wait.
		rp, err := b.conn.Rod.PageFromTarget(id)
		done <- result{rp, err}
	}()
	var r result
	select {
	case r = <-done:
	case <-ctx.Done():
		// The attach still completes in the browser: detach that session
		// when it does, rather than leave it attached for nobody.
		go func() {
			if r := <-done; r.err == nil {
				b.dropSession(r.p)
			}
		}()
		return nil, b.wrapErr(ctx, ctx.Err())
	}
	if r.err != nil {
		return nil, b.wrapErr(ctx, r.err)
	}
	p, err := newPage(ctx, b, r.p)
	if err != nil {
		b.dropSession(r.p)
		return nil, err
	}
	b.mu.Lock()
	if old := b.pages[id]; old != nil && !old.isGone() {
		b.mu.Unlock()
		p.detach()
		return old, nil
	}
	b.pages[id] = p
	b.mu.Unlock()
	return p, nil
}

// createTarget opens a blank tab. The browser creates it even when the
// caller's ctx ends while the command is in flight, and only the answer
// names it: so the command runs on its own bounded context, and a tab whose
// caller gave up is closed when its id arrives.
func (b *Browser) createTarget(ctx context.Context) (proto.TargetTargetID, error) {
	type result struct {
		id  proto.TargetTargetID
		err error
	}
	done := make(chan result, 1)
	go func() {
		// No deadline of its own: the answer is the only way to learn the
		// tab's id. The call ends when the browser answers or the connection
		// closes (Close, or a browser that died), which leaves no tab behind.
		res, err := proto.TargetCreateTarget{URL: "about:blank", BrowserContextID: b.contextID, NewWindow: true}.Call(b.browserSession().Bind(context.WithoutCancel(ctx)))
		r := result{err: err}
		if err == nil {
			r.id = res.TargetID
		}
		done <- r
	}()
	select {
	case r := <-done:
		if r.err != nil {
			return "", b.wrapErr(ctx, r.err)
		}
		if ctx.Err() != nil {
			b.closeTarget(r.id)
			return "", b.wrapErr(ctx, ctx.Err())
		}
		return r.id, nil
	case <-ctx.Done():
		go func() {
			if r := <-done; r.err == nil {
				b.closeTarget(r.id)
			}
		}()
		return "", b.wrapErr(ctx, ctx.Err())
	}
}

// cleanupTimeout bounds the CDP calls that undo a half-made tab or session
// after the caller's context ended.
const cleanupTimeout = 30 * time.Second

// closeTarget closes a tab this Browser made for a caller that never got it.
func (b *Browser) closeTarget(id proto.TargetTargetID) {
	ctx, cancel := context.WithTimeout(context.Background(), cleanupTimeout)
	defer cancel()
	if _, err := (proto.TargetCloseTarget{TargetID: id}).Call(b.browserSession().Bind(ctx)); err == nil {
		b.browser.mu.Lock()
		b.browser.destroyed[id] = true
		b.browser.mu.Unlock()
	}
}

// dropSession detaches a session attached for a caller that never got its
// Page, and drops rod's cached page for it, which would otherwise hand the
// dead session to the next attach.
func (b *Browser) dropSession(rp *rod.Page) {
	ctx, cancel := context.WithTimeout(context.Background(), cleanupTimeout)
	defer cancel()
	_ = proto.TargetDetachFromTarget{SessionID: rp.SessionID}.Call(b.browserSession().Bind(ctx))
	b.conn.Rod.RemoveState(rp.TargetID)
}

func (b *Browser) forget(p *Page) {
	b.mu.Lock()
	if b.pages[p.target] == p {
		delete(b.pages, p.target)
	}
	b.mu.Unlock()
}

// NewContext creates an isolated browser context: a Browser whose tabs share
// no cookies, storage or cache with any other context. Its Close closes its
// tabs and disposes of the context; the browser keeps running.
func (b *Browser) NewContext(ctx context.Context) (*Browser, error) {
	if err := b.isClosed(); err != nil {
		return nil, err
	}
	r := b.root()
	res, err := proto.TargetCreateBrowserContext{DisposeOnDetach: true}.Call(r.browserSession().Bind(ctx))
	if err != nil {
		return nil, r.wrapErr(ctx, err)
	}
	c := &Browser{
		cfg:       r.cfg,
		conn:      r.conn,
		contextID: res.BrowserContextID,
		parent:    r,
		pages:     map[proto.TargetTargetID]*Page{},
		browser:   r.browser,
	}
	r.mu.Lock()
	r.children = append(r.children, c)
	r.mu.Unlock()
	return c, nil
}

// Close ends what this Browser owns. For a launched browser: every tab, the
// browser process and all of its helpers, and the temporary profile — nothing
// is left running. For Connect: only the connection; the browser and its tabs
// stay. For a context from NewContext: its tabs and the context. Close is
// idempotent.
func (b *Browser) Close() error {
	b.mu.Lock()
	if b.closed {
		b.mu.Unlock()
		return nil
	}
	b.closed = true
	pages := make([]*Page, 0, len(b.pages))
	for _, p := range b.pages {
		pages = append(pages, p)
	}
	children := b.children
	b.mu.Unlock()

	if b.parent != nil {
		for _, p := range pages {
			p.detach()
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		err := proto.TargetDisposeBrowserContext{BrowserContextID: b.contextID}.Call(b.browserSession().Bind(ctx))
		if err != nil && b.conn.Closed() {
			return nil
		}
		return err
	}

	for _, c := range children {
		c.mu.Lock()
		c.closed = true
		for _, p := range c.pages {
			pages = append(pages, p)
		}
		c.mu.Unlock()
	}
	for _, p := range pages {
		p.detach()
	}
	b.browser.downloads.close()
	if b.proc != nil {
		// The profile is a throwaway directory: there is nothing worth a
		// graceful shutdown (which takes Chromium seconds), so end it now.
		b.proc.stop(0)
	}
	_ = b.ws.Close()
	b.cancel()
	<-b.conn.Done()
	return nil
}

// wrapErr turns transport failures into the library's errors: a passed
// deadline into a Timeout ActionError, a dropped connection into ErrBrowserGone.
func (b *Browser) wrapErr(ctx context.Context, err error) error {
	if err == nil {
		return nil
	}
	if ctx.Err() != nil && (errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled)) {
		return failure("", "", Timeout, "", ctx.Err())
	}
	b.mu.Lock()
	closed := b.closed
	b.mu.Unlock()
	if closed {
		return fmt.Errorf("%w: %w", ErrClosed, err)
	}
	if b.conn.Closed() || isTransportErr(err) {
		return fmt.Errorf("%w: %w", ErrBrowserGone, err)
	}
	if isNavigationGone(err) {
		return failure("", "", PageChanged, "the page navigated under the call", err)
	}
	return err
}

// isTransportErr reports whether err is the connection itself failing: what
// rod's websocket returns when the browser's end goes away (EOF mid-frame, a
// closed or reset socket). Matched by type, never by message: a CDP error
// or a page's exception text may well contain "EOF".
func isTransportErr(err error) bool {
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		return false // a deadline is a net.Error too, but says nothing of the connection
	}
	var ne net.Error
	return errors.As(err, &ne) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, net.ErrClosed) || errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE)
}

func (c config) allowURL(raw string) error {
	if len(c.origins) == 0 {
		return nil
	}
	o := originOf(raw)
	for _, allowed := range c.origins {
		if strings.EqualFold(strings.TrimRight(allowed, "/"), o) {
			return nil
		}
	}
	return fmt.Errorf("%w: origin %s is not in the allowlist", ErrNotAllowed, o)
}
