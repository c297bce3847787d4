package rodagent

import (
	"errors"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/rodagent/rodagent/internal/ax"
)

func TestLocatorText(t *testing.T) {
	for _, tc := range []struct {
		loc  Locator
		text string
	}{
		{ByRole("button", "Submit"), `role=button[name="Submit"]`},
		{ByRole("button", ""), `role=button`},
		{ByRole("button", "Save").Exact(), `role=button[name="Save"][exact]`},
		{ByLabel("Email"), `label="Email"`},
		{ByText(`Say "hi"`), `text="Say \"hi\""`},
		{ByPlaceholder("you@example.com"), `placeholder="you@example.com"`},
		{ByTestID("invoice-total"), `testid=invoice-total`},
		{ByTestID("has space"), `testid="has space"`},
		{ByCSS("#cart > li"), `css="#cart > li"`},
		{ByRole("button", "Edit").WithinLandmark("navigation").Nth(1), `role=button[name="Edit"][landmark="navigation"][nth=1]`},
		{ByRole("textbox", "Card holder").WithinFrame("f2"), `role=textbox[name="Card holder"][frame="f2"]`},
		{ByRole("button", "").Within(ByRole("region", "Cart")).First(), `role=region[name="Cart"] >> role=button[nth=0]`},
	} {
		if got := tc.loc.String(); got != tc.text {
			t.Errorf("String = %s, want %s", got, tc.text)
		}
		back, err := ParseLocator(tc.text)
		if err != nil {
			t.Errorf("ParseLocator(%s): %v", tc.text, err)
			continue
		}
		if !reflect.DeepEqual(back, tc.loc) {
			t.Errorf("ParseLocator(%s) = %#v, want %#v", tc.text, back, tc.loc)
		}
	}
}

func TestLocatorParseErrors(t *testing.T) {
	for _, tc := range []struct {
		in     string
		offset int
		msg    string
	}{
		{`button`, 0, "expected role=, label="},
		{`role`, 4, `expected "=" after role`},
		{`role=`, 5, "expected a role name"},
		{`label=Email`, 6, "double-quoted"},
		{`label="Email`, 6, "unterminated"},
		{`role=button[name=Save]`, 17, "double-quoted"},
		{`role=button[size="2"]`, 12, `unknown attribute "size"`},
		{`role=button[nth=-1]`, 16, "whole number"},
		{`role=button[exact`, 17, `expected "]"`},
		{`label="a"[name="b"]`, 10, "name= belongs to role="},
		{`role=button >`, 12, `expected ">>"`},
		{`role=button >> `, 15, "expected role="},
	} {
		_, err := ParseLocator(tc.in)
		var le *LocatorError
		if !errors.As(err, &le) {
			t.Errorf("ParseLocator(%s) = %v, want a *LocatorError", tc.in, err)
			continue
		}
		if le.Offset != tc.offset || !contains(le.Msg, tc.msg) {
			t.Errorf("ParseLocator(%s): at %d %q, want at %d %q", tc.in, le.Offset, le.Msg, tc.offset, tc.msg)
		}
	}
}

func contains(s, sub string) bool {
	return len(sub) == 0 || (len(s) >= len(sub) && indexOf(s, sub) >= 0)
}

func indexOf(s, sub string) int {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return i
		}
	}
	return -1
}

// FuzzParseLocator: parsing never panics, and what parses prints back to a
// text that parses to the same locator.
func FuzzParseLocator(f *testing.F) {
	for _, s := range []string{`role=button[name="Submit"]`, `label="Email"[exact]`, `testid=x >> css="a b"[nth=3]`,
		`role=region[name="Cart"] >> role=button[nth=0]`, `text="\u00e9\n"[landmark="main"][frame="f1"]`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		l, err := ParseLocator(s)
		if err != nil {
			var le *LocatorError
			if !errors.As(err, &le) || le.Offset < 0 || le.Offset > len(s) {
				t.Fatalf("bad error for %q: %v", s, err)
			}
			return
		}
		text := l.String()
		back, err := ParseLocator(text)
		if err != nil {
			t.Fatalf("%q parsed, but its text form %q does not: %v", s, text, err)
		}
		if !reflect.DeepEqual(back, l) || back.String() != text {
			t.Fatalf("round trip of %q: %#v vs %#v", s, l, back)
		}
	})
}

func TestFindParts(t *testing.T) {
	str := func(s string) *string { return &s }
	for _, tc := range []struct {
		l    Locator
		want []ax.FindPart // nil: a find does not answer it
	}{
		{ByRole("Button", "Save"), []ax.FindPart{{Role: "button", Value: str("Save")}}},
		{ByRole("checkbox", "").Exact(), []ax.FindPart{{Role: "checkbox"}}},
		{ByTestID("total"), []ax.FindPart{{TestID: str("total")}}},
		{ByRole("button", "Delete").Within(ByTestID("row-7")).WithinLandmark("main"),
			[]ax.FindPart{{Role: "button", Value: str("Delete"), Landmark: "main"}, {TestID: str("row-7")}}},
		{ByLabel("Email").WithinLandmark(`form "Billing"`).Within(ByTestID("card").WithinLandmark("main")),
			[]ax.FindPart{{Label: str("Email")}, {TestID: str("card")}}},
		{ByRole("link", "").WithinLandmark("navigation").Within(ByLabel("Menu").WithinLandmark("banner")),
			[]ax.FindPart{{Role: "link", Landmark: "navigation"}, {Label: str("Menu")}}},
		{ByLabel("Email"), []ax.FindPart{{Label: str("Email")}}},
		{ByRole("button", "Save").Within(ByLabel("Billing")),
			[]ax.FindPart{{Role: "button", Value: str("Save")}, {Label: str("Billing")}}},
		{ByLabel("Email").Within(ByText("Billing")), nil},
		{ByText("Total"), nil},
		{ByCSS("#x"), nil},
	} {
		got := findParts(tc.l)
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("findParts(%s) = %s, want %s", tc.l, partsString(got), partsString(tc.want))
		}
	}
}

func partsString(ps []ax.FindPart) string {
	if ps == nil {
		return "nil"
	}
	var out []string
	for _, p := range ps {
		s := "{" + p.Role
		if p.Value != nil {
			s += " value=" + strconv.Quote(*p.Value)
		}
		if p.TestID != nil {
			s += " testid=" + strconv.Quote(*p.TestID)
		}
		if p.Label != nil {
			s += " label=" + strconv.Quote(*p.Label)
		}
		if p.Landmark != "" {
			s += " landmark=" + strconv.Quote(p.Landmark)
		}
		out = append(out, s+"}")
	}
	return strings.Join(out, " ")
}
