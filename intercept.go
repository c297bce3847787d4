package rodagent

import (
	"context"
	"strings"
	"sync"
	"time"

	"github.com/go-rod/rod/lib/proto"
	"github.com/ysmood/gson"

	"github.com/rodagent/rodagent/internal/session"
)

// pageNet is a page's one network layer. Routes, origin enforcement, HTTP
// credentials, extra headers, offline emulation and request observation all
// rest on it: it brings every CDP session the page owns (the tab's own and
// each out-of-process iframe's, as they attach) to the same Fetch and Network
// settings, and it receives their Fetch and Network events. With nothing
// configured it sends no command at all, so pages that use none of it pay
// nothing. Its fields are guarded by the page's mu, except applyMu.
type pageNet struct {
	applyMu sync.Mutex                              // one settings change at a time
	applied map[proto.TargetSessionID]sessionNetSet // what each session has been set to

	routes    []*route
	observers map[int]*netObserver
	logs      []*RequestLog
	nextObs   int
	offline   bool
	inflight  map[netKey]*Request // requests seen by Network, for observers
	authTries map[proto.FetchRequestID]int

	blocks     []blockedNav                  // blocked navigations the next snapshot has not shown yet
	blockSeq   int                           // counts every blocked navigation
	pendingNav map[proto.PageFrameID]bool    // navigations requested and not yet committed, blocked or stopped
	blockedFr  map[proto.PageFrameID]string  // frames whose navigation was blocked, with the origin refused
	popups     map[proto.TargetTargetID]bool // popups of this page whose first navigation is undecided
	evicting   bool                          // the main frame holds a forbidden document and is being taken back
}

// sessionNetSet is the network state one session was set to.
type sessionNetSet struct {
	fetch   string // a key of the Fetch patterns enabled, "" when off
	network bool
	headers bool
	offline bool
}

// netKey names a request across sessions: an out-of-process frame's
// document request starts in its parent's session and ends in its own.
type netKey struct {
	id proto.NetworkRequestID
}

// netWantLocked is the state every session of the page should be in now.
func (p *Page) netWantLocked() (sessionNetSet, []*proto.FetchRequestPattern, bool) {
	cfg := &p.b.cfg
	var want sessionNetSet
	var patterns []*proto.FetchRequestPattern
	auth := cfg.credentials != nil
	switch {
	case len(p.net.routes) > 0 || auth:
		patterns = []*proto.FetchRequestPattern{{URLPattern: "*", RequestStage: proto.FetchRequestStageRequest}}
		want.fetch = "all"
	case len(cfg.origins) > 0:
		patterns = []*proto.FetchRequestPattern{{ResourceType: proto.NetworkResourceTypeDocument, RequestStage: proto.FetchRequestStageRequest}}
		want.fetch = "documents"
	}
	if auth {
		want.fetch += "+auth"
	}
	want.headers = len(cfg.extraHeaders) > 0
	want.offline = p.net.offline
	want.network = want.headers || want.offline || len(p.net.observers) > 0
	return want, patterns, auth
}

// netSetup brings session s to the page's network settings. It is the one
// call a session makes into this layer when it attaches (the tab's session in
// newPage, an out-of-process frame's in onAttached, before it runs).
func (p *Page) netSetup(ctx context.Context, s session.Session) error {
	p.net.applyMu.Lock()
	err := p.netApplyLocked(ctx, s)
	p.net.applyMu.Unlock()
	if err == nil && s.ID == p.main.ID && len(p.b.cfg.origins) > 0 {
		p.b.browser.guard.release(ctx, p.target)
	}
	return err
}

// netChildReady sets up an out-of-process frame's session first of all, so
// its own requests are covered from its first one. When that fails and an
// origin allowlist is set, the frame is left paused: a frame the allowlist
// cannot watch never runs.
func (p *Page) netChildReady(ctx context.Context, child session.Session) bool {
	err := p.netSetup(ctx, child)
	if err != nil {
		p.b.cfg.log.Warn("setting up an out-of-process frame's network failed", "err", err)
	}
	return err == nil || len(p.b.cfg.origins) == 0
}

