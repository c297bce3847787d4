package ax

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"reflect"
	"strings"
	"testing"

	"github.com/go-rod/rod/lib/proto"
)

func TestField(t *testing.T) {
	for in, want := range map[string]string{
		`plain`:        "plain",
		`a\\b`:         `a\b`,
		`line\none`:    "line\none",
		`tab\there`:    "tab\there",
		`end\\`:        `end\`,
		`\\n literal`:  `\n literal`,
		``:             "",
		`trailing\`:    `trailing\`,
		`üñí\tcode`:    "üñí\tcode",
		`"quoted"\\\n`: "\"quoted\"\\\n",
	} {
		if got := field(in); got != want {
			t.Errorf("field(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestRowItems(t *testing.T) {
	strs := []string{"main", `table "Orders"`, "checkbox", `row "Ada"`, "textbox"}
	node := map[int]proto.DOMBackendNodeID{7: 42}
	text := "1\t0\tmain\t\t0\n" +
		"2\t1\t1\tOrders\n" +
		"0\t1\t7\t3\tSelect row 1\t1\t\t10\t20\t13\t13\t1\t#sel-1\t1\t4\t2\t2\t-1\n" +
		"0\t1\t8\t5\tNotes\t1024\tline\\none\t0\t0\t100\t20\t0\t\t1\t0\t0\t0\t7\n" +
		"3\t1\t9\tPayment\n" +
		"9\tbogus"
	var items []Item
	for _, r := range rowsOf(text) {
		if it, ok := rowItem(r, node, 1000, strs); ok {
			items = append(items, it)
		}
	}
	if len(items) != 5 {
		t.Fatalf("%d items: %+v", len(items), items)
	}
	if lm := items[0]; lm.Kind != KindLandmark || lm.Role != "main" {
		t.Errorf("landmark: %+v", lm)
	}
	if h := items[1]; h.Kind != KindHeading || h.Level != 1 || h.Name != "Orders" {
		t.Errorf("heading: %+v", h)
	}
	cb := items[2]
	if cb.Kind != KindRef || cb.Role != "checkbox" || cb.Name != "Select row 1" || cb.State.Checked != "true" ||
		cb.Node != 42 || cb.Local != 1008 || cb.Stable != "#sel-1" || cb.Landmark != "main" || cb.Context != `row "Ada"` ||
		cb.Group != `table "Orders"` || cb.Row != 2 || cb.Box != (Box{10, 20, 13, 13}) || cb.upLocal != 0 {
		t.Errorf("checkbox: %+v", cb)
	}
	tb := items[3]
	if tb.State.Value != "line\none" || !tb.State.Editable || tb.Node != 0 || tb.upLocal != 1008 {
		t.Errorf("textbox: %+v", tb)
	}
	if f := items[4]; f.Kind != KindFrame || f.Name != "Payment" || f.Local != 1010 {
		t.Errorf("frame: %+v", f)
	}
	w := &Walk{Items: items, base: 1000}
	w.index()
	if w.Items[3].Up != 3 { // 1 + index of the checkbox
		t.Errorf("Up of the textbox = %d, want 3", w.Items[3].Up)
	}
}

func TestStateBits(t *testing.T) {
	s := stateBits(1 | 4 | 8 | 32 | 512 | 2048)
	if s.Checked != "true" || !s.Disabled || s.Expanded != "true" || !s.Focused || !s.Required || s.Pressed != "true" {
		t.Errorf("%+v", s)
	}
	s = stateBits(64 | 128 | 4096 | 256 | 8192 | 16)
	if s.Checked != "false" || s.Expanded != "false" || s.Pressed != "false" || !s.Readonly || !s.Invalid || !s.Selected {
		t.Errorf("%+v", s)
	}
	if s := stateBits(2); s.Checked != "mixed" {
		t.Errorf("%+v", s)
	}
}

func TestUnpack(t *testing.T) {
	pack := func(s string) string {
		var b bytes.Buffer
		zw := gzip.NewWriter(&b)
		_, _ = zw.Write([]byte(s))
		_ = zw.Close()
		return base64.StdEncoding.EncodeToString(b.Bytes())
	}
	rows := strings.Repeat("0\t1\t27\t3\tDelete order 5 €\t0\t\t380\t285\t55\t21\t1\t#del-5\t2\t5\t3\t6\t-1\n", 3000)
	for _, tc := range []struct {
		name, in, want string
		bad            bool
	}{
		{name: "rows", in: pack(rows), want: rows},
		{name: "empty", in: pack(""), want: ""},
		{name: "not base64", in: "%%%", bad: true},
		{name: "not gzip", in: base64.StdEncoding.EncodeToString([]byte("plain text")), bad: true},
		{name: "truncated", in: pack(rows)[:200], bad: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := unpack(tc.in)
			if tc.bad {
				if err == nil {
					t.Fatalf("unpack accepted %q", tc.in)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("unpack: %v, %d bytes, want %d", err, len(got), len(tc.want))
			}
		})
	}
}

func TestRowsOfCutsLikeSplit(t *testing.T) {
	for _, text := range []string{"", "a", "a\tb", "a\tb\n", "\n\n", "0\t1\t\t2\n4\t\tx\n\t", "x\n\ty\tz"} {
		var want [][]string
		if text != "" {
			for _, l := range strings.Split(text, "\n") {
				want = append(want, strings.Split(l, "\t"))
			}
		}
		var got [][]string
		for i, r := range rowsOf(text) {
			if i != len(got) {
				t.Fatalf("%q: row %d numbered %d", text, len(got), i)
			}
			got = append(got, append([]string(nil), r...)) // rowsOf reuses r
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%q: rows %q, want %q", text, got, want)
		}
	}
	n := 0
	for range rowsOf("a\nb\nc") {
		n++
		if n == 2 {
			break
		}
	}
	if n != 2 {
		t.Errorf("break after 2 rows: %d", n)
	}
}

// choicesOf's JSON: a count, then labels; anything else is no choices.
func TestParseChoices(t *testing.T) {
	for _, c := range []struct {
		in     string
		labels []string
		n      int
	}{
		{`[2,"Pick","France"]`, []string{"Pick", "France"}, 2},
		{`[50,"1"]`, []string{"1"}, 50},
		{`[0]`, []string{}, 0},
		{``, nil, 0},
		{`{"x":1}`, nil, 0},
		{`["two","a"]`, nil, 0},
	} {
		labels, n := parseChoices(c.in)
		if n != c.n || len(labels) != len(c.labels) || (len(labels) > 0 && strings.Join(labels, "|") != strings.Join(c.labels, "|")) {
			t.Errorf("parseChoices(%s) = %q, %d; want %q, %d", c.in, labels, n, c.labels, c.n)
		}
	}
}
