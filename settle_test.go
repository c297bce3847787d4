package rodagent_test

import (
	"context"
	"fmt"
	"github.com/go-rod/rod/lib/proto"
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
	waiting := waitAtOnce(t)
	defer waiting.wait()
	for _, rp := range readPaths {
		waiting.run(rp.name, func(t *testing.T) {
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
				ds := snapshot(t, p)
				d := ds.String()
				if strings.Contains(d, c.want) {
					continue
				}
				// The look waits for the action's work up to its bound (1.5 s).
				// Two whole suites on two cores (.ci/concurrent) run a 12-frame
				// chain past it: a look cut by the bound, with the work still
				// going, did what it promises if it says so, and the look it
				// asks for shows the outcome; one that returned early did not.
				if ds.Unsettled != "" {
					again := snapshot(t, p)
					t.Logf("after %s the look ended at its bound (%v, %s) before the page's work did: a loaded machine", c.button, time.Since(start), ds.Unsettled)
					if !strings.Contains(d, "still moving") || (again.Unsettled == "" && !strings.Contains(again.String(), c.want)) {
						t.Errorf("after %s a look that ended unsettled should say so, and the next should show %q:\n%s\nthen:\n%s", c.button, c.want, d, again.String())
					}
					continue
				}
				t.Errorf("after %s the delta should show %q:\n%s\npage log: %v", c.button, c.want, d, logEntries(t, p))
			}
			// Loops an action starts that change nothing (Watch: a focus
			// check every 50 ms, a position loop each frame) are an open
			// popover's upkeep: the record tells them from firm work, and
			// the look shows the panel without waiting for their end.
			click("Watch")
			clicked := time.Now()
			ws := snapshot(t, p)
			took := time.Since(clicked)
			loops, err := rodagent.SettleLoopsOnly(ctx, p)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("the look after Watch: %v, unsettled %q", took, ws.Unsettled)
			if !strings.Contains(ws.String(), "btn-watching") {
				t.Errorf("the look after Watch should show its panel:\n%s", ws)
			}
			// A look that ran out its bound with work it had not told apart
			// (unsettled "work") met a machine too loaded for the loops to
			// show themselves (1.8 s, two suites on two cores): the next
			// look, below, must then find rest.
			if time.Since(clicked) < 2500*time.Millisecond && !loops && ws.Unsettled == "" {
				t.Errorf("the record does not tell Watch's interval and frame loop for loops")
			}
			if ws.Unsettled != "" {
				// a machine too loaded for 20 frames in the bound: the look says so, the next finds rest
				if again := snapshot(t, p); again.Unsettled != "" {
					t.Errorf("the looks after Watch say the page is still moving (%s, then %s): its loops change nothing", ws.Unsettled, again.Unsettled)
				}
			}
			click("Forever")
			took2, err := rodagent.SettleTook(ctx, p)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("the settle after a click that starts an endless interval: %.0f ms", took2)
			// 1.5 s and a frame or two; a loaded machine runs the bound's own
			// timer late (2.4 s seen), an unbounded wait runs to the test's deadline
			if took2 > 5000 {
				t.Errorf("the settle after a click that starts an endless interval took %.0f ms by the page's clock, want the bound (1.5 s)", took2)
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
	waiting := waitAtOnce(t)
	defer waiting.wait()
	srv := settleNetServer(t)
	// Each read path under a host of its own: Chromium opens at most six
	// connections to a host, and each page keeps three busy.
	hosts := []string{srv.URL, strings.Replace(srv.URL, "127.0.0.1", "localhost", 1)}
	for i, rp := range readPaths {
		waiting.run(rp.name, func(t *testing.T) {
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
				ds := snapshot(t, p)
				d := ds.String()
				if strings.Contains(d, c.want) {
					t.Logf("click on %s and its look: %v", c.button, time.Since(start))
					continue
				}
				// As in TestSettleAfterAction: a look cut by its bound with
				// the request still pending did what it promises (a loaded
				// machine) and says so; one that returned early did not.
				if took := time.Since(start); ds.Unsettled != "" {
					if !strings.Contains(d, "still moving") {
						t.Errorf("after %s the look ended unsettled (%s) and its text does not say so:\n%s", c.button, ds.Unsettled, d)
					}
					again := snapshot(t, p)
					t.Logf("after %s the look ended at its bound (%v, %s) before the answer came: a loaded machine; the next look took %v", c.button, took, ds.Unsettled, time.Since(start)-took)
					if again.Unsettled == "" && !strings.Contains(again.String(), c.want) {
						t.Errorf("after %s the look after the unsettled one found the page at rest without %s:\n%s", c.button, c.want, again.String())
					}
					continue
				}
				t.Errorf("after %s the delta should show %s:\n%s\npage log: %v", c.button, c.want, d, logEntries(t, p))
			}
			pressed := time.Now() // the input, and the record's clock, start after this
			click("Hang")
			clicked := time.Now()
			hs := snapshot(t, p)
			d := hs.String()
			took := time.Since(clicked)
			// The record gives the request up 3 s after the input, which
			// came after pressed: a look that ended sooner ended before that.
			lookEnd := time.Since(pressed)
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
			// It says the action's work still runs, and the next look waits
			// for it again, until the record gives the request up (3 s after
			// the input by the page's clock, which Click returns well after
			// on a loaded machine); the one after reads at once.
			// (no_frames: a renderer starved of every frame for the whole wait)
			// A look that ended later may rightly find the request given up:
			// one that began 1.5 s or more after the input (two suites at
			// once on 2 cores) waits past the record's 3 s, and at rest is
			// then what the page is.
			if hs.Unsettled == "" && lookEnd >= 3*time.Second {
				t.Logf("the look after the hang ended %v after the click began, past the record's 3 s: at rest, the request given up (a loaded machine)", lookEnd)
			} else if (hs.Unsettled != rodagent.UnsettledWork || !strings.Contains(d, "still moving: a timer or request the action started was still running")) &&
				(hs.Unsettled != rodagent.UnsettledNoFrames || !strings.Contains(d, "still moving: the page drew no frame")) {
				t.Errorf("the look after a request that never answers should say the action's work was still running (unsettled %q):\n%s", hs.Unsettled, d)
			}
			if again := snapshot(t, p); again.Unsettled == "" && time.Since(pressed) < 2900*time.Millisecond {
				t.Errorf("the look after the unsettled one ended %v after the click began, at rest: it did not wait for the request again", time.Since(pressed))
			}
			if s := snapshot(t, p); s.Unsettled != "" {
				t.Errorf("a look 3 s after a click whose request never answers says %q: the record gave the request up", s.Unsettled)
			}
			click("Nothing")
			if busy() {
				t.Errorf("the request an earlier action started and that never answered still holds the look after a click that changes nothing")
			}
		})
	}
}

// A look after an action whose animation does not run to its end in time
// — here the page's animations are frozen through the DevTools Animation
// domain, as a starved renderer's never start — waits to the bound (1.5 s)
// and says the page was still moving; each of the next three looks waits
// again and says so, and the look after them reads the page at once. Once
// the animation runs, a look after the next action finds the page at rest.
func TestSettleSaysStillMoving(t *testing.T) {
	t.Parallel()
	waiting := waitAtOnce(t)
	defer waiting.wait()
	for _, rp := range readPaths {
		waiting.run(rp.name, func(t *testing.T) {
			ctx := testCtx(t, 90*time.Second)
			p := open(t, "settle.html")
			rp.set(p)
			s := snapshot(t, p)
			click, _ := settleMoves(t, ctx, p, s)
			click("Pause") // the page's own motion stops: only the fade moves
			snapshot(t, p)
			rate := func(r float64) {
				t.Helper()
				if err := (proto.AnimationSetPlaybackRate{PlaybackRate: r}).Call(p.Rod().Context(ctx)); err != nil {
					t.Fatalf("Animation.setPlaybackRate(%v): %v", r, err)
				}
			}
			rate(0)
			click("Fade")
			for i := 0; i <= rodagent.MaxResettles+1; i++ {
				start := time.Now()
				s := snapshot(t, p)
				took, text := time.Since(start), s.String()
				// (a renderer starved of every frame for the whole wait, as
				// under two suites at once, says no_frames instead)
				moving := s.Unsettled == rodagent.UnsettledAnimation || s.Unsettled == rodagent.UnsettledNoFrames
				switch {
				case i <= rodagent.MaxResettles && (!moving || took < 1400*time.Millisecond):
					t.Errorf("look %d after Fade took %v and says %q, want the bound (1.5 s) and %q", i+1, took, s.Unsettled, rodagent.UnsettledAnimation)
				case i <= rodagent.MaxResettles && s.Unsettled == rodagent.UnsettledAnimation && !strings.Contains(text, "still moving: an animation was still running"):
					t.Errorf("look %d after Fade: its text should say an animation was still running:\n%s", i+1, text)
				case i <= rodagent.MaxResettles && s.Unsettled == rodagent.UnsettledNoFrames && !strings.Contains(text, "still moving: the page drew no frame"):
					t.Errorf("look %d after Fade: its text should say the page drew no frame:\n%s", i+1, text)
				case i > rodagent.MaxResettles && s.Unsettled != "":
					t.Errorf("look %d after Fade says %q: only %d looks after the first wait again", i+1, s.Unsettled, rodagent.MaxResettles)
				}
			}
			rate(1)
			click("Nothing")
			if s := snapshot(t, p); s.Unsettled != "" || !strings.Contains(s.String(), `"fade=in"`) {
				t.Errorf("once the fade runs, the look after the next action should find the page at rest (unsettled %q) and show the fade's end (fade=in):\n%s", s.Unsettled, s.String())
			}
		})
	}
}
