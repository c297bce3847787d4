package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/rodagent/rodagent"
)

// Exit codes of the CLI verbs. A failed action exits with its status's code,
// so a shell script can branch on it without parsing text.
const (
	exitOK      = 0
	exitError   = 1 // anything else
	exitUsage   = 2 // the command line (or the request it made) is wrong
	exitNoServe = 3 // no server could be started or reached, or its browser is gone
	exitAuth    = 4 // the server refused the session's token
)

// exitCodes maps each status of the API to the CLI's exit code.
var exitCodes = map[string]int{
	"bad_request": exitUsage, "bad_locator": exitUsage, "no_such_route": exitUsage,
	"browser_gone": exitNoServe, "no_browser": exitNoServe,
	"unauthorized":               exitAuth,
	"not_found":                  10,
	"stale_ref_unresolved":       11,
	"page_changed":               12,
	"zero_rect":                  13,
	"not_visible":                14,
	"obscured":                   15,
	"disabled":                   16,
	"not_editable":               17,
	"not_a_select":               18,
	"ambiguous":                  19,
	"frame_unreachable":          20,
	"unsupported_key":            21,
	"no_such_tab":                22,
	"timeout":                    23,
	"native_backend_unavailable": 24,
	"not_changed":                25,
	"not_allowed":                26, "denied": 26,
	"navigation_failed": 27,
	"page_crashed":      28,
	"eval_error":        29,
	"body_too_large":    30,
}

// verb is one CLI command: its usage line, a one-line example, and how it
// turns its arguments into one request.
type verb struct {
	name, args, example, help string
	run                       func(c *cli, fs *flag.FlagSet, args []string) error
}

var verbs []verb

func init() {
	verbs = []verb{
		{"open", "URL", "rodagent open https://example.com/login", "navigate the current tab (opens one if needed)", cmdOpen},
		{"snapshot", "[--full] [--aria] [--limit N]", "rodagent snapshot --full", "what the page shows, as refs; after the first look, what moved", cmdSnapshot},
		{"click", "TARGET [--double|--right]", `rodagent click btn-sign-in    or    rodagent click 'role=button[name="Save"]'`, "click a ref or a locator", cmdTarget("click")},
		{"type", "TARGET TEXT [--submit]", "rodagent type inp-email me@example.com", "replace a field's text (--submit presses Enter after)", cmdType("type")},
		{"fill", "TARGET TEXT", "rodagent fill 'label=\"Email\"' me@example.com", "replace a field's text exactly", cmdType("fill")},
		{"press", "KEY", "rodagent press Enter", "press a key on what has focus (Enter, Tab, Shift+Tab, Escape, arrows, …)", cmdPress},
		{"hover", "TARGET", "rodagent hover lnk-products", "move the pointer over an element", cmdTarget("hover")},
		{"select", "TARGET VALUE...", "rodagent select cmb-country France", "choose options of a native <select>", cmdSelect},
		{"check", "TARGET", "rodagent check chk-remember-me", "make sure a checkbox, radio or switch is checked", cmdTarget("check")},
		{"uncheck", "TARGET", "rodagent uncheck chk-newsletter", "make sure a checkbox or switch is not checked", cmdTarget("uncheck")},
		{"upload", "TARGET FILE...", "rodagent upload inp-attachments ./report.pdf", "put files into a file input or what opens a chooser", cmdUpload},
		{"download", "TARGET", "rodagent download lnk-report", "click what downloads a file and save the file (only on a serve started with --download-dir)", cmdDownload},
		{"drag", "FROM TO", "rodagent drag el-card-1 el-done-column", "drag one element onto another", cmdDrag},
		{"wait", "[TARGET] [--gone] [--text S] [--url RE] [--load|--idle]", `rodagent wait --text "Welcome"`, "wait until something holds (bounded by --timeout)", cmdWait},
		{"screenshot", "[--annotate] [--full] FILE", "rodagent screenshot page.png", "save a PNG of the tab", cmdScreenshot},
		{"pdf", "FILE", "rodagent pdf page.pdf", "save the tab as PDF", cmdPDF},
		{"tabs", "[open URL | focus ID | close ID]", "rodagent tabs", "list tabs (id and origin), or open, focus, close one", cmdTabs},
		{"dialog", "accept|dismiss [--text PROMPT]", "rodagent dialog accept && rodagent click btn-delete", "answer the next dialog of the tab (arm first, then act)", cmdDialog},
		{"console", "[--level L]", "rodagent console --level error", "the tab's console messages", cmdConsole},
		{"eval", "JS", `rodagent eval "document.title"`, "run a script in the tab (only on a serve started with --allow-eval)", cmdEval},
		{"status", "", "rodagent status", "whether the session's server and browser run", cmdStatus},
		{"stop", "", "rodagent stop", "close the browser and end the session's server", cmdStop},
	}
}

