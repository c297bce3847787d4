package agenttool

import (
	"context"
	"errors"
	"fmt"

	"github.com/rodagent/rodagent"
)

// maxEvalChars caps the JSON of an eval result the model reads.
const maxEvalChars = 4000

// evaluate runs the model's expression in the page (Page.Eval, which asks the
// Approver with verb "eval": a script can do anything the page can).
func (t *Tool) evaluate(ctx context.Context, p *rodagent.Page, in Input) (Result, error) {
	v, err := p.Eval(ctx, in.JS)
	var ee *rodagent.EvalError
	if errors.As(err, &ee) {
		return Result{OK: false, Status: StatusFailed, Text: "eval → exception: " + rodagent.Quote(ee.Message, 0) + "\n" + rodagent.SafetyLine + "\n"}, nil
	}
	if err != nil {
		return Result{}, err
	}
	out := v.JSON("", "") // undefined reads as null
	if r := []rune(out); len(r) > maxEvalChars {
		out = string(r[:maxEvalChars]) + fmt.Sprintf("… (%d more characters)", len(r)-maxEvalChars)
	}
	return Result{OK: true, Text: "eval → " + rodagent.Quote(out, 0) + "\n" + rodagent.SafetyLine + "\n"}, nil
}
