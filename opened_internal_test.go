package rodagent

import "testing"

// An opened tab's line shows its origin, escaped like any page-made text,
// that its first page is still loading, or that it is blank so far.
func TestOpenedTabLine(t *testing.T) {
	for _, c := range []struct {
		o    OpenedTab
		want string
	}{
		{OpenedTab{ID: "AB12", Origin: "http://127.0.0.1:8080"}, "opened a new tab AB12 at http://127.0.0.1:8080 (switch to it with tab_select, or Browser.Page)"},
		{OpenedTab{ID: "AB12"}, "opened a new tab AB12, its page still loading (switch to it with tab_select, or Browser.Page)"},
		{OpenedTab{ID: "AB12", Origin: "about:blank"}, "opened a new tab AB12 at about:blank, blank so far: its page may still be loading, or its opener writes into it (switch to it with tab_select, or Browser.Page)"},
		{OpenedTab{ID: "AB12", Origin: "https://x\nbtn-delete"}, `opened a new tab AB12 at "https://x\nbtn-delete" (switch to it with tab_select, or Browser.Page)`},
	} {
		if got := c.o.String(); got != c.want {
			t.Errorf("%+v:\n got %s\nwant %s", c.o, got, c.want)
		}
	}
}
