package rodagent

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"

	"github.com/rodagent/rodagent/internal/ax"
	"github.com/rodagent/rodagent/internal/session"
)

// Page is one browser tab. Its methods are safe for concurrent use: a Page
// runs one action or snapshot at a time, in call order as the runtime admits
// them; different pages run in parallel.
type Page struct {
	b      *Browser
	rod    *rod.Page
	target proto.TargetTargetID
	main   session.Session
	calls  atomic.Int64

	turn chan struct{} // one action or snapshot at a time

	mu                      sync.Mutex
	changed                 chan struct{} // closed and replaced whenever page state below changes
	frames                  map[proto.PageFrameID]*frameInfo
	mainFrame               proto.PageFrameID
	children                map[proto.TargetSessionID]*childTarget
	loaded                  map[proto.NetworkLoaderID]map[string]bool // lifecycle events seen per document
	navSeq                  int                                       // bumps on every main-frame navigation, document or not
	reg                     *ax.Registry
	regDoc                  proto.NetworkLoaderID
	oldRegs                 []*ax.Registry                   // registries of earlier documents of this tab, newest last
	origins                 map[proto.PageFrameID][2]float64 // frame origins in the top-level viewport at the last snapshot
	prefixes                map[proto.PageFrameID]string
	nextFrame               int
	dialogs                 []Dialog               // handled since the last snapshot
	unclaimed               []UnclaimedDownload    // downloads started since the last snapshot that no WaitDownload took
	opened                  []proto.TargetTargetID // tabs this one opened since the last snapshot (opened.go)
	unloadDismissing        bool                   // a beforeunload dialog is being dismissed
	unloadRefused           int                    // beforeunload dialogs dismissed and closed: each kept the tab where it was
	arms                    arms
	console                 []ConsoleMessage
	crashed                 bool
	crashNotices            crashNotice // which notices of the present crash arrived
	lateNotices             crashNotice // notices of a crash a Reload ended that may still arrive
	broken                  error       // set when an event handler of this page panicked
	closed                  bool
	gone                    bool
	stable                  bool // wait for a moving target to come to rest before pointer input (on by default)
	fast                    map[proto.PageFrameID]*fastFrame
	axOn                    map[proto.TargetSessionID]bool // Accessibility domain enabled
	noFast                  bool                           // the browser cannot run the in-page inventory
	path                    readPath                       // how the inventory reads roles and names (inventory.go)
	barrierSeq, barrierSeen int                            // console barriers sent and delivered
	acted                   bool                           // acted on since the last look: the next look lets the page render first
	resettles               int                            // looks since the last action that waited again because the one before found the page still moving
	nav                     navState                       // the main frame's navigations (navigation.go)
	last                    ActionReport                   // what the most recent action did
	unsub                   []func()
	workers                 sync.WaitGroup
	life                    context.Context                                 // ends when the Page lets go of the tab (detach): the background calls end with it
	endLife                 context.CancelFunc                              // ends life
	emu                     emulation                                       // what the tab pretends (emulation.go)
	net                     pageNet                                         // network.go, route.go, origins.go
	beforeFrameRead         func(ctx context.Context, id proto.PageFrameID) // tests only: runs as a look starts reading a frame other than the main one
}

// frameInfo is what the page knows of one frame from CDP events.
type frameInfo struct {
	id       proto.PageFrameID
	parent   proto.PageFrameID
	sess     session.Session // the session whose document holds this frame
	loader   proto.NetworkLoaderID
	url      string
	detached bool
	oopif    bool                   // the frame is the main frame of an out-of-process child target
	owner    proto.DOMBackendNodeID // its <iframe> in the parent frame's session, once known

	// the document (its loader) a look asked whether it was still parsing
	// (awaitParsed asks once per document)
	parseAsked proto.NetworkLoaderID
}

// Dialog is a JavaScript dialog (alert, confirm, prompt, beforeunload) the
// page opened, and how it was answered.
type Dialog struct {
	Type     string `json:"type"`           // alert, confirm, prompt, beforeunload
	Message  string `json:"message"`        // the page's text, capped
	Accepted bool   `json:"accepted"`       // accepted, or dismissed
	Text     string `json:"text,omitempty"` // text entered into a prompt
	Armed    bool   `json:"armed"`          // answered by an armed hook rather than the default
}

