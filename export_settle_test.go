package rodagent

import (
	"context"
	"fmt"
	"strconv"

	"github.com/go-rod/rod/lib/proto"

	"github.com/rodagent/rodagent/internal/ax"
)

// Test hooks for the settle after an action (see internal/ax/settle.js).

// SettleBusy asks the main frame's record, as the settle does, whether work
// an action set in motion is still pending.
func SettleBusy(ctx context.Context, p *Page) (bool, error) {
	ev := strconv.Quote(ax.ListenerEvent)
	v, err := p.evalInWorld(ctx, `(() => {
		let busy = false;
		const heard = () => { busy = true; };
		document.addEventListener(`+ev+` + 'b', heard, true);
		document.dispatchEvent(new Event(`+ev+` + 'w'));
		document.removeEventListener(`+ev+` + 'b', heard, true);
		return busy;
	})()`)
	return v == "true", err
}

// SettleTook runs the settle a look does after an action in the main frame
// and returns how long it took by the page's clock, in milliseconds.
func SettleTook(ctx context.Context, p *Page) (float64, error) {
	v, err := p.evalInWorld(ctx, `(async () => { const t = performance.now(); await `+ax.SettleExpr()+`; return performance.now() - t; })()`)
	if err != nil {
		return 0, err
	}
	return strconv.ParseFloat(v, 64)
}

func (p *Page) evalInWorld(ctx context.Context, expr string) (string, error) {
	w, err := p.world(ctx, p.mainFrameInfo())
	if err != nil {
		return "", err
	}
	res, err := proto.RuntimeEvaluate{Expression: expr, ContextID: w, AwaitPromise: true, ReturnByValue: true}.Call(p.main.Bind(ctx))
	if err != nil {
		return "", err
	}
	if res.ExceptionDetails != nil {
		return "", fmt.Errorf("%s", res.ExceptionDetails.Text)
	}
	return res.Result.Value.JSON("", ""), nil
}
