package rodagent

import (
	"context"
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/go-rod/rod/lib/proto"

	"github.com/rodagent/rodagent/internal/session"
)

// The origin allowlist (WithAllowedOrigins) is enforced where a navigation
// lands, not only on the URL a call asks for. Every document request — the
// main frame's and every iframe's, in the tab, in its out-of-process frames
// and in its popups — is held before it is sent (CDP Fetch, request stage)
// and checked, at every redirect hop. A forbidden one is cancelled before any
// byte reaches its origin: the frame keeps the document it had, the action
// that set the navigation off fails with an error matching ErrNotAllowed,
// the next snapshot says "blocked navigation to <origin>", a popup is closed
// and an iframe is shown as blocked. The one navigation that does not send a
// request — one Chromium serves from a speculative prefetch — is stopped as
// it commits instead (forbiddenCommitted); Launch turns preloading off.

// BlockedNavigation is a navigation the origin allowlist stopped before it
// loaded, as the next snapshot reports it.
type BlockedNavigation struct {
	Origin string `json:"origin"`          // the origin it was headed for
	Frame  string `json:"frame,omitempty"` // the frame's prefix ("" for the main frame, "f1", …)
	Popup  bool   `json:"popup,omitempty"` // it was a popup's, and the popup was closed
}

// String is the line the snapshot header shows.
func (b BlockedNavigation) String() string {
	s := "blocked navigation to " + safeOrigin(b.Origin)
	switch {
	case b.Popup:
		s += " (a popup; it was closed)"
	case b.Frame != "":
		s += " (frame " + b.Frame + ")"
	}
	return s
}

var plainOrigin = regexp.MustCompile(`^[a-z][a-z0-9+.-]*:(//[A-Za-z0-9.\-\[\]:]*)?$`)

// safeOrigin shows an origin as it is when it is a plain scheme://host:port
// (Chromium canonicalises hosts), else quoted like any page-made text.
func safeOrigin(o string) string {
	if plainOrigin.MatchString(o) {
		return o
	}
	return quote(o, 200)
}

type blockedNav struct {
	origin string
	frame  proto.PageFrameID
	main   bool
	popup  bool
	late   bool // the document committed (see forbiddenCommitted): it was left, not stopped
}

// documentAllowed reports whether a document from rawURL may load, and the
// origin it checked. Only network schemes are checked: about:, data:,
// blob:, javascript: and the like load nothing from an origin.
func (c *config) documentAllowed(rawURL string) (string, bool) {
	if len(c.origins) == 0 {
		return "", true
	}
	u, err := url.Parse(rawURL)
	if err != nil {
		return rawURL, false
	}
	switch strings.ToLower(u.Scheme) {
	case "http", "https", "ws", "wss", "ftp":
	default:
		return "", true
	}
	o := originOf(rawURL)
	return o, originListed(c.origins, o)
}

func originListed(list []string, o string) bool {
	o = canonicalOrigin(o)
	for _, allowed := range list {
		if canonicalOrigin(allowed) == o {
			return true
		}
	}
	return false
}

// canonicalOrigin is an origin as Chromium writes it: scheme and host in
// lower case, the scheme's default port left out, no path. An allowlist entry
// written "https://A.example:443/" names the origin Chromium reports as
// "https://a.example"; compared as written, it would match nothing and block
// the very site it allows.
func canonicalOrigin(s string) string {
	u, err := url.Parse(strings.TrimSpace(s))
	if err != nil || u.Host == "" {
		return strings.ToLower(strings.TrimRight(s, "/"))
	}
	scheme, host := strings.ToLower(u.Scheme), strings.ToLower(u.Host)
	switch {
	case (scheme == "http" || scheme == "ws") && strings.HasSuffix(host, ":80"),
		(scheme == "https" || scheme == "wss") && strings.HasSuffix(host, ":443"):
		host = host[:strings.LastIndexByte(host, ':')]
	}
	return scheme + "://" + host
}

