// Package server is rodagent's browser control API over HTTP: one long-lived
// Browser behind a small, stable contract for agents that are not Go programs
// (what `rodagent serve` runs).
//
//	GET  /                       status
//	POST /start, POST /stop      launch or close the browser
//	GET  /tabs                   tabs: id and origin
//	POST /tabs/open {url}        new tab, becomes current
//	POST /tabs/focus {targetId}  bring a tab to the front, becomes current
//	DELETE /tabs/{id}            close a tab
//	POST /navigate {url, targetId?}
//	POST /act {kind, targetId?, ref?, …}   click, type, press, hover, drag, select, fill, wait, resize,
//	                                       close, evaluate, check, uncheck, upload, download
//	POST /screenshot {targetId?, fullPage?, ref?, annotate?}
//	GET  /snapshot ?format=ai|aria&targetId&limit&full
//	GET  /console ?level&targetId
//	POST /pdf {targetId?}
//	POST /hooks/file-chooser {targetId?, paths, timeoutMs?}
//	POST /hooks/dialog {targetId?, accept, promptText?, timeoutMs?}
//
// Every request carries "Authorization: Bearer <token>". A target (ref,
// startRef, endRef) is a snapshot ref such as btn-sign-in, or a locator's text
// form such as role=button[name="Save"]. Answers are JSON: {"ok":true,
// "status":"ready", …} with what moved after an action, or {"ok":false,
// "status":"<code>", "error", "next"} where the code is an action status
// (obscured, not_found, …) or one of the few codes of the API itself
// (unauthorized, bad_request, body_too_large, …). The routes are a thin layer
// over the library: what they do, the library does.
package server

import (
	"bytes"
	"context"
	"crypto/subtle"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/rodagent/rodagent"
)

// DefaultMaxBody is the default cap on a request body, in bytes.
const DefaultMaxBody = 1 << 20

// DefaultTimeout bounds a request that gives no timeoutMs.
const DefaultTimeout = 60 * time.Second

// Server is the HTTP handler of the control API over one browser. It launches
// the browser on the first request that needs one (or POST /start).
type Server struct {
	token    string
	maxBody  int64
	eval     bool
	download string // where kind=download saves files; "" turns it off
	launch   func(ctx context.Context) (*rodagent.Browser, error)
	browser  []rodagent.Option
	onStop   func()
	log      *slog.Logger
	mux      *http.ServeMux
	startMu  sync.Mutex // one launch at a time
	mu       sync.Mutex // guards b and current
	b        *rodagent.Browser
	current  string
	launched time.Time
}

// Option configures New.
type Option func(*Server)

// WithBrowserOptions sets the options the browser is launched with: the
// library's own safety options apply as they are (WithAllowedOrigins,
// WithUploadDirs, WithApprover, …).
func WithBrowserOptions(opts ...rodagent.Option) Option {
	return func(s *Server) { s.browser = append(s.browser, opts...) }
}

// WithLauncher replaces how the server gets its browser (by default
// rodagent.Launch with the browser options): Connect to a running one, or a
// NewContext of a browser the caller owns. The server closes what it returns.
func WithLauncher(launch func(ctx context.Context) (*rodagent.Browser, error)) Option {
	return func(s *Server) { s.launch = launch }
}

// WithEval enables POST /act kind=evaluate (off by default: it runs any
// script the client sends in the page).
func WithEval(on bool) Option { return func(s *Server) { s.eval = on } }

// WithDownloadDir enables POST /act kind=download, which clicks its target
// and saves the file the click downloads into dir (created if missing),
// under the name the site gave it. Off by default: the browser refuses every
// download, and the snapshot after a click that started one says so.
func WithDownloadDir(dir string) Option { return func(s *Server) { s.download = dir } }

// WithMaxBody caps request bodies at n bytes (DefaultMaxBody by default).
func WithMaxBody(n int64) Option { return func(s *Server) { s.maxBody = n } }

// WithOnStop sets a function called after POST /stop has closed the browser
// and its answer is written (`rodagent serve --exit-on-stop` ends the process there).
func WithOnStop(f func()) Option { return func(s *Server) { s.onStop = f } }

// WithLogger sends the server's logs to l; by default it is silent.
func WithLogger(l *slog.Logger) Option { return func(s *Server) { s.log = l } }

// ErrNoToken is returned by New without a token: the API never runs open.
var ErrNoToken = errors.New("server: a bearer token is required")

// New returns the control API guarded by token.
func New(token string, opts ...Option) (*Server, error) {
	if token == "" {
		return nil, ErrNoToken
	}
	s := &Server{token: token, maxBody: DefaultMaxBody, log: slog.New(slog.DiscardHandler)}
	for _, o := range opts {
		o(s)
	}
	if s.launch == nil {
		s.launch = func(ctx context.Context) (*rodagent.Browser, error) { return rodagent.Launch(ctx, s.browser...) }
	}
	m := http.NewServeMux()
	m.HandleFunc("GET /{$}", s.status)
	m.HandleFunc("POST /start", s.start)
	m.HandleFunc("POST /stop", s.stop)
	m.HandleFunc("GET /tabs", s.tabs)
	m.HandleFunc("POST /tabs/open", s.tabOpen)
	m.HandleFunc("POST /tabs/focus", s.tabFocus)
	m.HandleFunc("DELETE /tabs/{id}", s.tabClose)
	m.HandleFunc("POST /navigate", s.navigate)
	m.HandleFunc("POST /act", s.act)
	m.HandleFunc("POST /screenshot", s.screenshot)
	m.HandleFunc("GET /snapshot", s.snapshot)
	m.HandleFunc("GET /console", s.console)
	m.HandleFunc("POST /pdf", s.pdf)
	m.HandleFunc("POST /hooks/file-chooser", s.armFileChooser)
	m.HandleFunc("POST /hooks/dialog", s.armDialog)
	m.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		fail(w, &apiError{code: "no_such_route", http: http.StatusNotFound, msg: r.Method + " " + r.URL.Path + " is not part of the API"})
	})
	s.mux = m
	return s, nil
}

