package rodagent_test

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rodagent/rodagent"
)

// Acting tasks on the W3C ARIA Authoring Practices examples
// (testdata/fixtures/apg, pages written by others), the kind a widget
// benchmark asks: "choose Banana as Favorite Fruit", "sort by Last Name
// descending". The agent is the one of TestComponentAgentTasks: it picks
// every target from the printed snapshot lines (role and name as printed),
// acts by ref, and reads the delta. Each task's outcome is checked twice:
// from the page's own DOM/ARIA state (truth, evaluated in the page) and in
// the text the agent reads after its last step (show).

// apgStep is one move of the agent.
type apgStep struct {
	do         string // click, dblclick, type, focus, press, select, drag, scroll
	role, name string // the target as printed
	after      string // pick the first matching line after a printed line holding this text
	text       string // typed text, pressed key, selected option
	times      int    // how often to press (default once)
	to         *apgTarget
	see        []seen // in the delta after this step
	record     string // JS run before the step; its value is window.__apgBefore for the truth
}

// apgTarget is a drop target.
type apgTarget struct{ role, name string }

type apgTask struct {
	goal  string
	page  string // under testdata/fixtures/apg/content/patterns/
	steps []apgStep
	truth string // a JS expression whose string value is the page's own record of the outcome
	want  string // "": whatever the page shows (a live value, a slide), which the agent must read
	show  []seen // in the text the agent reads after its last step
}

// apgDate is mm/dd/yyyy of the day n days from today, the APG date pickers'
// format, and the month-step count from this month to it.
func apgDate(n int) (value string, day string, monthsAhead int, long string) {
	now := time.Now()
	d := now.AddDate(0, 0, n)
	monthsAhead = (d.Year()-now.Year())*12 + int(d.Month()) - int(now.Month())
	return d.Format("01/02/2006"), fmt.Sprint(d.Day()), monthsAhead, d.Format("January 2, 2006")
}

