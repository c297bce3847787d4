package ax

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// rolePrefix is the short, readable prefix of a handle for each role.
var rolePrefix = map[string]string{
	"button": "btn", "PopUpButton": "btn", "ToggleButton": "btn", "DisclosureTriangle": "btn",
	"link": "lnk", "textbox": "inp", "Date": "inp", "DateTime": "inp", "InputTime": "inp", "ColorWell": "inp", "TextField": "inp", "textField": "inp", "searchbox": "srch", "SearchBox": "srch",
	"checkbox": "chk", "radio": "rad", "combobox": "cmb", "listbox": "lst", "option": "opt", "MenuListOption": "opt",
	"tab": "tab", "menuitem": "mi", "menuitemcheckbox": "mic", "menuitemradio": "mir", "slider": "sld",
	"spinbutton": "spn", "switch": "sw", "treeitem": "tri", "gridcell": "cell", "cell": "cell", "row": "row",
	"columnheader": "col", "rowheader": "rh",
}

// Prefix returns the handle prefix for a role ("el" for roles without one).
func Prefix(role string) string {
	if p, ok := rolePrefix[role]; ok {
		return p
	}
	return "el"
}

// PrefixRole maps a prefix back to the role it stands for, when it stands for
// exactly one ("btn" stands for button).
func PrefixRole(prefix string) string {
	switch prefix {
	case "btn":
		return "button"
	case "lnk":
		return "link"
	case "inp":
		return "textbox"
	case "srch":
		return "searchbox"
	case "chk":
		return "checkbox"
	case "rad":
		return "radio"
	case "cmb":
		return "combobox"
	case "lst":
		return "listbox"
	case "opt":
		return "option"
	case "tab":
		return "tab"
	case "mi":
		return "menuitem"
	case "mic":
		return "menuitemcheckbox"
	case "mir":
		return "menuitemradio"
	case "sld":
		return "slider"
	case "spn":
		return "spinbutton"
	case "sw":
		return "switch"
	case "tri":
		return "treeitem"
	}
	return ""
}

// MaxSlug is the most runes of a name that go into a handle.
const MaxSlug = 28

// Slug reduces a name to lower-case words joined by '-', at most MaxSlug runes,
// cut at a word boundary when it can be. Letters and digits of any script are kept.
func Slug(name string) string {
	if s, ok := asciiSlug(name); ok {
		return s
	}
	return slugWords(name)
}

// slugWords is Slug for any name.
func slugWords(name string) string {
	var b strings.Builder
	n := 0
	for _, w := range words(name) {
		wl := len([]rune(w))
		sep := 0
		if b.Len() > 0 {
			sep = 1
		}
		if n+sep+wl > MaxSlug {
			if b.Len() == 0 {
				b.WriteString(string([]rune(w)[:MaxSlug]))
			}
			break
		}
		if sep == 1 {
			b.WriteByte('-')
		}
		b.WriteString(w)
		n += sep + wl
	}
	return b.String()
}

// asciiSlug is Slug for a name of ASCII characters only, where a letter
// or digit is one byte and lowering is a shift: the refs of a large page
// are mostly such names, and one pass with no word list to allocate keeps
// minting their handles off the first look's time. ok is false for any
// other name.
func asciiSlug(name string) (string, bool) {
	for i := 0; i < len(name); i++ {
		if name[i] >= utf8.RuneSelf {
			return "", false
		}
	}
	alnum := func(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' }
	var buf [MaxSlug]byte
	b := buf[:0]
	add := func(w string) {
		for i := 0; i < len(w); i++ {
			c := w[i]
			if c >= 'A' && c <= 'Z' {
				c += 'a' - 'A'
			}
			b = append(b, c)
		}
	}
	for i := 0; i < len(name); {
		for i < len(name) && !alnum(name[i]) {
			i++
		}
		j := i
		for j < len(name) && alnum(name[j]) {
			j++
		}
		if j == i {
			break
		}
		w := name[i:j]
		i = j
		sep := 0
		if len(b) > 0 {
			sep = 1
		}
		if len(b)+sep+len(w) > MaxSlug {
			if len(b) == 0 {
				add(w[:MaxSlug])
			}
			break
		}
		if sep == 1 {
			b = append(b, '-')
		}
		add(w)
	}
	return string(b), true
}

func words(name string) []string {
	return strings.FieldsFunc(strings.ToLower(name), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// SlugCovers reports whether the slug of name carries every word of the name,
// so the name need not be printed beside the handle. A number's punctuation
// is part of what it says ("$1,000.00", "10:30", "50%", "-5", "3.5"), and a
// slug drops it ("1-000-00"): such a name is printed. So is a name of
// symbols only ("+", "-", "×", "★"): its slug is empty, and the symbol is
// what a person reads on the control. So is a name of digits only (a
// grid's price cell "64950", a calendar's day "15"): its handle (cell-15)
// reads as the numbered handle of an unnamed ref or a twin's, and the
// printed name tells them apart.
func SlugCovers(name string) bool {
	w := words(name)
	if len(w) == 0 && strings.TrimSpace(name) != "" {
		return false
	}
	if len(w) > 0 && !strings.ContainsFunc(name, unicode.IsLetter) {
		return false
	}
	return Slug(name) == strings.Join(w, "-") && !numberMarks(name)
}

// numberMarks reports whether a digit of name stands next to punctuation or
// a symbol other than a hyphen between words ("INV-1001" reads the same as
// its slug), or after a leading minus or plus.
func numberMarks(name string) bool {
	rs := []rune(name)
	digit := func(i int) bool { return i >= 0 && i < len(rs) && unicode.IsDigit(rs[i]) }
	for i, r := range rs {
		if unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsSpace(r) {
			continue
		}
		if r == '-' && i > 0 && !unicode.IsSpace(rs[i-1]) && i+1 < len(rs) && !unicode.IsSpace(rs[i+1]) {
			continue // a hyphen inside a word
		}
		if digit(i-1) || digit(i+1) {
			return true
		}
	}
	return false
}

// Base is the handle an element would get before de-duplication: the role's
// prefix and the slug of its name, else of its stable attribute, else the
// prefix alone (numbered on minting).
func Base(role, name, stable string) string {
	p := Prefix(role)
	if s := Slug(name); s != "" {
		return p + "-" + s
	}
	if s := Slug(strings.Trim(stable, "#[]")); s != "" {
		s = strings.TrimPrefix(s, "data-testid-")
		s = strings.TrimPrefix(s, "name-")
		return p + "-" + s
	}
	return p
}

// Minter hands out handles that are unique and never reused: once a handle has
// been given, it is never given again, even after its element is gone.
type Minter struct {
	used map[string]bool
}

// NewMinter returns an empty Minter.
func NewMinter() *Minter { return &Minter{used: map[string]bool{}} }

// Mint returns a fresh handle for base, with prefix ("f1/") in front.
// Duplicates become base-1, base-2, …; a bare prefix is always numbered.
func (m *Minter) Mint(prefix, base string) string {
	if !strings.Contains(base, "-") { // nameless: btn-1, btn-2, …
		for i := 1; ; i++ {
			h := prefix + base + "-" + strconv.Itoa(i)
			if !m.used[h] {
				m.used[h] = true
				return h
			}
		}
	}
	h := prefix + base
	if !m.used[h] {
		m.used[h] = true
		return h
	}
	for i := 1; ; i++ {
		h := prefix + base + "-" + strconv.Itoa(i)
		if !m.used[h] {
			m.used[h] = true
			return h
		}
	}
}

// Used reports whether h has ever been minted.
func (m *Minter) Used(h string) bool { return m.used[h] }