// ConsoleMessage is one message the page logged or one uncaught exception.
type ConsoleMessage struct {
	Type string    `json:"type"` // log, info, warning, error, exception, …
	Text string    `json:"text"` // the arguments as text, capped at 1,000 characters
	Time time.Time `json:"time"` // when the library received it
}

const consoleKeep = 200

func newPage(ctx context.Context, b *Browser, rp *rod.Page) (*Page, error) {
	p := &Page{
		b:        b,
		rod:      rp,
		target:   rp.TargetID,
		turn:     make(chan struct{}, 1),
		changed:  make(chan struct{}),
		frames:   map[proto.PageFrameID]*frameInfo{},
		children: map[proto.TargetSessionID]*childTarget{},
		loaded:   map[proto.NetworkLoaderID]map[string]bool{},
		reg:      ax.NewRegistry(),
		origins:  map[proto.PageFrameID][2]float64{},
		fast:     map[proto.PageFrameID]*fastFrame{},
		axOn:     map[proto.TargetSessionID]bool{},
		prefixes: map[proto.PageFrameID]string{},
		stable:   true,
	}
	p.life, p.endLife = context.WithCancel(context.Background())
	p.main = session.Session{Conn: b.conn, ID: rp.SessionID, Calls: &p.calls}
	p.unsub = append(p.unsub,
		b.conn.SubscribeOwned(p.main.ID, func(m *session.Message) { p.onEvent(p.main, m) }, p.markBroken),
		b.conn.SubscribeOwned("", p.onBrowserEvent, p.markBroken))
	// Enable what the page's events need, once for the session's life.
	bc := p.main.Bind(ctx)
	steps := []func() error{
		func() error { return proto.PageEnable{}.Call(bc) },
		func() error { return proto.PageSetLifecycleEventsEnabled{Enabled: true}.Call(bc) },
		func() error { return proto.RuntimeEnable{}.Call(bc) },
		// Every tab behaves as the focused one, so focus events and :focus
		// work in parallel tabs just as in the one a person looks at.
		func() error { return proto.EmulationSetFocusEmulationEnabled{Enabled: true}.Call(bc) },
		func() error { return proto.PageSetInterceptFileChooserDialog{Enabled: true}.Call(bc) },
		func() error { return p.armAutoAttach(ctx, p.main) },
		// which elements scripts made clickable, seen from the page's world
		func() error { return ax.InstallListenerRecord(bc) },
		// the inventory, compiled in its isolated world as each document starts
		func() error { return ax.InstallInventory(bc) },
		func() error { return p.netSetup(ctx, p.main) },
	}
	for _, js := range b.cfg.initScripts {
		steps = append(steps, func() error {
			_, err := proto.PageAddScriptToEvaluateOnNewDocument{Source: js}.Call(bc)
			return err
		})
	}
	for _, step := range steps {
		if err := step(); err != nil {
			p.detach()
			return nil, b.wrapErr(ctx, err)
		}
	}
	tree, err := proto.PageGetFrameTree{}.Call(bc)
	if err != nil {
		p.detach()
		return nil, b.wrapErr(ctx, err)
	}
	p.mu.Lock()
	p.mainFrame = tree.FrameTree.Frame.ID
	p.addFrameTree(p.main, tree.FrameTree, "")
	p.regDoc = tree.FrameTree.Frame.LoaderID
	p.mu.Unlock()
	return p, nil
}

func (p *Page) addFrameTree(s session.Session, t *proto.PageFrameTree, parent proto.PageFrameID) {
	f := t.Frame
	fi := p.frames[f.ID]
	if fi == nil {
		fi = &frameInfo{id: f.ID}
		p.frames[f.ID] = fi
	}
	fi.parent, fi.sess, fi.loader, fi.url, fi.detached = parent, s, f.LoaderID, f.URL+f.URLFragment, false
	for _, c := range t.ChildFrames {
		p.addFrameTree(s, c, f.ID)
	}
}

// notify wakes every waiter; the caller holds p.mu.
func (p *Page) notify() {
	close(p.changed)
	p.changed = make(chan struct{})
}

