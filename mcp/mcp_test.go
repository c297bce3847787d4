package mcp_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/rodagent/rodagent"
	"github.com/rodagent/rodagent/agenttool"
	"github.com/rodagent/rodagent/browsertest"
	"github.com/rodagent/rodagent/mcp"
)

// binDir holds the rodagent binary, built once for the tests that start it.
var binDir string

func TestMain(m *testing.M) {
	browsertest.Options(rodagent.WithApprover(mcp.Approver()))
	dir, err := os.MkdirTemp("", "rodagent-mcp-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binDir = dir
	code := browsertest.Main(m)
	os.RemoveAll(dir)
	os.Exit(code)
}

// site is a sign-in form, a list with confirm-to-delete rows and an upload.
func site() http.Handler {
	mux := http.NewServeMux()
	page := func(path, body string) {
		mux.HandleFunc(path, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprint(w, `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"></head><body>`+body+`</body></html>`)
		})
	}
	page("/signin", `<main><h1>Sign in</h1><form action="/welcome" method="get">
		<label>Email <input type="email" name="email"></label>
		<label>Password <input type="password" name="password"></label>
		<button type="submit">Sign in</button></form></main>`)
	mux.HandleFunc("/welcome", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<!doctype html><html><head><link rel="icon" href="data:,"></head><body><main><h1>Welcome, %s</h1></main></body></html>`,
			strings.ReplaceAll(r.URL.Query().Get("email"), "<", ""))
	})
	page("/rows", `<main><h1>Rows</h1><ul>
		<li>Row A <button onclick="if (confirm('Delete row A?')) this.parentNode.remove()">Delete A</button></li>
		<li>Row B <button>Keep B</button></li></ul>
		<label>Attachment <input type="file" onchange="document.getElementById('got').textContent = 'Got ' + this.files[0].name"></label>
		<p id="got"></p></main>`)
	return mux
}

var (
	buildOnce sync.Once
	buildErr  error
)

// buildBinary builds cmd/rodagent once per test binary (go build, not go run
// per test) and returns its path.
func buildBinary(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(binDir, "rodagent")
	buildOnce.Do(func() {
		out, err := exec.Command("go", "build", "-o", bin, "github.com/rodagent/rodagent/cmd/rodagent").CombinedOutput()
		if err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return bin
}

type session struct {
	t  *testing.T
	cs *sdk.ClientSession
}

func (s session) call(name string, args any) *sdk.CallToolResult {
	s.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	res, err := s.cs.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		s.t.Fatalf("CallTool(%s, %v): %v", name, args, err)
	}
	return res
}

// ok runs a call that must succeed and returns its text.
func (s session) ok(args map[string]any) string {
	s.t.Helper()
	res := s.call("browser", args)
	if res.IsError {
		s.t.Fatalf("%v: isError:\n%s", args, text(res))
	}
	return text(res)
}

func text(res *sdk.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// The acceptance loop: the built binary over a command transport, driven by
// an SDK client whose person approves each acting call by elicitation.
func TestBinaryOverCommandTransport(t *testing.T) {
	t.Parallel()
	url := browsertest.Serve(t, site())
	bin := buildBinary(t)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "invoice.pdf"), []byte("%PDF-1.4"), 0o600); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var asked []string
	client := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "v0"}, &sdk.ClientOptions{
		ElicitationHandler: func(ctx context.Context, req *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
			mu.Lock()
			asked = append(asked, req.Params.Message)
			mu.Unlock()
			return &sdk.ElicitResult{Action: "accept", Content: map[string]any{"approve": true}}, nil
		},
	})
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.Command(bin, "mcp", "--upload-dir", dir)
	cmd.Stderr = os.Stderr
	cs, err := client.Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	s := session{t, cs}

	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(tools.Tools) != 1 || tools.Tools[0].Name != "browser" {
		t.Fatalf("one browser tool, got %+v", tools.Tools)
	}
	schema, _ := json.Marshal(tools.Tools[0].InputSchema)
	if !strings.Contains(string(schema), `"upload"`) || strings.Contains(string(schema), `"eval"`) {
		t.Errorf("the schema offers upload (an upload dir is set) and no eval:\n%s", schema)
	}

	// A confirm dialog, accepted through the tool.
	s.ok(map[string]any{"action": "open", "url": url + "/rows"})
	s.ok(map[string]any{"action": "dialog", "accept": true})
	if out := s.ok(map[string]any{"action": "click", "ref": "btn-delete-a"}); !strings.Contains(out, "answered as armed: accepted") ||
		!strings.Contains(out, "- btn-delete-a") {
		t.Errorf("the row is deleted after the accepted confirm:\n%s", out)
	}
	// An upload inside the allowed directory.
	s.ok(map[string]any{"action": "upload", "ref": "btn-attachment", "paths": []string{"invoice.pdf"}})
	if out := s.ok(map[string]any{"action": "text"}); !strings.Contains(out, `"Got invoice.pdf"`) {
		t.Errorf("the upload landed:\n%s", out)
	}
	// isError for a bad ref and for missing arguments, with the reason.
	res := s.call("browser", map[string]any{"action": "click", "ref": "btn-no-such"})
	if !res.IsError || !strings.Contains(text(res), "not_found") {
		t.Errorf("a bad ref: isError=%v\n%s", res.IsError, text(res))
	}
	res = s.call("browser", map[string]any{"action": "type", "ref": "btn-keep-b"})
	if !res.IsError || !strings.Contains(text(res), "type needs text") || !strings.Contains(text(res), "expected:") {
		t.Errorf("missing arguments: isError=%v\n%s", res.IsError, text(res))
	}
	res = s.call("browser", nil)
	if !res.IsError || !strings.Contains(text(res), "bad input") {
		t.Errorf("no arguments at all: isError=%v\n%s", res.IsError, text(res))
	}
	out := s.ok(map[string]any{"action": "open", "url": url + "/signin"})
	if !strings.Contains(out, "inp-email") {
		t.Fatalf("open shows the form:\n%s", out)
	}
	s.ok(map[string]any{"action": "snapshot"})
	s.ok(map[string]any{"action": "type", "ref": "inp-email", "text": "ada@example.com"})
	s.ok(map[string]any{"action": "type", "ref": "inp-password", "text": "hunter2"})
	res = s.call("browser", map[string]any{"action": "click", "ref": "btn-sign-in"})
	facts, _ := json.Marshal(res.StructuredContent)
	if res.IsError || !strings.Contains(string(facts), `"navigated":true`) {
		t.Errorf("the sign-in click navigates: isError=%v %s\n%s", res.IsError, facts, text(res))
	}
	if out := s.ok(map[string]any{"action": "text"}); !strings.Contains(out, `"Welcome, ada@example.com"`) {
		t.Errorf("the welcome text:\n%s", out)
	}
	mu.Lock()
	if len(asked) < 4 || !strings.Contains(strings.Join(asked, "\n"), `click btn-sign-in (button "Sign in")`) {
		t.Errorf("each acting call is asked about, with what it acts on:\n%s", strings.Join(asked, "\n"))
	}
	mu.Unlock()

	res = s.call("browser", map[string]any{"action": "screenshot"})
	var img *sdk.ImageContent
	for _, c := range res.Content {
		if ic, ok := c.(*sdk.ImageContent); ok {
			img = ic
		}
	}
	if res.IsError || img == nil || img.MIMEType != "image/png" || len(img.Data) < 100 {
		t.Errorf("a screenshot is MCP image content: %+v", res.Content)
	}
}

// rodagent mcp --http serves streamable HTTP on loopback; elicitation works
// over it, and the server ends on SIGINT.
func TestBinaryOverStreamableHTTP(t *testing.T) {
	t.Parallel()
	url := browsertest.Serve(t, site())
	bin := buildBinary(t)
	cmd := exec.Command(bin, "mcp", "--http", "127.0.0.1:0")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	endpoint := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if rest, ok := strings.CutPrefix(sc.Text(), "rodagent mcp: streamable HTTP at "); ok {
				endpoint <- rest
			}
		}
		exited <- cmd.Wait()
	}()
	stopped := false
	defer func() {
		if !stopped {
			_ = cmd.Process.Kill() // our own child, when the graceful stop below did not happen
			<-exited
		}
	}()
	var addr string
	select {
	case addr = <-endpoint:
	case err := <-exited:
		stopped = true
		t.Fatalf("rodagent mcp --http exited: %v", err)
	case <-time.After(90 * time.Second):
		t.Fatal("rodagent mcp --http did not say where it listens")
	}
	if !strings.HasPrefix(addr, "http://127.0.0.1:") || !strings.HasSuffix(addr, "/mcp") {
		t.Fatalf("endpoint %q", addr)
	}
	var asked atomic.Int32
	client := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "v0"}, &sdk.ClientOptions{
		ElicitationHandler: func(ctx context.Context, req *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
			asked.Add(1)
			return &sdk.ElicitResult{Action: "accept", Content: map[string]any{"approve": true}}, nil
		},
	})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cs, err := client.Connect(ctx, &sdk.StreamableClientTransport{Endpoint: addr}, nil)
	if err != nil {
		t.Fatal(err)
	}
	s := session{t, cs}
	s.ok(map[string]any{"action": "open", "url": url + "/rows"})
	if out := s.ok(map[string]any{"action": "click", "ref": "btn-keep-b"}); !strings.Contains(out, "click btn-keep-b → ready") {
		t.Errorf("click over HTTP:\n%s", out)
	}
	if n := asked.Load(); n != 2 {
		t.Errorf("open and click are asked about over HTTP: %d questions", n)
	}
	_ = cs.Close()
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-exited:
		stopped = true
		if err != nil {
			t.Errorf("rodagent mcp --http after SIGINT: %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Error("rodagent mcp --http did not stop on SIGINT")
	}
}

// connect serves a server in-process and connects a client to it.
func connect(t *testing.T, srv *mcp.Server, opts *sdk.ClientOptions, protocol string) session {
	t.Helper()
	ctx := context.Background()
	st, ct := sdk.NewInMemoryTransports()
	ss, err := srv.MCP().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ss.Close() })
	var copts *sdk.ClientSessionOptions
	if protocol != "" {
		copts = &sdk.ClientSessionOptions{ProtocolVersion: protocol}
	}
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "v0"}, opts).Connect(ctx, ct, copts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	return session{t, cs}
}

func newTool(t *testing.T, opts ...agenttool.Option) *agenttool.Tool {
	tool := agenttool.New(browsertest.Browser(t), opts...)
	t.Cleanup(func() { _ = tool.Close() })
	return tool
}

// Approvals by elicitation, on the current protocol (the client retries with
// the answer) and on an older one (the server asks and re-runs the call).
func TestElicitation(t *testing.T) {
	t.Parallel()
	url := browsertest.Serve(t, site())
	for _, protocol := range []string{"", "2025-06-18"} {
		t.Run("protocol="+protocol, func(t *testing.T) {
			answer := true
			var asked []string
			var mu sync.Mutex
			opts := &sdk.ClientOptions{ElicitationHandler: func(ctx context.Context, req *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
				mu.Lock()
				defer mu.Unlock()
				asked = append(asked, req.Params.Message)
				return &sdk.ElicitResult{Action: "accept", Content: map[string]any{"approve": answer}}, nil
			}}
			s := connect(t, mcp.New(newTool(t)), opts, protocol)
			s.ok(map[string]any{"action": "open", "url": url + "/rows"})
			s.ok(map[string]any{"action": "snapshot"})
			s.ok(map[string]any{"action": "text"})
			mu.Lock()
			if len(asked) != 1 || !strings.Contains(asked[0], "open") {
				t.Errorf("only the open is asked about, reads are not: %q", asked)
			}
			answer = false
			mu.Unlock()
			res := s.call("browser", map[string]any{"action": "click", "ref": "btn-delete-a"})
			if !res.IsError || !strings.Contains(text(res), "did not allow click btn-delete-a") {
				t.Errorf("a declined click: isError=%v\n%s", res.IsError, text(res))
			}
			res = s.call("browser", map[string]any{"action": "tab_close"})
			if !res.IsError || !strings.Contains(text(res), "did not allow close") {
				t.Errorf("tab_close is asked about too: isError=%v\n%s", res.IsError, text(res))
			}
		})
	}
}

// A host without elicitation cannot be asked: acting calls are refused with
// the reason and the flag, reads run; with ApproveAll everything runs.
func TestNoElicitation(t *testing.T) {
	t.Parallel()
	url := browsertest.Serve(t, site())
	s := connect(t, mcp.New(newTool(t)), nil, "")
	res := s.call("browser", map[string]any{"action": "open", "url": url + "/rows"})
	if !res.IsError || !strings.Contains(text(res), "--approve=all") {
		t.Errorf("acting without a way to ask: isError=%v\n%s", res.IsError, text(res))
	}
	s.ok(map[string]any{"action": "tabs"})

	s = connect(t, mcp.New(newTool(t), mcp.WithApproval(mcp.ApproveAll)), nil, "")
	s.ok(map[string]any{"action": "open", "url": url + "/rows"})
	s.ok(map[string]any{"action": "click", "ref": "btn-keep-b"})

	s = connect(t, mcp.New(newTool(t), mcp.WithApproval(mcp.ApproveNone)), nil, "")
	if res := s.call("browser", map[string]any{"action": "tabs"}); !res.IsError {
		t.Errorf("with ApproveNone even reads are asked, and cannot be:\n%s", text(res))
	}
}

// With ApproveAll nothing is asked — except Enter, which always asks when the
// host can ask.
func TestApproveAllStillAsksEnter(t *testing.T) {
	t.Parallel()
	url := browsertest.Serve(t, site())
	var asked []string
	var mu sync.Mutex
	opts := &sdk.ClientOptions{ElicitationHandler: func(ctx context.Context, req *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
		mu.Lock()
		defer mu.Unlock()
		asked = append(asked, req.Params.Message)
		return &sdk.ElicitResult{Action: "decline"}, nil
	}}
	s := connect(t, mcp.New(newTool(t), mcp.WithApproval(mcp.ApproveAll)), opts, "")
	s.ok(map[string]any{"action": "open", "url": url + "/signin"})
	s.ok(map[string]any{"action": "type", "ref": "inp-email", "text": "ada@example.com"})
	res := s.call("browser", map[string]any{"action": "press", "key": "Enter"})
	if !res.IsError || !strings.Contains(text(res), "did not allow press") {
		t.Errorf("a declined Enter: isError=%v\n%s", res.IsError, text(res))
	}
	mu.Lock()
	defer mu.Unlock()
	if len(asked) != 1 || !strings.Contains(asked[0], `press "Enter"`) {
		t.Errorf("only Enter is asked about: %q", asked)
	}
}

// One tool per verb, with read-only hints; structured facts beside the text.
func TestPerVerbTools(t *testing.T) {
	t.Parallel()
	url := browsertest.Serve(t, site())
	s := connect(t, mcp.New(newTool(t, agenttool.WithToolPerVerb()), mcp.WithApproval(mcp.ApproveAll)), nil, "")
	tools, err := s.cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	readOnly := map[string]bool{}
	for _, tool := range tools.Tools {
		readOnly[tool.Name] = tool.Annotations != nil && tool.Annotations.ReadOnlyHint
	}
	for _, name := range []string{"browser_snapshot", "browser_text", "browser_tabs", "browser_console", "browser_screenshot"} {
		if !readOnly[name] {
			t.Errorf("%s is read-only", name)
		}
	}
	for _, name := range []string{"browser_click", "browser_type", "browser_tab_close", "browser_open"} {
		if ro, ok := readOnly[name]; !ok || ro {
			t.Errorf("%s is listed and not read-only (listed %v)", name, ok)
		}
	}
	if _, ok := readOnly["browser_eval"]; ok {
		t.Error("eval is off unless enabled")
	}
	res := s.call("browser_open", map[string]any{"url": url + "/signin"})
	if res.IsError {
		t.Fatal(text(res))
	}
	facts, _ := json.Marshal(res.StructuredContent)
	var r agenttool.Result
	if err := json.Unmarshal(facts, &r); err != nil || !r.OK || !r.Navigated || r.Tab == "" || !strings.HasSuffix(r.URL, "/signin") {
		t.Errorf("structured facts: %s (%v)", facts, err)
	}
	res = s.call("browser_click", map[string]any{})
	if !res.IsError || !strings.Contains(text(res), "click needs ref") {
		t.Errorf("browser_click without ref: %s", text(res))
	}
}
