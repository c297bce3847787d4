package rodagent

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/go-rod/rod/lib/proto"

	"github.com/rodagent/rodagent/internal/ax"
)

// Navigation: Open, Back, Forward and Reload return once the new document of
// the main frame has committed and loaded. Any action may start a navigation
// too (a link, a submit, Enter, location= in a handler): the page records
// what the main frame asked for and did, and the next look or action waits
// for the new document before it reads or resolves anything.
//
// "Loaded" is the load event, or DOMContentLoaded plus a network quiet
// (Chromium's networkAlmostIdle: at most two connections for 500 ms) for
// pages whose load event waits on a stream or a slow image; after the
// quiet, a load event that is near, or one the page's scripts listen for,
// is still waited for, briefly (awaitNearLoad). Then the document's first
// frame is (awaitFrame).

// navState is what the main frame's navigation events said; guarded by p.mu.
type navState struct {
	requested   int    // navigations the main frame's document asked for (links, forms, scripts)
	commits     int    // new documents committed in the main frame
	pending     bool   // a requested navigation has neither committed nor stopped
	pendingURL  string // where it goes
	loading     bool   // the main frame is loading (between started and stopped loading)
	starts      int    // loads the main frame started
	leaves      int    // of them, loads away from a loaded document
	announces   bool   // Chromium announces navigations (Page.frameStartedNavigating)
	crossDoc    bool   // a navigation to another document was announced and has not committed or stopped
	sameDocLoad bool   // the main frame is loading for a same-document navigation only
	stopped     int    // starts at its last stopped loading
	loadingFrom proto.NetworkLoaderID
	fromReady   bool                  // the document loading started from had loaded: it is the one being left
	leftAt      time.Time             // when it started loading away from that document
	gaveUp      proto.NetworkLoaderID // a document that never loaded within navSettleCap: not waited for again
	downloads   int                   // downloads the main frame started (Page.downloadWillBegin)
	download    string                // the name the site suggested for the latest
	lookURL     string                // the tab's URL at the previous snapshot
}

// navSettleCap bounds how long a look or an action waits for a navigation
// that is still under way (a server that never answers, a page that never
// finishes loading) before it proceeds with what the tab shows.
const navSettleCap = 10 * time.Second

// navMark is the navigation counters at one moment, to tell what happened since.
type navMark struct {
	requested, commits, seq int
	refused                 int // Page.unloadRefused
	starts                  int // navState.starts
	downloads               int // navState.downloads
	loader                  proto.NetworkLoaderID
}

func (p *Page) navMark() navMark {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.navMarkLocked()
}

func (p *Page) navMarkLocked() navMark {
	m := navMark{requested: p.nav.requested, commits: p.nav.commits, seq: p.navSeq, refused: p.unloadRefused, starts: p.nav.starts,
		downloads: p.nav.downloads}
	if f := p.frames[p.mainFrame]; f != nil {
		m.loader = f.loader
	}
	return m
}

// onNavEvent records the main frame's navigation requests and loading; the
// caller holds p.mu and has checked the event is the main frame's, on the
// page's own session. sameDocument is a Page.frameStartedNavigating's
// navigation type: one within the current document.
func (p *Page) onNavEvent(method string, requestedURL string, sameDocument bool) {
	switch method {
	case "Page.frameRequestedNavigation":
		p.nav.requested++
		p.nav.pending, p.nav.pendingURL = true, requestedURL
	case "Page.frameStartedNavigating":
		p.nav.announces = true
		if !sameDocument {
			p.nav.crossDoc = true
			if p.nav.sameDocLoad {
				// announced after its loading began: the load is this one's
				p.startLoadLocked()
			}
		}
	case "Page.frameStartedLoading":
		if p.nav.announces && !p.nav.crossDoc && !p.nav.pending {
			// Chromium 156 starts and stops the main frame's loading around
			// every same-document navigation (pushState, a fragment) too,
			// unannounced; a page that pushes history in a loop then looked
			// as if it were forever leaving, and a look under load waited
			// out navSettleCap for a document that was never coming.
			p.nav.sameDocLoad = true
			return
		}
		p.startLoadLocked()
	case "Page.frameStoppedLoading":
		p.nav.loading, p.nav.pending = false, false
		p.nav.crossDoc, p.nav.sameDocLoad = false, false
		p.nav.stopped = p.nav.starts
	case "Page.frameNavigated":
		p.nav.commits++
		p.nav.pending, p.nav.crossDoc = false, false
	}
}