// waitUntil re-checks cond (under p.mu) after every page event until it
// reports done, the page dies, or ctx ends.
func (p *Page) waitUntil(ctx context.Context, cond func() (bool, error)) error {
	for {
		p.mu.Lock()
		done, err := cond()
		ch := p.changed
		dead := p.deadLocked()
		p.mu.Unlock()
		if done || err != nil {
			return err
		}
		if dead != nil {
			return dead
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return failure("wait", "", Timeout, "", ctx.Err())
		case <-p.b.conn.Done():
			return ErrBrowserGone
		}
	}
}

func (p *Page) deadLocked() error {
	switch {
	case p.closed:
		return ErrClosed
	case p.gone:
		return failure("", "", NoSuchTab, "the tab was closed", nil)
	case p.crashed:
		return ErrPageCrashed
	case p.broken != nil:
		return p.broken
	}
	return nil
}

// markBroken records that one of the page's event handlers failed (the
// router recovered its panic and logged it): the page's view of its frames
// and documents can no longer be trusted, so every later call says so.
func (p *Page) markBroken(err error) {
	p.mu.Lock()
	if p.broken == nil {
		p.broken = fmt.Errorf("%w: %w", ErrPageBroken, err)
	}
	p.notify()
	p.mu.Unlock()
}

// alive reports why the page cannot be used, if it cannot.
func (p *Page) alive() error {
	if err := p.b.isClosed(); err != nil {
		return err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.deadLocked()
}

func (p *Page) isGone() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.gone || p.closed
}

func (p *Page) onBrowserEvent(m *session.Message) {
	switch m.Method {
	case "Target.targetCreated":
		p.onTargetCreated(m)
	case "Target.targetDestroyed":
		var e proto.TargetTargetDestroyed
		if m.Load(&e) && e.TargetID == p.target {
			p.mu.Lock()
			p.gone = true
			p.notify()
			p.mu.Unlock()
		}
	case "Target.detachedFromTarget":
		var e proto.TargetDetachedFromTarget
		if m.Load(&e) && e.SessionID == p.main.ID {
			p.mu.Lock()
			p.gone = true
			p.notify()
			p.mu.Unlock()
		}
	case "Target.targetCrashed":
		var e proto.TargetTargetCrashed
		if !m.Load(&e) {
			return
		}
		p.mu.Lock()
		if e.TargetID == p.target {
			p.crashNoticed(noticeTarget)
		}
		for _, c := range p.children {
			if c.targetID == e.TargetID {
				c.crashed = true // an out-of-process frame's renderer
			}
		}
		p.notify()
		p.mu.Unlock()
	case "Browser.downloadWillBegin", "Browser.downloadProgress":
		// handled by the download hub
	}
}

