package agenttool

import (
	"context"
	"fmt"

	"github.com/rodagent/rodagent"
)

// screenshot captures the page as an image for the model.
func (t *Tool) screenshot(ctx context.Context, p *rodagent.Page, in Input) (Result, error) {
	data, err := p.Screenshot(ctx)
	if err != nil {
		return Result{}, err
	}
	text := fmt.Sprintf("screenshot of the viewport: png, %d bytes\n", len(data))
	return Result{OK: true, Text: text, Image: &Image{Data: data, MIMEType: "image/png"}}, nil
}