func printHelp(w io.Writer) {
	fmt.Fprint(w, `rodagent drives a real Chromium for AI agents.

  rodagent serve [flags]     the browser control API over HTTP (rodagent serve -h)
  rodagent mcp               an MCP server over stdio
  rodagent VERB [flags] ARGS one step on the session's browser, starting a
                             background serve on first use

Verbs (TARGET is a ref from the snapshot, e.g. btn-sign-in, or a locator such
as role=button[name="Save"], label="Email", text="Sign in", testid=total):

`)
	for _, v := range verbs {
		fmt.Fprintf(w, "  %-10s %-44s %s\n", v.name, v.args, v.help)
		fmt.Fprintf(w, "  %-10s %s\n", "", "e.g. "+v.example)
	}
	fmt.Fprint(w, `
Flags of every verb: --session NAME ($RODAGENT_SESSION, default "default"),
--state-dir DIR ($RODAGENT_STATE_DIR), --json (the server's JSON answer),
--timeout DURATION (default 60s).

Exit codes: 0 done; 1 error; 2 usage; 3 no server or browser; 4 token refused;
10 not_found, 11 stale_ref_unresolved, 12 page_changed, 13 zero_rect,
14 not_visible, 15 obscured, 16 disabled, 17 not_editable, 18 not_a_select,
19 ambiguous, 20 frame_unreachable, 21 unsupported_key, 22 no_such_tab,
23 timeout, 24 native_backend_unavailable, 25 not_changed, 26 not_allowed,
27 navigation_failed, 28 page_crashed, 29 eval_error, 30 body_too_large.
`)
}

// cli is one CLI invocation: the session's server and how to print.
type cli struct {
	ctx     context.Context
	verb    string
	label   string // the step as printed: "click btn-save"
	sess    *session
	token   string
	json    bool
	timeout time.Duration
	stdout  io.Writer
	stderr  io.Writer
}

// answer is the part of every API answer the CLI reads; the rest stays in raw.
type answer struct {
	OK         bool            `json:"ok"`
	Status     string          `json:"status"`
	Error      string          `json:"error"`
	Next       string          `json:"next"`
	Detail     string          `json:"detail"`
	Candidates []string        `json:"candidates"`
	Snapshot   string          `json:"snapshot"`
	URL        string          `json:"url"`
	TargetID   string          `json:"targetId"`
	Data       string          `json:"data"`
	Result     json.RawMessage `json:"result"` // what evaluate returned; kind=download's file
	raw        []byte
}

// apiFailure is an error answer from the server; its status picks the exit code.
type apiFailure struct{ a *answer }

func (e *apiFailure) Error() string { return e.a.Error }