// onEvent handles the events of the page's session and of its child sessions.
func (p *Page) onEvent(s session.Session, m *session.Message) {
	p.netEvent(s, m)
	switch m.Method {
	case "Page.frameNavigated":
		var e proto.PageFrameNavigated
		if !m.Load(&e) {
			return
		}
		p.mu.Lock()
		f := e.Frame
		fi := p.frames[f.ID]
		if fi == nil {
			fi = &frameInfo{id: f.ID}
			p.frames[f.ID] = fi
		}
		fi.parent, fi.loader, fi.url, fi.detached = f.ParentID, f.LoaderID, f.URL+f.URLFragment, false
		if !fi.oopif || s.ID != p.main.ID {
			fi.sess = s
		}
		if f.ParentID == "" && s.ID == p.main.ID {
			p.mainFrame = f.ID
			p.navSeq++
			if p.loaded[f.LoaderID] == nil {
				p.loaded[f.LoaderID] = map[string]bool{}
			}
			if e.Type == proto.PageNavigationTypeBackForwardCacheRestore {
				// A page restored from the back/forward cache loads no more.
				p.loaded[f.LoaderID]["load"] = true
			}
			p.onNavEvent(m.Method, "", false)
		}
		p.notify()
		p.mu.Unlock()
	case "Page.frameRequestedNavigation", "Page.frameStartedLoading", "Page.frameStoppedLoading", "Page.frameStartedNavigating":
		// Decoded by shape, not with Load, which takes only the event its
		// type names: the loading events must arrive too, or a navigation
		// that never commits (a download, a 204) would hold every later look
		// and action for navSettleCap. Page.frameStartedNavigating is newer
		// than rod's protocol types.
		var e struct {
			proto.PageFrameRequestedNavigation        // the frame id is all the four share
			NavigationType                     string `json:"navigationType"`
		}
		if json.Unmarshal(m.Params, &e) != nil || s.ID != p.main.ID {
			return
		}
		p.mu.Lock()
		if e.FrameID == p.mainFrame && (e.Disposition == "" || e.Disposition == proto.PageClientNavigationDispositionCurrentTab) {
			p.onNavEvent(m.Method, e.URL, e.NavigationType == "sameDocument" || e.NavigationType == "historySameDocument")
			p.notify()
		}
		p.mu.Unlock()
	case "Page.navigatedWithinDocument":
		var e proto.PageNavigatedWithinDocument
		if !m.Load(&e) {
			return
		}
		p.mu.Lock()
		if fi := p.frames[e.FrameID]; fi != nil {
			fi.url = e.URL
		}
		if e.FrameID == p.mainFrame {
			p.navSeq++
		}
		p.notify()
		p.mu.Unlock()
	case "Page.frameAttached":
		var e proto.PageFrameAttached
		if !m.Load(&e) {
			return
		}
		p.mu.Lock()
		if p.frames[e.FrameID] == nil {
			p.frames[e.FrameID] = &frameInfo{id: e.FrameID, parent: e.ParentFrameID, sess: s}
		}
		p.notify()
		p.mu.Unlock()
	case "Page.frameDetached":
		var e proto.PageFrameDetached
		if !m.Load(&e) {
			return
		}
		p.mu.Lock()
		if fi := p.frames[e.FrameID]; fi != nil && e.Reason != proto.PageFrameDetachedReasonSwap {
			fi.detached = true
		}
		p.notify()
		p.mu.Unlock()
	case "Page.lifecycleEvent":
		var e proto.PageLifecycleEvent
		if !m.Load(&e) {
			return
		}
		p.mu.Lock()
		if e.FrameID == p.mainFrame && s.ID == p.main.ID {
			seen := p.loaded[e.LoaderID]
			// init starts a document's lifecycle over, except under a loader
			// whose document had loaded: that is a script's document.open()
			// (same loader, no navigation), and a document opened and never
			// closed would otherwise never count as loaded again.
			if seen == nil || (e.Name == "init" && !seen["load"]) {
				seen = map[string]bool{}
				p.loaded[e.LoaderID] = seen
			}
			seen[string(e.Name)] = true
			if len(p.loaded) > 32 {
				for k := range p.loaded {
					if k != e.LoaderID {
						delete(p.loaded, k)
						break
					}
				}
			}
		}
		p.notify()
		p.mu.Unlock()
	case "Page.downloadWillBegin":
		var e proto.PageDownloadWillBegin
		if !m.Load(&e) {
			return
		}
		// Asked before p.mu is taken: the hub takes a page's mu under its own.
		claimed := p.b.browser.downloads.waitingFor(p)
		p.mu.Lock()
		if e.FrameID == p.mainFrame {
			p.nav.downloads++
			p.nav.download = e.SuggestedFilename
			p.notify()
		}
		if !claimed && len(p.unclaimed) < 16 {
			p.unclaimed = append(p.unclaimed, UnclaimedDownload{Name: e.SuggestedFilename, Refused: idleDownloads(p.b) == proto.BrowserSetDownloadBehaviorBehaviorDeny})
		}
		p.mu.Unlock()
	case "Page.javascriptDialogClosed":
		// Counted closed, not opening: a navigation started while the
		// dialog is still up is cancelled by Chromium without a dialog or an
		// error, so a retry must not begin before it has gone.
		p.mu.Lock()
		if p.unloadDismissing {
			p.unloadDismissing = false
			p.unloadRefused++
			p.notify()
		}
		p.mu.Unlock()
	case "Page.javascriptDialogOpening":
		var e proto.PageJavascriptDialogOpening
		if m.Load(&e) {
			p.onDialog(s, &e)
		}
	case "Page.fileChooserOpened":
		var e proto.PageFileChooserOpened
		if m.Load(&e) {
			p.onFileChooser(s, &e)
		}
	case "Runtime.consoleAPICalled":
		var e proto.RuntimeConsoleAPICalled
		if !m.Load(&e) {
			return
		}
		parts := make([]string, 0, len(e.Args))
		for _, a := range e.Args {
			parts = append(parts, remoteText(a))
		}
		text := strings.Join(parts, " ")
		if n, ok := strings.CutPrefix(text, barrierPrefix); ok {
			seq, _ := strconv.Atoi(n)
			p.mu.Lock()
			p.barrierSeen = max(p.barrierSeen, seq)
			p.notify()
			p.mu.Unlock()
			return
		}
		p.log(ConsoleMessage{Type: string(e.Type), Text: text, Time: time.Now()})
	case "Runtime.exceptionThrown":
		var e proto.RuntimeExceptionThrown
		if !m.Load(&e) {
			return
		}
		text := e.ExceptionDetails.Text
		if e.ExceptionDetails.Exception != nil {
			text += " " + remoteText(e.ExceptionDetails.Exception)
		}
		p.log(ConsoleMessage{Type: "exception", Text: text, Time: time.Now()})
	case "Target.attachedToTarget":
		var e proto.TargetAttachedToTarget
		if m.Load(&e) {
			p.onAttached(s, &e)
		}
	case "Target.detachedFromTarget":
		var e proto.TargetDetachedFromTarget
		if m.Load(&e) {
			p.onDetached(&e)
		}
	case "Inspector.targetCrashed":
		p.mu.Lock()
		if s.ID == p.main.ID {
			p.crashNoticed(noticeInspector)
		} else if c := p.children[s.ID]; c != nil {
			c.crashed = true
		}
		p.notify()
		p.mu.Unlock()
	}
}

