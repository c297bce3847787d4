package rodagent_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-rod/rod/lib/proto"
	"golang.org/x/sync/errgroup"

	"github.com/rodagent/rodagent"
)

// accnameCheckJS runs accname.js in the page beside Chromium's own
// Element.computedRole/computedName (the shared browser has the feature) and
// reports, for every element the inventory reads — controls, elements with a
// role, landmarks, headings, tables, rows, lists — where the two differ.
const accnameCheckJS = `(() => {
%s
const READ = 'a[href],area[href],button,input:not([type=hidden]),select,textarea,summary,[role],[tabindex],[contenteditable],' +
  'header,nav,main,aside,footer,form,section,dialog,search,h1,h2,h3,h4,h5,h6,table,ul,ol,li,tr,td,th,fieldset,article,menu,figure,details';
const all = [];
const walk = root => { for (const el of root.querySelectorAll('*')) { all.push(el); if (el.shadowRoot) walk(el.shadowRoot); } };
walk(document);
const fold = s => (s || '').replace(/[\s\u00a0]+/g, ' ').trim();
const out = {n: 0, role: 0, name: 0, bad: []};
for (const el of all) {
  if (!el.matches(READ)) continue;
  if (!el.checkVisibility({visibilityProperty: true}) || el.closest('[aria-hidden="true"],[inert]')) continue;
  ACC.computed = false;
  const gotR = cRole(el), gotN = cName(el);
  const wantR = el.computedRole, wantN = fold(el.computedName);
  out.n++;
  const badR = gotR !== wantR, badN = gotN !== wantN;
  if (badR) out.role++;
  if (badN) out.name++;
  if (badR || badN) out.bad.push(el.outerHTML.slice(0, 90).replace(/\s+/g, ' ') + ' => ours ' + JSON.stringify([gotR, gotN]) + ' chromium ' + JSON.stringify([wantR, wantN]));
}
return out;
})()`

// accnamePages is every fixture page and every W3C APG example.
func accnamePages(t *testing.T) []string {
	t.Helper()
	var pages []string
	for _, glob := range []string{"testdata/fixtures/*.html", "testdata/fixtures/components/*.html", "testdata/fixtures/react/*.html",
		"testdata/fixtures/apg/content/patterns/*/examples/*.html"} {
		m, err := filepath.Glob(glob)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range m {
			pages = append(pages, strings.TrimPrefix(f, "testdata/fixtures/"))
		}
	}
	sort.Strings(pages)
	if len(pages) < 90 {
		t.Fatalf("only %d pages found", len(pages))
	}
	return pages
}

// TestAccnameMatchesChromium compares the page-side role and name
// computation (accname.js), which the inventory uses on every browser, with
// Chromium's own computed values on every fixture and every APG example.
func TestAccnameMatchesChromium(t *testing.T) {
	t.Parallel()
	src, err := os.ReadFile("internal/ax/accname.js")
	if err != nil {
		t.Fatal(err)
	}
	script := fmt.Sprintf(accnameCheckJS, src)
	var n, roles, names int
	var report []string
	var mu sync.Mutex
	var g errgroup.Group
	g.SetLimit(3) // pages load in parallel; the APG pages wait on their scripts
	for _, path := range accnamePages(t) {
		if only := os.Getenv("ACCNAME_ONLY"); only != "" && !strings.Contains(path, only) {
			continue
		}
		g.Go(func() error {
			res, err := accnameCheckPage(t, path, script)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				t.Errorf("%s: %v", path, err)
				return nil
			}
			n, roles, names = n+res.N, roles+res.Role, names+res.Name
			for _, b := range res.Bad {
				t.Log(path + ": " + b)
				report = append(report, path+": "+b)
			}
			return nil
		})
	}
	_ = g.Wait()
	t.Logf("%d elements on %d pages: %d role and %d name differences from Chromium", n, len(accnamePages(t)), roles, names)
	if n < 3000 && os.Getenv("ACCNAME_ONLY") == "" {
		t.Errorf("only %d elements compared", n)
	}
	// The bound: see BENCHMARKS.md ("Roles and names without the flag").
	if float64(roles+names) > 0.01*float64(n) {
		t.Errorf("%d differences over %d elements: more than 1%%", roles+names, n)
	}
}

type accnameResult struct {
	N, Role, Name int
	Bad           []string
}

func accnameCheckPage(t *testing.T, path, script string) (*accnameResult, error) {
	ctx, cancel := context.WithDeadline(context.Background(), workDeadline(t, 90*time.Second))
	defer cancel()
	p, err := shared.NewPage(ctx, originA+"/"+path)
	if err != nil {
		return nil, err
	}
	defer p.Close()
	// A look through Chromium's values keeps the page's AX context alive,
	// without which every computedRole read rebuilds the whole tree.
	rodagent.UseComputedRoles(p, true)
	if _, err := p.Snapshot(ctx); err != nil {
		return nil, err
	}
	r, err := proto.RuntimeEvaluate{Expression: "JSON.stringify(" + script + ")", ReturnByValue: true}.Call(p.Rod().Context(ctx))
	if err != nil {
		return nil, err
	}
	if r.ExceptionDetails != nil {
		return nil, fmt.Errorf("%s", r.ExceptionDetails.Text)
	}
	var res accnameResult
	if err := json.Unmarshal([]byte(r.Result.Value.Str()), &res); err != nil {
		return nil, err
	}
	return &res, nil
}