func runCLI(ctx context.Context, name string, args []string, stdout, stderr io.Writer) int {
	var v *verb
	for i := range verbs {
		if verbs[i].name == name {
			v = &verbs[i]
		}
	}
	if v == nil {
		fmt.Fprintf(stderr, "rodagent: unknown command %q (rodagent help lists them)\n", name)
		return exitUsage
	}
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: rodagent %s %s\n  %s\n  e.g. %s\n", v.name, v.args, v.help, v.example)
		fs.PrintDefaults()
	}
	c := &cli{ctx: ctx, verb: name, stdout: stdout, stderr: stderr}
	fs.String("session", defaultSession(), "session name ($RODAGENT_SESSION)")
	fs.String("state-dir", "", "directory of session files ($RODAGENT_STATE_DIR)")
	fs.BoolVar(&c.json, "json", false, "print the server's JSON answer")
	fs.DurationVar(&c.timeout, "timeout", 60*time.Second, "how long the step may take")
	return c.exit(v.run(c, fs, args))
}

// parse reads flags anywhere among the arguments (the flag package stops at
// the first non-flag), then opens the session. "--" ends the flags.
func (c *cli) parse(fs *flag.FlagSet, args []string, min, max int) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if n := len(args) - len(rest); n > 0 && args[n-1] == "--" {
			pos = append(pos, rest...)
			break
		}
		if len(rest) == 0 {
			break
		}
		pos, args = append(pos, rest[0]), rest[1:]
	}
	if len(pos) < min || (max >= 0 && len(pos) > max) {
		fs.Usage()
		return nil, &usageError{fmt.Sprintf("rodagent %s: wrong number of arguments", c.verb)}
	}
	sess, err := newSession(fs.Lookup("session").Value.String(), fs.Lookup("state-dir").Value.String())
	if err != nil {
		return nil, err
	}
	c.sess = sess
	return pos, nil
}

func (c *cli) exit(err error) int {
	if err == nil {
		return exitOK
	}
	if errors.Is(err, flag.ErrHelp) {
		return exitOK
	}
	var af *apiFailure
	var ue *usageError
	switch {
	case errors.As(err, &af):
		if c.json {
			c.stdout.Write(af.a.raw)
		} else {
			c.printFailure(af.a)
		}
		if code, ok := exitCodes[af.a.Status]; ok {
			return code
		}
		return exitError
	case errors.As(err, &ue):
		fmt.Fprintln(c.stderr, err)
		return exitUsage
	case errors.Is(err, errNoServe):
		fmt.Fprintln(c.stderr, err)
		return exitNoServe
	}
	fmt.Fprintln(c.stderr, err)
	return exitError
}

func (c *cli) printFailure(a *answer) {
	label := c.label
	if label == "" {
		label = c.verb
	}
	fmt.Fprintf(c.stderr, "%s → %s\n", label, a.Status)
	if a.Error != "" {
		fmt.Fprintf(c.stderr, "error: %s\n", a.Error)
	}
	if a.Detail != "" {
		fmt.Fprintf(c.stderr, "why: %s\n", a.Detail)
	}
	for _, cand := range a.Candidates {
		fmt.Fprintf(c.stderr, "candidate: %s\n", cand)
	}
	if a.Next != "" {
		fmt.Fprintf(c.stderr, "next: %s\n", a.Next)
	}
}

var errNoServe = errors.New("rodagent: no server")

// connect finds the session's server, starting one in the background when
// none answers. The lock keeps two first calls from starting two.
func (c *cli) connect(start bool) error {
	unlock, err := c.sess.lock()
	if err != nil {
		return err
	}
	defer unlock()
	tok, ok, err := c.sess.load()
	if err != nil {
		return err
	}
	if ok && alive(c.ctx, c.sess.Addr, tok) {
		c.token = tok
		return nil
	}
	if !start {
		return fmt.Errorf("%w: session %q is not running", errNoServe, c.sess.Name)
	}
	if err := c.startServer(); err != nil {
		return err
	}
	tok, ok, err = c.sess.load()
	if err != nil || !ok {
		return fmt.Errorf("%w: the background server wrote no session files (%w); see %s", errNoServe, err, c.sess.path(".log"))
	}
	c.token = tok
	return nil
}

