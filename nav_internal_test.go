package rodagent

import (
	"fmt"
	"strings"
	"testing"

	"github.com/go-rod/rod/lib/proto"
)

// TestNavOutstanding checks that a navigation wait that ran out of time
// names the step still missing, from the page's navigation state alone.
func TestNavOutstanding(t *testing.T) {
	const main, old, doc = proto.PageFrameID("F"), proto.NetworkLoaderID("L0"), proto.NetworkLoaderID("L1")
	cases := []struct {
		name   string
		frame  bool
		nav    navState
		loaded map[string]bool
		want   string
	}{
		{"no frame", false, navState{}, nil, "no main frame yet"},
		{"asked, not committed", true, navState{pending: true}, map[string]bool{"load": true}, "had not committed"},
		{"left a loaded document", true, navState{loading: true, fromReady: true, loadingFrom: doc}, map[string]bool{"load": true}, "next document had not committed"},
		{"committed, no load", true, navState{}, map[string]bool{"DOMContentLoaded": true}, "had not loaded"},
		{"committed, loaded", true, navState{}, map[string]bool{"load": true}, "still navigating"},
		{"content loaded, network quiet", true, navState{loading: true, loadingFrom: old}, map[string]bool{"DOMContentLoaded": true, "networkAlmostIdle": true}, "still navigating"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := &Page{mainFrame: main, frames: map[proto.PageFrameID]*frameInfo{}, loaded: map[proto.NetworkLoaderID]map[string]bool{}, nav: c.nav}
			if c.frame {
				p.frames[main] = &frameInfo{id: main, loader: doc}
				p.loaded[doc] = c.loaded
			}
			got := p.navOutstandingLocked()
			if !strings.Contains(got, c.want) {
				t.Errorf("got %q, want it to say %q", got, c.want)
			}
			if c.want == "still navigating" && strings.Contains(got, "(") {
				t.Errorf("nothing is outstanding, yet it names a step: %q", got)
			}
		})
	}
}

// TestSameDocumentLoadsAreNotLeaving feeds the main frame's navigation
// events, in the orders Chromium 156 sends them, and checks when the page
// reads as leaving its loaded document. A same-document navigation
// (pushState, a fragment) starts and stops the frame's loading with no
// announcement; a navigation to another document is announced first
// (Page.frameStartedNavigating) or requested by the page.
func TestSameDocumentLoadsAreNotLeaving(t *testing.T) {
	const main = proto.PageFrameID("F")
	type ev struct {
		method  string
		sameDoc bool
		leaving bool // leavingLocked after the event
	}
	var (
		announce = ev{"Page.frameStartedNavigating", false, false}
		within   = ev{"Page.frameStartedNavigating", true, false}
		start    = ev{"Page.frameStartedLoading", false, false}
		leave    = ev{"Page.frameStartedLoading", false, true}
		commit   = ev{"Page.frameNavigated", false, false} // a new, loaded document
		stop     = ev{"Page.frameStoppedLoading", false, false}
		request  = ev{"Page.frameRequestedNavigation", false, false}
		first    = []ev{announce, start, commit, stop}
	)
	cases := []struct {
		name       string
		events     []ev
		wantStarts int
	}{
		{"pushState twice", append(first, start, stop, start, stop), 1},
		{"history step within the document", append(first, within, start, stop), 1},
		{"link to another document", append(first, request, announce, leave, commit, stop), 2},
		{"history step to another document", append(first, announce, leave, commit, stop), 2},
		{"a navigation that ends without a document", append(first, announce, leave, stop, start, stop), 2},
		{"announced after its loading began", append(first, start, ev{"Page.frameStartedNavigating", false, true}, commit, stop), 2},
		{"a browser that announces nothing", []ev{start, commit, stop, leave, stop}, 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := &Page{mainFrame: main, frames: map[proto.PageFrameID]*frameInfo{main: {id: main, loader: "L0"}},
				loaded: map[proto.NetworkLoaderID]map[string]bool{"L0": {}}}
			for i, e := range c.events {
				if e.method == "Page.frameNavigated" {
					// as Page.onEvent does before it records the commit
					loader := proto.NetworkLoaderID(fmt.Sprint("L", i))
					p.frames[main].loader = loader
					p.loaded[loader] = map[string]bool{"load": true}
				}
				p.onNavEvent(e.method, "", e.sameDoc)
				if got := p.leavingLocked(); got != e.leaving {
					t.Errorf("after event %d (%s): leaving %v, want %v", i, e.method, got, e.leaving)
				}
			}
			if p.nav.starts != c.wantStarts {
				t.Errorf("starts %d, want %d", p.nav.starts, c.wantStarts)
			}
		})
	}
}
