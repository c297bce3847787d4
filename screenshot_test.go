package rodagent_test

import (
	"bytes"
	"errors"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"math"
	"testing"
	"time"

	"github.com/rodagent/rodagent"
)

func decodeShot(t *testing.T, s *rodagent.Shot) image.Image {
	t.Helper()
	var img image.Image
	var err error
	switch s.Format {
	case "png":
		img, err = png.Decode(bytes.NewReader(s.Data))
	case "jpeg":
		img, err = jpeg.Decode(bytes.NewReader(s.Data))
	default:
		t.Fatalf("unknown format %q", s.Format)
	}
	if err != nil {
		t.Fatalf("decoding the %s: %v", s.Format, err)
	}
	return img
}

func TestScreenshotAreas(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t, 60*time.Second)
	p := openURL(t, originA+"/shot.html?other="+originB)
	snapshot(t, p)
	var vp struct{ W, H, DocW, DocH int }
	eval(t, p, "({W: innerWidth, H: innerHeight, DocW: document.documentElement.scrollWidth, DocH: document.documentElement.scrollHeight})", &vp)

	size := func(name string, opts ...rodagent.ScreenshotOption) image.Image {
		t.Helper()
		s, err := p.Screenshot(ctx, opts...)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return decodeShot(t, s)
	}
	check := func(name string, img image.Image, w, h int) {
		t.Helper()
		if d := img.Bounds().Size(); abs(d.X-w) > 1 || abs(d.Y-h) > 1 {
			t.Errorf("%s: image is %v, want %dx%d", name, d, w, h)
		}
	}
	check("viewport", size("viewport"), vp.W, vp.H)
	check("full page", size("full page", rodagent.ShotFullPage()), vp.DocW, vp.DocH)
	check("element", size("element", rodagent.ShotElement("btn-first")), 160, 48)
	inner := size("locator in an out-of-process frame", rodagent.ShotLocator(rodagent.ByRole("button", "Inner")))
	check("locator", inner, 140, 40)
	if c := color.RGBAModel.Convert(inner.At(70, 20)).(color.RGBA); c.R != 0xdd || c.G != 0xdd || c.B != 0xdd {
		t.Errorf("the frame's button should be #ddd at its centre, got %v: the clip missed it", c)
	}
	check("clip", size("clip", rodagent.ShotClip(rodagent.Box{X: 10, Y: 10, Width: 100, Height: 50})), 100, 50)

	j, err := p.Screenshot(ctx, rodagent.ShotJPEG(70))
	if err != nil || j.Format != "jpeg" || !bytes.HasPrefix(j.Data, []byte{0xFF, 0xD8}) {
		t.Fatalf("JPEG: %v %v", j, err)
	}
	check("jpeg", decodeShot(t, j), vp.W, vp.H)

	for name, opts := range map[string][]rodagent.ScreenshotOption{
		"two areas":    {rodagent.ShotFullPage(), rodagent.ShotElement("btn-first")},
		"JPEG quality": {rodagent.ShotJPEG(0)},
		"empty clip":   {rodagent.ShotClip(rodagent.Box{Width: 0, Height: 10})},
	} {
		if _, err := p.Screenshot(ctx, opts...); !errors.Is(err, rodagent.ErrBadOption) {
			t.Errorf("%s: want ErrBadOption, got %v", name, err)
		}
	}
	if _, err := p.Screenshot(ctx, rodagent.ShotElement("btn-nothing")); !errors.Is(err, rodagent.ErrNotFound) {
		t.Errorf("unknown ref: want ErrNotFound, got %v", err)
	}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// probeJS watches the page while a screenshot is taken: any DOM mutation, and
// whether elementFromPoint at the label points ever answers differently.
const probeJS = `(() => {
	const pts = [[45, 45], [305, 45], [45, innerHeight - 10], [62, 182], [600, 600]];
	const base = pts.map(([x, y]) => document.elementFromPoint(x, y));
	window.__probe = {mut: 0, diff: 0, checks: 0};
	new MutationObserver(rs => { __probe.mut += rs.length; }).observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
	const check = () => { pts.forEach(([x, y], i) => { if (document.elementFromPoint(x, y) !== base[i]) __probe.diff++; }); __probe.checks++; };
	(function loop() { check(); setTimeout(loop, 0); })();
	(function frame() { check(); requestAnimationFrame(frame); })();
	return base.map(e => e && e.tagName);
})()`

