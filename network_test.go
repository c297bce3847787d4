package rodagent_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-rod/rod/lib/proto"

	"github.com/rodagent/rodagent"
)

func TestRecordRequestsAndObservers(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t, 60*time.Second)
	o := apiServer(t)
	o.handle("/slow", func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(30 * time.Millisecond) // the server's own latency, which the timing must show
		fmt.Fprint(w, "slow")
	})
	o.handle("/missing.png", http.NotFound)
	o.page("/net", `<!doctype html><p>net</p><img src="/missing.png" alt="">`+apiScript+
		`<script>fetch('/redirect?to=/slow')</script><iframe title="Inner" src="FORBIDDEN/route-frame"></iframe>`)
	p, err := shared.NewPage(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if _, err := p.Route(ctx, "**/api/gone", func(context.Context, rodagent.RoutedRequest) rodagent.RouteAction {
		return rodagent.Abort("failed")
	}); err != nil {
		t.Fatal(err)
	}
	log, err := p.RecordRequests(ctx)
	if err != nil {
		t.Fatalf("RecordRequests: %v", err)
	}
	var mu sync.Mutex
	var started, finished []string
	stopReq, err := p.OnRequest(ctx, func(r rodagent.Request) {
		mu.Lock()
		started = append(started, r.URL)
		mu.Unlock()
	})
	if err != nil {
		t.Fatal(err)
	}
	defer stopReq()
	stopResp, err := p.OnResponse(ctx, func(r rodagent.Request) {
		mu.Lock()
		finished = append(finished, fmt.Sprintf("%d %s", r.Status, r.URL))
		mu.Unlock()
	})
	if err != nil {
		t.Fatal(err)
	}
	defer stopResp()
	if err := p.Open(ctx, o.allowed+"/net"); err != nil {
		t.Fatal(err)
	}
	awaitResults(t, p.Rod())
	inner := frameOf(t, snapshot(t, p), "f1")
	awaitResults(t, sessionClient{sid: inner.Frame.SessionID, ctx: ctx})

	find := func(url string, status int) rodagent.Request {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for {
			for _, r := range log.Requests() {
				if r.URL == url && r.Done && r.Status == status {
					return r
				}
			}
			if time.Now().After(deadline) {
				t.Fatalf("no finished request %d %s in the log:\n%s", status, url, dumpRequests(log.Requests()))
			}
			_ = p.Wait(ctx, rodagent.NetworkIdle())
		}
	}
	doc := find(o.allowed+"/net", 200)
	if doc.Method != "GET" || doc.ResourceType != "Document" || doc.Duration <= 0 || doc.Start.IsZero() || doc.MIMEType != "text/html" {
		t.Errorf("the document: %+v", doc)
	}
	if img := find(o.allowed+"/missing.png", 404); img.ResourceType != "Image" {
		t.Errorf("the image: %+v", img)
	}
	if api := find(o.allowed+"/api/data", 200); api.ResourceType != "Fetch" {
		t.Errorf("the fetch: %+v", api)
	}
	find(o.allowed+"/redirect?to=/slow", 302)
	if slow := find(o.allowed+"/slow", 200); slow.Duration < 30*time.Millisecond {
		t.Errorf("the slow request took at least 30ms at the server; recorded %v", slow.Duration)
	}
	find(o.forbidden+"/route-frame", 200)
	find(o.forbidden+"/api/data", 200) // a request of the out-of-process frame
	var failed bool
	for _, r := range log.Requests() {
		if r.URL == o.allowed+"/api/gone" && r.Done && r.Failure != "" && r.Status == 0 {
			failed = true
		}
	}
	if !failed {
		t.Errorf("the aborted request should be recorded as failed:\n%s", dumpRequests(log.Requests()))
	}
	log.Stop()
	n := len(log.Requests())
	if err := p.Reload(ctx); err != nil {
		t.Fatal(err)
	}
	awaitResults(t, p.Rod())
	mu.Lock()
	gotStart := strings.Join(started, "\n")
	gotDone := strings.Join(finished, "\n")
	mu.Unlock()
	if !strings.Contains(gotStart, o.forbidden+"/api/echo") || !strings.Contains(gotDone, "404 "+o.allowed+"/missing.png") {
		t.Errorf("the observers should see every frame's requests:\nstarted:\n%s\nfinished:\n%s", gotStart, gotDone)
	}
	if len(log.Requests()) != n {
		t.Errorf("a stopped log should not grow: %d then %d", n, len(log.Requests()))
	}
	// Stopping the observers sets the page's sessions back in the
	// background; Close ends what is still in flight there instead of
	// waiting out its 10 s bound (it took 10 s: a call to the closed tab's
	// frame session never gets an answer).
	stopResp()
	stopReq()
	closed := make(chan struct{})
	go func() { _ = p.Close(); close(closed) }()
	select {
	case <-closed:
	case <-time.After(5 * time.Second):
		t.Fatal("Close waited on the background calls of the observers it stopped")
	}
}

func dumpRequests(rs []rodagent.Request) string {
	var b strings.Builder
	for _, r := range rs {
		fmt.Fprintf(&b, "  %s %s %s %d done=%v %s %v\n", r.Method, r.ResourceType, r.URL, r.Status, r.Done, r.Failure, r.Duration)
	}
	return b.String()
}

