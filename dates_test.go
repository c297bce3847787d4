package rodagent_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/rodagent/rodagent"
)

// Type fills every date and time kind from its ISO value, through the
// field's own segments with trusted keys; a range moves with arrow keys; a
// colour takes #rrggbb; a malformed value is a clear InvalidValue.
func TestTypeDatesAndValues(t *testing.T) {
	t.Parallel()
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

// Type moves a slider or spin button drawn with ARIA (no input element
// holds its value) as a person does with the keyboard: arrow keys, Page
// Up/Down for a long way, learnt from what one press does — 0.1 a step on
// the APG thermostat, 10 on Radix's volume, a day at a time on the APG date
// spin buttons. A number outside the widget's bounds is InvalidValue, and
// no key is pressed for it.
func TestTypeMovesARIASliders(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		page, role, name, text, want string
	}{
		{"apg/content/patterns/slider/examples/slider-temperature.html", "slider", "Temperature", "30", "30.0 degrees Celsius"},
		{"apg/content/patterns/slider/examples/slider-temperature.html", "slider", "Temperature", "10", "10.0 degrees Celsius"},
		{"components/radix-slider.html", "slider", "Volume", "20", "20"},
		{"components/mantine-slider.html", "slider", "Opacity", "80", "80"},
		{"apg/content/patterns/spinbutton/examples/datepicker-spinbuttons.html", "spinbutton", "Day", "15", "fifteenth"},
	} {
		t.Run(c.name+"="+c.text, func(t *testing.T) {
			t.Parallel()
			ctx := testCtx(t, 60*time.Second)
			p := open(t, c.page)
			if strings.HasPrefix(c.page, "components/") {
				waitReady(t, p)
			}
			s := snapshot(t, p)
			ref := refNamed(t, s, c.role, c.name)
			act, verb := p.Type, "Type"
			if c.name == "Volume" {
				// Select takes a slider's value too, as it does a range's
				act, verb = func(ctx context.Context, ref, v string) (rodagent.ActionStatus, error) { return p.Select(ctx, ref, v) }, "Select"
			}
			if st, err := act(ctx, ref, c.text); err != nil || !st.OK() {
				t.Fatalf("%s(%s, %q): %s %v", verb, ref, c.text, st, err)
			}
			s = snapshot(t, p, rodagent.WithFull())
			if r, _ := s.Ref(ref); r.State.Value != c.want {
				t.Errorf("after Type %q, %s says %q, want %q", c.text, ref, r.State.Value, c.want)
			}
		})
	}
	t.Run("out of bounds", func(t *testing.T) {
		t.Parallel()
		ctx := testCtx(t, 60*time.Second)
		p := open(t, "apg/content/patterns/slider/examples/slider-temperature.html")
		s := snapshot(t, p)
		ref := refNamed(t, s, "slider", "Temperature")
		st, err := p.Type(ctx, ref, "50")
		if !errors.Is(err, rodagent.ErrInvalidValue) || st != rodagent.InvalidValue || !strings.Contains(err.Error(), "from 10 to 38") {
			t.Errorf("Type 50 on a 10–38 slider: %s %v, want invalid_value naming the bounds", st, err)
		}
		s = snapshot(t, p, rodagent.WithFull())
		if r, _ := s.Ref(ref); r.State.Value != "25.0 degrees Celsius" {
			t.Errorf("a refused value must move nothing: %q", r.State.Value)
		}
	})
}