// startLoadLocked records that the main frame began loading another
// document, and whether it leaves a loaded one.
func (p *Page) startLoadLocked() {
	p.nav.loading, p.nav.sameDocLoad = true, false
	p.nav.starts++
	if f := p.frames[p.mainFrame]; f != nil {
		p.nav.loadingFrom = f.loader
		p.nav.fromReady = docReady(p.loaded[f.loader])
		p.nav.leftAt = time.Now()
		if p.nav.fromReady {
			p.nav.leaves++
		}
	}
}

// loadGrace bounds the wait for a load event that is near (see
// awaitNearLoad) after the document counted as loaded without one.
const loadGrace = 3 * time.Second

// listenerGrace bounds the wait for the load event of a page that listens
// for it, held back by a frame or an image: its widgets are wired only when
// load fires. The APG examples hold an iframe from aria-at.w3.org, which a
// machine without internet (the test machine) cannot reach; on a loaded
// machine the frame's failure, and so load, came seconds late, and
// TestAPGExamplesShowWhatAPersonSees/alert, /disclosure-faq and
// TestTypeMovesARIASliders acted on buttons and sliders not yet wired.
// A page whose load never comes costs this much per navigation.
const listenerGrace = 10 * time.Second

// nearLoadJS tells, in the library's world of the main frame, whether the
// document's load event is near: what it still waits for is the document's
// own finite work (a script or stylesheet still arriving, the parser, the
// load event's task itself), not an image (a camera stream, a slow image)
// or a frame (a cross-origin frame the page cannot see into, one that never
// finishes loading) — the cases the network quiet rule is for. A frame
// whose document has not arrived shows its initial about:blank, complete
// and of the parent's origin: it is read as still loading.
const nearLoadJS = `(() => {
	if (document.readyState === 'complete') return true;
	for (const img of document.images) {
		if (!img.complete && img.loading !== 'lazy') return false;
	}
	for (const f of document.querySelectorAll('iframe, frame')) {
		if (f.loading === 'lazy') continue;
		let d = null;
		try { d = f.contentDocument; } catch (e) { /* another origin's */ }
		if (!d || d.readyState !== 'complete') return false;
		// a frame still fetching its document shows its initial one
		const src = f.getAttribute('src');
		if (d.URL === 'about:blank' && src && !/^\s*about:blank/i.test(src) && !f.hasAttribute('srcdoc')) return false;
	}
	return true;
})()`

// awaitNearLoad waits for the main document's load event when the document
// counted as loaded on DOMContentLoaded and a network quiet alone: at most
// loadGrace when its load is near (nearLoadJS), at most listenerGrace when
// the page listens for it (listensForLoad). Chromium's quiet
// allows two connections: a script still arriving on one of them, or a
// busy main thread, leaves the load handlers that build or collapse the
// page's widgets to run after the navigation returned, and the first look
// would show the page before them. The wait ends at its own deadline: a
// wait for the load event that woke only on the page's events (as
// waitUntil does) and measured its grace from a clock hung whenever load
// never came and no event followed — a page whose out-of-process frame
// never finished, TestNestedFramesThreeLevels under load — until the
// caller's deadline.
func (p *Page) awaitNearLoad(ctx context.Context) {
	// The lifecycle map is read under p.mu: the event router adds to the
	// very same map (onEvent) as the document's events arrive.
	p.mu.Lock()
	loader, pending := p.loadPendingLocked()
	p.mu.Unlock()
	if !pending {
		return
	}
	start := time.Now()
	gctx, cancel := context.WithTimeout(ctx, listenerGrace)
	defer cancel()
	w, err := p.world(gctx, p.mainFrameInfo())
	if err != nil {
		return
	}
	res, err := proto.RuntimeEvaluate{Expression: nearLoadJS, ContextID: w, ReturnByValue: true}.Call(p.main.Bind(gctx))
	if err != nil || res.ExceptionDetails != nil {
		return
	}
	if res.Result.Value.Bool() {
		var stop context.CancelFunc
		gctx, stop = context.WithDeadline(gctx, start.Add(loadGrace))
		defer stop()
	} else if !p.listensForLoad(gctx) {
		return
	}
	_ = p.waitUntil(gctx, func() (bool, error) {
		f := p.frames[p.mainFrame]
		return f == nil || f.loader != loader || p.loaded[loader]["load"], nil
	})
}

