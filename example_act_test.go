package rodagent_test

import (
	"context"
	"fmt"
	"strings"
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

// Select chooses in a dropdown drawn with ARIA as a person does (it opens
// it and clicks the option), and Type moves a slider drawn with ARIA with
// the keys a person would press.
func ExamplePage_Select() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	b, err := rodagent.Launch(ctx)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer b.Close()
	p, err := b.NewPage(ctx, page(`<button id="size" aria-haspopup="listbox" aria-expanded="false">Size: S</button>
		<ul id="list" role="listbox" hidden><li role="option">S</li><li role="option">M</li><li role="option">L</li></ul>
		<div role="slider" aria-label="Volume" tabindex="0" aria-valuemin="0" aria-valuemax="100" aria-valuenow="50">50</div>
		<script>
		const size = document.getElementById('size'), list = document.getElementById('list');
		size.onclick = () => { list.hidden = !list.hidden; size.setAttribute('aria-expanded', String(!list.hidden)); };
		for (const o of list.children) o.onclick = () => { size.textContent = 'Size: ' + o.textContent; list.hidden = true; size.setAttribute('aria-expanded', 'false'); };
		const vol = document.querySelector('[role=slider]');
		vol.onkeydown = e => {
			const d = {ArrowUp: 5, ArrowRight: 5, ArrowDown: -5, ArrowLeft: -5, PageUp: 20, PageDown: -20}[e.key];
			if (d) { const v = Math.min(100, Math.max(0, +vol.getAttribute('aria-valuenow') + d)); vol.setAttribute('aria-valuenow', v); vol.textContent = v; }
		};
		</script>`))
	if err != nil {
		fmt.Println(err)
		return
	}
	snap, _ := p.Snapshot(ctx)
	var size, volume string
	for _, r := range snap.Refs {
		switch r.Role {
		case "button":
			size = r.Ref
		case "slider":
			volume = r.Ref
		}
	}
	st, err := p.Select(ctx, size, "L")
	fmt.Println(st, err)
	st, err = p.Type(ctx, volume, "85")
	fmt.Println(st, err)
	snap, _ = p.Snapshot(ctx, rodagent.WithFull())
	for _, r := range snap.Refs {
		fmt.Printf("%s %q value=%q\n", r.Role, r.Name, r.State.Value)
	}
	// Output:
	// ready <nil>
	// ready <nil>
	// button "Size: L" value=""
	// slider "Volume" value="85"
}

// A look after an action waits for what the action set in motion, for at
// most 1.5 s. When the page is still busy then (here an interval the click
// started keeps changing it), the look says so: Unsettled names what was
// going, and the text tells the agent to look again before it judges the
// action.
func ExampleSnapshot_unsettled() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	b, err := rodagent.Launch(ctx)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer b.Close()
	p, err := b.NewPage(ctx, page(`<button onclick="setInterval(() => { document.querySelector('output').value++ }, 50)">Count</button><output>0</output>`))
	if err != nil {
		fmt.Println(err)
		return
	}
	snap, _ := p.Snapshot(ctx)
	if _, err := p.Click(ctx, snap.Refs[0].Ref); err != nil {
		fmt.Println(err)
		return
	}
	snap, _ = p.Snapshot(ctx)
	fmt.Println(snap.Unsettled)
	fmt.Println(strings.Contains(snap.String(), "still moving: "))
	// Output:
	// work
	// true
}

// RightClick opens a page's own context menu: its items are refs in the
// next look.
func ExamplePage_RightClick() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	b, err := rodagent.Launch(ctx)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer b.Close()
	p, err := b.NewPage(ctx, page(`<div id=row onclick="this.style.background='#def'">Q1.xlsx</div>
<ul role=menu hidden id=menu><li role=menuitem onclick="this.textContent='Deleted'">Delete</li></ul>
<script>row.addEventListener('contextmenu', e => { e.preventDefault(); menu.hidden = false; });</script>`))
	if err != nil {
		fmt.Println(err)
		return
	}
	snap, _ := p.Snapshot(ctx)
	if _, err := p.RightClick(ctx, snap.Refs[0].Ref); err != nil {
		fmt.Println(err)
		return
	}
	snap, _ = p.Snapshot(ctx)
	for _, r := range snap.Refs {
		if r.Role == "menuitem" {
			fmt.Println(r.Ref, r.Name)
		}
	}
	// Output:
	// mi-delete Delete
}

// A submit the browser refuses for its fields' constraints changes no DOM;
// the look names each field that failed and the browser's message.
func ExampleState_error() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	b, err := rodagent.Launch(ctx)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer b.Close()
	p, err := b.NewPage(ctx, page(`<form><label>Email <input type=email required></label><button>Join</button></form>`))
	if err != nil {
		fmt.Println(err)
		return
	}
	if _, err := p.Snapshot(ctx); err != nil { // mints inp-email, btn-join
		fmt.Println(err)
		return
	}
	if _, err := p.Click(ctx, "btn-join"); err != nil {
		fmt.Println(err)
		return
	}
	snap, _ := p.Snapshot(ctx)
	for _, r := range snap.Refs {
		if r.State.Invalid {
			fmt.Printf("%s: %s\n", r.Ref, r.State.Error)
		}
	}
	// Output:
	// inp-email: Please fill out this field.
}
