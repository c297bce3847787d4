package rodagent

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/draw"
	"image/jpeg"
	"image/png"
	"math"

	"github.com/go-rod/rod/lib/proto"
	"github.com/ysmood/gson"
	"golang.org/x/sync/errgroup"
)

// refBoxes reads the page's refs now and returns the visible part of each,
// relative to area (what the image shows). Only refs the tab has issued are
// labelled — a label must name a handle an action accepts — so refs that
// appeared since the last Snapshot are left out. On a page with no look yet
// the screenshot is the first look: it mints the handles, as Snapshot would.
func (p *Page) refBoxes(ctx context.Context, area Box) ([]RefBox, error) {
	inv, err := p.collect(ctx, readFast, false)
	if err != nil {
		return nil, err
	}
	p.mu.Lock()
	p.resetRefsLocked()
	reg := p.reg
	handles := make([]string, len(inv.elems))
	known := 0
	for i, e := range inv.elems {
		if h, ok := reg.HandleOf(e.Key()); ok {
			if live, _ := reg.Lookup(h); live != nil && live.Role == e.Role {
				handles[i] = h
				known++
			}
		}
	}
	if known == 0 && len(inv.elems) > 0 {
		reg.Update(inv.elems)
		for i, e := range inv.elems {
			handles[i] = e.Handle
		}
	}
	p.mu.Unlock()

	clips := frameClips(inv, area)
	var out []RefBox
	for i, e := range inv.elems {
		if handles[i] == "" || !e.HasBox {
			continue
		}
		clip, ok := clips[proto.PageFrameID(e.Frame)]
		if !ok {
			continue
		}
		b, ok := intersect(Box{X: e.Box.X, Y: e.Box.Y, Width: e.Box.W, Height: e.Box.H}, clip)
		if !ok {
			continue
		}
		b.X -= area.X
		b.Y -= area.Y
		out = append(out, RefBox{Ref: handles[i], Role: e.Role, Name: e.Name, Box: b})
	}
	return out, nil
}

// frameClips is the visible rectangle of each frame in top-level viewport
// coordinates: its <iframe>'s content box cut by every frame around it, and
// by the area the image shows. A frame missing from the map is not visible.
func frameClips(inv *inventory, area Box) map[proto.PageFrameID]Box {
	clips := map[proto.PageFrameID]Box{}
	var clipOf func(j *frameJob, depth int) (Box, bool)
	clipOf = func(j *frameJob, depth int) (Box, bool) {
		if c, ok := clips[j.info.id]; ok {
			return c, true
		}
		parent := inv.byID[j.info.parent]
		if parent == nil || j.info.parent == "" {
			clips[j.info.id] = area
			return area, true
		}
		if !j.hasBox || depth > 32 {
			return Box{}, false
		}
		pc, ok := clipOf(parent, depth+1)
		if !ok {
			return Box{}, false
		}
		c, ok := intersect(Box{X: j.originX, Y: j.originY, Width: j.box.W, Height: j.box.H}, pc)
		if ok {
			clips[j.info.id] = c
		}
		return c, ok
	}
	for _, j := range inv.frames {
		if j.err == nil {
			clipOf(j, 0)
		}
	}
	return clips
}

// intersect returns the common part of a and b, and whether it has area.
func intersect(a, b Box) (Box, bool) {
	x0, y0 := math.Max(a.X, b.X), math.Max(a.Y, b.Y)
	x1, y1 := math.Min(a.X+a.Width, b.X+b.Width), math.Min(a.Y+a.Height, b.Y+b.Height)
	if x1-x0 < 1 || y1-y0 < 1 {
		return Box{}, false
	}
	return Box{X: x0, Y: y0, Width: x1 - x0, Height: y1 - y0}, true
}

// labelColors cycle from ref to ref so neighbouring labels stand apart; all
// are dark enough for white text.
var labelColors = []color.RGBA{
	{0xC2, 0x18, 0x5B, 0xFF}, // magenta
	{0x15, 0x65, 0xC0, 0xFF}, // blue
	{0x2E, 0x7D, 0x32, 0xFF}, // green
	{0xE6, 0x51, 0x00, 0xFF}, // orange
	{0x6A, 0x1B, 0x9A, 0xFF}, // purple
	{0x00, 0x69, 0x5C, 0xFF}, // teal
}

// labelPad is the space around a label's text, in font pixels.
const labelPad = 1