// ServeHTTP checks the token, caps the body and routes the request.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	// A browser page can reach a loopback port; it always sends Origin on
	// the requests that could do harm, and no client of this API needs CORS.
	if r.Header.Get("Origin") != "" {
		fail(w, &apiError{code: "not_allowed", http: http.StatusForbidden, msg: "cross-origin requests are refused (CORS is off)"})
		return
	}
	got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if !ok || subtle.ConstantTimeCompare([]byte(got), []byte(s.token)) != 1 {
		fail(w, &apiError{code: "unauthorized", http: http.StatusUnauthorized, msg: "missing or wrong bearer token"})
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, s.maxBody)
	s.mux.ServeHTTP(w, r)
}

// Close closes the browser, if one runs.
func (s *Server) Close() error {
	s.startMu.Lock()
	defer s.startMu.Unlock()
	s.mu.Lock()
	b := s.b
	s.b, s.current = nil, ""
	s.mu.Unlock()
	if b == nil {
		return nil
	}
	return b.Close()
}

// apiError is a failure of the API itself (not of an action): a stable code
// and the HTTP status that goes with it.
type apiError struct {
	code string
	http int
	msg  string
}

func (e *apiError) Error() string { return e.msg }

func badRequest(format string, a ...any) error {
	return &apiError{code: "bad_request", http: http.StatusBadRequest, msg: fmt.Sprintf(format, a...)}
}

// failure is the JSON body of every error answer.
type failure struct {
	OK         bool     `json:"ok"`
	Status     string   `json:"status"`
	Error      string   `json:"error"`
	Next       string   `json:"next,omitempty"`
	Detail     string   `json:"detail,omitempty"`
	Candidates []string `json:"candidates,omitempty"`
}

// classify maps an error to its stable code, HTTP status and next move.
func classify(err error) (code string, status int, next string) {
	var ae *rodagent.ActionError
	var api *apiError
	var nav *rodagent.NavigationError
	var le *rodagent.LocatorError
	var mbe *http.MaxBytesError
	var ee *rodagent.EvalError
	switch {
	case errors.As(err, &api):
		return api.code, api.http, ""
	case errors.As(err, &mbe):
		return "body_too_large", http.StatusRequestEntityTooLarge, "send a smaller request"
	case errors.As(err, &ae):
		switch {
		case ae.Status == rodagent.NoSuchTab:
			return string(ae.Status), http.StatusNotFound, ae.Next
		case ae.Status == rodagent.Timeout:
			return string(ae.Status), http.StatusGatewayTimeout, ae.Next
		case errors.Is(err, rodagent.ErrNotAllowed):
			return string(ae.Status), http.StatusForbidden, ae.Next
		}
		return string(ae.Status), http.StatusConflict, ae.Next
	case errors.Is(err, rodagent.ErrNotAllowed):
		return "not_allowed", http.StatusForbidden, "the server's policy refuses this; ask its operator"
	case errors.As(err, &le):
		return "bad_locator", http.StatusBadRequest, `write a ref from the snapshot or a locator such as role=button[name="Save"]`
	case errors.As(err, &nav):
		return "navigation_failed", http.StatusBadGateway, "check the URL, or try again"
	case errors.Is(err, rodagent.ErrBadOption):
		return "bad_request", http.StatusBadRequest, "fix the request's options"
	case errors.As(err, &ee):
		return "eval_error", http.StatusUnprocessableEntity, "fix the script"
	case errors.Is(err, rodagent.ErrPageCrashed):
		return "page_crashed", http.StatusConflict, "navigate the tab again"
	case errors.Is(err, rodagent.ErrBrowserGone), errors.Is(err, rodagent.ErrClosed):
		return "browser_gone", http.StatusServiceUnavailable, "POST /start"
	case errors.Is(err, rodagent.ErrNoBrowser):
		return "no_browser", http.StatusServiceUnavailable, "install Chromium"
	case errors.Is(err, context.DeadlineExceeded):
		return string(rodagent.Timeout), http.StatusGatewayTimeout, "snapshot to see the page, then retry"
	}
	return "error", http.StatusInternalServerError, ""
}

func fail(w http.ResponseWriter, err error) {
	code, status, next := classify(err)
	f := failure{Status: code, Error: err.Error(), Next: next}
	var ae *rodagent.ActionError
	if errors.As(err, &ae) {
		f.Detail = ae.Detail
		for _, c := range ae.Candidates {
			f.Candidates = append(f.Candidates, c.String())
		}
	}
	write(w, status, f)
}

func write(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
}

