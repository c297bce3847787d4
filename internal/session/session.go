// Package session routes CDP commands and events for one browser connection.
//
// rod's own event helpers enable and disable a CDP domain per subscription
// without counting, so two overlapping listeners lose events. Here every
// event of the connection is read by one goroutine and handed to listeners
// keyed by session; domains are enabled once per session by the owner.
//
// The events come from a Tap on rod's read loop rather than from rod's event
// stream: the stream hands an event on through goroutines of its own, so a
// caller could hold an answer before the events the browser sent ahead of it
// were handled. With the tap, Conn.Sync restores that order on demand.
package session

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/cdp"
	"github.com/go-rod/rod/lib/proto"
	"github.com/go-rod/rod/lib/utils"
)

// Message is one CDP event.
type Message struct {
	SessionID proto.TargetSessionID // "" for the browser's own session
	Method    string
	Params    json.RawMessage
}

// Load decodes the event into e and reports true when it is an event of e's
// type that decodes; it is false for any other event.
func (m *Message) Load(e proto.Event) bool {
	return m.Method == e.ProtoEvent() && json.Unmarshal(m.Params, e) == nil
}

// Tap is a cdp.Client logger that queues the connection's events in the
// order the browser sent them. rod's read loop logs a message before it
// hands an event on or wakes the caller of an answer, so every event queued
// before an answer reached its caller came before it on the wire.
type Tap struct {
	next utils.Logger // rod's own logger, still told everything

	mu     sync.Mutex
	queue  []*Message
	wake   chan struct{} // holds one token while the queue has events
	queued atomic.Int64  // events queued since the tap was made
}

// NewTap returns a tap that also passes every message on to next (may be nil).
func NewTap(next utils.Logger) *Tap {
	return &Tap{next: next, wake: make(chan struct{}, 1)}
}

// Println implements utils.Logger; rod calls it for every request, answer
// and event of the connection.
func (t *Tap) Println(vs ...any) {
	for _, v := range vs {
		e, ok := v.(*cdp.Event)
		if !ok {
			continue
		}
		t.mu.Lock()
		t.queue = append(t.queue, &Message{SessionID: proto.TargetSessionID(e.SessionID), Method: e.Method, Params: e.Params})
		t.queued.Add(1)
		t.mu.Unlock()
		select {
		case t.wake <- struct{}{}:
		default:
		}
	}
	if t.next != nil {
		t.next.Println(vs...)
	}
}

// take empties the queue.
func (t *Tap) take() []*Message {
	t.mu.Lock()
	defer t.mu.Unlock()
	q := t.queue
	t.queue = nil
	return q
}

// Conn is one CDP connection: the rod browser over it and the event router.
type Conn struct {
	Rod *rod.Browser

	mu      sync.Mutex
	nextID  int
	subs    map[proto.TargetSessionID]map[int]*sub
	any     map[int]*sub
	onPanic func(*Panic)

	tap      *Tap
	handled  atomic.Int64  // events of the tap whose handlers have all run
	progress chan struct{} // closed and replaced whenever handled grows (under mu)

	done   chan struct{}
	closed atomic.Bool
}

// sub is one subscriber: its handler, and whom to tell when it panics.
type sub struct {
	fn     func(*Message)
	broken func(error)
}

// Panic is a subscriber's panic, recovered by the router: one broken handler
// must not take the embedding program down with it, nor stop the events of
// every other page on the connection.
type Panic struct {
	Session proto.TargetSessionID // the session whose event was being handled
	Method  string                // the event
	Value   any                   // what the handler panicked with
	Stack   []byte                // where
}

func (p *Panic) Error() string {
	return fmt.Sprintf("event handler for %s panicked: %v", p.Method, p.Value)
}

