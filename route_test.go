package rodagent_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"testing"
	"time"

	"github.com/go-rod/rod/lib/proto"

	"github.com/rodagent/rodagent"
)

// apiScript asks three API endpoints and keeps what each answered in
// window.results (or "failed" when the request failed).
const apiScript = `<script>
window.results = {};
for (const name of ['data', 'gone', 'echo']) {
  fetch('/api/' + name).then(r => r.text()).then(t => results[name] = t, () => results[name] = 'failed');
}
</script>`

// apiServer serves a page on origin A that asks the API itself and holds a
// cross-site (out-of-process) iframe from origin B that does the same.
func apiServer(t *testing.T) *twoOrigins {
	o := newTwoOrigins(t)
	o.page("/route", `<!doctype html><title>outer</title><p>outer</p>`+apiScript+
		`<iframe title="Inner" src="FORBIDDEN/route-frame"></iframe>`)
	o.page("/route-frame", `<!doctype html><title>inner</title><p>inner</p>`+apiScript)
	o.handle("/api/data", func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "real") })
	o.handle("/api/gone", func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "real") })
	o.handle("/api/echo", func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "routed:"+r.Header.Get("X-Routed")) })
	return o
}

// awaitResults waits, in the page's main world of one session, until all
// three API answers are in, and returns them.
func awaitResults(t *testing.T, c proto.Client) map[string]string {
	t.Helper()
	res, err := proto.RuntimeEvaluate{Expression: `new Promise(done => {
		const check = () => (results.data && results.gone && results.echo) ? done(JSON.stringify(results)) : setTimeout(check, 10);
		check() })`, AwaitPromise: true, ReturnByValue: true}.Call(c)
	if err != nil || res.ExceptionDetails != nil {
		t.Fatalf("reading results: %v %+v", err, res)
	}
	var out map[string]string
	decode(t, res.Result.Value.Str(), &out)
	return out
}

func TestRouteFulfilsAbortsAndChangesInMainFrameAndOOPIF(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t, 60*time.Second)
	o := apiServer(t)
	p, err := shared.NewPage(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if _, err := p.Route(ctx, "**/api/data", func(ctx context.Context, r rodagent.RoutedRequest) rodagent.RouteAction {
		return rodagent.Fulfill(rodagent.Fulfillment{Headers: map[string]string{"Content-Type": "text/plain",
			"Access-Control-Allow-Origin": "*"}, Body: []byte("mocked")})
	}); err != nil {
		t.Fatalf("Route: %v", err)
	}
	if _, err := p.Route(ctx, "**/api/gone", func(ctx context.Context, r rodagent.RoutedRequest) rodagent.RouteAction {
		return rodagent.Abort("connectionrefused")
	}); err != nil {
		t.Fatalf("Route: %v", err)
	}
	if _, err := p.RouteRegexp(ctx, regexp.MustCompile(`/api/echo$`), func(ctx context.Context, r rodagent.RoutedRequest) rodagent.RouteAction {
		h := r.Headers
		h["X-Routed"] = "yes"
		return rodagent.Continue(rodagent.Override{Headers: h})
	}); err != nil {
		t.Fatalf("RouteRegexp: %v", err)
	}
	// A route that passes everything on must not hide the ones before it.
	if _, err := p.Route(ctx, "**", func(ctx context.Context, r rodagent.RoutedRequest) rodagent.RouteAction {
		return rodagent.Fallback()
	}); err != nil {
		t.Fatalf("Route: %v", err)
	}
	if err := p.Open(ctx, o.allowed+"/route"); err != nil {
		t.Fatalf("Open: %v", err)
	}
	want := map[string]string{"data": "mocked", "gone": "failed", "echo": "routed:yes"}
	if got := awaitResults(t, p.Rod()); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("main frame: got %v, want %v", got, want)
	}
	// The frame loads on its own schedule and, on a loaded machine, may not
	// answer within a look's per-frame budget: look again until it has
	// answered with its origin, bounded by the test's work budget.
	s := snapshot(t, p)
	inner := frameOf(t, s, "f1")
	for deadline := time.Now().Add(workBudget); (inner.Origin == "" || inner.Error != "") && time.Now().Before(deadline); {
		s = snapshot(t, p, rodagent.WithFull())
		inner = frameOf(t, s, "f1")
	}
	if !inner.OutOfProc || inner.Origin != o.forbidden {
		t.Fatalf("the inner frame should be out of process from %s: %+v", o.forbidden, inner)
	}
	got := awaitResults(t, sessionClient{sid: inner.Frame.SessionID, ctx: testCtx(t, 20*time.Second)})
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("out-of-process frame: got %v, want %v", got, want)
	}
	for _, path := range []string{"/api/data", "/api/gone"} {
		for _, origin := range []string{o.allowed, o.forbidden} {
			if n := o.hitCount(origin + path); n != 0 {
				t.Errorf("%s%s reached the server %d times; the route should have answered it", origin, path, n)
			}
		}
	}
	if o.hitCount(o.allowed+"/api/echo") != 1 || o.hitCount(o.forbidden+"/api/echo") != 1 {
		t.Errorf("the changed requests should reach the server once from each frame")
	}
}

func TestUnrouteRestoresTheNetwork(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t, 60*time.Second)
	o := apiServer(t)
	o.page("/plain", `<!doctype html><p>plain</p>`+apiScript)
	p, err := shared.NewPage(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	unroute, err := p.Route(ctx, "**/api/*", func(ctx context.Context, r rodagent.RoutedRequest) rodagent.RouteAction {
		return rodagent.Fulfill(rodagent.Fulfillment{Body: []byte("mocked")})
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Open(ctx, o.allowed+"/plain"); err != nil {
		t.Fatal(err)
	}
	if got := awaitResults(t, p.Rod()); got["data"] != "mocked" || got["echo"] != "mocked" {
		t.Fatalf("routed: %v", got)
	}
	unroute()
	if err := p.Reload(ctx); err != nil {
		t.Fatal(err)
	}
	if got := awaitResults(t, p.Rod()); got["data"] != "real" || got["gone"] != "real" {
		t.Errorf("after unroute the network should answer: %v", got)
	}
}

func TestRouteRejectsBadPatterns(t *testing.T) {
	t.Parallel()
	p := open(t, "basic.html")
	ctx := testCtx(t, 10*time.Second)
	h := func(context.Context, rodagent.RoutedRequest) rodagent.RouteAction { return rodagent.Fallback() }
	for _, bad := range []string{"", "**/{a,b", "**/a}"} {
		if _, err := p.Route(ctx, bad, h); err == nil || !errors.Is(err, rodagent.ErrBadPattern) {
			t.Errorf("Route(%q): want ErrBadPattern, got %v", bad, err)
		}
	}
	if _, err := p.Route(ctx, "**", nil); !errors.Is(err, rodagent.ErrBadPattern) {
		t.Errorf("a nil handler: want ErrBadPattern, got %v", err)
	}
}
