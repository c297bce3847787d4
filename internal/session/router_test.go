package session

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/cdp"
	"github.com/go-rod/rod/lib/proto"
)

// A handler that panics is recovered on the router goroutine: the program
// survives, the handler's owner and the connection's owner hear of it, the
// handler is dropped, and every other subscriber keeps getting its events.
func TestRouterRecoversAPanickingHandler(t *testing.T) {
	var reported []*Panic
	c := &Conn{subs: map[proto.TargetSessionID]map[int]*sub{}, any: map[int]*sub{},
		onPanic: func(p *Panic) { reported = append(reported, p) }, done: make(chan struct{})}
	var broken error
	calls := 0
	c.SubscribeOwned("s1", func(m *Message) {
		calls++
		var frame *struct{ ID string }
		_ = frame.ID // the nil dereference of a buggy handler
	}, func(err error) { broken = err })
	var others, all int
	c.Subscribe("s1", func(*Message) { others++ })
	c.Subscribe("s2", func(*Message) { others++ })
	c.SubscribeAll(func(*Message) { all++ })
	c.SubscribeOwned("s2", func(*Message) { panic("second") }, func(error) { panic("a reporter that panics too") })

	c.dispatch(&Message{SessionID: "s1", Method: "Page.frameNavigated"})
	c.dispatch(&Message{SessionID: "s1", Method: "Page.frameNavigated"})
	c.dispatch(&Message{SessionID: "s2", Method: "Runtime.consoleAPICalled"})
	c.dispatch(&Message{SessionID: "s2", Method: "Runtime.consoleAPICalled"})

	if calls != 1 {
		t.Errorf("a handler that panicked is dropped: called %d times", calls)
	}
	var p *Panic
	if !errors.As(broken, &p) || p.Method != "Page.frameNavigated" || p.Session != "s1" || !strings.Contains(string(p.Stack), "router_test.go") {
		t.Errorf("the owner hears of the panic with where it happened: %v", broken)
	}
	if len(reported) != 2 || reported[1].Value != "second" {
		t.Errorf("the connection's owner hears of every panic: %v", reported)
	}
	if others != 4 || all != 4 {
		t.Errorf("other subscribers keep their events: %d of 4, %d of 4", others, all)
	}
}

// Sync returns only once the handlers of every event the tap had queued when
// it was called have run, whatever the order the goroutines ran in.
func TestSyncWaitsForQueuedEvents(t *testing.T) {
	tap := NewTap(nil)
	c := &Conn{subs: map[proto.TargetSessionID]map[int]*sub{}, any: map[int]*sub{}, tap: tap,
		progress: make(chan struct{}), done: make(chan struct{})}
	release := make(chan struct{})
	var seen []string
	c.SubscribeAll(func(m *Message) {
		var e proto.PageFrameNavigated
		if m.Load(&e) {
			<-release // a handler the router is slow to finish
			seen = append(seen, string(e.Frame.LoaderID))
		}
	})
	stream := make(chan *rod.Message)
	go c.run(stream)
	tap.Println(&cdp.Event{SessionID: "s1", Method: "Page.frameNavigated", Params: []byte(`{"frame":{"id":"f","loaderId":"L1"}}`)})
	tap.Println(&cdp.Event{SessionID: "s1", Method: "Page.frameNavigated", Params: []byte(`{"frame":{"id":"f","loaderId":"L2"}}`)})
	tap.Println(&cdp.Response{ID: 7}) // an answer: not an event, not queued

	synced := make(chan error, 1)
	go func() { synced <- c.Sync(context.Background()) }()
	select {
	case err := <-synced:
		t.Fatalf("Sync returned (%v) before the queued events were handled", err)
	case release <- struct{}{}:
	}
	select {
	case err := <-synced:
		t.Fatalf("Sync returned (%v) with one of two queued events handled", err)
	case release <- struct{}{}:
	}
	if err := <-synced; err != nil {
		t.Fatal(err)
	}
	if len(seen) != 2 || seen[0] != "L1" || seen[1] != "L2" {
		t.Errorf("events handled in the order sent: %v", seen)
	}

	// A context that ends first ends the wait; a closed connection ends it with nil.
	tap.Println(&cdp.Event{Method: "Page.frameNavigated", Params: []byte(`{"frame":{"id":"f","loaderId":"L3"}}`)})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := c.Sync(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("Sync on an ended context = %v", err)
	}
	close(stream)
	go func() { synced <- c.Sync(context.Background()) }()
	release <- struct{}{} // the router hands over the last event as it stops
	if err := <-synced; err != nil {
		t.Errorf("Sync after the connection ended = %v", err)
	}
	<-c.done
	if len(seen) != 3 {
		t.Errorf("the last queued event is handled when the connection ends: %v", seen)
	}
}

// Load reads an event of its own type and refuses any other.
func TestMessageLoad(t *testing.T) {
	for _, tc := range []struct {
		name   string
		method string
		params string
		want   bool
	}{
		{"its own type", "Page.frameNavigated", `{"frame":{"id":"f","loaderId":"L"}}`, true},
		{"another event", "Page.frameDetached", `{"frameId":"f"}`, false},
		{"params that do not decode", "Page.frameNavigated", `{"frame":7}`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var e proto.PageFrameNavigated
			m := &Message{Method: tc.method, Params: []byte(tc.params)}
			if got := m.Load(&e); got != tc.want {
				t.Errorf("Load = %v, want %v", got, tc.want)
			}
		})
	}
}