// blockNavigation records a document request the allowlist cancelled.
func (p *Page) blockNavigation(s session.Session, frame proto.PageFrameID, origin string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	main := s.ID == p.main.ID && frame == p.mainFrame
	if main {
		// The main frame's navigation is decided: it stays on its document.
		// Chromium reports no stop for a request cancelled this way, and a
		// look would otherwise wait navSettleCap for one.
		p.nav.pending, p.nav.loading = false, false
	}
	p.recordBlockLocked(blockedNav{origin: origin, frame: frame, main: main})
	p.b.cfg.log.Info("navigation blocked by the origin allowlist", "origin", origin, "main_frame", main)
}

func (p *Page) recordBlockLocked(b blockedNav) {
	p.net.blockSeq++
	if len(p.net.blocks) < 64 {
		p.net.blocks = append(p.net.blocks, b)
	}
	delete(p.net.pendingNav, b.frame)
	if !b.main {
		if p.net.blockedFr == nil {
			p.net.blockedFr = map[proto.PageFrameID]string{}
		}
		p.net.blockedFr[b.frame] = b.origin
	}
	p.notify()
}

// takeBlocked returns the navigations blocked since the last snapshot.
func (p *Page) takeBlocked() []BlockedNavigation {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.net.blocks) == 0 {
		return nil
	}
	out := make([]BlockedNavigation, 0, len(p.net.blocks))
	for _, b := range p.net.blocks {
		bn := BlockedNavigation{Origin: b.origin, Popup: b.popup}
		if !b.main && !b.popup {
			bn.Frame = p.framePrefix(b.frame)
		}
		out = append(out, bn)
	}
	p.net.blocks = nil
	return out
}

// frameBlockedLocked is the origin a frame's navigation was refused, if it was.
func (p *Page) frameBlockedLocked(id proto.PageFrameID) string { return p.net.blockedFr[id] }

// trackNavigation follows which navigations of the page are still
// undecided, so an action can wait until the one it set off is either
// committed or blocked.
func (p *Page) trackNavigation(s session.Session, m *session.Message) {
	if len(p.b.cfg.origins) == 0 {
		return
	}
	switch m.Method {
	case "Page.frameRequestedNavigation":
		var e proto.PageFrameRequestedNavigation
		if !m.Load(&e) || e.Disposition != proto.PageClientNavigationDispositionCurrentTab {
			return
		}
		if u, err := url.Parse(e.URL); err == nil && (u.Scheme == "javascript" || u.Scheme == "about") {
			return
		}
		p.mu.Lock()
		if p.net.pendingNav == nil {
			p.net.pendingNav = map[proto.PageFrameID]bool{}
		}
		p.net.pendingNav[e.FrameID] = true
		p.notify()
		p.mu.Unlock()
	case "Page.frameNavigated":
		var e proto.PageFrameNavigated
		if !m.Load(&e) {
			return
		}
		if origin, ok := p.b.cfg.documentAllowed(e.Frame.URL); !ok {
			p.forbiddenCommitted(s, e.Frame.ID, origin)
			return
		}
		p.settleNav(e.Frame.ID, true)
		if e.Frame.ParentID == "" && s.ID == p.main.ID {
			p.mu.Lock()
			p.net.evicting = false
			p.notify()
			p.mu.Unlock()
		}
	case "Page.navigatedWithinDocument":
		var e proto.PageNavigatedWithinDocument
		if m.Load(&e) {
			p.settleNav(e.FrameID, false)
		}
	case "Page.frameStoppedLoading":
		var e proto.PageFrameStoppedLoading
		if m.Load(&e) {
			p.settleNav(e.FrameID, false)
		}
	case "Page.frameDetached":
		var e proto.PageFrameDetached
		if m.Load(&e) && e.Reason != proto.PageFrameDetachedReasonSwap {
			p.settleNav(e.FrameID, true)
		}
	}
}

