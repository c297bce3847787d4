package agenttool

import (
	"context"
	"fmt"
	"strconv"

	"github.com/go-rod/rod/lib/proto"

	"github.com/rodagent/rodagent"
)

// maxEvalChars caps the JSON of an eval result the model reads.
const maxEvalChars = 4000

// evaluate runs the model's expression in the page's main frame. It is an
// acting call: a script can do anything the page can.
func (t *Tool) evaluate(ctx context.Context, p *rodagent.Page, in Input) (Result, error) {
	if err := t.b.Approve(ctx, rodagent.Action{Verb: "eval", Text: in.JS, Origin: originOf(p.URL())}); err != nil {
		return Result{}, err
	}
	res, err := proto.RuntimeEvaluate{Expression: in.JS, ReturnByValue: true, AwaitPromise: true}.Call(p.Rod().Context(ctx))
	if err != nil {
		return Result{}, fmt.Errorf("agenttool: eval: %w", err)
	}
	if res.ExceptionDetails != nil {
		msg := res.ExceptionDetails.Text
		if res.ExceptionDetails.Exception != nil && res.ExceptionDetails.Exception.Description != "" {
			msg = res.ExceptionDetails.Exception.Description
		}
		return Result{OK: false, Status: StatusFailed, Text: "eval → exception: " + strconv.Quote(msg) + "\n"}, nil
	}
	out := res.Result.Value.JSON("", "")
	if res.Result.Type == proto.RuntimeRemoteObjectTypeUndefined {
		out = "undefined"
	}
	if r := []rune(out); len(r) > maxEvalChars {
		out = string(r[:maxEvalChars]) + fmt.Sprintf("… (%d more characters)", len(r)-maxEvalChars)
	}
	return Result{OK: true, Text: "eval → " + strconv.Quote(out) + "\n" + rodagent.SafetyLine + "\n"}, nil
}
