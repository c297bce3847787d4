package rodagent

import (
	"context"
	"fmt"
	"strings"

	"github.com/go-rod/rod/lib/proto"
)

// PDFOption configures one PDF call.
type PDFOption func(*pdfConfig)

type pdfConfig struct {
	req proto.PagePrintToPDF
	err error
}

// PDFLandscape prints in landscape orientation.
func PDFLandscape() PDFOption { return func(c *pdfConfig) { c.req.Landscape = true } }

// PDFBackground prints background colours and images (off by default, as in
// a browser's print dialog).
func PDFBackground() PDFOption { return func(c *pdfConfig) { c.req.PrintBackground = true } }

// PDFPaper sets the paper size in inches (default US Letter, 8.5×11; A4 is
// 8.27×11.69).
func PDFPaper(width, height float64) PDFOption {
	return func(c *pdfConfig) {
		if width <= 0 || height <= 0 {
			c.err = fmt.Errorf("%w: pdf: paper %gx%g has no area", ErrBadOption, width, height)
		}
		c.req.PaperWidth, c.req.PaperHeight = &width, &height
	}
}

// PDFMargins sets the page margins in inches (default 0.4 on every side).
func PDFMargins(top, right, bottom, left float64) PDFOption {
	return func(c *pdfConfig) {
		if top < 0 || right < 0 || bottom < 0 || left < 0 {
			c.err = fmt.Errorf("%w: pdf: negative margin", ErrBadOption)
		}
		c.req.MarginTop, c.req.MarginRight, c.req.MarginBottom, c.req.MarginLeft = &top, &right, &bottom, &left
	}
}

// PDFScale scales the rendering, 0.1–2 (default 1).
func PDFScale(s float64) PDFOption {
	return func(c *pdfConfig) {
		if s < 0.1 || s > 2 {
			c.err = fmt.Errorf("%w: pdf: scale %g is outside 0.1–2", ErrBadOption, s)
		}
		c.req.Scale = &s
	}
}

// PDFPageRanges prints only some pages, such as "1-3, 5" (default all).
func PDFPageRanges(ranges string) PDFOption {
	return func(c *pdfConfig) { c.req.PageRanges = ranges }
}

// PDF prints the tab to PDF, as Chromium's print to PDF does (print media
// styles apply). Chromium prints only when headless; a visible browser
// returns an error saying so.
func (p *Page) PDF(ctx context.Context, opts ...PDFOption) ([]byte, error) {
	var cfg pdfConfig
	for _, o := range opts {
		if o != nil {
			o(&cfg)
		}
	}
	if cfg.err != nil {
		return nil, cfg.err
	}
	unlock, err := p.lock(ctx, "pdf")
	if err != nil {
		return nil, err
	}
	defer unlock()
	if err := p.awaitCommit(ctx, "pdf"); err != nil {
		return nil, err
	}
	res, err := cfg.req.Call(p.main.Bind(ctx))
	if err != nil {
		msg := err.Error()
		switch {
		case ctx.Err() != nil:
			return nil, failure("pdf", "", Timeout, "still printing", ctx.Err())
		case strings.Contains(msg, "Page range"):
			return nil, fmt.Errorf("%w: pdf: page ranges %q do not fit the document", ErrBadOption, cfg.req.PageRanges)
		case strings.Contains(msg, "PrintToPDF is not implemented") || strings.Contains(msg, "not supported"):
			return nil, fmt.Errorf("rodagent: pdf: this browser prints to PDF only when headless")
		}
		if e := p.alive(); e != nil {
			return nil, e
		}
		return nil, fmt.Errorf("rodagent: pdf: %w", p.b.wrapErr(ctx, err))
	}
	return res.Data, nil
}
