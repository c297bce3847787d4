package rodagent

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync"
	"time"

	"github.com/go-rod/rod/lib/proto"
)

// ErrBadOption reports options that cannot work together or values out of
// range (two screenshot areas at once, a JPEG quality of 120, …).
var ErrBadOption = errors.New("rodagent: bad option")

// ScreenshotOption configures one Screenshot call.
type ScreenshotOption func(*shotConfig)

type shotConfig struct {
	ref      string
	loc      *Locator
	full     bool
	clip     *Box
	jpeg     bool
	quality  int
	annotate bool
	areas    int // how many of ref, loc, full and clip were set
}

// ShotElement captures only the element a ref names (scrolled into view
// first, as an action would), in any frame.
func ShotElement(ref string) ScreenshotOption {
	return func(c *shotConfig) { c.ref = ref; c.areas++ }
}

// ShotLocator captures only the single element a locator matches; more than
// one match fails with Ambiguous, as actions do.
func ShotLocator(l Locator) ScreenshotOption {
	return func(c *shotConfig) { c.loc = &l; c.areas++ }
}

// ShotFullPage captures the whole scrollable page, not only the viewport,
// without resizing the viewport (the page sees no resize event).
func ShotFullPage() ScreenshotOption { return func(c *shotConfig) { c.full = true; c.areas++ } }

// ShotClip captures a rectangle given in CSS pixels of the top-level viewport
// (the coordinates of BrowserRef.Box).
func ShotClip(b Box) ScreenshotOption { return func(c *shotConfig) { c.clip = &b; c.areas++ } }

// ShotJPEG encodes the image as JPEG at quality 1–100 instead of PNG.
func ShotJPEG(quality int) ScreenshotOption {
	return func(c *shotConfig) { c.jpeg, c.quality = true, quality }
}

// ShotAnnotate draws each ref's handle on the image at the ref's box — in
// every frame, clipped to what is visible — and fills Shot.Refs with the
// boxes. The labels are drawn on the captured image, never in the page, so
// the page's layout, hit testing and mutation observers see nothing.
func ShotAnnotate() ScreenshotOption { return func(c *shotConfig) { c.annotate = true } }

// Shot is a captured image.
type Shot struct {
	Data   []byte   // the encoded image
	Format string   // "png" or "jpeg"
	Refs   []RefBox // with ShotAnnotate: the labelled refs, in document order
}

// RefBox is one ref drawn on an annotated screenshot.
type RefBox struct {
	Ref  string `json:"ref"`  // the handle, as drawn
	Role string `json:"role"` // its role
	Name string `json:"name"` // its accessible name (page text: quote before showing it to a model)
	Box  Box    `json:"box"`  // its visible part, in CSS pixels of the image (0,0 is the image's top left)
}

func (c *shotConfig) check() error {
	if c.areas > 1 {
		return fmt.Errorf("%w: screenshot: choose one of ShotElement, ShotLocator, ShotFullPage and ShotClip", ErrBadOption)
	}
	if c.jpeg && (c.quality < 1 || c.quality > 100) {
		return fmt.Errorf("%w: screenshot: JPEG quality %d is outside 1–100", ErrBadOption, c.quality)
	}
	if c.clip != nil && (c.clip.Width < 1 || c.clip.Height < 1 || math.IsNaN(c.clip.X+c.clip.Y+c.clip.Width+c.clip.Height)) {
		return fmt.Errorf("%w: screenshot: clip %+v has no area", ErrBadOption, *c.clip)
	}
	if c.ref == "" && c.areas == 1 && c.loc == nil && !c.full && c.clip == nil {
		return fmt.Errorf("%w: screenshot: ShotElement needs a ref", ErrBadOption)
	}
	return nil
}