func apgTasks() []apgTask {
	date14, day14, ahead14, _ := apgDate(14)
	nextMonth := func(n int) []apgStep {
		var s []apgStep
		for i := 0; i < n; i++ {
			s = append(s, apgStep{do: "click", role: "button", name: "Next Month"})
		}
		return s
	}
	comboDate := append(append([]apgStep{
		{do: "click", role: "button", name: "Choose Date", see: []seen{{"button", "Next Month", ""}}},
	}, nextMonth(ahead14)...), apgStep{do: "click", role: "gridcell", name: day14})
	dialogDate := append(append([]apgStep{
		{do: "click", role: "button", name: "Choose Date", see: []seen{{"button", "OK", ""}}},
	}, nextMonth(ahead14)...),
		// a click on a day chooses it and closes the dialog
		apgStep{do: "click", role: "gridcell", name: day14})

	return []apgTask{
		{"open the Billing Address section and enter 1 Main St as Address 1", "accordion/examples/accordion.html", []apgStep{
			{do: "click", role: "button", name: "Billing Address", see: []seen{{"button", "Billing Address", "expanded"}, {"textbox", "Address 1", ""}}},
			{do: "type", role: "textbox", name: "Address 1", text: "1 Main St"},
		}, "document.getElementById('b-add1').value", "1 Main St", []seen{{"textbox", "Address 1", `value="1 Main St"`}}},

		{"trigger the alert and read it", "alert/examples/alert.html", []apgStep{
			{do: "click", role: "button", name: "Trigger Alert"},
		}, "document.getElementById('example').textContent.trim()", "Hello", []seen{{"text", "Hello", ""}}},

		{"discard the notes, confirming in the dialog", "alertdialog/examples/alertdialog.html", []apgStep{
			{do: "click", role: "button", name: "Discard", see: []seen{{"button", "Yes", ""}, {"text", "Are you sure", ""}}},
			{do: "click", role: "button", name: "Yes"},
		}, "document.getElementById('notes').value", "", []seen{{"textbox", "Notes", ""}}},

		{"go to the Patterns page from the breadcrumb", "breadcrumb/examples/breadcrumb.html", []apgStep{
			{do: "click", role: "link", name: "Patterns"},
		}, "location.pathname.split('/').pop()", "patterns.html", []seen{{"text", "patterns.html", ""}}},

		{"mute the sound", "button/examples/button.html", []apgStep{
			{do: "click", role: "button", name: "Mute"},
		}, "document.getElementById('toggle').getAttribute('aria-pressed')", "true", []seen{{"button", "Mute", "pressed"}}},

		{"stop the slide show and show the next slide", "carousel/examples/carousel-1-prev-next.html", []apgStep{
			{do: "click", role: "button", name: "Stop Automatic Slide Show", see: []seen{{"button", "Start automatic slide show", ""}}},
			{do: "click", role: "button", name: "Next Slide", record: "[...document.querySelectorAll('.carousel-item')].findIndex(e => e.classList.contains('active'))"},
		}, // the slide after the one shown when the show stopped, by its heading
			"(() => { const items = [...document.querySelectorAll('.carousel-item')], at = items.findIndex(e => e.classList.contains('active')); " +
				"return at == (window.__apgBefore + 1) % items.length ? items[at].querySelector('h3').textContent.trim() : 'wrong slide ' + at })()", "", nil},

		{"show slide 4 of the carousel", "carousel/examples/carousel-2-tablist.html", []apgStep{
			{do: "click", role: "tab", name: "Slide 4"},
		}, "document.querySelector('[role=tab][aria-selected=true]').getAttribute('aria-label')", "Slide 4", []seen{{"tab", "Slide 4", "selected"}}},

		{"add lettuce to the sandwich", "checkbox/examples/checkbox.html", []apgStep{
			{do: "click", role: "checkbox", name: "Lettuce"},
		}, "[...document.querySelectorAll('[role=checkbox]')].find(e => e.textContent.trim() == 'Lettuce').getAttribute('aria-checked')", "true", []seen{{"checkbox", "Lettuce", "checked"}}},

		{"select all condiments", "checkbox/examples/checkbox-mixed.html", []apgStep{
			{do: "click", role: "checkbox", name: "All condiments"},
		}, "[...document.querySelectorAll('input[type=checkbox]')].map(e => e.checked).join()", "true,true,true,true", []seen{{"checkbox", "All condiments", "checked"}, {"checkbox", "Lettuce", "checked"}}},

		{"choose Banana as Favorite Fruit", "combobox/examples/combobox-select-only.html", []apgStep{
			{do: "click", role: "combobox", name: "Favorite Fruit", see: []seen{{"option", "Banana", ""}}},
			{do: "click", role: "option", name: "Banana"},
		}, "document.querySelector('[role=combobox]').textContent.trim()", "Banana", []seen{{"combobox", "Favorite Fruit", `value="Banana"`}}},

		{"choose Oregon as State (autocomplete list)", "combobox/examples/combobox-autocomplete-list.html", []apgStep{
			{do: "type", role: "combobox", name: "State", text: "Or", see: []seen{{"option", "Oregon", ""}}},
			{do: "click", role: "option", name: "Oregon"},
		}, "document.querySelector('input[role=combobox]').value", "Oregon", []seen{{"combobox", "State", `value="Oregon"`}}},

		{"choose New York as State (autocomplete both)", "combobox/examples/combobox-autocomplete-both.html", []apgStep{
			{do: "type", role: "combobox", name: "State", text: "New", see: []seen{{"option", "New York", ""}}},
			{do: "click", role: "option", name: "New York"},
		}, "document.querySelector('input[role=combobox]').value", "New York", []seen{{"combobox", "State", `value="New York"`}}},

		{"pick a date 2 weeks from today (combobox date picker)", "combobox/examples/combobox-datepicker.html", comboDate,
			"document.querySelector('input[role=combobox]').value", date14, []seen{{"combobox", "Date", fmt.Sprintf("value=%q", date14)}}},

		{"choose Cabbage from Fruits and Vegetables (grid combobox)", "combobox/examples/grid-combo.html", []apgStep{
			{do: "type", role: "combobox", name: "Fruits and Vegetables", text: "cab", see: []seen{{"gridcell", "Cabbage", ""}}},
			{do: "click", role: "gridcell", name: "Cabbage"},
		}, "document.querySelector('input[role=combobox]').value", "Cabbage", []seen{{"combobox", "Fruits and Vegetables", `value="Cabbage"`}}},

		{"add a delivery address on Main St in Springfield", "dialog-modal/examples/dialog.html", []apgStep{
			{do: "click", role: "button", name: "Add Delivery Address", see: []seen{{"textbox", "Street:", ""}, {"button", "Add", ""}}},
			{do: "type", role: "textbox", name: "Street:", text: "1 Main St"},
			{do: "type", role: "textbox", name: "City:", text: "Springfield"},
			{do: "click", role: "button", name: "Add"},
		}, "document.getElementById('dialog3').classList.contains('hidden') ? 'closed' : 'Address Added'", "Address Added", []seen{{"text", "has been added to your list of delivery addresses", ""}, {"button", "OK", ""}}},

		{"pick a date 2 weeks from today (date picker dialog)", "dialog-modal/examples/datepicker-dialog.html", dialogDate,
			"document.querySelector('input[type=text]').value", date14, []seen{{"textbox", "Date", fmt.Sprintf("value=%q", date14)}}},

		{"read the answer about free parking on holidays", "disclosure/examples/disclosure-faq.html", []apgStep{
			{do: "click", role: "button", name: "Is there free parking on holidays?"},
		}, "[...document.querySelectorAll('button[aria-expanded]')].find(b => b.textContent.includes('holidays')).getAttribute('aria-expanded')", "true",
			[]seen{{"button", "Is there free parking on holidays?", "expanded"}, {"text", "free", ""}}},

		{"go to the Apply page under Admissions (disclosure navigation)", "disclosure/examples/disclosure-navigation.html", []apgStep{
			{do: "click", role: "button", name: "Admissions", see: []seen{{"link", "Apply", ""}}},
			{do: "click", role: "link", name: "Apply"},
		}, "document.querySelector('[aria-current=page]').textContent.trim()", "Apply", []seen{{"text", `heading "Apply"`, ""}}},

		// The feed (feed/examples/feed.html) has no task here: its Bookmark
		// buttons do nothing on this page, and loading more by scrolling the
		// feed's frame passed in some runs and failed in others (the page
		// loads on a throttled scroll handler; not yet understood). It is an
		// open gap, noted on issue 10.

		{"sort the transactions by Amount, largest first", "grid/examples/data-grids.html", []apgStep{
			{do: "click", role: "button", name: "Amount", see: []seen{{"columnheader", "Amount", "sort=\"ascending\""}}},
			{do: "click", role: "button", name: "Amount"},
		}, "[...document.querySelectorAll('#ex2 [aria-sort=ascending], #ex2 [aria-sort=descending]')].map(e => e.textContent.replace(/[^A-Za-z ]/g, '').trim() + ' ' + e.getAttribute('aria-sort')).join()", "Amount descending",
			[]seen{{"columnheader", "Amount", `sort="descending"`}}},

		{"change the category of the Cash Deposit transaction to Groceries", "grid/examples/data-grids.html", []apgStep{
			{do: "click", role: "button", name: "Income", see: []seen{{"menuitem", "Groceries", ""}}},
			{do: "click", role: "menuitem", name: "Groceries"},
		}, "[...document.querySelectorAll('#ex2 tr')].find(r => r.textContent.includes('Cash Deposit')).textContent.includes('Groceries') ? 'Groceries' : 'unchanged'", "Groceries",
			[]seen{{"button", "Groceries", ""}}},

		{"remove Recipient Name 1 from the message", "grid/examples/layout-grids.html", []apgStep{
			{do: "click", role: "button", name: "Remove Recipient Name 1"},
		}, "String(document.querySelector('#ex2-grid').textContent.includes('Recipient Name 1'))", "false", []seen{{"text", "- btn-remove-recipient-name-1", ""}}},

		{"show the next page of search results", "grid/examples/layout-grids.html", []apgStep{
			{do: "click", role: "button", name: "Next"},
		}, "String(!!document.querySelector('#ex3').innerText.match(/WAI-ARIA Authoring Practices 1.1|Page 2/))", "true", []seen{{"button", "Previous", ""}}},

		{"choose Curium among the transuranium elements", "listbox/examples/listbox-scrollable.html", []apgStep{
			{do: "click", role: "option", name: "Curium"},
		}, "document.querySelector('[role=option][aria-selected=true]').textContent.trim()", "Curium", []seen{{"option", "Curium", "selected"}}},

		{"delete Climb Everest from the bucket list (listbox with actions)", "listbox/examples/listbox-actions.html", []apgStep{
			// the option's move and delete buttons show when it has focus
			{do: "click", role: "option", name: "Climb Everest", see: []seen{{"button", "delete", ""}}},
			{do: "click", role: "button", name: "delete"},
		}, "[...document.querySelectorAll('[role=option]')].some(o => o.textContent.includes('Climb Everest')) ? 'still listed' : 'deleted'", "deleted",
			[]seen{{"text", "- opt-climb-everest", ""}}},

		{"choose Curium as your favorite element (collapsible listbox)", "listbox/examples/listbox-collapsible.html", []apgStep{
			{do: "click", role: "button", name: "Choose an element: Neptunium", see: []seen{{"option", "Curium", ""}}},
			{do: "click", role: "option", name: "Curium"},
		}, "document.getElementById('exp_button').textContent.trim()", "Curium", []seen{{"option", "Curium", "selected"}}},

		{"choose Dolphin as your animal sidekick", "listbox/examples/listbox-grouped.html", []apgStep{
			{do: "click", role: "option", name: "Dolphin"},
		}, "document.querySelector('[role=option][aria-selected=true]').textContent.trim()", "Dolphin", []seen{{"option", "Dolphin", "selected"}}},

		{"move Proximity of fast food to the unimportant features", "listbox/examples/listbox-rearrangeable.html", []apgStep{
			{do: "click", role: "option", name: "Proximity of fast food"},
			{do: "click", role: "button", name: "Not Important"},
		}, "String(document.getElementById('ss_unimp_list').textContent.includes('fast food'))", "true", []seen{{"text", "Moved Proximity of fast food to unimportant features", ""}}},

		{"choose Action 3 from the Actions menu", "menu-button/examples/menu-button-actions.html", []apgStep{
			{do: "click", role: "button", name: "Actions", see: []seen{{"menuitem", "Action 3", ""}}},
			{do: "click", role: "menuitem", name: "Action 3"},
		}, "document.getElementById('action_output').value", "Action 3", []seen{{"textbox", "Last Action", `value="Action 3"`}}},

		{"choose Action 2 from the Actions menu (activedescendant)", "menu-button/examples/menu-button-actions-active-descendant.html", []apgStep{
			{do: "click", role: "button", name: "Actions", see: []seen{{"menuitem", "Action 2", ""}}},
			{do: "click", role: "menuitem", name: "Action 2"},
		}, "document.getElementById('action_output').value", "Action 2", []seen{{"textbox", "Last Action", `value="Action 2"`}}},

		{"go to Apply under Admissions (menubar)", "menubar/examples/menubar-navigation.html", []apgStep{
			{do: "click", role: "menuitem", name: "Admissions", see: []seen{{"menuitem", "Apply", ""}}},
			{do: "click", role: "menuitem", name: "Apply"},
		}, "document.querySelector('[role=menuitem][aria-current=page]').textContent.trim()", "Apply", []seen{{"text", `region "Apply"`, ""}}},

		{"make the text bold (editor menubar)", "menubar/examples/menubar-editor.html", []apgStep{
			{do: "click", role: "menuitem", name: "Style/Color", see: []seen{{"menuitemcheckbox", "Bold", "unchecked"}}},
			{do: "click", role: "menuitemcheckbox", name: "Bold"},
			// the menu closes: the agent looks again to see the state
			{do: "click", role: "menuitem", name: "Style/Color"},
		}, "[...document.querySelectorAll('[role=menuitemcheckbox]')].find(e => e.textContent.trim() == 'Bold').getAttribute('aria-checked') + ' ' + getComputedStyle(document.querySelector('textarea')).fontWeight", "true 700", []seen{{"menuitemcheckbox", "Bold", "checked"}}},

		{"set the font to Monospace (editor menubar)", "menubar/examples/menubar-editor.html", []apgStep{
			{do: "click", role: "menuitem", name: "Font", see: []seen{{"menuitemradio", "Monospace", "unchecked"}}},
			{do: "click", role: "menuitemradio", name: "Monospace"},
			{do: "click", role: "menuitem", name: "Font"},
		}, "getComputedStyle(document.querySelector('textarea')).fontFamily", "monospace", []seen{{"menuitemradio", "Monospace", "checked"}}},

		{"pause the CPU meter and read its value", "meter/examples/meter.html", []apgStep{
			{do: "click", role: "button", name: "Pause Updates"},
		}, "Math.round(document.querySelector('[role=meter]').getAttribute('aria-valuenow') * 100) / 100 + '%'", "", []seen{{"button", "Start Updates", ""}}},

		{"choose Thin crust", "radio/examples/radio.html", []apgStep{
			{do: "click", role: "radio", name: "Thin crust"},
		}, "document.querySelector('[role=radio][aria-checked=true]').textContent.trim()", "Thin crust", []seen{{"radio", "Thin crust", "checked"}}},

		{"choose Home Delivery (activedescendant radio group)", "radio/examples/radio-activedescendant.html", []apgStep{
			{do: "click", role: "radio", name: "Home Delivery"},
		}, "[...document.querySelectorAll('[role=radio][aria-checked=true]')].map(e => e.textContent.trim()).join()", "Home Delivery", []seen{{"radio", "Home Delivery", "checked"}}},

		{"rate the service four stars", "radio/examples/radio-rating.html", []apgStep{
			{do: "click", role: "radio", name: "Four Stars"},
		}, "document.querySelector('[role=radio][aria-checked=true]').getAttribute('aria-label')", "four stars", []seen{{"radio", "Four Stars", "checked"}}},

		{"set Green to 0 in the color viewer", "slider/examples/slider-color-viewer.html", []apgStep{
			{do: "focus", role: "slider", name: "Green"},
			{do: "press", text: "Home"},
		}, "document.querySelectorAll('[role=slider]')[1].getAttribute('aria-valuenow')", "0", []seen{{"slider", "Green", `value="0"`}}},

		{"seek the media to 2 minutes", "slider/examples/slider-seek.html", []apgStep{
			{do: "focus", role: "slider", name: "Seek"},
			{do: "press", text: "PageUp", times: 2},
		}, "document.querySelector('[role=slider]').getAttribute('aria-valuetext')", "2 Minutes", []seen{{"slider", "Seek", `value="2 Minutes"`}}},

		{"set the hotel minimum price to $150", "slider-multithumb/examples/slider-multithumb.html", []apgStep{
			{do: "focus", role: "slider", name: "Hotel Minimum Price in US dollars"},
			{do: "press", text: "PageUp", times: 5},
		}, "document.querySelector('[role=slider]').getAttribute('aria-valuenow')", "150", []seen{{"slider", "Hotel Minimum Price in US dollars", `value="150"`}}},

		{"rate the service 10 of 10", "slider/examples/slider-rating.html", []apgStep{
			{do: "focus", role: "slider", name: "Rate your satisfaction with the service you received"},
			{do: "press", text: "End"},
		}, "document.querySelector('[role=slider]').getAttribute('aria-valuenow')", "10", []seen{{"slider", "Rate your satisfaction with the service you received", `value="ten, extremely satisfied"`}}},

		{"set the day to the 15th (date spin buttons)", "spinbutton/examples/datepicker-spinbuttons.html", []apgStep{
			{do: "focus", role: "spinbutton", name: "Day"},
			{do: "press", text: "Home"},
			{do: "press", text: "ArrowUp", times: 14},
		}, "document.querySelector('[role=spinbutton]').getAttribute('aria-valuenow')", "15", []seen{{"spinbutton", "Day", `value="fifteenth"`}}},

		{"book for 3 adults", "spinbutton/examples/quantity-spinbutton.html", []apgStep{
			{do: "click", role: "button", name: "Add adult"},
			{do: "click", role: "button", name: "Add adult"},
		}, "document.querySelector('[role=spinbutton]').value", "3", []seen{{"spinbutton", "Adults", `value="3"`}}},

		{"turn notifications on", "switch/examples/switch.html", []apgStep{
			{do: "click", role: "switch", name: "Notifications"},
		}, "document.querySelector('[role=switch]').getAttribute('aria-checked')", "true", []seen{{"switch", "Notifications", "checked"}}},

		{"turn the outdoor lights on", "switch/examples/switch-button.html", []apgStep{
			{do: "click", role: "switch", name: "Outdoor Lights"},
		}, "document.querySelectorAll('[role=switch]')[1].getAttribute('aria-checked')", "true", []seen{{"switch", "Outdoor Lights", "checked"}}},

		{"turn on captions", "switch/examples/switch-checkbox.html", []apgStep{
			{do: "click", role: "switch", name: "Show captions"},
		}, "String(document.querySelectorAll('input[role=switch]')[1].checked)", "true", []seen{{"switch", "Show captions", "checked"}}},

		{"sort the table by Last Name descending", "table/examples/sortable-table.html", []apgStep{
			{do: "click", role: "button", name: "Last Name"},
		}, "[...document.querySelectorAll('th[aria-sort=ascending], th[aria-sort=descending]')].map(e => e.textContent.replace(/[^A-Za-z ]/g, '').trim() + ' ' + e.getAttribute('aria-sort')).join()", "Last Name descending",
			[]seen{{"columnheader", "Last Name", `sort="descending"`}}},

		{"show Carl Andersen (automatic tabs)", "tabs/examples/tabs-automatic.html", []apgStep{
			{do: "click", role: "tab", name: "Carl Andersen"},
		}, "document.querySelector('[role=tab][aria-selected=true]').textContent.trim()", "Carl Andersen", []seen{{"tab", "Carl Andersen", "selected"}, {"text", "Carl Joachim Andersen", ""}}},

		{"show Ida da Fonseca (manual tabs)", "tabs/examples/tabs-manual.html", []apgStep{
			{do: "click", role: "tab", name: "Ida da Fonseca"},
		}, "document.querySelector('[role=tab][aria-selected=true]').textContent.trim()", "Ida da Fonseca", []seen{{"tab", "Ida da Fonseca", "selected"}}},

		{"close the Whale shark tab (tabs with action menus)", "tabs/examples/tabs-actions.html", []apgStep{
			{do: "click", role: "button", name: "Actions for Whale shark tab", see: []seen{{"menuitem", "Close tab", ""}}},
			{do: "click", role: "menuitem", name: "Close tab"},
		}, "[...document.querySelectorAll('[role=tab]')].map(t => t.textContent.trim()).join(', ')", "Nurse shark, Basking shark, Goblin shark",
			[]seen{{"text", `"Closed Whale shark."`, ""}}},

		{"make the text bold (toolbar)", "toolbar/examples/toolbar.html", []apgStep{
			{do: "click", role: "button", name: "Bold"},
		}, "getComputedStyle(document.querySelector('textarea')).fontWeight", "700", []seen{{"button", "Bold", "pressed"}}},

		{"set the font family to Monospace (toolbar)", "toolbar/examples/toolbar.html", []apgStep{
			{do: "click", role: "button", name: "Font: Sans-serif", see: []seen{{"menuitemradio", "Monospace", ""}}},
			{do: "click", role: "menuitemradio", name: "Monospace"},
		}, "getComputedStyle(document.querySelector('textarea')).fontFamily", "monospace", nil},

		{"set the font size to 16 points (toolbar)", "toolbar/examples/toolbar.html", []apgStep{
			{do: "focus", role: "spinbutton", name: "Font size in points"},
			{do: "press", text: "ArrowUp", times: 2},
		}, "document.querySelector('[role=spinbutton]').getAttribute('aria-valuenow')", "16", []seen{{"spinbutton", "Font size in points", `value="16 Point"`}}},

		{"open Projects and select project-1.docx", "treeview/examples/treeview-1a.html", []apgStep{
			{do: "click", role: "treeitem", name: "Projects", see: []seen{{"treeitem", "project-1.docx", ""}}},
			{do: "click", role: "treeitem", name: "project-1.docx"},
		}, "document.getElementById('last_action').value", "project-1.docx", []seen{{"textbox", "File or Folder Selected", `value="project-1.docx"`}}},

		{"go to the Overview page under About (navigation tree)", "treeview/examples/treeview-navigation.html", []apgStep{
			// the item is a link that shows its page; the keyboard opens it
			{do: "focus", role: "treeitem", name: "About"},
			{do: "press", text: "ArrowRight", see: []seen{{"treeitem", "About", "expanded"}, {"treeitem", "Overview", ""}}},
			{do: "click", role: "treeitem", name: "Overview"},
		}, "document.querySelector('[role=treeitem][aria-current=page]').textContent.trim()", "Overview", []seen{{"treeitem", "Overview", `current="page"`}}},

		{"expand the second reply in the email thread", "treegrid/examples/treegrid-1.html", []apgStep{
			// a double click on a row opens it, as the page's own help says
			{do: "dblclick", role: "row", name: "re: Treegrids are awesome They are great"},
		}, "document.querySelectorAll('[role=row][aria-level=\"2\"]')[1].getAttribute('aria-expanded')", "true", []seen{{"row", "re: Treegrids are awesome They are great", "expanded"}}},

		// Type on a slider drawn with ARIA: the keys a person would press,
		// learnt from what one press does (0.1 a step, 2 a page here).
		{"set the thermostat to 30 degrees", "slider/examples/slider-temperature.html", []apgStep{
			{do: "type", role: "slider", name: "Temperature", text: "30"},
		}, "document.querySelector('[role=slider]').getAttribute('aria-valuenow')", "30.0", []seen{{"slider", "Temperature", `value="30.0 degrees Celsius"`}}},

		{"choose report-2B.docx in My Documents", "treeview/examples/treeview-1b.html", []apgStep{
			{do: "click", role: "treeitem", name: "Reports", see: []seen{{"treeitem", "Reports", "expanded"}, {"treeitem", "report-2", ""}}},
			{do: "click", role: "treeitem", name: "report-2", see: []seen{{"treeitem", "report-2", "expanded"}, {"treeitem", "report-2B.docx", ""}}},
			{do: "click", role: "treeitem", name: "report-2B.docx"},
		}, "document.getElementById('last_action').value", "report-2B.docx", []seen{{"textbox", "File or Folder Selected", `value="report-2B.docx"`}}},

		{"mute the sound", "button/examples/button_idl.html", []apgStep{
			{do: "click", role: "button", name: "Mute"},
		}, "document.querySelector('[aria-pressed]').getAttribute('aria-pressed')", "true", []seen{{"button", "Mute", "pressed"}}},

		{"show the details of the Folk Futures talk", "disclosure/examples/disclosure-card.html", []apgStep{
			{do: "click", role: "button", name: "Folk Futures: Tradition in the Classroom Details",
				see: []seen{{"text", "Dvořák explores the power of cultural roots", ""}}},
		}, "document.getElementById('toggle-folk-futures').getAttribute('aria-expanded')", "true", []seen{{"button", "Folk Futures: Tradition in the Classroom Details", "expanded"}}},

		{"show the data table for Minard's chart", "disclosure/examples/disclosure-image-description.html", []apgStep{
			{do: "click", role: "button", name: "Data Table for Minard's Chart", see: []seen{{"button", "Data Table for Minard's Chart", "expanded"}}},
		}, "document.querySelector('button[aria-expanded]').getAttribute('aria-expanded')", "true", []seen{{"text", `row "Location | Approximate Date | Size of Army`, ""}}},

		{"go to the Apply page under Admissions (hybrid navigation)", "disclosure/examples/disclosure-navigation-hybrid.html", []apgStep{
			{do: "click", role: "button", name: "More Admissions pages", see: []seen{{"link", "Apply", ""}}},
			{do: "click", role: "link", name: "Apply"},
		}, "document.getElementById('mythical-page-heading').textContent.trim()", "Apply", []seen{{"text", `heading "Apply"`, ""}}},

		{"search again for cheap flights to NY from the previous searches", "combobox/examples/combobox-autocomplete-none.html", []apgStep{
			{do: "click", role: "button", name: "Previous Searches", see: []seen{{"option", "cheap flights to NY", ""}}},
			{do: "click", role: "option", name: "cheap flights to NY"},
		}, "document.querySelector('[role=combobox]').value", "cheap flights to NY", []seen{{"combobox", "Search", `value="cheap flights to NY"`}}},

		{"open the WAI-ARIA quick links", "menu-button/examples/menu-button-links.html", []apgStep{
			{do: "click", role: "button", name: "WAI-ARIA Quick Links", see: []seen{{"menuitem", "W3C Home Page", ""}}},
		}, "document.querySelector('[aria-haspopup]').getAttribute('aria-expanded')", "true", []seen{{"menuitem", "W3C Home Page", ""}}},
	}
}

