package rodagent_test

import (
	"os"
	"testing"
)

func TestSeeDump(t *testing.T) {
	p := open(t, os.Getenv("SEE_PAGE"))
	s := snapshot(t, p)
	t.Logf("%d chars\n%s", len(s.String()), s)
}

func TestSeeDebugMUI(t *testing.T) {
	p := open(t, "components/mui-select.html")
	waitReady(t, p)
	chooseOption(t, p, "combobox", "Age", "Twenty")
	var st string
	eval(t, p, "[...document.body.children].map(e => e.tagName + '#' + e.id + ' ah=' + e.getAttribute('aria-hidden') + ' ' + e.className).join('; ')", &st)
	t.Log(st)
	s := snapshot(t, p)
	t.Logf("%s", s)
	eval(t, p, "[...document.body.children].map(e => e.tagName + '#' + e.id + ' ah=' + e.getAttribute('aria-hidden') + ' ' + e.className).join('; ')", &st)
	t.Log(st)
}
