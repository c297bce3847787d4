package rodagent_test

import (
	"context"
	"fmt"
	"time"

	"github.com/rodagent/rodagent"
)

// An action that navigates is reported by LastAction; the next Snapshot
// waits for the new document and says where the tab went.
func ExamplePage_LastAction() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	b, err := rodagent.Launch(ctx)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer b.Close()
	p, err := b.NewPage(ctx, page(`<button onclick="location.href = 'about:blank'">Go</button>`))
	if err != nil {
		fmt.Println(err)
		return
	}
	snap, _ := p.Snapshot(ctx)
	if _, err := p.Click(ctx, snap.Refs[0].Ref); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("navigated:", p.LastAction().Navigated)
	snap, _ = p.Snapshot(ctx)
	fmt.Println(snap.Navigated != "")
	// Output:
	// navigated: true
	// true
}

// Type sends a keystroke per character; Press takes characters, named keys
// and chords; date inputs take their ISO value.
func ExamplePage_Press() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	b, err := rodagent.Launch(ctx)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer b.Close()
	p, err := b.NewPage(ctx, page(`<label>Name <input></label><label>Due <input type="date"></label>`))
	if err != nil {
		fmt.Println(err)
		return
	}
	snap, _ := p.Snapshot(ctx)
	name, due := snap.Refs[0].Ref, snap.Refs[1].Ref
	_, _ = p.Type(ctx, name, "hello world")
	_, _ = p.Press(ctx, "Control+A")
	_, _ = p.Press(ctx, "H")
	st, err := p.Type(ctx, due, "2024-03-09")
	fmt.Println(st, err)
	st, err = p.Type(ctx, due, "9 March")
	fmt.Println(st)
	// Output:
	// ready <nil>
	// invalid_value
}

// ScrollAt turns the wheel over an element, not the page.
func ExamplePage_ScrollAt() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	b, err := rodagent.Launch(ctx)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer b.Close()
	p, err := b.NewPage(ctx, page(`<div role="feed" aria-label="News" tabindex="0" style="height:100px;overflow:auto">
		<p style="height:1000px">stories</p></div>`))
	if err != nil {
		fmt.Println(err)
		return
	}
	snap, _ := p.Snapshot(ctx)
	for _, r := range snap.Refs {
		if r.Role == "feed" {
			st, err := p.ScrollAt(ctx, r.Ref, "down", 200)
			fmt.Println(st, err)
		}
	}
	// Output: ready <nil>
}