// TestAPGAgentTasks runs a spread of the tasks on the fast read path
// (eight) and on the AX-tree path (two); -sweep (what .ci/run passes)
// runs every task on both: each task is a page of its own, and the whole set
// on both paths takes minutes on 2 cores, which would take the package past
// go test's default 10-minute timeout.
func TestAPGAgentTasks(t *testing.T) {
	t.Parallel()
	tasks := apgTasks()
	goals := make([]string, len(tasks))
	for i, tc := range tasks {
		goals[i] = tc.goal
	}
	on := map[string]map[string]bool{"fast": {}, "axtree": {}}
	for _, g := range sweepPages(goals, 8) {
		on["fast"][g] = true
	}
	for _, g := range sweepPages(goals, 2) {
		on["axtree"][g] = true
	}
	for _, tc := range tasks {
		for _, rp := range readPaths {
			if !on[rp.name][tc.goal] {
				continue
			}
			t.Run(rp.name+"/"+tc.goal, func(t *testing.T) {
				t.Parallel()
				runAPGTask(t, tc, rp.set)
			})
		}
	}
}

func runAPGTask(t *testing.T, tc apgTask, readPath func(*rodagent.Page)) {
	ctx := testCtx(t, 90*time.Second)
	p := open(t, "apg/content/patterns/"+tc.page)
	// The APG examples build their widgets in load handlers (the disclosure
	// navigation collapses its menus there). Open may return on
	// DOMContentLoaded and a network quiet before load, and with two whole
	// suites on two cores (.ci/concurrent) it did: the first look showed the
	// menus open. The agent waits for load as a script would (Wait, Load).
	if err := p.Wait(ctx, rodagent.Load()); err != nil {
		t.Fatalf("%s: wait for load: %v", tc.goal, err)
	}
	readPath(p)
	s := snapshot(t, p)
	read := []string{s.String()}
	for i, st := range tc.steps {
		var (
			status rodagent.ActionStatus
			err    error
			ref    string
		)
		what := fmt.Sprintf("%s: step %d: %s %s %q", tc.goal, i+1, st.do, st.role, st.name)
		if st.record != "" {
			eval(t, p, "window.__apgBefore = "+st.record, nil)
		}
		if st.role != "" {
			ref = apgPick(t, p, &read, st.role, st.name, st.after)
		}
		to := ""
		if st.do == "drag" {
			to = apgPick(t, p, &read, st.to.role, st.to.name, "")
		}
		status, err = agentAct(ctx, t, p, st.do, ref, st.text, st.times, to)
		if err != nil || !status.OK() {
			t.Fatalf("%s (%s): %s, %v\nlast read:\n%s", what, ref, status, err, read[0])
		}
		// what the agent reads after the step: the look, and the ones it
		// asks for while the page is still moving
		delta := strings.Join(agentLook(t, p), "\n")
		for _, w := range st.see {
			if !apgSees(delta, w, read) {
				t.Errorf("%s: the delta should show %s %q %s:\n%s", what, w.role, w.name, w.state, delta)
			}
		}
		read = append([]string{delta}, read...)
	}
	var got string
	eval(t, p, "(async () => { await new Promise(r => setTimeout(r, 0)); return String("+tc.truth+"); })()", &got)
	want := tc.want
	if want == "" && got != "" && !strings.HasPrefix(got, "wrong") {
		want = got
	}
	if got != want {
		t.Errorf("%s: the page's state is %q, want %q (the agent's actions did not do the task)", tc.goal, got, want)
	}
	last := read[0]
	show := tc.show
	if tc.want == "" {
		show = append(show, seen{"text", got, ""})
	}
	for i, w := range show {
		if !apgSees(last, w, read[1:]) && !(tc.want == "" && i == len(show)-1 && strings.Contains(strings.Join(read, "\n"), w.name)) {
			t.Errorf("%s: the outcome %s %q %s should be in the text read after the last step:\n%s", tc.goal, w.role, w.name, w.state, last)
		}
	}
}

