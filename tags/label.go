package tags

import (
	"fmt"
	"image"
	"math"
	"sync"

	"github.com/boombuler/barcode/code128"
	"github.com/boombuler/barcode/datamatrix"

	"github.com/chipdesk/chipdesk/tags/mono"
	"github.com/chipdesk/chipdesk/tags/toolpath"
)

// LabelMargin is the blank kept round a raster label, mm.
const LabelMargin = 1.5

// Artwork is one tag made ready for any label printer: the service
// makes one per job and each printer driver asks it for its own language
// and resolution (ZPL at the printer's dots per mm, a 1-bit raster for
// the tape's printable width). What does not depend on the printer (the
// tag's text layout, its code) is computed once.
type Artwork struct {
	r *Renderer
	t *Tag

	mu    sync.Mutex
	scale float64
}

// Artwork returns the artwork of t.
func (r *Renderer) Artwork(t *Tag) *Artwork { return &Artwork{r: r, t: t, scale: 1} }

// Tag is the tag drawn.
func (a *Artwork) Tag() *Tag { return a.t }

// String names the tag.
func (a *Artwork) String() string { return a.t.String() }

// ZPL returns the tag's ZPL label (Renderer.ZPL) at dpmm dots per mm.
func (a *Artwork) ZPL(dpmm int) ([]byte, error) {
	l, err := a.r.ZPL(a.t, &ZPLOpts{Dpmm: dpmm, Margin: DefaultZPLOpts.Margin, Copies: 1})
	if err != nil {
		return nil, err
	}
	return l.ZPL, nil
}

// Scale is the scale of the last Raster: 1 when the tag fitted the tape
// at its own size, less when it was shrunk to fit.
func (a *Artwork) Scale() float64 {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.scale
}

// Raster lays the tag out for a tape widthMM wide (its printable width)
// at dpmm dots per mm, as the ZPL label is laid out: the tag's outline
// and ring hole as a line, its text and 2D code in black, at the tag's
// own size, and under it the Code 128 of Tag.LinearText. When the tag or
// the Code 128 is wider than the tape, the whole label is scaled down to
// fit and Scale says by how much. The picture is 1 bit, black = ink.
func (a *Artwork) Raster(dpmm, widthMM float64) (image.Image, error) {
	if !(dpmm >= 2 && dpmm <= 48) || !(widthMM >= 5) {
		return nil, fmt.Errorf("tags: raster label at %g dots/mm on %g mm", dpmm, widthMM)
	}
	d := a.t.Design
	bars, err := code128.Encode(a.t.LinearText())
	if err != nil {
		return nil, fmt.Errorf("tags: code 128: %w", err)
	}
	modules := bars.Bounds().Dx() + 20     // 10-module quiet zones (ISO/IEC 15417)
	const barModule, barHeight = 0.25, 8.0 // mm
	contentW := math.Max(d.Width, float64(modules)*barModule)
	scale := math.Min(1, (widthMM-2*LabelMargin)/contentW)
	if scale < 0.3 {
		return nil, fmt.Errorf("tags: a %g mm tag does not fit %g mm tape", d.Width, widthMM)
	}
	a.mu.Lock()
	a.scale = scale
	a.mu.Unlock()
	k := dpmm * scale // dots per mm of the tag
	preview, err := a.r.Image(a.t, k*25.4)
	if err != nil {
		return nil, err
	}
	w := int(math.Round(widthMM * dpmm))
	mw := max(1, int(math.Floor(barModule*k+0.5)))
	tagW, tagH := preview.Bounds().Dx(), preview.Bounds().Dy()
	margin := int(math.Round(LabelMargin * dpmm))
	gap := int(math.Round(2 * k))
	barH := int(math.Round(barHeight * k))
	h := margin + tagH + gap + barH + margin
	out := mono.New(image.Rect(0, 0, w, h))
	tx := (w - tagW) / 2
	tagDots := mono.Marks(preview, d.Metal.Mark, 96)
	tagDots.Edges(preview, max(1, int(math.Round(0.2*k))))
	for y := range tagH {
		for x := range tagW {
			if tagDots.Bit(x, y) {
				out.SetBit(tx+x, margin+y, true)
			}
		}
	}
	bw := bars.Bounds().Dx() * mw
	bx, by := (w-bw)/2, margin+tagH+gap
	for i := range bars.Bounds().Dx() {
		if !mono.Black(bars.At(i, 0)) {
			continue
		}
		for x := bx + i*mw; x < bx+(i+1)*mw; x++ {
			for y := by; y < by+barH; y++ {
				out.SetBit(x, y, true)
			}
		}
	}
	return out, nil
}

// CodePaths returns the engraving of a DataMatrix ECC 200 of text with
// modules module mm wide, centred at (x, y) mm in a job w x h mm, with
// the renderer's beam correction and fill: a cell of a material test
// grid, whose code reads back only at settings that mark well.
func (r *Renderer) CodePaths(text string, module, x, y, w, h float64) (*toolpath.Job, error) {
	if !(module > 0) {
		return nil, fmt.Errorf("tags: module %g mm", module)
	}
	bc, err := datamatrix.Encode(text)
	if err != nil {
		return nil, fmt.Errorf("tags: encoding %q: %w", text, err)
	}
	b := bc.Bounds()
	m := modules{n: b.Dx(), dark: make([]bool, b.Dx()*b.Dx())}
	for yy := 0; yy < m.n; yy++ {
		for xx := 0; xx < m.n; xx++ {
			m.dark[yy*m.n+xx] = mono.Black(bc.At(b.Min.X+xx, b.Min.Y+yy))
		}
	}
	half := float64(m.n) * module / 2
	s := &scene{code: m, module: module, codeX: x - half, codeY: y - half}
	j := &toolpath.Job{Width: w, Height: h}
	s.runs(func(x0, y0, x1, y1 float64) {
		o, fill := moduleRun(x0, y0, x1, y1, r.o.Beam, r.o.Hatch)
		j.Outline = append(j.Outline, o)
		j.Hatch = append(j.Hatch, fill...)
	})
	toolpath.OrderJob(j, toolpath.Point{X: x - half, Y: y - half})
	return j, nil
}

// Modules is the number of modules across the DataMatrix of text.
func Modules(text string) (int, error) {
	bc, err := datamatrix.Encode(text)
	if err != nil {
		return 0, fmt.Errorf("tags: encoding %q: %w", text, err)
	}
	return bc.Bounds().Dx(), nil
}
