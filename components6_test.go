package rodagent_test

import (
	"testing"
	"time"

	"github.com/rodagent/rodagent"
)

// Agent tasks on a sixth batch of widget libraries the earlier batches lack
// (testdata/fixtures/components6, built from npm packages): Blueprint
// (Select, NumericInput, Tree), Ant Design's Cascader, Table with row
// selection and pagination and Transfer, react-datepicker, Select2
// (jQuery), Quill, Naive UI (Vue), Vaadin's shadow-DOM combo box, date
// picker and grid, and Ionic's toggle and alert select. Same agent as
// runAgentTask: targets from printed lines only, acts by ref, and the
// page's role=status outcome in the last delta and in a full read.
var componentTasks6 = []agentTask{
	{"components6/blueprint-select.html", []agentStep{
		{do: "click", role: "button", name: "Fruit", see: []seen{{"option", "Apple", ""}, {"option", "Banana", ""}}},
		// Blueprint's button is named by its <label>: what it shows (the
		// placeholder, then the pick) is its shows=.
		{do: "click", role: "option", name: "Banana", see: []seen{{"button", "Fruit", `shows="Banana"`}}},
	}, "fruit=banana"},
	{"components6/blueprint-numeric.html", []agentStep{
		{do: "click", role: "button", name: "increment", see: []seen{{"spinbutton", "Quantity", `value="2"`}}},
		{do: "click", role: "button", name: "increment", see: []seen{{"spinbutton", "Quantity", `value="3"`}}},
	}, "quantity=3"},
	{"components6/blueprint-tree.html", []agentStep{
		// Blueprint's tree has no roles: a node's row and its caret (an
		// svg titled "Expand group") are clickables named as they show.
		{do: "click", role: "generic", name: "Expand group", see: []seen{{"generic", "Reports", ""}, {"generic", "Notes.txt", ""}}},
		{do: "click", role: "generic", name: "Expand group", see: []seen{{"generic", "Q2.xlsx", ""}}},
		{do: "click", role: "generic", name: "Q2.xlsx"},
	}, "file=q2"},
	{"components6/antd-cascader.html", []agentStep{
		{do: "click", role: "combobox", name: "Address", see: []seen{{"menuitemcheckbox", "Zhejiang right", ""}}},
		{do: "click", role: "menuitemcheckbox", name: "Zhejiang right", see: []seen{{"menuitemcheckbox", "Hangzhou right", ""}}},
		{do: "click", role: "menuitemcheckbox", name: "Hangzhou right", see: []seen{{"menuitemcheckbox", "West Lake", ""}}},
		{do: "click", role: "menuitemcheckbox", name: "West Lake"},
	}, "place=zhejiang/hangzhou/xihu"},
	{"components6/antd-table.html", []agentStep{
		{do: "click", role: "checkbox", name: "Select row 3", see: []seen{{"checkbox", "Select row 3", "checked"}}},
		{do: "click", role: "listitem", name: "2", see: []seen{{"text", "Nick Gray", ""}}},
	}, "selected=3 page=2"},
	{"components6/antd-transfer.html", []agentStep{
		{do: "click", role: "checkbox", name: "Read", see: []seen{{"checkbox", "Read", "checked"}}},
		{do: "click", role: "checkbox", name: "Admin", see: []seen{{"checkbox", "Admin", "checked"}}},
		{do: "click", role: "button", name: "right"},
	}, "granted=read,admin"},
	{"components6/reactdatepicker-date.html", []agentStep{
		{do: "type", role: "textbox", name: "Departure", text: "06/15/2024", see: []seen{{"textbox", "Departure", `value="06/15/2024"`}}},
	}, "departure=2024-06-15"},
	{"components6/reactdatepicker-date.html", []agentStep{
		{do: "click", role: "textbox", name: "Departure", see: []seen{{"text", "June 2024", ""}}},
		{do: "click", role: "gridcell", name: "Choose Saturday, June 15th, 2024"},
	}, "departure=2024-06-15"},
	{"components6/select2-select.html", []agentStep{
		{do: "click", role: "combobox", name: "Select a country", see: []seen{{"option", "Canada", ""}, {"option", "France", ""}}},
		{do: "type", role: "searchbox", name: "", text: "fra", see: []seen{{"option", "France", ""}}},
		{do: "click", role: "option", name: "France"},
	}, "country=fr"},
	{"components6/quill-editor.html", []agentStep{
		{do: "type", role: "textbox", name: "Note", text: "Ship it today", see: []seen{{"text", "Ship it today", ""}}},
		{do: "press", text: "Shift+ArrowLeft", times: 5},
		{do: "click", role: "button", name: "bold", see: []seen{{"button", "bold", "pressed"}}},
	}, "text=Ship it today bold=today"},
	{"components6/naive-select.html", []agentStep{
		{do: "click", role: "textbox", name: "Book", see: []seen{{"generic", "Hyperion", ""}}},
		{do: "click", role: "generic", name: "Hyperion"},
	}, "book=hyperion"},
	{"components6/vaadin-combobox.html", []agentStep{
		{do: "type", role: "combobox", name: "Country", text: "fra", see: []seen{{"option", "France", ""}}},
		{do: "click", role: "option", name: "France"},
	}, "country=France"},
	{"components6/vaadin-datepicker.html", []agentStep{
		{do: "type", role: "combobox", name: "Start date", text: "6/15/2024"},
		{do: "press", text: "Enter"},
	}, "start=2024-06-15"},
	{"components6/vaadin-grid.html", []agentStep{
		{do: "click", role: "checkbox", name: "Select Row 3", see: []seen{{"checkbox", "Select Row 3", "checked"}}},
	}, "selected=3"},
	{"components6/ionic-settings.html", []agentStep{
		{do: "click", role: "switch", name: "Wi-Fi", see: []seen{{"switch", "Wi-Fi", "checked"}}},
		{do: "click", role: "button", name: "Theme Choose", see: []seen{{"radio", "Dark", ""}, {"button", "OK", ""}}},
		{do: "click", role: "radio", name: "Dark"},
		{do: "click", role: "button", name: "OK"},
	}, "wifi=true theme=dark"},
}

