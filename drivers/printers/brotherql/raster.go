package brotherql

import (
	"fmt"
	"image"
	"image/color"

	xdraw "golang.org/x/image/draw"
)

// DPI is the head resolution across and along the feed.
const DPI = 300

// RasterOpts controls the picture to dots conversion.
type RasterOpts struct {
	// Dither spreads the grey levels by Floyd–Steinberg error diffusion;
	// otherwise each dot is thresholded.
	Dither bool
	// Threshold: a grey level below it is black (0–255); 0 means 128.
	Threshold uint8
}

// Raster is a page as dot rows, each Model.BytesPerLine long, already
// mirrored and placed at the media's offset: ready to send.
type Raster struct {
	Lines [][]byte
}

// Rasterize converts img for media on model: scaled (keeping its aspect)
// to the printable width when it is not that wide already, converted to
// 1 bit, mirrored and placed. On die-cut media the picture may not be
// longer than the label's printable length; a shorter one is padded with
// white at the end.
func Rasterize(img image.Image, mo Model, me Media, o *RasterOpts) (Raster, error) {
	if err := me.fits(mo); err != nil {
		return Raster{}, err
	}
	if o == nil {
		o = &RasterOpts{}
	}
	th := o.Threshold
	if th == 0 {
		th = 128
	}
	b := img.Bounds()
	if b.Empty() {
		return Raster{}, fmt.Errorf("%w: empty image", ErrImage)
	}
	w := me.Dots
	h := b.Dy()
	if b.Dx() != w {
		h = (b.Dy()*w + b.Dx()/2) / b.Dx()
		if h < 1 {
			h = 1
		}
	}
	lines := h
	if me.Type == MediaDieCut {
		if h > me.Lines {
			return Raster{}, fmt.Errorf("%w: %d rows at %d dots wide, label %s has %d", ErrImage, h, w, me.ID, me.Lines)
		}
		lines = me.Lines
	}
	if lines < mo.MinLines && me.Type == MediaContinuous {
		lines = mo.MinLines // the printer feeds at least this much
	}
	if lines > mo.MaxLines {
		return Raster{}, fmt.Errorf("%w: %d rows, %s prints at most %d", ErrImage, lines, mo.Name, mo.MaxLines)
	}
	gray := image.NewGray(image.Rect(0, 0, w, h))
	// white under transparent parts
	for i := range gray.Pix {
		gray.Pix[i] = 0xff
	}
	if b.Dx() == w && b.Dy() == h {
		xdraw.Draw(gray, gray.Bounds(), img, b.Min, xdraw.Over)
	} else {
		xdraw.CatmullRom.Scale(gray, gray.Bounds(), img, b, xdraw.Over, nil)
	}
	dots := toBits(gray, th, o.Dither)
	r := Raster{Lines: make([][]byte, lines)}
	off := me.Offset + mo.ExtraOffset
	for y := range lines {
		line := make([]byte, mo.BytesPerLine)
		if y < h {
			row := dots[y*w : (y+1)*w]
			for x, black := range row {
				if black {
					i := off + (w - 1 - x) // mirrored
					line[i/8] |= 0x80 >> (i % 8)
				}
			}
		}
		r.Lines[y] = line
	}
	return r, nil
}

// toBits returns one bool per dot, true = black.
func toBits(g *image.Gray, th uint8, dither bool) []bool {
	w, h := g.Rect.Dx(), g.Rect.Dy()
	out := make([]bool, w*h)
	if !dither {
		for y := range h {
			for x := range w {
				out[y*w+x] = g.GrayAt(x, y).Y < th
			}
		}
		return out
	}
	// Floyd–Steinberg: error 7/16 right, 3/16 down-left, 5/16 down,
	// 1/16 down-right, rows left to right.
	cur := make([]int, w+2)
	next := make([]int, w+2)
	for y := range h {
		for x := range w {
			cur[x+1] += int(g.GrayAt(x, y).Y) * 16
		}
		for x := range w {
			v := cur[x+1]
			black := v < int(th)*16
			out[y*w+x] = black
			target := 255 * 16
			if black {
				target = 0
			}
			e := v - target
			cur[x+2] += e * 7 / 16
			next[x] += e * 3 / 16
			next[x+1] += e * 5 / 16
			next[x+2] += e / 16
		}
		cur, next = next, cur
		for i := range next {
			next[i] = 0
		}
	}
	return out
}

// Image returns the page as a picture again (unmirrored, the printable
// area only): for tests and previews.
func (r Raster) Image(mo Model, me Media) *image.Gray {
	img := image.NewGray(image.Rect(0, 0, me.Dots, len(r.Lines)))
	off := me.Offset + mo.ExtraOffset
	for y, line := range r.Lines {
		for x := range me.Dots {
			i := off + (me.Dots - 1 - x)
			c := color.Gray{Y: 0xff}
			if i/8 < len(line) && line[i/8]&(0x80>>(i%8)) != 0 {
				c = color.Gray{}
			}
			img.SetGray(x, y, c)
		}
	}
	return img
}
