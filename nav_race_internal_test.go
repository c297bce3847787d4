//go:build race

package rodagent

import (
	"context"
	"sync"
	"testing"

	"github.com/go-rod/rod/lib/proto"
)

// awaitNearLoad reads the main document's lifecycle while the event router
// records lifecycle events into the same map (Page.onEvent, under p.mu). A
// read of that map after p.mu was let go is a data race, which the race
// detector reports against every test running at that moment (under load
// in CI: TestAnnotateLeavesAMarkWithoutActing, TestSettleAfterAction,
// TestActionNavigationsSettle, … all failed with "race detected during
// execution of test"). The test only means something under -race, hence
// its build tag.
func TestAwaitNearLoadReadsLifecycleUnderLock(t *testing.T) {
	const main, doc = proto.PageFrameID("F"), proto.NetworkLoaderID("L1")
	p := &Page{
		mainFrame: main,
		frames:    map[proto.PageFrameID]*frameInfo{main: {id: main, loader: doc}},
		loaded:    map[proto.NetworkLoaderID]map[string]bool{doc: {"DOMContentLoaded": true, "load": true}},
		changed:   make(chan struct{}),
	}
	const rounds = 2000
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { // the event router: Page.lifecycleEvent for the same document
		defer wg.Done()
		for i := 0; i < rounds; i++ {
			p.mu.Lock()
			p.loaded[doc]["load"] = true
			p.notify()
			p.mu.Unlock()
		}
	}()
	ctx := context.Background()
	for i := 0; i < rounds; i++ {
		p.awaitNearLoad(ctx) // the document has loaded: returns without asking the renderer
	}
	wg.Wait()
}
