package rodagent_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rodagent/rodagent"
)

// approvals records what an Approver was shown, and refuses what deny says.
type approvals struct {
	mu   sync.Mutex
	seen []rodagent.Action
	deny func(rodagent.Action) bool
}

func (a *approvals) Approve(_ context.Context, x rodagent.Action) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.seen = append(a.seen, x)
	if a.deny != nil && a.deny(x) {
		return errors.New("the user said no")
	}
	return nil
}

func (a *approvals) last(t *testing.T) rodagent.Action {
	t.Helper()
	a.mu.Lock()
	defer a.mu.Unlock()
	if len(a.seen) == 0 {
		t.Fatal("the Approver was never asked")
	}
	return a.seen[len(a.seen)-1]
}

// connectWith attaches to the shared browser with an Approver: a second
// connection, not a second Chromium.
func connectWith(t *testing.T, ap rodagent.Approver) *rodagent.Browser {
	t.Helper()
	b, err := rodagent.Connect(testCtx(t, 30*time.Second), shared.DevToolsURL(), rodagent.WithApprover(ap))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = b.Close() })
	return b
}

func TestApproverSeesTheRenamedButton(t *testing.T) {
	t.Parallel()
	ap := &approvals{deny: func(a rodagent.Action) bool { return strings.Contains(a.Name, "Delete") }}
	b := connectWith(t, ap)
	ctx := testCtx(t, 60*time.Second)
	p, err := b.NewPage(ctx, originA+"/basic.html")
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	eval(t, p, `(() => { const b = document.createElement('button'); b.textContent = 'Cancel'; b.id = 'danger';
		b.onclick = () => { window.__deleted = true; }; document.body.prepend(b); return 1; })()`, nil)
	s, err := p.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	ref := refNamed(t, s, "button", "Cancel")
	// After the snapshot, the page turns the harmless button into a dangerous one.
	eval(t, p, `(document.getElementById('danger').textContent = 'Delete account', 1)`, nil)
	st, err := p.Click(ctx, ref)
	a := ap.last(t)
	if a.Verb != "click" || a.Name != "Delete account" || a.Role != "button" || a.Target != ref {
		t.Errorf("the Approver must see the element as it is now, got %+v", a)
	}
	if a.Origin != originA || a.TabOrigin != originA || !strings.HasPrefix(a.URL, originA+"/basic.html") {
		t.Errorf("origin and URL of the page acted on: %+v", a)
	}
	if st != rodagent.Denied || !errors.Is(err, rodagent.ErrNotAllowed) || !errors.Is(err, rodagent.ErrDenied) {
		t.Fatalf("a refused click: status %q, err %v; want denied with ErrNotAllowed", st, err)
	}
	var ae *rodagent.ActionError
	if !errors.As(err, &ae) || ae.Status != rodagent.Denied || ae.Next == "" {
		t.Errorf("a denial is an ActionError with a next move: %#v", err)
	}
	var deleted bool
	eval(t, p, "!!window.__deleted", &deleted)
	if deleted {
		t.Errorf("the refused click reached the page")
	}
	if r := p.LastAction(); r.Status != rodagent.Denied {
		t.Errorf("LastAction after a denial: %+v", r)
	}
	// The same ref, renamed back, is approved and lands.
	eval(t, p, `(document.getElementById('danger').textContent = 'Cancel', 1)`, nil)
	if st, err := p.Click(ctx, ref); err != nil || !st.OK() {
		t.Fatalf("an approved click: %s %v", st, err)
	}
	if a := ap.last(t); a.Name != "Cancel" {
		t.Errorf("approved as %+v", a)
	}
}

func TestApproverSeesTheFrameOrigin(t *testing.T) {
	t.Parallel()
	ap := &approvals{}
	b := connectWith(t, ap)
	ctx := testCtx(t, 60*time.Second)
	p, err := b.NewPage(ctx, originA+"/frames.html?other="+originB)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	// the load event fires once every frame, the cross-origin one too, has
	// loaded: the frame's refs are not read while it is still about:blank
	if err := p.Wait(ctx, rodagent.Load()); err != nil {
		t.Fatal(err)
	}
	s, err := p.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var in *rodagent.BrowserRef
	for i, r := range s.Refs {
		if strings.HasPrefix(r.Frame.URL, originB) && r.Role == "textbox" {
			in = &s.Refs[i]
			break
		}
	}
	if in == nil {
		t.Fatalf("no text field in the cross-origin frame:\n%s", s.FullText())
	}
	if st, err := p.Focus(ctx, in.Ref); err != nil || !st.OK() {
		t.Fatalf("focus in the frame: %s %v", st, err)
	}
	a := ap.last(t)
	if a.Origin != originB || !strings.HasPrefix(a.URL, originB+"/") || a.TabOrigin != originA {
		t.Errorf("an element in a cross-origin frame is presented with the frame's origin (%s) and the tab's (%s): %+v", originB, originA, a)
	}
	if a.Name != in.Name || a.Role != "textbox" {
		t.Errorf("role and name of the frame's field: %+v, want %q", a, in.Name)
	}
}

