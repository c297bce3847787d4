package rodagent_test

import (
	"strings"
	"testing"
	"time"

	"github.com/rodagent/rodagent"
)

// A look right after an action shows what the action set in motion — a
// delayed reveal, a requestAnimationFrame chain, awaited delays, a CSS
// fade-in — on a page that also keeps an interval, a poller, a frame loop
// and a spinner going from load, which no look waits for. A click that
// changes nothing stays quick there, a long timer is not waited for, and an
// interval an action starts and never stops holds one look for the bound at
// most (settle.html).
func TestSettleAfterAction(t *testing.T) {
	t.Parallel()
	for _, rp := range readPaths {
		t.Run(rp.name, func(t *testing.T) {
			t.Parallel()
			ctx := testCtx(t, 90*time.Second)
			p := open(t, "settle.html")
			rp.set(p)
			s := snapshot(t, p)
			// look clicks the button and returns the next look and how long
			// the click and the look took.
			look := func(button string) (string, time.Duration) {
				t.Helper()
				start := time.Now()
				if _, err := p.Click(ctx, refNamed(t, s, "button", button)); err != nil {
					t.Fatalf("click %s: %v", button, err)
				}
				d := snapshot(t, p)
				return d.String(), time.Since(start)
			}
			for _, c := range []struct{ button, want string }{
				{"Later", "btn-arrived"},
				{"Chain", "chain=done"},
				{"Awaited", "awaited=2"},
				{"Fade", "btn-faded-in"},
			} {
				if d, _ := look(c.button); !strings.Contains(d, c.want) {
					t.Errorf("after %s the delta should show %q:\n%s\npage log: %v", c.button, c.want, d, logEntries(t, p))
				}
			}
			// Quick looks: the best of three, against the 1.5 s bound a
			// look would wait if it took the page's own motion for the
			// action's (a loaded machine makes single timings noisy).
			quick := func(button string) time.Duration {
				best := time.Hour
				for range 3 {
					if _, took := look(button); took < best {
						best = took
					}
				}
				return best
			}
			nothing := quick("Nothing")
			t.Logf("a click that changes nothing, with its look: %v (best of 3)", nothing)
			if took := nothing; took > time.Second {
				t.Errorf("a click that changes nothing took %v with its look: the page's own interval, poller, frame loop or spinner held it", took)
			}
			if took := quick("Long"); took > time.Second {
				t.Errorf("a click that starts a 5 s timer took %v with its look: long timers are not the action's to wait for", took)
			}
			_, forever := look("Forever")
			t.Logf("a click that starts an endless interval, with its look: %v", forever)
			if took := forever; took > 5*time.Second {
				t.Errorf("a click that starts an endless interval took %v with its look, want the bound (about 1.5 s)", took)
			}
			if took := quick("Nothing"); took > time.Second {
				t.Errorf("after an endless interval an action started, a click that changes nothing took %v with its look: the interval held it", took)
			}
			if d := snapshot(t, p, rodagent.WithFull()).String(); !strings.Contains(d, "fade=in") || strings.Contains(d, "long=done") {
				t.Errorf("the page's status should be fade=in (the transition ended, the 5 s timer has not fired):\n%s", d)
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
	for _, f := range got {
		if f.Source != "function "+f.Name+"() { [native code] }" || f.Length != want[f.Name] || f.Proto || !f.Own {
			t.Errorf("%s shows the record to the page: %+v", f.Name, f)
		}
	}
}
