package rodagent_test

import (
	"bytes"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rodagent/rodagent"
)

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// An event handler that panics does not take the program down: the router
// recovers it, logs it, marks its page broken (every call then fails with
// ErrPageBroken), and the other pages on the connection carry on.
func TestHandlerPanicBreaksOnlyItsPage(t *testing.T) {
	t.Parallel()
	var logs syncBuffer
	ctx := testCtx(t, 60*time.Second)
	b, err := rodagent.Connect(ctx, shared.DevToolsURL(),
		rodagent.WithLogger(slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelError}))))
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	p, err := b.NewPage(ctx, originA+"/basic.html")
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	q, err := b.NewPage(ctx, originA+"/basic.html")
	if err != nil {
		t.Fatal(err)
	}
	defer q.Close()
	rodagent.BreakOnNextEvent(p)
	eval(t, p, "(console.log('an event for the page'), 1)", nil)
	// The panic is handled on the router goroutine; the page learns of it there.
	err = p.Wait(ctx, rodagent.URLMatches("never"))
	if !errors.Is(err, rodagent.ErrPageBroken) {
		t.Fatalf("waiting on a page whose handler panicked: %v, want ErrPageBroken", err)
	}
	if _, err := p.Snapshot(ctx); !errors.Is(err, rodagent.ErrPageBroken) {
		t.Errorf("Snapshot on a broken page: %v", err)
	}
	if _, err := p.Press(ctx, "Tab"); !errors.Is(err, rodagent.ErrPageBroken) {
		t.Errorf("Press on a broken page: %v", err)
	}
	if l := logs.String(); !strings.Contains(l, "panicked") || !strings.Contains(l, "nil pointer") {
		t.Errorf("the panic is logged with its cause: %q", l)
	}
	s, err := q.Snapshot(ctx)
	if err != nil {
		t.Fatalf("another page on the same connection: %v", err)
	}
	if st, err := q.Click(ctx, refNamed(t, s, "button", "Add row")); err != nil || !st.OK() {
		t.Errorf("another page keeps acting: %s %v", st, err)
	}
}
