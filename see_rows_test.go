package rodagent_test

import (
	"strings"
	"testing"
	"time"

	"github.com/rodagent/rodagent"
)

// A table that declares more rows (aria-rowcount) than the page holds — a
// virtualized grid rendering the rows in view, a paged one, a stream of
// unknown length — gets a line after its rows saying so, on both read
// paths; one that holds all it declares, or declares no count, gets none.
// The table's name is quoted like any page text.
func TestSeeDeclaredRows(t *testing.T) {
	t.Parallel()
	onReadPaths(t, "declared-rows.html", func(t *testing.T, p *rodagent.Page, _ readPath) {
		ctx := testCtx(t, 30*time.Second)
		s := snapshot(t, p)
		full := s.FullText()
		for _, want := range []string{
			"\n … grid \"People\" says it has 1,200 rows; 3 are in the page — scroll it or page through it to reach the others\n",
			"\n … table \"Stream\" does not say how many rows it has; 2 are in the page — scroll it or page through it for more\n",
			`… table "Inbox\" … grid \"Fake\" says it has 1 rows" says it has 9 rows; 1 is in the page`,
		} {
			if !strings.Contains(full, want) {
				t.Errorf("the snapshot should contain %q:\n%s", want, full)
			}
		}
		for _, not := range []string{`"Whole" says`, `"Garbled"`, "\x00"} {
			if strings.Contains(full, not) {
				t.Errorf("the snapshot should not contain %q:\n%s", not, full)
			}
		}
		// the line follows the grid's last row, at the grid's depth
		i := strings.Index(full, `cell-arlington`)
		j := strings.Index(full, `… grid "People"`)
		if i < 0 || j < i {
			t.Errorf("the declared rows should follow the grid's rows:\n%s", full)
		}
		if _, err := p.Click(ctx, refNamed(t, s, "button", "Grow")); err != nil {
			t.Fatal(err)
		}
		d := sameAsFull(t, p, s, "grow the declared count")
		if !strings.Contains(d.FullText(), `… grid "People" says it has 1,300 rows; 3 are in the page`) {
			t.Errorf("the declared count after it grew:\n%s", d.FullText())
		}
	})
}

// APG's scrollable data grid holds 5 of its 15 transactions and says it has
// 16 rows with its header: the text says so, and paging down in it (the
// page's own keys) keeps the delta equal to a full read.
func TestSeeDeclaredRowsAPG(t *testing.T) {
	t.Parallel()
	onReadPaths(t, "apg/content/patterns/grid/examples/data-grids.html", func(t *testing.T, p *rodagent.Page, _ readPath) {
		ctx := testCtx(t, 60*time.Second)
		apgSettled(t, p)
		s := snapshot(t, p)
		want := `… grid "Transactions for January 1 through January 15" says it has 16 rows; 6 are in the page`
		if !strings.Contains(s.FullText(), want) {
			t.Fatalf("the snapshot should contain %q:\n%s", want, s.FullText())
		}
		if strings.Count(s.FullText(), " says it has ") != 1 {
			t.Errorf("only the scrollable grid declares more rows than it holds:\n%s", s.FullText())
		}
		cell := ""
		for _, r := range s.Refs {
			if r.Role == "link" && r.Name == "Cash Deposit" {
				cell = r.Ref // the scrollable grid's comes last
			}
		}
		if _, err := p.Focus(ctx, cell); err != nil {
			t.Fatal(err)
		}
		if _, err := p.Press(ctx, "PageDown"); err != nil {
			t.Fatal(err)
		}
		last := sameAsFull(t, p, s, "PageDown in the scrollable grid")
		if strings.Contains(s.FullText(), "10-jan-16") || !strings.Contains(last.FullText(), "10-jan-16") {
			t.Errorf("paging down should bring the grid's later rows (10-Jan-16) into the page:\n%s", last.FullText())
		}
		if !strings.Contains(last.FullText(), want) {
			t.Errorf("after paging, the grid still says what it holds:\n%s", last.FullText())
		}
	})
}