// Every surface: tab-wide calls carry the page's live URL, and a denial of
// each is typed.
func TestEveryDenialIsTyped(t *testing.T) {
	t.Parallel()
	ap := &approvals{deny: func(rodagent.Action) bool { return true }}
	b := connectWith(t, ap)
	ctx := testCtx(t, 60*time.Second)
	p, err := shared.NewPage(ctx, originA+"/basic.html") // opened without the Approver
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	q, err := b.Page(ctx, p.ID())
	if err != nil {
		t.Fatal(err)
	}
	s, err := q.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	calls := map[string]func() (rodagent.ActionStatus, error){
		"press":  func() (rodagent.ActionStatus, error) { return q.Press(ctx, "Tab") },
		"scroll": func() (rodagent.ActionStatus, error) { return q.Scroll(ctx, "down", 0) },
		"type":   func() (rodagent.ActionStatus, error) { return q.Type(ctx, refNamed(t, s, "textbox", "Name"), "x") },
		"open":   func() (rodagent.ActionStatus, error) { return "", q.Open(ctx, originA+"/next.html") },
		"reload": func() (rodagent.ActionStatus, error) { return "", q.Reload(ctx) },
		"back":   func() (rodagent.ActionStatus, error) { return "", q.Back(ctx) },
	}
	for verb, call := range calls {
		st, err := call()
		if !errors.Is(err, rodagent.ErrNotAllowed) || !errors.Is(err, rodagent.ErrDenied) {
			t.Errorf("%s refused: %v, want ErrNotAllowed and ErrDenied", verb, err)
		}
		if st != "" && st != rodagent.Denied {
			t.Errorf("%s refused: status %q", verb, st)
		}
		a := ap.last(t)
		if a.Verb != verb || a.URL == "" || a.TabOrigin != originA {
			t.Errorf("%s: approval %+v", verb, a)
		}
	}
	if _, err := b.NewPage(ctx, originA+"/basic.html"); !errors.Is(err, rodagent.ErrNotAllowed) {
		t.Errorf("NewPage refused: %v", err)
	}
}

// A Select on a dropdown drawn with ARIA opens it and clicks an option:
// the Approver is asked once, about the Select and the control as it is
// now, not again for each click that carries it out. A refusal stops the
// Select before any click: the dropdown stays closed.
func TestApproverAskedOnceForSelect(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ page, name, option, want string }{
		{"components/radix-select.html", "Fruit", "Banana", "banana"},
		{"components/mui-select.html", "Age", "Twenty", "20"},
	} {
		t.Run(tc.page, func(t *testing.T) {
			t.Parallel()
			for _, deny := range []bool{false, true} {
				ap := &approvals{deny: func(a rodagent.Action) bool { return deny && a.Verb != "open" }}
				b := connectWith(t, ap)
				ctx := testCtx(t, 60*time.Second)
				p, err := b.NewPage(ctx, originA+"/"+tc.page)
				if err != nil {
					t.Fatal(err)
				}
				waitReady(t, p)
				s, err := p.Snapshot(ctx)
				if err != nil {
					t.Fatal(err)
				}
				ref := refNamed(t, s, "combobox", tc.name)
				ap.mu.Lock()
				ap.seen = nil // opening the page was asked about
				ap.mu.Unlock()
				st, err := p.Select(ctx, ref, tc.option)
				ap.mu.Lock()
				seen := append([]rodagent.Action(nil), ap.seen...)
				ap.mu.Unlock()
				if len(seen) != 1 || seen[0].Verb != "select" || seen[0].Target != ref || seen[0].Role != "combobox" || seen[0].Text != tc.option {
					t.Errorf("deny=%v: the Approver was asked %d times, want once for the select: %+v", deny, len(seen), seen)
				}
				var expanded string
				eval(t, p, `document.querySelector('[role=combobox]').getAttribute('aria-expanded') || ''`, &expanded)
				if deny {
					if st != rodagent.Denied || !errors.Is(err, rodagent.ErrNotAllowed) {
						t.Errorf("a refused Select: %s %v", st, err)
					}
					if expanded == "true" || resultText(t, p) != "" {
						t.Errorf("a refused Select reached the page: expanded=%q result=%q", expanded, resultText(t, p))
					}
				} else if err != nil || !st.OK() || resultText(t, p) != tc.want {
					t.Errorf("Select %q: %s %v, result %q", tc.option, st, err, resultText(t, p))
				}
				_ = p.Close()
			}
		})
	}
	// A missing option: the Select opens the dropdown, finds no such option
	// and closes it again (Escape), all under its one approval.
	t.Run("missing option", func(t *testing.T) {
		t.Parallel()
		ap := &approvals{}
		b := connectWith(t, ap)
		ctx := testCtx(t, 60*time.Second)
		p, err := b.NewPage(ctx, originA+"/components/radix-select.html")
		if err != nil {
			t.Fatal(err)
		}
		defer p.Close()
		waitReady(t, p)
		s, err := p.Snapshot(ctx)
		if err != nil {
			t.Fatal(err)
		}
		ref := refNamed(t, s, "combobox", "Fruit")
		ap.mu.Lock()
		ap.seen = nil
		ap.mu.Unlock()
		st, err := p.Select(ctx, ref, "Durian")
		wantStatus(t, "Select a missing option", st, err, rodagent.NotFound, rodagent.ErrNotFound)
		ap.mu.Lock()
		defer ap.mu.Unlock()
		if len(ap.seen) != 1 || ap.seen[0].Verb != "select" {
			t.Errorf("the Approver was asked %d times, want once for the select: %+v", len(ap.seen), ap.seen)
		}
	})
}