// forbiddenCommitted handles a document from a forbidden origin that
// committed although its request was never held: Chromium serves a
// navigation from a speculative prefetch (speculation rules) without the
// request passing the tab's Fetch interception. Launch turns preloading off
// in its profile; a browser reached with Connect keeps its own setting, so
// this is the backstop there. The navigation counts as blocked — the action
// that set it off fails with ErrNotAllowed and the next snapshot says so —
// no look reads the document (collect) and no action acts in it
// (guardNavigation), and a main frame is taken back to the URL it showed
// before (about:blank when that one is not allowed either). Unlike a request
// held by Fetch, the forbidden origin was reached, and its page ran until
// it was left.
func (p *Page) forbiddenCommitted(s session.Session, frame proto.PageFrameID, origin string) {
	p.mu.Lock()
	main := s.ID == p.main.ID && frame == p.mainFrame
	back := ""
	if f := p.frames[frame]; f != nil {
		back = f.url // onEvent records the new URL after this
	}
	p.recordBlockLocked(blockedNav{origin: origin, frame: frame, main: main, late: true})
	if main {
		p.net.evicting = true
	}
	p.mu.Unlock()
	p.b.cfg.log.Warn("a document from a forbidden origin committed without its request being held; leaving it",
		"origin", origin, "main_frame", main)
	if main {
		p.background(func(ctx context.Context) {
			if !p.leaveForbidden(ctx, back) {
				p.mu.Lock()
				p.net.evicting = false // the look reads nothing of it anyway (collect)
				p.notify()
				p.mu.Unlock()
			}
		})
	}
}

// leaveForbidden navigates the main frame to back, the URL it showed before
// the forbidden document, when that is allowed, else to about:blank.
// (Page.getNavigationHistory answers "not attached to an active page" this
// soon after such a commit; a navigation is taken.)
func (p *Page) leaveForbidden(ctx context.Context, back string) bool {
	if _, ok := p.b.cfg.documentAllowed(back); !ok || back == "" {
		back = "about:blank"
	}
	_, err := proto.PageNavigate{URL: back}.Call(p.main.Bind(ctx))
	return err == nil
}

// forbiddenDocumentError is a frame's document from an origin the allowlist
// forbids (see forbiddenCommitted): named in the snapshot, never read.
type forbiddenDocumentError struct{ origin string }

func (e *forbiddenDocumentError) Error() string {
	return "its document is from " + safeOrigin(e.origin) + ", which is not an allowed origin"
}

func (e *forbiddenDocumentError) Unwrap() error { return ErrNotAllowed }

func (p *Page) settleNav(frame proto.PageFrameID, newDoc bool) {
	p.mu.Lock()
	delete(p.net.pendingNav, frame)
	if newDoc {
		delete(p.net.blockedFr, frame)
	}
	p.notify()
	p.mu.Unlock()
}

// navDecideMax bounds how long an action waits for a navigation it set off
// to be allowed or blocked; one still undecided is left to the next look.
const navDecideMax = 5 * time.Second

