package rodagent

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strconv"

	"github.com/go-rod/rod/lib/proto"

	"github.com/rodagent/rodagent/internal/session"
)

// Condition is something Wait can wait for: Load, NetworkIdle, URLMatches,
// TextPresent, RefPresent, RefGone, Present, Absent.
type Condition interface {
	// wait blocks until the condition holds on p, or ctx ends.
	wait(ctx context.Context, p *Page) error
	String() string
}

// Wait blocks until cond holds, or ctx ends (Timeout). It listens to the
// page's events — lifecycle, navigation, DOM mutations observed in the page —
// rather than polling on a timer.
func (p *Page) Wait(ctx context.Context, cond Condition) error {
	if err := p.alive(); err != nil {
		return err
	}
	if err := cond.wait(ctx, p); err != nil {
		var ae *ActionError
		if errors.As(err, &ae) && ae.Status == Timeout {
			ae.Action, ae.Detail = "wait", "still waiting for "+cond.String()
		}
		return err
	}
	return nil
}

type lifecycleCond struct{ event, label string }

// Load holds once the tab's current document has fired its load event.
func Load() Condition { return lifecycleCond{"load", "load"} }

// NetworkIdle holds once the current document has had no network activity
// for a moment (Chromium's networkIdle lifecycle event).
func NetworkIdle() Condition { return lifecycleCond{"networkIdle", "network idle"} }

func (c lifecycleCond) String() string { return c.label }

func (c lifecycleCond) wait(ctx context.Context, p *Page) error {
	return p.waitUntil(ctx, func() (bool, error) {
		f := p.frames[p.mainFrame]
		return f != nil && p.loaded[f.loader][c.event], nil
	})
}

type urlCond struct{ re *regexp.Regexp }

// URLMatches holds once the tab's URL matches the regular expression pattern
// (a plain substring such as "/checkout" is a valid pattern). Same-document
// navigations (history.pushState) count.
func URLMatches(pattern string) Condition {
	re, err := regexp.Compile(pattern)
	if err != nil {
		re = regexp.MustCompile(regexp.QuoteMeta(pattern))
	}
	return urlCond{re}
}

func (c urlCond) String() string { return "URL matching " + c.re.String() }

func (c urlCond) wait(ctx context.Context, p *Page) error {
	return p.waitUntil(ctx, func() (bool, error) {
		f := p.frames[p.mainFrame]
		return f != nil && c.re.MatchString(f.url), nil
	})
}

type textCond struct{ text string }

// TextPresent holds once the main frame's visible text contains text.
func TextPresent(text string) Condition { return textCond{text} }

func (c textCond) String() string { return "text " + strconv.Quote(c.text) }

// untilJS resolves once check() is true, re-checking on every DOM mutation.
const untilJS = `(check) => new Promise(resolve => {
	if (check()) return resolve(true);
	const mo = new MutationObserver(() => { if (check()) { mo.disconnect(); resolve(true); } });
	mo.observe(document, {subtree: true, childList: true, characterData: true, attributes: true});
})`

func (c textCond) wait(ctx context.Context, p *Page) error {
	expr := fmt.Sprintf(`(%s)(() => !!document.body && document.body.innerText.includes(%s))`, untilJS, strconv.Quote(c.text))
	return p.evalUntil(ctx, expr)
}

// evalUntil evaluates a promise in the main frame until it resolves; a
// navigation destroys the promise with its document, so it is evaluated again
// in the new one.
func (p *Page) evalUntil(ctx context.Context, expr string) error {
	for {
		res, err := proto.RuntimeEvaluate{Expression: expr, AwaitPromise: true, ReturnByValue: true}.Call(p.main.Bind(ctx))
		if ctx.Err() != nil {
			return failure("wait", "", Timeout, "", ctx.Err())
		}
		if err == nil && res.ExceptionDetails == nil {
			return nil
		}
		if err != nil && (session.IsSessionGone(err) || p.b.conn.Closed()) {
			return p.b.wrapErr(ctx, err)
		}
		if err := p.alive(); err != nil {
			return err
		}
		// The document went away under the promise: wait for the next one to load.
		if err := (lifecycleCond{"DOMContentLoaded", "DOMContentLoaded"}).wait(ctx, p); err != nil {
			return err
		}
	}
}

