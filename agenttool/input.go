package agenttool

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Input is the tool's input, as the model sends it. Which fields an action
// takes is in the tool's description and schema; fields an action does not
// take are ignored when empty and refused when set. The jsonschema tags give
// SDKs that infer schemas from Go types the same descriptions.
type Input struct {
	Action    string   `json:"action" jsonschema:"what to do: snapshot, open, click, dblclick, rightclick, hover, focus, type, press, scroll, select, check, uncheck, drag, upload, download, wait, dialog, screenshot, text, console, tabs, tab_new, tab_select, tab_close, back, forward, reload, eval, close"`
	Ref       string   `json:"ref,omitempty" jsonschema:"an element's ref from the latest snapshot, e.g. btn-sign-in"`
	Text      string   `json:"text,omitempty" jsonschema:"type: the text for the field; wait: text to wait for; dialog: text for a prompt"`
	Key       string   `json:"key,omitempty" jsonschema:"press: the key, e.g. Enter, Tab, Shift+Tab, Escape, ArrowDown"`
	Values    []string `json:"values,omitempty" jsonschema:"select: options to choose, by value or label"`
	Direction string   `json:"direction,omitempty" jsonschema:"scroll: up, down, left or right; with ref, the wheel turns over that element"`
	Amount    int      `json:"amount,omitempty" jsonschema:"scroll: pixels (default: most of a screen)"`
	URL       string   `json:"url,omitempty" jsonschema:"open, tab_new: the address; wait: a pattern the URL must match"`
	Tab       string   `json:"tab,omitempty" jsonschema:"a tab id from tabs; default: the current tab"`
	Full      bool     `json:"full,omitempty" jsonschema:"snapshot: the whole inventory rather than what changed"`
	From      string   `json:"from,omitempty" jsonschema:"snapshot: continue from this ref"`
	Within    string   `json:"within,omitempty" jsonschema:"snapshot: only inside this landmark"`
	MaxChars  int      `json:"max_chars,omitempty" jsonschema:"snapshot: character budget of the text"`
	To        string   `json:"to,omitempty" jsonschema:"drag: the ref to drop onto"`
	Paths     []string `json:"paths,omitempty" jsonschema:"upload: files inside the allowed upload directories"`
	Until     string   `json:"until,omitempty" jsonschema:"wait: text, ref_present, ref_gone, url, load or network_idle"`
	TimeoutMS int      `json:"timeout_ms,omitempty" jsonschema:"wait: at most this many milliseconds (default 10000, max 60000)"`
	Accept    *bool    `json:"accept,omitempty" jsonschema:"dialog: true accepts the next dialog, false dismisses it"`
	Mode      string   `json:"mode,omitempty" jsonschema:"screenshot: viewport, element or full_page"`
	Annotate  bool     `json:"annotate,omitempty" jsonschema:"screenshot: draw each ref's box and handle"`
	JS        string   `json:"js,omitempty" jsonschema:"eval: a JavaScript expression"`
}

// badInput is input the tool will not run: the reason and the shape the
// action expects, for the model to correct its call.
type badInput struct {
	reason string
	verb   string // the action, when known
}

func (b *badInput) Error() string { return b.reason }

// decode reads exactly one JSON object from raw, refusing unknown fields and
// anything after the object, and checks that the action's required fields
// are present (not null). It touches nothing: the tool runs only after it.
func decode(raw []byte) (Input, *badInput) {
	var in Input
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return in, &badInput{reason: "the input must be one JSON object, such as {\"action\":\"snapshot\"}"}
	}
	if len(trimmed) > MaxInputBytes {
		return in, &badInput{reason: fmt.Sprintf("the input is %d bytes; at most %d are taken", len(trimmed), MaxInputBytes)}
	}
	if !utf8.Valid(trimmed) {
		return in, &badInput{reason: "the input is not valid UTF-8"}
	}
	if bad := checkKeys(trimmed); bad != nil {
		return in, bad
	}
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&in); err != nil {
		return in, &badInput{reason: "the input is not a valid object for this tool: " + capEcho(err.Error())}
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return in, &badInput{reason: "the input must be exactly one JSON object, with nothing after it"}
	}
	var present map[string]json.RawMessage
	if err := json.Unmarshal(trimmed, &present); err != nil {
		return in, &badInput{reason: "the input is not a JSON object: " + capEcho(err.Error())}
	}
	v, ok := verbByName(in.Action)
	if !ok {
		return in, nil // check reports the unknown action with the list
	}
	for _, name := range v.required {
		if r, ok := present[name]; !ok || string(r) == "null" {
			return in, &badInput{verb: v.name, reason: fmt.Sprintf("%s needs %s", v.name, name)}
		}
	}
	return in, nil
}

