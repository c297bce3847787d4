package rodagent

import (
	"context"
	"fmt"
	"time"

	"github.com/go-rod/rod/lib/proto"

	"github.com/rodagent/rodagent/internal/session"
)

// Request is one request the tab made — from the main frame, an iframe (out
// of process or not) or a worker of theirs — as the network saw it. A
// redirect ends one Request (with the 3xx status) and starts the next, with
// the same ID.
type Request struct {
	ID           string        `json:"id"`
	Method       string        `json:"method"`
	URL          string        `json:"url"`
	ResourceType string        `json:"resource_type"` // Document, Stylesheet, Image, Media, Font, Script, XHR, Fetch, Other, …
	FrameID      string        `json:"frame_id,omitempty"`
	Status       int           `json:"status"` // the HTTP status; 0 before the response, and when it failed
	StatusText   string        `json:"status_text,omitempty"`
	MIMEType     string        `json:"mime_type,omitempty"`
	FromCache    bool          `json:"from_cache,omitempty"`
	Failure      string        `json:"failure,omitempty"` // Chromium's error text (net::ERR_…) when it failed
	Start        time.Time     `json:"start"`             // when it was sent
	Duration     time.Duration `json:"duration"`          // from sending to its last byte or its failure; 0 while in flight
	Done         bool          `json:"done"`              // finished, failed or redirected

	startMono proto.MonotonicTime
}

// netObserver receives the page's requests on its own goroutine, so a slow
// callback never holds up the page's events.
type netObserver struct {
	onRequest  func(Request)
	onResponse func(Request)
	queue      []netNote
	wake       chan struct{}
	stop       chan struct{}
}

type netNote struct {
	r    Request
	done bool
}

// OnRequest calls fn with every request the tab sends from now on, in the
// order they start. fn runs on a goroutine of its own (one per observer), so
// it may take its time; calls stop when stop is called or the page closes.
func (p *Page) OnRequest(ctx context.Context, fn func(Request)) (stop func(), err error) {
	return p.observe(ctx, &netObserver{onRequest: fn})
}

// OnResponse calls fn with every request of the tab that completes from now
// on — finished, failed or redirected — with its status, failure and timing.
// Like OnRequest, fn runs on its own goroutine.
func (p *Page) OnResponse(ctx context.Context, fn func(Request)) (stop func(), err error) {
	return p.observe(ctx, &netObserver{onResponse: fn})
}

// RequestLog records the requests of a tab (see RecordRequests).
type RequestLog struct {
	p    *Page
	stop func()
	list []*Request
	byID map[string]*Request
}

// requestLogMax caps what a RequestLog keeps; the oldest go first.
const requestLogMax = 5000

// RecordRequests starts recording the tab's requests (every frame's): method,
// URL, resource type, status, failure and timing. Read them with Requests;
// Stop ends the recording. The log keeps the latest 5,000.
func (p *Page) RecordRequests(ctx context.Context) (*RequestLog, error) {
	l := &RequestLog{p: p, byID: map[string]*Request{}}
	stop, err := p.observeWith(ctx, &netObserver{}, l)
	if err != nil {
		return nil, err
	}
	l.stop = stop
	return l, nil
}

// Requests returns what the log has recorded so far, in the order the
// requests started; one still in flight has Done false.
func (l *RequestLog) Requests() []Request {
	l.p.mu.Lock()
	defer l.p.mu.Unlock()
	out := make([]Request, 0, len(l.list))
	for _, r := range l.list {
		out = append(out, *r)
	}
	return out
}

// Stop ends the recording; Requests still returns what was recorded.
func (l *RequestLog) Stop() { l.stop() }

// record is called under p.mu for every Network note while the log runs.
func (l *RequestLog) record(r *Request, done bool) {
	cur := l.byID[r.ID]
	if cur == nil || (cur.Done && !done) {
		cp := *r
		l.list = append(l.list, &cp)
		l.byID[r.ID] = &cp
		if len(l.list) > requestLogMax {
			old := l.list[0]
			if l.byID[old.ID] == old {
				delete(l.byID, old.ID)
			}
			l.list = l.list[1:]
		}
		return
	}
	*cur = *r
}

func (p *Page) observe(ctx context.Context, o *netObserver) (func(), error) {
	if o.onRequest == nil && o.onResponse == nil {
		return nil, fmt.Errorf("rodagent: observe requests: nil callback")
	}
	return p.observeWith(ctx, o, nil)
}

func (p *Page) observeWith(ctx context.Context, o *netObserver, log *RequestLog) (func(), error) {
	if err := p.alive(); err != nil {
		return nil, err
	}
	o.wake, o.stop = make(chan struct{}, 1), make(chan struct{})
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil, ErrClosed
	}
	if p.net.observers == nil {
		p.net.observers = map[int]*netObserver{}
	}
	p.net.nextObs++
	id := p.net.nextObs
	p.net.observers[id] = o
	if log != nil {
		p.net.logs = append(p.net.logs, log)
	}
	p.workers.Add(1)
	p.mu.Unlock()
	go p.deliver(o)

	var stopped bool
	stop := func() {
		p.mu.Lock()
		if stopped {
			p.mu.Unlock()
			return
		}
		stopped = true
		delete(p.net.observers, id)
		for i, l := range p.net.logs {
			if l == log {
				p.net.logs = append(p.net.logs[:i:i], p.net.logs[i+1:]...)
				break
			}
		}
		close(o.stop)
		p.mu.Unlock()
		if p.alive() == nil {
			p.background(func(ctx context.Context) { _ = p.netReapply(ctx) })
		}
	}
	if err := p.netReapply(ctx); err != nil {
		stop()
		return nil, err
	}
	return stop, nil
}