// drawLabels decodes the PNG Chromium captured, outlines each ref's box,
// writes its handle in a tag at the box's top-left corner (inside the box),
// and encodes the result as format. Drawing on the image rather than in the
// page is what keeps the page untouched: no element is added, so layout, hit
// testing, focus and the page's own observers are exactly as they were.
func drawLabels(data []byte, scale float64, labels []RefBox, format string, quality int) ([]byte, error) {
	src, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	img, ok := src.(*image.RGBA) // what Chromium's opaque PNGs decode to: draw on it directly
	if !ok {
		img = image.NewRGBA(src.Bounds())
		draw.Draw(img, img.Bounds(), src, src.Bounds().Min, draw.Src)
	}
	k := max(1, int(math.Round(1.5*scale))) // device pixels per font pixel
	for i, l := range labels {
		c := labelColors[i%len(labelColors)]
		r := image.Rect(int(math.Floor(l.Box.X*scale)), int(math.Floor(l.Box.Y*scale)),
			int(math.Ceil((l.Box.X+l.Box.Width)*scale)), int(math.Ceil((l.Box.Y+l.Box.Height)*scale))).Intersect(img.Bounds())
		outline(img, r, c, max(1, int(math.Round(scale))))
		tagLabel(img, r.Min, l.Ref, c, k)
	}
	var buf bytes.Buffer
	if format == "jpeg" {
		err = jpeg.Encode(&buf, img, &jpeg.Options{Quality: quality})
	} else {
		err = (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(&buf, img)
	}
	return buf.Bytes(), err
}

// outline draws a w-pixel frame just inside r.
func outline(img *image.RGBA, r image.Rectangle, c color.RGBA, w int) {
	u := image.NewUniform(c)
	for _, side := range []image.Rectangle{
		{r.Min, image.Pt(r.Max.X, r.Min.Y+w)},
		{image.Pt(r.Min.X, r.Max.Y-w), r.Max},
		{r.Min, image.Pt(r.Min.X+w, r.Max.Y)},
		{image.Pt(r.Max.X-w, r.Min.Y), r.Max},
	} {
		draw.Draw(img, side.Intersect(r), u, image.Point{}, draw.Src)
	}
}

// tagLabel fills a tag with colour c at at and writes text on it in white,
// k device pixels per font pixel.
func tagLabel(img *image.RGBA, at image.Point, text string, c color.RGBA, k int) {
	runes := []rune(text)
	w := (len(runes)*glyphAdvance - 1 + 2*labelPad) * k
	h := (glyphH + 2*labelPad) * k
	tag := image.Rect(at.X, at.Y, at.X+w, at.Y+h).Intersect(img.Bounds())
	draw.Draw(img, tag, image.NewUniform(c), image.Point{}, draw.Src)
	white := image.NewUniform(color.RGBA{0xFF, 0xFF, 0xFF, 0xFF})
	for i, r := range runes {
		g := glyphOf(r)
		ox := at.X + (labelPad+i*glyphAdvance)*k
		for y, row := range g {
			for x := 0; x < glyphW; x++ {
				if row[x] != '#' {
					continue
				}
				px := image.Rect(ox+x*k, at.Y+(labelPad+y)*k, ox+(x+1)*k, at.Y+(labelPad+y+1)*k)
				draw.Draw(img, px.Intersect(tag), white, image.Point{}, draw.Src)
			}
		}
	}
}

// markJS draws (or redraws) a mark on this element in the library's isolated
// world: a host under <html> holding a closed shadow root, fixed-positioned
// over the element every animation frame (fixed, so it never adds scroll
// overflow), with pointer-events none everywhere (hit testing passes through
// it), aria-hidden (assistive tech and snapshots skip it), and promoted to
// the top layer as a manual popover where the browser has them, so a modal
// dialog does not hide it. The page's scripts can see the host in the DOM;
// nothing else of the page changes.
const markJS = `function (key, note) {
	const marks = globalThis.__rodagentMarks || (globalThis.__rodagentMarks = new Map());
	const old = marks.get(key);
	if (old) old.remove();
	const host = document.createElement('rodagent-mark');
	host.setAttribute('aria-hidden', 'true');
	host.style.cssText = 'all: initial; position: fixed; left: 0; top: 0; width: 0; height: 0; margin: 0; padding: 0; border: 0; ' +
		'background: transparent; overflow: visible; pointer-events: none; z-index: 2147483647; display: block;';
	const root = host.attachShadow({mode: 'closed'});
	const box = document.createElement('div');
	box.style.cssText = 'position: fixed; box-sizing: border-box; border: 3px solid #ff6d00; border-radius: 3px; pointer-events: none;';
	const tag = document.createElement('div');
	tag.style.cssText = 'position: absolute; left: -3px; bottom: 100%; max-width: 320px; padding: 2px 6px; background: #ff6d00; ' +
		'color: #fff; font: 600 12px/16px system-ui, sans-serif; white-space: pre-wrap; pointer-events: none;';
	tag.textContent = note;
	if (note) box.appendChild(tag);
	root.appendChild(box);
	document.documentElement.appendChild(host);
	try { host.popover = 'manual'; host.showPopover(); } catch (e) {}
	const el = this;
	let live = true;
	const place = () => {
		if (!live) return;
		const r = el.isConnected ? el.getBoundingClientRect() : null;
		box.style.display = r && (r.width || r.height) ? 'block' : 'none';
		if (r) {
			box.style.left = r.left + 'px'; box.style.top = r.top + 'px';
			box.style.width = r.width + 'px'; box.style.height = r.height + 'px';
		}
		requestAnimationFrame(place);
	};
	place();
	marks.set(key, {remove() { live = false; host.remove(); }});
	return true;
}`

const clearMarksJS = `(() => {
	const marks = globalThis.__rodagentMarks;
	if (!marks) return 0;
	const n = marks.size;
	marks.forEach(m => m.remove());
	marks.clear();
	return n;
})()`

// Annotate leaves a visible mark on the element a ref names — an outline
// and, when note is not empty, the note above it — for a person watching the
// browser or a later screenshot: "this is the invoice total". It is not an
// action: nothing is clicked or focused, no Approver is asked, and the mark
// never takes pointer input, changes layout or enters a snapshot. The element
// is scrolled into view so the mark can be seen. The mark follows the element
// as it moves and stays until ClearAnnotations, or until the element's
// document goes away; annotating the same ref again replaces its note.
func (p *Page) Annotate(ctx context.Context, ref, note string) error {
	unlock, err := p.lock(ctx, "annotate")
	if err != nil {
		return err
	}
	defer unlock()
	t, err := p.resolve(ctx, "annotate", ref)
	if err != nil {
		return err
	}
	w, err := p.world(ctx, t.frame)
	if err != nil {
		return t.fail(ctx, p, "annotate", err)
	}
	const group = "rodagent-mark"
	bc := t.sess.Bind(ctx)
	defer func() {
		_ = proto.RuntimeReleaseObjectGroup{ObjectGroup: group}.Call(t.sess.Bind(context.WithoutCancel(ctx)))
	}()
	obj, err := proto.DOMResolveNode{BackendNodeID: t.elem.Node, ExecutionContextID: w, ObjectGroup: group}.Call(bc)
	if err != nil {
		return p.actionErr(ctx, "annotate", ref, err)
	}
	_, err = proto.RuntimeCallFunctionOn{ObjectID: obj.Object.ObjectID, FunctionDeclaration: markJS,
		Arguments: []*proto.RuntimeCallArgument{{Value: gson.New(ref)}, {Value: gson.New(capRunes(note, 500))}}}.Call(bc)
	if err != nil {
		return p.actionErr(ctx, "annotate", ref, err)
	}
	return nil
}

// ClearAnnotations removes every mark Annotate left on the tab, in every frame.
func (p *Page) ClearAnnotations(ctx context.Context) error {
	unlock, err := p.lock(ctx, "annotate")
	if err != nil {
		return err
	}
	defer unlock()
	p.mu.Lock()
	var frames []frameInfo
	for id, ff := range p.fast {
		if f := p.frames[id]; f != nil && !f.detached && ff.world != 0 && ff.loader == f.loader {
			frames = append(frames, *f)
		}
	}
	p.mu.Unlock()
	var g errgroup.Group
	for _, f := range frames {
		g.Go(func() error {
			w, err := p.world(ctx, f)
			if err != nil {
				return nil // the frame went away, and its marks with it
			}
			_, err = proto.RuntimeEvaluate{Expression: clearMarksJS, ContextID: w}.Call(f.sess.Bind(ctx))
			if err != nil && ctx.Err() != nil {
				return failure("annotate", "", Timeout, "clearing marks", ctx.Err())
			}
			return nil
		})
	}
	return g.Wait()
}