// stillLoading is what a failed action adds when the main document's load
// event has not fired yet: a page that wires its controls in a load listener
// (the APG examples do) ignores them until then, and a control that did not
// react is then no fault of the control — the next move is to wait for the
// page, not to try another way. Empty when the document has loaded, or was
// there before the library attached (its load was not seen).
func (p *Page) stillLoading() string {
	p.mu.Lock()
	_, pending := p.loadPendingLocked()
	p.mu.Unlock()
	if pending {
		return "; the page has not finished loading (no load event yet) and may wire its controls only then: wait for the load, then try again"
	}
	return ""
}

// loadPendingLocked returns the main document's loader and whether its load
// event is still to come: the document was seen to start and load has not
// fired (one there before the library attached counts as loaded). The
// caller holds p.mu: the event router fills the same lifecycle map.
func (p *Page) loadPendingLocked() (proto.NetworkLoaderID, bool) {
	f := p.frames[p.mainFrame]
	if f == nil {
		return "", false
	}
	seen := p.loaded[f.loader]
	return f.loader, seen != nil && !seen["load"]
}

// frameGrace bounds the wait for the first frame a loaded document renders
// (awaitFrame): a main thread still busy past it is the page's, not the
// navigation's.
const frameGrace = time.Second

// renderedJS resolves once the document has rendered a frame and run the
// task queued behind it; a hidden tab renders none and resolves at once.
const renderedJS = `new Promise(r => {
	if (document.visibilityState !== 'visible') return r(false);
	requestAnimationFrame(() => setTimeout(() => r(true), 0));
})`

// awaitFrame waits, at most frameGrace, for the loaded main document to
// render a frame. A page that builds itself in its load handlers leaves its
// first style, layout and paint pending when load fires (about 300 ms on
// the 6,000-control table), and whatever asks the renderer next queues
// behind them: a navigation that returned at load handed that cost to the
// first look or action. A person sees a page once it is drawn; so does
// Open. It runs in the library's isolated world, where the page cannot
// replace requestAnimationFrame.
func (p *Page) awaitFrame(ctx context.Context) {
	fctx, cancel := context.WithTimeout(ctx, frameGrace)
	defer cancel()
	w, err := p.world(fctx, p.mainFrameInfo())
	if err != nil {
		return
	}
	_, _ = proto.RuntimeEvaluate{Expression: renderedJS, ContextID: w, AwaitPromise: true, ReturnByValue: true}.Call(p.main.Bind(fctx))
}

// listensForLoad reports whether the page's own scripts listen for the
// window's load event (addEventListener, onload, <body onload>). Such a page
// wires its widgets only when load fires — the W3C APG examples bind their
// buttons that way — so a click that comes before load lands on a control
// that does nothing, even when what holds load back is a frame or an image
// the network quiet rule otherwise lets the library pass over. Listeners are
// per world, so the main world's window is asked: evaluating the bare
// identifier runs none of the page's code.
func (p *Page) listensForLoad(ctx context.Context) bool {
	const group = "rodagent-load-listeners"
	sess := p.main.Bind(ctx)
	defer func() { _ = proto.RuntimeReleaseObjectGroup{ObjectGroup: group}.Call(sess) }()
	win, err := proto.RuntimeEvaluate{Expression: "window", ObjectGroup: group}.Call(sess)
	if err != nil || win.ExceptionDetails != nil || win.Result.ObjectID == "" {
		return false
	}
	ls, err := proto.DOMDebuggerGetEventListeners{ObjectID: win.Result.ObjectID}.Call(sess)
	if err != nil {
		return false
	}
	for _, l := range ls.Listeners {
		if l.Type == "load" {
			return true
		}
	}
	return false
}

// docReady reports whether a document's lifecycle says it has loaded: the
// load event, or DOMContentLoaded with the network quiet. A document the
// page never saw start (it was there before the library attached) counts.
func docReady(seen map[string]bool) bool {
	return seen == nil || seen["load"] || (seen["DOMContentLoaded"] && seen["networkAlmostIdle"])
}