// apgPick is agentPick with two moves a reading agent makes: when several
// lines match, it takes the first after a line holding after ("the Bookmark
// button of Sakura Sushi"); and when nothing printed so far names the target
// but the latest text says what it left out ("continue from X"), it reads on
// from there once before giving up.
func apgPick(t *testing.T, p *rodagent.Page, read *[]string, role, name, after string) string {
	t.Helper()
	for try := 0; try < 2; try++ {
		for _, text := range *read {
			seenAfter := after == ""
			for _, line := range strings.Split(text, "\n") {
				if !seenAfter {
					seenAfter = strings.Contains(line, after)
					if !seenAfter {
						continue
					}
				}
				for _, ref := range apgLineRefs(line) {
					if ref.role == role && apgNames(ref.handle, ref.rest, name) {
						return ref.handle
					}
				}
			}
		}
		_, from, ok := strings.Cut((*read)[0], "continue from ")
		if !ok || try == 1 {
			break
		}
		from, _, _ = strings.Cut(from, ",")
		more := snapshot(t, p, rodagent.WithFull(), rodagent.WithFrom(strings.TrimSpace(from))).String()
		*read = append([]string{more}, *read...)
	}
	t.Fatalf("no printed line shows %s %q; the agent read:\n%s", role, name, strings.Join(*read, "\n----\n"))
	return ""
}