func TestAnnotatedScreenshot(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t, 60*time.Second)
	p := openURL(t, originA+"/shot.html?other="+originB)
	var vp struct{ W, H int }
	// Half of btn-low below the viewport's bottom edge.
	eval(t, p, "(document.getElementById('low').style.top = (innerHeight - 24) + 'px', {W: innerWidth, H: innerHeight})", &vp)
	snapshot(t, p)
	plainShot, err := p.Screenshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var base []any
	eval(t, p, probeJS, &base)
	var before struct{ Checks int }
	eval(t, p, "__probe", &before)

	shot, err := p.Screenshot(ctx, rodagent.ShotAnnotate())
	if err != nil {
		t.Fatal(err)
	}
	var probe struct{ Mut, Diff, Checks int }
	eval(t, p, "__probe", &probe)
	if probe.Checks <= before.Checks || probe.Mut != 0 || probe.Diff != 0 {
		t.Errorf("the page must not notice the annotation: %d checks during it, %d DOM mutations, %d elementFromPoint answers changed",
			probe.Checks-before.Checks, probe.Mut, probe.Diff)
	}

	plain, annotated := decodeShot(t, plainShot), decodeShot(t, shot)
	if plain.Bounds() != annotated.Bounds() {
		t.Fatalf("annotated image %v, plain %v", annotated.Bounds(), plain.Bounds())
	}
	boxes := map[string]rodagent.Box{}
	for _, r := range shot.Refs {
		boxes[r.Ref] = r.Box
	}
	want := map[string]rodagent.Box{
		"btn-first":    {X: 40, Y: 40, Width: 160, Height: 48},
		"btn-second":   {X: 300, Y: 40, Width: 160, Height: 48},
		"btn-low":      {X: 40, Y: float64(vp.H - 24), Width: 160, Height: 24}, // clipped to the viewport
		"f1/btn-inner": {X: 60, Y: 180, Width: 140, Height: 40},                // inside the out-of-process frame
	}
	for ref, w := range want {
		b, ok := boxes[ref]
		if !ok {
			t.Errorf("%s is not labelled; refs: %+v", ref, shot.Refs)
			continue
		}
		if math.Abs(b.X-w.X) > 1 || math.Abs(b.Y-w.Y) > 1 || math.Abs(b.Width-w.Width) > 1 || math.Abs(b.Height-w.Height) > 1 {
			t.Errorf("%s: box %+v, want %+v", ref, b, w)
		}
	}
	same := func(a, b color.Color) bool {
		x, y := color.RGBAModel.Convert(a).(color.RGBA), color.RGBAModel.Convert(b).(color.RGBA)
		return x == y
	}
	for _, r := range shot.Refs {
		b := r.Box
		if b.X < 0 || b.Y < 0 || b.X+b.Width > float64(vp.W)+0.5 || b.Y+b.Height > float64(vp.H)+0.5 {
			t.Errorf("%s: box %+v is not clipped to the %dx%d image", r.Ref, b, vp.W, vp.H)
		}
		// The label's tag starts at the box's top-left corner, inside the box.
		in := image.Pt(int(math.Ceil(b.X)), int(math.Ceil(b.Y)))
		c := color.RGBAModel.Convert(annotated.At(in.X, in.Y)).(color.RGBA)
		if same(c, plain.At(in.X, in.Y)) || int(max(c.R, c.G, c.B))-int(min(c.R, c.G, c.B)) < 60 {
			t.Errorf("%s: no label at %v inside its box: annotated %v, plain %v", r.Ref, in, c, plain.At(in.X, in.Y))
		}
		// Nothing is drawn just left of the box, outside it.
		if out := image.Pt(int(b.X)-3, int(b.Y+b.Height/2)); out.X >= 0 && !same(annotated.At(out.X, out.Y), plain.At(out.X, out.Y)) {
			t.Errorf("%s: the annotation spills outside its box at %v", r.Ref, out)
		}
	}
	// Far from every ref, the image is the page as it was.
	if !same(annotated.At(900, 600), plain.At(900, 600)) {
		t.Errorf("the annotated image differs from the page away from any ref")
	}
}