// startServer starts `rodagent serve` for the session, detached from this
// process, and waits for it to say it listens.
func (c *cli) startServer() error {
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("%w: %w", errNoServe, err)
	}
	logf, err := os.OpenFile(c.sess.path(".log"), os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
	if err != nil {
		return fmt.Errorf("%w: %w", errNoServe, err)
	}
	defer logf.Close()
	pr, pw, err := os.Pipe()
	if err != nil {
		return fmt.Errorf("%w: %w", errNoServe, err)
	}
	defer pr.Close()
	cmd := exec.Command(exe, "serve", "--session", c.sess.Name, "--state-dir", c.sess.Dir,
		"--addr", "127.0.0.1:0", "--exit-on-stop", "--ready-fd", "3")
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.ExtraFiles = []*os.File{pw}
	cmd.SysProcAttr = detached()
	err = cmd.Start()
	pw.Close()
	if err != nil {
		return fmt.Errorf("%w: %w", errNoServe, err)
	}
	_ = pr.SetReadDeadline(time.Now().Add(30 * time.Second))
	line, rerr := bufio.NewReader(pr).ReadString('\n')
	if rerr != nil || line != "ready\n" {
		// It exited (EOF) or hung; either way it must not linger.
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		out, _ := os.ReadFile(c.sess.path(".log"))
		return fmt.Errorf("%w: the background server did not start: %s", errNoServe, strings.TrimSpace(string(out)))
	}
	return cmd.Process.Release()
}

// call sends one request to the session's server, starting it if needed,
// and returns the answer; an error answer comes back as *apiFailure.
func (c *cli) call(method, path string, body any) (*answer, error) {
	if err := c.connect(true); err != nil {
		return nil, err
	}
	return c.send(method, path, body)
}

func (c *cli) send(method, path string, body any) (*answer, error) {
	ctx, cancel := context.WithTimeout(c.ctx, c.timeout+5*time.Second)
	defer cancel()
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return nil, err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, "http://"+c.sess.Addr+path, rd)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+c.token)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", errNoServe, err)
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", errNoServe, err)
	}
	a := &answer{raw: raw}
	if err := json.Unmarshal(raw, a); err != nil {
		return nil, fmt.Errorf("rodagent: the server answered %s with no JSON: %.200s", res.Status, raw)
	}
	if !a.OK {
		return nil, &apiFailure{a}
	}
	return a, nil
}

// show prints an answer: the JSON with --json, else what a person reads.
func (c *cli) show(a *answer, text string) error {
	if c.json {
		_, err := c.stdout.Write(a.raw)
		return err
	}
	_, err := io.WriteString(c.stdout, text)
	return err
}

func (c *cli) ms() int { return int(c.timeout / time.Millisecond) }

// act sends POST /act and prints its status and what moved.
func (c *cli) act(req map[string]any, label string) error {
	req["timeoutMs"] = c.ms()
	c.label = label
	a, err := c.call(http.MethodPost, "/act", req)
	if err != nil {
		return err
	}
	return c.show(a, fmt.Sprintf("%s → %s\n%s", label, a.Status, a.Snapshot))
}

func cmdOpen(c *cli, fs *flag.FlagSet, args []string) error {
	pos, err := c.parse(fs, args, 1, 1)
	if err != nil {
		return err
	}
	a, err := c.call(http.MethodPost, "/navigate", map[string]any{"url": pos[0], "timeoutMs": c.ms()})
	if err != nil {
		return err
	}
	return c.show(a, fmt.Sprintf("open → %s\n%s\n", a.Status, shownURL(a.URL)))
}

// shownURL is the tab's URL as the page left it (history.replaceState can
// set any path): as is when every rune of it is visible, else quoted, so it
// stays one line that cannot pass for the CLI's own.
func shownURL(u string) string {
	for _, r := range u {
		if !unicode.In(r, unicode.L, unicode.M, unicode.N, unicode.P, unicode.S) {
			return rodagent.Quote(u, 500)
		}
	}
	return u
}

