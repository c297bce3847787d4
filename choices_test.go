package rodagent_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/rodagent/rodagent"
)

// A drop-down <select> shows what it offers: its popup is the browser's
// own, never in the page, so the look lists its options (the first 20 and
// how many more), a dependent select's new options show in the delta after
// the choice that fills it, and Select of a name it lacks says to pick one
// of those named. Both read paths.
func TestSelectShowsItsChoices(t *testing.T) {
	t.Parallel()
	for _, path := range []string{"inventory", "ax_tree"} {
		t.Run(path, func(t *testing.T) {
			t.Parallel()
			ctx := testCtx(t, 60*time.Second)
			p := open(t, "choices.html")
			if path == "ax_tree" {
				rodagent.UseAXTree(p)
			}
			s := snapshot(t, p)
			text := s.String()
			for _, want := range []string{
				`cmb-country value="Choose a country" collapsed choices=["Choose a country","France","Japan","New Zealand"]`,
				`cmb-quantity value="1" collapsed choices=["1","2","3","4","5","6","7","8","9","10","11","12","13","14","15","16","17","18","19","20"] +30 more`,
			} {
				if !strings.Contains(text, want+"\n") {
					t.Errorf("the look lacks %s:\n%s", want, text)
				}
			}
			if strings.Contains(text, "Atlantis") {
				t.Errorf("a hidden option is listed:\n%s", text)
			}
			city := refNamed(t, s, "combobox", "City")
			for _, r := range s.Refs {
				if r.Ref == city && (r.State.ChoiceCount != 0 || len(r.State.Choices) != 0) {
					t.Errorf("the empty City select has choices: %+v", r.State)
				}
			}
			if st, err := p.Select(ctx, "cmb-country", "Japan"); err != nil || !st.OK() {
				t.Fatalf("Select(Japan) = %s, %v", st, err)
			}
			if look := snapshot(t, p).String(); !strings.Contains(look, `~ `+city+` value="Tokyo" choices=["Tokyo","Osaka","Kyoto"]`) {
				t.Errorf("the delta does not show City's new choices:\n%s", look)
			}
			_, err := p.Select(ctx, city, "Paris")
			var ae *rodagent.ActionError
			if !errors.As(err, &ae) {
				t.Fatalf("Select(a name the select lacks) = %v, want an ActionError", err)
			}
			if ae.Status != rodagent.NotFound || !strings.Contains(ae.Detail, `"Osaka"`) || !strings.Contains(ae.Next, "options named") {
				t.Errorf("Select(a name the select lacks) = %v (next: %q), want not_found naming its options and saying to pick one", err, ae.Next)
			}
		})
	}
}