// NewConn starts routing the events tap has seen on b's connection until
// ctx ends or the connection closes. onPanic (may be nil) hears of every
// subscriber that panicked, on the router goroutine, after that subscriber
// was dropped and before its own broken callback runs.
func NewConn(ctx context.Context, b *rod.Browser, tap *Tap, onPanic func(*Panic)) *Conn {
	c := &Conn{
		Rod:      b,
		subs:     map[proto.TargetSessionID]map[int]*sub{},
		any:      map[int]*sub{},
		onPanic:  onPanic,
		tap:      tap,
		progress: make(chan struct{}),
		done:     make(chan struct{}),
	}
	// rod's own stream carries the same events: it is drained (rod buffers
	// for a subscriber without bound) and tells when the connection ends.
	go c.run(b.Context(ctx).Event())
	return c
}

// run routes the tap's events until stream, rod's copy of them, closes.
func (c *Conn) run(stream <-chan *rod.Message) {
	defer close(c.done)
	defer c.closed.Store(true)
	for {
		select {
		case <-c.tap.wake:
			c.route()
		case _, ok := <-stream:
			if !ok {
				c.route() // rod's read loop has stopped: the tap holds the last events
				return
			}
		}
	}
}

// route dispatches what the tap has queued.
func (c *Conn) route() {
	for {
		q := c.tap.take()
		if len(q) == 0 {
			return
		}
		for _, msg := range q {
			c.dispatch(msg)
		}
		c.handled.Add(int64(len(q)))
		c.mu.Lock()
		close(c.progress)
		c.progress = make(chan struct{})
		c.mu.Unlock()
	}
}

// Sync waits until the handlers of every event the browser sent before now
// have run: after it, an answer the caller holds is never newer than the
// state those handlers keep. It returns early, with nil, when the connection
// has ended, and with ctx's error when ctx ends first.
func (c *Conn) Sync(ctx context.Context) error {
	want := c.tap.queued.Load()
	for {
		c.mu.Lock()
		progress := c.progress
		c.mu.Unlock()
		if c.handled.Load() >= want {
			return nil
		}
		select {
		case <-progress:
		case <-c.done:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// Done is closed when the connection's event stream has ended.
func (c *Conn) Done() <-chan struct{} { return c.done }

// Closed reports whether the event stream has ended (browser gone or detached).
func (c *Conn) Closed() bool { return c.closed.Load() }

func (c *Conn) dispatch(msg *Message) {
	c.mu.Lock()
	subs := make([]*sub, 0, 4)
	for _, s := range c.subs[msg.SessionID] {
		subs = append(subs, s)
	}
	for _, s := range c.any {
		subs = append(subs, s)
	}
	c.mu.Unlock()
	for _, s := range subs {
		c.deliver(s, msg)
	}
}

// deliver runs one handler; a panic in it is recovered, the subscriber
// dropped (it would likely panic again on the next event) and reported.
func (c *Conn) deliver(s *sub, msg *Message) {
	defer func() {
		v := recover()
		if v == nil {
			return
		}
		p := &Panic{Session: msg.SessionID, Method: msg.Method, Value: v, Stack: debug.Stack()}
		c.drop(s)
		// Logged before the owner hears: a caller woken by the broken
		// page's error finds the cause already in the log.
		if c.onPanic != nil {
			func() {
				defer func() { _ = recover() }() // a broken reporter must not stop the router either
				c.onPanic(p)
			}()
		}
		if s.broken != nil {
			func() {
				defer func() { _ = recover() }()
				s.broken(p)
			}()
		}
	}()
	s.fn(msg)
}

func (c *Conn) drop(s *sub) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for sid, m := range c.subs {
		for id, x := range m {
			if x == s {
				delete(m, id)
			}
		}
		if len(m) == 0 {
			delete(c.subs, sid)
		}
	}
	for id, x := range c.any {
		if x == s {
			delete(c.any, id)
		}
	}
}

// Subscribe calls fn, on the router goroutine, for every event of session sid
// ("" is the browser session). fn must not block. The returned func unsubscribes.
func (c *Conn) Subscribe(sid proto.TargetSessionID, fn func(*Message)) (cancel func()) {
	return c.SubscribeOwned(sid, fn, nil)
}

// SubscribeOwned is Subscribe for a handler whose owner must know when it
// fails: if fn panics, the router recovers, drops the subscription and calls
// broken with the *Panic (then the Conn's onPanic).
func (c *Conn) SubscribeOwned(sid proto.TargetSessionID, fn func(*Message), broken func(error)) (cancel func()) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.nextID++
	id := c.nextID
	m := c.subs[sid]
	if m == nil {
		m = map[int]*sub{}
		c.subs[sid] = m
	}
	m[id] = &sub{fn: fn, broken: broken}
	return func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		delete(c.subs[sid], id)
		if len(c.subs[sid]) == 0 {
			delete(c.subs, sid)
		}
	}
}

