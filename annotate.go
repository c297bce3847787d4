package rodagent

import (
	"bytes"
	"context"
	"encoding/json"
	"image"
	"image/color"
	"image/draw"
	"image/jpeg"
	"image/png"
	"math"
	"sync"

	"github.com/go-rod/rod/lib/proto"
	"github.com/ysmood/gson"
	"golang.org/x/sync/errgroup"

	"github.com/rodagent/rodagent/internal/ax"
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
	var elems []int // inv.elems index of each box in out
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
		out = append(out, RefBox{Ref: handles[i], Role: e.Role, Name: e.Name, Box: b})
		elems = append(elems, i)
	}
	reach := p.reachable(ctx, inv, out, elems)
	shown := out[:0]
	for i, b := range out {
		if reach[i] {
			b.Box.X -= area.X
			b.Box.Y -= area.Y
			shown = append(shown, b)
		}
	}
	return shown, nil
}

// reachJS answers, for each check [k, x0, y0, x1, y1, …] of one document
// (points in its viewport), whether a person can reach what it names there:
// with k >= 0 the inventory's element k, which must not be inert or outside
// an open modal dialog, and must be what is hit at one of the points (itself,
// a descendant, or — pointer-events: none — an ancestor); with k = -1 a
// child frame, whose <iframe> must be what is hit. A backdrop, a modal
// dialog or anything else on top answers the hit test instead. Points outside
// the viewport (a full-page shot) cannot be hit-tested and count as reached;
// so does an element the inventory no longer holds.
const reachJS = `(function (checks) {
	const S = globalThis.__rodagent;
	const within = (a, n) => { for (; n; n = n.parentNode || n.host) if (n === a) return true; return false; };
	const modal = document.querySelector(':modal');
	const vw = innerWidth, vh = innerHeight;
	return checks.map(c => {
		const k = c[0];
		const el = k >= 0 && S && S.els ? S.els[k] : null;
		if (k >= 0) {
			if (!el || !el.isConnected) return true;
			if (el.closest('[inert]') || (modal && !within(modal, el))) return false;
		}
		const root = el && el.getRootNode().elementFromPoint ? el.getRootNode() : document;
		let tested = false;
		for (let i = 1; i + 1 < c.length; i += 2) {
			const x = c[i], y = c[i + 1];
			if (x < 0 || y < 0 || x >= vw || y >= vh) continue;
			const hit = root.elementFromPoint(x, y);
			if (!hit) continue;
			tested = true;
			if (el ? within(el, hit) || within(hit, el) : hit.tagName === 'IFRAME' || hit.tagName === 'FRAME') return true;
		}
		return !tested;
	});
})`

// reachable reports, for each box (in top-level viewport coordinates) of the
// element inv.elems[elems[i]], whether a person could reach it: not inert,
// not outside an open modal, not under a backdrop or anything else drawn on
// top, in its own document and in every document around its frame. A label
// on a control the page has put out of reach would invite an action that
// cannot land. Each document is asked once; a document that cannot answer
// (gone, or read from the AX tree) keeps its labels.
func (p *Page) reachable(ctx context.Context, inv *inventory, boxes []RefBox, elems []int) []bool {
	reach := make([]bool, len(boxes))
	for i := range reach {
		reach[i] = true
	}
	type check struct {
		box  int
		args []float64
	}
	byFrame := map[proto.PageFrameID][]check{}
	worlds := map[proto.PageFrameID]proto.RuntimeExecutionContextID{}
	p.mu.Lock()
	for id, j := range inv.byID {
		if ff := p.fast[id]; ff != nil && ff.loader == j.info.loader && ff.world != 0 {
			worlds[id] = ff.world
		}
	}
	p.mu.Unlock()
	for i, b := range boxes {
		e := inv.elems[elems[i]]
		j := inv.byID[proto.PageFrameID(e.Frame)]
		if j == nil {
			continue
		}
		pts := probePoints(b.Box)
		if w, ok := worlds[j.info.id]; ok && e.Local != 0 {
			if k, ok := ax.LocalIndex(w, e.Local); ok {
				byFrame[j.info.id] = append(byFrame[j.info.id], check{i, append([]float64{float64(k)}, shift(pts, j.originX, j.originY)...)})
			}
		}
		// Every document around the frame must let the point through to its <iframe>.
		for depth := 0; j.info.parent != "" && depth < 32; depth++ {
			parent := inv.byID[j.info.parent]
			if parent == nil {
				break
			}
			byFrame[parent.info.id] = append(byFrame[parent.info.id], check{i, append([]float64{-1}, shift(pts, parent.originX, parent.originY)...)})
			j = parent
		}
	}
	var mu sync.Mutex
	var g errgroup.Group
	for id, checks := range byFrame {
		w, ok := worlds[id]
		if !ok {
			continue
		}
		j := inv.byID[id]
		g.Go(func() error {
			args := make([][]float64, len(checks))
			for i, c := range checks {
				args[i] = c.args
			}
			js, _ := json.Marshal(args)
			res, err := proto.RuntimeEvaluate{Expression: reachJS + "(" + string(js) + ")", ContextID: w, ReturnByValue: true}.Call(j.info.sess.Bind(ctx))
			if err != nil || res.ExceptionDetails != nil {
				return nil // the document went away or could not tell: its labels stay
			}
			var ok []bool
			if json.Unmarshal([]byte(res.Result.Value.JSON("", "")), &ok) != nil || len(ok) != len(checks) {
				return nil
			}
			mu.Lock()
			for i, c := range checks {
				if !ok[i] {
					reach[c.box] = false
				}
			}
			mu.Unlock()
			return nil
		})
	}
	_ = g.Wait()
	return reach
}

// probePoints are where a box is hit-tested: its centre and, just inside,
// its four corners, so a control half under a sticky header still counts.
func probePoints(b Box) []float64 {
	in := math.Min(2, math.Min(b.Width, b.Height)/4)
	x0, y0, x1, y1 := b.X+in, b.Y+in, b.X+b.Width-in, b.Y+b.Height-in
	return []float64{b.X + b.Width/2, b.Y + b.Height/2, x0, y0, x1, y0, x0, y1, x1, y1}
}

// shift moves top-level viewport points into a document whose viewport
// starts at (ox, oy).
func shift(pts []float64, ox, oy float64) []float64 {
	out := make([]float64, len(pts))
	for i := 0; i < len(pts); i += 2 {
		out[i], out[i+1] = pts[i]-ox, pts[i+1]-oy
	}
	return out
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
