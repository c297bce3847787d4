// Command llmadapter runs the agent loop between a model and the browser tool:
// the tool's spec goes to Anthropic's Messages API as a tool, each tool_use
// block the model sends runs through agenttool, and each Result goes back as a
// tool_result block (is_error from Result.OK, screenshots as image blocks).
// It uses only the standard library: the adapter is the JSON, ~100 lines, and
// the same shape fits any LLM API with tool calling.
//
//	ANTHROPIC_API_KEY=… go run ./examples/llmadapter -task "Find the price of the cheapest plan" -url https://example.com
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"net/http"
	"os"
	"time"

	"github.com/rodagent/rodagent"
	"github.com/rodagent/rodagent/agenttool"
)

func main() {
	task := flag.String("task", "", "what the model should do in the browser")
	start := flag.String("url", "", "the page to start on")
	model := flag.String("model", "claude-sonnet-4-5", "the model to ask")
	flag.Parse()
	api := apiClient{base: envOr("ANTHROPIC_BASE_URL", "https://api.anthropic.com"), key: os.Getenv("ANTHROPIC_API_KEY"), model: *model}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	b, err := rodagent.Launch(ctx)
	if err != nil {
		log.Fatal(err)
	}
	defer b.Close()
	answer, err := run(ctx, api, agenttool.New(b), "Start at "+*start+". "+*task, 30)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(answer)
}

func envOr(k, def string) string {
	if v := os.Getenv(k); v != "" {
		return v
	}
	return def
}

// block is one content block of a Messages API message.
type block struct {
	Type      string          `json:"type"`
	Text      string          `json:"text,omitempty"`
	ID        string          `json:"id,omitempty"`          // tool_use
	Name      string          `json:"name,omitempty"`        // tool_use
	Input     json.RawMessage `json:"input,omitempty"`       // tool_use
	ToolUseID string          `json:"tool_use_id,omitempty"` // tool_result
	IsError   bool            `json:"is_error,omitempty"`    // tool_result
	Content   []block         `json:"content,omitempty"`     // tool_result
	Source    *imageSource    `json:"source,omitempty"`      // image
}

type imageSource struct {
	Type      string `json:"type"` // base64
	MediaType string `json:"media_type"`
	Data      []byte `json:"data"` // encoding/json writes []byte as base64
}

type message struct {
	Role    string  `json:"role"`
	Content []block `json:"content"`
}

type apiClient struct{ base, key, model string }

// send posts the conversation and returns the model's reply and why it stopped.
func (c apiClient) send(ctx context.Context, tools []map[string]any, msgs []message) (message, string, error) {
	body, err := json.Marshal(map[string]any{"model": c.model, "max_tokens": 4096, "tools": tools, "messages": msgs})
	if err != nil {
		return message{}, "", err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/v1/messages", bytes.NewReader(body))
	if err != nil {
		return message{}, "", err
	}
	req.Header.Set("content-type", "application/json")
	req.Header.Set("x-api-key", c.key)
	req.Header.Set("anthropic-version", "2023-06-01")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return message{}, "", err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		msg, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
		return message{}, "", fmt.Errorf("messages API: %s: %s", resp.Status, msg)
	}
	var out struct {
		Content    []block `json:"content"`
		StopReason string  `json:"stop_reason"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		return message{}, "", err
	}
	return message{Role: "assistant", Content: out.Content}, out.StopReason, nil
}

// run is the loop: ask, run every tool call, answer with the results, until
// the model stops calling tools (or turns run out). It returns the model's
// last text.
func run(ctx context.Context, api apiClient, tool *agenttool.Tool, task string, turns int) (string, error) {
	var tools []map[string]any
	for _, s := range tool.Specs() {
		tools = append(tools, map[string]any{"name": s.Name, "description": s.Description, "input_schema": s.Schema})
	}
	msgs := []message{{Role: "user", Content: []block{{Type: "text", Text: task}}}}
	for range turns {
		reply, stop, err := api.send(ctx, tools, msgs)
		if err != nil {
			return "", err
		}
		msgs = append(msgs, reply)
		var results []block
		var said string
		for _, b := range reply.Content {
			switch b.Type {
			case "text":
				said = b.Text
			case "tool_use":
				res, err := tool.Call(ctx, b.Input)
				if err != nil {
					return "", err // the browser is gone: nothing the model can do
				}
				results = append(results, toolResult(b.ID, res))
			}
		}
		if stop != "tool_use" || len(results) == 0 {
			return said, nil
		}
		msgs = append(msgs, message{Role: "user", Content: results})
	}
	return "", fmt.Errorf("no answer after %d turns", turns)
}

// toolResult is the tool_result block for one call.
func toolResult(id string, res agenttool.Result) block {
	b := block{Type: "tool_result", ToolUseID: id, IsError: !res.OK, Content: []block{{Type: "text", Text: res.Text}}}
	if res.Image != nil {
		b.Content = append(b.Content, block{Type: "image", Source: &imageSource{Type: "base64", MediaType: res.Image.MIMEType, Data: res.Image.Data}})
	}
	return b
}