type refCond struct {
	handle  string
	present bool
}

// RefPresent holds once the element a ref names is attached and rendered
// (after a re-render, through the re-bind ladder).
func RefPresent(ref string) Condition { return refCond{ref, true} }

// RefGone holds once the element a ref names has left the page or is no
// longer rendered.
func RefGone(ref string) Condition { return refCond{ref, false} }

func (c refCond) String() string {
	if c.present {
		return "ref " + c.handle + " to appear"
	}
	return "ref " + c.handle + " to go"
}

// nextMutationJS resolves on the next DOM mutation of the document.
const nextMutationJS = `new Promise(resolve => {
	const mo = new MutationObserver(() => { mo.disconnect(); resolve(true); });
	mo.observe(document, {subtree: true, childList: true, characterData: true, attributes: true});
})`

func (c refCond) wait(ctx context.Context, p *Page) error {
	for {
		unlock, err := p.lock(ctx, "wait")
		if err != nil {
			return err
		}
		t, err := p.resolve(ctx, "wait", c.handle)
		var sess session.Session
		if t != nil {
			sess = t.sess
		} else {
			sess = p.main
		}
		present := err == nil && t.ax != nil && !t.ax.Ignored
		unlock()
		var ae *ActionError
		switch {
		case err != nil && errors.As(err, &ae) && (ae.Status == Timeout || ae.Status == NotFound):
			return err
		case err != nil && !errors.As(err, &ae):
			return err
		}
		if present == c.present {
			return nil
		}
		if _, err := (proto.RuntimeEvaluate{Expression: nextMutationJS, AwaitPromise: true}).Call(sess.Bind(ctx)); err != nil {
			if ctx.Err() != nil {
				return failure("wait", c.handle, Timeout, "", ctx.Err())
			}
			if !c.present && (session.IsSessionGone(err) || p.alive() == nil) {
				// its frame or document went away: the element went with it
				return nil
			}
			return err
		}
	}
}

type locCond struct {
	l       Locator
	present bool
}

// Present holds once the locator matches at least one element (for scripts:
// a dialog that opens, a row that arrives).
func Present(l Locator) Condition { return locCond{l, true} }

// Absent holds once the locator matches nothing.
func Absent(l Locator) Condition { return locCond{l, false} }

func (c locCond) String() string {
	if c.present {
		return c.l.String() + " to appear"
	}
	return c.l.String() + " to go"
}

// nextChangeJS resolves on the next DOM mutation, or after a second at most:
// changes inside other frames' documents are not observed from this one.
const nextChangeJS = `new Promise(resolve => {
	const mo = new MutationObserver(() => { mo.disconnect(); resolve(true); });
	mo.observe(document, {subtree: true, childList: true, characterData: true, attributes: true});
	setTimeout(() => { mo.disconnect(); resolve(true); }, 1000);
})`

func (c locCond) wait(ctx context.Context, p *Page) error {
	for {
		unlock, err := p.lock(ctx, "wait")
		if err != nil {
			return err
		}
		m, _, err := p.locate(ctx, c.l)
		unlock()
		if err != nil {
			return err
		}
		if (len(m) > 0) == c.present {
			return nil
		}
		p.mu.Lock()
		f := *p.frames[p.mainFrame]
		p.mu.Unlock()
		w, err := p.world(ctx, f)
		if err != nil {
			return p.b.wrapErr(ctx, err)
		}
		if _, err := (proto.RuntimeEvaluate{Expression: nextChangeJS, ContextID: w, AwaitPromise: true}).Call(p.main.Bind(ctx)); err != nil {
			if ctx.Err() != nil {
				return failure("wait", "", Timeout, "", ctx.Err())
			}
			p.forgetWorldOf(f) // the document changed under the wait: look again in the new one
		}
	}
}