func TestComponentAgentTasks6(t *testing.T) {
	t.Parallel()
	runAgentTasks(t, componentTasks6, "components6/", 2)
}

// One ref per control a person sees, named as the page shows it, on the
// pages of the gaps closed with this batch (both read paths): Ant Design
// Transfer's checkboxes sit in empty <label> boxes with the item's words
// beside them in its <li>, and are named by those words (before: "clickable
// input (ant checkbox input)" on the fast path, unnamed on the AX path);
// Quill's editor, a contenteditable <div> no role marks, is a textbox
// (before: a generic, value "\n"); Blueprint's
// tree carets, role-less spans holding an svg titled "Expand group", are
// named by that title (before: "clickable span (bp6 icon)"); Blueprint's
// portal, a 0-high box React listens on holding only an empty overlay, is
// nothing to click (before: "clickable div (bp6 portal)").
func TestComponents6Names(t *testing.T) {
	t.Parallel()
	pages := []struct {
		page string
		want []string // role "name", in order
	}{
		{"antd-transfer.html", []string{`checkbox "5 items Available"`, `checkbox "Read"`, `checkbox "Write"`, `checkbox "Delete"`,
			`checkbox "Share"`, `checkbox "Admin"`, `button "right"`, `button "left"`, `checkbox "0 item Granted"`}},
		{"quill-editor.html", []string{`button "bold"`, `button "italic"`, `button "underline"`, `button "list: bullet"`, `button "link"`, `textbox "Note"`}},
		{"blueprint-tree.html", []string{`generic "Documents"`, `generic "Expand group"`, `generic "Photos"`, `generic "Expand group"`}},
		{"blueprint-select.html", []string{`button "Fruit"`}},
	}
	for i, tc := range pages {
		// every page on the fast path, the AX tree on a spread (-sweep: all)
		for _, rp := range taskPaths(i, len(pages), 3) {
			t.Run(rp.name+"/"+tc.page, func(t *testing.T) {
				t.Parallel()
				wantRefs(t, "components6/"+tc.page, rp, tc.want)
			})
		}
	}
}

// Select2's search field, an <input> with role searchbox and no name that
// a listener marks too, is read as the browser reads it on both paths:
// unnamed (before, the fast path named it from its class, "clickable input
// (select2 search field)", where the AX path had no name).
func TestComponents6UnnamedNativeControl(t *testing.T) {
	t.Parallel()
	onReadPaths(t, "components6/select2-select.html", func(t *testing.T, p *rodagent.Page, rp readPath) {
		ctx := testCtx(t, 60*time.Second)
		waitReady(t, p)
		ref := agentPick(t, []string{snapshot(t, p).String()}, "combobox", "Select a country")
		if st, err := agentAct(ctx, t, p, "click", ref, "", 0, ""); err != nil || !st.OK() {
			t.Fatalf("click %s: %s, %v", ref, st, err)
		}
		s := snapshot(t, p, rodagent.WithFull())
		found := false
		for _, r := range s.Refs {
			if r.Role == "searchbox" {
				found = true
				if r.Name != "" {
					t.Errorf("the search field is named %q, want no name (as the browser reads it):\n%s", r.Name, s)
				}
			}
		}
		if !found {
			t.Errorf("no searchbox ref after opening:\n%s", s)
		}
	})
}
