package rodagent

import (
	"context"
	"fmt"

	"github.com/go-rod/rod/lib/proto"

	"github.com/rodagent/rodagent/internal/ax"
	"github.com/rodagent/rodagent/internal/session"
)

// Test hooks for the read paths (see inventory.go).

// UseComputedRoles makes p read roles and names from Chromium's
// computedRole/computedName (the cross-check path) instead of accname.js.
func UseComputedRoles(p *Page, on bool) {
	p.mu.Lock()
	p.path.computed = on
	p.mu.Unlock()
}

// UseAXTree makes p read every frame from the AX tree.
func UseAXTree(p *Page) {
	p.mu.Lock()
	p.noFast = true
	p.mu.Unlock()
}

// UseInventory makes p read every frame it can with the in-page inventory
// again, after UseAXTree.
func UseInventory(p *Page) {
	p.mu.Lock()
	p.noFast = false
	p.mu.Unlock()
}

// BreakOnNextEvent subscribes a handler with a bug (a nil dereference) to the
// page's own events, as the page's handlers are subscribed: tests check that
// the router survives it and the page reports itself broken.
func BreakOnNextEvent(p *Page) {
	p.b.conn.SubscribeOwned(p.main.ID, func(*session.Message) {
		var e *struct{ URL string }
		_ = e.URL
	}, p.markBroken)
}

// ScriptSends reports how many walks of p had to send the inventory script
// because the frame's world did not hold it (ax.InstallInventory missed it).
func ScriptSends(p *Page) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.path.sent
}

// FindsDeclined reports how many finds of p declined, the frame walked
// instead.
func FindsDeclined(p *Page) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.path.declined
}

// DetachTab ends p as a Page but leaves its tab open, for the suite to
// attach a fresh Page to with Browser.Page: a new tab costs Chromium a
// window, a WebContents and a renderer process. Detaching the CDP session
// clears what it set in the tab (emulation, scripts for new documents,
// request interception, auto-attach). It reports false, and leaves p as it
// is, when p cannot be used (closed, gone, crashed or broken).
func DetachTab(p *Page) bool {
	if p.alive() != nil {
		return false
	}
	p.detach()
	p.b.dropSession(p.rod)
	return true
}

// FrameParseGrace is how long a look waits, once per document, for a
// frame's parser to finish.
const FrameParseGrace = frameParseGrace

// BeforeFrameRead makes every look at p run fn as it starts reading a frame
// other than the main one (nil removes it).
func BeforeFrameRead(p *Page, fn func(ctx context.Context, frameID string)) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if fn == nil {
		p.beforeFrameRead = nil
		return
	}
	p.beforeFrameRead = func(ctx context.Context, id proto.PageFrameID) { fn(ctx, string(id)) }
}

// FindByFind returns what l matches when every frame the inventory reads is
// read by a find (ax.FindFrame), walked before or not, as BrowserRefs: the
// tests compare it with Find, which walks. It fails for a locator a find
// does not answer (text, placeholder, CSS).
func FindByFind(ctx context.Context, p *Page, l Locator) ([]BrowserRef, error) {
	parts := findParts(l)
	if parts == nil {
		return nil, fmt.Errorf("FindByFind: %s is no locator a find answers", l)
	}
	unlock, err := p.lock(ctx, "find")
	if err != nil {
		return nil, err
	}
	defer unlock()
	if err := p.awaitCommit(ctx, "locate"); err != nil {
		return nil, err
	}
	m, _, err := p.locateIn(ctx, l, readMode{find: append(parts, ax.FindPart{Context: true}), force: true})
	if err != nil {
		return nil, err
	}
	return refsOf(m), nil
}

// Walked reports whether the inventory has walked the current document of
// p's main frame: a look or a locator by label has, a find has not.
func Walked(p *Page) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	f := p.frames[p.mainFrame]
	ff := p.fast[p.mainFrame]
	return f != nil && ff != nil && ff.loader == f.loader && ff.walk != nil
}

// Leaves reports how many loads of p's main frame left a loaded document.
func Leaves(p *Page) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.nav.leaves
}