// decode reads a JSON body into v, strictly: exactly one JSON object (or no
// body: every field keeps its zero value), whose keys are v's JSON names
// spelt exactly and given once. Unknown fields are an error so a misspelt
// field never silently does nothing; a second object, trailing bytes, a key
// in another case (which encoding/json would take) or a key given twice
// (the last would win) are errors so the request means one thing.
func decode(r *http.Request, v any) error {
	raw, err := io.ReadAll(r.Body)
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return err
		}
		return badRequest("request body: %v", err)
	}
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return nil
	}
	if raw[0] != '{' {
		return badRequest("request body: must be one JSON object")
	}
	if err := exactKeys(raw, v); err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return badRequest("request body: %v", err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return badRequest("request body: must be exactly one JSON object, with nothing after it")
	}
	return nil
}

// exactKeys checks the top-level keys of the object raw against the JSON
// names of the struct v points to.
func exactKeys(raw []byte, v any) error {
	names := map[string]bool{}
	if t := reflect.TypeOf(v); t.Kind() == reflect.Pointer && t.Elem().Kind() == reflect.Struct {
		for i := range t.Elem().NumField() {
			name, _, _ := strings.Cut(t.Elem().Field(i).Tag.Get("json"), ",")
			names[name] = true
		}
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if _, err := dec.Token(); err != nil {
		return badRequest("request body: %v", err)
	}
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		key, ok := tok.(string)
		if err != nil || !ok {
			return badRequest("request body: not a valid JSON object")
		}
		if !names[key] {
			if len(key) > 100 {
				key = key[:100] + "…"
			}
			return badRequest("request body: unknown field %q (names are spelt as documented, case included)", key)
		}
		if seen[key] {
			return badRequest("request body: field %q is given twice", key)
		}
		seen[key] = true
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return badRequest("request body: %v", err)
		}
	}
	return nil
}

// reqCtx bounds a request by its timeoutMs, else DefaultTimeout.
func reqCtx(r *http.Request, timeoutMs int) (context.Context, context.CancelFunc) {
	d := DefaultTimeout
	if timeoutMs > 0 {
		d = time.Duration(timeoutMs) * time.Millisecond
	}
	return context.WithTimeout(r.Context(), d)
}

// browserFor returns the running browser, launching it when none runs.
func (s *Server) browserFor(ctx context.Context) (*rodagent.Browser, error) {
	s.startMu.Lock()
	defer s.startMu.Unlock()
	s.mu.Lock()
	b := s.b
	s.mu.Unlock()
	if b != nil {
		return b, nil
	}
	b, err := s.launch(ctx)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	s.b, s.launched = b, time.Now()
	s.mu.Unlock()
	s.log.Info("browser started")
	return b, nil
}

// page returns the tab a request names, else the current tab, else a new
// blank one that becomes current.
func (s *Server) page(ctx context.Context, targetID string) (*rodagent.Page, error) {
	b, err := s.browserFor(ctx)
	if err != nil {
		return nil, err
	}
	if targetID != "" {
		return b.Page(ctx, targetID)
	}
	s.mu.Lock()
	cur := s.current
	s.mu.Unlock()
	if cur != "" {
		p, err := b.Page(ctx, cur)
		if !errors.Is(err, rodagent.ErrNoSuchTab) {
			return p, s.dropIfGone(b, err)
		}
	}
	p, err := b.NewPage(ctx, "")
	if err != nil {
		return nil, s.dropIfGone(b, err)
	}
	s.setCurrent(p.ID())
	return p, nil
}

// dropIfGone forgets a browser whose connection broke, so the next request
// launches a fresh one.
func (s *Server) dropIfGone(b *rodagent.Browser, err error) error {
	if errors.Is(err, rodagent.ErrBrowserGone) {
		s.mu.Lock()
		if s.b == b {
			s.b, s.current = nil, ""
		}
		s.mu.Unlock()
		_ = b.Close()
	}
	return err
}

func (s *Server) setCurrent(id string) {
	s.mu.Lock()
	s.current = id
	s.mu.Unlock()
}

type statusAnswer struct {
	OK      bool   `json:"ok"`
	Running bool   `json:"running"`
	Current string `json:"targetId,omitempty"`
	Tabs    int    `json:"tabs"`
	Uptime  int64  `json:"uptimeMs,omitempty"`
	Eval    bool   `json:"evaluate"`
	MaxBody int64  `json:"maxBody"`
}

func (s *Server) status(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	b, cur, since := s.b, s.current, s.launched
	s.mu.Unlock()
	a := statusAnswer{OK: true, Running: b != nil, Current: cur, Eval: s.eval, MaxBody: s.maxBody}
	if b != nil {
		a.Uptime = time.Since(since).Milliseconds()
		ctx, cancel := reqCtx(r, 0)
		defer cancel()
		if tabs, err := b.Tabs(ctx); err == nil {
			a.Tabs = len(tabs)
		} else {
			a.Running = s.dropIfGone(b, err) == nil
		}
	}
	write(w, http.StatusOK, a)
}

func (s *Server) start(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := reqCtx(r, 0)
	defer cancel()
	if _, err := s.browserFor(ctx); err != nil {
		fail(w, err)
		return
	}
	s.status(w, r)
}

func (s *Server) stop(w http.ResponseWriter, r *http.Request) {
	if err := s.Close(); err != nil {
		fail(w, err)
		return
	}
	write(w, http.StatusOK, map[string]any{"ok": true, "running": false})
	if s.onStop != nil {
		if f, ok := w.(http.Flusher); ok {
			f.Flush()
		}
		s.onStop()
	}
}

