package rodagent_test

import (
	"strings"
	"testing"
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
// CSS transition. Nine more pages in components3 have no task yet
// (md-toggles: a <label> around <md-checkbox> does not name its input).
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
}

func TestComponentAgentTasks3(t *testing.T) {
	t.Parallel()
	for i, tc := range componentTasks3 {
		for _, rp := range taskPaths(i, len(componentTasks3), 4) {
			t.Run(rp.name+"/"+strings.TrimPrefix(tc.page, "components3/"), func(t *testing.T) {
				t.Parallel()
				runAgentTask(t, tc, rp.set)
			})
		}
	}
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
