package rodagent_test

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/rodagent/rodagent"
)

// A locator's read of a page the inventory has not walked is a find: the
// walk along just the paths to the elements that may match (S.find in
// inventory.js). Whatever it matches must be what the walk matches, with
// the same roles, names, states, boxes, landmarks, contexts, stable
// attributes, handles and node ids: compare the two on one tab, for every
// role the page's refs have, every ref by role and by label, by its exact
// name and by words of it, and every test id, on the fixtures the read
// paths are compared on, the component libraries, and (-sweep: all) the
// APG examples.
func TestFindMatchesWalk(t *testing.T) {
	t.Parallel()
	pages := parityPlainPages()
	if *sweep || *sweepLong {
		pages = parityPages()
	}
	pages = append(pages, "paths.html", "clickables.html", "webtasks-nested-clickables.html", "labels.html", "labels.html?dotted",
		"components/radix-tabs.html", "bigtable.html?rows=200", "react/duplicates.html", "components8/vuetify-slider.html")
	for _, path := range pages {
		t.Run(path, func(t *testing.T) {
			t.Parallel()
			compareFind(t, path, func(p *rodagent.Page) {
				var ready bool
				eval(t, p, "new Promise(r => { const c = () => (window.__ready !== false) ? r(true) : requestAnimationFrame(c); c(); })", &ready)
			})
		})
	}
	for _, path := range sweepPages(append(append(append(components3Parity(t), components4Parity(t)...), components5Parity(t)...), components8Parity(t)...), 2) {
		t.Run(path, func(t *testing.T) {
			t.Parallel()
			compareFind(t, path, func(p *rodagent.Page) { waitReady(t, p); pageQuiet(t, p) })
		})
	}
	for _, path := range sweepPages(apgPages(t), 2) {
		t.Run(path, func(t *testing.T) {
			t.Parallel()
			compareFind(t, path, func(p *rodagent.Page) { apgSettled(t, p); pageQuiet(t, p) })
		})
	}
}

// compareFind runs findDiffs, on a fresh tab again when they differ (a
// page that moves on its own can move between two reads); only a
// difference that holds on every try fails.
func compareFind(t *testing.T, path string, settled func(*rodagent.Page)) {
	t.Helper()
	var diffs []string
	for try := 1; try <= 3; try++ {
		if diffs = findDiffs(t, path, settled); len(diffs) == 0 {
			return
		}
		if try < 3 {
			t.Logf("try %d: find and walk differ; reading a fresh tab again:\n%s", try, strings.Join(diffs, "\n"))
		}
	}
	for _, d := range diffs {
		t.Error(d)
	}
}

// findRoles are the roles a find answers (the refs the inventory lists).
var findRoles = map[string]bool{"button": true, "link": true, "textbox": true, "searchbox": true, "checkbox": true,
	"radio": true, "combobox": true, "listbox": true, "option": true, "tab": true, "menuitem": true,
	"menuitemcheckbox": true, "menuitemradio": true, "slider": true, "spinbutton": true, "switch": true, "treeitem": true}

