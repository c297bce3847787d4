package mcp_test

import (
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/rodagent/rodagent/agenttool"
)

// metaSchema is the draft 2020-12 meta-schema, resolved from testdata.
func metaSchema(t *testing.T) *jsonschema.Resolved {
	t.Helper()
	load := func(path string) (*jsonschema.Schema, error) {
		data, err := os.ReadFile(filepath.Join("testdata", "jsonschema-2020-12", filepath.FromSlash(path)+".json"))
		if err != nil {
			return nil, err
		}
		var s jsonschema.Schema
		return &s, json.Unmarshal(data, &s)
	}
	root, err := load("schema")
	if err != nil {
		t.Fatal(err)
	}
	const prefix = "https://json-schema.org/draft/2020-12/"
	resolved, err := root.Resolve(&jsonschema.ResolveOptions{Loader: func(u *url.URL) (*jsonschema.Schema, error) {
		rest, ok := strings.CutPrefix(u.String(), prefix)
		if !ok {
			return nil, fmt.Errorf("no offline copy of %s", u)
		}
		return load(rest)
	}})
	if err != nil {
		t.Fatal(err)
	}
	return resolved
}

// Every schema the tool hands a model — one tool or one per verb, plain or
// strict, with upload and eval on or off — is a valid JSON Schema by the
// draft 2020-12 meta-schema.
func TestSchemasValidateAgainstTheMetaSchema(t *testing.T) {
	meta := metaSchema(t)
	// The validator must be able to fail: schemas that break the meta-schema.
	for _, bad := range []string{`{"type": 5}`, `{"type":"object","required":"action"}`, `{"properties":{"a":{"enum":"x"}}}`, `{"type":"strng"}`} {
		var v any
		if err := json.Unmarshal([]byte(bad), &v); err != nil {
			t.Fatal(err)
		}
		if err := meta.Validate(v); err == nil {
			t.Errorf("the meta-schema accepted %s", bad)
		}
	}
	configs := map[string][]agenttool.Option{
		"one tool":          nil,
		"strict":            {agenttool.WithStrictSchema()},
		"per verb":          {agenttool.WithToolPerVerb()},
		"per verb, strict":  {agenttool.WithToolPerVerb(), agenttool.WithStrictSchema()},
		"upload and eval":   {agenttool.WithUploadDirs(t.TempDir()), agenttool.WithEval()},
		"everything strict": {agenttool.WithUploadDirs(t.TempDir()), agenttool.WithEval(), agenttool.WithToolPerVerb(), agenttool.WithStrictSchema()},
	}
	for name, opts := range configs {
		specs := agenttool.New(nil, opts...).Specs()
		if len(specs) == 0 {
			t.Fatalf("%s: no tools", name)
		}
		for _, spec := range specs {
			var v any
			if err := json.Unmarshal(spec.Schema, &v); err != nil {
				t.Fatalf("%s %s: not JSON: %v", name, spec.Name, err)
			}
			if err := meta.Validate(v); err != nil {
				t.Errorf("%s %s: %v\n%s", name, spec.Name, err, spec.Schema)
			}
			// The SDK's own schema type reads it too (hosts built on it will).
			var s jsonschema.Schema
			if err := json.Unmarshal(spec.Schema, &s); err != nil {
				t.Errorf("%s %s: jsonschema.Schema: %v", name, spec.Name, err)
			} else if _, err := s.Resolve(nil); err != nil {
				t.Errorf("%s %s: resolve: %v", name, spec.Name, err)
			}
		}
	}
}

// An SDK that infers a schema from agenttool.Input (the go-sdk's generic
// AddTool, for one) keeps every field's description from the jsonschema tags.
func TestInputTagsGiveDescriptions(t *testing.T) {
	s, err := jsonschema.For[agenttool.Input](nil)
	if err != nil {
		t.Fatal(err)
	}
	var props map[string]any
	raw, _ := json.Marshal(agenttool.New(nil, agenttool.WithEval(), agenttool.WithUploadDirs(t.TempDir())).Schema())
	var full struct {
		Properties map[string]any `json:"properties"`
	}
	if err := json.Unmarshal(raw, &full); err != nil {
		t.Fatal(err)
	}
	props = full.Properties
	for name := range props {
		p, ok := s.Properties[name]
		if !ok {
			t.Errorf("Input has no field %q of the schema", name)
			continue
		}
		if p.Description == "" {
			t.Errorf("Input.%s has no jsonschema description", name)
		}
	}
	if len(s.Properties) != len(props) {
		t.Errorf("Input has %d fields, the schema %d", len(s.Properties), len(props))
	}
}
