package tags

import (
	"bytes"
	"fmt"
	"image"
	"math"
	"strings"

	"golang.org/x/image/vector"

	"github.com/chipdesk/chipdesk/tags/mono"
	"github.com/chipdesk/chipdesk/tags/toolpath"
	"github.com/chipdesk/chipdesk/tags/zplgf"
)

// ZPLOpts configures Renderer.ZPL.
type ZPLOpts struct {
	Dpmm   int     // printer resolution in dots per mm: 8 (203 dpi), 12 (300 dpi) or 24 (600 dpi)
	Margin float64 // mm of label around the tag and the Code 128
	Copies int     // ^PQ quantity
}

// DefaultZPLOpts are the options used for a nil *ZPLOpts.
var DefaultZPLOpts = ZPLOpts{Dpmm: 8, Margin: 2, Copies: 1}

// Label is one tag as a ZPL II label: the tag at true size (its outline
// and ring hole as a ^GFA graphic, the text lines in the printer's font
// 0, the DataMatrix as ^BX with quality 200 or the QR as ^BQ), and
// under it a Code 128 of Tag.LinearText.
type Label struct {
	ZPL    []byte
	Width  float64 // label width in mm (^PW)
	Height float64 // label length in mm (^LL)
	Dpmm   int
	Code   image.Rectangle // dots: the 2D symbol and its quiet zone
	Linear image.Rectangle // dots: the Code 128, its quiet zones and its text line
}

// ZPL renders t as a ZPL label; nil o means DefaultZPLOpts.
func (r *Renderer) ZPL(t *Tag, o *ZPLOpts) (*Label, error) {
	opts := DefaultZPLOpts
	if o != nil {
		opts = *o
	}
	if opts.Dpmm != 6 && opts.Dpmm != 8 && opts.Dpmm != 12 && opts.Dpmm != 24 {
		return nil, fmt.Errorf("tags: ZPL resolution %d dots/mm is not 6, 8, 12 or 24", opts.Dpmm)
	}
	if opts.Copies < 1 {
		opts.Copies = 1
	}
	d := t.Design
	k := float64(opts.Dpmm)
	dots := func(mm float64) int { return int(math.Round(mm * k)) }

	// Code 128 in code set C (">;"): start, digit pairs, check, stop.
	lin := t.LinearText()
	bw := max(2, opts.Dpmm/4)
	linW := (11*(len(lin)/2+2) + 13) * bw
	linQuiet := 10 * bw
	linH := dots(8)

	margin := dots(opts.Margin)
	tagW, tagH := dots(d.Width), dots(d.Height)
	labelW := max(tagW, linW+2*linQuiet) + 2*margin
	tx, ty := (labelW-tagW)/2, margin
	linY := ty + tagH + dots(2)
	labelH := linY + linH + dots(4) + margin

	gfa, pad := r.outlineGFA(d, opts.Dpmm)
	var b bytes.Buffer
	// The resolution is stated in the format (^FX comment): a saved
	// label printed on a printer of another resolution comes out scaled.
	fmt.Fprintf(&b, "^XA\n^FXchipdesk label at %d dots/mm (%d dpi)^FS\n^CI28\n^PW%d\n^LL%d\n^LH0,0\n",
		opts.Dpmm, int(math.Round(float64(opts.Dpmm)*25.4)), labelW, labelH)
	fmt.Fprintf(&b, "^FO%d,%d%s^FS\n", tx-pad, ty-pad, gfa)
	for _, f := range t.Fields() {
		text := t.Text(f.Text)
		run, err := r.font.layout(text)
		if err != nil {
			return nil, err
		}
		h := max(dots(f.Cap/0.72), 10)
		w := h
		if wide := run.width * f.Cap / r.font.cap; wide > f.MaxWidth {
			w = max(int(float64(h)*f.MaxWidth/wide), 5)
		}
		box := f.box()
		just := "C"
		switch f.Align {
		case "left":
			just = "L"
		case "right":
			just = "R"
		}
		// ^FO is the top of the character cell; font 0's capitals fill
		// about 0.72 of it, so the baseline lands on f.Y.
		fmt.Fprintf(&b, "^FO%d,%d^A0N,%d,%d^FB%d,1,0,%s^FH_^FD%s^FS\n",
			tx+dots(box.x0), ty+dots(f.Y)-int(float64(h)*0.76), h, w, dots(f.MaxWidth), just, zplEscape(text))
	}
	m, err := encodeCode(d.Code, t.Payload)
	if err != nil {
		return nil, err
	}
	mod := max(2, dots(d.Code.Module))
	side := m.n * mod
	cx, cy := tx+dots(d.Code.X)-side/2, ty+dots(d.Code.Y)-side/2
	q := d.Code.quietModules() * mod
	lbl := &Label{Width: float64(labelW) / k, Height: float64(labelH) / k, Dpmm: opts.Dpmm,
		Code: image.Rect(cx-q, cy-q, cx+side+q, cy+side+q)}
	if d.Code.Symbology == "qr" {
		fmt.Fprintf(&b, "^FO%d,%d^BQN,2,%d^FDMA,%s^FS\n", cx, cy, min(mod, 10), t.CodeText())
	} else {
		fmt.Fprintf(&b, "^FO%d,%d^BXN,%d,200,%d,%d^FD%s^FS\n", cx, cy, mod, m.n, m.n, t.CodeText())
	}
	lx := (labelW - linW) / 2
	fmt.Fprintf(&b, "^BY%d,3,%d^FO%d,%d^BCN,%d,Y,N,N^FD>;%s^FS\n", bw, linH, lx, linY, linH, lin)
	lbl.Linear = image.Rect(lx-linQuiet, linY, lx+linW+linQuiet, linY+linH+dots(4))
	fmt.Fprintf(&b, "^PQ%d\n^XZ\n", opts.Copies)
	lbl.ZPL = b.Bytes()
	return lbl, nil
}