func findDiffs(t *testing.T, path string, settled func(*rodagent.Page)) []string {
	t.Helper()
	p := open(t, path)
	settled(p)
	// a walk: Find reads by its delta from here on. Frames attach on their
	// own schedule: read until two reads in a row agree, bounded.
	s := snapshot(t, p, rodagent.WithMaxChars(0))
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); {
		again := snapshot(t, p, rodagent.WithMaxChars(0), rodagent.WithFull())
		if again.FullText() == s.FullText() && describeRefs(again) == describeRefs(s) {
			break
		}
		s = again
	}
	ctx := testCtx(t, 5*time.Minute)
	var locs []rodagent.Locator
	roles := map[string]bool{}
	refs := 0
	for _, r := range s.Refs {
		if !findRoles[r.Role] {
			continue
		}
		refs++
		if !roles[r.Role] {
			roles[r.Role] = true
			locs = append(locs, rodagent.ByRole(r.Role, ""))
		}
	}
	// every ref by name on small pages; a spread of them on large ones (a
	// smaller one in the plain run, which must stay within go test's default
	// 10 minutes on 2 cores: .ci/run's -sweep step reads 80 a page, on every
	// page)
	spread := 12
	if *sweep || *sweepLong {
		spread = 80
	}
	step := max(1, refs/spread)
	i := 0
	for _, r := range s.Refs {
		if !findRoles[r.Role] {
			continue
		}
		if i++; (i-1)%step != 0 {
			continue
		}
		if r.Name != "" {
			locs = append(locs, rodagent.ByRole(r.Role, r.Name).Exact())
			if w := oneWord(r.Name); w != "" {
				locs = append(locs, rodagent.ByRole(strings.ToUpper(r.Role), w))
			}
			if r.Landmark != "" {
				lm, _, _ := strings.Cut(r.Landmark, " ")
				locs = append(locs, rodagent.ByRole(r.Role, r.Name).Exact().WithinLandmark(lm))
			}
		}
		if id, ok := strings.CutPrefix(r.Stable, "[data-testid="); ok {
			locs = append(locs, rodagent.ByTestID(strings.TrimSuffix(id, "]")))
		}
	}
	// by label: refs of every role (clickables no role marks too, named
	// by describe), by exact name, by a word of it, and, for a name of
	// several words, by its last words (a run across the pieces a name is
	// made of)
	labels := 0
	step = max(1, len(s.Refs)/(spread*2/5))
	for k, r := range s.Refs {
		if k%step != 0 || r.Name == "" {
			continue
		}
		locs = append(locs, rodagent.ByLabel(r.Name).Exact())
		if w := oneWord(r.Name); w != "" {
			locs = append(locs, rodagent.ByLabel(w))
		}
		if f := strings.Fields(r.Name); len(f) > 1 {
			locs = append(locs, rodagent.ByLabel(strings.ToLower(strings.Join(f[1:], " "))))
		}
		if r.Landmark != "" {
			// WithinLandmark: the whole landmark, its role in capitals, and
			// its name alone
			role, name, _ := strings.Cut(r.Landmark, " ")
			locs = append(locs, rodagent.ByLabel(r.Name).WithinLandmark(r.Landmark),
				rodagent.ByLabel(r.Name).WithinLandmark(strings.ToUpper(role)))
			if name != "" {
				locs = append(locs, rodagent.ByLabel(r.Name).WithinLandmark(name))
			}
		}
		labels++
	}
	// WithinFrame: by prefix, and the main frame's refs by a frame that
	// holds none of them (read for the way to the frames alone)
	framed := map[string]bool{}
	for _, r := range s.Refs {
		if prefix, _, ok := strings.Cut(r.Ref, "/"); ok && findRoles[r.Role] && !framed[prefix] {
			framed[prefix] = true
			locs = append(locs, rodagent.ByRole(r.Role, "").WithinFrame(prefix))
			if r.Name != "" {
				locs = append(locs, rodagent.ByLabel(r.Name).WithinFrame(prefix))
			}
		}
	}
	// Within: what a test id or a container holds (both parts are found
	// in one read)
	var within []rodagent.Locator
	for _, r := range s.Refs {
		if id, ok := strings.CutPrefix(r.Stable, "[data-testid="); ok && findRoles[r.Role] {
			within = append(within, rodagent.ByTestID(strings.TrimSuffix(id, "]")))
		}
		switch r.Role {
		case "listbox", "treeitem", "menuitem", "tab", "combobox":
			if r.Name != "" {
				within = append(within, rodagent.ByRole(r.Role, r.Name).Exact())
			}
		}
	}
	if len(within) > 6 {
		within = within[:6]
	}
	for _, parent := range within {
		for role := range roles {
			locs = append(locs, rodagent.ByRole(role, "").Within(parent))
		}
	}
	named := len(locs)
	// a page whose refs a find cannot name (only clickables no role marks)
	// must still find nothing by role, as the walk does
	locs = append(locs, rodagent.ByRole("button", ""), rodagent.ByRole("link", ""))
	// and by landmark: the buttons and links of the page's footer (most
	// pages have none: none must be found)
	locs = append(locs, rodagent.ByRole("button", "").WithinLandmark("contentinfo"), rodagent.ByRole("link", "").WithinLandmark("contentinfo"))
	if len(framed) > 0 {
		locs = append(locs, rodagent.ByRole("button", "").WithinFrame("no-such-frame"))
	}
	var diffs []string
	declined := rodagent.FindsDeclined(p)
	for k, l := range locs {
		want, err := p.Find(ctx, l)
		if err != nil {
			t.Fatalf("%s: Find(%s): %v", path, l, err)
		}
		got, err := rodagent.FindByFind(ctx, p, l)
		if err != nil {
			t.Fatalf("%s: FindByFind(%s): %v", path, l, err)
		}
		if a, b := describeFound(got), describeFound(want); a != b {
			diffs = append(diffs, fmt.Sprintf("%s: %s: the find (-) and the walk (+) differ:\n%s", path, l, diffLines(a, b)))
		}
		if len(want) == 0 && k < named && !strings.Contains(l.String(), ">>") {
			// (a page that moves on its own, a carousel's slides, can have
			// taken away the ref the locator was made from)
			if now := snapshot(t, p, rodagent.WithMaxChars(0), rodagent.WithFull()); describeRefs(now) != describeRefs(s) {
				t.Logf("%s: %s matches nothing: the page's refs changed since the locators were made", path, l)
			} else {
				diffs = append(diffs, fmt.Sprintf("%s: %s matches nothing", path, l))
			}
		}
	}
	t.Logf("%s: %d locators (%d refs by label); %d finds declined", path, len(locs), labels, rodagent.FindsDeclined(p)-declined)
	return diffs
}

