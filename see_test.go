package rodagent_test

import (
	"strings"
	"testing"
	"time"

	"github.com/rodagent/rodagent"
)

// What a form says after it is submitted is in the next look: the status
// line is page text, and its change is a delta line.
func TestSeeStatusLineAfterSubmit(t *testing.T) {
	ctx := testCtx(t, 30*time.Second)
	p := open(t, "form.html")
	s := snapshot(t, p)
	full := s.String()
	for _, want := range []string{`text "Fill in the form and submit it."`, `text "Saved forms are kept for 30 days."`,
		"btn-bold unpressed"} {
		if !strings.Contains(full, want) {
			t.Errorf("the full text should contain %q:\n%s", want, full)
		}
	}
	if _, err := p.Type(ctx, refNamed(t, s, "textbox", "Name"), "Ada"); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Click(ctx, refNamed(t, s, "button", "Submit")); err != nil {
		t.Fatal(err)
	}
	d := snapshot(t, p)
	want := `~ status "{\"name\":\"Ada\",\"email\":\"\"}" in main`
	if d.Delta == nil || !strings.Contains(d.String(), want) {
		t.Fatalf("the delta after submit should show the status line %s:\n%s", want, d)
	}
	if !strings.Contains(d.FullText(), `status "{\"name\":\"Ada\",\"email\":\"\"}"`) {
		t.Errorf("the full text should show the status line:\n%s", d.FullText())
	}
	if _, err := p.Click(ctx, "btn-bold"); err != nil {
		t.Fatal(err)
	}
	if d := snapshot(t, p); !strings.Contains(d.String(), "~ btn-bold pressed") {
		t.Errorf("pressing the toggle is a delta:\n%s", d)
	}
}

// Each invoice row of the app shell reads as one line: its cells' text and
// its refs, so "delete the €99.99 invoice" has an answer; the whole shell
// stays within 3,000 characters.
func TestSeeRowsCarryTheirText(t *testing.T) {
	p := open(t, "appshell.html")
	s := snapshot(t, p)
	text := s.String()
	if len(text) > 3000 {
		t.Errorf("app shell snapshot is %d chars, want ≤ 3000:\n%s", len(text), text)
	}
	rows := 0
	for _, l := range strings.Split(text, "\n") {
		if strings.Contains(l, "chk-select-inv-") {
			rows++
			if !strings.Contains(l, `row "`) || !strings.Contains(l, "€") || !strings.Contains(l, "btn-delete") {
				t.Errorf("a row line carries its amount and its refs: %q", l)
			}
		}
	}
	if rows != 12 {
		t.Errorf("%d invoice row lines, want 12:\n%s", rows, text)
	}
	if !strings.Contains(text, `row "Umbrella GmbH | €99.99" chk-select-inv-1004 unchecked lnk-inv-1004 btn-edit-3 btn-duplicate-3 btn-delete-3`) {
		t.Errorf("row 4 should read as one line:\n%s", text)
	}
	// The status line appears when something is recorded in it.
	ctx := testCtx(t, 30*time.Second)
	if _, err := p.Click(ctx, "btn-mute-notifications"); err != nil {
		t.Fatal(err)
	}
	if d := snapshot(t, p); !strings.Contains(d.String(), `~ status "{\"type\":\"mute\"`) {
		t.Errorf("the status line after an action:\n%s", d)
	}
}

var _ = rodagent.WithFull
