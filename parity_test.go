package rodagent_test

import (
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/rodagent/rodagent"
)

// The fast path (the in-page inventory, with roles and names computed in the
// page by accname.js) and the AX-tree path must show an agent the same page:
// compare the two on every fixture and on the W3C APG example pages, in the
// same browser: the same refs (handles, roles, names, every state, in view or
// not) and the same text.
func TestFastPathMatchesAXTree(t *testing.T) {
	t.Parallel()
	pages := parityPages()
	pages = pages[:len(pages)-1] // not bigtable.html: its AX tree alone takes seconds
	if !*sweep && !*sweepLong {
		pages = parityPlainPages()
	}
	pages = append(pages, "paths.html")
	for _, path := range pages {
		t.Run(path, func(t *testing.T) {
			t.Parallel()
			compareReadPaths(t, path, func(p *rodagent.Page) {
				var ready bool
				eval(t, p, "new Promise(r => { const c = () => (window.__ready !== false) ? r(true) : requestAnimationFrame(c); c(); })", &ready)
			})
		})
	}
	for _, path := range components3Parity(t) {
		t.Run(path, func(t *testing.T) {
			t.Parallel()
			compareReadPaths(t, path, func(p *rodagent.Page) { waitReady(t, p); pageQuiet(t, p) })
		})
	}
	batches := append(append(append(components4Parity(t), components5Parity(t)...), components6Parity(t)...), components7Parity(t)...)
	for _, path := range append(batches, components8Parity(t)...) {
		t.Run(path, func(t *testing.T) {
			t.Parallel()
			compareReadPaths(t, path, func(p *rodagent.Page) { waitReady(t, p); pageQuiet(t, p) })
		})
	}
	for _, path := range sweepPages(apgPages(t), 4) {
		t.Run(path, func(t *testing.T) {
			t.Parallel()
			compareReadPaths(t, path, func(p *rodagent.Page) { apgSettled(t, p); pageQuiet(t, p) })
		})
	}
}

// compareReadPaths opens path, reads it with the in-page inventory, then
// reads the same tab, at the same moment of the page, from the AX tree, and
// fails on any difference an agent could see. (One tab, not two: two tabs of
// a page with timers are rarely at the same moment, and loading is most of
// the test's time.) Handles of the same element carry over from the first
// read to the second, so a difference of names shows as such.
func compareReadPaths(t *testing.T, path string, settled func(*rodagent.Page)) {
	t.Helper()
	// A page that moves on its own (the APG carousel turns every five
	// seconds, longer than pageQuiet waits) can turn between the two reads:
	// a difference is read again on a fresh tab, and only one that holds on
	// every try fails. A real difference between the paths is the same on
	// each try.
	var diffs []string
	for try := 1; try <= 3; try++ {
		if diffs = readPathDiffs(t, path, settled); len(diffs) == 0 {
			return
		}
		if try < 3 {
			t.Logf("try %d: the read paths differ; reading a fresh tab again:\n%s", try, strings.Join(diffs, "\n"))
		}
	}
	for _, d := range diffs {
		t.Error(d)
	}
}

// readPathDiffs does one comparison of compareReadPaths and returns what
// differs.
func readPathDiffs(t *testing.T, path string, settled func(*rodagent.Page)) []string {
	t.Helper()
	p := open(t, path) // kept until the test ends, then parked for reuse
	settled(p)
	// Frames attach on their own schedule (nested.html's second and third
	// levels come after the main document is ready): read until two reads
	// in a row agree, bounded, so the comparison sees the page at rest.
	a := snapshot(t, p)
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); {
		again := snapshot(t, p, rodagent.WithFull())
		if again.FullText() == a.FullText() && describeRefs(again) == describeRefs(a) {
			break
		}
		a = again
	}
	rodagent.UseAXTree(p)
	b := snapshot(t, p, rodagent.WithFull())
	var diffs []string
	if (a.Source != rodagent.SourceInventory && path != "shadow.html") || b.Source != rodagent.SourceAXTree {
		diffs = append(diffs, fmt.Sprintf("sources %q and %q", a.Source, b.Source))
	}
	if got, want := describeRefs(a), describeRefs(b); got != want {
		diffs = append(diffs, fmt.Sprintf("refs differ between the fast path (-) and the AX tree (+):\n%s", diffLines(got, want)))
	}
	if got, want := withoutURL(a.FullText()), withoutURL(b.FullText()); got != want {
		diffs = append(diffs, fmt.Sprintf("text differs between the fast path (-) and the AX tree (+):\n%s", diffLines(got, want)))
	}
	if got, want := describeContexts(a), describeContexts(b); got != want {
		diffs = append(diffs, fmt.Sprintf("contexts differ between the fast path (-) and the AX tree (+):\n%s", diffLines(got, want)))
	}
	return diffs
}

