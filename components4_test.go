package rodagent_test

import (
	"strings"
	"testing"
	"time"

	"github.com/rodagent/rodagent"
)

// Agent tasks on a fourth batch of widget libraries common in real apps
// (testdata/fixtures/components4, built from npm packages): Fluent UI React
// v9 (Griffel styles, tabster focus management, portals), PrimeReact 10 (a
// visually hidden input as the focusable control beside the shown one) and
// Carbon web components (Lit custom elements, shadow roots). Same agent as
// runAgentTask: targets from printed lines only, acts by ref, and the
// page's role=status outcome in the last delta and in a full read.
var componentTasks4 = []agentTask{
	{"components4/fluent-dropdown.html", []agentStep{
		{do: "click", role: "combobox", name: "Best pet", see: []seen{{"combobox", "Best pet", "expanded"}, {"option", "Dog", ""}, {"option", "Ferret", ""}}},
		{do: "click", role: "option", name: "Dog"},
	}, "pet=dog"},
	{"components4/fluent-combobox.html", []agentStep{
		{do: "type", role: "combobox", name: "Best pet", text: "fe", see: []seen{{"option", "Ferret", ""}}},
		{do: "click", role: "option", name: "Ferret", see: []seen{{"combobox", "Best pet", `value="Ferret"`}}},
	}, "pet=ferret"},
	{"components4/fluent-menu.html", []agentStep{
		{do: "click", role: "button", name: "Edit content", see: []seen{{"menuitem", "New Window", ""}, {"menuitem", "Open Folder", ""}}},
		{do: "click", role: "menuitem", name: "Open Folder"},
	}, "menu=folder"},
	{"components4/fluent-dialog.html", []agentStep{
		{do: "click", role: "button", name: "Delete file", see: []seen{{"text", "The file will be moved to the recycle bin for 30 days.", ""}, {"button", "Move to recycle bin", ""}}},
		{do: "click", role: "button", name: "Move to recycle bin"},
	}, "file=deleted"},
	{"components4/fluent-tabs.html", []agentStep{
		{do: "click", role: "tab", name: "Departures", see: []seen{{"tab", "Departures", "selected"}, {"text", "Gate B12 is boarding.", ""}}},
	}, "tab=departures"},
	{"components4/fluent-toggles.html", []agentStep{
		{do: "click", role: "checkbox", name: "Subscribe to updates", see: []seen{{"checkbox", "Subscribe to updates", "checked"}}},
		{do: "click", role: "switch", name: "Wi-Fi", see: []seen{{"switch", "Wi-Fi", "checked"}}},
	}, "subscribe=true wifi=true"},
	{"components4/fluent-slider.html", []agentStep{
		{do: "focus", role: "slider", name: "Volume"},
		{do: "press", text: "ArrowRight", times: 2, see: []seen{{"slider", "Volume", `value="70"`}}},
	}, "volume=70"},
	{"components4/prime-dropdown.html", []agentStep{
		{do: "click", role: "button", name: "Select a City", see: []seen{{"option", "Rome", ""}, {"option", "Paris", ""}}},
		{do: "click", role: "option", name: "Rome", see: []seen{{"text", "Rome", ""}}},
	}, "city=RM"},
	{"components4/prime-multiselect.html", []agentStep{
		{do: "click", role: "combobox", name: "Cities", see: []seen{{"option", "London", ""}, {"option", "Paris", ""}}},
		{do: "click", role: "option", name: "London", see: []seen{{"option", "London", "selected"}}},
		{do: "click", role: "option", name: "Paris", see: []seen{{"option", "Paris", "selected"}}},
	}, "cities=LDN,PRS"},
	{"components4/prime-calendar.html", []agentStep{
		{do: "click", role: "combobox", name: "Check-in", see: []seen{{"button", "Next Month", ""}, {"gridcell", "2024-06-15", ""}}},
		{do: "click", role: "button", name: "Next Month", see: []seen{{"gridcell", "2024-07-15", ""}}},
		{do: "click", role: "gridcell", name: "2024-07-15"},
	}, "checkin=2024-07-15"},
	{"components4/prime-tabs.html", []agentStep{
		{do: "click", role: "tab", name: "Reviews", see: []seen{{"tab", "Reviews", "selected"}, {"text", "4.6 out of 5 from 212 campers.", ""}}},
	}, "tab=reviews"},
	{"components4/prime-toggles.html", []agentStep{
		{do: "click", role: "checkbox", name: "Extra cheese", see: []seen{{"checkbox", "Extra cheese", "checked"}}},
		{do: "click", role: "switch", name: "Notify me", see: []seen{{"switch", "Notify me", "checked"}}},
	}, "cheese=true notify=true"},
	{"components4/carbon-dropdown.html", []agentStep{
		{do: "click", role: "combobox", name: "Region", see: []seen{{"option", "EU West", ""}}},
		{do: "click", role: "option", name: "EU West"},
	}, "region=eu-west"},
	{"components4/carbon-combobox.html", []agentStep{
		{do: "type", role: "combobox", name: "Framework", text: "sv", see: []seen{{"option", "Svelte", ""}}},
		{do: "click", role: "option", name: "Svelte"},
	}, "framework=svelte"},
	{"components4/carbon-tabs.html", []agentStep{
		{do: "click", role: "tab", name: "Yearly", see: []seen{{"tab", "Yearly", "selected"}, {"text", "$120 a year: two months free.", ""}}},
	}, "tab=yearly"},
	{"components4/carbon-toggles.html", []agentStep{
		{do: "click", role: "checkbox", name: "Enable nightly backup", see: []seen{{"checkbox", "Enable nightly backup", "checked"}}},
		{do: "click", role: "switch", name: "Email alerts", see: []seen{{"switch", "Email alerts", "checked"}}},
	}, "backup=true alerts=true"},
}

