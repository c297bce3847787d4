package rodagent

import "github.com/go-rod/rod"

// BreakOnNextEvent subscribes a handler with a bug (a nil dereference) to the
// page's own events, as the page's handlers are subscribed: tests check that
// the router survives it and the page reports itself broken.
func BreakOnNextEvent(p *Page) {
	p.b.conn.SubscribeOwned(p.main.ID, func(*rod.Message) {
		var e *struct{ URL string }
		_ = e.URL
	}, p.markBroken)
}
