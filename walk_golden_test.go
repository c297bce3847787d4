package rodagent_test

import (
	"flag"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"
)

// walkGolden names a directory for TestWalkGolden: empty, it receives a dump
// of what the first look shows on every fixture; holding a dump, the first
// look of each fixture is compared with it.
var walkGolden = flag.String("walk-golden", "", "directory: write each fixture's first look there, or compare with the dump already there")

// TestWalkGolden holds a change that should only make the inventory faster
// to what it showed before: dump every fixture's first look (text and
// every field of every ref but node and frame ids) with the code before the
// change, then compare with the code after it:
//
//	git stash; go test -run TestWalkGolden -walk-golden /tmp/before .; git stash pop
//	go test -run TestWalkGolden -walk-golden /tmp/before .
//
// Pages that move on their own (a carousel turning, a clock) differ between
// two dumps of the same code: a page that differs is read again on a fresh
// tab, and fails only when no try matches. Without -walk-golden, the test
// dumps a spread of the fixtures twice into one run's temporary directory and
// compares them, which checks the dump itself.
func TestWalkGolden(t *testing.T) {
	t.Parallel()
	dir := *walkGolden
	pages := goldenPages(t)
	if dir == "" {
		dir = t.TempDir()
		pages = sweepPages(pages, 3)
		for _, path := range pages {
			write(t, filepath.Join(dir, goldenName(path)), firstLookDump(t, path))
		}
	}
	_ = os.MkdirAll(dir, 0o755)
	for _, path := range pages {
		t.Run(path, func(t *testing.T) {
			t.Parallel()
			file := filepath.Join(dir, goldenName(path))
			want, err := os.ReadFile(file)
			if os.IsNotExist(err) {
				write(t, file, firstLookDump(t, path))
				return
			} else if err != nil {
				t.Fatal(err)
			}
			var got string
			for try := 1; try <= 3; try++ {
				if got = firstLookDump(t, path); got == string(want) {
					return
				}
			}
			t.Errorf("the first look differs from %s (-: now, +: the dump):\n%s", file, diffLines(got, string(want)))
		})
	}
}

func write(t *testing.T, file, s string) {
	t.Helper()
	if err := os.WriteFile(file, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

// goldenPages are every fixture page: the top-level ones, the component
// libraries', the React ones and the APG examples.
func goldenPages(t *testing.T) []string {
	t.Helper()
	var pages []string
	for _, glob := range []string{"testdata/fixtures/*.html", "testdata/fixtures/components/*.html",
		"testdata/fixtures/components3/*.html", "testdata/fixtures/components4/*.html", "testdata/fixtures/react/*.html"} {
		files, err := filepath.Glob(glob)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			pages = append(pages, strings.TrimPrefix(filepath.ToSlash(f), "testdata/fixtures/"))
		}
	}
	if len(pages) < 100 {
		t.Fatalf("only %d fixture pages", len(pages))
	}
	pages = append(pages, apgPages(t)...)
	sort.Strings(pages)
	return pages
}

func goldenName(path string) string {
	return strings.NewReplacer("/", "_", "?", "_", "&", "_", "=", "_").Replace(path) + ".txt"
}

// firstLookDump opens path on a fresh tab, lets it come to rest, and returns
// its first snapshot: the text an agent reads, then every ref with all its
// fields but the ids that differ from one load to the next, the origins
// (whose port differs from run to run) written as {A} and {B}.
func firstLookDump(t *testing.T, path string) string {
	t.Helper()
	p := openURL(t, originA+"/"+path+pageQuery(path))
	if strings.HasPrefix(path, "apg/") {
		apgSettled(t, p)
	}
	if path != poisonedPage { // its MutationObserver throws: it has no timers to wait for
		pageQuiet(t, p)
		atRest(t, p)
	}
	ctx := testCtx(t, time.Minute)
	s, err := p.Snapshot(ctx)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "source %s\n%s\n--- refs\n", s.Source, s.FullText())
	for _, r := range s.Refs {
		fmt.Fprintf(&b, "%s %s %q raw=%q nth=%d url=%s box=%v inview=%v {%s} lm=%q ctx=%q stable=%q cell=%q\n",
			r.Ref, r.Role, r.Name, r.RawName, r.Nth, r.Frame.URL, r.Box, r.InViewport, stateFields(r.State),
			r.Landmark, r.Context, r.Stable, r.Cell)
	}
	return strings.NewReplacer(originA, "{A}", originB, "{B}",
		url.QueryEscape(originA), "{A}", url.QueryEscape(originB), "{B}").Replace(volatile(path, b.String()))
}

// volatileIDs are ids a library draws at random on each load (Mantine's
// useId): the same page reads differently on two loads of the same code.
var volatileIDs = regexp.MustCompile(`mantine-[a-z0-9]+`)

// volatile blanks what differs between two loads of the same code: the
// timings settle.html and settle-net.html print, random ids.
func volatile(path, dump string) string {
	if strings.HasPrefix(path, "settle") {
		dump = regexp.MustCompile(`[0-9]+`).ReplaceAllString(dump, "#")
	}
	return volatileIDs.ReplaceAllString(dump, "mantine-*")
}