func cmdSnapshot(c *cli, fs *flag.FlagSet, args []string) error {
	full := fs.Bool("full", false, "the whole inventory, not what moved")
	aria := fs.Bool("aria", false, "the refs as JSON (format=aria) rather than text")
	limit := fs.Int("limit", 0, "characters of text (ai) or number of refs (aria)")
	if _, err := c.parse(fs, args, 0, 0); err != nil {
		return err
	}
	q := url.Values{"format": {"ai"}}
	if *aria {
		q.Set("format", "aria")
		c.json = true // structured refs have no text form
	}
	if *full {
		q.Set("full", "1")
	}
	if *limit > 0 {
		q.Set("limit", strconv.Itoa(*limit))
	}
	a, err := c.call(http.MethodGet, "/snapshot?"+q.Encode(), nil)
	if err != nil {
		return err
	}
	return c.show(a, a.Snapshot)
}

func cmdTarget(kind string) func(c *cli, fs *flag.FlagSet, args []string) error {
	return func(c *cli, fs *flag.FlagSet, args []string) error {
		var double, right *bool
		if kind == "click" {
			double = fs.Bool("double", false, "double-click")
			right = fs.Bool("right", false, "right-click (the page's context menu)")
		}
		pos, err := c.parse(fs, args, 1, 1)
		if err != nil {
			return err
		}
		req := map[string]any{"kind": kind, "ref": pos[0]}
		if double != nil && *double {
			req["doubleClick"] = true
		}
		if right != nil && *right {
			req["button"] = "right"
		}
		return c.act(req, kind+" "+pos[0])
	}
}

func cmdType(kind string) func(c *cli, fs *flag.FlagSet, args []string) error {
	return func(c *cli, fs *flag.FlagSet, args []string) error {
		var submit *bool
		if kind == "type" {
			submit = fs.Bool("submit", false, "press Enter after typing")
		}
		pos, err := c.parse(fs, args, 2, 2)
		if err != nil {
			return err
		}
		req := map[string]any{"kind": kind, "ref": pos[0], "text": pos[1]}
		if submit != nil && *submit {
			req["submit"] = true
		}
		return c.act(req, kind+" "+pos[0])
	}
}

func cmdPress(c *cli, fs *flag.FlagSet, args []string) error {
	pos, err := c.parse(fs, args, 1, 1)
	if err != nil {
		return err
	}
	return c.act(map[string]any{"kind": "press", "key": pos[0]}, "press "+pos[0])
}

func cmdSelect(c *cli, fs *flag.FlagSet, args []string) error {
	pos, err := c.parse(fs, args, 2, -1)
	if err != nil {
		return err
	}
	return c.act(map[string]any{"kind": "select", "ref": pos[0], "values": pos[1:]}, "select "+pos[0])
}

func cmdUpload(c *cli, fs *flag.FlagSet, args []string) error {
	pos, err := c.parse(fs, args, 2, -1)
	if err != nil {
		return err
	}
	paths, err := absPaths(pos[1:])
	if err != nil {
		return err
	}
	return c.act(map[string]any{"kind": "upload", "ref": pos[0], "paths": paths}, "upload "+pos[0])
}

func cmdDownload(c *cli, fs *flag.FlagSet, args []string) error {
	pos, err := c.parse(fs, args, 1, 1)
	if err != nil {
		return err
	}
	c.label = "download " + pos[0]
	a, err := c.call(http.MethodPost, "/act", map[string]any{"kind": "download", "ref": pos[0], "timeoutMs": c.ms()})
	if err != nil {
		return err
	}
	var file struct {
		Name string `json:"name"`
		Path string `json:"path"`
		Size int64  `json:"size"`
	}
	if err := json.Unmarshal(a.Result, &file); err != nil {
		return fmt.Errorf("the server's answer to download has no file: %w", err)
	}
	return c.show(a, fmt.Sprintf("%s → %s\nsaved %s (%d bytes) at %s\n%s", c.label, a.Status,
		rodagent.Quote(file.Name, 200), file.Size, rodagent.Quote(file.Path, 500), a.Snapshot))
}