// check validates a typed input against its action before anything runs.
func (t *Tool) check(in Input) *badInput {
	v, ok := verbByName(in.Action)
	if !ok || !t.enabled(v) {
		reason := fmt.Sprintf("unknown action %q; actions: %s", in.Action, strings.Join(t.verbNames(), ", "))
		if ok && v.option != "" {
			reason = fmt.Sprintf("%s is turned off for this tool (the program embedding it enables it with %s)", v.name, v.option)
		}
		return &badInput{reason: reason}
	}
	bad := func(format string, args ...any) *badInput {
		return &badInput{verb: v.name, reason: fmt.Sprintf(format, args...)}
	}
	set := in.setFields()
	for _, name := range set {
		if name != "action" && !slices.Contains(v.required, name) && !slices.Contains(v.optional, name) {
			return bad("%s does not take %s", v.name, name)
		}
	}
	for _, name := range v.required {
		if name != "text" && name != "accept" && !slices.Contains(set, name) {
			return bad("%s needs %s", v.name, name)
		}
	}
	switch v.name {
	case "scroll":
		if in.Ref == "" && in.Direction == "" {
			return bad("scroll needs direction (up, down, left, right) or ref")
		}
		if in.Direction != "" && !slices.Contains(fieldByName("direction").enum, in.Direction) {
			return bad("direction must be up, down, left or right, not %q", in.Direction)
		}
		if in.Amount < 0 {
			return bad("amount must not be negative")
		}
		if in.Amount > 0 && in.Direction == "" {
			return bad("amount goes with direction (a ref alone is scrolled into view)")
		}
	case "dialog":
		if in.Accept == nil {
			return bad("dialog needs accept (true or false)")
		}
	case "wait":
		switch in.Until {
		case "text":
			if in.Text == "" {
				return bad("wait until=text needs text")
			}
		case "ref_present", "ref_gone":
			if in.Ref == "" {
				return bad("wait until=%s needs ref", in.Until)
			}
		case "url":
			if in.URL == "" {
				return bad("wait until=url needs url (a substring or regular expression)")
			}
		case "load", "network_idle":
		default:
			return bad("until must be one of %s, not %q", strings.Join(fieldByName("until").enum, ", "), in.Until)
		}
		if in.TimeoutMS < 0 || in.TimeoutMS > maxWait {
			return bad("timeout_ms must be between 0 and %d", maxWait)
		}
	case "screenshot":
		switch in.Mode {
		case "", "viewport", "full_page":
			if in.Ref != "" && in.Mode != "" {
				return bad("ref goes with mode=element")
			}
		case "element":
			if in.Ref == "" {
				return bad("screenshot mode=element needs ref")
			}
		default:
			return bad("mode must be viewport, element or full_page, not %q", in.Mode)
		}
	case "snapshot":
		if in.MaxChars < 0 {
			return bad("max_chars must not be negative")
		}
	}
	return nil
}

// setFields lists the fields with a non-zero value.
func (in Input) setFields() []string {
	var out []string
	add := func(name string, set bool) {
		if set {
			out = append(out, name)
		}
	}
	add("action", in.Action != "")
	add("ref", in.Ref != "")
	add("text", in.Text != "")
	add("key", in.Key != "")
	add("values", len(in.Values) > 0)
	add("direction", in.Direction != "")
	add("amount", in.Amount != 0)
	add("url", in.URL != "")
	add("tab", in.Tab != "")
	add("full", in.Full)
	add("from", in.From != "")
	add("within", in.Within != "")
	add("max_chars", in.MaxChars != 0)
	add("to", in.To != "")
	add("paths", len(in.Paths) > 0)
	add("until", in.Until != "")
	add("timeout_ms", in.TimeoutMS != 0)
	add("accept", in.Accept != nil)
	add("mode", in.Mode != "")
	add("annotate", in.Annotate)
	add("js", in.JS != "")
	return out
}

// shape is the expected input of a verb, as an example the model can copy.
func shape(v verb) string {
	var b strings.Builder
	fmt.Fprintf(&b, `{"action":%q`, v.name)
	for _, name := range v.required {
		f := fieldByName(name)
		switch f.typ {
		case "string":
			ex := "…"
			if f.enum != nil {
				ex = strings.Join(f.enum, "|")
			}
			fmt.Fprintf(&b, `,%q:%q`, name, ex)
		case "boolean":
			fmt.Fprintf(&b, `,%q:true`, name)
		case "integer":
			fmt.Fprintf(&b, `,%q:0`, name)
		case "array":
			fmt.Fprintf(&b, `,%q:["…"]`, name)
		}
	}
	b.WriteString("}")
	if len(v.optional) > 0 {
		b.WriteString(" (optional: " + strings.Join(v.optional, ", ") + ")")
	}
	return b.String()
}

// MaxInputBytes is the largest tool input taken: a call is a few fields, and
// a model that sends megabytes (a page's text pasted back) is refused before
// anything runs rather than having it echoed or typed.
const MaxInputBytes = 1 << 20

// inputKeys are Input's JSON names, exactly as the schema spells them.
var inputKeys = func() map[string]bool {
	keys := map[string]bool{}
	t := reflect.TypeOf(Input{})
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		keys[name] = true
	}
	return keys
}()

// checkKeys refuses an object with a key the schema does not spell exactly
// or a key given twice. encoding/json would match "Action" or "ACTION" to
// action and let the last of two keys win, so {"action":"tabs",
// "ACTION":"close"} would read as a close to the tool but as something else
// to any check or log that looked at the keys.
func checkKeys(raw []byte) *badInput {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return &badInput{reason: "the input must be one JSON object, such as {\"action\":\"snapshot\"}"}
	}
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		key, ok := tok.(string)
		if err != nil || !ok {
			return &badInput{reason: "the input is not a valid JSON object"}
		}
		if !inputKeys[key] {
			return &badInput{reason: "unknown field " + capEcho(strconv.Quote(key)) + " (field names are lower case, as in the schema)"}
		}
		if seen[key] {
			return &badInput{reason: "field " + strconv.Quote(key) + " is given twice"}
		}
		seen[key] = true
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return &badInput{reason: "the input is not a valid JSON object: " + capEcho(err.Error())}
		}
	}
	return nil
}

// capEcho cuts model input repeated in a refusal to a readable length.
func capEcho(s string) string {
	if r := []rune(s); len(r) > 200 {
		return string(r[:200]) + "…"
	}
	return s
}
