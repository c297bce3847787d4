package rodagent_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/rodagent/rodagent"
)

// Agent tasks on widget libraries built on other DOM techniques than the
// React ones in components2_test.go (testdata/fixtures/components3, built from
// npm packages): Shoelace and Material Web custom elements (open shadow roots,
// slots, form-associated elements, focus delegation), jQuery UI (old-school
// DOM with little ARIA) and Bootstrap 5 (data API, CSS transitions). Same
// agent as runAgentTask: targets from printed lines only, acts by ref, and
// the page's role=status outcome in the last delta and in a full read.
//
// Three tasks need the look after an action to wait for what the action set
// in motion (internal/ax/settle.js): jQuery UI's menu opens its submenu
// after a 300 ms timer, jQuery UI's accordion records its section when its
// requestAnimationFrame slide ends, and Bootstrap's modal fades in with a
// CSS transition. jQuery UI's autocomplete suggestions are role-less list
// items (refs as clickables), and Bootstrap's toast fades in as a
// role=alert box whose text the delta shows.
//
// Closed here (each a task below and a ref/name check in
// TestComponents3Names, on both read paths): Material's tabs set their role
// and state through ElementInternals, which the fast path now hears from
// the page-world record; a <label> around <md-checkbox> names the checkbox
// (one ref, not the host and its input); Shoelace's tab group listens
// around the slot of its tabs and is no ref; jQuery UI's slider handle is
// not named by its theme's colour, its selectmenu button by the <label for>
// that points at it and its datepicker field by the text before it.
var componentTasks3 = []agentTask{
	{"components3/shoelace-select.html", []agentStep{
		{do: "click", role: "combobox", name: "Priority", see: []seen{{"option", "Low", ""}, {"option", "High", ""}}},
		{do: "click", role: "option", name: "High"},
	}, "priority=high"},
	{"components3/shoelace-dropdown.html", []agentStep{
		{do: "click", role: "button", name: "Actions", see: []seen{{"menuitem", "Copy", ""}, {"menuitem", "Duplicate", ""}}},
		{do: "click", role: "menuitem", name: "Duplicate"},
	}, "action=duplicate"},
	{"components3/shoelace-toggles.html", []agentStep{
		{do: "click", role: "checkbox", name: "Remember me", see: []seen{{"checkbox", "Remember me", "checked"}}},
		{do: "click", role: "switch", name: "Dark mode", see: []seen{{"switch", "Dark mode", "checked"}}},
	}, "remember=true dark=true"},
	{"components3/shoelace-range.html", []agentStep{
		{do: "focus", role: "slider", name: "Volume"},
		{do: "press", text: "ArrowRight", times: 3, see: []seen{{"slider", "Volume", `value="60"`}}},
	}, "volume=60"},
	{"components3/shoelace-rating.html", []agentStep{
		{do: "focus", role: "slider", name: "Rate this product"},
		{do: "press", text: "ArrowRight", times: 4, see: []seen{{"slider", "Rate this product", `value="4"`}}},
	}, "rating=4"},
	{"components3/shoelace-input.html", []agentStep{
		{do: "type", role: "textbox", name: "Your name", text: "Ada", see: []seen{{"textbox", "Your name", `value="Ada"`}}},
	}, "name=Ada"},
	{"components3/md-select.html", []agentStep{
		{do: "click", role: "combobox", name: "Color", see: []seen{{"option", "Blue", ""}}},
		{do: "click", role: "option", name: "Blue"},
	}, "color=blue"},
	{"components3/md-menu.html", []agentStep{
		{do: "click", role: "button", name: "Sort by", see: []seen{{"menuitem", "Size", ""}}},
		{do: "click", role: "menuitem", name: "Size"},
	}, "sort=size"},
	{"components3/shoelace-dialog.html", []agentStep{
		{do: "click", role: "button", name: "Delete project…", see: []seen{{"button", "Delete", ""}}},
		{do: "click", role: "button", name: "Delete"},
	}, "dialog=deleted"},
	{"components3/md-slider.html", []agentStep{
		{do: "focus", role: "slider", name: "Volume"},
		{do: "press", text: "ArrowRight", times: 2, see: []seen{{"slider", "Volume", `value="70"`}}},
	}, "volume=70"},
	{"components3/jqui-tabs.html", []agentStep{
		{do: "click", role: "tab", name: "Specifications", see: []seen{{"tab", "Specifications", "selected"}, {"text", "Weight: 4.2 kg. Power: 1350 W.", ""}}},
	}, "tab=Specifications"},
	{"components3/jqui-dialog.html", []agentStep{
		{do: "click", role: "button", name: "Empty trash", see: []seen{{"text", "These items will be permanently deleted", ""}, {"button", "Delete all items", ""}}},
		{do: "click", role: "button", name: "Delete all items"},
	}, "trash=emptied"},
	{"components3/bs-dropdown.html", []agentStep{
		{do: "click", role: "button", name: "Dropdown button", see: []seen{{"button", "Dropdown button", "expanded"}, {"link", "Another action", ""}}},
		{do: "click", role: "link", name: "Another action"},
	}, "action=another"},
	{"components3/bs-accordion.html", []agentStep{
		{do: "click", role: "button", name: "Returns", see: []seen{{"button", "Returns", "expanded"}, {"text", "Return any item within 30 days.", ""}, {"button", "Start a return", ""}}},
		{do: "click", role: "button", name: "Start a return"},
	}, "return=started"},
	{"components3/jqui-menu.html", []agentStep{
		{do: "click", role: "menuitem", name: "Export", see: []seen{{"menuitem", "PDF", ""}, {"menuitem", "Word", ""}}},
		{do: "click", role: "menuitem", name: "Word"},
	}, "menu=Word"},
	{"components3/jqui-accordion.html", []agentStep{
		{do: "click", role: "tab", name: "Returns", see: []seen{{"text", "section=Returns", ""}, {"button", "Contact support", ""}}},
		{do: "click", role: "button", name: "Contact support"},
	}, "contact=requested"},
	{"components3/bs-modal.html", []agentStep{
		{do: "click", role: "button", name: "Launch demo modal", see: []seen{{"text", "Woo-hoo, you are reading this text in a modal!", ""}, {"button", "Save changes", ""}}},
		{do: "click", role: "button", name: "Save changes"},
	}, "modal=saved"},
	{"components3/bs-checks.html", []agentStep{
		{do: "click", role: "checkbox", name: "I agree to the terms", see: []seen{{"checkbox", "I agree to the terms", "checked"}}},
		{do: "click", role: "switch", name: "Email alerts", see: []seen{{"switch", "Email alerts", "checked"}}},
	}, "terms=true alerts=true"},
	// Material's tabs are tabs through ElementInternals (internals.role,
	// internals.ariaSelected), which no attribute shows.
	{"components3/md-tabs.html", []agentStep{
		{do: "click", role: "tab", name: "Videos", see: []seen{{"tab", "Videos", "selected"}, {"text", "3 videos in your library.", ""}}},
	}, "tab=videos"},
	// A <label> around <md-checkbox> names the custom element; the checkbox
	// a person clicks is the one control of its shadow tree.
	{"components3/md-toggles.html", []agentStep{
		{do: "click", role: "checkbox", name: "Send me the newsletter", see: []seen{{"checkbox", "Send me the newsletter", "checked"}}},
		{do: "click", role: "switch", name: "Wi-Fi", see: []seen{{"switch", "Wi-Fi", "checked"}}},
	}, "newsletter=true wifi=true"},
	{"components3/shoelace-tabs.html", []agentStep{
		{do: "click", role: "tab", name: "Advanced", see: []seen{{"tab", "Advanced", "selected"}, {"text", "This is the advanced tab panel.", ""}}},
	}, "tab=advanced"},
	// jQuery UI's slider handle is a focusable span with no name and no role.
	{"components3/jqui-slider.html", []agentStep{
		{do: "focus", role: "generic", name: "clickable span (ui slider handle)"},
		{do: "press", text: "ArrowRight", times: 3, see: []seen{{"text", "Amount: 50", ""}}},
	}, "amount=50"},
	// The selectmenu's button is a role=combobox span its <label for> points
	// at (no labelable element: Chromium leaves it unnamed).
	{"components3/jqui-selectmenu.html", []agentStep{
		{do: "click", role: "combobox", name: "Select a speed", see: []seen{{"combobox", "Select a speed", "expanded"}, {"option", "Fast", ""}}},
		{do: "click", role: "option", name: "Fast"},
	}, "speed=fast"},
	// jQuery UI's suggestions are <li><div>s with no role but menuitem on
	// the div, appended to <body> when the list opens.
	{"components3/jqui-autocomplete.html", []agentStep{
		{do: "type", role: "textbox", name: "Language:", text: "Sc", see: []seen{{"listitem", "Scala", ""}, {"listitem", "Scheme", ""}}},
		{do: "click", role: "listitem", name: "Scheme", see: []seen{{"textbox", "Language:", `value="Scheme"`}}},
	}, "language=Scheme"},
	// Bootstrap's tab panels fade: the new one is shown, the old one hidden.
	{"components3/bs-tabs.html", []agentStep{
		{do: "click", role: "tab", name: "Profile", see: []seen{{"tab", "Profile", "selected"}, {"text", "Signed in as Ada Lovelace.", ""}}},
	}, "tab=profile"},
	// Bootstrap's toast fades in at the bottom right, a role=alert box.
	{"components3/bs-toast.html", []agentStep{
		{do: "click", role: "button", name: "Show live toast", see: []seen{{"text", "Hello, world! This is a toast message.", ""}, {"button", "Close", ""}}},
		{do: "click", role: "button", name: "Close"},
	}, "toast=closed"},
	// The datepicker's field has only the text before it ("Check-in:").
	{"components3/jqui-datepicker.html", []agentStep{
		{do: "click", role: "textbox", name: "Check-in:", see: []seen{{"link", "15", ""}}},
		{do: "click", role: "link", name: "15"},
	}, "checkin=2024-06-15"},
}