type tabAnswer struct {
	ID      string `json:"targetId"`
	Origin  string `json:"origin"`
	Current bool   `json:"current,omitempty"`
}

func (s *Server) tabs(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := reqCtx(r, 0)
	defer cancel()
	b, err := s.browserFor(ctx)
	if err != nil {
		fail(w, err)
		return
	}
	tabs, err := b.Tabs(ctx)
	if err != nil {
		fail(w, s.dropIfGone(b, err))
		return
	}
	s.mu.Lock()
	cur := s.current
	s.mu.Unlock()
	out := []tabAnswer{}
	for _, t := range tabs {
		out = append(out, tabAnswer{ID: t.ID, Origin: t.Origin, Current: t.ID == cur})
	}
	write(w, http.StatusOK, map[string]any{"ok": true, "tabs": out})
}

type tabRequest struct {
	URL      string `json:"url,omitempty"`
	TargetID string `json:"targetId,omitempty"`
}

func (s *Server) tabOpen(w http.ResponseWriter, r *http.Request) {
	var in tabRequest
	if err := decode(r, &in); err != nil {
		fail(w, err)
		return
	}
	ctx, cancel := reqCtx(r, 0)
	defer cancel()
	b, err := s.browserFor(ctx)
	if err != nil {
		fail(w, err)
		return
	}
	p, err := b.NewPage(ctx, in.URL)
	if err != nil {
		fail(w, s.dropIfGone(b, err))
		return
	}
	s.setCurrent(p.ID())
	write(w, http.StatusOK, map[string]any{"ok": true, "status": rodagent.Ready, "targetId": p.ID(), "url": p.URL()})
}

func (s *Server) tabFocus(w http.ResponseWriter, r *http.Request) {
	var in tabRequest
	if err := decode(r, &in); err != nil {
		fail(w, err)
		return
	}
	if in.TargetID == "" {
		fail(w, badRequest("tabs/focus needs targetId"))
		return
	}
	ctx, cancel := reqCtx(r, 0)
	defer cancel()
	p, err := s.page(ctx, in.TargetID)
	if err == nil {
		err = p.Activate(ctx)
	}
	if err != nil {
		fail(w, err)
		return
	}
	s.setCurrent(p.ID())
	write(w, http.StatusOK, map[string]any{"ok": true, "status": rodagent.Ready, "targetId": p.ID(), "url": p.URL()})
}

func (s *Server) tabClose(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := reqCtx(r, 0)
	defer cancel()
	s.closeTab(ctx, w, r.PathValue("id"))
}

func (s *Server) closeTab(ctx context.Context, w http.ResponseWriter, id string) {
	p, err := s.page(ctx, id)
	if err == nil {
		err = s.approve(ctx, p, rodagent.Action{Verb: "close", Target: p.ID()})
	}
	if err == nil {
		err = p.Close()
	}
	if err != nil {
		fail(w, err)
		return
	}
	s.mu.Lock()
	if s.current == p.ID() {
		s.current = ""
	}
	s.mu.Unlock()
	write(w, http.StatusOK, map[string]any{"ok": true, "status": rodagent.Ready, "targetId": p.ID()})
}

func (s *Server) navigate(w http.ResponseWriter, r *http.Request) {
	var in struct {
		URL       string `json:"url"`
		TargetID  string `json:"targetId,omitempty"`
		TimeoutMs int    `json:"timeoutMs,omitempty"`
	}
	if err := decode(r, &in); err != nil {
		fail(w, err)
		return
	}
	if in.URL == "" {
		fail(w, badRequest("navigate needs url"))
		return
	}
	ctx, cancel := reqCtx(r, in.TimeoutMs)
	defer cancel()
	p, err := s.page(ctx, in.TargetID)
	if err == nil {
		err = p.Open(ctx, in.URL)
	}
	if err != nil {
		fail(w, err)
		return
	}
	write(w, http.StatusOK, map[string]any{"ok": true, "status": rodagent.Ready, "targetId": p.ID(), "url": p.URL()})
}

// actRequest is the body of POST /act; which fields count depends on kind.
type actRequest struct {
	Kind      string      `json:"kind"`
	TargetID  string      `json:"targetId,omitempty"`
	Ref       string      `json:"ref,omitempty"`      // the target: a ref, or a locator's text form
	Text      string      `json:"text,omitempty"`     // type, fill; wait: text to appear
	Submit    bool        `json:"submit,omitempty"`   // type: press Enter after
	Key       string      `json:"key,omitempty"`      // press
	Values    []string    `json:"values,omitempty"`   // select
	StartRef  string      `json:"startRef,omitempty"` // drag
	EndRef    string      `json:"endRef,omitempty"`   // drag
	Fields    []fillField `json:"fields,omitempty"`   // fill: several fields in one call
	Paths     []string    `json:"paths,omitempty"`    // upload
	Width     int         `json:"width,omitempty"`    // resize
	Height    int         `json:"height,omitempty"`   // resize
	Scale     float64     `json:"scale,omitempty"`    // resize: device scale factor
	Fn        string      `json:"fn,omitempty"`       // evaluate: a function expression, or a plain expression
	Args      []any       `json:"args,omitempty"`     // evaluate
	Gone      bool        `json:"gone,omitempty"`     // wait: for the target (or text) to go
	URL       string      `json:"url,omitempty"`      // wait: the URL to match
	Load      string      `json:"load,omitempty"`     // wait: "load" or "networkidle"
	Double    bool        `json:"doubleClick,omitempty"`
	Button    string      `json:"button,omitempty"` // click: "left" (the default) or "right", for the page's context menu
	TimeoutMs int         `json:"timeoutMs,omitempty"`
}