// settledLocked reports whether no navigation of the main frame is under
// way: nothing requested and uncommitted, the current document loaded, and
// no load in flight away from a loaded document.
func (p *Page) settledLocked() bool {
	if p.nav.pending || p.net.evicting {
		return false
	}
	f := p.frames[p.mainFrame]
	if f == nil {
		return false
	}
	if p.leavingLocked() {
		return false
	}
	return f.loader == p.nav.gaveUp || docReady(p.loaded[f.loader])
}

// leavingLocked reports whether the main frame is loading away from a loaded
// document whose successor has not committed.
func (p *Page) leavingLocked() bool {
	f := p.frames[p.mainFrame]
	return f != nil && p.nav.loading && p.nav.fromReady && f.loader == p.nav.loadingFrom
}

// settleNavigation waits until no navigation of the main frame is under way,
// at most navSettleCap: past that the tab is read as it is, unless the next
// document has still not committed (then nothing on the tab answers, and it
// fails with Timeout naming the navigation). Otherwise it fails only when ctx
// ends or the page dies.
func (p *Page) settleNavigation(ctx context.Context, action string) error {
	p.mu.Lock()
	done := p.settledLocked()
	p.mu.Unlock()
	if done {
		return nil
	}
	capped, cancel := context.WithTimeout(ctx, navSettleCap)
	defer cancel()
	err := p.waitUntil(capped, func() (bool, error) { return p.settledLocked(), nil })
	if err != nil && ctx.Err() == nil && capped.Err() != nil {
		p.mu.Lock()
		if p.leavingLocked() {
			// The browser is still loading the next document (its server has
			// not answered) and holds every command to the tab until it
			// commits: a read now would wait out the caller's deadline.
			e := p.stillLeavingLocked(action)
			p.mu.Unlock()
			return e
		}
		p.nav.pending = false
		if f := p.frames[p.mainFrame]; f != nil {
			p.nav.gaveUp = f.loader
		}
		p.mu.Unlock()
		return nil
	}
	if err != nil {
		return p.navErr(ctx, action, err)
	}
	p.awaitNearLoad(ctx)
	return nil
}

// stillLeavingLocked is the Timeout of a call that met a navigation whose
// next document had not committed after navSettleCap.
func (p *Page) stillLeavingLocked(action string) *ActionError {
	where := ""
	if p.nav.pending && p.nav.pendingURL != "" {
		where = " to " + quote(p.nav.pendingURL, 200)
	}
	e := failure(action, "", Timeout, fmt.Sprintf("the page is still navigating%s: no document after %s, and Chromium answers no command on the tab until one commits", where, navSettleCap), nil)
	e.Next = "the next document is still loading — Snapshot again to keep waiting, or Open another address"
	return e
}

// awaitCommit holds a call that reads the tab without waiting for its page
// to load (Eval, Text, Find and the locators' reads, Console, Screenshot,
// PDF) while the main frame is loading away from a loaded document:
// Chromium answers no command on the tab until the next document commits,
// so the call's own round trip would wait out the caller's deadline. It
// waits for the commit until navSettleCap after the navigation began —
// a look that waited out the bound already leaves none — and past it fails
// with the Timeout a look gives, naming the navigation.
func (p *Page) awaitCommit(ctx context.Context, action string) error {
	p.mu.Lock()
	leaving, left := p.leavingLocked(), p.nav.leftAt
	p.mu.Unlock()
	if !leaving {
		return nil
	}
	capped, cancel := context.WithDeadline(ctx, left.Add(navSettleCap))
	defer cancel()
	err := p.waitUntil(capped, func() (bool, error) { return !p.leavingLocked(), nil })
	if err != nil && ctx.Err() == nil && capped.Err() != nil {
		p.mu.Lock()
		defer p.mu.Unlock()
		if p.leavingLocked() {
			return p.stillLeavingLocked(action)
		}
		return nil
	}
	if err != nil {
		return p.navErr(ctx, action, err)
	}
	return nil
}

// navErr names a failure while waiting for a navigation.
func (p *Page) navErr(ctx context.Context, action string, err error) error {
	if ctx.Err() != nil {
		p.mu.Lock()
		why := p.navOutstandingLocked()
		p.mu.Unlock()
		return failure(action, "", Timeout, why, ctx.Err())
	}
	return err
}

