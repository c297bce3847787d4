package rodagent

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/go-rod/rod/lib/proto"
)

// ErrBadPattern: a route's URL pattern could not be compiled.
var ErrBadPattern = errors.New("rodagent: bad URL pattern")

// RoutedRequest is a request a route intercepted, before it was sent.
type RoutedRequest struct {
	Method       string            `json:"method"`
	URL          string            `json:"url"`
	ResourceType string            `json:"resource_type"` // Document, Stylesheet, Image, Script, XHR, Fetch, …
	FrameID      string            `json:"frame_id"`      // the frame that made it
	Headers      map[string]string `json:"headers"`
	PostData     []byte            `json:"post_data,omitempty"`
}

// RouteHandler decides what happens to a request a route matched. It runs on
// its own goroutine, while the request waits; ctx ends when the decision is
// overdue (10 s), and the request then continues unchanged.
type RouteHandler func(ctx context.Context, req RoutedRequest) RouteAction

// Fulfillment is a response a route makes up: the request never reaches the
// network. Status 0 means 200; a nil Headers sends none (set Content-Type).
type Fulfillment struct {
	Status  int
	Headers map[string]string
	Body    []byte
}

// Override changes a request before it goes on to the network. Empty fields
// keep the request's own; Headers, when not nil, replaces all its headers.
// The change is invisible to the page (its URL stays the one it asked for).
type Override struct {
	URL      string
	Method   string
	Headers  map[string]string
	PostData []byte
}

// RouteAction is a route's decision: Fulfill, Continue, Abort or Fallback.
type RouteAction struct {
	kind   routeKind
	fulfil Fulfillment
	over   Override
	reason proto.NetworkErrorReason
}

type routeKind int

const (
	actContinue routeKind = iota
	actFulfill
	actAbort
	actFallback
)

// Fulfill answers the request with f.
func Fulfill(f Fulfillment) RouteAction { return RouteAction{kind: actFulfill, fulfil: f} }

// Continue sends the request on, changed by o (a zero Override: unchanged).
func Continue(o Override) RouteAction { return RouteAction{kind: actContinue, over: o} }

// Fallback passes the request to the next older route that matches it, or to
// the network when none does.
func Fallback() RouteAction { return RouteAction{kind: actFallback} }

// Abort fails the request as the network would. reason is one of "failed",
// "aborted", "timedout", "accessdenied", "connectionclosed",
// "connectionreset", "connectionrefused", "connectionaborted",
// "connectionfailed", "namenotresolved", "internetdisconnected",
// "addressunreachable", "blockedbyclient", "blockedbyresponse" (any case);
// anything else, "" included, is "failed".
func Abort(reason string) RouteAction {
	r := proto.NetworkErrorReasonFailed
	for _, known := range abortReasons {
		if strings.EqualFold(string(known), reason) {
			r = known
		}
	}
	return RouteAction{kind: actAbort, reason: r}
}

var abortReasons = []proto.NetworkErrorReason{
	proto.NetworkErrorReasonFailed, proto.NetworkErrorReasonAborted, proto.NetworkErrorReasonTimedOut,
	proto.NetworkErrorReasonAccessDenied, proto.NetworkErrorReasonConnectionClosed, proto.NetworkErrorReasonConnectionReset,
	proto.NetworkErrorReasonConnectionRefused, proto.NetworkErrorReasonConnectionAborted, proto.NetworkErrorReasonConnectionFailed,
	proto.NetworkErrorReasonNameNotResolved, proto.NetworkErrorReasonInternetDisconnected,
	proto.NetworkErrorReasonAddressUnreachable, proto.NetworkErrorReasonBlockedByClient, proto.NetworkErrorReasonBlockedByResponse,
}

type route struct {
	re      *regexp.Regexp
	handler RouteHandler
}

func (r *route) match(u string) bool { return r.re.MatchString(u) }

// call runs the handler; a panic in it is the handler's bug, not the
// page's: it is logged and the request continues.
func (r *route) call(ctx context.Context, p *Page, req RoutedRequest) (act RouteAction) {
	defer func() {
		if v := recover(); v != nil {
			p.b.cfg.log.Error("route handler panicked", "url", req.URL, "panic", fmt.Sprint(v))
			act = Continue(Override{})
		}
	}()
	return r.handler(ctx, req)
}

// Route intercepts every request of the tab whose URL matches pattern — in
// the main frame, in every iframe (out-of-process ones included) — before it
// is sent, and lets handler fulfil, change, abort or pass it on. The newest
// matching route decides first. The returned unroute removes the route.
//
// pattern is a glob over the whole URL (query included): "*" matches any run
// of characters except "/", "**" any run at all, "?" one character except
// "/", "{a,b}" either alternative; every other character is literal. So
// "**/api/*" matches "http://host/api/users" but not
// "http://host/api/users/1", and "**/*.{png,jpg}" matches images. Use
// RouteRegexp for anything a glob cannot say.
//
// An origin allowlist (WithAllowedOrigins) is checked before any route: a
// route cannot let a forbidden document load.
func (p *Page) Route(ctx context.Context, pattern string, handler RouteHandler) (unroute func(), err error) {
	re, err := globRegexp(pattern)
	if err != nil {
		return nil, err
	}
	return p.RouteRegexp(ctx, re, handler)
}

// RouteRegexp is Route with a regular expression, matched anywhere in the
// URL unless anchored.
func (p *Page) RouteRegexp(ctx context.Context, re *regexp.Regexp, handler RouteHandler) (unroute func(), err error) {
	if re == nil || handler == nil {
		return nil, fmt.Errorf("%w: a route needs a pattern and a handler", ErrBadPattern)
	}
	if err := p.alive(); err != nil {
		return nil, err
	}
	r := &route{re: re, handler: handler}
	p.mu.Lock()
	p.net.routes = append(p.net.routes, r)
	p.mu.Unlock()
	remove := func() {
		p.mu.Lock()
		for i, x := range p.net.routes {
			if x == r {
				p.net.routes = append(p.net.routes[:i:i], p.net.routes[i+1:]...)
				break
			}
		}
		p.mu.Unlock()
	}
	if err := p.netReapply(ctx); err != nil {
		remove()
		return nil, err
	}
	return func() {
		remove()
		if p.alive() == nil {
			p.background(func(ctx context.Context) { _ = p.netReapply(ctx) })
		}
	}, nil
}

// globRegexp compiles a route glob (see Route) to an anchored regexp.
func globRegexp(glob string) (*regexp.Regexp, error) {
	if glob == "" {
		return nil, fmt.Errorf("%w: empty pattern", ErrBadPattern)
	}
	var b strings.Builder
	b.WriteString("^")
	inGroup := false
	for i := 0; i < len(glob); i++ {
		c := glob[i]
		switch {
		case c == '*' && i+1 < len(glob) && glob[i+1] == '*':
			b.WriteString(".*")
			i++
		case c == '*':
			b.WriteString("[^/]*")
		case c == '?':
			b.WriteString("[^/]")
		case c == '{' && !inGroup:
			inGroup = true
			b.WriteString("(?:")
		case c == '}' && inGroup:
			inGroup = false
			b.WriteString(")")
		case c == ',' && inGroup:
			b.WriteString("|")
		case c == '{' || c == '}':
			return nil, fmt.Errorf("%w: %q: unbalanced braces", ErrBadPattern, glob)
		default:
			b.WriteString(regexp.QuoteMeta(glob[i : i+1]))
		}
	}
	if inGroup {
		return nil, fmt.Errorf("%w: %q: unclosed {", ErrBadPattern, glob)
	}
	b.WriteString("$")
	return regexp.Compile(b.String())
}
