package rodagent

import "strings"

// roleAliases maps Chromium's internal role names (what the AX tree and, in
// some versions, computedRole report) to the ARIA role a person writes. Keys
// are lower case.
var roleAliases = map[string]string{
	"image":                 "img",
	"graphics-symbol":       "img",
	"genericcontainer":      "generic",
	"presentation":          "none",
	"textfield":             "textbox",
	"textfieldwithcombobox": "combobox",
	"comboboxgrouping":      "combobox",
	"comboboxmenubutton":    "combobox",
	"comboboxselect":        "combobox",
	"popupbutton":           "combobox",
	"menulistpopup":         "listbox",
	"menulistoption":        "option",
	"listboxoption":         "option",
	"progressindicator":     "progressbar",
	"splitter":              "separator",
	"togglebutton":          "button",
	"disclosuretriangle":    "button",
	"headerasnonlandmark":   "generic",
	"footerasnonlandmark":   "generic",
	"sectionwithoutname":    "generic",
	"descriptionlistterm":   "term",
	"descriptionlistdetail": "definition",
	"layouttable":           "table",
	"layouttablerow":        "row",
	"layouttablecell":       "cell",
	// Chromium names a month or week input Date in one read and DateTime in
	// another: one family of date fields (ARIA has no role for them).
	"datetime": "date",
}

// canonicalRole maps a role as a user, ARIA or Chromium spells it to one
// form, the ARIA name in lower case ("image" and "img" are both "img",
// "menuItem" is "menuitem"), so two spellings of one role compare equal.
func canonicalRole(role string) string {
	r := strings.ToLower(strings.TrimSpace(role))
	if a, ok := roleAliases[r]; ok {
		return a
	}
	return r
}
