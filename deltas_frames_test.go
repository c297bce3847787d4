package rodagent_test

import (
	"strings"
	"testing"

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