// Screenshot captures the tab: by default the viewport as a PNG; the options
// choose an element, the full page or a rectangle, JPEG, and ref labels.
// It reads the page and never acts on it, so it asks no Approver. Frames
// in view that run in a process of their own have painted what their
// documents show at the call (see framesPainted).
func (p *Page) Screenshot(ctx context.Context, opts ...ScreenshotOption) (*Shot, error) {
	var cfg shotConfig
	for _, o := range opts {
		if o != nil {
			o(&cfg)
		}
	}
	if err := cfg.check(); err != nil {
		return nil, err
	}
	unlock, err := p.lock(ctx, "screenshot")
	if err != nil {
		return nil, err
	}
	defer unlock()
	if err := p.awaitCommit(ctx, "screenshot"); err != nil {
		return nil, err
	}

	metrics, err := proto.PageGetLayoutMetrics{}.Call(p.main.Bind(ctx))
	if err != nil {
		return nil, p.b.wrapErr(ctx, err)
	}
	vw, vh, sx, sy := viewportOf(metrics)
	// area is what the image shows, in top-level viewport CSS pixels.
	area := Box{Width: vw, Height: vh}
	switch {
	case cfg.full:
		if metrics.CSSContentSize == nil {
			return nil, fmt.Errorf("rodagent: screenshot: the page reports no content size")
		}
		area = Box{X: -sx, Y: -sy, Width: math.Max(metrics.CSSContentSize.Width, 1), Height: math.Max(metrics.CSSContentSize.Height, 1)}
	case cfg.clip != nil:
		area = *cfg.clip
	case cfg.ref != "" || cfg.loc != nil:
		f := p.byRef(cfg.ref)
		if cfg.loc != nil {
			f = p.byLocator(*cfg.loc)
		}
		if area, err = p.elementArea(ctx, f); err != nil {
			return nil, err
		}
		// Scrolling the element into view moved the page: measure again.
		if metrics, err = (proto.PageGetLayoutMetrics{}).Call(p.main.Bind(ctx)); err != nil {
			return nil, p.b.wrapErr(ctx, err)
		}
		vw, vh, sx, sy = viewportOf(metrics)
	}

	var labels []RefBox
	if cfg.annotate {
		if labels, err = p.refBoxes(ctx, area); err != nil {
			return nil, err
		}
	}
	p.framesPainted(ctx, vw, vh)
	req := proto.PageCaptureScreenshot{Format: proto.PageCaptureScreenshotFormatPng}
	if cfg.jpeg && !cfg.annotate {
		req.Format, req.Quality = proto.PageCaptureScreenshotFormatJpeg, &cfg.quality
	}
	if area != (Box{Width: vw, Height: vh}) {
		// The clip is in document coordinates: the viewport's plus the scroll offset.
		req.Clip = &proto.PageViewport{X: area.X + sx, Y: area.Y + sy, Width: area.Width, Height: area.Height, Scale: 1}
		// Capturing beyond the viewport makes Chromium lay the page out
		// again at a larger size, and out-of-process frames can paint blank
		// in the frames after it: only ask for it when the area needs it.
		inside := area.X >= 0 && area.Y >= 0 && area.X+area.Width <= vw && area.Y+area.Height <= vh
		req.CaptureBeyondViewport = !inside
	}
	res, err := req.Call(p.main.Bind(ctx))
	if err != nil {
		return nil, p.b.wrapErr(ctx, err)
	}
	shot := &Shot{Data: res.Data, Format: string(req.Format)}
	if cfg.annotate {
		format := "png"
		if cfg.jpeg {
			format = "jpeg"
		}
		if shot.Data, err = drawLabels(res.Data, deviceScale(metrics), labels, format, cfg.quality); err != nil {
			return nil, fmt.Errorf("rodagent: screenshot: drawing labels: %w", err)
		}
		shot.Format, shot.Refs = format, labels
	}
	return shot, nil
}

// viewportOf returns the layout viewport's size and scroll offset in CSS pixels.
func viewportOf(m *proto.PageGetLayoutMetricsResult) (w, h, sx, sy float64) {
	if v := m.CSSLayoutViewport; v != nil {
		return float64(v.ClientWidth), float64(v.ClientHeight), float64(v.PageX), float64(v.PageY)
	}
	return 0, 0, 0, 0
}

// deviceScale is the number of image pixels per CSS pixel: the device scale
// factor (the layout viewport in device pixels over the same in CSS pixels).
func deviceScale(m *proto.PageGetLayoutMetricsResult) float64 {
	if m.LayoutViewport != nil && m.CSSLayoutViewport != nil && m.CSSLayoutViewport.ClientWidth > 0 {
		if s := float64(m.LayoutViewport.ClientWidth) / float64(m.CSSLayoutViewport.ClientWidth); s > 0 {
			return s
		}
	}
	return 1
}