// describeContexts lists each ref's Context: what tells apart refs of the
// same role and name, in an ambiguous error and to an agent's own code.
func describeContexts(s *rodagent.Snapshot) string {
	var b strings.Builder
	for _, r := range s.Refs {
		fmt.Fprintf(&b, "%s context=%q\n", r.Ref, r.Context)
	}
	return b.String()
}

// pageQuiet waits until the page has loaded (APG pages build their skip-to
// button, and set some fields, on the load event) and its DOM, same-origin
// frames included, has stopped changing for a moment (a feed adds articles
// on timers), at most 20 s for the load and 5 s for the rest: the two reads
// must see the page at rest.
func pageQuiet(t testing.TB, p *rodagent.Page) {
	t.Helper()
	eval(t, p, `new Promise(r => {
		const docs = () => [document, ...[...document.querySelectorAll('iframe')].map(f => { try { return f.contentDocument; } catch (e) { return null; } }).filter(Boolean)];
		let last = performance.now();
		const t0 = last;
		let tq = 0;
		const mo = new MutationObserver(() => { last = performance.now(); });
		const watched = new Set();
		const c = () => {
			for (const d of docs()) if (!watched.has(d)) { watched.add(d); mo.observe(d, {subtree: true, childList: true, attributes: true, characterData: true}); last = performance.now(); }
			if (!docs().every(d => d.readyState === 'complete') && performance.now() - t0 < 20000) return setTimeout(c, 50);
			tq = tq || performance.now();
			if (performance.now() - tq > 5000 || performance.now() - last > 300) { mo.disconnect(); r(true); } else setTimeout(c, 50);
		};
		c();
	})`, nil)
}

// components3Parity are the widget-library pages the read paths are
// compared on: under -sweep all of components3 but the ones below, else the
// pages where they once differed (ElementInternals roles, a labelled custom
// element, a listener around slots, items Chromium takes for generic boxes,
// a menu item inside an aria-disabled <li>, Material's select whose label
// rests in its box, Shoelace's select on a readonly input, Bootstrap's
// focusable tab panel holding its text).
var components3Differ = map[string]bool{}

func components3Parity(t *testing.T) []string {
	t.Helper()
	if !*sweep && !*sweepLong {
		return []string{"components3/md-tabs.html", "components3/md-toggles.html", "components3/shoelace-tabs.html",
			"components3/jqui-selectmenu.html", "components3/jqui-menu.html", "components3/md-select.html",
			"components3/shoelace-select.html", "components3/bs-tabs.html"}
	}
	files, err := filepath.Glob("testdata/fixtures/components3/*.html")
	if err != nil || len(files) < 27 {
		t.Fatalf("components3: %d pages (%v), want at least 27", len(files), err)
	}
	var pages []string
	for _, f := range files {
		if p := strings.TrimPrefix(filepath.ToSlash(f), "testdata/fixtures/"); !components3Differ[p] {
			pages = append(pages, p)
		}
	}
	return pages
}

// components5Parity are the pages of the fifth widget batch the read paths
// are compared on: under -sweep all of them, else the ones where a 0×0
// checkbox in its label, a switch drawn with its words in a clickable box,
// a dialog body's text Chromium keeps no element node for, list items
// under a grab cursor, and a <select multiple> clipped to 1 px by its own
// class beside the widget that replaces it (Tom Select) are read alike.
func components5Parity(t *testing.T) []string {
	t.Helper()
	return batchParity(t, "components5", 13, "components5/element-switch.html", "components5/element-dialog.html", "components5/sortable-list.html", "components5/tomselect-tags.html")
}

// components6Parity are the pages of the sixth widget batch the read paths
// are compared on: under -sweep all of them, else the ones where a
// checkbox in an empty label box is named by the words beside it, an
// editing host no role marks is a textbox, a caret is named by its svg's
// title, a role=textbox span's text is its value (Select2), and a row's
// or list's context comes from its first text that is no control's
// (a shadow grid's slotted cells, a spin button's value, an <a> without
// href).
func components6Parity(t *testing.T) []string {
	t.Helper()
	return batchParity(t, "components6", 14, "components6/antd-transfer.html", "components6/quill-editor.html", "components6/blueprint-tree.html",
		"components6/select2-select.html", "components6/vaadin-grid.html", "components6/blueprint-numeric.html", "components6/antd-table.html")
}

// components8Parity are the pages of the eighth widget batch the read
// paths are compared on: under -sweep all of them, else the ones where a
// field's box role=combobox around its input role=combobox gives way to
// the input, an unnamed slider is named by the <label> beside it and its
// thumb's listening layers are its drawing (Vuetify), and a data table's
// header row holds a select-all checkbox and a sortable column.
func components8Parity(t *testing.T) []string {
	t.Helper()
	return batchParity(t, "components8", 10, "components8/vuetify-select.html", "components8/vuetify-slider.html", "components8/vuetify-datatable.html")
}