func TestHTTPCredentialsAndExtraHeaders(t *testing.T) {
	t.Parallel()
	o := newTwoOrigins(t)
	var mu sync.Mutex
	markers := map[string]string{}
	o.handle("/secret", func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		markers["http://"+r.Host+r.URL.Path] = r.Header.Get("X-Test-Marker")
		mu.Unlock()
		if u, pw, ok := r.BasicAuth(); !ok || u != "ada" || pw != "s3cret" {
			w.Header().Set("WWW-Authenticate", `Basic realm="test"`)
			w.WriteHeader(http.StatusUnauthorized)
			fmt.Fprint(w, "<p>who are you</p>")
			return
		}
		fmt.Fprint(w, `<!doctype html><p>welcome ada</p><iframe title="Inner" src="`+o.forbidden+`/inner"></iframe>`)
	})
	o.handle("/inner", func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		markers["http://"+r.Host+r.URL.Path] = r.Header.Get("X-Test-Marker")
		mu.Unlock()
		fmt.Fprint(w, `<!doctype html><p>inner</p><script>fetch('/inner-api')</script>`)
	})
	o.handle("/inner-api", func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		markers["http://"+r.Host+r.URL.Path] = r.Header.Get("X-Test-Marker")
		mu.Unlock()
		fmt.Fprint(w, "ok")
	})
	ctx := testCtx(t, 60*time.Second)
	b, err := rodagent.Connect(ctx, shared.DevToolsURL(), rodagent.WithHTTPCredentials("ada", "s3cret", o.allowed),
		rodagent.WithExtraHeaders(map[string]string{"X-Test-Marker": "m-1"}))
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	c, err := b.NewContext(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	p, err := c.NewPage(ctx, o.allowed+"/secret")
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Wait(ctx, rodagent.TextPresent("welcome ada")); err != nil {
		t.Fatalf("the credentials should open the page: %v", err)
	}
	// The frame's own request (out of process, origin B): wait until the server saw it.
	rec, err := p.RecordRequests(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer rec.Stop()
	if err := p.Reload(ctx); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(15 * time.Second)
	for o.hitCount(o.forbidden+"/inner-api") < 2 && time.Now().Before(deadline) {
		_ = p.Wait(ctx, rodagent.NetworkIdle())
	}
	mu.Lock()
	defer mu.Unlock()
	for _, u := range []string{o.allowed + "/secret", o.forbidden + "/inner", o.forbidden + "/inner-api"} {
		if markers[u] != "m-1" {
			t.Errorf("%s: extra header X-Test-Marker = %q, want m-1 (all: %v)", u, markers[u], markers)
		}
	}
}

func TestSetOfflineIsObservedByThePage(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t, 60*time.Second)
	o := apiServer(t)
	p, err := shared.NewPage(ctx, o.allowed+"/route")
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	inner := frameOf(t, snapshot(t, p), "f1")
	probe := `(async () => { const online = navigator.onLine; let fetched;
		try { fetched = await (await fetch('/api/data?' + Math.random())).text() } catch (e) { fetched = 'failed' }
		return JSON.stringify({online, fetched}) })()`
	read := func(c proto.Client) string {
		res, err := proto.RuntimeEvaluate{Expression: probe, AwaitPromise: true, ReturnByValue: true}.Call(c)
		if err != nil || res.ExceptionDetails != nil {
			t.Fatalf("probe: %v %+v", err, res)
		}
		return res.Result.Value.Str()
	}
	frame := sessionClient{sid: inner.Frame.SessionID, ctx: ctx}
	if err := p.SetOffline(ctx, true); err != nil {
		t.Fatalf("SetOffline(true): %v", err)
	}
	for name, c := range map[string]proto.Client{"main frame": p.Rod(), "out-of-process frame": frame} {
		if got := read(c); got != `{"online":false,"fetched":"failed"}` {
			t.Errorf("%s offline: %s", name, got)
		}
	}
	if err := p.SetOffline(ctx, false); err != nil {
		t.Fatalf("SetOffline(false): %v", err)
	}
	for name, c := range map[string]proto.Client{"main frame": p.Rod(), "out-of-process frame": frame} {
		if got := read(c); got != `{"online":true,"fetched":"real"}` {
			t.Errorf("%s back online: %s", name, got)
		}
	}
}

// Credentials go only to the origins they are for, and wrong ones end in the
// server's 401 rather than a retry loop.
func TestHTTPCredentialsOnlyWhereAllowed(t *testing.T) {
	t.Parallel()
	o := newTwoOrigins(t)
	var mu sync.Mutex
	var tries []string
	o.handle("/secret", func(w http.ResponseWriter, r *http.Request) {
		u, pw, _ := r.BasicAuth()
		mu.Lock()
		tries = append(tries, r.Host+" "+u+":"+pw)
		mu.Unlock()
		w.Header().Set("WWW-Authenticate", `Basic realm="other"`)
		w.WriteHeader(http.StatusUnauthorized)
		fmt.Fprint(w, "<p>who are you</p>")
	})
	ctx := testCtx(t, 60*time.Second)
	b, err := rodagent.Connect(ctx, shared.DevToolsURL(), rodagent.WithHTTPCredentials("ada", "wrong", o.allowed))
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	c, err := b.NewContext(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for _, u := range []string{o.forbidden + "/secret", o.allowed + "/secret"} {
		p, err := c.NewPage(ctx, u)
		if err != nil {
			t.Fatalf("NewPage(%s): %v", u, err)
		}
		if err := p.Wait(ctx, rodagent.TextPresent("who are you")); err != nil {
			t.Errorf("%s should end at the server's 401: %v", u, err)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	got := strings.Join(tries, ", ")
	for _, try := range tries {
		if strings.HasPrefix(try, "localhost") && strings.Contains(try, "ada") {
			t.Errorf("credentials went to an origin they are not for: %s", got)
		}
	}
	if n := strings.Count(got, "ada:wrong"); n != 1 {
		t.Errorf("wrong credentials should be tried once, then the 401 shown; tries: %s", got)
	}
}
