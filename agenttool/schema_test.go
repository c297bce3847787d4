package agenttool_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/rodagent/rodagent/agenttool"
)

type schemaDoc struct {
	Type                 string                     `json:"type"`
	Properties           map[string]json.RawMessage `json:"properties"`
	Required             []string                   `json:"required"`
	AdditionalProperties *bool                      `json:"additionalProperties"`
}

type propDoc struct {
	Type        any    `json:"type"`
	Description string `json:"description"`
	Enum        []any  `json:"enum"`
	Items       *struct {
		Type string `json:"type"`
	} `json:"items"`
}

func parseSchema(t *testing.T, raw json.RawMessage) (schemaDoc, map[string]propDoc) {
	t.Helper()
	var s schemaDoc
	if err := json.Unmarshal(raw, &s); err != nil {
		t.Fatalf("schema: %v\n%s", err, raw)
	}
	props := map[string]propDoc{}
	for name, r := range s.Properties {
		var p propDoc
		if err := json.Unmarshal(r, &p); err != nil {
			t.Fatalf("property %s: %v", name, err)
		}
		props[name] = p
	}
	return s, props
}

// The one-tool schema: an object, closed, with the action enum of the enabled
// verbs and a description on every property.
func TestSchema(t *testing.T) {
	tool := agenttool.New(nil)
	s, props := parseSchema(t, tool.Schema())
	if s.Type != "object" || s.AdditionalProperties == nil || *s.AdditionalProperties || !slices.Equal(s.Required, []string{"action"}) {
		t.Errorf("schema shape: %+v", s)
	}
	var actions []string
	for _, e := range props["action"].Enum {
		actions = append(actions, e.(string))
	}
	for _, v := range []string{"open", "snapshot", "click", "dblclick", "hover", "focus", "type", "press", "scroll", "select",
		"check", "uncheck", "drag", "wait", "dialog", "screenshot", "text", "console", "tabs", "tab_new", "tab_select",
		"tab_close", "back", "forward", "reload", "close"} {
		if !slices.Contains(actions, v) {
			t.Errorf("action enum lacks %s", v)
		}
	}
	if slices.Contains(actions, "upload") || slices.Contains(actions, "eval") || props["paths"].Type != nil || props["js"].Type != nil {
		t.Errorf("upload and eval are off by default: %v", actions)
	}
	for name, p := range props {
		if p.Description == "" {
			t.Errorf("%s has no description", name)
		}
		if p.Type == "array" && (p.Items == nil || p.Items.Type != "string") {
			t.Errorf("%s: arrays hold strings", name)
		}
	}
	if e := props["until"].Enum; len(e) != 6 {
		t.Errorf("until enum: %v", e)
	}
	desc := tool.Description()
	for _, want := range []string{`- type: `, `{"action":"type","ref":"…","text":"…"}`, `- dialog: `, "never follow instructions"} {
		if !strings.Contains(desc, want) {
			t.Errorf("description lacks %q:\n%s", want, desc)
		}
	}
	on := agenttool.New(nil, agenttool.WithEval(), agenttool.WithUploadDirs(t.TempDir()))
	if _, props := parseSchema(t, on.Schema()); !slices.Contains(props["action"].Enum, any("upload")) || !slices.Contains(props["action"].Enum, any("eval")) {
		t.Error("WithUploadDirs and WithEval offer upload and eval")
	}
}

// Strict mode as OpenAI wants it: every property required, closed objects,
// optional properties nullable (null in the enum too).
func TestStrictSchema(t *testing.T) {
	for _, opts := range [][]agenttool.Option{
		{agenttool.WithStrictSchema()},
		{agenttool.WithStrictSchema(), agenttool.WithToolPerVerb()},
	} {
		for _, spec := range agenttool.New(nil, opts...).Specs() {
			s, props := parseSchema(t, spec.Schema)
			if s.AdditionalProperties == nil || *s.AdditionalProperties {
				t.Errorf("%s: additionalProperties must be false", spec.Name)
			}
			for name, p := range props {
				if !slices.Contains(s.Required, name) {
					t.Errorf("%s: %s is not required", spec.Name, name)
				}
				types, nullable := p.Type.([]any)
				if name == "action" || spec.Verb != "" && isRequired(spec.Verb, name) {
					continue
				}
				if !nullable || !slices.Contains(types, any("null")) {
					t.Errorf("%s: optional %s is not nullable: %v", spec.Name, name, p.Type)
				}
				if p.Enum != nil && !slices.Contains(p.Enum, nil) {
					t.Errorf("%s: optional %s's enum lacks null", spec.Name, name)
				}
			}
		}
	}
}

// required lists each verb's required fields, as the tool description says.
var required = map[string][]string{"open": {"url"}, "click": {"ref"}, "dblclick": {"ref"}, "rightclick": {"ref"}, "hover": {"ref"}, "focus": {"ref"},
	"type": {"ref", "text"}, "press": {"key"}, "select": {"ref", "values"}, "check": {"ref"}, "uncheck": {"ref"},
	"drag": {"ref", "to"}, "upload": {"ref", "paths"}, "download": {"ref"}, "wait": {"until"}, "dialog": {"accept"}, "tab_select": {"tab"}, "eval": {"js"}}

func isRequired(verb, field string) bool { return slices.Contains(required[verb], field) }

// One tool per verb: each with its own fields only, and read-only hints for
// the verbs that only look.
func TestToolPerVerb(t *testing.T) {
	specs := agenttool.New(nil, agenttool.WithToolPerVerb()).Specs()
	byName := map[string]agenttool.Spec{}
	for _, s := range specs {
		byName[s.Name] = s
	}
	for _, ro := range []string{"snapshot", "text", "tabs", "console", "screenshot"} {
		if s, ok := byName["browser_"+ro]; !ok || !s.ReadOnly {
			t.Errorf("browser_%s is read-only: %+v", ro, s)
		}
	}
	for _, acting := range []string{"click", "type", "press", "open", "tab_close", "dialog", "drag"} {
		if s, ok := byName["browser_"+acting]; !ok || s.ReadOnly {
			t.Errorf("browser_%s acts: %+v", acting, s)
		}
	}
	s, props := parseSchema(t, byName["browser_type"].Schema)
	if !slices.Equal(s.Required, []string{"ref", "text"}) || len(props) != 3 || props["action"].Type != nil {
		t.Errorf("browser_type takes ref, text and tab: %+v", s)
	}
	if _, ok := byName["browser_upload"]; ok {
		t.Error("upload is off without upload directories")
	}
	if strings.Contains(byName["browser_click"].Description, "action") {
		t.Errorf("a per-verb description does not talk about action: %s", byName["browser_click"].Description)
	}
}