// fillField is one field of a fill: a target and its new content.
type fillField struct {
	Ref  string `json:"ref"`
	Text string `json:"text"`
}

// actAnswer is the body of a successful action: its status, where the tab is
// now, and what moved (the snapshot text and its structured delta).
type actAnswer struct {
	OK       bool                  `json:"ok"`
	Status   rodagent.ActionStatus `json:"status"`
	Kind     string                `json:"kind"`
	TargetID string                `json:"targetId"`
	URL      string                `json:"url"`
	Moved    bool                  `json:"navigated"` // the action started a navigation of the tab
	Result   any                   `json:"result,omitempty"`
	Delta    *rodagent.Delta       `json:"delta,omitempty"`
	Text     string                `json:"snapshot,omitempty"`
	Dialogs  []rodagent.Dialog     `json:"dialogs,omitempty"`
	SnapErr  string                `json:"snapshotError,omitempty"`
}

func (s *Server) act(w http.ResponseWriter, r *http.Request) {
	var in actRequest
	if err := decode(r, &in); err != nil {
		fail(w, err)
		return
	}
	ctx, cancel := reqCtx(r, in.TimeoutMs)
	defer cancel()
	if in.Kind == "evaluate" && !s.eval {
		fail(w, &apiError{code: "not_allowed", http: http.StatusForbidden, msg: "evaluate is off on this server (rodagent serve --allow-eval turns it on)"})
		return
	}
	if in.Kind == "download" && s.download == "" {
		fail(w, &apiError{code: "not_allowed", http: http.StatusForbidden, msg: "download is off on this server (rodagent serve --download-dir DIR turns it on)"})
		return
	}
	p, err := s.page(ctx, in.TargetID)
	if err != nil {
		fail(w, err)
		return
	}
	if in.Kind == "close" {
		s.closeTab(ctx, w, p.ID())
		return
	}
	st, result, err := s.do(ctx, p, &in)
	if err != nil {
		fail(w, err)
		return
	}
	if st == "" {
		st = rodagent.Ready
	}
	a := actAnswer{OK: true, Status: st, Kind: in.Kind, TargetID: p.ID(), Result: result}
	switch in.Kind {
	case "wait", "resize", "evaluate":
	default: // download included: its click may navigate
		a.Moved = p.LastAction().Navigated
	}
	if snap, err := p.Snapshot(ctx); err != nil {
		a.SnapErr = err.Error()
	} else {
		a.Delta, a.Text, a.Dialogs = snap.Delta, snap.String(), snap.Dialogs
	}
	a.URL = p.URL()
	write(w, http.StatusOK, a)
}

// target is an action's target: a ref, or a locator when the text has the
// locator form (refs never contain "=").
func target(p *rodagent.Page, t string) (*rodagent.Located, error) {
	if !strings.Contains(t, "=") {
		return nil, nil
	}
	l, err := rodagent.ParseLocator(t)
	if err != nil {
		return nil, err
	}
	return p.Locate(l), nil
}

// do runs one action kind; the result is what evaluate returned.
func (s *Server) do(ctx context.Context, p *rodagent.Page, in *actRequest) (rodagent.ActionStatus, any, error) {
	switch in.Kind {
	case "press":
		if in.Key == "" {
			return "", nil, badRequest("press needs key")
		}
		st, err := p.Press(ctx, in.Key)
		return st, nil, err
	case "drag":
		st, err := drag(ctx, p, in.StartRef, in.EndRef)
		return st, nil, err
	case "fill":
		st, err := fill(ctx, p, in)
		return st, nil, err
	case "wait":
		return "", nil, wait(ctx, p, in)
	case "resize":
		if in.Width <= 0 || in.Height <= 0 {
			return "", nil, badRequest("resize needs width and height")
		}
		return "", nil, p.SetViewport(ctx, in.Width, in.Height, in.Scale)
	case "evaluate":
		if in.Fn == "" {
			return "", nil, badRequest("evaluate needs fn")
		}
		v, err := p.Eval(ctx, in.Fn, in.Args...)
		return "", v, err
	case "download":
		return s.downloadFile(ctx, p, in)
	}
	return doTarget(ctx, p, in)
}

// downloadWait bounds how long kind=download waits, from its click, for the
// file to be saved: a click that started no download must not hold the
// request for the rest of its deadline.
var downloadWait = 60 * time.Second

// savedFile is kind=download's result.
type savedFile struct {
	Name string `json:"name"` // the file's name in the download directory
	Path string `json:"path"`
	Size int64  `json:"size"` // bytes
}

