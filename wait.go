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

func (c textCond) wait(ctx context.Context, p *Page) error {
	expr := fmt.Sprintf(`!!document.body && document.body.innerText.includes(%s)`, strconv.Quote(c.text))
	for {
		if err := p.alive(); err != nil {
			return err
		}
		f := p.mainFrameInfo()
		w, err := p.world(ctx, f)
		if err != nil {
			return p.waitErr(ctx, "", err)
		}
		res, err := proto.RuntimeEvaluate{Expression: expr, ContextID: w, ReturnByValue: true}.Call(p.main.Bind(ctx))
		switch {
		case err == nil && res.ExceptionDetails == nil && res.Result.Value.Bool():
			return nil
		case err != nil:
			if ctx.Err() != nil || session.IsSessionGone(err) || p.b.conn.Closed() {
				return p.waitErr(ctx, "", err)
			}
			p.forgetWorldOf(f) // the document went away under the check: check the next one
			continue
		}
		if err := p.nextChange(ctx, f); err != nil {
			return err
		}
	}
}

// nextChangeJS resolves on the next DOM mutation, or after a second at most:
// changes inside other frames' documents are not observed from this one.
const nextChangeJS = `new Promise(resolve => {
	const mo = new MutationObserver(() => { mo.disconnect(); resolve(true); });
	mo.observe(document, {subtree: true, childList: true, characterData: true, attributes: true});
	setTimeout(() => { mo.disconnect(); resolve(true); }, 1000);
})`

// nextChange waits, in the library's own world of frame f (the page cannot
// fake or block it), for the next change of f's document. A document that
// goes away ends the wait too: the caller looks again.
func (p *Page) nextChange(ctx context.Context, f frameInfo) error {
	w, err := p.world(ctx, f)
	if err != nil {
		return p.waitErr(ctx, "", err)
	}
	if _, err := (proto.RuntimeEvaluate{Expression: nextChangeJS, ContextID: w, AwaitPromise: true}).Call(f.sess.Bind(ctx)); err != nil {
		if ctx.Err() != nil || p.b.conn.Closed() {
			return p.waitErr(ctx, "", err)
		}
		p.forgetWorldOf(f)
	}
	return nil
}

func (p *Page) waitErr(ctx context.Context, ref string, err error) error {
	if ctx.Err() != nil {
		return failure("wait", ref, Timeout, "", ctx.Err())
	}
	if e := p.alive(); e != nil {
		return e
	}
	return p.b.wrapErr(ctx, err)
}

func (p *Page) mainFrameInfo() frameInfo {
	p.mu.Lock()
	defer p.mu.Unlock()
	if f := p.frames[p.mainFrame]; f != nil {
		return *f
	}
	return frameInfo{id: p.mainFrame, sess: p.main}
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

func (c refCond) wait(ctx context.Context, p *Page) error {
	for {
		unlock, err := p.lock(ctx, "wait")
		if err != nil {
			return err
		}
		t, err := p.resolve(ctx, "wait", c.handle)
		f := p.mainFrameInfo()
		if t != nil {
			f = t.frame
		}
		present := err == nil && t.ax != nil && !t.ax.Ignored
		unlock()
		var ae *ActionError
		switch {
		case err != nil && errors.As(err, &ae) && (ae.Status == Timeout || ae.Status == NotFound):
			return err
		case err != nil && !errors.As(err, &ae):
			return err
		case err != nil && !c.present && (ae.Status == PageChanged || ae.Status == FrameUnreachable):
			return nil // its document or frame went away, and the element with it
		}
		if present == c.present {
			return nil
		}
		if err := p.nextChange(ctx, f); err != nil {
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

func (c locCond) wait(ctx context.Context, p *Page) error {
	for {
		// A wait outlasts a navigation whose next document is slow to
		// commit (the locate would fail at navSettleCap): its deadline is
		// the caller's.
		if err := p.waitUntil(ctx, func() (bool, error) { return !p.leavingLocked(), nil }); err != nil {
			return err
		}
		unlock, err := p.lock(ctx, "wait")
		if err != nil {
			return err
		}
		m, _, err := p.locate(ctx, c.l, false)
		unlock()
		if err != nil {
			return err
		}
		if (len(m) > 0) == c.present {
			return nil
		}
		if err := p.nextChange(ctx, p.mainFrameInfo()); err != nil {
			return err
		}
	}
}