// navOutstandingLocked says which step of the main frame's navigation had
// not happened when a wait for it ended: a caller deciding whether to retry,
// wait longer or read the page as it is needs to know which.
func (p *Page) navOutstandingLocked() string {
	f := p.frames[p.mainFrame]
	switch {
	case f == nil:
		return "the page was still navigating (no main frame yet)"
	case p.nav.pending:
		return "the page was still navigating (a navigation was asked for and had not committed)"
	case p.leavingLocked():
		return "the page was still navigating (the next document had not committed)"
	case !docReady(p.loaded[f.loader]):
		return "the page was still navigating (its document committed but had not loaded: no load event, and the network never went quiet)"
	}
	return "the page was still navigating"
}

// URL is the address of the tab's current document. After Open, Back,
// Forward or Reload it is the new document's; after an action that started a
// navigation, it is the new one's once a Snapshot (or the next action) has
// waited for it — LastAction names where the navigation went.
func (p *Page) URL() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	if f := p.frames[p.mainFrame]; f != nil {
		return f.url
	}
	return ""
}

// NavigationError reports that a navigation failed (network error, refused, …).
type NavigationError struct {
	URL    string // where the navigation went
	Reason string // Chromium's error text, such as net::ERR_CONNECTION_REFUSED
	// Download is the file name the site suggested when the URL's answer
	// was a download, not a page: the tab stayed where it was. WaitDownload
	// takes such an Open as a trigger that started its download.
	Download string
}

// Error says where the navigation went and why it failed.
func (e *NavigationError) Error() string {
	// the URL may be a page's (a history entry it pushed) or megabytes long
	u := plainText(e.URL, 300)
	switch {
	case e.Download != "":
		return fmt.Sprintf("rodagent: %s is a download (%s), not a page: the tab stayed where it was; "+
			"to keep the file, give this Open to WaitDownload as its trigger", u, quote(e.Download, 120))
	case e.Reason == "net::ERR_ABORTED":
		return fmt.Sprintf("rodagent: navigating to %s ended without a page (net::ERR_ABORTED): the tab stayed where it was; "+
			"the server may have answered with no content (204 or 205), or the page stopped the navigation", u)
	}
	return fmt.Sprintf("rodagent: navigating to %s failed: %s", u, e.Reason)
}

// Open navigates the tab to rawURL and returns once the new document has
// committed and loaded (the load event, or DOMContentLoaded and a network
// quiet, then at most 3 s for a load event that is near, 10 s for one the
// page's scripts listen for) and has rendered a frame (at most 1 s more),
// with URL already the new one. Redirects are followed. Every ref of the tab
// is dropped: acting on one afterwards reports PageChanged.
func (p *Page) Open(ctx context.Context, rawURL string) error {
	if err := p.b.cfg.allowURL(rawURL); err != nil {
		return err
	}
	if err := p.approvePage(ctx, Action{Verb: "open", Text: rawURL, Origin: originOf(rawURL), URL: rawURL}); err != nil {
		return err
	}
	unlock, err := p.lock(ctx, "open")
	if err != nil {
		return err
	}
	defer unlock()
	err = p.open(ctx, rawURL)
	p.report(ActionReport{Verb: "open", Status: statusOrReady(err), Navigated: err == nil, URL: p.URL()})
	return err
}

func (p *Page) open(ctx context.Context, rawURL string) error {
	p.markActed()
	if _, err := url.Parse(rawURL); err != nil {
		return fmt.Errorf("rodagent: open %q: %w", rawURL, err)
	}
	m := p.navMark()
	mark := p.blockMark()
	res, err := proto.PageNavigate{URL: rawURL}.Call(p.main.Bind(ctx))
	if err != nil {
		if ctx.Err() != nil {
			return failure("open", "", Timeout, "the browser had not started the navigation", ctx.Err())
		}
		return p.b.wrapErr(ctx, err)
	}
	if res.ErrorText != "" {
		if err := p.unloadRefusedErr(ctx, "open", rawURL, m); err != nil {
			return err
		}
		err := p.navBlockedErr(rawURL, res.ErrorText, mark)
		var ne *NavigationError
		if errors.As(err, &ne) && ne.Reason == "net::ERR_ABORTED" {
			ne.Download = p.downloadSince(ctx, m)
		}
		return err
	}
	if res.LoaderID == "" {
		// A same-document navigation (a fragment): the URL changes, refs stay.
		err = p.waitNavigated(ctx, "open", rawURL, m, false)
	} else {
		err = p.waitUntil(ctx, func() (bool, error) {
			f := p.frames[p.mainFrame]
			if f == nil {
				return false, nil
			}
			// The asked-for document, or a later one that replaced it (a
			// script redirect before load).
			committed := f.loader == res.LoaderID || (p.nav.commits > m.commits && f.loader != m.loader)
			if !committed && !p.unloadDismissing {
				if err := p.unloadRefusedErrLocked("open", rawURL, m); err != nil {
					return false, err
				}
			}
			return committed && p.settledLocked(), nil
		})
		err = p.navErr(ctx, "open", err)
	}
	if err != nil {
		return err
	}
	p.awaitNearLoad(ctx)
	if res.LoaderID != "" {
		p.awaitFrame(ctx)
	}
	p.mu.Lock()
	p.resetRefsLocked()
	p.mu.Unlock()
	return nil
}

