package ax

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestSlug(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"Sign in", "sign-in"},
		{"  Email  ", "email"},
		{"Remember me?", "remember-me"},
		{"INV-1001", "inv-1001"},
		{"Delete order #5", "delete-order-5"},
		{"Größe ändern", "größe-ändern"},
		{"送信する", "送信する"},
		{"Read the full announcement about our new pricing", "read-the-full-announcement"},
		{"Supercalifragilisticexpialidocious-and-more", ""}, // checked below
		{"$120.00", "120-00"},
		{"", ""},
		{"!!!", ""},
	} {
		got := Slug(tc.in)
		if tc.in == "Supercalifragilisticexpialidocious-and-more" {
			if utf8.RuneCountInString(got) != MaxSlug || !strings.HasPrefix("supercalifragilisticexpialidocious", got) {
				t.Errorf("Slug(%q) = %q: a long first word is cut at MaxSlug", tc.in, got)
			}
			continue
		}
		if got != tc.want {
			t.Errorf("Slug(%q) = %q, want %q", tc.in, got, tc.want)
		}
		if utf8.RuneCountInString(got) > MaxSlug {
			t.Errorf("Slug(%q) longer than MaxSlug", tc.in)
		}
	}
}

func TestSlugCovers(t *testing.T) {
	for in, want := range map[string]bool{
		"Sign in":  true,
		"Email":    true,
		"INV-1001": true,
		"Read the full announcement about our new pricing": false,
		"":                  true,
		"01-Jan-16":         true,
		"Tinker's Hardware": true,
		"$1,000,000.00":     false,
		"250.00":            false,
		"10:30":             false,
		"50%":               false,
		"-5":                false,
		"+3 more":           false,
		"3/4":               false,
		"Q&A":               true,
		"+":                 false,
		"-":                 false,
		"×":                 false,
		"★★★":               false,
		"  ":                true,
		"64950":             false,
		"15":                false,
		"2024 06":           false,
	} {
		if got := SlugCovers(in); got != want {
			t.Errorf("SlugCovers(%q) = %v, want %v", in, got, want)
		}
	}
}

func TestBase(t *testing.T) {
	for _, tc := range []struct{ role, name, stable, want string }{
		{"button", "Sign in", "", "btn-sign-in"},
		{"textbox", "Email", "#email", "inp-email"},
		{"searchbox", "Search projects", "", "srch-search-projects"},
		{"checkbox", "Remember me", "", "chk-remember-me"},
		{"combobox", "Country", "", "cmb-country"},
		{"option", "France", "", "opt-france"},
		{"tab", "Billing", "", "tab-billing"},
		{"link", "Pricing", "", "lnk-pricing"},
		{"button", "", "#submit-btn", "btn-submit-btn"},
		{"button", "", "[data-testid=save]", "btn-save"},
		{"button", "", "", "btn"},
		{"generic", "Card", "", "el-card"},
	} {
		if got := Base(tc.role, tc.name, tc.stable); got != tc.want {
			t.Errorf("Base(%q, %q, %q) = %q, want %q", tc.role, tc.name, tc.stable, got, tc.want)
		}
	}
}

func TestMinterNeverReuses(t *testing.T) {
	m := NewMinter()
	seq := []struct{ prefix, base, want string }{
		{"", "btn-edit", "btn-edit"},
		{"", "btn-edit", "btn-edit-1"},
		{"", "btn-edit", "btn-edit-2"},
		{"", "btn-edit-1", "btn-edit-1-1"}, // a name that happens to look like a duplicate
		{"", "btn", "btn-1"},
		{"", "btn", "btn-2"},
		{"f1/", "btn-save", "f1/btn-save"},
		{"", "btn-save", "btn-save"},
		{"f1/", "btn-save", "f1/btn-save-1"},
	}
	for i, s := range seq {
		if got := m.Mint(s.prefix, s.base); got != s.want {
			t.Errorf("step %d: Mint(%q, %q) = %q, want %q", i, s.prefix, s.base, got, s.want)
		}
	}
	if !m.Used("btn-edit-2") || m.Used("btn-edit-3") {
		t.Errorf("Used is wrong")
	}
}

// FuzzMint: minting never panics, never returns a handle twice, and every
// handle reads as prefix + role prefix + slug.
func FuzzMint(f *testing.F) {
	f.Add("Edit\x00Edit\x00Save\x00\x00Edit 1", uint8(3))
	f.Add("Größe\x00送信\x00!!!", uint8(0))
	f.Fuzz(func(t *testing.T, names string, roleSeed uint8) {
		roles := []string{"button", "link", "textbox", "checkbox", "generic", "option"}
		m := NewMinter()
		seen := map[string]bool{}
		for i, name := range strings.Split(names, "\x00") {
			role := roles[(int(roleSeed)+i)%len(roles)]
			prefix := ""
			if i%3 == 2 {
				prefix = "f1/"
			}
			h := m.Mint(prefix, Base(role, name, ""))
			if seen[h] {
				t.Fatalf("handle %q minted twice", h)
			}
			seen[h] = true
			if !strings.HasPrefix(h, prefix+Prefix(role)) {
				t.Fatalf("handle %q for %s %q lacks its prefix", h, role, name)
			}
			if !utf8.ValidString(h) || strings.ContainsAny(h, " \n\t\"") {
				t.Fatalf("handle %q is not a single clean token", h)
			}
		}
	})
}

// The ASCII fast path of Slug gives what the general one gives, on the
// names refs carry and on random ASCII (punctuation, controls, long words,
// names past MaxSlug).
func TestSlugASCIIMatchesGeneral(t *testing.T) {
	names := []string{"", "Select row 1", "Delete order 2000", "Order 17", "  Save  ", "INV-1001", "$1,000.00",
		"a", "Supercalifragilisticexpialidocious word", "one two three four five six seven", "x\ty\nz", "--", "AbC dEf",
		"Twenty-eight characters ok!", "abcdefghijklmnopqrstuvwxyz12 x", "abcdefghijklmnopqrstuvwxyz123"}
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 20000; i++ {
		n := make([]byte, rng.IntN(50))
		for j := range n {
			n[j] = byte(rng.IntN(128))
		}
		names = append(names, string(n))
	}
	for _, n := range names {
		fast, ok := asciiSlug(n)
		if !ok {
			t.Fatalf("asciiSlug(%q) refused an ASCII name", n)
		}
		if want := slugWords(n); fast != want {
			t.Fatalf("asciiSlug(%q) = %q, want %q", n, fast, want)
		}
	}
	if _, ok := asciiSlug("Café"); ok {
		t.Fatal("asciiSlug took a non-ASCII name")
	}
	if got := Slug("Café crème"); got != "café-crème" {
		t.Fatalf("Slug(non-ASCII) = %q", got)
	}
}