// oneWord is the longest word of name, lower-cased: a locator that matches
// by part of a name, whatever the case.
func oneWord(name string) string {
	best := ""
	for _, w := range strings.FieldsFunc(name, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if len(w) > len(best) {
			best = w
		}
	}
	return strings.ToLower(best)
}

// describeFound lists what an agent's code reads of found refs.
func describeFound(refs []rodagent.BrowserRef) string {
	var b strings.Builder
	for _, r := range refs {
		v := reflect.ValueOf(r)
		for i := 0; i < v.NumField(); i++ {
			if f := v.Type().Field(i); f.Name != "State" {
				fmt.Fprintf(&b, "%s=%v ", f.Name, v.Field(i).Interface())
			}
		}
		fmt.Fprintf(&b, "{%s}\n", stateFields(r.State))
	}
	return b.String()
}

// A find picks a role's candidates by their aria-label when every part
// names one (namedBy in inventory.js): what that pick keeps must be all the
// walk matches — controls a blank label leaves to their <label>, a label
// aria-labelledby overrides, spaces inside a label, quotes and backslashes,
// and the letters Go lower-cases to ASCII (İ, the Kelvin sign). A find by
// label passes by, in a selector, the fields whose own aria-label or title
// says something (LENDABLE_SEL): the fields a blank one leaves to the words
// beside them must still be found.
func TestFindPicksByAriaLabel(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t, time.Minute)
	p := open(t, "find-names.html")
	locs := []rodagent.Locator{
		rodagent.ByRole("checkbox", "Accept terms").Exact(),
		rodagent.ByRole("checkbox", "newsletter"),
		rodagent.ByRole("checkbox", "usage data"),
		rodagent.ByRole("button", "Archive mail").Exact(),
		rodagent.ByRole("button", "archive"),
		rodagent.ByRole("button", "kick"),
		rodagent.ByRole("button", "keep going"),
		rodagent.ByRole("button", "save draft"),
		rodagent.ByRole("button", `say "hi" \ back`),
		rodagent.ByRole("link", "help"),
		rodagent.ByRole("checkbox", "Select row 2").Exact(),
		rodagent.ByRole("checkbox", "row"),
		// fields a blank label or title leaves to the words beside them
		// (lendables), and fields their own label or title names
		rodagent.ByLabel("Quantity").Exact(),
		rodagent.ByLabel("Discount code").Exact(),
		rodagent.ByLabel("Note text").Exact(),
		rodagent.ByLabel("Voucher").Exact(),
		rodagent.ByLabel("Rebate").Exact(),
	}
	// (these match nothing: the words beside a named field are not its name)
	none := len(locs)
	locs = append(locs, rodagent.ByRole("checkbox", "row 2").Within(rodagent.ByRole("checkbox", "Select")),
		rodagent.ByLabel("Gift note"), rodagent.ByLabel("Promo").Exact(), rodagent.ByLabel("Coupon").Exact())
	snapshot(t, p, rodagent.WithMaxChars(0)) // (handles: the find's refs carry them too)
	declined := rodagent.FindsDeclined(p)
	for i, l := range locs {
		got, err := rodagent.FindByFind(ctx, p, l)
		if err != nil {
			t.Fatalf("FindByFind(%s): %v", l, err)
		}
		want, err := p.Find(ctx, l)
		if err != nil {
			t.Fatalf("Find(%s): %v", l, err)
		}
		if a, b := describeFound(got), describeFound(want); a != b {
			t.Errorf("%s: the find (-) and the walk (+) differ:\n%s", l, diffLines(a, b))
		}
		if len(want) == 0 && i < none {
			t.Errorf("%s matches nothing: the page names such a control", l)
		}
	}
	// a find that declined walked instead: the comparison would hold by itself
	if n := rodagent.FindsDeclined(p) - declined; n != 0 {
		t.Errorf("%d finds declined: the pick by label was not tested", n)
	}
}

