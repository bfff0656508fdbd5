package tags

import (
	"image"
	"math"
	"testing"

	"github.com/makiuchi-d/gozxing"

	"github.com/chipdesk/chipdesk/tags/check"
)

// TestArtworkRaster: the raster label is laid out for the tape: on 62 mm
// tape (696 dots at 300 dpi) the tag at its own size, its DataMatrix and
// the Code 128 under it read back; on 29 mm tape (306 dots) the label is
// scaled to fit, Scale says by how much, and the codes still read.
func TestArtworkRaster(t *testing.T) {
	t.Parallel()
	tag, err := catalogue(t).Issue(check.DevelopmentKeys(), "MPLS", 2026, 1234, "dog")
	if err != nil {
		t.Fatal(err)
	}
	r := renderer(t)
	const dpmm = 300 / 25.4
	d := tag.Design
	for _, tt := range []struct {
		dots  int
		scale float64 // want; 0 means below 1
	}{{696, 1}, {306, 0}} {
		a := r.Artwork(tag)
		img, err := a.Raster(dpmm, float64(tt.dots)/dpmm)
		if err != nil {
			t.Fatal(err)
		}
		b := img.Bounds()
		if b.Dx() != tt.dots {
			t.Errorf("%d-dot tape: label %d dots wide", tt.dots, b.Dx())
		}
		s := a.Scale()
		if tt.scale == 1 && s != 1 || tt.scale == 0 && !(s < 1 && s > 0.3) {
			t.Errorf("%d-dot tape: Scale() = %g", tt.dots, s)
		}
		k := dpmm * s
		tagW := int(math.Ceil(d.Width * k))
		tagH := int(math.Ceil(d.Height * k))
		margin := int(math.Round(LabelMargin * dpmm))
		tx := (b.Dx() - tagW) / 2
		mods, _ := encodeCode(d.Code, tag.Payload)
		half := (float64(mods.n)/2 + 2) * d.Code.Module * k
		cx, cy := float64(tx)+d.Code.X*k, float64(margin)+d.Code.Y*k
		code := image.Rect(int(cx-half), int(cy-half), int(cx+half), int(cy+half))
		if got, err := decode(img, code, gozxing.BarcodeFormat_DATA_MATRIX, false); err != nil || got != tag.CodeText() {
			t.Errorf("%d-dot tape: DataMatrix read %q, %v; want %q", tt.dots, got, err, tag.CodeText())
		}
		linear := image.Rect(0, margin+tagH, b.Dx(), b.Dy())
		if got, err := decode(img, linear, gozxing.BarcodeFormat_CODE_128, false); err != nil || got != tag.LinearText() {
			t.Errorf("%d-dot tape: Code 128 read %q, %v; want %q", tt.dots, got, err, tag.LinearText())
		}
	}
	if _, err := r.Artwork(tag).Raster(dpmm, 8); err == nil {
		t.Error("Raster on 8 mm tape = nil error, want the tag not to fit")
	}
}
