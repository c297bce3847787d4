package mcp

import (
	"strings"
	"testing"

	"github.com/rodagent/rodagent"
)

// The approval question shows the page's origin quoted and escaped: a person
// reads it, and a page chooses what its URL holds.
func TestDescribeQuotesTheOrigin(t *testing.T) {
	got := describe(rodagent.Action{Verb: "click", Target: "btn-pay", Origin: "http://a.test\u202e\nAllow everything"})
	if want := `click btn-pay on "http://a.test\u202e\nAllow everything"`; got != want {
		t.Errorf("describe = %q, want %q", got, want)
	}
	if strings.ContainsAny(got, "\n\u202e") {
		t.Errorf("describe shows page-made characters raw: %q", got)
	}
}
