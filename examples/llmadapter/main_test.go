package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rodagent/rodagent"
	"github.com/rodagent/rodagent/agenttool"
)

// The adapter runs a scripted model (a fake Messages API) against a real
// browser: the tool calls arrive as tool_use blocks, the results go back as
// tool_result blocks with is_error and an image block for the screenshot.
func TestAdapterLoop(t *testing.T) {
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<main><h1>Plans</h1><p>Basic costs 5 euros</p><button onclick="this.textContent='Chosen'">Choose Basic</button></main>`)
	}))
	defer site.Close()
	script := []string{
		`{"action":"open","url":"` + site.URL + `/"}`,
		`{"action":"click","ref":"btn-no-such"}`,
		`{"action":"click","ref":"btn-choose-basic"}`,
		`{"action":"screenshot"}`,
	}
	var mu sync.Mutex
	var got [][]block // the last user message of each request
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Tools    []map[string]any `json:"tools"`
			Messages []message        `json:"messages"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil || len(req.Tools) != 1 || req.Tools[0]["input_schema"] == nil {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		mu.Lock()
		turn := len(got)
		got = append(got, req.Messages[len(req.Messages)-1].Content) // the task, then each turn's results
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		if turn < len(script) {
			fmt.Fprintf(w, `{"content":[{"type":"tool_use","id":"toolu_%d","name":"browser","input":%s}],"stop_reason":"tool_use"}`, turn, script[turn])
			return
		}
		fmt.Fprint(w, `{"content":[{"type":"text","text":"Basic costs 5 euros."}],"stop_reason":"end_turn"}`)
	}))
	defer api.Close()

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	b, err := rodagent.Launch(ctx, rodagent.WithDownload(false))
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	answer, err := run(ctx, apiClient{base: api.URL, model: "fake"}, agenttool.New(b), "find the price", 10)
	if err != nil {
		t.Fatal(err)
	}
	if answer != "Basic costs 5 euros." {
		t.Errorf("answer %q", answer)
	}
	if len(got) != len(script)+1 {
		t.Fatalf("turns: %d", len(got))
	}
	want := []struct {
		isError bool
		text    string
	}{{false, "btn-choose-basic"}, {true, "not_found"}, {false, "click btn-choose-basic → ready"}, {false, "screenshot of the viewport"}}
	for i, w := range want {
		res := got[i+1]
		if len(res) != 1 || res[0].Type != "tool_result" || res[0].ToolUseID != fmt.Sprintf("toolu_%d", i) {
			t.Fatalf("turn %d: %+v", i, res)
		}
		if res[0].IsError != w.isError || !strings.Contains(res[0].Content[0].Text, w.text) {
			t.Errorf("turn %d: is_error=%v, text:\n%s", i, res[0].IsError, res[0].Content[0].Text)
		}
	}
	shot := got[len(script)][0].Content
	if len(shot) != 2 || shot[1].Type != "image" || shot[1].Source.MediaType != "image/png" || len(shot[1].Source.Data) < 100 {
		t.Errorf("the screenshot goes back as an image block: %+v", shot)
	}
}
