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
			if p := strings.TrimPrefix(f, "testdata/fixtures/"); p != poisonedPage {
				pages = append(pages, p)
			}
		}
	}
	sort.Strings(pages)
	if len(pages) < 90 {
		t.Fatalf("only %d pages found", len(pages))
	}
	return pages
}

// accnameSettleJS resolves once the page is at rest, so that every run
// compares the same elements. It waits on what the pages are known to do
// late, each by its own condition: every document loaded (same-origin frames
// too); on an APG example, the usage notice that app.js fetches and inserts
// after the h1, and the "Open In CodePen" buttons that a 500 ms interval
// shows once the example's files arrived (both given up on 10 s after
// parsing, as the page itself gives up); no element aria-busy (a feed
// loading its articles). Then the DOM must stay unchanged for 300 ms, at
// most 5 s. It runs on the page's own timers and a MutationObserver: no CPU
// spent and no round trip per check.
const accnameSettleJS = `new Promise(r => {
	const docs = () => [document, ...[...document.querySelectorAll('iframe')].map(f => { try { return f.contentDocument; } catch (e) { return null; } }).filter(Boolean)];
	const nav = performance.getEntriesByType('navigation')[0];
	const giveUp = (nav && nav.domInteractive > 0 ? nav.domInteractive : performance.now()) + 10000;
	const apg = /examples\/[^/]+\.html/.test(location.pathname) && document.querySelector('script[src$="app.js"]');
	const late = () => {
		if (!docs().every(d => d.readyState === 'complete')) return true;
		if (docs().some(d => d.querySelector('[aria-busy="true"]'))) return true;
		if (performance.now() > giveUp) return false;
		if (apg && !document.querySelector('#support-notice')) return true;
		return ![...document.querySelectorAll('[id$="-codepenbutton"]')].every(b => b.style.display !== 'none');
	};
	let last = performance.now();
	const t0 = last;
	let tq = 0;
	const mo = new MutationObserver(() => { last = performance.now(); });
	const watched = new Set();
	const c = () => {
		for (const d of docs()) if (!watched.has(d)) { watched.add(d); mo.observe(d, {subtree: true, childList: true, attributes: true, characterData: true}); last = performance.now(); }
		if (late() && performance.now() - t0 < 20000) return setTimeout(c, 50);
		tq = tq || performance.now();
		if (performance.now() - tq > 5000 || performance.now() - last > 300) { mo.disconnect(); r(true); } else setTimeout(c, 50);
	};
	c();
})`

// TestAccnameMatchesChromium compares the page-side role and name
// computation (accname.js), which the inventory uses on every browser, with
// Chromium's own computed values on every fixture and every APG example.
//
// Each worker keeps one tab and opens page after page in it: a new tab per
// page (a target, an attach, its domains) cost more CPU than the comparison.
// A page costs one navigation, one AX read (which keeps the document's AX
// context alive) and one evaluation that waits for the page to be at rest
// and then compares every element in the page.
func TestAccnameMatchesChromium(t *testing.T) {
	t.Parallel()
	src, err := os.ReadFile("internal/ax/accname.js")
	if err != nil {
		t.Fatal(err)
	}
	script := "(async () => { await " + accnameSettleJS + "; return JSON.stringify(" + fmt.Sprintf(accnameCheckJS, src) + "); })()"
	pages := sweepPages(accnamePages(t), 35)
	queue := make(chan string, len(pages))
	for _, path := range pages {
		if only := os.Getenv("ACCNAME_ONLY"); only == "" || strings.Contains(path, only) {
			queue <- path
		}
	}
	close(queue)
	var n, roles, names int
	var mu sync.Mutex
	var g errgroup.Group
	// Four tabs: a page spends most of its time waiting on its own timers.
	for range 4 {
		g.Go(func() error {
			ctx := testCtx(t, 10*time.Minute)
			p, err := shared.NewPage(ctx, "")
			if err != nil {
				t.Error(err)
				return nil
			}
			defer p.Close()
			for path := range queue {
				res, err := accnameCheckPage(ctx, p, path, script)
				mu.Lock()
				if err != nil {
					t.Errorf("%s: %v", path, err)
				} else {
					n, roles, names = n+res.N, roles+res.Role, names+res.Name
					for _, b := range res.Bad {
						t.Log(path + ": " + b)
					}
				}
				mu.Unlock()
			}
			return nil
		})
	}
	_ = g.Wait()
	t.Logf("%d elements on %d pages: %d role and %d name differences from Chromium", n, len(pages), roles, names)
	// a floor, so a harness that silently compares nothing fails (the plain
	// run's 35 pages hold about 2,700 elements; -sweep's all of them, more)
	if n < 2000 && os.Getenv("ACCNAME_ONLY") == "" {
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

// accnameCheckPage opens path in p and compares every element there.
func accnameCheckPage(ctx context.Context, p *rodagent.Page, path, script string) (*accnameResult, error) {
	if err := p.Open(ctx, originA+"/"+path); err != nil {
		return nil, err
	}
	c := p.Rod().Context(ctx)
	// One question of the document's AX tree keeps its AX context alive,
	// without which every computedRole read rebuilds the whole tree. (The
	// domain stays enabled across documents; enabling again is a no-op.)
	if err := (proto.AccessibilityEnable{}).Call(c); err != nil {
		return nil, err
	}
	doc, err := proto.RuntimeEvaluate{Expression: "document.documentElement"}.Call(c)
	if err != nil {
		return nil, err
	}
	if doc.Result == nil || doc.Result.ObjectID == "" {
		return nil, fmt.Errorf("no document element")
	}
	if _, err := (proto.AccessibilityGetPartialAXTree{ObjectID: doc.Result.ObjectID}).Call(c); err != nil {
		return nil, err
	}
	r, err := proto.RuntimeEvaluate{Expression: script, ReturnByValue: true, AwaitPromise: true}.Call(c)
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
