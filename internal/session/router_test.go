package session

import (
	"errors"
	"strings"
	"testing"

	"github.com/go-rod/rod"
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
	c.SubscribeOwned("s1", func(m *rod.Message) {
		calls++
		var frame *struct{ ID string }
		_ = frame.ID // the nil dereference of a buggy handler
	}, func(err error) { broken = err })
	var others, all int
	c.Subscribe("s1", func(*rod.Message) { others++ })
	c.Subscribe("s2", func(*rod.Message) { others++ })
	c.SubscribeAll(func(*rod.Message) { all++ })
	c.SubscribeOwned("s2", func(*rod.Message) { panic("second") }, func(error) { panic("a reporter that panics too") })

	c.dispatch(&rod.Message{SessionID: "s1", Method: "Page.frameNavigated"})
	c.dispatch(&rod.Message{SessionID: "s1", Method: "Page.frameNavigated"})
	c.dispatch(&rod.Message{SessionID: "s2", Method: "Runtime.consoleAPICalled"})
	c.dispatch(&rod.Message{SessionID: "s2", Method: "Runtime.consoleAPICalled"})

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
