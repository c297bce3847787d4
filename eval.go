package rodagent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode/utf16"

	"github.com/go-rod/rod/lib/proto"
	"github.com/ysmood/gson"
)

// EvalError reports that the script threw, or that its result could not be
// brought back as JSON.
type EvalError struct {
	Message string // the exception as the page reported it ("Error: boom"), capped at 1,000 characters; page text
	Line    int    // 0-based line of the throw in the script, when known
	Column  int    // 0-based column, when known
}

// Error reads "rodagent: eval: Error: boom"; a message with a line break or
// an invisible character is quoted: it is the page's text, and errors reach
// models (a CLI's output, a tool's failure line).
func (e *EvalError) Error() string { return "rodagent: eval: " + safeLabel(e.Message, 1000) }

// Eval runs JavaScript in the page's main world — the page's own globals, as
// a script of the page would see them — and returns its result as JSON;
// a returned promise is awaited. With args, js is a function expression called
// with them (each marshalled to JSON):
//
//	n, err := p.Eval(ctx, `document.querySelectorAll("li").length`)
//	ok, err := p.Eval(ctx, `(sel, text) => document.querySelector(sel).textContent.includes(text)`, "h1", "Welcome")
//
// Without args, a plain expression is evaluated (statements allowed; the
// value of the last one is returned), and a function expression is called
// with none. Eval can change anything on the page, so it goes through the
// Approver like an action, with Verb "eval" and the script as Text. An
// exception in the script is an *EvalError carrying its message; undefined
// comes back as a nil JSON value; DOM nodes and other objects that JSON
// cannot hold come back as {} or fail with an *EvalError.
func (p *Page) Eval(ctx context.Context, js string, args ...any) (gson.JSON, error) {
	if strings.TrimSpace(js) == "" {
		return gson.JSON{}, fmt.Errorf("%w: eval: empty script", ErrBadOption)
	}
	expr, wrapped := js, len(args) > 0
	if wrapped {
		var err error
		if expr, err = callExpr(js, args); err != nil {
			return gson.JSON{}, err
		}
	}
	if err := p.approvePage(ctx, Action{Verb: "eval", Text: js}); err != nil {
		return gson.JSON{}, err
	}
	unlock, err := p.lock(ctx, "eval")
	if err != nil {
		return gson.JSON{}, err
	}
	defer unlock()
	if err := p.awaitCommit(ctx, "eval"); err != nil {
		return gson.JSON{}, err
	}
	p.markActed()
	res, err := p.evaluate(ctx, expr)
	if err == nil && !wrapped && res.Type == proto.RuntimeRemoteObjectTypeFunction {
		expr, _ = callExpr(js, nil) // a function given without args: call it
		wrapped = true
		res, err = p.evaluate(ctx, expr)
	}
	if ee := (*EvalError)(nil); wrapped && errors.As(err, &ee) {
		ee.Line, ee.Column = scriptPosition(js, ee.Line, ee.Column)
	}
	if err != nil {
		return gson.JSON{}, err
	}
	return res.Value, nil
}

// callExpr writes a call of the function expression js with args as JSON
// literals: one round trip, and the arguments never pass through the page's
// own (possibly patched) JSON.parse.
func callExpr(js string, args []any) (string, error) {
	if args == nil {
		args = []any{}
	}
	b, err := json.Marshal(args)
	if err != nil {
		return "", fmt.Errorf("%w: eval: arguments are not JSON: %w", ErrBadOption, err)
	}
	// Newlines keep a trailing // comment in js from swallowing the call.
	return "(\n" + js + "\n)(..." + string(b) + ")", nil
}

// scriptPosition maps a 0-based position (column in UTF-16 units, as V8
// counts) in callExpr's wrapper back to js:
// the wrapper opens with one line of its own, and a throw from the call
// itself (js is not a function) sits after js's last line, reported as js's end.
func scriptPosition(js string, line, column int) (int, int) {
	line-- // the "(" line
	lines := strings.Split(js, "\n")
	switch {
	case line < 0:
		return 0, 0
	case line >= len(lines):
		last := len(lines) - 1
		return last, len(utf16.Encode([]rune(lines[last])))
	}
	return line, column
}

func (p *Page) evaluate(ctx context.Context, expr string) (*proto.RuntimeRemoteObject, error) {
	res, err := proto.RuntimeEvaluate{Expression: expr, ReturnByValue: true, AwaitPromise: true,
		ReplMode: false}.Call(p.main.Bind(ctx))
	if err != nil {
		msg := err.Error()
		switch {
		case ctx.Err() != nil:
			return nil, failure("eval", "", Timeout, "the script was still running", ctx.Err())
		case strings.Contains(msg, "context was destroyed") || strings.Contains(msg, "Cannot find default execution context") ||
			strings.Contains(msg, "Inspected target navigated"):
			return nil, failure("eval", "", PageChanged, "the page navigated while the script ran", err)
		case strings.Contains(msg, "by value") || strings.Contains(msg, "reference chain"):
			return nil, &EvalError{Message: "the result cannot be returned as JSON (a cycle or a host object)"}
		}
		if e := p.alive(); e != nil {
			return nil, e
		}
		return nil, fmt.Errorf("rodagent: eval: %w", p.b.wrapErr(ctx, err))
	}
	if d := res.ExceptionDetails; d != nil {
		msg := d.Text
		if d.Exception != nil {
			if desc := d.Exception.Description; desc != "" {
				msg = desc
			} else if v := d.Exception.Value.Val(); v != nil {
				msg = "Uncaught " + d.Exception.Value.JSON("", "")
			}
		}
		if i := strings.Index(msg, "\n    at "); i > 0 {
			msg = msg[:i] // the stack points into the library's wrapper; the message is what matters
		}
		return nil, &EvalError{Message: capRunes(msg, 1000), Line: d.LineNumber, Column: d.ColumnNumber}
	}
	return res.Result, nil
}