// apgNames is agentNames, plus the way an agent reads a long name the text
// folded ("re: Treegrids are awesome They are great…"): a name it knows the
// start of.
func apgNames(handle, rest, name string) bool {
	if agentNames(handle, rest, name) {
		return true
	}
	rest = strings.TrimPrefix(rest, "name=") // a changed name ("~ btn-x name=\"Start Updates\"")
	if !strings.HasPrefix(rest, `"`) {
		return false
	}
	printed, err := strconv.QuotedPrefix(rest)
	if err != nil {
		return false
	}
	printed, _ = strconv.Unquote(printed)
	return strings.HasPrefix(printed, name)
}

// apgSees is agentSees for states that hold spaces (value="Action 3") and
// names the text folded.
func apgSees(text string, w seen, before []string) bool {
	if w.role == "text" {
		return strings.Contains(text, w.name)
	}
	known := map[string]bool{}
	for _, b := range before {
		for _, line := range strings.Split(b, "\n") {
			for _, ref := range apgLineRefs(line) {
				if ref.role == w.role && apgNames(ref.handle, ref.rest, w.name) {
					known[ref.handle] = true
				}
			}
		}
	}
	for _, line := range strings.Split(text, "\n") {
		for _, ref := range apgLineRefs(line) {
			if !known[ref.handle] && (ref.role != w.role || !apgNames(ref.handle, ref.rest, w.name)) {
				continue
			}
			if w.state == "" || containsWord(ref.rest, w.state) || strings.Contains(w.state, " ") && strings.Contains(" "+ref.rest+" ", " "+w.state+" ") {
				return true
			}
		}
	}
	return false
}

