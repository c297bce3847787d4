package rodagent_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/rodagent/rodagent"
)

// The fast path (the in-page inventory, with roles and names computed in the
// page by accname.js) and the AX-tree path must show an agent the same page:
// compare the two on every fixture, in the same browser.
func TestFastPathMatchesAXTree(t *testing.T) {
	t.Parallel()
	pages := parityPages()
	pages = pages[:len(pages)-1] // not bigtable.html: its AX tree alone takes seconds
	for _, path := range pages {
		t.Run(path, func(t *testing.T) {
			t.Parallel()
			ctx := testCtx(t, 120*time.Second)
			fast := open(t, path)
			slow := open(t, path)
			rodagent.UseAXTree(slow)
			var ready bool
			for _, p := range []*rodagent.Page{fast, slow} {
				eval(t, p, "new Promise(r => { const c = () => (window.__ready !== false) ? r(true) : requestAnimationFrame(c); c(); })", &ready)
			}
			a := snapshot(t, fast)
			b, err := slow.Snapshot(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if (a.Source != rodagent.SourceInventory && path != "shadow.html") || b.Source != rodagent.SourceAXTree {
				t.Errorf("sources %q and %q", a.Source, b.Source)
			}
			if got, want := describeRefs(a), describeRefs(b); got != want {
				t.Errorf("refs differ between the fast path and the AX tree:\n%s", diffLines(got, want))
			}
			if got, want := withoutURL(a.FullText()), withoutURL(b.FullText()); got != want {
				t.Errorf("text differs between the fast path and the AX tree:\n%s", diffLines(got, want))
			}
		})
	}
}

// parityPages are the fixtures the read paths are compared on.
func parityPages() []string {
	return []string{"basic.html", "appshell.html", "actionability.html?banner=off", "native.html", "recorder.html",
		"upload.html", "dialogs.html", "drag.html", "download.html", "frames.html?other=" + originB,
		"nested.html?a=" + originA + "&b=" + originB, "shadow.html", "twins.html", "react/remount.html", "react/popover.html",
		"react/relabel.html", "react/duplicates.html", "react/moved.html", "react/additem.html", "components/radix-select.html",
		"components/shadcn-select.html", "components/mui-select.html", "components/mui-autocomplete.html",
		"components/modal-form.html", "components/locator-form.html", "bigtable.html"}
}

func describeRefs(s *rodagent.Snapshot) string {
	var b strings.Builder
	for _, r := range s.Refs {
		fmt.Fprintf(&b, "%s %s %q nth=%d value=%q checked=%q pressed=%q expanded=%q sel=%v dis=%v ro=%v req=%v edit=%v lm=%q stable=%q inview=%v\n",
			r.Ref, r.Role, r.Name, r.Nth, r.Value, r.Checked, r.Pressed, r.Expanded, r.Selected, r.Disabled, r.Readonly,
			r.Required, r.Editable, r.Landmark, r.Stable, r.InViewport)
	}
	return b.String()
}

func withoutURL(s string) string {
	_, rest, _ := strings.Cut(s, "\n")
	return rest
}

func diffLines(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	var b strings.Builder
	for i := 0; i < len(g) || i < len(w); i++ {
		var x, y string
		if i < len(g) {
			x = g[i]
		}
		if i < len(w) {
			y = w[i]
		}
		if x != y {
			fmt.Fprintf(&b, "  fast: %s\n  tree: %s\n", x, y)
		}
	}
	return b.String()
}
