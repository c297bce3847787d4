package agenttool_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/rodagent/rodagent"
	"github.com/rodagent/rodagent/agenttool"
)

// A model signs in through the tool: each call is the JSON a model would send,
// and each Result carries the text for the model and the facts for the program.
func ExampleNew() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		if r.URL.Path == "/welcome" {
			fmt.Fprint(w, `<main><h1>Welcome</h1></main>`)
			return
		}
		fmt.Fprint(w, `<main><form action="/welcome"><label>Email <input name="email"></label><button>Sign in</button></form></main>`)
	}))
	defer srv.Close()

	ctx := context.Background()
	b, err := rodagent.Launch(ctx, rodagent.WithDownload(false))
	if err != nil {
		log.Fatal(err)
	}
	defer b.Close()
	tool := agenttool.New(b)
	defer tool.Close()

	for _, input := range []string{
		`{"action":"open","url":"` + srv.URL + `/"}`,
		`{"action":"type","ref":"inp-email","text":"ada@example.com"}`,
		`{"action":"click","ref":"btn-sign-in"}`,
	} {
		res, err := tool.Call(ctx, json.RawMessage(input))
		if err != nil {
			log.Fatal(err) // the browser is gone
		}
		fmt.Println(res.OK, res.Status, res.Navigated)
	}
	// Output:
	// true ok true
	// true ready false
	// true ready true
}

// A Result tells an adapter what happened without parsing the text: here,
// input the tool refuses before touching the browser. The model reads Text.
func ExampleResult() {
	tool := agenttool.New(nil) // no browser is needed to refuse bad input
	res, err := tool.Call(context.Background(), json.RawMessage(`{"action":"click"}`))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("ok:", res.OK)
	fmt.Println("status:", res.Status)
	fmt.Print(res.Text)
	// Output:
	// ok: false
	// status: bad_input
	// bad input: click needs ref
	// expected: {"action":"click","ref":"…"} (optional: tab)
}

// An adapter sketch: the tool as Anthropic's Messages API takes it in "tools",
// and the tool_result block that goes back for a tool_use block — what an
// adapter to any LLM SDK does, in a few lines. (examples/llmadapter runs the
// whole loop over HTTP with the standard library.)
func ExampleTool_Specs() {
	tool := agenttool.New(nil)
	var tools []map[string]any
	for _, s := range tool.Specs() {
		tools = append(tools, map[string]any{"name": s.Name, "description": s.Description, "input_schema": s.Schema})
	}
	fmt.Println(len(tools), "tool:", tools[0]["name"])

	// The model answered with {"type":"tool_use","id":"toolu_1","name":"browser","input":{…}}:
	use := struct {
		ID    string          `json:"id"`
		Input json.RawMessage `json:"input"`
	}{"toolu_1", json.RawMessage(`{"action":"scroll"}`)}
	res, err := tool.Call(context.Background(), use.Input)
	if err != nil {
		log.Fatal(err)
	}
	block := map[string]any{"type": "tool_result", "tool_use_id": use.ID, "is_error": !res.OK,
		"content": []map[string]any{{"type": "text", "text": res.Text}}}
	out, _ := json.Marshal(block)
	fmt.Println(string(out))
	// Output:
	// 1 tool: browser
	// {"content":[{"text":"bad input: scroll needs direction (up, down, left, right) or ref\nexpected: {\"action\":\"scroll\"} (optional: direction, amount, ref, tab)\n","type":"text"}],"is_error":true,"tool_use_id":"toolu_1","type":"tool_result"}
}

// The tool as a model uses it: each call is the JSON the model sent, each
// answer the text it reads. After an action the answer carries what moved; a
// failure carries its status and the next move.
func ExampleTool_Call() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<main><h1>Shop</h1>
			<button onclick="this.textContent = 'Added'">Add to cart</button>
			<button disabled>Checkout</button></main>`)
	}))
	defer srv.Close()
	b, err := rodagent.Launch(ctx, rodagent.WithDownload(false))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer b.Close()
	tool := agenttool.New(b)

	for _, input := range []string{
		`{"action":"tab_new","url":"` + srv.URL + `"}`,
		`{"action":"click","ref":"btn-add-to-cart"}`,
		`{"action":"click","ref":"btn-checkout"}`,
	} {
		res, err := tool.Call(ctx, json.RawMessage(input))
		if err != nil {
			fmt.Println(err)
			return
		}
		// Print each action's status, its button's change and the next move
		// (the rest is the page, and a new tab's id and port are random).
		for line := range strings.SplitSeq(res.Text, "\n") {
			if strings.HasPrefix(line, "click ") || strings.HasPrefix(line, "next:") || strings.HasPrefix(line, "~ btn-add-to-cart name=") {
				fmt.Println(strings.TrimSpace(line))
			}
		}
	}
	// Output:
	// click btn-add-to-cart → ready
	// ~ btn-add-to-cart name="Added"
	// click btn-checkout → disabled
	// next: element is disabled — complete what enables it, or pick another
}

// With a download directory the tool offers the download verb: the model
// clicks a download link by ref, the file is saved there, and the Result
// names it for the program.
func ExampleWithDownloadDir() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/report.csv" {
			w.Header().Set("Content-Disposition", `attachment; filename="report.csv"`)
			fmt.Fprint(w, "month,total\nmay,42\n")
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<main><a href="/report.csv">Get report</a></main>`)
	}))
	defer srv.Close()
	dir, err := os.MkdirTemp("", "downloads-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)

	ctx := context.Background()
	b, err := rodagent.Launch(ctx, rodagent.WithDownload(false))
	if err != nil {
		log.Fatal(err)
	}
	defer b.Close()
	tool := agenttool.New(b, agenttool.WithDownloadDir(dir))
	defer tool.Close()
	for _, input := range []string{
		`{"action":"open","url":"` + srv.URL + `/"}`,
		`{"action":"download","ref":"lnk-get-report"}`,
	} {
		res, err := tool.Call(ctx, json.RawMessage(input))
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(res.OK, res.Status, filepath.Base(res.File))
	}
	// Output:
	// true ok .
	// true ready report.csv
}