// downloadFile clicks the target inside WaitDownload, so the file the click
// starts is saved into the server's download directory.
func (s *Server) downloadFile(ctx context.Context, p *rodagent.Page, in *actRequest) (rodagent.ActionStatus, any, error) {
	if in.Ref == "" {
		return "", nil, badRequest("download needs ref (a ref from the snapshot, or a locator)")
	}
	loc, err := target(p, in.Ref)
	if err != nil {
		return "", nil, err
	}
	wctx, cancel := context.WithTimeout(ctx, downloadWait)
	defer cancel()
	var st rodagent.ActionStatus
	clicked := false
	dl, err := p.WaitDownload(wctx, s.download, func(ctx context.Context) error {
		var err error
		if loc != nil {
			st, err = loc.Click(ctx)
		} else {
			st, err = p.Click(ctx, in.Ref)
		}
		clicked = err == nil
		return err
	})
	if err != nil {
		if clicked && ctx.Err() == nil && wctx.Err() != nil {
			return "", nil, &rodagent.ActionError{Action: "download", Ref: in.Ref, Status: rodagent.Timeout,
				Detail: fmt.Sprintf("the click reported %s, but no file was saved within %s of it: the page started no download, or it is still going", st, downloadWait),
				Next:   "snapshot to see what the click did", Err: wctx.Err()}
		}
		return "", nil, err
	}
	return st, savedFile{Name: filepath.Base(dl.Path), Path: dl.Path, Size: dl.Size}, nil
}

// doTarget runs the kinds that act on one target, by ref or by locator.
func doTarget(ctx context.Context, p *rodagent.Page, in *actRequest) (rodagent.ActionStatus, any, error) {
	if in.Ref == "" {
		if !knownKind(in.Kind) {
			return "", nil, badRequest("unknown kind %q (click, type, press, hover, drag, select, fill, wait, resize, close, evaluate, check, uncheck, upload, download)", in.Kind)
		}
		return "", nil, badRequest("%s needs ref (a ref from the snapshot, or a locator)", in.Kind)
	}
	loc, err := target(p, in.Ref)
	if err != nil {
		return "", nil, err
	}
	var st rodagent.ActionStatus
	switch in.Kind {
	case "click":
		switch {
		case in.Button != "" && in.Button != "left" && in.Button != "right":
			return "", nil, badRequest("button must be left or right, not %q", in.Button)
		case in.Button == "right" && in.Double:
			return "", nil, badRequest("a right click cannot be double")
		case loc != nil && in.Button == "right":
			st, err = loc.RightClick(ctx)
		case in.Button == "right":
			st, err = p.RightClick(ctx, in.Ref)
		case loc != nil && in.Double:
			st, err = loc.DblClick(ctx)
		case loc != nil:
			st, err = loc.Click(ctx)
		case in.Double:
			st, err = p.DblClick(ctx, in.Ref)
		default:
			st, err = p.Click(ctx, in.Ref)
		}
	case "type":
		st, err = typeInto(ctx, p, loc, in.Ref, in.Text)
		if err == nil && in.Submit {
			st, err = p.Press(ctx, "Enter")
		}
	case "hover":
		st, err = pick(loc, p.Hover, (*rodagent.Located).Hover)(ctx, in.Ref)
	case "check":
		st, err = pick(loc, p.Check, (*rodagent.Located).Check)(ctx, in.Ref)
	case "uncheck":
		st, err = pick(loc, p.Uncheck, (*rodagent.Located).Uncheck)(ctx, in.Ref)
	case "select":
		if len(in.Values) == 0 {
			return "", nil, badRequest("select needs values")
		}
		if loc != nil {
			st, err = loc.Select(ctx, in.Values...)
		} else {
			st, err = p.Select(ctx, in.Ref, in.Values...)
		}
	case "upload":
		if len(in.Paths) == 0 {
			return "", nil, badRequest("upload needs paths")
		}
		if loc != nil {
			st, err = loc.Upload(ctx, in.Paths...)
		} else {
			st, err = p.Upload(ctx, in.Ref, in.Paths...)
		}
	default:
		return "", nil, badRequest("unknown kind %q (click, type, press, hover, drag, select, fill, wait, resize, close, evaluate, check, uncheck, upload, download)", in.Kind)
	}
	return st, nil, err
}

func knownKind(k string) bool {
	switch k {
	case "click", "type", "hover", "check", "uncheck", "select", "upload":
		return true
	}
	return false
}

// pick chooses the ref or the locator form of a one-target verb.
func pick(loc *rodagent.Located, byRef func(context.Context, string) (rodagent.ActionStatus, error),
	byLoc func(*rodagent.Located, context.Context) (rodagent.ActionStatus, error)) func(context.Context, string) (rodagent.ActionStatus, error) {
	if loc == nil {
		return byRef
	}
	return func(ctx context.Context, _ string) (rodagent.ActionStatus, error) { return byLoc(loc, ctx) }
}

func typeInto(ctx context.Context, p *rodagent.Page, loc *rodagent.Located, ref, text string) (rodagent.ActionStatus, error) {
	if loc != nil {
		return loc.Type(ctx, text)
	}
	return p.Type(ctx, ref, text)
}

// fill replaces the content of one field (ref, text) or of several (fields),
// stopping at the first failure.
func fill(ctx context.Context, p *rodagent.Page, in *actRequest) (rodagent.ActionStatus, error) {
	fields := in.Fields
	if in.Ref != "" {
		fields = append([]fillField{{Ref: in.Ref, Text: in.Text}}, fields...)
	}
	if len(fields) == 0 {
		return "", badRequest("fill needs ref and text, or fields")
	}
	st := rodagent.Ready
	for _, f := range fields {
		loc, err := target(p, f.Ref)
		if err != nil {
			return "", err
		}
		one, err := typeInto(ctx, p, loc, f.Ref, f.Text)
		if err != nil {
			return one, err
		}
		if one == rodagent.StaleRefRecovered {
			st = one
		}
	}
	return st, nil
}