// elementArea scrolls the element into view and returns its border box in
// top-level viewport coordinates.
func (p *Page) elementArea(ctx context.Context, f finder) (Box, error) {
	t, err := f.find(ctx, "screenshot")
	if err != nil {
		return Box{}, err
	}
	res, err := proto.DOMGetContentQuads{BackendNodeID: t.elem.Node}.Call(t.sess.Bind(ctx))
	if err != nil {
		return Box{}, p.actionErr(ctx, "screenshot", t.handle, err)
	}
	var ox, oy float64
	if t.sess.ID != p.main.ID {
		if ox, oy, err = p.frameOrigin(ctx, t.frame); err != nil {
			return Box{}, t.fail(ctx, p, "screenshot", err)
		}
	}
	minX, minY, maxX, maxY := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, q := range res.Quads {
		if len(q) < 8 || quadArea(q) < 1 {
			continue
		}
		for i := 0; i < 8; i += 2 {
			minX, maxX = math.Min(minX, q[i]), math.Max(maxX, q[i])
			minY, maxY = math.Min(minY, q[i+1]), math.Max(maxY, q[i+1])
		}
	}
	if math.IsInf(minX, 1) {
		return Box{}, failure("screenshot", t.handle, ZeroRect, "", nil)
	}
	return Box{X: minX + ox, Y: minY + oy, Width: maxX - minX, Height: maxY - minY}, nil
}

// paintedJS resolves, in a frame's document, once the frame has rendered
// two frames from now (what its document shows now has been painted and
// handed to the compositor), or at once in a hidden page, which renders
// nothing.
const paintedJS = `document.visibilityState !== 'visible' ? true :
	new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))`

// framePaintMax bounds the wait for an out-of-process frame in view that
// renders no frame (its renderer stuck): the image then shows what it
// painted last.
const framePaintMax = 3 * time.Second

// framesPainted waits until every out-of-process frame whose <iframe> is in
// the viewport (vw × vh) has painted what its document shows now.
// Page.captureScreenshot makes the tab's own renderer draw a new frame, but
// an out-of-process frame's renderer paints on its own schedule: the image
// showed what such a frame had painted last — under load, a mark Annotate
// had just drawn or ClearAnnotations had just removed in it, or nothing at
// all for a frame that had not painted since it loaded
// (TestAnnotateLeavesAMarkWithoutActing). Frames out of view are left out:
// their renderers throttle them and render no frame to wait for.
func (p *Page) framesPainted(ctx context.Context, vw, vh float64) {
	p.mu.Lock()
	var frames []frameInfo
	for _, f := range p.frames {
		if f.oopif && !f.detached && f.sess.ID != p.main.ID {
			frames = append(frames, *f)
		}
	}
	p.mu.Unlock()
	if len(frames) == 0 {
		return
	}
	wctx, cancel := context.WithTimeout(ctx, framePaintMax)
	defer cancel()
	var wg sync.WaitGroup
	for _, f := range frames {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if b, ok := p.frameBox(wctx, f); ok {
				if _, in := intersect(b, Box{Width: vw, Height: vh}); in {
					p.runInWorld(wctx, f, paintedJS)
				}
			}
		}()
	}
	wg.Wait()
}

// frameBox is the content box of the <iframe> showing out-of-process frame
// f, in top-level viewport coordinates; false when it has none (display:
// none, gone) or the frames between it and the top are not known.
func (p *Page) frameBox(ctx context.Context, f frameInfo) (Box, bool) {
	chain, err := p.ownerChainNow(ctx, f)
	if err != nil || len(chain) == 0 {
		return Box{}, false
	}
	var b Box
	for i, o := range chain {
		bm, err := proto.DOMGetBoxModel{BackendNodeID: o.owner}.Call(o.sess.Bind(ctx))
		if err != nil || bm.Model == nil || len(bm.Model.Content) < 8 {
			return Box{}, false
		}
		q := bm.Model.Content
		b.X += q[0]
		b.Y += q[1]
		if i == 0 {
			b.Width, b.Height = q[4]-q[0], q[5]-q[1]
		}
	}
	return b, true
}
