package rodagent_test

import (
	"strings"
	"testing"
	"time"

	"github.com/rodagent/rodagent"
)

// A frame's document cannot see its <iframe> hidden or shown (its own
// watcher records nothing): the delta drops the refs of a frame its parent
// no longer shows and brings them back when it is shown again — also after a
// full read taken while it was hidden — equal to a full read each time, on
// both read paths, for a frame in the page's process and one out of it.
func TestDeltaFrameHiddenAndShown(t *testing.T) {
	t.Parallel()
	for _, src := range []struct{ name, origin string }{{"same-process", originA}, {"out-of-process", originB}} {
		for _, rp := range readPaths {
			t.Run(src.name+"/"+rp.name, func(t *testing.T) {
				t.Parallel()
				p := openURL(t, originA+"/frame-clickables.html?src="+src.origin+"/clickables.html")
				rp.set(p)
				prev := snapshot(t, p)
				framed := func(s *rodagent.Snapshot) int {
					n := 0
					for _, r := range s.Refs {
						if strings.HasPrefix(r.Ref, "f1/") {
							n++
						}
					}
					return n
				}
				shown := framed(prev)
				if shown < 5 {
					t.Fatalf("%d refs in the frame before it was hidden:\n%s", shown, prev)
				}
				for _, step := range []struct {
					what, js string
					full     bool // a full read between the change and the delta
					want     int
				}{
					{"hide the iframe", `document.querySelector('iframe').style.display = 'none'`, false, 0},
					{"show it again", `document.querySelector('iframe').style.display = ''`, false, shown},
					{"hide its container", `document.querySelector('main').hidden = true`, false, 0},
					{"show it after a full read while hidden", `document.querySelector('main').hidden = false`, true, shown},
					{"aria-hide the iframe", `document.querySelector('iframe').setAttribute('aria-hidden', 'true')`, false, 0},
					{"un-aria-hide it", `document.querySelector('iframe').removeAttribute('aria-hidden')`, false, shown},
				} {
					if step.full {
						prev = snapshot(t, p, rodagent.WithFull())
					}
					eval(t, p, step.js, nil)
					atRest(t, p)
					prev = sameAsFull(t, p, prev, step.what)
					if n := framed(prev); n != step.want {
						t.Fatalf("%s: %d refs in the frame, want %d:\n%s", step.what, n, step.want, prev.FullText())
					}
				}
			})
		}
	}
}

// A carousel that rotates by itself (a class or aria-selected toggled on a
// timer, no action of the agent's) shows its new slide in the next delta:
// the slide's links come, the old ones go, and the delta equals a full read,
// on both read paths.
func TestDeltaSeesCarouselRotate(t *testing.T) {
	t.Parallel()
	waiting := waitAtOnce(t)
	defer waiting.wait()
	const dir = "apg/content/patterns/carousel/examples/"
	for _, c := range []struct{ page, slide string }{
		// slides shown by a class (.carousel-item.active { display: block })
		{"carousel-1-prev-next.html", `[...document.querySelectorAll('.carousel-item')].findIndex(e => e.classList.contains('active'))`},
		// slides shown by a tab's aria-selected and the panel's class
		{"carousel-2-tablist.html", `[...document.querySelectorAll('[role=tab]')].findIndex(e => e.getAttribute('aria-selected') === 'true')`},
	} {
		for _, rp := range readPaths {
			waiting.run(c.page+"/"+rp.name, func(t *testing.T) {
				p := openDeltaPage(t, dir+c.page)
				rp.set(p)
				// The mouse stays off the carousel (hovering pauses it), and the
				// snapshot is of one slide: taken again should the slide turn under it.
				var prev *rodagent.Snapshot
				var at int
				for try := 0; try < 3; try++ {
					var before int
					eval(t, p, c.slide, &before)
					prev = snapshot(t, p, rodagent.WithFull())
					eval(t, p, c.slide, &at)
					if at == before {
						break
					}
				}
				var next int
				eval(t, p, `new Promise(r => {
					const at = () => `+c.slide+`;
					const from = at();
					const mo = new MutationObserver(() => { if (at() !== from) { mo.disconnect(); r(at()); } });
					mo.observe(document.body, {subtree: true, attributes: true});
				})`, &next)
				if next == at {
					t.Fatalf("the carousel did not turn: slide %d", at)
				}
				// Stopped there with its own control (reading the AX tree can take
				// longer than a slide stays), so both reads see the turned slide.
				if _, err := p.Click(testCtx(t, 15*time.Second), refNamed(t, prev, "button", "Stop automatic slide show")); err != nil {
					t.Fatal(err)
				}
				atRest(t, p)
				d := snapshot(t, p)
				f := snapshot(t, p, rodagent.WithFull())
				if diff := deltaVersusFull(prev, d, f); diff != "" {
					t.Fatalf("after the carousel turned from slide %d to %d: %s", at, next, diff)
				}
				if d.Delta == nil || len(d.Delta.Added) == 0 || len(d.Delta.Removed) == 0 {
					t.Fatalf("the delta after the carousel turned from slide %d to %d adds and removes no refs:\n%s", at, next, d)
				}
			})
		}
	}
}