func drag(ctx context.Context, p *rodagent.Page, from, to string) (rodagent.ActionStatus, error) {
	if from == "" || to == "" {
		return "", badRequest("drag needs startRef and endRef")
	}
	fromLoc, err := target(p, from)
	if err != nil {
		return "", err
	}
	toLoc, err := target(p, to)
	if err != nil {
		return "", err
	}
	switch {
	case fromLoc == nil && toLoc == nil:
		return p.Drag(ctx, from, to)
	case fromLoc != nil && toLoc != nil:
		l, _ := rodagent.ParseLocator(to)
		return fromLoc.DragTo(ctx, l)
	}
	return "", badRequest("drag takes two refs or two locators, not one of each")
}

// wait turns the request into one of the library's conditions.
func wait(ctx context.Context, p *rodagent.Page, in *actRequest) error {
	var c rodagent.Condition
	switch {
	case in.Ref != "":
		loc, err := target(p, in.Ref)
		switch {
		case err != nil:
			return err
		case loc != nil:
			l, _ := rodagent.ParseLocator(in.Ref)
			c = rodagent.Present(l)
			if in.Gone {
				c = rodagent.Absent(l)
			}
		case in.Gone:
			c = rodagent.RefGone(in.Ref)
		default:
			c = rodagent.RefPresent(in.Ref)
		}
	case in.Text != "" && in.Gone:
		c = rodagent.Absent(rodagent.ByText(in.Text))
	case in.Text != "":
		c = rodagent.TextPresent(in.Text)
	case in.URL != "":
		c = rodagent.URLMatches(in.URL)
	case in.Load == "load":
		c = rodagent.Load()
	case in.Load == "networkidle":
		c = rodagent.NetworkIdle()
	default:
		return badRequest(`wait needs ref, text, url or load ("load" or "networkidle")`)
	}
	return p.Wait(ctx, c)
}

type shotRequest struct {
	TargetID string `json:"targetId,omitempty"`
	FullPage bool   `json:"fullPage,omitempty"`
	Ref      string `json:"ref,omitempty"`
	Annotate bool   `json:"annotate,omitempty"`
	Type     string `json:"type,omitempty"`    // "png" (default) or "jpeg"
	Quality  int    `json:"quality,omitempty"` // jpeg quality, 1–100 (default 80)
}

func (s *Server) screenshot(w http.ResponseWriter, r *http.Request) {
	var in shotRequest
	if err := decode(r, &in); err != nil {
		fail(w, err)
		return
	}
	if in.Type != "" && in.Type != "png" && in.Type != "jpeg" {
		fail(w, badRequest(`screenshot type is "png" or "jpeg"`))
		return
	}
	ctx, cancel := reqCtx(r, 0)
	defer cancel()
	p, err := s.page(ctx, in.TargetID)
	if err != nil {
		fail(w, err)
		return
	}
	var opts []rodagent.ScreenshotOption
	if in.FullPage {
		opts = append(opts, rodagent.ShotFullPage())
	}
	if in.Annotate {
		opts = append(opts, rodagent.ShotAnnotate())
	}
	if in.Type == "jpeg" {
		q := in.Quality
		if q == 0 {
			q = 80
		}
		opts = append(opts, rodagent.ShotJPEG(q))
	}
	if in.Ref != "" {
		loc, err := target(p, in.Ref)
		if err != nil {
			fail(w, err)
			return
		}
		if loc != nil {
			l, _ := rodagent.ParseLocator(in.Ref)
			opts = append(opts, rodagent.ShotLocator(l))
		} else {
			opts = append(opts, rodagent.ShotElement(in.Ref))
		}
	}
	shot, err := p.Screenshot(ctx, opts...)
	if err != nil {
		fail(w, err)
		return
	}
	write(w, http.StatusOK, map[string]any{"ok": true, "targetId": p.ID(), "format": shot.Format,
		"data": base64.StdEncoding.EncodeToString(shot.Data), "refs": shot.Refs})
}

// snapshotAnswer is GET /snapshot's body: the text for a model (format=ai)
// or the structured refs (format=aria), with what moved either way.
type snapshotAnswer struct {
	OK       bool                  `json:"ok"`
	TargetID string                `json:"targetId"`
	URL      string                `json:"url"`
	Format   string                `json:"format"`
	Text     string                `json:"snapshot,omitempty"`
	Refs     []rodagent.BrowserRef `json:"refs,omitempty"`
	Frames   []rodagent.FrameInfo  `json:"frames,omitempty"`
	Delta    *rodagent.Delta       `json:"delta,omitempty"`
	Dialogs  []rodagent.Dialog     `json:"dialogs,omitempty"`
	Total    int                   `json:"total"`
}