type apgRef struct{ handle, role, rest string }

var handleLike = regexp.MustCompile(`^([a-z0-9]+/)?[a-z]+-[\p{Ll}\p{N}-]+$`)

// apgLineRefs reads the refs on one printed line as an agent does: a ref
// line, or a table row's line that carries its cells' text and then the
// refs in the row (row "Address" btn-first-name col-last-name (columnheader)
// sort="ascending" btn-last-name …). Each ref's rest runs to the next ref.
func apgLineRefs(line string) []apgRef {
	trimmed := strings.TrimLeft(line, " ")
	for _, op := range []string{"+ ", "~ ", "* "} {
		trimmed = strings.TrimPrefix(trimmed, op)
	}
	// tokens, a quoted string being one token
	var toks []string
	for rest := trimmed; rest != ""; {
		rest = strings.TrimLeft(rest, " ")
		if rest == "" {
			break
		}
		if rest[0] == '"' {
			q, err := strconv.QuotedPrefix(rest)
			if err == nil {
				toks = append(toks, q)
				rest = rest[len(q):]
				continue
			}
		}
		tok, after, _ := strings.Cut(rest, " ")
		// a state word with a quoted value (value="1 Main St") is one token
		if i := strings.Index(tok, `="`); i > 0 {
			if q, err := strconv.QuotedPrefix(rest[i+1:]); err == nil {
				tok, after = rest[:i+1+len(q)], rest[i+1+len(q):]
			}
		}
		toks = append(toks, tok)
		rest = after
	}
	var refs []apgRef
	start := -1
	flush := func(end int) {
		if start < 0 {
			return
		}
		line := strings.Join(toks[start:end], " ")
		if h, r, rest, ok := agentRefLine(line); ok {
			refs = append(refs, apgRef{h, r, rest})
		} else if start == 0 && handleLike.MatchString(toks[0]) {
			// a changed ref ("~ col-amount-1 sort=…") whose handle does not
			// spell its role: the agent knows it from an earlier line
			refs = append(refs, apgRef{toks[0], "", strings.Join(toks[1:end], " ")})
		}
	}
	for i, tok := range toks {
		isRef := false
		if !strings.HasPrefix(tok, `"`) && !strings.Contains(tok, "=") && !strings.HasPrefix(tok, "(") {
			base := tok[strings.LastIndexByte(tok, '/')+1:]
			_, _, _, ok := agentRefLine(tok + " " + strings.Join(toks[i+1:min(i+2, len(toks))], " "))
			isRef = ok && strings.Contains(base, "-")
		}
		if i == 0 || isRef {
			flush(i)
			start = i
		}
	}
	flush(len(toks))
	return refs
}
