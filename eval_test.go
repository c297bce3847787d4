package rodagent_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rodagent/rodagent"
)

func TestEval(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t, 60*time.Second)
	var mu sync.Mutex
	var seen []rodagent.Action
	b, err := shared.NewContext(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	p, err := b.NewPage(ctx, originA+"/next.html")
	if err != nil {
		t.Fatal(err)
	}
	// The Approver of this test's page: shared's has none, so use a context of
	// a browser connected with one.
	ab, err := rodagent.Connect(ctx, shared.DevToolsURL(), rodagent.WithApprover(rodagent.ApproverFunc(func(_ context.Context, a rodagent.Action) error {
		mu.Lock()
		defer mu.Unlock()
		seen = append(seen, a)
		if strings.Contains(a.Text, "forbidden") {
			return errors.New("not this one")
		}
		return nil
	})))
	if err != nil {
		t.Fatal(err)
	}
	defer ab.Close()
	ap, err := ab.Page(ctx, p.ID())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ap.Eval(ctx, "window.pageGlobal = 41"); err != nil { // the page's own world
		t.Fatal(err)
	}
	cases := []struct {
		js   string
		args []any
		want string
	}{
		{"pageGlobal + 1", nil, "42"},
		{"document.title", nil, `"Next"`},
		{"let x = 2; x * 3", nil, "6"},
		{"() => location.pathname", nil, `"/next.html"`},
		{"(a, b) => a.n + b.length", []any{map[string]int{"n": 2}, []string{"x", "y"}}, "4"},
		{"async s => { await new Promise(r => setTimeout(r, 10)); return s + '!' }", []any{"done"}, `"done!"`},
		{"s => s", []any{"quote \" and \u2028 and </script>"}, `"quote \" and \u2028 and </script>"`},
		{"undefined", nil, "null"},
		{"({a: [1, 'b', null, true]})", nil, `{"a":[1,"b",null,true]}`},
	}
	for _, c := range cases {
		v, err := ap.Eval(ctx, c.js, c.args...)
		if err != nil {
			t.Errorf("Eval(%s): %v", c.js, err)
			continue
		}
		if got := v.JSON("", ""); got != c.want {
			t.Errorf("Eval(%s) = %s, want %s", c.js, got, c.want)
		}
	}

	_, err = ap.Eval(ctx, "(() => { throw new TypeError('boom at ' + pageGlobal) })()")
	var ee *rodagent.EvalError
	if !errors.As(err, &ee) || !strings.Contains(ee.Message, "TypeError: boom at 41") {
		t.Errorf("an exception should be an *EvalError with its message, got %#v", err)
	}
	_, err = ap.Eval(ctx, "Promise.reject(new Error('rejected'))")
	if !errors.As(err, &ee) || !strings.Contains(ee.Message, "rejected") {
		t.Errorf("a rejection should be an *EvalError, got %v", err)
	}
	if _, err := ap.Eval(ctx, "x => x", make(chan int)); !errors.Is(err, rodagent.ErrBadOption) {
		t.Errorf("arguments JSON cannot hold: want ErrBadOption, got %v", err)
	}
	if _, err := ap.Eval(ctx, "  "); !errors.Is(err, rodagent.ErrBadOption) {
		t.Errorf("empty script: want ErrBadOption, got %v", err)
	}

	if _, err := ap.Eval(ctx, "window.forbidden = 1"); !errors.Is(err, rodagent.ErrNotAllowed) {
		t.Errorf("refused eval: want ErrNotAllowed, got %v", err)
	}
	if v, err := ap.Eval(ctx, "typeof window['forb' + 'idden']"); err != nil || v.Str() != "undefined" {
		t.Errorf("a refused script must not run: %v %v", v, err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(seen) == 0 || seen[0].Verb != "eval" || seen[0].Text != "window.pageGlobal = 41" || seen[0].Origin != originA {
		t.Errorf("the Approver should see the eval with its script and origin: %+v", seen)
	}
}

func TestEvalDeadline(t *testing.T) {
	t.Parallel()
	p := open(t, "next.html")
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := p.Eval(ctx, "new Promise(() => {})")
	if !errors.Is(err, rodagent.ErrTimeout) || time.Since(start) > 5*time.Second {
		t.Errorf("want ErrTimeout at the deadline, got %v after %v", err, time.Since(start))
	}
	// The page is still usable after it.
	if v, err := p.Eval(testCtx(t, 20*time.Second), "1 + 1"); err != nil || v.Int() != 2 {
		t.Errorf("after a timed-out eval: %v %v", v, err)
	}
}

func jsonOf(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// EvalError's Line and Column point into the script as the caller wrote it,
// whether Eval runs it as an expression or calls it with arguments.
func TestEvalErrorPosition(t *testing.T) {
	t.Parallel()
	p := open(t, "next.html")
	ctx := testCtx(t, 30*time.Second)
	cases := []struct {
		name         string
		js           string
		args         []any
		line, column int
	}{
		{"expression", "1;\n  throw new Error('two')", nil, 1, 2},
		{"function with args", "(a) => {\n  throw new Error(a)\n}", []any{"x"}, 1, 2},
		{"function with args, first line", "a => { throw new Error(a) }", []any{"x"}, 0, 7},
		{"function without args", "() => {\n\n    throw new Error('three')\n}", nil, 2, 4},
		{"syntax error with args", "(a) => {\n  a +* 1\n}", []any{1}, 1, 5},
		{"not a function", "42", []any{1}, 0, 2},
	}
	for _, c := range cases {
		_, err := p.Eval(ctx, c.js, c.args...)
		var ee *rodagent.EvalError
		if !errors.As(err, &ee) {
			t.Errorf("%s: want an *EvalError, got %v", c.name, err)
			continue
		}
		if ee.Line != c.line || ee.Column != c.column {
			t.Errorf("%s: %q at line %d column %d, want line %d column %d", c.name, ee.Message, ee.Line, ee.Column, c.line, c.column)
		}
	}
}
