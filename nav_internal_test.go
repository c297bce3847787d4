package rodagent

import (
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