// components7Parity are the pages of the seventh widget batch the read
// paths are compared on: under -sweep all of them, else the ones where a
// date field's segments (editing hosts made spin buttons) take their value
// from ARIA and are editable only as their style allows, a column header's
// aria-hidden sort arrow stays out of its row's name, and a tag's cell
// drawn with display: contents gets no ref.
func components7Parity(t *testing.T) []string {
	t.Helper()
	return batchParity(t, "components7", 9, "components7/aria-datepicker.html", "components7/muix-datepicker.html", "components7/aria-table.html", "components7/aria-taggroup.html")
}

// components4Parity are the pages of the fourth widget batch the read paths
// are compared on: under -sweep all of them, else the ones where the walk
// takes a label, a drawn box or a role=checkbox track back for the
// checkbox it draws (the fast path must do as the AX tree's walk does).
func components4Parity(t *testing.T) []string {
	t.Helper()
	return batchParity(t, "components4", 16, "components4/prime-toggles.html", "components4/carbon-toggles.html", "components4/fluent-toggles.html")
}

// apgPages are the W3C APG example pages, all of them.
func apgPages(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob("testdata/fixtures/apg/content/patterns/*/examples/*.html")
	if err != nil || len(files) < 33 {
		t.Fatalf("the APG examples: %d pages (%v), want at least 33", len(files), err)
	}
	for i, f := range files {
		files[i] = strings.TrimPrefix(filepath.ToSlash(f), "testdata/fixtures/")
	}
	return files
}

// parityPages are the fixtures the read paths are compared on.
func parityPages() []string {
	return []string{"basic.html", "appshell.html", "actionability.html?banner=off", "native.html", "recorder.html",
		"upload.html", "dialogs.html", "drag.html", "download.html", "frames.html?other=" + originB,
		"nested.html?a=" + originA + "&b=" + originB, "shadow.html", "twins.html", "react/remount.html", "react/popover.html",
		"react/relabel.html", "react/duplicates.html", "react/moved.html", "react/additem.html", "components/radix-select.html",
		"components/shadcn-select.html", "components/mui-select.html", "components/mui-autocomplete.html",
		"components/modal-form.html", "components/locator-form.html", "pictures.html", "declared-rows.html", "bigtable.html"}
}

// parityPlainPages are the fixtures the plain run compares the read paths
// on (-sweep: all of parityPages): one of each kind a person meets — a form,
// an app shell, native controls, an out-of-process frame, nested frames
// across origins, shadow DOM, twin controls, React apps that remount and pop
// over, component-library selects and a modal, images — so that go test ./...
// stays within its time on 2 cores.
func parityPlainPages() []string {
	return []string{"basic.html", "appshell.html", "native.html", "frames.html?other=" + originB,
		"nested.html?a=" + originA + "&b=" + originB, "shadow.html", "twins.html", "react/remount.html",
		"react/popover.html", "components/radix-select.html", "components/mui-autocomplete.html",
		"components/modal-form.html", "pictures.html"}
}

func describeRefs(s *rodagent.Snapshot) string {
	var b strings.Builder
	for _, r := range s.Refs {
		fmt.Fprintf(&b, "%s %s %q nth=%d {%s} lm=%q stable=%q inview=%v\n",
			r.Ref, r.Role, r.Name, r.Nth, stateFields(r.State), r.Landmark, r.Stable, r.InViewport)
	}
	return b.String()
}

// stateFields lists every state field that is set, by name.
func stateFields(st rodagent.State) string {
	v := reflect.ValueOf(st)
	var out []string
	for i := 0; i < v.NumField(); i++ {
		if !v.Field(i).IsZero() {
			out = append(out, fmt.Sprintf("%s:%v", v.Type().Field(i).Name, v.Field(i).Interface()))
		}
	}
	return strings.Join(out, " ")
}

func withoutURL(s string) string {
	_, rest, _ := strings.Cut(s, "\n")
	return rest
}

