package rodagent_test

import (
	"errors"
	"image/color"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rodagent/rodagent"
)

func TestAnnotateLeavesAMarkWithoutActing(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t, 60*time.Second)
	p := openURL(t, originA+"/shot.html?other="+originB)
	before := snapshot(t, p, rodagent.WithFull())
	plain, err := p.Screenshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	eval(t, p, `(window.__clicks = 0, document.getElementById('first').addEventListener('click', () => __clicks++), true)`, nil)

	if err := p.Annotate(ctx, "btn-first", "the first button"); err != nil {
		t.Fatal(err)
	}
	if err := p.Annotate(ctx, "f1/btn-inner", "inside the frame"); err != nil {
		t.Fatal(err)
	}
	// Screenshots are taken after the next frame has painted the marks.
	marked, err := p.Screenshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	a, b := decodeShot(t, plain), decodeShot(t, marked)
	rgba := func(c color.Color) color.RGBA { return color.RGBAModel.Convert(c).(color.RGBA) }
	for _, pt := range [][2]int{{41, 60}, {61, 200}} { // the left edges of btn-first and of the frame's button
		if rgba(a.At(pt[0], pt[1])) == rgba(b.At(pt[0], pt[1])) {
			t.Errorf("no mark drawn at %v", pt)
		}
	}
	var hit struct {
		Tag   string
		Probe string
	}
	eval(t, p, `({Tag: document.elementFromPoint(42, 60).id, Probe: document.elementFromPoint(120, 64).id})`, &hit)
	if hit.Tag != "first" || hit.Probe != "first" {
		t.Errorf("the mark must not take pointer input: elementFromPoint says %+v", hit)
	}
	if st, err := p.Click(ctx, "btn-first"); err != nil || !st.OK() {
		t.Fatalf("a marked button is still clickable: %v %v", st, err)
	}
	var clicks int
	eval(t, p, "__clicks", &clicks)
	if clicks != 1 {
		t.Errorf("the click should reach the button once, got %d", clicks)
	}
	after := snapshot(t, p, rodagent.WithFull())
	if len(after.Refs) != len(before.Refs) || strings.Contains(after.FullText(), "first button") {
		t.Errorf("marks must stay out of snapshots:\n%s", after.FullText())
	}
	// The mark outlives the turn: still there after the click and the snapshot.
	still, err := p.Screenshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if c := decodeShot(t, still); rgba(c.At(41, 60)) == rgba(a.At(41, 60)) {
		t.Errorf("the mark went away after a click and a snapshot")
	}
	if err := p.ClearAnnotations(ctx); err != nil {
		t.Fatal(err)
	}
	cleared, err := p.Screenshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	c := decodeShot(t, cleared)
	for _, pt := range [][2]int{{41, 60}, {61, 200}} {
		if rgba(c.At(pt[0], pt[1])) != rgba(a.At(pt[0], pt[1])) {
			t.Errorf("ClearAnnotations left a mark at %v", pt)
		}
	}
	var hosts int
	eval(t, p, "document.querySelectorAll('rodagent-mark').length", &hosts)
	if hosts != 0 {
		t.Errorf("%d mark hosts left in the main document", hosts)
	}
	if err := p.Annotate(ctx, "btn-nothing", "x"); !errors.Is(err, rodagent.ErrNotFound) {
		t.Errorf("unknown ref: want ErrNotFound, got %v", err)
	}
}

// An annotated screenshot labels only what a person can reach: refs under a
// modal dialog's backdrop — a native showModal (the page goes inert), a
// scripted one drawn over the page, a library's (MUI) — get no label, and
// get it back when the dialog closes.
func TestAnnotatedShotSkipsRefsUnderAModal(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t, 90*time.Second)
	labelled := func(p *rodagent.Page) []string {
		t.Helper()
		shot, err := p.Screenshot(ctx, rodagent.ShotAnnotate())
		if err != nil {
			t.Fatal(err)
		}
		var refs []string
		for _, r := range shot.Refs {
			refs = append(refs, r.Ref)
		}
		return refs
	}
	click := func(p *rodagent.Page, ref string) {
		t.Helper()
		if st, err := p.Click(ctx, ref); err != nil || !st.OK() {
			t.Fatalf("click %s: %v %v", ref, st, err)
		}
		snapshot(t, p)
	}
	page := []string{"btn-edit-order", "btn-delete-order", "lnk-help", "chk-rush-delivery", "btn-open-native-dialog", "btn-open-custom-dialog"}

	p := open(t, "modal-backdrop.html")
	snapshot(t, p)
	if got := labelled(p); !slices.Equal(got, page) {
		t.Errorf("no dialog open: labels %v, want %v", got, page)
	}
	click(p, "btn-open-native-dialog")
	if got := labelled(p); !slices.Equal(got, []string{"btn-keep-it"}) {
		t.Errorf("native modal dialog open: labels %v, want only the dialog's btn-keep-it", got)
	}
	click(p, "btn-keep-it")
	if got := labelled(p); !slices.Equal(got, page) {
		t.Errorf("native dialog closed: labels %v, want %v", got, page)
	}
	click(p, "btn-open-custom-dialog")
	if got := labelled(p); !slices.Equal(got, []string{"btn-ship"}) {
		t.Errorf("scripted modal over a backdrop: labels %v, want only the dialog's btn-ship", got)
	}

	m := open(t, "components/modal-form.html")
	s := snapshot(t, m)
	opener, ok := findRef(s, "button", "Open settings")
	if !ok {
		t.Fatalf("no Open settings button:\n%s", s.FullText())
	}
	if got := labelled(m); !slices.Contains(got, opener) {
		t.Errorf("MUI page, dialog closed: %s not labelled in %v", opener, got)
	}
	click(m, opener)
	s = snapshot(t, m, rodagent.WithFull())
	got := labelled(m)
	for _, want := range []string{"inp-display-name", "chk-email-me", "btn-cancel", "btn-save"} {
		if !slices.Contains(got, want) {
			t.Errorf("MUI dialog open: its %s is not labelled (%v)", want, got)
		}
	}
	if slices.Contains(got, opener) {
		t.Errorf("MUI dialog open: %s under the backdrop is labelled (%v)", opener, got)
	}
}