// downloadSince is the suggested name of a download the main frame started
// after m, or "". Chromium aborts a navigation whose answer is a download
// and says which it was only in Page.downloadWillBegin, which comes before
// Page.navigate's answer; the short wait covers an event that would not.
func (p *Page) downloadSince(ctx context.Context, m navMark) string {
	wctx, cancel := context.WithTimeout(ctx, 500*time.Millisecond)
	defer cancel()
	_ = p.waitUntil(wctx, func() (bool, error) { return p.nav.downloads > m.downloads, nil })
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.nav.downloads > m.downloads {
		return p.nav.download
	}
	return ""
}

// waitNavigated waits for the main frame to navigate after m — to a new
// document when newDoc, else within the document or to a new one — and then
// for the navigation to settle.
func (p *Page) waitNavigated(ctx context.Context, action, to string, m navMark, newDoc bool) error {
	wctx, cancel := ctx, context.CancelFunc(func() {})
	if !newDoc {
		// A fragment navigation to the URL the tab already shows may fire
		// no event at all: do not wait for one past a short bound.
		wctx, cancel = context.WithTimeout(ctx, 2*time.Second)
	}
	defer cancel()
	landed := func() (bool, error) {
		moved := p.nav.commits > m.commits
		if !newDoc {
			moved = moved || p.navSeq > m.seq
		}
		if !moved {
			if p.unloadDismissing {
				return false, nil // decided when the dialog has closed
			}
			if err := p.unloadRefusedErrLocked(action, to, m); err != nil {
				return false, err
			}
			if p.nav.starts > m.starts && p.nav.stopped == p.nav.starts && p.nav.commits == m.commits {
				// A load began after the call and ended with no document
				// committed: nothing more will come.
				return false, &NavigationError{URL: to, Reason: navEndedEmpty}
			}
		}
		return moved && p.settledLocked(), nil
	}
	err := p.waitUntil(wctx, landed)
	if err != nil && !newDoc && ctx.Err() == nil && wctx.Err() != nil {
		// The short bound is for an event that may never come, not for a
		// document that is on its way: a history step to another document
		// on a slow server or a loaded machine takes longer than it, and
		// returning then reported the old URL as where the step landed.
		p.mu.Lock()
		onItsWay := p.nav.loading || p.nav.commits > m.commits
		p.mu.Unlock()
		err = nil
		if onItsWay {
			err = p.waitUntil(ctx, landed)
		}
	}
	return p.navErr(ctx, action, err)
}

// navEndedEmpty is the reason of a navigation that ended without a
// document. A page that refuses to leave does that too when Chromium does
// not show its beforeunload dialog — some of the times it asks, even to a
// page with user activation (seen in TestBeforeUnloadKeepsTheTabAndSaysSo).
const navEndedEmpty = "the tab stayed where it was: the navigation ended without a new document " +
	"(a download, an empty answer such as 204, or a page that refused to leave)"

// unloadRefusedErr is the error of a navigation that a beforeunload dialog
// dismissed since m kept from leaving (nil when none was), once a dialog
// being dismissed has closed: Chromium cancels the navigation and sends no
// further event, so waiting for it would last to the caller's deadline.
func (p *Page) unloadRefusedErr(ctx context.Context, action, to string, m navMark) error {
	var err error
	_ = p.waitUntil(ctx, func() (bool, error) {
		if p.unloadDismissing {
			return false, nil
		}
		err = p.unloadRefusedErrLocked(action, to, m)
		return true, nil
	})
	return err
}

