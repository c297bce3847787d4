package server

// Screenshot options, PDF, Eval and SetViewport come to the library from the
// "sdk" work; until they land on main, these use the *rod.Page escape hatch
// (and no library call whose signature that work changes). Each is one call
// the routes make, so switching to the library is local to this file.

import (
	"context"
	"fmt"
	"net/http"

	"github.com/go-rod/rod/lib/proto"

	"github.com/rodagent/rodagent"
)

func unsupported(what string) error {
	return &apiError{code: "unsupported", http: http.StatusNotImplemented, msg: what + " is not available in this build"}
}

// shoot captures the tab: the viewport, or the whole page.
func shoot(ctx context.Context, p *rodagent.Page, in shotRequest) (data []byte, format string, refs any, err error) {
	if in.Ref != "" || in.Annotate {
		return nil, "", nil, unsupported("an element or annotated screenshot")
	}
	req := &proto.PageCaptureScreenshot{Format: proto.PageCaptureScreenshotFormatPng}
	format = "png"
	if in.Type == "jpeg" {
		req.Format, format = proto.PageCaptureScreenshotFormatJpeg, "jpeg"
		if in.Quality > 0 {
			req.Quality = &in.Quality
		}
	}
	data, err = p.Rod().Context(ctx).Screenshot(in.FullPage, req)
	if err != nil {
		return nil, "", nil, fmt.Errorf("server: screenshot: %v", err)
	}
	return data, format, nil, nil
}

func printPDF(ctx context.Context, p *rodagent.Page) ([]byte, error) {
	res, err := proto.PagePrintToPDF{PrintBackground: true}.Call(p.Rod().Context(ctx))
	if err != nil {
		return nil, fmt.Errorf("server: pdf: %v", err)
	}
	return res.Data, nil
}

func evaluate(ctx context.Context, p *rodagent.Page, js string, args ...any) (any, error) {
	evalErr := func(err error) error {
		return &apiError{code: "eval_error", http: http.StatusUnprocessableEntity, msg: fmt.Sprintf("evaluate: %v", err)}
	}
	if len(args) > 0 {
		res, err := p.Rod().Context(ctx).Eval(js, args...)
		if err != nil {
			return nil, evalErr(err)
		}
		return res.Value, nil
	}
	// Without arguments js is a plain expression, as the library's Eval takes it.
	res, err := proto.RuntimeEvaluate{Expression: js, ReturnByValue: true, AwaitPromise: true}.Call(p.Rod().Context(ctx))
	if err != nil {
		return nil, evalErr(err)
	}
	if res.ExceptionDetails != nil {
		return nil, evalErr(fmt.Errorf("%s", res.ExceptionDetails.Exception.Description))
	}
	return res.Result.Value, nil
}

func resize(ctx context.Context, p *rodagent.Page, width, height int, scale float64) error {
	err := proto.EmulationSetDeviceMetricsOverride{Width: width, Height: height, DeviceScaleFactor: scale}.Call(p.Rod().Context(ctx))
	if err != nil {
		return fmt.Errorf("server: resize: %v", err)
	}
	return nil
}