// A script's locator reads and actions on a page it never looked at are
// finds: they read and act right, and leave no walk behind, until a look
// (or a locator a find does not answer) walks the page.
func TestLocatorReadsByFind(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t, time.Minute)
	p := open(t, "bigtable.html?rows=300")
	loc := rodagent.ByRole("checkbox", "Select row 150").Exact()
	box := p.Locate(loc)
	if on, err := box.Checked(ctx); err != nil || on {
		t.Fatalf("Checked before the click = %v, %v; want false", on, err)
	}
	if rodagent.Walked(p) {
		t.Fatal("a locator read by role walked the page: it should have been a find")
	}
	if st, err := box.Click(ctx); err != nil || st != rodagent.Ready {
		t.Fatalf("Click: %s, %v", st, err)
	}
	if on, err := box.Checked(ctx); err != nil || !on {
		t.Fatalf("Checked after the click = %v, %v; want true", on, err)
	}
	var y float64
	eval(t, p, "scrollY", &y)
	if y == 0 {
		t.Fatal("the click did not scroll row 150 into view")
	}
	if name, err := p.Locate(rodagent.ByTestID("missing")).Text(ctx); err == nil {
		t.Fatalf("Text of a test id no element has = %q, want an error", name)
	}
	if rodagent.Walked(p) {
		t.Fatal("a find's action walked the page")
	}
	// a second box of the same name is ambiguous to a find as to the walk
	eval(t, p, `(() => { const i = document.createElement('input'); i.type = 'checkbox'; i.setAttribute('aria-label', 'Select row 150'); document.querySelector('h1').after(i); return true; })()`, nil)
	_, err := box.Checked(ctx)
	var ae *rodagent.ActionError
	if !errors.As(err, &ae) || ae.Status != rodagent.Ambiguous || len(ae.Candidates) != 2 {
		t.Fatalf("Checked with two boxes of the name: %v; want Ambiguous with 2 candidates", err)
	}
	if on, err := p.Locate(loc.Nth(1)).Checked(ctx); err != nil || !on {
		t.Fatalf("Nth(1).Checked = %v, %v; want true (the table's box comes after the new one)", on, err)
	}
	if on, err := p.Locate(rodagent.ByLabel("Select row 150").Exact().Nth(1)).Checked(ctx); err != nil || !on {
		t.Fatalf("by label: Checked = %v, %v; want true", on, err)
	}
	// Find's refs carry their Context, read by the find too
	refs, err := p.Find(ctx, rodagent.ByLabel("select ROW 150"))
	if err != nil || len(refs) != 2 || refs[1].Context == "" {
		t.Fatalf("Find by label = %+v, %v; want 2 refs, the table's with its row for Context", refs, err)
	}
	if rodagent.Walked(p) {
		t.Fatal("a locator by label or Find walked the page: it should have been a find")
	}
	// a label only describe() can make ("clickable …", "icon button (…)")
	// is no word of the page to search for: the page is walked
	if refs, err := p.Find(ctx, rodagent.ByLabel("clickable")); err != nil {
		t.Fatalf("Find(label=clickable) = %v, %v", refs, err)
	}
	if !rodagent.Walked(p) {
		t.Fatal("a locator by a label describe() makes up did not walk the page")
	}
}