func (p *Page) unloadRefusedErrLocked(action, to string, m navMark) error {
	if p.unloadRefused == m.refused {
		return nil
	}
	return &NavigationError{URL: to, Reason: "the page asked to confirm leaving (a beforeunload dialog); " +
		"nothing was armed, so it was dismissed and the tab stayed — to leave, arm the dialog to accept " +
		"(ArmDialog(true, \"\", 0); the tool's dialog action with accept=true), then " + action + " again"}
}

// resetRefsLocked starts a new registry when the main document changed; the
// old one is kept for a while so acting on its handles says PageChanged.
func (p *Page) resetRefsLocked() {
	f := p.frames[p.mainFrame]
	if f == nil || f.loader == p.regDoc {
		return
	}
	p.oldRegs = append(p.oldRegs, p.reg)
	if len(p.oldRegs) > 8 {
		p.oldRegs = p.oldRegs[1:]
	}
	p.reg = ax.NewRegistry()
	p.regDoc = f.loader
	p.prefixes = map[proto.PageFrameID]string{}
	p.nextFrame = 0
}

// historyStep moves back (-1) or forward (+1) in the tab's history and waits
// for the document to load.
func (p *Page) historyStep(ctx context.Context, verb string, delta int) error {
	if err := p.approvePage(ctx, Action{Verb: verb}); err != nil {
		return err
	}
	unlock, err := p.lock(ctx, verb)
	if err != nil {
		return err
	}
	defer unlock()
	err = p.historyStepLocked(ctx, verb, delta)
	p.report(ActionReport{Verb: verb, Status: statusOrReady(err), Navigated: err == nil, URL: p.URL()})
	return err
}

func (p *Page) historyStepLocked(ctx context.Context, verb string, delta int) error {
	// A navigation an earlier action started must land first: it is a history entry too.
	if err := p.settleNavigation(ctx, verb); err != nil {
		return err
	}
	h, err := proto.PageGetNavigationHistory{}.Call(p.main.Bind(ctx))
	if err != nil {
		return p.navErr(ctx, verb, p.b.wrapErr(ctx, err))
	}
	i := h.CurrentIndex + delta
	if i < 0 || i >= len(h.Entries) {
		return fmt.Errorf("rodagent: %s: no history entry in that direction", verb)
	}
	if err := p.b.cfg.allowURL(h.Entries[i].URL); err != nil {
		return err
	}
	return p.navigateAndWait(ctx, verb, h.Entries[i].URL, false, func() error {
		return proto.PageNavigateToHistoryEntry{EntryID: h.Entries[i].ID}.Call(p.main.Bind(ctx))
	})
}

// navigateAndWait runs start, waits for the main frame to navigate (within
// the document or, when newDoc, to a new one) and for the new document to load.
func (p *Page) navigateAndWait(ctx context.Context, verb, to string, newDoc bool, start func() error) error {
	p.markActed()
	for try := 1; ; try++ {
		m := p.navMark()
		if err := start(); err != nil {
			return p.navErr(ctx, verb, p.b.wrapErr(ctx, err))
		}
		err := p.waitNavigated(ctx, verb, to, m, newDoc)
		if err == nil {
			break
		}
		// With a dialog armed to accept, a navigation that ended empty is
		// a page whose beforeunload dialog Chromium did not show: the
		// caller has said to leave, and the next try shows it.
		var ne *NavigationError
		if try == 1 && errors.As(err, &ne) && ne.Reason == navEndedEmpty && p.acceptArmed() {
			continue
		}
		return err
	}
	p.awaitNearLoad(ctx)
	p.awaitFrame(ctx)
	p.mu.Lock()
	p.resetRefsLocked()
	p.mu.Unlock()
	return nil
}

// Back goes one step back in the tab's history and returns once the page
// there has committed and loaded (at once for a same-document entry).
func (p *Page) Back(ctx context.Context) error { return p.historyStep(ctx, "back", -1) }

// Forward goes one step forward in the tab's history and returns once the
// page there has committed and loaded.
func (p *Page) Forward(ctx context.Context) error { return p.historyStep(ctx, "forward", +1) }

// Reload reloads the tab and returns once the new document has committed and
// loaded; refs start over.
func (p *Page) Reload(ctx context.Context) error {
	if err := p.approvePage(ctx, Action{Verb: "reload"}); err != nil {
		return err
	}
	p.mu.Lock()
	p.crashEnded() // a reload is how a crashed tab comes back
	p.mu.Unlock()
	unlock, err := p.lock(ctx, "reload")
	if err != nil {
		return err
	}
	defer unlock()
	err = p.navigateAndWait(ctx, "reload", p.URL(), true, func() error { return proto.PageReload{}.Call(p.main.Bind(ctx)) })
	p.report(ActionReport{Verb: "reload", Status: statusOrReady(err), Navigated: err == nil, URL: p.URL()})
	return err
}