// crashNotice is one of the two notices Chromium sends for a renderer
// crash: the session's Inspector.targetCrashed and the browser's
// Target.targetCrashed. They arrive in either order, the second possibly
// after a Reload has brought the tab back.
type crashNotice uint8

const (
	noticeInspector crashNotice = 1 << iota
	noticeTarget
)

// crashNoticed marks the tab crashed, unless the notice is the late second
// one of a crash a Reload already ended. Called with p.mu held.
func (p *Page) crashNoticed(n crashNotice) {
	if p.lateNotices&n != 0 {
		p.lateNotices &^= n
		return
	}
	p.crashed = true
	p.crashNotices |= n
}

// crashEnded forgets the present crash when a Reload brings the tab back, and
// expects the notices of it that have not arrived yet. Called with p.mu held.
func (p *Page) crashEnded() {
	if p.crashed {
		p.lateNotices = (noticeInspector | noticeTarget) &^ p.crashNotices
	}
	p.crashed = false
	p.crashNotices = 0
}

func remoteText(a *proto.RuntimeRemoteObject) string {
	if a == nil {
		return ""
	}
	if a.Value.Val() != nil {
		if s, ok := a.Value.Val().(string); ok {
			return s
		}
		return a.Value.JSON("", "")
	}
	if a.Description != "" {
		return a.Description
	}
	return string(a.Type)
}

func (p *Page) log(c ConsoleMessage) {
	c.Text = capRunes(c.Text, 1000)
	p.mu.Lock()
	p.console = append(p.console, c)
	if len(p.console) > consoleKeep {
		p.console = append(p.console[:0:0], p.console[len(p.console)-consoleKeep:]...)
	}
	p.mu.Unlock()
}

func capRunes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}

// detach stops listening and marks the page closed; it does not close the tab.
func (p *Page) detach() {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return
	}
	p.closed = true
	unsub := p.unsub
	p.unsub = nil
	for _, c := range p.children {
		unsub = append(unsub, c.unsub)
	}
	p.notify()
	p.mu.Unlock()
	for _, u := range unsub {
		if u != nil {
			u()
		}
	}
	// A call still in flight to a session that is going away (the tab was
	// closed, or this Page lets go of it) gets no answer: without this,
	// each held Close for its full 10 s.
	p.endLife()
	p.workers.Wait()
	p.b.forget(p)
}

