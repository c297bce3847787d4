package rodagent_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/rodagent/rodagent"
)

// A look right after an action shows what the action set in motion — a
// delayed reveal, a requestAnimationFrame chain, awaited delays, a CSS
// fade-in — on a page that also keeps an interval, a poller, a frame loop
// and a spinner going from load (settle.html). What the page does on its
// own is never the action's: after a click that changes nothing, or one
// that starts a 5 s timer, the record has nothing pending, so the look
// waits one frame. An interval an action starts and never stops holds one
// look for the bound, and no later one. (The checks ask the record, not a
// clock: on a loaded machine one look can take seconds.)
func TestSettleAfterAction(t *testing.T) {
	t.Parallel()
	for _, rp := range readPaths {
		t.Run(rp.name, func(t *testing.T) {
			t.Parallel()
			ctx := testCtx(t, 90*time.Second)
			p := open(t, "settle.html")
			rp.set(p)
			s := snapshot(t, p)
			click, busy := settleMoves(t, ctx, p, s)
			for _, button := range []string{"Nothing", "Long"} {
				start := time.Now()
				click(button)
				if busy() {
					t.Errorf("after a click on %s the record has work pending: the page's own interval, poller or frame loop, or a long timer, would hold the look", button)
				}
				snapshot(t, p)
				t.Logf("click on %s and its look: %v", button, time.Since(start))
			}
			for _, c := range []struct{ button, want string }{
				{"Later", "btn-arrived"},
				{"Chain", "chain=done"},
				{"Awaited", "awaited=2"},
				{"Fade", "btn-faded-in"},
			} {
				click(c.button)
				start := time.Now()
				d := snapshot(t, p).String()
				if strings.Contains(d, c.want) {
					continue
				}
				// The look waits for the action's work up to its bound (1.5 s).
				// Two whole suites on two cores (.ci/concurrent) run a 12-frame
				// chain past it: a look cut by the bound, with the work still
				// pending, did what it promises; one that returned early did not.
				if took := time.Since(start); took >= 1500*time.Millisecond || busy() {
					t.Logf("after %s the look ended at its bound (%v) before the page's work did: a loaded machine", c.button, took)
					continue
				}
				t.Errorf("after %s the delta should show %q:\n%s\npage log: %v", c.button, c.want, d, logEntries(t, p))
			}
			click("Forever")
			took, err := rodagent.SettleTook(ctx, p)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("the settle after a click that starts an endless interval: %.0f ms", took)
			// 1.5 s and a frame or two; a loaded machine runs the bound's own
			// timer late (2.4 s seen), an unbounded wait runs to the test's deadline
			if took > 5000 {
				t.Errorf("the settle after a click that starts an endless interval took %.0f ms by the page's clock, want the bound (1.5 s)", took)
			}
			snapshot(t, p)
			click("Nothing")
			if busy() {
				t.Errorf("the endless interval an earlier action started still holds the look after a click that changes nothing")
			}
			// (the 5 s timer may have fired by now: a look can take seconds here)
			var log []string
			eval(t, p, "window.__log.map(e => e.outcome).filter(o => o !== 'long=done')", &log)
			if fmt.Sprint(log) != "[chain=done awaited=2 fade=in]" {
				t.Errorf("the page recorded %v", log)
			}
		})
	}
}

// The timer and frame functions the settle's record wraps in the page's
// world look native to the page.
func TestSettleRecordLooksNative(t *testing.T) {
	t.Parallel()
	p := open(t, "settle.html")
	var got []struct {
		Name, Source string
		Length       int
		Proto, Own   bool
	}
	eval(t, p, `['setTimeout', 'setInterval', 'clearTimeout', 'clearInterval', 'requestAnimationFrame', 'cancelAnimationFrame'].map(n => {
		const f = window[n], d = Object.getOwnPropertyDescriptor(window, n);
		return {name: f.name, source: Function.prototype.toString.call(f), length: f.length, proto: 'prototype' in f,
			own: !!d && d.writable && d.enumerable && d.configurable};
	})`, &got)
	want := map[string]int{"setTimeout": 1, "setInterval": 1, "clearTimeout": 0, "clearInterval": 0, "requestAnimationFrame": 1, "cancelAnimationFrame": 1}
	if len(got) != len(want) {
		t.Fatalf("got %d functions, want %d", len(got), len(want))
	}
	var this []bool
	eval(t, p, `Promise.all([
		new Promise(r => requestAnimationFrame(function () { 'use strict'; r(this === undefined); })),
		new Promise(r => setTimeout(function () { 'use strict'; r(this === window); }, 0)),
		new Promise(r => { const id = setTimeout(() => r(false), 0); clearTimeout(id); setTimeout(() => r(true), 20); }),
	])`, &this)
	if fmt.Sprint(this) != "[true true true]" {
		t.Errorf("callbacks see this as from the browser, and clearTimeout cancels: got %v", this)
	}
	for _, f := range got {
		if f.Source != "function "+f.Name+"() { [native code] }" || f.Length != want[f.Name] || f.Proto || !f.Own {
			t.Errorf("%s shows the record to the page: %+v", f.Name, f)
		}
	}

	// The request functions it wraps (fetch, XMLHttpRequest's send, the
	// reads of a fetch answer's body) look native too, and work as before.
	got = nil
	eval(t, p, `[[window, 'fetch'], [XMLHttpRequest.prototype, 'send'], ...['json', 'text', 'arrayBuffer', 'blob', 'formData', 'bytes'].map(n => [Response.prototype, n])].map(([o, n]) => {
		const f = o[n], d = Object.getOwnPropertyDescriptor(o, n);
		return {name: f.name, source: Function.prototype.toString.call(f), length: f.length, proto: 'prototype' in f,
			own: !!d && d.writable && d.enumerable && d.configurable};
	})`, &got)
	if len(got) != 8 {
		t.Fatalf("got %d request functions, want 8", len(got))
	}
	for _, f := range got {
		wantLen := 0
		if f.Name == "fetch" {
			wantLen = 1
		}
		if f.Source != "function "+f.Name+"() { [native code] }" || f.Length != wantLen || f.Proto || !f.Own {
			t.Errorf("%s shows the record to the page: %+v", f.Name, f)
		}
	}
	var works []string
	eval(t, p, `Promise.all([
		fetch('data:text/plain,fetched').then(r => r.text()),
		new Response('{"a":"read"}').json().then(j => j.a),
		fetch('data:,x').then(r => r.json()).then(() => 'no error', e => e.name),
		new Promise(r => { const x = new XMLHttpRequest(); x.open('GET', 'data:text/plain,sent'); x.onload = () => r(x.responseText); x.send(); }),
		(() => { const x = new XMLHttpRequest(); x.open('GET', 'settle.html', false); x.send(); return String(x.status); })(),
	])`, &works)
	if fmt.Sprint(works) != "[fetched read SyntaxError sent 200]" {
		t.Errorf("the wrapped request functions work as the browser's: got %v", works)
	}
}

