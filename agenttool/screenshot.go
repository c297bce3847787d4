package agenttool

import (
	"context"
	"fmt"
	"strings"

	"github.com/rodagent/rodagent"
)

// screenshot captures the viewport, an element or the full page as an image
// for the model; annotated, the refs are drawn on it and listed with their
// boxes, so the model can tie what it sees to what it can act on.
func (t *Tool) screenshot(ctx context.Context, p *rodagent.Page, in Input) (Result, error) {
	var opts []rodagent.ScreenshotOption
	what := "the viewport"
	switch in.Mode {
	case "element":
		opts = append(opts, rodagent.ShotElement(in.Ref))
		what = in.Ref
	case "full_page":
		opts = append(opts, rodagent.ShotFullPage())
		what = "the full page"
	}
	if in.Annotate {
		opts = append(opts, rodagent.ShotAnnotate())
	}
	shot, err := p.Screenshot(ctx, opts...)
	if err != nil {
		return Result{}, err
	}
	r := Result{OK: true, Image: &Image{Data: shot.Data, MIMEType: "image/" + shot.Format}}
	var b strings.Builder
	fmt.Fprintf(&b, "screenshot of %s: %s, %d bytes\n", what, shot.Format, len(shot.Data))
	if in.Annotate {
		fmt.Fprintf(&b, "%d refs drawn on the image (x,y width×height in CSS pixels of the image):\n", len(shot.Refs))
		for _, rb := range shot.Refs {
			r.Boxes = append(r.Boxes, RefBox{Ref: rb.Ref, Role: rb.Role, Name: rb.Name, Box: rb.Box})
			fmt.Fprintf(&b, "%s %s at %.0f,%.0f %.0f×%.0f\n", rb.Ref, rodagent.Quote(rb.Name, 100), rb.Box.X, rb.Box.Y, rb.Box.Width, rb.Box.Height)
		}
		b.WriteString(rodagent.SafetyLine + "\n")
	}
	r.Text = b.String()
	return r, nil
}