// deliver runs an observer's callbacks in order until it stops or the page
// closes (detach wakes every waiter, and then waits for this goroutine).
func (p *Page) deliver(o *netObserver) {
	defer p.workers.Done()
	for {
		p.mu.Lock()
		batch := o.queue
		o.queue = nil
		closed := p.closed
		changed := p.changed
		p.mu.Unlock()
		for _, n := range batch {
			p.safeCall(o, n)
		}
		if closed {
			return
		}
		select {
		case <-o.wake:
		case <-o.stop:
			return
		case <-changed:
		}
	}
}

func (p *Page) safeCall(o *netObserver, n netNote) {
	defer func() {
		if v := recover(); v != nil {
			p.b.cfg.log.Error("request observer panicked", "url", n.r.URL, "panic", fmt.Sprint(v))
		}
	}()
	if n.done && o.onResponse != nil {
		o.onResponse(n.r)
	}
	if !n.done && o.onRequest != nil {
		o.onRequest(n.r)
	}
}

// onNetworkEvent turns Network events into Requests for the observers.
func (p *Page) onNetworkEvent(s session.Session, m *session.Message) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.net.observers) == 0 {
		return
	}
	if p.net.inflight == nil || len(p.net.inflight) > 4096 {
		p.net.inflight = map[netKey]*Request{}
	}
	switch m.Method {
	case "Network.requestWillBeSent":
		var e proto.NetworkRequestWillBeSent
		if !m.Load(&e) {
			return
		}
		k := netKey{e.RequestID}
		if prev := p.net.inflight[k]; prev != nil && e.RedirectResponse != nil {
			prev.Status, prev.StatusText, prev.MIMEType = e.RedirectResponse.Status, e.RedirectResponse.StatusText, e.RedirectResponse.MIMEType
			p.finishLocked(k, prev, e.Timestamp)
		}
		r := &Request{ID: string(e.RequestID), Method: e.Request.Method, URL: e.Request.URL + e.Request.URLFragment,
			ResourceType: string(e.Type), FrameID: string(e.FrameID), Start: e.WallTime.Time(), startMono: e.Timestamp}
		p.net.inflight[k] = r
		p.noteLocked(r, false)
	case "Network.responseReceived":
		var e proto.NetworkResponseReceived
		if !m.Load(&e) || e.Response == nil {
			return
		}
		if r := p.net.inflight[netKey{e.RequestID}]; r != nil {
			r.Status, r.StatusText, r.MIMEType = e.Response.Status, e.Response.StatusText, e.Response.MIMEType
			r.FromCache = e.Response.FromDiskCache || e.Response.FromPrefetchCache
			p.recordLocked(r, false)
		}
	case "Network.loadingFinished":
		var e proto.NetworkLoadingFinished
		if m.Load(&e) {
			k := netKey{e.RequestID}
			if r := p.net.inflight[k]; r != nil {
				p.finishLocked(k, r, e.Timestamp)
			}
		}
	case "Network.loadingFailed":
		var e proto.NetworkLoadingFailed
		if m.Load(&e) {
			k := netKey{e.RequestID}
			if r := p.net.inflight[k]; r != nil {
				r.Failure, r.Status = e.ErrorText, 0
				p.finishLocked(k, r, e.Timestamp)
			}
		}
	}
}

func (p *Page) finishLocked(k netKey, r *Request, at proto.MonotonicTime) {
	r.Done = true
	if at > r.startMono {
		r.Duration = (at - r.startMono).Duration()
	}
	delete(p.net.inflight, k)
	p.noteLocked(r, true)
}

// noteLocked hands a request to every observer and log.
func (p *Page) noteLocked(r *Request, done bool) {
	p.recordLocked(r, done)
	for _, o := range p.net.observers {
		if (done && o.onResponse == nil) || (!done && o.onRequest == nil) {
			continue
		}
		o.queue = append(o.queue, netNote{r: *r, done: done})
		select {
		case o.wake <- struct{}{}:
		default:
		}
	}
}

func (p *Page) recordLocked(r *Request, done bool) {
	for _, l := range p.net.logs {
		l.record(r, done)
	}
}

// SetOffline takes the tab (every frame of it) off the network, or back on:
// requests fail with net::ERR_INTERNET_DISCONNECTED and the page sees
// navigator.onLine false and an "offline" event.
func (p *Page) SetOffline(ctx context.Context, offline bool) error {
	if err := p.alive(); err != nil {
		return err
	}
	p.mu.Lock()
	p.net.offline = offline
	p.mu.Unlock()
	return p.netReapply(ctx)
}

// httpCredentials answer HTTP authentication challenges (see WithHTTPCredentials).
type httpCredentials struct {
	username, password string
	origins            []string
}

func (c *httpCredentials) applies(rawURL string) bool {
	if len(c.origins) == 0 {
		return true
	}
	return originListed(c.origins, originOf(rawURL))
}

// WithHTTPCredentials answers HTTP authentication challenges (Basic, Digest,
// NTLM) with username and password — only those from the given origins when
// any are given, else from any server that asks. A challenge the credentials
// do not satisfy fails the request (status 401) instead of retrying forever.
// Turning this on intercepts every request (one round trip each).
func WithHTTPCredentials(username, password string, origins ...string) Option {
	return func(c *config) {
		c.credentials = &httpCredentials{username: username, password: password, origins: origins}
	}
}

// WithExtraHeaders adds HTTP headers to every request of every tab — every
// frame, out-of-process ones included — such as an API token or a test
// marker. Later calls add to (and override) earlier ones.
func WithExtraHeaders(headers map[string]string) Option {
	return func(c *config) {
		if c.extraHeaders == nil {
			c.extraHeaders = map[string]string{}
		}
		for k, v := range headers {
			c.extraHeaders[k] = v
		}
	}
}
