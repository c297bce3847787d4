package rodagent_test

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// Elements that change places — a table sorted by moving its rows, a list
// reversed, a React Aria grid sorted by its column header — are news the
// look after the action tells: the reordered stretch in its new order ("↕"
// text lines, and Delta.Moved for refs: the rows, not their cells). Before,
// the look said only that focus moved, and an agent read the sort as
// having done nothing.
func TestLookSaysWhatChangedPlaces(t *testing.T) {
	t.Parallel()
	for _, rp := range readPaths {
		t.Run(rp.name, func(t *testing.T) {
			t.Parallel()
			ctx := testCtx(t, 60*time.Second)
			p := open(t, "reorder.html")
			rp.set(p)
			s := snapshot(t, p)
			if st, err := p.Click(ctx, refNamed(t, s, "button", "Sort by price")); err != nil || !st.OK() {
				t.Fatalf("Click = %s, %v", st, err)
			}
			look := snapshot(t, p)
			var order []string
			for _, tc := range look.Delta.Text {
				if tc.Op == "↕" {
					order = append(order, tc.Text)
				}
			}
			if got := strings.Join(order, ", "); got != "Pear | 1, Fig | 2, Apple | 3" {
				t.Errorf("the look after the sort lists the rows as %q, want them in their new order:\n%s", got, look)
			}
			if !strings.Contains(look.String(), "↕ row \"Pear | 1\"") {
				t.Errorf("the look's text lacks the moved rows:\n%s", look)
			}
			if st, err := p.Click(ctx, refNamed(t, look, "button", "Reverse the links")); err != nil || !st.OK() {
				t.Fatalf("Click = %s, %v", st, err)
			}
			look = snapshot(t, p)
			if got := fmt.Sprint(look.Delta.Moved); got != "[lnk-gamma lnk-beta lnk-alpha]" {
				t.Errorf("moved refs %s, want the links in their new order:\n%s", got, look)
			}
			if !strings.Contains(look.String(), "↕ now in this order: lnk-gamma lnk-beta lnk-alpha") {
				t.Errorf("the look's text lacks the new order:\n%s", look)
			}
			if again := snapshot(t, p); len(again.Delta.Moved)+len(again.Delta.Text) != 0 {
				t.Errorf("a look with nothing moved reports a reorder:\n%s", again)
			}
		})
	}
}

func TestLookSaysAGridsRowsChangedPlaces(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t, 60*time.Second)
	p := open(t, "components7/aria-table.html")
	waitReady(t, p)
	s := snapshot(t, p)
	if st, err := p.Click(ctx, refNamed(t, s, "columnheader", "Name")); err != nil || !st.OK() {
		t.Fatalf("Click = %s, %v", st, err)
	}
	look := snapshot(t, p)
	if got := fmt.Sprint(look.Delta.Moved); got != "[row-dev-patel row-carla-ruiz row-bob-tanaka row-alice-moreau]" {
		t.Errorf("moved %s, want the four rows (not their cells) in their new order:\n%s", got, look)
	}
}