// guardNavigation runs an action's input. With an origin allowlist, it first
// refuses to act inside a frame whose document is from a forbidden origin,
// then waits until any navigation the input set off — in any frame, or a
// popup — is decided, and fails with ErrNotAllowed when one was blocked.
// Without an allowlist it only runs do.
func (p *Page) guardNavigation(ctx context.Context, verb string, t *target, do func() error) error {
	if len(p.b.cfg.origins) == 0 {
		return do()
	}
	if t != nil {
		p.mu.Lock()
		u := t.frame.url
		if f := p.frames[t.frame.id]; f != nil {
			u = f.url
		}
		p.mu.Unlock()
		if o, ok := p.b.cfg.documentAllowed(u); !ok {
			return failure(verb, "", NavigationBlocked, fmt.Sprintf("the element is in a frame from %s, which is not an allowed origin", safeOrigin(o)), ErrNotAllowed)
		}
	}
	p.mu.Lock()
	seq := p.net.blockSeq
	p.net.pendingNav = map[proto.PageFrameID]bool{} // only what this input sets off counts
	p.net.popups = map[proto.TargetTargetID]bool{}
	p.mu.Unlock()
	doErr := do()
	if doErr == nil {
		// Let the tasks the input queued run (a form submits from a task), so a
		// navigation it starts has been requested before the check below.
		p.nextTasks(ctx, p.mainFrameInfo())
	}
	blocked := func() error {
		if p.net.blockSeq == seq {
			return nil
		}
		origin, how := "", "it was blocked before it loaded"
		if n := len(p.net.blocks); n > 0 {
			origin = p.net.blocks[n-1].origin
			if p.net.blocks[n-1].late {
				how = "the browser loaded it past the allowlist (from a prefetch), and the tab was taken back"
			}
		}
		return failure(verb, "", NavigationBlocked, fmt.Sprintf("it set off a navigation to %s, which is not an allowed origin; %s",
			safeOrigin(origin), how), ErrNotAllowed)
	}
	var err error
	wait := func(bound time.Duration, quiet func() bool) {
		wctx, cancel := context.WithTimeout(ctx, bound)
		defer cancel()
		_ = p.waitUntil(wctx, func() (bool, error) {
			err = blocked()
			return err != nil || quiet(), nil
		})
	}
	wait(navDecideMax, func() bool { return len(p.net.pendingNav) == 0 })
	switch {
	case err != nil:
		// Also when the input's own checks failed: the navigation it set
		// off may already have replaced the page (one served from a
		// prefetch commits at once), and its block is what happened.
		return err
	case doErr != nil:
		return doErr
	}
	// A popup that loads nothing (window.open()) never asks for a
	// document: its wait is shorter.
	wait(popupDecideMax, func() bool { return len(p.net.popups) == 0 })
	return err
}

// popupDecideMax bounds the wait for a popup's first document request.
const popupDecideMax = 1500 * time.Millisecond

// navBlockedErr turns a failed navigation of Open into ErrNotAllowed when
// the allowlist blocked it (a redirect to a forbidden origin), else into a
// NavigationError.
func (p *Page) navBlockedErr(rawURL, reason string, seq int) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.net.blockSeq > seq && len(p.net.blocks) > 0 {
		return fmt.Errorf("%w: opening %s led to %s, which is not an allowed origin; it was blocked before it loaded",
			ErrNotAllowed, safeOrigin(originOf(rawURL)), safeOrigin(p.net.blocks[len(p.net.blocks)-1].origin))
	}
	return &NavigationError{URL: rawURL, Reason: reason}
}

// blockMark is the count of blocked navigations, for navBlockedErr.
func (p *Page) blockMark() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.net.blockSeq
}

// originGuard holds every page target of the browser — popups above all,
// which no Page has attached yet when their first request goes out — on the
// allowlist. It auto-attaches to each new page target before it runs, holds
// its document requests, cancels forbidden ones and closes a popup that
// tried to load one. Tabs a Page owns are left to that Page's own layer.
type originGuard struct {
	b        *Browser
	mu       sync.Mutex
	sessions map[proto.TargetSessionID]*guarded
}

type guarded struct {
	target, opener proto.TargetTargetID // opener: the popup's (for a frame, its popup's)
	frame          bool                 // an out-of-process iframe of a guarded target
	unsub          func()
}

// startNet starts what the network options ask for at Launch and Connect:
// the origin guard, and the storage state to load.
func (b *Browser) startNet(ctx context.Context) error {
	if len(b.cfg.origins) > 0 {
		g := &originGuard{b: b, sessions: map[proto.TargetSessionID]*guarded{}}
		b.browser.guard = g
		b.conn.Subscribe("", g.onBrowserEvent)
		err := proto.TargetSetAutoAttach{AutoAttach: true, WaitForDebuggerOnStart: true, Flatten: true,
			Filter: proto.TargetTargetFilter{{Type: "page"}}}.Call(b.browserSession().Bind(ctx))
		if err != nil {
			return fmt.Errorf("rodagent: setting up the origin allowlist: %w", b.wrapErr(ctx, err))
		}
	}
	if b.cfg.storageState != "" {
		if err := b.LoadStorageState(ctx, b.cfg.storageState); err != nil {
			return err
		}
	}
	return nil
}

