package tags

import (
	"image"
	"image/color"
	"image/draw"
	"math"
	"testing"

	"github.com/makiuchi-d/gozxing"
	"golang.org/x/image/vector"

	"github.com/chipdesk/chipdesk/tags/check"
	"github.com/chipdesk/chipdesk/tags/toolpath"
)

// burn draws what a round beam of width beam mm burns along the paths,
// at k pixels per mm, black on white: every segment as a band beam wide
// with round ends (a capsule), as a laser spot swept along it.
func burn(j *toolpath.Job, beam, k float64) *image.RGBA {
	w, h := int(math.Ceil(j.Width*k)), int(math.Ceil(j.Height*k))
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	draw.Draw(img, img.Bounds(), image.White, image.Point{}, draw.Src)
	r := beam / 2 * k
	// Each shape is filled on its own (a small rasterizer over its
	// bounds), so overlapping shapes never cancel.
	fill := func(pts [][2]float64) {
		x0, y0, x1, y1 := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
		for _, p := range pts {
			x0, y0, x1, y1 = math.Min(x0, p[0]), math.Min(y0, p[1]), math.Max(x1, p[0]), math.Max(y1, p[1])
		}
		bx, by := int(math.Floor(x0)), int(math.Floor(y0))
		bw, bh := int(math.Ceil(x1))-bx+1, int(math.Ceil(y1))-by+1
		z := vector.NewRasterizer(bw, bh)
		z.MoveTo(float32(pts[0][0]-float64(bx)), float32(pts[0][1]-float64(by)))
		for _, p := range pts[1:] {
			z.LineTo(float32(p[0]-float64(bx)), float32(p[1]-float64(by)))
		}
		z.ClosePath()
		z.Draw(img, image.Rect(bx, by, bx+bw, by+bh), image.NewUniform(color.Black), image.Point{})
	}
	dot := func(x, y float64) {
		const n = 24
		pts := make([][2]float64, n)
		for i := range pts {
			a := 2 * math.Pi * float64(i) / n
			pts[i] = [2]float64{x + r*math.Cos(a), y + r*math.Sin(a)}
		}
		fill(pts)
	}
	band := func(a, b toolpath.Point) {
		ax, ay, bx, by := a.X*k, a.Y*k, b.X*k, b.Y*k
		l := math.Hypot(bx-ax, by-ay)
		if l == 0 {
			return
		}
		nx, ny := -(by-ay)/l*r, (bx-ax)/l*r
		fill([][2]float64{{ax + nx, ay + ny}, {bx + nx, by + ny}, {bx - nx, by - ny}, {ax - nx, ay - ny}})
	}
	for _, set := range [][]toolpath.Polyline{j.Outline, j.Hatch} {
		for _, p := range set {
			for i := range p {
				dot(p[i].X*k, p[i].Y*k)
				if i > 0 {
					band(p[i-1], p[i])
				}
			}
		}
	}
	return img
}

// TestBeamWidthReadBack renders the engraving paths of a tag with a
// round beam of 0.1, 0.2 and 0.3 mm, the renderer set to that beam, and
// reads the DataMatrix back with gozxing: the correction keeps the
// modules their size. Without it a 0.3 mm beam on 0.35 mm modules
// swells the dark ones to 0.65 mm; the test shows that too, so it
// measures the correction rather than passing anyway.
func TestBeamWidthReadBack(t *testing.T) {
	t.Parallel()
	tag, err := catalogue(t).Issue(check.DevelopmentKeys(), "MPLS", 2026, 1234, "dog")
	if err != nil {
		t.Fatal(err)
	}
	const k = 40 // px per mm
	d := tag.Design
	mods, err := encodeCode(d.Code, tag.Payload)
	if err != nil {
		t.Fatal(err)
	}
	n := float64(mods.n)
	area := func(m float64) image.Rectangle {
		half := (n/2 + 2) * m * k // the symbol and two modules of quiet zone
		return image.Rect(int(d.Code.X*k-half), int(d.Code.Y*k-half), int(d.Code.X*k+half), int(d.Code.Y*k+half))
	}
	for _, beam := range []float64{0.1, 0.2, 0.3} {
		r, err := NewRenderer(&Opts{Beam: beam, Hatch: beam * 0.8})
		if err != nil {
			t.Fatal(err)
		}
		j, err := r.Paths(tag)
		if err != nil {
			t.Fatal(err)
		}
		img := burn(j, beam, k)
		got, err := decode(img, area(d.Code.Module), gozxing.BarcodeFormat_DATA_MATRIX, false)
		if err != nil || got != tag.CodeText() {
			t.Errorf("beam %g mm, corrected: read %q, %v; want %q", beam, got, err, tag.CodeText())
		}
	}
	plain, err := NewRenderer(&Opts{Hatch: 0.24})
	if err != nil {
		t.Fatal(err)
	}
	j, err := plain.Paths(tag)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := decode(burn(j, 0.3, k), area(d.Code.Module), gozxing.BarcodeFormat_DATA_MATRIX, false); err == nil && got == tag.CodeText() {
		t.Errorf("beam 0.3 mm without correction read %q: the test cannot tell the correction from none", got)
	}
}