// zplEscape makes text safe inside ^FH_^FD...^FS.
func zplEscape(s string) string {
	return strings.NewReplacer("_", "_5F", "^", "_5E", "~", "_7E").Replace(s)
}

// outlineGFA is the ^GFA graphic of the blank's outline and ring hole,
// drawn as lines about 0.25 mm wide, and the padding in dots around the
// blank's box (half a line); cached per design and resolution.
func (r *Renderer) outlineGFA(d *Design, dpmm int) ([]byte, int) {
	key := outlineKey{d, dpmm}
	r.mu.Lock()
	g, ok := r.outline[key]
	r.mu.Unlock()
	k := float64(dpmm)
	stroke := math.Max(2, math.Round(0.25*k)) // dots
	pad := int(math.Ceil(stroke / 2))
	if ok {
		return g, pad
	}
	w, h := int(math.Ceil(d.Width*k))+2*pad, int(math.Ceil(d.Height*k))+2*pad
	z := vector.NewRasterizer(w, h)
	for _, p := range []toolpath.Polyline{d.Outline(0.5 / k), circle(pt{X: d.Hole.X, Y: d.Hole.Y}, d.Hole.Diameter/2, 0.5/k)} {
		strokePoly(z, p, stroke/k, k, float64(pad)/k)
	}
	a := image.NewAlpha(image.Rect(0, 0, w, h))
	z.Draw(a, a.Bounds(), image.Opaque, image.Point{})
	m := mono.New(a.Bounds())
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			if a.Pix[y*a.Stride+x] >= 0x80 {
				m.SetBit(x, y, true)
			}
		}
	}
	g = zplgf.Encode(m)
	r.mu.Lock()
	r.outline[key] = g
	r.mu.Unlock()
	return g, pad
}

// strokePoly adds a line of width wd (mm) along p: one quad per segment,
// all wound the same way so that overlaps add up instead of cancelling,
// each lengthened by half the width so that corners close; off moves it
// by (off, off) mm.
func strokePoly(z *vector.Rasterizer, p toolpath.Polyline, wd, k, off float64) {
	for i := 1; i < len(p); i++ {
		a, b := p[i-1], p[i]
		dx, dy := b.X-a.X, b.Y-a.Y
		l := math.Hypot(dx, dy)
		if l == 0 {
			continue
		}
		ux, uy := dx/l*wd/2, dy/l*wd/2 // along, half width
		nx, ny := -uy, ux              // normal, half width
		a = pt{X: a.X - ux, Y: a.Y - uy}
		b = pt{X: b.X + ux, Y: b.Y + uy}
		q := toolpath.Polyline{{X: a.X - nx, Y: a.Y - ny}, {X: b.X - nx, Y: b.Y - ny}, {X: b.X + nx, Y: b.Y + ny}, {X: a.X + nx, Y: a.Y + ny}, {X: a.X - nx, Y: a.Y - ny}}
		if area(q) < 0 {
			for i, j := 0, len(q)-1; i < j; i, j = i+1, j-1 {
				q[i], q[j] = q[j], q[i]
			}
		}
		addPoly(z, q, k, off, off)
	}
}