// settleNetServer serves the fixtures and settle-net.html's API
// (rodagent.SettleNetHandler) until the test ends.
func settleNetServer(t *testing.T) *httptest.Server {
	t.Helper()
	stop := make(chan struct{})
	s := httptest.NewServer(rodagent.SettleNetHandler(stop))
	t.Cleanup(func() {
		close(stop)
		s.Close()
	})
	return s
}

// settleMoves are a settle test's two moves on p: click the button of s
// named so, and ask the page-world record whether work an action started
// is still pending.
func settleMoves(t *testing.T, ctx context.Context, p *rodagent.Page, s *rodagent.Snapshot) (click func(button string), busy func() bool) {
	click = func(button string) {
		t.Helper()
		if _, err := p.Click(ctx, refNamed(t, s, "button", button)); err != nil {
			t.Fatalf("click %s: %v", button, err)
		}
	}
	busy = func() bool {
		t.Helper()
		b, err := rodagent.SettleBusy(ctx, p)
		if err != nil {
			t.Fatalf("asking the record: %v", err)
		}
		return b
	}
	return click, busy
}

// A look right after an action shows the outcome a request the action
// started brings (settle-net.html): fetch and its json(), an
// XMLHttpRequest's onload, a request started when the first one answered,
// an answer after 1.2 s. The page's own traffic — a poller, a long poll, an
// event stream — never holds a look. A request that never answers holds
// its look to the bound (1.5 s) and no longer, and the look shows what the
// page shows then ("waiting"), never an outcome.
func TestSettleWaitsForNetwork(t *testing.T) {
	t.Parallel()
	srv := settleNetServer(t)
	// Each read path under a host of its own: Chromium opens at most six
	// connections to a host, and each page keeps three busy.
	hosts := []string{srv.URL, strings.Replace(srv.URL, "127.0.0.1", "localhost", 1)}
	for i, rp := range readPaths {
		t.Run(rp.name, func(t *testing.T) {
			t.Parallel()
			ctx := testCtx(t, 90*time.Second)
			p := openURL(t, hosts[i]+"/settle-net.html")
			rp.set(p)
			s := snapshot(t, p)
			// the page's own traffic has answered at least once
			eval(t, p, `new Promise(r => { const c = () => ['polls', 'longpolls', 'events'].every(id => +document.getElementById(id).textContent > 0) ? r(true) : setTimeout(c, 50); c(); })`, nil)
			click, busy := settleMoves(t, ctx, p, s)
			for i := 0; i < 3; i++ {
				click("Nothing")
				if busy() {
					t.Fatalf("after a click that changes nothing the record has work pending: the page's poller, long poll or event stream would hold the look")
				}
				snapshot(t, p)
			}
			for _, c := range []struct{ button, want string }{
				{"Save", `"save=saved"`},
				{"Send", `"xhr=sent"`},
				{"Search", `"search=2 results"`},
				{"Save slowly", `"slow=slow"`},
			} {
				click(c.button)
				start := time.Now()
				d := snapshot(t, p).String()
				if strings.Contains(d, c.want) {
					t.Logf("click on %s and its look: %v", c.button, time.Since(start))
					continue
				}
				// As in TestSettleAfterAction: a look cut by its bound with
				// the request still pending did what it promises (a loaded
				// machine); one that returned early did not.
				if took := time.Since(start); took >= 1500*time.Millisecond || busy() {
					t.Logf("after %s the look ended at its bound (%v) before the answer came: a loaded machine", c.button, took)
					continue
				}
				t.Errorf("after %s the delta should show %s:\n%s\npage log: %v", c.button, c.want, d, logEntries(t, p))
			}
			click("Hang")
			start := time.Now()
			d := snapshot(t, p).String()
			took := time.Since(start)
			t.Logf("the look after a click whose request never answers: %v", took)
			if took < 1400*time.Millisecond {
				t.Errorf("the look after a request that never answers returned after %v, before the bound (1.5 s): it did not wait for it", took)
			}
			if took > 20*time.Second {
				t.Errorf("the look after a request that never answers took %v, want the bound (1.5 s)", took)
			}
			if !strings.Contains(d, `"waiting"`) || strings.Contains(d, "answered") {
				t.Errorf("the look after a request that never answers should show the page as it is (status waiting):\n%s", d)
			}
			click("Nothing")
			if busy() {
				t.Errorf("the request an earlier action started and that never answered still holds the look after a click that changes nothing")
			}
		})
	}
}