func TestComponentAgentTasks4(t *testing.T) {
	t.Parallel()
	runAgentTasks(t, componentTasks4, "components4/", 1)
}

// One ref per control a person sees, named as the page shows it, on the
// pages of the gaps closed with this batch (both read paths): a <label for>
// of a transparent or visually hidden checkbox (Fluent, PrimeReact,
// Carbon's label inside its shadow root) and the pointer-cursor drawing
// inside it are no second handle on the checkbox; a Field's label is none
// on its slider; PrimeReact's InputSwitch, a role=checkbox track outside the
// tab order around its input role=switch, is one switch. PrimeReact's
// Dropdown clips its focusable input and its native <select> to 1 px beside
// the trigger it draws: the trigger is the one ref (its label reads as
// text), while the MultiSelect's clipped input, with nothing drawn that is a
// control, stays the combobox.
func TestComponents4Names(t *testing.T) {
	t.Parallel()
	pages := []struct {
		page string
		want []string // role "name", in order
	}{
		{"fluent-toggles.html", []string{`checkbox "Subscribe to updates"`, `switch "Wi-Fi"`}},
		{"fluent-slider.html", []string{`slider "Volume"`}},
		{"prime-toggles.html", []string{`checkbox "Extra cheese"`, `switch "Notify me"`}},
		{"prime-multiselect.html", []string{`combobox "Cities"`}},
		{"prime-dropdown.html", []string{`button "Select a City"`}},
		{"carbon-toggles.html", []string{`checkbox "Enable nightly backup"`, `switch "Email alerts"`}},
	}
	for i, tc := range pages {
		// every page on the fast path, the AX tree on a spread (-sweep: all)
		for _, rp := range taskPaths(i, len(pages), 3) {
			t.Run(rp.name+"/"+tc.page, func(t *testing.T) {
				t.Parallel()
				wantRefs(t, "components4/"+tc.page, rp, tc.want)
			})
		}
	}
}

