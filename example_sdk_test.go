package rodagent_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/rodagent/rodagent"
)

// An annotated screenshot: each ref's handle drawn at its box, with the boxes
// as data beside the image, for a model that looks as well as reads.
func ExamplePage_Screenshot() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	b, err := rodagent.Launch(ctx)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer b.Close()
	p, err := b.NewPage(ctx, page(`<main style="margin:0">
		<button style="position:absolute;left:20px;top:20px;width:120px;height:40px">Save</button>
		<a href="#help" style="position:absolute;left:200px;top:30px">Help</a></main>`))
	if err != nil {
		fmt.Println(err)
		return
	}
	if _, err := p.Snapshot(ctx); err != nil {
		fmt.Println(err)
		return
	}
	shot, err := p.Screenshot(ctx, rodagent.ShotAnnotate())
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(shot.Format, bytes.HasPrefix(shot.Data, []byte("\x89PNG")))
	for _, r := range shot.Refs {
		fmt.Printf("%s at %.0f,%.0f\n", r.Ref, r.Box.X, r.Box.Y)
	}
	// A single element, as JPEG.
	el, err := p.Screenshot(ctx, rodagent.ShotElement("btn-save"), rodagent.ShotJPEG(80))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(el.Format)
	// Output:
	// png true
	// btn-save at 20,20
	// lnk-help at 200,30
	// jpeg
}

// Eval runs JavaScript in the page's own world; exceptions are typed.
func ExamplePage_Eval() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	b, err := rodagent.Launch(ctx)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer b.Close()
	p, err := b.NewPage(ctx, page(`<ul><li>one</li><li>two</li></ul><script>var appVersion = "2.1"</script>`))
	if err != nil {
		fmt.Println(err)
		return
	}
	n, _ := p.Eval(ctx, `document.querySelectorAll("li").length`)
	v, _ := p.Eval(ctx, `appVersion`)
	s, _ := p.Eval(ctx, `(sel, i) => document.querySelectorAll(sel)[i].textContent`, "li", 1)
	fmt.Println(n.Int(), v.Str(), s.Str())

	_, err = p.Eval(ctx, `null.x`)
	var ee *rodagent.EvalError
	fmt.Println(errors.As(err, &ee), ee.Message)
	// Output:
	// 2 2.1 two
	// true TypeError: Cannot read properties of null (reading 'x')
}

// A mark for a person watching the browser, which outlives the turn and
// takes no input.
func ExamplePage_Annotate() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	b, err := rodagent.Launch(ctx)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer b.Close()
	p, err := b.NewPage(ctx, page(`<main><p>Total: <output>42.00</output></p><button>Pay</button></main>`))
	if err != nil {
		fmt.Println(err)
		return
	}
	if _, err := p.Snapshot(ctx); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(p.Annotate(ctx, "btn-pay", "pay only after the total is checked"))
	st, err := p.Click(ctx, "btn-pay") // the mark does not stand in the way
	fmt.Println(st, err)
	fmt.Println(p.ClearAnnotations(ctx))
	// Output:
	// <nil>
	// ready <nil>
	// <nil>
}

// Emulation: the page sees another locale, time zone, colour scheme and
// viewport.
func ExamplePage_SetLocale() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	b, err := rodagent.Launch(ctx)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer b.Close()
	p, err := b.NewPage(ctx, page(`<h1>Hello</h1>`))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, err := range []error{
		p.SetLocale(ctx, "de-DE"),
		p.SetTimezone(ctx, "America/New_York"),
		p.SetColorScheme(ctx, "dark"),
		p.SetViewport(ctx, 390, 844, 3),
	} {
		if err != nil {
			fmt.Println(err)
			return
		}
	}
	v, err := p.Eval(ctx, `[navigator.language, Intl.DateTimeFormat().resolvedOptions().timeZone,
		matchMedia("(prefers-color-scheme: dark)").matches, innerWidth, devicePixelRatio]`)
	fmt.Println(v, err)
	// Output:
	// [de-DE America/New_York true 390 3] <nil>
}

// Print to PDF.
func ExamplePage_PDF() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	b, err := rodagent.Launch(ctx)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer b.Close()
	p, err := b.NewPage(ctx, page(`<h1>Invoice 42</h1>`))
	if err != nil {
		fmt.Println(err)
		return
	}
	pdf, err := p.PDF(ctx, rodagent.PDFPaper(8.27, 11.69), rodagent.PDFBackground())
	fmt.Println(bytes.HasPrefix(pdf, []byte("%PDF-")), err)
	// Output:
	// true <nil>
}
