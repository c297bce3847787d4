package rodagent_test

import "testing"

// Agent tasks on an eighth batch of widget libraries (testdata/fixtures/
// components8, built from npm packages): Vuetify 3's select, autocomplete,
// data table with row selection and sorting, menu and slider, and Base
// UI's select, menu with a submenu, number field, checkbox group with a
// switch, and slider. Same agent as runAgentTask: targets from printed
// lines only, acts by ref, and the page's role=status outcome in the last
// delta and in a full read.
var componentTasks8 = []agentTask{
	// Vuetify draws its field as a box role=combobox around the input
	// role=combobox: the input is the one ref, named by its label.
	{"components8/vuetify-select.html", []agentStep{
		{do: "click", role: "combobox", name: "Country", see: []seen{{"option", "France", ""}, {"option", "Italy", ""}}},
		{do: "click", role: "option", name: "Italy", see: []seen{{"combobox", "Country", `value="Italy"`}}},
	}, "country=italy"},
	{"components8/vuetify-autocomplete.html", []agentStep{
		{do: "type", role: "combobox", name: "City", text: "li", see: []seen{{"option", "Berlin", ""}, {"option", "Lisbon", ""}}},
		{do: "click", role: "option", name: "Lisbon"},
	}, "city=lisbon"},
	{"components8/vuetify-datatable.html", []agentStep{
		{do: "click", role: "checkbox", name: "Select all", see: []seen{{"checkbox", "Select all", "checked"}}},
		{do: "click", role: "columnheader", name: "Name", see: []seen{{"columnheader", "Name", `sort="ascending"`}}},
	}, "selected=1,2,3,4 sort=name:asc"},
	{"components8/vuetify-menu.html", []agentStep{
		{do: "click", role: "button", name: "OPTIONS", see: []seen{{"option", "Profile", ""}, {"option", "Sign out", ""}}},
		{do: "click", role: "option", name: "Sign out"},
	}, "action=sign-out"},
	// Vuetify's slider thumb has no name; its <label> beside it names it
	// for a person, and for the agent.
	{"components8/vuetify-slider.html", []agentStep{
		{do: "type", role: "slider", name: "Brightness", text: "70", see: []seen{{"slider", "Brightness", `value="70"`}}},
	}, "brightness=70"},
	{"components8/vuetify-slider.html", []agentStep{
		{do: "focus", role: "slider", name: "Brightness"},
		{do: "press", text: "ArrowRight", times: 2, see: []seen{{"slider", "Brightness", `value="60"`}}},
	}, "brightness=60"},
	{"components8/baseui-select.html", []agentStep{
		{do: "click", role: "combobox", name: "Font", see: []seen{{"option", "Sans-serif", ""}, {"option", "Monospace", ""}}},
		{do: "click", role: "option", name: "Serif", see: []seen{{"combobox", "Font", `value="Serif"`}}},
	}, "font=serif"},
	{"components8/baseui-menu.html", []agentStep{
		{do: "click", role: "button", name: "Edit", see: []seen{{"menuitem", "Cut", ""}, {"menuitem", "Find", ""}}},
		{do: "click", role: "menuitem", name: "Find", see: []seen{{"menuitem", "Find next", ""}, {"menuitem", "Find previous", ""}}},
		{do: "click", role: "menuitem", name: "Find previous"},
	}, "action=find-previous"},
	{"components8/baseui-menu.html", []agentStep{
		{do: "click", role: "button", name: "Edit", see: []seen{{"menuitem", "Paste", ""}}},
		{do: "click", role: "menuitem", name: "Paste"},
	}, "action=paste"},
	{"components8/baseui-numberfield.html", []agentStep{
		{do: "click", role: "button", name: "Increase", see: []seen{{"textbox", "Amount", `value="6"`}}},
		{do: "click", role: "button", name: "Increase", see: []seen{{"textbox", "Amount", `value="7"`}}},
	}, "amount=7"},
	{"components8/baseui-numberfield.html", []agentStep{
		// Base UI reports the value as it is typed
		{do: "type", role: "textbox", name: "Amount", text: "12", see: []seen{{"textbox", "Amount", `value="12"`}}},
	}, "amount=12"},
	{"components8/baseui-checkboxgroup.html", []agentStep{
		{do: "click", role: "checkbox", name: "Email", see: []seen{{"checkbox", "Email", "checked"}}},
		{do: "click", role: "checkbox", name: "Push", see: []seen{{"checkbox", "Push", "checked"}}},
		{do: "click", role: "switch", name: "Notifications", see: []seen{{"switch", "Notifications", "checked"}}},
	}, "channels=email,push notify=on"},
	{"components8/baseui-slider.html", []agentStep{
		{do: "type", role: "slider", name: "Zoom", text: "150", see: []seen{{"slider", "Zoom", `value="150"`}}},
	}, "zoom=150"},
}

func TestComponentAgentTasks8(t *testing.T) {
	t.Parallel()
	runAgentTasks(t, componentTasks8, "components8/", 2)
}