// absPaths makes file arguments absolute: the server's working directory is
// not the caller's.
func absPaths(in []string) ([]string, error) {
	out := make([]string, len(in))
	for i, p := range in {
		a, err := filepath.Abs(p)
		if err != nil {
			return nil, err
		}
		out[i] = a
	}
	return out, nil
}

func cmdDrag(c *cli, fs *flag.FlagSet, args []string) error {
	pos, err := c.parse(fs, args, 2, 2)
	if err != nil {
		return err
	}
	return c.act(map[string]any{"kind": "drag", "startRef": pos[0], "endRef": pos[1]}, "drag "+pos[0]+" "+pos[1])
}

func cmdWait(c *cli, fs *flag.FlagSet, args []string) error {
	gone := fs.Bool("gone", false, "wait for the target (or --text) to go away")
	text := fs.String("text", "", "wait for this text to show")
	urlRE := fs.String("url", "", "wait for the URL to match this regular expression")
	load := fs.Bool("load", false, "wait for the load event")
	idle := fs.Bool("idle", false, "wait for the network to be idle")
	pos, err := c.parse(fs, args, 0, 1)
	if err != nil {
		return err
	}
	req := map[string]any{"kind": "wait", "gone": *gone, "text": *text, "url": *urlRE}
	label := "wait"
	if len(pos) == 1 {
		req["ref"], label = pos[0], "wait "+pos[0]
	}
	switch {
	case *load:
		req["load"] = "load"
	case *idle:
		req["load"] = "networkidle"
	}
	return c.act(req, label)
}

func cmdScreenshot(c *cli, fs *flag.FlagSet, args []string) error {
	annotate := fs.Bool("annotate", false, "label each ref on the image")
	full := fs.Bool("full", false, "the whole page, not just the viewport")
	ref := fs.String("ref", "", "only this element")
	pos, err := c.parse(fs, args, 1, 1)
	if err != nil {
		return err
	}
	a, err := c.call(http.MethodPost, "/screenshot", map[string]any{"annotate": *annotate, "fullPage": *full, "ref": *ref})
	if err != nil {
		return err
	}
	return c.save(a, pos[0])
}

// save writes an answer's base64 data to file.
func (c *cli) save(a *answer, file string) error {
	data, err := base64.StdEncoding.DecodeString(a.Data)
	if err != nil {
		return fmt.Errorf("rodagent: the server's data: %w", err)
	}
	if err := os.WriteFile(file, data, 0o644); err != nil {
		return err
	}
	if c.json {
		return c.show(a, "")
	}
	fmt.Fprintf(c.stdout, "%s → %s (%d bytes)\n", c.verb, file, len(data))
	return nil
}

func cmdPDF(c *cli, fs *flag.FlagSet, args []string) error {
	pos, err := c.parse(fs, args, 1, 1)
	if err != nil {
		return err
	}
	a, err := c.call(http.MethodPost, "/pdf", map[string]any{})
	if err != nil {
		return err
	}
	return c.save(a, pos[0])
}

// tabLine is one line of the tab list, as the agent tool prints it: the
// origin comes from the page's URL, so it is quoted like all page text.
func tabLine(current bool, id, origin string) string {
	mark := " "
	if current {
		mark = "*"
	}
	return fmt.Sprintf("%s %s %s\n", mark, id, rodagent.Quote(origin, 200))
}

