package rodagent

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/go-rod/rod/lib/proto"

	"github.com/rodagent/rodagent/internal/ax"
)

// Test hooks for the settle after an action (see internal/ax/settle.js).

// MaxResettles is how many looks after one that found the page still moving
// wait for it again.
const MaxResettles = maxResettles

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

// SettleLoopsOnly asks the main frame's record, as the settle does, whether
// the work an action set in motion that is still pending is loops only
// (intervals, requestAnimationFrame chains): busy, and not firm.
func SettleLoopsOnly(ctx context.Context, p *Page) (bool, error) {
	ev := strconv.Quote(ax.ListenerEvent)
	v, err := p.evalInWorld(ctx, `(() => {
		let busy = false, firm = false;
		const heard = () => { busy = true; }, heardFirm = () => { firm = true; };
		document.addEventListener(`+ev+` + 'b', heard, true);
		document.addEventListener(`+ev+` + 'f', heardFirm, true);
		document.dispatchEvent(new Event(`+ev+` + 'w'));
		document.removeEventListener(`+ev+` + 'b', heard, true);
		document.removeEventListener(`+ev+` + 'f', heardFirm, true);
		return busy && !firm;
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

// ServerLatency holds a test server's answer to r for d, as a real server's
// latency (not a wait of the code under test): true when d passed, false
// when the request went away or stop was closed first.
func ServerLatency(r *http.Request, d time.Duration, stop <-chan struct{}) bool {
	tm := time.NewTimer(d)
	defer tm.Stop()
	select {
	case <-tm.C:
		return true
	case <-r.Context().Done():
	case <-stop:
	}
	return false
}

// SettleNetHandler serves the fixtures and settle-net.html's API: an answer
// after a delay the query sets (api/answer?ms=N&v=X), a request that never
// answers (api/hang) and an event stream (api/events). A delay is the
// server's latency (a real API's), ended early when the page goes away or
// stop is closed.
func SettleNetHandler(stop <-chan struct{}) http.Handler {
	latency := func(r *http.Request, d time.Duration) bool { return ServerLatency(r, d, stop) }
	mux := http.NewServeMux()
	mux.Handle("/", http.FileServer(http.Dir("testdata/fixtures")))
	mux.HandleFunc("/api/answer", func(w http.ResponseWriter, r *http.Request) {
		ms, err := strconv.Atoi(r.URL.Query().Get("ms"))
		if err != nil || ms < 0 || ms > 10_000 {
			http.Error(w, "ms: 0 to 10000", http.StatusBadRequest)
			return
		}
		if !latency(r, time.Duration(ms)*time.Millisecond) {
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]string{"v": r.URL.Query().Get("v")})
	})
	mux.HandleFunc("/api/hang", func(w http.ResponseWriter, r *http.Request) { latency(r, time.Hour) })
	mux.HandleFunc("/api/events", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		flusher, _ := w.(http.Flusher)
		for i := 0; latency(r, 100*time.Millisecond); i++ {
			fmt.Fprintf(w, "data: %d\n\n", i)
			if flusher != nil {
				flusher.Flush()
			}
		}
	})
	return mux
}
