package agenttool

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/rodagent/rodagent"
)

const (
	defaultWait = 10 * time.Second
	maxWait     = 60000 // milliseconds
	// dialogArm is how long an armed dialog answer waits for its dialog: a
	// model's next turn (the click that opens the dialog) can take a while.
	dialogArm = 2 * time.Minute
	// consoleLines caps the console verb's output to the most recent messages.
	consoleLines = 50
)

// label names a call in its answer: "click btn-save", "press Enter".
func label(in Input) string {
	ref, key, dir, until := echo(in.Ref), echo(in.Key), echo(in.Direction), echo(in.Until)
	switch {
	case in.Ref != "" && in.Direction != "":
		return in.Action + " " + ref + " " + dir
	case in.Ref != "" && in.Action != "wait":
		return in.Action + " " + ref
	case in.Key != "":
		return in.Action + " " + key
	case in.Direction != "":
		return in.Action + " " + dir
	case in.Until != "":
		return in.Action + " until=" + until
	}
	return in.Action
}

// echo shows a string of the model's input as it is when every rune of it is
// visible (or a plain space), else quoted: a ref or key copied from page text
// can carry a line break, and the line it starts would pass for the tool's own.
func echo(s string) string {
	for _, r := range s {
		if r != ' ' && !unicode.In(r, unicode.L, unicode.M, unicode.N, unicode.P, unicode.S) {
			return rodagent.Quote(s, 200)
		}
	}
	return s
}

// act runs the verbs that act on an element or key, through the library.
func (t *Tool) act(ctx context.Context, p *rodagent.Page, in Input) (Result, error) {
	var st rodagent.ActionStatus
	var err error
	switch in.Action {
	case "click":
		st, err = p.Click(ctx, in.Ref)
	case "dblclick":
		st, err = p.DblClick(ctx, in.Ref)
	case "rightclick":
		st, err = p.RightClick(ctx, in.Ref)
	case "hover":
		st, err = p.Hover(ctx, in.Ref)
	case "focus":
		st, err = p.Focus(ctx, in.Ref)
	case "type":
		st, err = p.Type(ctx, in.Ref, in.Text)
	case "press":
		st, err = p.Press(ctx, in.Key)
	case "check":
		st, err = p.Check(ctx, in.Ref)
	case "uncheck":
		st, err = p.Uncheck(ctx, in.Ref)
	case "select":
		st, err = p.Select(ctx, in.Ref, in.Values...)
	case "drag":
		st, err = p.Drag(ctx, in.Ref, in.To)
	case "scroll":
		switch {
		case in.Ref != "" && in.Direction != "":
			st, err = p.ScrollAt(ctx, in.Ref, in.Direction, in.Amount)
		case in.Ref != "":
			st, err = p.Scroll(ctx, in.Ref, 0)
		default:
			st, err = p.Scroll(ctx, in.Direction, in.Amount)
		}
	default:
		return Result{}, fmt.Errorf("agenttool: no handler for %q", in.Action) // the verb table and this switch disagree
	}
	if err != nil {
		return Result{}, err
	}
	return t.acted(ctx, p, in, st), nil
}

// acted is the answer to a successful action: its status and what moved.
func (t *Tool) acted(ctx context.Context, p *rodagent.Page, in Input, st rodagent.ActionStatus) Result {
	text := fmt.Sprintf("%s → %s\n", label(in), st)
	if t.after {
		text += t.look(ctx, p, false)
	}
	return Result{OK: true, Status: string(st), Text: text, Navigated: p.LastAction().Navigated}
}

func (t *Tool) snapshot(ctx context.Context, p *rodagent.Page, in Input) (Result, error) {
	var opts []rodagent.SnapshotOption
	if in.Full {
		opts = append(opts, rodagent.WithFull())
	}
	if in.From != "" {
		opts = append(opts, rodagent.WithFrom(in.From))
	}
	if in.Within != "" {
		opts = append(opts, rodagent.WithinLandmark(in.Within))
	}
	if in.MaxChars > 0 {
		opts = append(opts, rodagent.WithMaxChars(in.MaxChars))
	}
	s, err := p.Snapshot(ctx, opts...)
	if err != nil {
		return Result{}, err
	}
	return Result{OK: true, Text: s.String()}, nil
}

// text reads the page's visible text as quoted lines, so that no line of the
// page can pass for a line of the tool's own.
func (t *Tool) text(ctx context.Context, p *rodagent.Page) (Result, error) {
	s, err := p.Text(ctx)
	if err != nil {
		return Result{}, err
	}
	var b strings.Builder
	b.WriteString("page text, one quoted line per line of the page:\n")
	for _, line := range strings.FieldsFunc(s, rodagent.IsLineBreak) {
		if line = strings.TrimSpace(line); line != "" {
			b.WriteString(rodagent.Quote(line, 0) + "\n")
		}
	}
	b.WriteString(rodagent.SafetyLine + "\n")
	return Result{OK: true, Text: b.String()}, nil
}