// diffLines shows the lines only one side has, in order (a longest common
// subsequence diff): "- " lines only got has, "+ " lines only want has.
func diffLines(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	// lcs[i][j]: length of the longest common subsequence of g[i:] and w[j:]
	lcs := make([][]int, len(g)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(w)+1)
	}
	for i := len(g) - 1; i >= 0; i-- {
		for j := len(w) - 1; j >= 0; j-- {
			if g[i] == w[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var b strings.Builder
	i, j := 0, 0
	for i < len(g) || j < len(w) {
		switch {
		case i < len(g) && j < len(w) && g[i] == w[j]:
			i, j = i+1, j+1
		case j >= len(w) || (i < len(g) && lcs[i+1][j] >= lcs[i][j+1]):
			fmt.Fprintf(&b, "  - %s\n", g[i])
			i++
		default:
			fmt.Fprintf(&b, "  + %s\n", w[j])
			j++
		}
	}
	return b.String()
}

// Where the read paths used to part, both now show what a person sees, and
// a delta after acting there equals a full read (paths.html):
// items reached by aria-activedescendant are refs; a list box <select>'s
// options are refs with their selected state; an option scrolled out of its
// own list is not in view, until the list scrolls to it; a sorted column's
// header is a ref with its order; an <a> without href but with a mouse
// handler is a link, a bare one nothing.
func TestReadPathsAgreeOnHardCases(t *testing.T) {
	t.Parallel()
	for _, rp := range readPaths {
		t.Run(rp.name, func(t *testing.T) {
			t.Parallel()
			ctx := testCtx(t, 60*time.Second)
			p := open(t, "paths.html")
			rp.set(p)
			s := snapshot(t, p)
			ref := func(role, name string) rodagent.BrowserRef {
				t.Helper()
				r, _ := s.Ref(refNamed(t, s, role, name))
				return r
			}
			for _, c := range [][2]string{{"gridcell", "1"}, {"gridcell", "3"}, {"gridcell", "Banana"}, {"option", "Red"},
				{"menuitem", "Copy"}, {"radio", "Small"}} {
				ref(c[0], c[1])
			}
			if r := ref("gridcell", "2"); !r.Selected {
				t.Errorf("the active, selected day is not shown selected: %+v", r)
			}
			if r := ref("option", "Olives"); !r.Selected || ref("option", "Cheese").Selected || !ref("option", "Anchovies").Disabled {
				t.Errorf("a list box select's options carry their state: %s", s.FullText())
			}
			if r := ref("listbox", "Toppings"); r.Value != "" || !r.Multiselectable {
				t.Errorf("the multi-select list box: %+v", r)
			}
			if _, ok := findRef(s, "option", "One"); ok {
				t.Errorf("a drop-down select's options are the browser's popup, not refs:\n%s", s.FullText())
			}
			if ref("option", "Item 1").InViewport || !ref("option", "Item 4").InViewport || ref("option", "Item 9").InViewport {
				t.Errorf("options scrolled out of their list are out of view, the ones shown in view:\n%s", describeRefs(s))
			}
			if ref("columnheader", "Customer").Sort != "ascending" || ref("columnheader", "Kind").Sort != "other" {
				t.Errorf("sorted headers carry their order:\n%s", describeRefs(s))
			}
			if _, ok := findRef(s, "columnheader", "Note"); ok {
				t.Errorf("an unsorted header of a plain table is text, not a ref")
			}
			ref("link", "Inline handler")
			ref("link", "Mouse-down handler")
			ref("link", "Scripted handler") // addEventListener, seen through the listener record
			for _, r := range s.Refs {
				if r.Name == "Plain anchor" {
					t.Errorf("an <a> with neither href nor handler is no ref: %+v", r)
				}
			}
			// Acting there: a delta equals a full read.
			prev := s
			if _, err := p.Click(ctx, ref("option", "Cheese").Ref); err != nil {
				t.Fatal(err)
			}
			prev = sameAsFull(t, p, prev, "click opt-cheese")
			if r, _ := prev.Ref(ref("option", "Cheese").Ref); !r.Selected {
				t.Errorf("clicked option is selected: %+v", r)
			}
			if _, err := p.ScrollAt(ctx, ref("listbox", "Long list").Ref, "up", 200); err != nil {
				t.Fatal(err)
			}
			prev = sameAsFull(t, p, prev, "scroll the long list up")
			if r, _ := prev.Ref(ref("option", "Item 1").Ref); !r.InViewport {
				t.Errorf("the list scrolled to its top shows Item 1:\n%s", describeRefs(prev))
			}
		})
	}
}

// batchParity are the pages of one widget batch (testdata/fixtures/dir)
// the read paths are compared on: under -sweep all of them (at least
// minimum), else plain, the pages where they once differed.
func batchParity(t *testing.T, dir string, minimum int, plain ...string) []string {
	t.Helper()
	if !*sweep && !*sweepLong {
		return plain
	}
	files, err := filepath.Glob("testdata/fixtures/" + dir + "/*.html")
	if err != nil || len(files) < minimum {
		t.Fatalf("%s: %d pages (%v), want at least %d", dir, len(files), err, minimum)
	}
	var pages []string
	for _, f := range files {
		pages = append(pages, strings.TrimPrefix(filepath.ToSlash(f), "testdata/fixtures/"))
	}
	return pages
}
