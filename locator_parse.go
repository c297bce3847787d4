package rodagent

import (
	"fmt"
	"strconv"
	"strings"
)

// String is the locator's text form, which ParseLocator reads back to the
// same locator:
//
//	role=button[name="Save"][exact][landmark="main"][frame="f1"][nth=2]
//	label="Email" · text="Sign in" · placeholder="you@example.com"
//	testid=invoice-total · css="#cart > li"
//	role=region[name="Cart"] >> role=button   (the second within the first)
func (l Locator) String() string {
	var b strings.Builder
	if l.parent != nil {
		b.WriteString(l.parent.String())
		b.WriteString(" >> ")
	}
	b.WriteString(kindNames[l.kind])
	b.WriteByte('=')
	switch l.kind {
	case locRole:
		if isBare(l.role) {
			b.WriteString(l.role)
		} else {
			b.WriteString(strconv.Quote(l.role))
		}
		if l.hasValue {
			b.WriteString("[name=" + strconv.Quote(l.value) + "]")
		}
	case locTestID:
		if isBare(l.value) {
			b.WriteString(l.value)
		} else {
			b.WriteString(strconv.Quote(l.value))
		}
	default:
		b.WriteString(strconv.Quote(l.value))
	}
	if l.exact && l.kind != locTestID && l.kind != locCSS {
		b.WriteString("[exact]")
	}
	if l.landmark != "" {
		b.WriteString("[landmark=" + strconv.Quote(l.landmark) + "]")
	}
	if l.frame != "" {
		b.WriteString("[frame=" + strconv.Quote(l.frame) + "]")
	}
	if l.nth >= 0 {
		b.WriteString("[nth=" + strconv.Itoa(l.nth) + "]")
	}
	return b.String()
}

func isBare(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.' || r == ':') {
			return false
		}
	}
	return true
}

// LocatorError says where and why a locator's text form did not parse.
type LocatorError struct {
	Input  string // the text given
	Offset int    // byte offset into Input
	Msg    string // what was expected there
}

// Error reads "rodagent: locator "…": at 12: expected "]"".
func (e *LocatorError) Error() string {
	return fmt.Sprintf("rodagent: locator %q: at %d: %s", e.Input, e.Offset, e.Msg)
}

// ParseLocator reads a locator's text form (see Locator.String).
func ParseLocator(s string) (Locator, error) {
	p := &locParser{in: s}
	var loc *Locator
	for {
		p.space()
		seg, err := p.segment()
		if err != nil {
			return Locator{}, err
		}
		if loc != nil {
			parent := *loc
			seg.parent = &parent
		}
		loc = &seg
		p.space()
		if p.eof() {
			return *loc, nil
		}
		if !strings.HasPrefix(p.in[p.pos:], ">>") {
			return Locator{}, p.fail("expected \">>\" or the end")
		}
		p.pos += 2
	}
}

type locParser struct {
	in  string
	pos int
}

func (p *locParser) eof() bool { return p.pos >= len(p.in) }

func (p *locParser) fail(msg string) error {
	return &LocatorError{Input: p.in, Offset: p.pos, Msg: msg}
}

func (p *locParser) space() {
	for !p.eof() && (p.in[p.pos] == ' ' || p.in[p.pos] == '\t') {
		p.pos++
	}
}

func (p *locParser) word() string {
	start := p.pos
	for !p.eof() && isBare(p.in[p.pos:p.pos+1]) {
		p.pos++
	}
	return p.in[start:p.pos]
}

// quoted reads a Go-style double-quoted string.
func (p *locParser) quoted() (string, error) {
	if p.eof() || p.in[p.pos] != '"' {
		return "", p.fail(`expected a double-quoted string`)
	}
	end := p.pos + 1
	for end < len(p.in) {
		switch p.in[end] {
		case '\\':
			end += 2
			continue
		case '"':
			v, err := strconv.Unquote(p.in[p.pos : end+1])
			if err != nil {
				return "", p.fail("bad escape in string: " + err.Error())
			}
			p.pos = end + 1
			return v, nil
		}
		end++
	}
	return "", p.fail("unterminated string")
}

func (p *locParser) segment() (Locator, error) {
	start := p.pos
	kind := p.word()
	var k locKind
	for kk, name := range kindNames {
		if name == kind {
			k = kk
		}
	}
	if k == 0 {
		p.pos = start
		return Locator{}, p.fail("expected role=, label=, text=, placeholder=, testid= or css=")
	}
	if p.eof() || p.in[p.pos] != '=' {
		return Locator{}, p.fail(`expected "=" after ` + kind)
	}
	p.pos++
	l := Locator{kind: k, nth: -1}
	switch k {
	case locRole:
		if !p.eof() && p.in[p.pos] == '"' {
			v, err := p.quoted()
			if err != nil {
				return Locator{}, err
			}
			l.role = v
		} else if l.role = p.word(); l.role == "" {
			return Locator{}, p.fail("expected a role name such as button")
		}
	case locTestID:
		if !p.eof() && p.in[p.pos] == '"' {
			v, err := p.quoted()
			if err != nil {
				return Locator{}, err
			}
			l.value = v
		} else if l.value = p.word(); l.value == "" {
			return Locator{}, p.fail("expected a test id")
		}
		l.hasValue, l.exact = true, true
	default:
		v, err := p.quoted()
		if err != nil {
			return Locator{}, err
		}
		l.value, l.hasValue = v, true
		if k == locCSS {
			l.exact = true
		}
	}
	for !p.eof() && p.in[p.pos] == '[' {
		p.pos++
		attrAt := p.pos
		attr := p.word()
		switch attr {
		case "exact":
		case "name", "landmark", "frame", "nth":
			if p.eof() || p.in[p.pos] != '=' {
				return Locator{}, p.fail(`expected "=" after ` + attr)
			}
			p.pos++
		default:
			p.pos = attrAt
			return Locator{}, p.fail("unknown attribute " + strconv.Quote(attr) + "; want name, exact, landmark, frame or nth")
		}
		switch attr {
		case "exact":
			l.exact = true
		case "nth":
			at := p.pos
			n, err := strconv.Atoi(p.word())
			if err != nil || n < 0 {
				p.pos = at
				return Locator{}, p.fail("nth takes a whole number from 0")
			}
			l.nth = n
		default:
			v, err := p.quoted()
			if err != nil {
				return Locator{}, err
			}
			switch attr {
			case "name":
				if k != locRole {
					p.pos = attrAt
					return Locator{}, p.fail("name= belongs to role= locators")
				}
				l.value, l.hasValue = v, true
			case "landmark":
				l.landmark = v
			case "frame":
				l.frame = v
			}
		}
		if p.eof() || p.in[p.pos] != ']' {
			return Locator{}, p.fail(`expected "]"`)
		}
		p.pos++
	}
	return l, nil
}