func (t *Tool) console(ctx context.Context, p *rodagent.Page) (Result, error) {
	msgs, err := p.Console(ctx)
	if err != nil {
		return Result{}, err
	}
	var b strings.Builder
	if len(msgs) > consoleLines {
		fmt.Fprintf(&b, "(%d earlier messages not shown)\n", len(msgs)-consoleLines)
		msgs = msgs[len(msgs)-consoleLines:]
	}
	for _, m := range msgs {
		fmt.Fprintf(&b, "%s %s\n", m.Type, rodagent.Quote(m.Text, 0))
	}
	if len(msgs) == 0 {
		b.WriteString("no console messages\n")
	}
	b.WriteString(rodagent.SafetyLine + "\n")
	return Result{OK: true, Text: b.String()}, nil
}

func (t *Tool) navigate(ctx context.Context, p *rodagent.Page, in Input) (Result, error) {
	var err error
	switch in.Action {
	case "open":
		err = p.Open(ctx, in.URL)
	case "back":
		err = p.Back(ctx)
	case "forward":
		err = p.Forward(ctx)
	default:
		err = p.Reload(ctx)
	}
	if err != nil {
		return Result{}, err
	}
	r := Result{OK: true, Navigated: true, Text: t.look(ctx, p, true)}
	return r, nil
}

func (t *Tool) tabs(ctx context.Context) (Result, error) {
	tabs, err := t.b.Tabs(ctx)
	if err != nil {
		return t.failure(ctx, nil, "tabs", err)
	}
	t.mu.Lock()
	cur := t.current
	t.mu.Unlock()
	var b strings.Builder
	for _, tab := range tabs {
		mark := " "
		if tab.ID == cur {
			mark = "*"
		}
		fmt.Fprintf(&b, "%s %s %s\n", mark, tab.ID, rodagent.Quote(tab.Origin, 200))
	}
	if len(tabs) == 0 {
		b.WriteString("no tabs; open one with tab_new\n")
	}
	return t.finish(t.currentPage(), "", Result{OK: true, Text: b.String()}), nil
}

func (t *Tool) currentPage() *rodagent.Page {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.pages[t.current]
}

func (t *Tool) tabNew(ctx context.Context, in Input) (Result, error) {
	p, err := t.b.NewPage(ctx, in.URL)
	if err != nil {
		return t.failure(ctx, nil, label(in), err)
	}
	t.adopt(p, true)
	text := "opened tab " + p.ID() + "\n" + t.look(ctx, p, false)
	return t.finish(p, "", Result{OK: true, Navigated: in.URL != "", Text: text}), nil
}

func (t *Tool) tabSelect(ctx context.Context, p *rodagent.Page) (Result, error) {
	if err := p.Activate(ctx); err != nil {
		return Result{}, err
	}
	t.adopt(p, false)
	return Result{OK: true, Text: "tab " + p.ID() + " is current\n" + t.look(ctx, p, false)}, nil
}

func (t *Tool) tabClose(ctx context.Context, p *rodagent.Page) (Result, error) {
	u := p.URL()
	if err := t.b.Approve(ctx, rodagent.Action{Verb: "close", Target: p.ID(), URL: u, Origin: originOf(u), TabOrigin: originOf(u)}); err != nil {
		return Result{}, err
	}
	if err := p.Close(); err != nil {
		return Result{}, err
	}
	t.forget(p)
	text := "closed tab " + p.ID() + "\n"
	cur := t.currentPage()
	if cur != nil {
		text += "current tab: " + cur.ID() + "\n"
	} else {
		text += "no current tab; the next call opens one\n"
	}
	return t.finish(cur, "", Result{OK: true, Text: text}), nil
}

func (t *Tool) closeAll(ctx context.Context) (Result, error) {
	if err := t.b.Approve(ctx, rodagent.Action{Verb: "close", Target: "every tab this tool opened"}); err != nil {
		return t.failure(ctx, nil, "close", err)
	}
	if err := t.Close(); err != nil {
		return t.failure(ctx, nil, "close", err)
	}
	return Result{OK: true, Status: StatusOK, Text: "closed every tab this tool opened; the next call opens a new one\n"}, nil
}

func (t *Tool) wait(ctx context.Context, p *rodagent.Page, in Input) (Result, error) {
	var cond rodagent.Condition
	switch in.Until {
	case "text":
		cond = rodagent.TextPresent(in.Text)
	case "ref_present":
		cond = rodagent.RefPresent(in.Ref)
	case "ref_gone":
		cond = rodagent.RefGone(in.Ref)
	case "url":
		cond = rodagent.URLMatches(in.URL)
	case "load":
		cond = rodagent.Load()
	default:
		cond = rodagent.NetworkIdle()
	}
	d := defaultWait
	if in.TimeoutMS > 0 {
		d = time.Duration(in.TimeoutMS) * time.Millisecond
	}
	wctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	err := p.Wait(wctx, cond)
	if err != nil && wctx.Err() != nil && ctx.Err() == nil {
		return Result{OK: false, Status: StatusTimeout,
			Text: fmt.Sprintf("%s → timeout: not met within %s\nnext: snapshot to see the page, or wait longer with timeout_ms\n", label(in), d)}, nil
	}
	if err != nil {
		return Result{}, err
	}
	text := label(in) + " → met\n"
	if t.after {
		text += t.look(ctx, p, false)
	}
	return Result{OK: true, Text: text}, nil
}

