package rodagent_test

import (
	"strings"
	"testing"
)

// A paragraph reads whole: its inline links' words stay in the sentence
// (the links stay refs, on their own lines), on both read paths. A block
// holding only links (a cell with its invoice link) shows no text of them:
// the app shell stays within its budget.
func TestSeeTextKeepsInlineLinkWords(t *testing.T) {
	t.Parallel()
	for _, rp := range readPaths {
		t.Run(rp.name, func(t *testing.T) {
			t.Parallel()
			p := open(t, "apg/content/patterns/dialog-modal/examples/datepicker-dialog.html")
			rp.set(p)
			apgSettled(t, p)
			s := snapshot(t, p)
			full := s.FullText()
			for _, want := range []string{
				`text "The example below includes a date input field and a button that opens a date picker that implements the Dialog (Modal) Pattern. The dialog`,
				`text "Alert Dialog Example: A confirmation prompt that demonstrates an alert dialog."`,
				`as specified in the Grid Pattern, only one`,
				"\n lnk-dialog-modal-pattern\n", "\n lnk-alert-dialog-example\n",
			} {
				if !strings.Contains(full, want) {
					t.Errorf("the snapshot should contain %q:\n%s", want, full)
				}
			}
			a := open(t, "appshell.html")
			rp.set(a)
			text := snapshot(t, a).String()
			if len(text) > 3000 {
				t.Errorf("app shell snapshot is %d chars, want ≤ 3000", len(text))
			}
			if !strings.Contains(text, `row "Umbrella GmbH | €99.99" chk-select-inv-1004`) {
				t.Errorf("a cell holding only its link shows no text of it:\n%s", text)
			}
		})
	}
}