func (p *Page) netApplyLocked(ctx context.Context, s session.Session) error {
	p.mu.Lock()
	if p.net.applied == nil {
		p.net.applied = map[proto.TargetSessionID]sessionNetSet{}
	}
	have := p.net.applied[s.ID]
	want, patterns, auth := p.netWantLocked()
	p.mu.Unlock()
	if have == want {
		return nil
	}
	bc := s.Bind(ctx)
	if want.network && !have.network {
		if err := (proto.NetworkEnable{}).Call(bc); err != nil {
			return err
		}
	}
	if want.headers != have.headers {
		h := proto.NetworkHeaders{}
		if want.headers {
			for k, v := range p.b.cfg.extraHeaders {
				h[k] = gson.New(v)
			}
		}
		if err := (proto.NetworkSetExtraHTTPHeaders{Headers: h}).Call(bc); err != nil {
			return err
		}
	}
	if want.offline != have.offline {
		if err := (proto.NetworkEmulateNetworkConditions{Offline: want.offline, DownloadThroughput: -1, UploadThroughput: -1}).Call(bc); err != nil {
			return err
		}
	}
	if !want.network && have.network {
		if err := (proto.NetworkDisable{}).Call(bc); err != nil {
			return err
		}
	}
	if want.fetch != have.fetch {
		var err error
		if want.fetch == "" {
			err = proto.FetchDisable{}.Call(bc)
		} else {
			err = proto.FetchEnable{Patterns: patterns, HandleAuthRequests: auth}.Call(bc)
		}
		if err != nil {
			return err
		}
	}
	p.mu.Lock()
	p.net.applied[s.ID] = want
	p.mu.Unlock()
	return nil
}

// netReapply brings every session of the page to the current settings, after
// a change (a route added, an observer, offline).
func (p *Page) netReapply(ctx context.Context) error {
	p.net.applyMu.Lock()
	defer p.net.applyMu.Unlock()
	p.mu.Lock()
	sessions := []session.Session{p.main}
	for _, c := range p.children {
		if !c.detached && !c.crashed {
			sessions = append(sessions, c.sess)
		}
	}
	live := make(map[proto.TargetSessionID]sessionNetSet, len(sessions))
	for _, s := range sessions {
		if set, ok := p.net.applied[s.ID]; ok {
			live[s.ID] = set
		}
	}
	p.net.applied = live // forget the sessions of frames gone
	p.mu.Unlock()
	for i, s := range sessions {
		if err := p.netApplyLocked(ctx, s); err != nil {
			if i > 0 && session.IsSessionGone(err) {
				continue // a frame that went away meanwhile
			}
			return p.b.wrapErr(ctx, err)
		}
	}
	return nil
}

// netEvent takes the Fetch, Network and navigation events this layer needs
// from any session of the page. It runs on the event router: it never blocks,
// and hands anything that needs a CDP call to a background worker.
func (p *Page) netEvent(s session.Session, m *session.Message) {
	switch {
	case m.Method == "Fetch.requestPaused":
		var e proto.FetchRequestPaused
		if m.Load(&e) {
			p.background(func(ctx context.Context) { p.onRequestPaused(ctx, s, &e) })
		}
	case m.Method == "Fetch.authRequired":
		var e proto.FetchAuthRequired
		if m.Load(&e) {
			p.background(func(ctx context.Context) { p.onAuthRequired(ctx, s, &e) })
		}
	case strings.HasPrefix(m.Method, "Network."):
		p.onNetworkEvent(s, m)
	case strings.HasPrefix(m.Method, "Page."):
		p.trackNavigation(s, m)
	}
}

// onRequestPaused decides one intercepted request: the origin allowlist
// first (no route can let a forbidden document through), then the routes,
// newest first, then the network.
func (p *Page) onRequestPaused(ctx context.Context, s session.Session, e *proto.FetchRequestPaused) {
	bc := s.Bind(ctx)
	if e.ResourceType == proto.NetworkResourceTypeDocument {
		if origin, ok := p.b.cfg.documentAllowed(e.Request.URL); !ok {
			p.blockNavigation(s, e.FrameID, origin)
			_ = proto.FetchFailRequest{RequestID: e.RequestID, ErrorReason: proto.NetworkErrorReasonAborted}.Call(bc)
			return
		}
	}
	hctx, cancel := context.WithTimeout(ctx, routeHandlerMax)
	act := p.routeFor(hctx, s, e)
	cancel()
	err := act.apply(bc, e.RequestID)
	if err != nil {
		p.b.cfg.log.Debug("route action failed", "url", e.Request.URL, "err", err)
		_ = proto.FetchContinueRequest{RequestID: e.RequestID}.Call(bc)
	}
}