func (t *Tool) dialog(ctx context.Context, p *rodagent.Page, in Input) (Result, error) {
	accept := *in.Accept
	word := "dismissed"
	if accept {
		word = "accepted"
		// Accepting is consent to whatever the dialog asks ("Delete this
		// row?"), so it is an acting call of its own.
		u := p.URL()
		a := rodagent.Action{Verb: "dialog", Text: "accept the next dialog", URL: u, Origin: originOf(u), TabOrigin: originOf(u)}
		if in.Text != "" {
			a.Text += " with prompt text " + strconv.Quote(in.Text)
		}
		if err := t.b.Approve(ctx, a); err != nil {
			return Result{}, err
		}
	}
	p.ArmDialog(accept, in.Text, dialogArm)
	text := fmt.Sprintf("the next JavaScript dialog of this tab will be %s (armed for %s)", word, dialogArm)
	if in.Text != "" {
		text += ", prompt text " + strconv.Quote(in.Text)
	}
	return Result{OK: true, Text: text + "\nnext: do the action that opens the dialog\n"}, nil
}

// upload checks every path against the tool's upload directories before the
// library sees it: the model's paths are untrusted.
func (t *Tool) upload(ctx context.Context, p *rodagent.Page, in Input) (Result, error) {
	paths := make([]string, 0, len(in.Paths))
	for _, path := range in.Paths {
		abs, err := t.allowedUpload(path)
		if err != nil {
			return Result{OK: false, Status: StatusDenied, Text: fmt.Sprintf(
				"upload %s → denied: %v\nnext: use files inside %s\n", in.Ref, err, strings.Join(t.uploadDirs, ", "))}, nil
		}
		paths = append(paths, abs)
	}
	st, err := p.Upload(ctx, in.Ref, paths...)
	if err != nil {
		return Result{}, err
	}
	return t.acted(ctx, p, in, st), nil
}

// downloadWait bounds how long the download verb waits, from its click, for
// the file to be saved: a click that started no download must not hold the
// call for the rest of the caller's deadline.
var downloadWait = 60 * time.Second

// download clicks the ref inside WaitDownload, so the file the click starts
// is saved into the tool's download directory.
func (t *Tool) download(ctx context.Context, p *rodagent.Page, in Input) (Result, error) {
	wctx, cancel := context.WithTimeout(ctx, downloadWait)
	defer cancel()
	var st rodagent.ActionStatus
	clicked := false
	dl, err := p.WaitDownload(wctx, t.downloadDir, func(ctx context.Context) error {
		var err error
		st, err = p.Click(ctx, in.Ref)
		clicked = err == nil
		return err
	})
	if err != nil {
		if clicked && ctx.Err() == nil && wctx.Err() != nil {
			text := fmt.Sprintf("%s → %s, but no file was saved within %s of the click: the page started no download, or it is still going\n"+
				"next: snapshot to see what the click did\n", label(in), st, downloadWait)
			if t.after {
				text += t.look(ctx, p, false)
			}
			return Result{OK: false, Status: StatusTimeout, Text: text}, nil
		}
		return Result{}, err
	}
	text := fmt.Sprintf("%s → %s\nsaved %s (%d bytes) into the download directory\n", label(in), st, rodagent.Quote(filepath.Base(dl.Path), 200), dl.Size)
	if t.after {
		text += t.look(ctx, p, false)
	}
	return Result{OK: true, Status: string(st), Text: text, File: dl.Path, Navigated: p.LastAction().Navigated}, nil
}

// allowedUpload resolves path (relative ones against the first upload
// directory) and its symbolic links, and accepts it only below an upload
// directory.
func (t *Tool) allowedUpload(path string) (string, error) {
	if !filepath.IsAbs(path) {
		path = filepath.Join(t.uploadDirs[0], path)
	}
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return "", fmt.Errorf("%s does not exist", strconv.Quote(path))
		}
		return "", fmt.Errorf("%s cannot be read", strconv.Quote(path))
	}
	if st, err := os.Stat(real); err != nil || st.IsDir() {
		return "", fmt.Errorf("%s is not a file", strconv.Quote(path))
	}
	for _, dir := range t.uploadDirs {
		rd, err := filepath.EvalSymlinks(dir)
		if err != nil {
			continue
		}
		rel, err := filepath.Rel(rd, real)
		if err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel) {
			return real, nil
		}
	}
	return "", fmt.Errorf("%s is outside the upload directories", strconv.Quote(path))
}