func (g *originGuard) onBrowserEvent(m *session.Message) {
	switch m.Method {
	case "Target.attachedToTarget":
		var e proto.TargetAttachedToTarget
		// Only targets auto-attached as they start: this session also hears
		// of attachments made on purpose (a Page's own), which are not the guard's.
		if !m.Load(&e) || e.TargetInfo == nil || e.TargetInfo.Type != proto.TargetTargetInfoTypePage || !e.WaitingForDebugger {
			return
		}
		s := session.Session{Conn: g.b.conn, ID: e.SessionID}
		gt := &guarded{target: e.TargetInfo.TargetID, opener: e.TargetInfo.OpenerID}
		if g.holds(gt.target) {
			return // a second attachment to a target still starting (a Page's own)
		}
		if !g.b.guards(e.TargetInfo) {
			go func() {
				ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
				defer cancel()
				_ = proto.RuntimeRunIfWaitingForDebugger{}.Call(s.Bind(ctx))
				_ = proto.TargetDetachFromTarget{SessionID: e.SessionID}.Call(g.b.browserSession().Bind(ctx))
			}()
			return
		}
		g.hold(s, gt)
		if op := g.b.heldPage(gt.opener); op != nil {
			op.mu.Lock()
			if op.net.popups == nil {
				op.net.popups = map[proto.TargetTargetID]bool{}
			}
			op.net.popups[gt.target] = true
			op.notify()
			op.mu.Unlock()
		}
	case "Target.detachedFromTarget":
		g.onDetached(m)
	}
}

// hold keeps a target on the allowlist: its document requests held, its
// out-of-process frames attached (and held) before they run, then it runs.
func (g *originGuard) hold(s session.Session, gt *guarded) {
	g.mu.Lock()
	g.sessions[s.ID] = gt
	gt.unsub = g.b.conn.Subscribe(s.ID, func(m *session.Message) { g.onEvent(s, gt, m) })
	g.mu.Unlock()
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		bc := s.Bind(ctx)
		_ = proto.FetchEnable{Patterns: []*proto.FetchRequestPattern{{ResourceType: proto.NetworkResourceTypeDocument,
			RequestStage: proto.FetchRequestStageRequest}}}.Call(bc)
		_ = proto.TargetSetAutoAttach{AutoAttach: true, WaitForDebuggerOnStart: true, Flatten: true}.Call(bc)
		_ = proto.RuntimeRunIfWaitingForDebugger{}.Call(bc)
	}()
}

// holds reports whether the guard already holds a target.
func (g *originGuard) holds(target proto.TargetTargetID) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	for _, gt := range g.sessions {
		if gt.target == target {
			return true
		}
	}
	return false
}

func (g *originGuard) onDetached(m *session.Message) {
	var e proto.TargetDetachedFromTarget
	if !m.Load(&e) {
		return
	}
	g.mu.Lock()
	gt := g.sessions[e.SessionID]
	delete(g.sessions, e.SessionID)
	g.mu.Unlock()
	if gt != nil {
		gt.unsub()
		if !gt.frame {
			g.popupDecided(gt)
		}
	}
}

func (g *originGuard) popupDecided(gt *guarded) {
	if op := g.b.heldPage(gt.opener); op != nil {
		op.mu.Lock()
		if op.net.popups[gt.target] {
			delete(op.net.popups, gt.target)
			op.notify()
		}
		op.mu.Unlock()
	}
}

