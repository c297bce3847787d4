package rodagent_test

import (
	"errors"
	"testing"
	"time"

	"github.com/rodagent/rodagent"
)

// Type fills every date and time kind from its ISO value, through the
// field's own segments with trusted keys; a range moves with arrow keys; a
// colour takes #rrggbb; a malformed value is a clear InvalidValue.
func TestTypeDatesAndValues(t *testing.T) {
	ctx := testCtx(t, 60*time.Second)
	p := open(t, "dates.html")
	s := snapshot(t, p)
	byID := func(id string) string {
		for _, r := range s.Refs {
			if r.Stable == "#"+id {
				return r.Ref
			}
		}
		t.Fatalf("no ref for #%s in:\n%s", id, s.FullText())
		return ""
	}
	for _, tc := range []struct{ id, value, want string }{
		{"date", "2024-03-09", "2024-03-09"},
		{"date", "1999-12-31", "1999-12-31"},
		{"time", "13:45", "13:45"},
		{"time", "00:05", "00:05"},
		{"time-s", "08:15:30", "08:15:30"},
		{"datetime", "2024-03-09T13:45", "2024-03-09T13:45"},
		{"month", "2024-03", "2024-03"},
		{"week", "2024-W10", "2024-W10"},
		{"range", "35", "35"},
		{"range", "0", "0"},
		{"color", "#3366cc", "#3366cc"},
	} {
		st, err := p.Type(ctx, byID(tc.id), tc.value)
		if err != nil || st != rodagent.Ready {
			t.Errorf("Type(#%s, %q): %s %v", tc.id, tc.value, st, err)
			continue
		}
		var got string
		eval(t, p, "document.getElementById('"+tc.id+"').value", &got)
		if got != tc.want {
			t.Errorf("#%s = %q, want %q", tc.id, got, tc.want)
		}
	}
	var untrusted []string
	eval(t, p, "window.__log.filter(r => !r.trusted && r.id !== 'color').map(r => r.id + ':' + r.type)", &untrusted)
	if len(untrusted) > 0 {
		t.Errorf("untrusted events: %v", untrusted)
	}
	if st, err := p.Select(ctx, byID("range"), "20"); err != nil || st != rodagent.Ready {
		t.Errorf("Select on a range: %s %v", st, err)
	}
	var got string
	eval(t, p, "document.getElementById('range').value", &got)
	if got != "20" {
		t.Errorf("range after Select = %q", got)
	}
	for _, bad := range []struct{ id, value string }{
		{"date", "09/03/2024"}, {"date", "2023-02-30"}, {"time", "25:00"}, {"week", "2024-10"},
		{"range", "70"}, {"range", "loud"}, {"color", "red"},
	} {
		st, err := p.Type(ctx, byID(bad.id), bad.value)
		if st != rodagent.InvalidValue || !errors.Is(err, rodagent.ErrInvalidValue) {
			t.Errorf("Type(#%s, %q) = %s %v, want invalid_value", bad.id, bad.value, st, err)
		}
	}
}
