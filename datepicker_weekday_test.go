package rodagent_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/rodagent/rodagent"
)

// "Pick the first Friday of the month" in the APG date pickers, answered
// from the snapshot alone: a person sees in which weekday column each day
// stands (the 1st falls under its weekday, after blank cells). The
// snapshot's week rows keep one entry per column — the blank leading days
// stand in their columns (the page listens for clicks on every cell, so
// they are clickables, described as such) — so the agent finds the Friday
// column from the header row and takes, from the first week row that has a
// day there, that day's ref. Its reading must agree with the calendar, and
// the click must set that date. Both read paths.
func TestDatePickerWeekdayColumn(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ page, field string }{
		{"dialog-modal/examples/datepicker-dialog.html", "input[type=text]"},
		{"combobox/examples/combobox-datepicker.html", "input[role=combobox]"},
	} {
		t.Run(c.page[:strings.IndexByte(c.page, '/')], func(t *testing.T) {
			t.Parallel()
			onReadPaths(t, "apg/content/patterns/"+c.page, func(t *testing.T, p *rodagent.Page, _ readPath) {
				ctx := testCtx(t, 90*time.Second)
				apgSettled(t, p)
				s := snapshot(t, p)
				ref := agentPick(t, []string{s.String()}, "button", "Choose Date")
				if st, err := agentAct(ctx, t, p, "click", ref, "", 0, ""); err != nil || !st.OK() {
					t.Fatalf("click %s: %s, %v", ref, st, err)
				}
				text := snapshot(t, p).String()
				month, day, handle, err := firstWeekdayFromText(text, "fr")
				if err != nil {
					t.Fatalf("%v:\n%s", err, text)
				}
				want := time.Date(month.Year(), month.Month(), 1, 0, 0, 0, 0, time.UTC)
				for want.Weekday() != time.Friday {
					want = want.AddDate(0, 0, 1)
				}
				if day != want.Day() {
					t.Fatalf("the snapshot puts day %d in the first Friday's place of %s; the calendar says %d:\n%s", day, month.Format("January 2006"), want.Day(), text)
				}
				if st, err := agentAct(ctx, t, p, "click", handle, "", 0, ""); err != nil || !st.OK() {
					t.Fatalf("click %s: %s, %v", handle, st, err)
				}
				var got string
				eval(t, p, fmt.Sprintf("document.querySelector(%q).value", c.field), &got)
				if got != want.Format("1/2/2006") {
					t.Errorf("the field reads %q after clicking %s, want %q", got, handle, want.Format("1/2/2006"))
				}
			})
		})
	}
}

var monthHeading = regexp.MustCompile(`## "([A-Z][a-z]+ [0-9]{4})"`)

// firstWeekdayFromText reads a calendar as an agent does, from printed text
// only: the month from its heading, the column of weekday (the header
// row's handle col-<wd>), and the first week row whose entry in that column
// is a day (a ref named by its number). It returns that day and its handle.
func firstWeekdayFromText(text, wd string) (month time.Time, day int, handle string, err error) {
	m := monthHeading.FindStringSubmatch(text)
	if m == nil {
		return month, 0, "", fmt.Errorf("no month heading")
	}
	if month, err = time.Parse("January 2006", m[1]); err != nil {
		return month, 0, "", err
	}
	col := -1
	for _, line := range strings.Split(text, "\n") {
		body := strings.TrimLeft(line, " +~")
		if !strings.HasPrefix(body, "row ") {
			continue
		}
		refs := agentLines(body)[1:] // one entry per ref on the row's line, in column order
		if col < 0 {
			for i, r := range refs {
				if h, _, _ := strings.Cut(r, " "); strings.HasSuffix(h, "col-"+wd) {
					col = i
				}
			}
			continue
		}
		if len(refs) != 7 {
			return month, 0, "", fmt.Errorf("a week row with %d entries, want 7: %s", len(refs), body)
		}
		h, _, _ := strings.Cut(refs[col], " ")
		if n, ok := strings.CutPrefix(h, "cell-"); ok && isDigits(n) {
			fmt.Sscan(n, &day)
			return month, day, h, nil
		}
	}
	return month, 0, "", fmt.Errorf("no week row with a day under col-%s", wd)
}