// Close closes the tab. Closing an already closed page is not an error.
func (p *Page) Close() error {
	if p.isGone() {
		p.detach()
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, err := proto.TargetCloseTarget{TargetID: p.target}.Call(p.b.browserSession().Bind(ctx))
	if err == nil {
		p.b.browser.mu.Lock()
		p.b.browser.destroyed[p.target] = true
		p.b.browser.mu.Unlock()
	}
	p.detach()
	if err != nil && (p.b.conn.Closed() || strings.Contains(err.Error(), "No target")) {
		return nil
	}
	return err
}

// ID is the tab's id, as Tabs lists it.
func (p *Page) ID() string { return string(p.target) }

// Rod returns the underlying *rod.Page, as an escape hatch for what this
// library does not cover. Actions through it bypass the library's checks.
func (p *Page) Rod() *rod.Page { return p.rod }

// RoundTrips is the number of CDP commands this page has sent so far: each is
// latency an agent pays. Compare it before and after a call to count a call's cost.
func (p *Page) RoundTrips() int64 { return p.calls.Load() }

// Activate brings the tab to the front.
func (p *Page) Activate(ctx context.Context) error {
	if err := p.alive(); err != nil {
		return err
	}
	return p.b.wrapErr(ctx, proto.PageBringToFront{}.Call(p.main.Bind(ctx)))
}

// lock takes the page's turn, or gives up when ctx ends first.
func (p *Page) lock(ctx context.Context, action string) (func(), error) {
	if err := p.alive(); err != nil {
		return nil, err
	}
	select {
	case p.turn <- struct{}{}:
		return func() { <-p.turn }, nil
	case <-ctx.Done():
		return nil, failure(action, "", Timeout, "the page was busy with another call", ctx.Err())
	}
}

// Text returns the visible text of the page (document.body.innerText),
// capped at the configured number of characters with a note when cut.
func (p *Page) Text(ctx context.Context) (string, error) {
	unlock, err := p.lock(ctx, "text")
	if err != nil {
		return "", err
	}
	defer unlock()
	if err := p.awaitCommit(ctx, "text"); err != nil {
		return "", err
	}
	res, err := proto.RuntimeEvaluate{Expression: `document.body ? document.body.innerText : ""`,
		ReturnByValue: true}.Call(p.main.Bind(ctx))
	if err != nil {
		return "", p.b.wrapErr(ctx, err)
	}
	if res.ExceptionDetails != nil {
		return "", fmt.Errorf("rodagent: reading text: %s", res.ExceptionDetails.Text)
	}
	text := res.Result.Value.Str()
	max := p.b.cfg.textMaxChars
	if r := []rune(text); max > 0 && len(r) > max {
		text = string(r[:max]) + fmt.Sprintf("\n… (%d more characters not shown)", len(r)-max)
	}
	return text, nil
}

// Console returns the most recent console messages and uncaught exceptions of
// the tab (up to 200), oldest first — everything the page logged before the
// call, since it first waits for the page's event stream to catch up.
func (p *Page) Console(ctx context.Context) ([]ConsoleMessage, error) {
	if err := p.alive(); err != nil {
		return nil, err
	}
	if err := p.awaitCommit(ctx, "console"); err != nil {
		return nil, err
	}
	if err := p.consoleBarrier(ctx); err != nil {
		return nil, err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]ConsoleMessage(nil), p.console...), nil
}

const barrierPrefix = "\x00rodagent-barrier:"

// consoleBarrier logs a marker from the library's own world and waits until
// the event router has delivered it: the page's messages before it, on the
// same session, have been delivered too. The page cannot see or stop it.
func (p *Page) consoleBarrier(ctx context.Context) error {
	p.mu.Lock()
	f := *p.frames[p.mainFrame]
	p.barrierSeq++
	mark := barrierPrefix + strconv.Itoa(p.barrierSeq)
	p.mu.Unlock()
	w, err := p.world(ctx, f)
	if err != nil {
		return p.b.wrapErr(ctx, err)
	}
	if _, err := (proto.RuntimeEvaluate{Expression: "console.debug(" + strconv.Quote(mark) + ")", ContextID: w}).Call(p.main.Bind(ctx)); err != nil {
		return p.b.wrapErr(ctx, err)
	}
	return p.waitUntil(ctx, func() (bool, error) { return p.barrierSeen >= p.barrierSeq, nil })
}