func cmdTabs(c *cli, fs *flag.FlagSet, args []string) error {
	pos, err := c.parse(fs, args, 0, 2)
	if err != nil {
		return err
	}
	var a *answer
	switch {
	case len(pos) == 0:
		a, err = c.call(http.MethodGet, "/tabs", nil)
		if err != nil {
			return err
		}
		var list struct {
			Tabs []struct {
				ID      string `json:"targetId"`
				Origin  string `json:"origin"`
				Current bool   `json:"current"`
			} `json:"tabs"`
		}
		_ = json.Unmarshal(a.raw, &list)
		var b strings.Builder
		for _, t := range list.Tabs {
			b.WriteString(tabLine(t.Current, t.ID, t.Origin))
		}
		return c.show(a, b.String())
	case len(pos) == 2 && pos[0] == "open":
		a, err = c.call(http.MethodPost, "/tabs/open", map[string]any{"url": pos[1]})
	case len(pos) == 2 && pos[0] == "focus":
		a, err = c.call(http.MethodPost, "/tabs/focus", map[string]any{"targetId": pos[1]})
	case len(pos) == 2 && pos[0] == "close":
		a, err = c.call(http.MethodDelete, "/tabs/"+url.PathEscape(pos[1]), nil)
	default:
		fs.Usage()
		return &usageError{"rodagent tabs: open URL, focus ID or close ID"}
	}
	if err != nil {
		return err
	}
	return c.show(a, fmt.Sprintf("tabs %s → %s %s\n", pos[0], a.Status, a.TargetID))
}

func cmdDialog(c *cli, fs *flag.FlagSet, args []string) error {
	text := fs.String("text", "", "text to enter into a prompt")
	pos, err := c.parse(fs, args, 1, 1)
	if err != nil {
		return err
	}
	if pos[0] != "accept" && pos[0] != "dismiss" {
		fs.Usage()
		return &usageError{"rodagent dialog: accept or dismiss"}
	}
	a, err := c.call(http.MethodPost, "/hooks/dialog", map[string]any{"accept": pos[0] == "accept", "promptText": *text, "timeoutMs": c.ms()})
	if err != nil {
		return err
	}
	return c.show(a, fmt.Sprintf("dialog → armed to %s the next dialog\n", pos[0]))
}

func cmdConsole(c *cli, fs *flag.FlagSet, args []string) error {
	level := fs.String("level", "", "only messages of this type (log, warning, error, exception, …)")
	if _, err := c.parse(fs, args, 0, 0); err != nil {
		return err
	}
	a, err := c.call(http.MethodGet, "/console?"+url.Values{"level": {*level}}.Encode(), nil)
	if err != nil {
		return err
	}
	var list struct {
		Messages []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"messages"`
	}
	_ = json.Unmarshal(a.raw, &list)
	var b strings.Builder
	for _, m := range list.Messages {
		fmt.Fprintf(&b, "%s %s\n", m.Type, strconv.Quote(m.Text))
	}
	return c.show(a, b.String())
}

func cmdEval(c *cli, fs *flag.FlagSet, args []string) error {
	pos, err := c.parse(fs, args, 1, 1)
	if err != nil {
		return err
	}
	a, err := c.call(http.MethodPost, "/act", map[string]any{"kind": "evaluate", "fn": pos[0], "timeoutMs": c.ms()})
	if err != nil {
		return err
	}
	var res struct {
		Result json.RawMessage `json:"result"`
	}
	_ = json.Unmarshal(a.raw, &res)
	return c.show(a, string(res.Result)+"\n")
}

func cmdStatus(c *cli, fs *flag.FlagSet, args []string) error {
	if _, err := c.parse(fs, args, 0, 0); err != nil {
		return err
	}
	if err := c.connect(false); err != nil {
		return err
	}
	a, err := c.send(http.MethodGet, "/", nil)
	if err != nil {
		return err
	}
	return c.show(a, fmt.Sprintf("session %s at %s (pid %d)\n", c.sess.Name, c.sess.Addr, c.sess.PID))
}

// cmdStop closes the browser and ends the background server; with no
// server running it does nothing.
func cmdStop(c *cli, fs *flag.FlagSet, args []string) error {
	if _, err := c.parse(fs, args, 0, 0); err != nil {
		return err
	}
	if err := c.connect(false); errors.Is(err, errNoServe) {
		if !c.json {
			fmt.Fprintf(c.stdout, "stop → session %s was not running\n", c.sess.Name)
		}
		return nil
	} else if err != nil {
		return err
	}
	a, err := c.send(http.MethodPost, "/stop", nil)
	if err != nil {
		return err
	}
	return c.show(a, fmt.Sprintf("stop → session %s stopped\n", c.sess.Name))
}
