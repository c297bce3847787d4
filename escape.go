package rodagent

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Every string a page makes — names, values, headings, text, landmark and
// frame names, URLs, dialog messages — reaches a model inside text the library
// renders line by line, ending with SafetyLine. A page that could put a line
// break, a bidi override or an invisible character into that text could forge
// a line of structure, a ref or the safety line itself. quote is the one
// function that turns page text into something that cannot: every rune a
// reader (or a tokenizer) might take as a line break, and every rune that is
// invisible or reorders text, becomes a visible escape.

// quote returns s, cut to max runes (with "…" when cut; max <= 0 means no
// cap), as one double-quoted line: `"` and `\` are backslash-escaped; \n, \r
// and \t read as such; every other control character (C0, DEL, C1 including
// NEL U+0085, the separators U+001C–U+001F), every format character (Cf:
// bidi overrides U+202A–U+202E and isolates, zero-width U+200B–U+200D, U+FEFF,
// soft hyphen, tags…), the line and paragraph separators U+2028/U+2029,
// spaces other than U+0020, private-use, surrogate and unassigned code points
// become \uXXXX (or \UXXXXXXXX); invalid UTF-8 bytes become \xNN. What is left
// is letters, marks, digits, punctuation, symbols and the plain space: text a
// person reads the same way a model does.
func quote(s string, max int) string {
	if max > 0 {
		s = capRunes(s, max)
	}
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte('"')
	for i := 0; i < len(s); {
		r, w := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && w == 1 {
			b.WriteString(`\x`)
			b.WriteString(hex(uint32(s[i]), 2))
			i++
			continue
		}
		i += w
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		default:
			if shownAsIs(r) {
				b.WriteRune(r)
			} else if r < 0x10000 {
				b.WriteString(`\u` + hex(uint32(r), 4))
			} else {
				b.WriteString(`\U` + hex(uint32(r), 8))
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}

// shownAsIs reports whether r may appear raw inside quoted page text: a
// visible character, or the plain space.
func shownAsIs(r rune) bool {
	if r == ' ' {
		return true
	}
	if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
		return false
	}
	// Graphic categories only: L, M, N, P, S. This leaves out Cc, Cf, Co,
	// Cs, Cn (unassigned), Zl, Zp and every Zs but U+0020.
	return unicode.In(r, unicode.L, unicode.M, unicode.N, unicode.P, unicode.S)
}

// plainText returns s unchanged when every rune of it may be shown raw and it
// has no quote or backslash; otherwise quote(s, max). For strings that are
// usually plain words (a role, an origin) but come from a page.
func plainText(s string, max int) string {
	if !utf8.ValidString(s) {
		return quote(s, max)
	}
	for _, r := range s {
		if r == '"' || r == '\\' || !shownAsIs(r) || r == ' ' {
			return quote(s, max)
		}
	}
	if max > 0 && utf8.RuneCountInString(s) > max {
		return quote(s, max)
	}
	return s
}

// safeLabel returns a label that the library composed from page text already
// quoted (`navigation "Main"`), unchanged when nothing in it could break a line
// or hide text and it fits in max runes; otherwise the whole label goes
// through quote.
func safeLabel(s string, max int) string {
	if !utf8.ValidString(s) {
		return quote(s, max)
	}
	for _, r := range s {
		if r != ' ' && !shownAsIs(r) {
			return quote(s, max)
		}
	}
	if max > 0 && utf8.RuneCountInString(s) > max {
		// cutting would drop the label's closing quote and turn the rest of
		// the line inside out: quote it whole instead
		return quote(s, max)
	}
	return s
}

func hex(v uint32, digits int) string {
	h := strconv.FormatUint(uint64(v), 16)
	if len(h) < digits {
		h = strings.Repeat("0", digits-len(h)) + h
	}
	return h
}

// Quote is the escaping the library applies to every page-made string it
// shows a model, for programs that show a model page text of their own: s cut
// to max runes (max <= 0: no cap) in double quotes, with quotes, backslashes
// and every control, format (bidi overrides, zero-width characters) and line
// or paragraph separator escaped visibly, so the result is one line that
// cannot pass for text the program wrote.
func Quote(s string, max int) string { return quote(s, max) }

// IsLineBreak reports whether r ends a line for some reader of text: \n, \r,
// \v, \f, NEL U+0085, U+2028, U+2029 and the separators U+001C–U+001E. Quote
// escapes all of them; a program splitting page text into lines before
// quoting them splits on these.
func IsLineBreak(r rune) bool {
	switch r {
	case '\n', '\r', '\v', '\f', 0x85, 0x2028, 0x2029, 0x1c, 0x1d, 0x1e:
		return true
	}
	return false
}
