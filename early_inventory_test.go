package rodagent_test

import (
	"strings"
	"testing"
	"time"

	"github.com/rodagent/rodagent"
)

// The inventory script is registered in the library's isolated world of
// every new document (ax.InstallInventory), so the first look sends no
// script and compiles nothing before the walk. This fails if a world the
// walk reads lacks it: in the main frame, in a same-process and an
// out-of-process frame, after a navigation, in frames added later, on
// Launch and on Connect. And the page's own world sees no trace of it.
func TestEarlyInventoryInEveryWorld(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t, 3*time.Minute)
	stock := connectStock(t, ctx)
	for _, x := range []struct {
		name string
		open func(path string) *rodagent.Page
	}{
		{"Launch", func(path string) *rodagent.Page { return open(t, path) }},
		{"Connect", func(path string) *rodagent.Page {
			p, err := stock.NewPage(ctx, originA+"/"+path)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = p.Close() })
			return p
		}},
	} {
		t.Run(x.name, func(t *testing.T) {
			p := x.open("frames.html?other=" + originB)
			// The look below counts the out-of-process frame's controls. Open
			// returns on DOMContentLoaded and a network quiet, which comes
			// while that frame is still loading (under load the first look
			// read its form half parsed, without the Pay button); the load
			// event waits for every frame.
			if err := p.Wait(ctx, rodagent.Load()); err != nil {
				t.Fatal(err)
			}
			// The page watches its own document from now on: the look must
			// change nothing it can see.
			eval(t, p, `(() => { window.__seen = 0; new MutationObserver(r => window.__seen += r.length).observe(document,
				{subtree: true, childList: true, attributes: true, characterData: true}); return true; })()`, nil)
			s := snapshot(t, p)
			checkEarly(t, p, s, "frames.html", 2)
			var seen struct {
				Seen  int    `json:"seen"`
				Trace string `json:"trace"`
			}
			eval(t, p, `new Promise(r => setTimeout(() => r({seen: window.__seen, trace: typeof globalThis.__rodagent}), 0))`, &seen)
			if seen.Seen != 0 || seen.Trace != "undefined" {
				t.Errorf("the page saw the look: %d mutation records, __rodagent is %s in its world", seen.Seen, seen.Trace)
			}

			// A new document in the same tab, then frames added to it.
			if err := p.Open(testCtx(t, 30*time.Second), originA+"/basic.html"); err != nil {
				t.Fatal(err)
			}
			checkEarly(t, p, snapshot(t, p), "basic.html", 0)
			eval(t, p, `Promise.all(['`+originA+`', '`+originB+`'].map(o => new Promise(r => {
				const f = document.createElement('iframe');
				f.title = 'Added ' + o;
				f.onload = r;
				f.src = o + '/frame-form.html';
				document.body.append(f);
			}))).then(() => true)`, nil)
			checkEarly(t, p, snapshot(t, p, rodagent.WithFull()), "basic.html", 2)
		})
	}
}

// checkEarly fails when a walk of p had to send the inventory script, or
// when s lacks the refs of the frames it should show.
func checkEarly(t *testing.T, p *rodagent.Page, s *rodagent.Snapshot, page string, frames int) {
	t.Helper()
	if n := rodagent.ScriptSends(p); n != 0 {
		t.Errorf("%s: %d walks found no inventory in their world and sent the script", page, n)
	}
	if !strings.HasPrefix(s.Source, rodagent.SourceInventory) || strings.Contains(s.Source, rodagent.SourceAXTree) {
		t.Errorf("%s: read through %q, not the in-page inventory alone", page, s.Source)
	}
	in := map[string]bool{}
	for _, r := range s.Refs {
		if strings.Contains(r.Frame.URL, "frame-form.html") && r.Role == "button" && r.Name == "Pay" {
			in[r.Frame.URL] = true
		}
	}
	if len(in) != frames {
		t.Errorf("%s: Pay buttons in %d frames, want %d (%v)\n%s", page, len(in), frames, in, s)
	}
}
