package rodagent_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/rodagent/rodagent"
)

// A dialog opened with showModal() makes the rest of the document inert: no
// one can read or click it, and Chromium's AX tree drops it. Both read paths
// show only the dialog while it is open, the delta says what went and came
// back, and closing it restores the page.
func TestNativeModalHidesWhatItMakesInert(t *testing.T) {
	t.Parallel()
	for _, path := range []string{"fast", "axtree"} {
		t.Run(path, func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			p := open(t, "modal-backdrop.html")
			if path == "axtree" {
				rodagent.UseAXTree(p)
			}
			before := snapshot(t, p)
			if _, err := p.Click(ctx, refStarting(t, before, "button", "Open native dialog")); err != nil {
				t.Fatal(err)
			}
			during := sameAsFull(t, p, before, "showModal")
			if len(during.Refs) != 1 || !strings.HasPrefix(during.Refs[0].Name, "Keep it") {
				t.Fatalf("with the modal open, only its button should be a ref:\n%s", during.FullText())
			}
			if strings.Contains(during.FullText(), "Orders") {
				t.Errorf("the inert page behind the modal is shown:\n%s", during.FullText())
			}
			if _, err := p.Click(ctx, during.Refs[0].Ref); err != nil {
				t.Fatal(err)
			}
			after := sameAsFull(t, p, during, "close")
			// Closing returns focus to the button that opened the dialog: compare
			// what the refs are, not where focus stands.
			if got, want := refNames(after), refNames(before); got != want {
				t.Errorf("closing the modal should bring the page back:\n%s", diffLines(got, want))
			}
		})
	}
}

func refNames(s *rodagent.Snapshot) string {
	var b strings.Builder
	for _, r := range s.Refs {
		b.WriteString(r.Ref + " " + r.Role + " " + r.Name + "\n")
	}
	return b.String()
}
