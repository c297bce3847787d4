package rodagent_test

import "testing"

// Agent tasks on a fifth batch of widget kinds real apps use and the earlier
// batches lack (testdata/fixtures/components5, built from npm packages):
// rich-text and code editors (TipTap, CodeMirror 6: contenteditable roots),
// a data grid (AG Grid Community), a Vue 3 library (Element Plus), Chakra UI
// v3 (Ark UI / Zag machines), flatpickr, Tom Select and SortableJS (HTML5
// drag and drop). Same agent as runAgentTask: targets from printed lines
// only, acts by ref, and the page's role=status outcome in the last delta
// and in a full read.
var componentTasks5 = []agentTask{
	{"components5/tiptap-editor.html", []agentStep{
		{do: "type", role: "textbox", name: "Message", text: "Ship it today", see: []seen{{"text", "Ship it today", ""}}},
		{do: "press", text: "Shift+ArrowLeft", times: 5},
		{do: "click", role: "button", name: "Bold", see: []seen{{"button", "Bold", "pressed"}}},
	}, "text=Ship it today bold=today"},
	{"components5/codemirror-editor.html", []agentStep{
		{do: "type", role: "textbox", name: "Code", text: "let total = 42;", see: []seen{{"text", "let total = 42;", ""}}},
	}, "code=let total = 42;"},
	{"components5/aggrid-grid.html", []agentStep{
		{do: "click", role: "columnheader", name: "Price", see: []seen{{"columnheader", "Price", `sort="ascending"`}}},
	}, "sort=price:asc first=Fiat"},
	{"components5/aggrid-grid.html", []agentStep{
		{do: "dblclick", role: "gridcell", name: "Ford", see: []seen{{"textbox", "Input Editor", ""}}},
		{do: "type", role: "textbox", name: "Input Editor", text: "Lincoln"},
		// The AX tree names a cell by its editor's value as it is typed, so
		// the cell reads Lincoln before Enter there: the outcome and the full
		// read tell that the edit was kept.
		{do: "press", text: "Enter"},
	}, "Lincoln.make=Lincoln"},
	{"components5/element-select.html", []agentStep{
		{do: "click", role: "combobox", name: "Warehouse", see: []seen{{"option", "Beijing", ""}, {"option", "Chengdu", ""}}},
		{do: "click", role: "option", name: "Chengdu"},
	}, "city=chengdu"},
	{"components5/element-dialog.html", []agentStep{
		{do: "click", role: "button", name: "Send invoice", see: []seen{{"text", "The invoice goes to billing@example.com.", ""}, {"button", "Confirm", ""}}},
		{do: "click", role: "button", name: "Confirm"},
	}, "invoice=sent"},
	{"components5/element-tabs.html", []agentStep{
		{do: "click", role: "tab", name: "Config", see: []seen{{"tab", "Config", "selected"}, {"text", "Region, language and time zone.", ""}}},
	}, "tab=config"},
	{"components5/element-switch.html", []agentStep{
		{do: "click", role: "switch", name: "Autosave", see: []seen{{"switch", "Autosave", "checked"}}},
		{do: "click", role: "checkbox", name: "I agree to the terms", see: []seen{{"checkbox", "I agree to the terms", "checked"}}},
	}, "autosave=true agree=true"},
	{"components5/chakra-menu.html", []agentStep{
		{do: "click", role: "button", name: "Open", see: []seen{{"menuitem", "New Window", ""}, {"menuitem", "Export", ""}}},
		{do: "click", role: "menuitem", name: "Export"},
	}, "menu=export"},
	{"components5/chakra-toggles.html", []agentStep{
		{do: "click", role: "checkbox", name: "Accept terms and conditions", see: []seen{{"checkbox", "Accept terms and conditions", "checked"}}},
		{do: "click", role: "checkbox", name: "Sync contacts", see: []seen{{"checkbox", "Sync contacts", "checked"}}},
	}, "terms=true sync=true"},
	{"components5/chakra-select.html", []agentStep{
		{do: "click", role: "combobox", name: "Select framework", see: []seen{{"option", "Vue.js", ""}, {"option", "Svelte", ""}}},
		{do: "click", role: "option", name: "Svelte"},
	}, "framework=svelte"},
	{"components5/flatpickr-date.html", []agentStep{
		{do: "click", role: "textbox", name: "Check-in", see: []seen{{"text", "June 15, 2024", ""}}},
		{do: "click", role: "generic", name: "June 15, 2024"},
	}, "checkin=2024-06-15"},
	{"components5/tomselect-tags.html", []agentStep{
		{do: "type", role: "combobox", name: "Languages", text: "ja", see: []seen{{"option", "JavaScript", ""}}},
		{do: "click", role: "option", name: "JavaScript"},
		{do: "type", role: "combobox", name: "Languages", text: "ru", see: []seen{{"option", "Rust", ""}}},
		{do: "click", role: "option", name: "Rust"},
	}, "langs=js,rs"},
	{"components5/sortable-list.html", []agentStep{
		{do: "drag", role: "listitem", name: "Write tests", to: &apgTarget{"listitem", "Plan sprint"}, see: []seen{{"text", "order=test,plan,build,ship", ""}}},
	}, "order=test,plan,build,ship"},
}

func TestComponentAgentTasks5(t *testing.T) {
	t.Parallel()
	runAgentTasks(t, componentTasks5, "components5/", 2)
}

// One ref per control a person sees, named as the page shows it, on the
// pages of the gaps closed with this batch (both read paths): Element
// Plus's switch, an unlabelled input drawn in a clickable box with its
// words (aria-hidden while it is off), is one switch named by those words,
// its track and words no refs of their own (before: a switch named after
// its generated id, sw-el-id-1234-0, beside two "clickable span"s); its
// checkbox, a 0×0 input inside its <label>, is a ref on the fast path too;
// SortableJS's items, plain <li>s under a grab cursor, are things to drag.
func TestComponents5Names(t *testing.T) {
	t.Parallel()
	pages := []struct {
		page string
		want []string // role "name", in order
	}{
		{"element-switch.html", []string{`switch "Autosave"`, `checkbox "I agree to the terms"`}},
		{"sortable-list.html", []string{`listitem "Plan sprint"`, `listitem "Build feature"`, `listitem "Write tests"`, `listitem "Ship release"`}},
		{"tomselect-tags.html", []string{`combobox "Languages"`}},
	}
	for i, tc := range pages {
		// every page on the fast path, the AX tree on a spread (-sweep: all)
		for _, rp := range taskPaths(i, len(pages), 3) {
			t.Run(rp.name+"/"+tc.page, func(t *testing.T) {
				t.Parallel()
				wantRefs(t, "components5/"+tc.page, rp, tc.want)
			})
		}
	}
}