// routeHandlerMax is how long route handlers get to decide; the request
// waits that long at most, leaving time to send the decision.
const routeHandlerMax = 8 * time.Second

// onAuthRequired answers an HTTP authentication challenge with the
// configured credentials, once per request: a second challenge means they
// were wrong, and the request is then cancelled rather than retried forever.
func (p *Page) onAuthRequired(ctx context.Context, s session.Session, e *proto.FetchAuthRequired) {
	creds := p.b.cfg.credentials
	// Not ours to answer: cancel, so the page gets the server's 401 (the
	// browser's default is a login prompt, which a headless browser never shows).
	answer := &proto.FetchAuthChallengeResponse{Response: proto.FetchAuthChallengeResponseResponseCancelAuth}
	if creds != nil && creds.applies(e.Request.URL) {
		p.mu.Lock()
		if p.net.authTries == nil || len(p.net.authTries) > 1024 {
			p.net.authTries = map[proto.FetchRequestID]int{}
		}
		p.net.authTries[e.RequestID]++
		tries := p.net.authTries[e.RequestID]
		p.mu.Unlock()
		if tries == 1 {
			answer = &proto.FetchAuthChallengeResponse{Response: proto.FetchAuthChallengeResponseResponseProvideCredentials,
				Username: creds.username, Password: creds.password}
		} else {
			answer = &proto.FetchAuthChallengeResponse{Response: proto.FetchAuthChallengeResponseResponseCancelAuth}
		}
	}
	err := proto.FetchContinueWithAuth{RequestID: e.RequestID, AuthChallengeResponse: answer}.Call(s.Bind(ctx))
	if err != nil {
		p.b.cfg.log.Debug("answering an auth challenge failed", "url", e.Request.URL, "err", err)
	}
}

// routeFor runs the routes matching the request, newest first, until one
// decides; a panicking handler lets the request continue unchanged.
func (p *Page) routeFor(ctx context.Context, s session.Session, e *proto.FetchRequestPaused) RouteAction {
	p.mu.Lock()
	routes := append([]*route(nil), p.net.routes...)
	p.mu.Unlock()
	if len(routes) == 0 {
		return Continue(Override{})
	}
	req := routedRequest(e)
	for i := len(routes) - 1; i >= 0; i-- {
		r := routes[i]
		if !r.match(req.URL) {
			continue
		}
		act := r.call(ctx, p, req)
		if act.kind != actFallback {
			return act
		}
	}
	return Continue(Override{})
}

func routedRequest(e *proto.FetchRequestPaused) RoutedRequest {
	req := RoutedRequest{Method: e.Request.Method, URL: e.Request.URL + e.Request.URLFragment,
		ResourceType: string(e.ResourceType), FrameID: string(e.FrameID), Headers: map[string]string{}}
	for k, v := range e.Request.Headers {
		req.Headers[k] = v.Str()
	}
	if e.Request.HasPostData {
		for _, entry := range e.Request.PostDataEntries {
			req.PostData = append(req.PostData, entry.Bytes...)
		}
	}
	return req
}

// apply sends the route's decision for a paused request.
func (a RouteAction) apply(bc session.Bound, id proto.FetchRequestID) error {
	switch a.kind {
	case actFulfill:
		headers := make([]*proto.FetchHeaderEntry, 0, len(a.fulfil.Headers))
		for k, v := range a.fulfil.Headers {
			headers = append(headers, &proto.FetchHeaderEntry{Name: k, Value: v})
		}
		status := a.fulfil.Status
		if status == 0 {
			status = 200
		}
		body := a.fulfil.Body
		if body == nil {
			body = []byte{}
		}
		return proto.FetchFulfillRequest{RequestID: id, ResponseCode: status, ResponseHeaders: headers, Body: body}.Call(bc)
	case actAbort:
		return proto.FetchFailRequest{RequestID: id, ErrorReason: a.reason}.Call(bc)
	default:
		c := proto.FetchContinueRequest{RequestID: id, URL: a.over.URL, Method: a.over.Method, PostData: a.over.PostData}
		if a.over.Headers != nil {
			for k, v := range a.over.Headers {
				c.Headers = append(c.Headers, &proto.FetchHeaderEntry{Name: k, Value: v})
			}
		}
		return c.Call(bc)
	}
}