func (s *Server) snapshot(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	format := q.Get("format")
	if format == "" {
		format = "ai"
	}
	if format != "ai" && format != "aria" {
		fail(w, badRequest(`format is "ai" or "aria"`))
		return
	}
	limit := 0
	if v := q.Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n <= 0 {
			fail(w, badRequest("limit is a positive number"))
			return
		}
		limit = n
	}
	var opts []rodagent.SnapshotOption
	if on, _ := strconv.ParseBool(q.Get("full")); on {
		opts = append(opts, rodagent.WithFull())
	}
	if v := q.Get("from"); v != "" {
		opts = append(opts, rodagent.WithFrom(v))
	}
	if v := q.Get("within"); v != "" {
		opts = append(opts, rodagent.WithinLandmark(v))
	}
	if format == "ai" && limit > 0 {
		opts = append(opts, rodagent.WithMaxChars(limit))
	}
	ctx, cancel := reqCtx(r, 0)
	defer cancel()
	p, err := s.page(ctx, q.Get("targetId"))
	if err != nil {
		fail(w, err)
		return
	}
	snap, err := p.Snapshot(ctx, opts...)
	if err != nil {
		fail(w, err)
		return
	}
	a := snapshotAnswer{OK: true, TargetID: p.ID(), URL: snap.URL, Format: format, Delta: snap.Delta,
		Dialogs: snap.Dialogs, Total: len(snap.Refs)}
	if format == "ai" {
		a.Text = snap.String()
	} else {
		a.Refs, a.Frames = snap.Refs, snap.Frames
		if limit > 0 && len(a.Refs) > limit {
			a.Refs = a.Refs[:limit] // total says how many there are
		}
	}
	write(w, http.StatusOK, a)
}

func (s *Server) console(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	ctx, cancel := reqCtx(r, 0)
	defer cancel()
	p, err := s.page(ctx, q.Get("targetId"))
	if err != nil {
		fail(w, err)
		return
	}
	msgs, err := p.Console(ctx)
	if err != nil {
		fail(w, err)
		return
	}
	out := []rodagent.ConsoleMessage{}
	for _, m := range msgs {
		if lv := q.Get("level"); lv == "" || lv == m.Type {
			out = append(out, m)
		}
	}
	write(w, http.StatusOK, map[string]any{"ok": true, "targetId": p.ID(), "messages": out})
}

func (s *Server) pdf(w http.ResponseWriter, r *http.Request) {
	var in tabRequest
	if err := decode(r, &in); err != nil {
		fail(w, err)
		return
	}
	ctx, cancel := reqCtx(r, 0)
	defer cancel()
	p, err := s.page(ctx, in.TargetID)
	if err != nil {
		fail(w, err)
		return
	}
	data, err := p.PDF(ctx, rodagent.PDFBackground())
	if err != nil {
		fail(w, err)
		return
	}
	write(w, http.StatusOK, map[string]any{"ok": true, "targetId": p.ID(), "format": "pdf",
		"data": base64.StdEncoding.EncodeToString(data)})
}

func (s *Server) armFileChooser(w http.ResponseWriter, r *http.Request) {
	var in struct {
		TargetID  string   `json:"targetId,omitempty"`
		Paths     []string `json:"paths"`
		TimeoutMs int      `json:"timeoutMs,omitempty"`
	}
	if err := decode(r, &in); err != nil {
		fail(w, err)
		return
	}
	if len(in.Paths) == 0 {
		fail(w, badRequest("file-chooser needs paths"))
		return
	}
	ctx, cancel := reqCtx(r, 0)
	defer cancel()
	p, err := s.page(ctx, in.TargetID)
	if err == nil {
		// choosing files for the page is an upload: the Approver is asked now,
		// as Upload asks before it sets files
		err = s.approve(ctx, p, rodagent.Action{Verb: "upload", Text: strings.Join(in.Paths, ", ")})
	}
	if err == nil {
		err = p.ArmFileChooser(in.Paths, time.Duration(in.TimeoutMs)*time.Millisecond)
	}
	if err != nil {
		fail(w, err)
		return
	}
	write(w, http.StatusOK, map[string]any{"ok": true, "status": rodagent.Ready, "targetId": p.ID(), "armed": "file-chooser"})
}

func (s *Server) armDialog(w http.ResponseWriter, r *http.Request) {
	var in struct {
		TargetID   string `json:"targetId,omitempty"`
		Accept     bool   `json:"accept"`
		PromptText string `json:"promptText,omitempty"`
		TimeoutMs  int    `json:"timeoutMs,omitempty"`
	}
	if err := decode(r, &in); err != nil {
		fail(w, err)
		return
	}
	ctx, cancel := reqCtx(r, 0)
	defer cancel()
	p, err := s.page(ctx, in.TargetID)
	if err != nil {
		fail(w, err)
		return
	}
	if in.Accept {
		// accepting is consent to whatever the dialog asks ("Delete this row?")
		a := rodagent.Action{Verb: "dialog", Text: "accept the next dialog"}
		if in.PromptText != "" {
			a.Text += " with prompt text " + strconv.Quote(in.PromptText)
		}
		if err := s.approve(ctx, p, a); err != nil {
			fail(w, err)
			return
		}
	}
	p.ArmDialog(in.Accept, in.PromptText, time.Duration(in.TimeoutMs)*time.Millisecond)
	write(w, http.StatusOK, map[string]any{"ok": true, "status": rodagent.Ready, "targetId": p.ID(), "armed": "dialog"})
}

// approve asks the browser's Approver about one of the server's own acting
// calls (closing a tab, arming a dialog's accept or a file chooser), with the
// tab's live URL and origin, as the library asks about its own.
func (s *Server) approve(ctx context.Context, p *rodagent.Page, a rodagent.Action) error {
	b, err := s.browserFor(ctx)
	if err != nil {
		return err
	}
	a.URL = p.URL()
	if u, err := url.Parse(a.URL); err == nil && u.Host != "" {
		a.Origin = u.Scheme + "://" + u.Host
	}
	a.TabOrigin = a.Origin
	return b.Approve(ctx, a)
}