// PrimeReact's calendar names its month and year buttons "Choose Month" and
// "Choose Year" (aria-label) and shows "June" and "2024" on them: the ref
// line says what a person reads there (shows="June"), on both read paths,
// and the next look says it when the shown month turns, as a full read does.
func TestRefShowsTextItsNameLeavesOut(t *testing.T) {
	t.Parallel()
	onReadPaths(t, "components4/prime-calendar.html", func(t *testing.T, p *rodagent.Page, _ readPath) {
		ctx := testCtx(t, 60*time.Second)
		waitReady(t, p)
		s := snapshot(t, p)
		if _, err := p.Click(ctx, refNamed(t, s, "combobox", "Check-in")); err != nil {
			t.Fatal(err)
		}
		s = snapshot(t, p, rodagent.WithFull())
		shows := func(s *rodagent.Snapshot, role, name string) string {
			for _, r := range s.Refs {
				if r.Role == role && r.Name == name {
					return r.Shows
				}
			}
			t.Fatalf("no %s %q:\n%s", role, name, s.FullText())
			return ""
		}
		if m, y := shows(s, "button", "Choose Month"), shows(s, "button", "Choose Year"); m != "June" || y != "2024" {
			t.Errorf("month shows %q, year %q; want June, 2024:\n%s", m, y, s.FullText())
		}
		if !strings.Contains(s.FullText(), `btn-choose-month shows="June"`) {
			t.Errorf("the ref line does not say what the button shows:\n%s", s.FullText())
		}
		if got := shows(s, "button", "Next Month"); got != "" {
			t.Errorf("an icon button shows nothing to read, got %q", got)
		}
		if _, err := p.Click(ctx, refNamed(t, s, "button", "Next Month")); err != nil {
			t.Fatal(err)
		}
		d := snapshot(t, p)
		// (a delta, or the whole page when most of it changed: either says it)
		if !strings.Contains(d.String(), `btn-choose-month shows="July"`) {
			t.Errorf("the look after Next Month does not say the month turned:\n%s", d)
		}
		f := snapshot(t, p, rodagent.WithFull())
		if diff := deltaVersusFull(s, d, f); diff != "" {
			t.Error(diff)
		}
		if m := shows(f, "button", "Choose Month"); m != "July" {
			t.Errorf("after Next Month the month shows %q, want July", m)
		}
		// the shown text alone changes: a delta of one field
		eval(t, p, `(document.querySelector('[aria-label="Choose Month"]').textContent = 'Julio', 1)`, nil)
		d = snapshot(t, p)
		if d.Delta == nil || !strings.Contains(d.String(), `~ btn-choose-month shows="Julio"`) {
			t.Errorf("the delta does not say what the button shows now:\n%s", d)
		}
		if diff := deltaVersusFull(f, d, snapshot(t, p, rodagent.WithFull())); diff != "" {
			t.Error(diff)
		}
	})
}

// The rule behind PrimeReact's Dropdown, on a page of its own: a control
// clipped to 1 px by a wrapper, inside a widget that draws a control of its
// own, is no ref; a visually hidden field with nothing drawn for it, one
// whose own box is 1 px (sr-only on the input), and a skip link stay refs.
// Both read paths agree.
func TestClippedControlBesideItsStandIn(t *testing.T) {
	t.Parallel()
	onReadPaths(t, "basic.html", func(t *testing.T, p *rodagent.Page, _ readPath) {
		eval(t, p, `(() => {
			const clip = 'position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap';
			document.body.innerHTML = '<main>' +
				'<a href="#x" style="' + clip + '">Skip to content</a>' +
				'<div class="widget" style="display:flex;width:200px;height:30px">' +
				'<div style="' + clip + '"><input aria-label="Hidden city" readonly></div>' +
				'<span>Pick a city</span><div role="button" aria-label="Open cities" style="width:30px">v</div></div>' +
				'<div style="width:200px;height:30px"><div style="' + clip + '"><input aria-label="Alone"></div><span>Nothing to click</span></div>' +
				'<div style="width:200px;height:30px"><input aria-label="Own box" style="' + clip + '"><button>Go</button></div>' +
				'</main>';
			return 1; })()`, nil)
		want := []string{`link "Skip to content"`, `button "Open cities"`, `textbox "Alone"`, `textbox "Own box"`, `button "Go"`}
		refsAre(t, snapshot(t, p), want)
	})
}
