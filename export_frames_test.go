package rodagent

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/go-rod/rod/lib/proto"
)

// EvalInFrames evaluates expr (a promise is awaited) in the library's
// isolated world of every frame of p — in and out of process — at once, and
// returns one "frame@document=result" line per frame, sorted: a frame that
// came, went or loaded another document changes the lines. A frame that
// cannot answer (its document is going away) reads "?".
func EvalInFrames(ctx context.Context, p *Page, expr string) (string, error) {
	if err := p.waitChildren(ctx); err != nil {
		return "", err
	}
	p.mu.Lock()
	var frames []frameInfo
	for _, f := range p.frames {
		if f.detached || f.sess.Conn == nil {
			continue
		}
		if c := p.children[f.sess.ID]; f.sess.ID != p.main.ID && (c == nil || c.detached) {
			continue
		}
		frames = append(frames, *f)
	}
	p.mu.Unlock()
	lines := make([]string, len(frames))
	var wg sync.WaitGroup
	for i, f := range frames {
		wg.Go(func() {
			v := "?"
			if w, err := p.world(ctx, f); err == nil {
				res, err := proto.RuntimeEvaluate{Expression: expr, ContextID: w, ReturnByValue: true, AwaitPromise: true}.Call(f.sess.Bind(ctx))
				if err == nil && res.ExceptionDetails == nil {
					v = res.Result.Value.JSON("", "")
				}
			}
			lines[i] = fmt.Sprintf("%s@%s=%s", f.id, f.loader, v)
		})
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return "", err
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n"), nil
}