func TestComponentAgentTasks3(t *testing.T) {
	t.Parallel()
	runAgentTasks(t, componentTasks3, "components3/", 1)
}

// A custom element's host around the control in its shadow tree (a listener
// on <md-filled-button>, <sl-button>, <md-checkbox>) is no control of its
// own: a person sees one button, one checkbox. And a press on the control
// reaches it though the hit lands on the host's slotted text.
func TestComponents3HostsAreNoRefs(t *testing.T) {
	t.Parallel()
	for _, pg := range []string{"md-menu.html", "shoelace-dialog.html", "md-select.html"} {
		for _, rp := range readPaths {
			t.Run(rp.name+"/"+pg, func(t *testing.T) {
				t.Parallel()
				p := open(t, "components3/"+pg)
				rp.set(p)
				s := snapshot(t, p)
				for _, r := range s.Refs {
					if r.Role == "generic" {
						t.Errorf("%s (%s %q) is a ref; the control inside it is the one:\n%s", r.Ref, r.Role, r.Name, s.FullText())
					}
				}
			})
		}
	}
}

// The refs a person sees on the pages of the gaps closed above, and no
// others: no host, wrapper or listening box around a control, and each
// control named as the page shows it. The fast path always, both under
// -sweep (TestFastPathMatchesAXTree compares the two on these pages).
func TestComponents3Names(t *testing.T) {
	t.Parallel()
	pages := []struct {
		page string
		want []string // role "name", in order
	}{
		{"md-tabs.html", []string{`tab "Photos"`, `tab "Videos"`, `tab "Music"`}},
		{"md-toggles.html", []string{`checkbox "Send me the newsletter"`, `switch "Wi-Fi"`}},
		{"shoelace-tabs.html", []string{`tab "General"`, `tab "Custom"`, `tab "Advanced"`}},
		{"jqui-slider.html", []string{`generic "clickable span (ui slider handle)"`}},
		{"jqui-selectmenu.html", []string{`combobox "Select a speed"`}},
		{"jqui-datepicker.html", []string{`textbox "Check-in:"`}},
	}
	for i, tc := range pages {
		for _, rp := range taskPaths(i, len(pages), 0) {
			t.Run(rp.name+"/"+tc.page, func(t *testing.T) {
				t.Parallel()
				wantRefs(t, "components3/"+tc.page, rp, tc.want)
			})
		}
	}
}