func (g *originGuard) onEvent(s session.Session, gt *guarded, m *session.Message) {
	switch m.Method {
	case "Target.attachedToTarget":
		var e proto.TargetAttachedToTarget
		if !m.Load(&e) || e.TargetInfo == nil {
			return
		}
		child := session.Session{Conn: g.b.conn, ID: e.SessionID}
		if e.TargetInfo.Type != "iframe" {
			go func() { // workers: let them run, unwatched
				ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
				defer cancel()
				_ = proto.RuntimeRunIfWaitingForDebugger{}.Call(child.Bind(ctx))
				_ = proto.TargetDetachFromTarget{SessionID: e.SessionID}.Call(s.Bind(ctx))
			}()
			return
		}
		g.hold(child, &guarded{target: e.TargetInfo.TargetID, opener: gt.opener, frame: true})
		return
	case "Target.detachedFromTarget":
		g.onDetached(m)
		return
	case "Fetch.requestPaused":
	default:
		return
	}
	var e proto.FetchRequestPaused
	if !m.Load(&e) {
		return
	}
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		bc := s.Bind(ctx)
		origin, ok := g.b.cfg.documentAllowed(e.Request.URL)
		mainFrame := !gt.frame && e.FrameID == proto.PageFrameID(gt.target)
		if ok || g.b.heldPage(gt.target) != nil {
			// A tab a Page owns is checked by that Page's layer, which records it.
			_ = proto.FetchContinueRequest{RequestID: e.RequestID}.Call(bc)
			if mainFrame {
				g.popupDecided(gt)
			}
			return
		}
		_ = proto.FetchFailRequest{RequestID: e.RequestID, ErrorReason: proto.NetworkErrorReasonAborted}.Call(bc)
		if op := g.b.heldPage(gt.opener); op != nil {
			op.mu.Lock()
			op.recordBlockLocked(blockedNav{origin: origin, popup: mainFrame, main: true})
			delete(op.net.popups, gt.target)
			if mainFrame {
				op.forgetOpenedLocked(gt.target) // closed below: the look says blocked, not opened
			}
			op.mu.Unlock()
		}
		g.b.cfg.log.Info("popup navigation blocked by the origin allowlist", "origin", origin)
		if mainFrame {
			_, _ = proto.TargetCloseTarget{TargetID: gt.target}.Call(g.b.browserSession().Bind(ctx))
		}
	}()
}

// release hands a target over to the Page that now owns it: that Page's own
// layer enforces the allowlist there, and two interceptors on one target
// would only cost a round trip per document.
func (g *originGuard) release(ctx context.Context, target proto.TargetTargetID) {
	if g == nil {
		return
	}
	g.mu.Lock()
	var sid proto.TargetSessionID
	for id, gt := range g.sessions {
		if gt.target == target {
			sid = id
		}
	}
	g.mu.Unlock()
	if sid != "" {
		_ = proto.TargetDetachFromTarget{SessionID: sid}.Call(g.b.browserSession().Bind(ctx))
	}
}

// guards reports whether the guard is this Browser's to keep on a target:
// every target of a browser it launched; of a browser it connected to, only
// those in contexts it created and the popups of its own pages — other
// programs' tabs are theirs.
func (b *Browser) guards(t *proto.TargetTargetInfo) bool {
	r := b.root()
	if r.proc != nil || b.heldPage(t.OpenerID) != nil || b.heldPage(t.TargetID) != nil {
		return true
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, c := range r.children {
		if c.contextID == t.BrowserContextID {
			return true
		}
	}
	return false
}

// heldPage is the Page this connection holds for a target, in any context.
func (b *Browser) heldPage(id proto.TargetTargetID) *Page {
	if id == "" {
		return nil
	}
	r := b.root()
	r.mu.Lock()
	browsers := append([]*Browser{r}, r.children...)
	r.mu.Unlock()
	for _, x := range browsers {
		x.mu.Lock()
		p := x.pages[id]
		x.mu.Unlock()
		if p != nil && !p.isGone() {
			return p
		}
	}
	return nil
}