// navBarrierJS is answered by the main frame's renderer after every event it
// emitted before it, navigation requests included.
const navBarrierJS = `0`

// taskBarrierJS resolves once the tasks queued before it have run: a form
// submits from a task its click posted. After input, Chromium runs a timer
// only after the next rendered frame, so the wait costs an action a frame
// (a Press went from 2.6 ms to 16.7 ms): it is paid only where a form could
// have submitted. A hidden tab's timers are throttled, so there it does not
// wait.
const taskBarrierJS = `(!document.forms.length || document.visibilityState !== 'visible') ? true :
	new Promise(r => setTimeout(() => r(true), 0))`

// afterInput tells whether the input an action just sent started a
// navigation of the main frame, and where it goes. The tasks the input
// queued run first (a form submits from a task: the renderer may answer a
// question before it, and a submit read as no navigation), then one round
// trip to the renderer makes sure its navigation request, if any, has
// arrived; a document that goes away under that round trip is a
// navigation too.
//
// The question waits as long as the action's caller allows, within
// navSettleCap (the bound on any wait for a navigation); an action whose
// deadline has passed reads what has arrived. A fixed short bound raced
// the renderer: at 500 ms a form's submit under load read as no
// navigation, and the 2 s meant to replace it never applied (the report's
// own context ended after 1 s).
//
// A navigation the input started answers the question by itself, and the
// round trip is dropped as soon as its events arrive: the browser holds
// every command to the tab until the next document commits, so the round
// trip would wait for the server (the 10 s bound, for one that stalls).
func (p *Page) afterInput(ctx context.Context, m navMark) (bool, string) {
	bctx, cancel := context.WithTimeout(ctx, navSettleCap)
	watched := make(chan struct{})
	go func() {
		defer close(watched)
		if p.waitUntil(bctx, func() (bool, error) { return p.nav.requested > m.requested || p.leavingLocked(), nil }) == nil {
			cancel()
		}
	}()
	p.runInWorld(bctx, p.mainFrameInfo(), taskBarrierJS)
	_, err := proto.RuntimeEvaluate{Expression: navBarrierJS}.Call(p.main.Bind(bctx))
	cancel()
	<-watched
	p.mu.Lock()
	defer p.mu.Unlock()
	nav := p.nav.requested > m.requested || p.nav.commits > m.commits || p.navSeq > m.seq ||
		p.leavingLocked() || isNavigationGone(err)
	where := ""
	if f := p.frames[p.mainFrame]; f != nil {
		where = f.url
	}
	if p.nav.pending && p.nav.pendingURL != "" {
		where = p.nav.pendingURL
	}
	return nav, where
}

// noteLook records the URL a snapshot shows and returns it when the tab has
// moved since the previous snapshot ("" otherwise).
func (p *Page) noteLook(u string) string {
	p.mu.Lock()
	defer p.mu.Unlock()
	prev := p.nav.lookURL
	p.nav.lookURL = u
	if prev == "" || prev == u {
		return ""
	}
	return u
}

// isNavigationGone reports whether err says the document (or its execution
// context) went away under a call: a navigation, not a failure to report raw.
func isNavigationGone(err error) bool {
	if err == nil {
		return false
	}
	msg := err.Error()
	for _, s := range []string{"Inspected target navigated or closed", "Not attached to an active page",
		"Cannot find context with specified id", "Execution context was destroyed", "No frame with given id",
		"Frame with the given id was not found", "Cannot find default execution context"} {
		if strings.Contains(msg, s) {
			return true
		}
	}
	return false
}

// navPath is where a snapshot says the tab went: the path of the new URL
// (with its origin when that changed too is visible in the page line), as
// page-made text.
func navPath(u string) string {
	d := u
	if i := strings.IndexAny(d, "?#"); i >= 0 {
		d = d[:i] // the query and fragment can carry page-chosen text
	}
	if pu, err := url.Parse(d); err == nil && pu.Path != "" {
		d = pu.EscapedPath()
	}
	return quote(d, 200)
}