// wantRefs opens page on read path rp and checks its refs are want, in
// order, each as role "name".
func wantRefs(t *testing.T, page string, rp readPath, want []string) {
	t.Helper()
	p := open(t, page)
	rp.set(p)
	waitReady(t, p)
	refsAre(t, snapshot(t, p), want)
}

// refsAre fails unless s's refs are exactly want, in order, each as role "name".
func refsAre(t *testing.T, s *rodagent.Snapshot, want []string) {
	t.Helper()
	var got []string
	for _, r := range s.Refs {
		got = append(got, fmt.Sprintf("%s %q", r.Role, r.Name))
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("refs:\n%s\nwant:\n%s\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"), s.FullText())
	}
}

// Switching Bootstrap's tabs: the delta shows the new panel's text and
// takes the old panel's away (its text leaves with its panel's ref), and a
// full read holds the new text only — the agent reads which panel shows.
func TestComponents3TabPanelSwitch(t *testing.T) {
	t.Parallel()
	for _, rp := range readPaths {
		t.Run(rp.name, func(t *testing.T) {
			t.Parallel()
			ctx := testCtx(t, 60*time.Second)
			p := open(t, "components3/bs-tabs.html")
			rp.set(p)
			waitReady(t, p)
			s := snapshot(t, p)
			if !strings.Contains(s.String(), `"Welcome home."`) {
				t.Fatalf("the first look should show the open panel's text:\n%s", s)
			}
			ref := agentPick(t, []string{s.String()}, "tab", "Profile")
			if st, err := agentAct(ctx, t, p, "click", ref, "", 0, ""); err != nil || !st.OK() {
				t.Fatalf("click %s: %s, %v", ref, st, err)
			}
			d := snapshot(t, p).String()
			for _, want := range []string{`+ text "Signed in as Ada Lovelace."`, `- text "Welcome home."`, "- el-home", "~ tab-profile selected"} {
				if !strings.Contains(d, want) {
					t.Errorf("the delta should say %s:\n%s", want, d)
				}
			}
			full := snapshot(t, p, rodagent.WithFull()).String()
			if strings.Contains(full, "Welcome home.") || !strings.Contains(full, "Signed in as Ada Lovelace.") {
				t.Errorf("a full read should hold the new panel's text only:\n%s", full)
			}
		})
	}
}
