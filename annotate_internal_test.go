package rodagent

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"testing"
)

// BenchmarkDrawLabels measures what ShotAnnotate adds in Go: decoding the
// capture, drawing 86 labels (an app shell's refs) and encoding again, on a
// page-like image (a white page with grey controls and striped "text").
func BenchmarkDrawLabels(b *testing.B) {
	img := image.NewRGBA(image.Rect(0, 0, 1280, 813))
	for y := 0; y < 813; y++ {
		for x := 0; x < 1280; x++ {
			c := color.RGBA{0xFF, 0xFF, 0xFF, 0xFF}
			switch {
			case x%150 < 140 && y%70 < 40:
				c = color.RGBA{0xEE, 0xEE, 0xEE, 0xFF}
			case y%20 < 9 && (x*7+y)%13 < 6:
				c = color.RGBA{0x22, 0x22, 0x22, 0xFF}
			}
			img.Set(x, y, c)
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		b.Fatal(err)
	}
	var labels []RefBox
	for i := range 86 {
		labels = append(labels, RefBox{Ref: fmt.Sprintf("btn-action-number-%d", i),
			Box: Box{X: float64(i%8) * 150, Y: float64(i/8) * 70, Width: 140, Height: 40}})
	}
	for _, format := range []string{"png", "jpeg"} {
		b.Run(format, func(b *testing.B) {
			for b.Loop() {
				if _, err := drawLabels(buf.Bytes(), 1, labels, format, 80); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func TestGlyphsAreWellFormed(t *testing.T) {
	for r, g := range glyphs {
		for i, row := range g {
			if len(row) != glyphW {
				t.Errorf("glyph %q row %d is %d wide", r, i, len(row))
			}
		}
	}
	for _, r := range "abcdefghijklmnopqrstuvwxyz0123456789-/_." {
		if _, ok := glyphs[r]; !ok {
			t.Errorf("no glyph for %q, which handles use", r)
		}
	}
	if glyphOf('é') != glyphs['?'] || glyphOf('B') != glyphs['b'] {
		t.Errorf("runes outside the font fall back to '?', upper case folds to lower")
	}
}

func TestIntersect(t *testing.T) {
	for _, c := range []struct {
		a, b Box
		want Box
		ok   bool
	}{
		{Box{0, 0, 10, 10}, Box{5, 5, 10, 10}, Box{5, 5, 5, 5}, true},
		{Box{0, 0, 10, 10}, Box{10, 0, 10, 10}, Box{}, false},
		{Box{-5, -5, 10, 10}, Box{0, 0, 100, 100}, Box{0, 0, 5, 5}, true},
		{Box{0, 0, 10, 0.5}, Box{0, 0, 100, 100}, Box{}, false},
	} {
		got, ok := intersect(c.a, c.b)
		if got != c.want || ok != c.ok {
			t.Errorf("intersect(%v, %v) = %v %v, want %v %v", c.a, c.b, got, ok, c.want, c.ok)
		}
	}
}
