package rodagent_test

import "testing"

// Agent tasks on a seventh batch of widget libraries (testdata/fixtures/
// components7, built from npm packages): React Aria Components' DatePicker
// (a segmented date input of spin buttons and a calendar popover),
// ComboBox, Select, Slider, Table with row selection and a sortable
// column, Menu with a submenu, NumberField and TagGroup, and MUI X's
// DatePicker (its accessible "sections" field). Same agent as
// runAgentTask: targets from printed lines only, acts by ref, and the
// page's role=status outcome in the last delta and in a full read.
var componentTasks7 = []agentTask{
	// React Aria's date segments are spin buttons named by their part and
	// the field's label; a person types the digits into each.
	{"components7/aria-datepicker.html", []agentStep{
		{do: "type", role: "spinbutton", name: "month, Event date", text: "6"},
		{do: "type", role: "spinbutton", name: "day, Event date", text: "15"},
		{do: "type", role: "spinbutton", name: "year, Event date", text: "2024", see: []seen{{"spinbutton", "year, Event date", `value="2024"`}}},
	}, "date=2024-06-15"},
	{"components7/aria-datepicker.html", []agentStep{
		{do: "click", role: "button", name: "Calendar Event date", see: []seen{{"text", "June 2024", ""}, {"button", "Saturday, June 15, 2024", ""}}},
		{do: "click", role: "button", name: "Saturday, June 15, 2024"},
	}, "date=2024-06-15"},
	{"components7/aria-combobox.html", []agentStep{
		{do: "type", role: "combobox", name: "Fruit", text: "ban", see: []seen{{"option", "Banana", ""}}},
		{do: "click", role: "option", name: "Banana", see: []seen{{"combobox", "Fruit", `value="Banana"`}}},
	}, "fruit=banana"},
	{"components7/aria-combobox.html", []agentStep{
		{do: "click", role: "button", name: "Show suggestions Fruit", see: []seen{{"option", "Apple", ""}, {"option", "Mango", ""}}},
		{do: "click", role: "option", name: "Mango"},
	}, "fruit=mango"},
	// The Select's button is named by what it shows and its label.
	{"components7/aria-select.html", []agentStep{
		{do: "click", role: "button", name: "Select an animal Animal", see: []seen{{"option", "Cat", ""}, {"option", "Panda", ""}}},
		{do: "click", role: "option", name: "Panda", see: []seen{{"button", "Panda Animal", ""}}},
	}, "animal=panda"},
	{"components7/aria-slider.html", []agentStep{
		{do: "type", role: "slider", name: "Volume", text: "80", see: []seen{{"slider", "Volume", `value="80"`}}},
	}, "volume=80"},
	{"components7/aria-slider.html", []agentStep{
		{do: "focus", role: "slider", name: "Volume"},
		{do: "press", text: "ArrowRight", times: 2, see: []seen{{"slider", "Volume", `value="70"`}}},
	}, "volume=70"},
	{"components7/aria-table.html", []agentStep{
		{do: "click", role: "checkbox", name: "Select Carla Ruiz", see: []seen{{"checkbox", "Select Carla Ruiz", "checked"}}},
		{do: "click", role: "columnheader", name: "Name", see: []seen{{"columnheader", "Name", `sort="descending"`}}},
		{do: "click", role: "checkbox", name: "Select Alice Moreau", see: []seen{{"checkbox", "Select Alice Moreau", "checked"}}},
	}, "selected=1,3 sort=name:descending"},
	{"components7/aria-table.html", []agentStep{
		{do: "click", role: "checkbox", name: "Select All", see: []seen{{"checkbox", "Select All", "checked"}, {"checkbox", "Select Bob Tanaka", "checked"}, {"checkbox", "Select Dev Patel", "checked"}}},
	}, "selected=1,2,3,4 sort=name:ascending"},
	{"components7/aria-menu.html", []agentStep{
		{do: "click", role: "button", name: "Actions", see: []seen{{"menuitem", "Open", ""}, {"menuitem", "Share", ""}}},
		{do: "click", role: "menuitem", name: "Share", see: []seen{{"menuitem", "Email", ""}, {"menuitem", "Copy link", ""}}},
		{do: "click", role: "menuitem", name: "Copy link"},
	}, "action=copy-link"},
	{"components7/aria-numberfield.html", []agentStep{
		{do: "click", role: "button", name: "Increase Quantity", see: []seen{{"textbox", "Quantity", `value="2"`}}},
		{do: "click", role: "button", name: "Increase Quantity", see: []seen{{"textbox", "Quantity", `value="3"`}}},
	}, "qty=3"},
	{"components7/aria-numberfield.html", []agentStep{
		{do: "type", role: "textbox", name: "Quantity", text: "7", see: []seen{{"textbox", "Quantity", `value="7"`}}},
		{do: "press", text: "Enter"},
	}, "qty=7"},
	{"components7/aria-taggroup.html", []agentStep{
		{do: "click", role: "button", name: "Remove Travel"},
		{do: "click", role: "button", name: "Remove Shopping"},
	}, "tags=news,gaming"},
	// MUI X's field: month, day and year spin buttons in a group labelled
	// "Start date"; typing a section's digits moves on to the next. (On
	// Chromium MUI styles the sections -webkit-user-modify: read-only while
	// the field has no focus: editable only once focused.)
	{"components7/muix-datepicker.html", []agentStep{
		{do: "type", role: "spinbutton", name: "Month", text: "06"},
		{do: "type", role: "spinbutton", name: "Day", text: "15"},
		{do: "type", role: "spinbutton", name: "Year", text: "2024"},
	}, "date=2024-06-15"},
	{"components7/muix-datepicker.html", []agentStep{
		// The header's month label is a clickable box (it switches to the
		// year view), read as a generic named by its text.
		{do: "click", role: "button", name: "Choose date", see: []seen{{"generic", "June 2024", ""}, {"gridcell", "15", ""}}},
		// Launch's pages see a mouse, so MUI renders its desktop picker: a
		// popover that the pick closes (with no fine pointer it was the
		// mobile dialog, whose pick takes an OK).
		{do: "click", role: "gridcell", name: "15"},
	}, "date=2024-06-15"},
}

func TestComponentAgentTasks7(t *testing.T) {
	t.Parallel()
	runAgentTasks(t, componentTasks7, "components7/", 2)
}