// SubscribeAll calls fn for every event of every session. fn must not block.
func (c *Conn) SubscribeAll(fn func(*Message)) (cancel func()) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.nextID++
	id := c.nextID
	c.any[id] = &sub{fn: fn}
	return func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		delete(c.any, id)
	}
}

// Session is one CDP session (a page, an out-of-process frame, or the browser
// itself when ID is empty). It counts the round trips made through it.
type Session struct {
	Conn  *Conn
	ID    proto.TargetSessionID
	Calls *atomic.Int64
}

// Call sends one command and waits for its answer. It implements
// proto.Client; the sessionID argument is ignored in favour of s.ID.
func (s Session) Call(ctx context.Context, _ string, method string, params any) ([]byte, error) {
	if s.Calls != nil {
		s.Calls.Add(1)
	}
	return s.Conn.Rod.Call(ctx, string(s.ID), method, params)
}

// GetSessionID implements proto.Sessionable.
func (s Session) GetSessionID() proto.TargetSessionID { return s.ID }

// Bind returns a proto.Client for s whose calls run under ctx, so rod's typed
// requests can be used directly: proto.DOMFocus{…}.Call(s.Bind(ctx)).
func (s Session) Bind(ctx context.Context) Bound { return Bound{s: s, ctx: ctx} }

// Bound is a Session with a context, satisfying proto.Client, proto.Contextable
// and proto.Sessionable.
type Bound struct {
	s   Session
	ctx context.Context
}

// Call implements proto.Client; the session id argument is ignored in favour of the bound one.
func (b Bound) Call(ctx context.Context, _ string, method string, params any) ([]byte, error) {
	return b.s.Call(ctx, "", method, params)
}

// GetContext implements proto.Contextable.
func (b Bound) GetContext() context.Context { return b.ctx }

// GetSessionID implements proto.Sessionable.
func (b Bound) GetSessionID() proto.TargetSessionID { return b.s.ID }

// IsNodeGone reports whether err says the node behind a backend id no longer
// exists in a document.
func IsNodeGone(err error) bool {
	var ce *cdp.Error
	if !errors.As(err, &ce) {
		return false
	}
	m := ce.Message + " " + ce.Data
	return strings.Contains(m, "detached") || strings.Contains(m, "No node with given id") ||
		strings.Contains(m, "No node found") || strings.Contains(m, "Could not find node")
}

// IsNoLayout reports whether err says the node exists but is not rendered.
func IsNoLayout(err error) bool {
	var ce *cdp.Error
	if !errors.As(err, &ce) {
		return false
	}
	m := ce.Message + " " + ce.Data
	return strings.Contains(m, "layout object") || strings.Contains(m, "Could not compute content quads")
}

// IsSessionGone reports whether err says the CDP session or its target is gone.
func IsSessionGone(err error) bool {
	var ce *cdp.Error
	if !errors.As(err, &ce) {
		return false
	}
	m := ce.Message + " " + ce.Data
	return strings.Contains(m, "Session with given id not found") || strings.Contains(m, "No target with given id") ||
		strings.Contains(m, "Target closed") || strings.Contains(m, "target was destroyed")
}
