package mono

import (
	"image"
	"image/color"
	"image/draw"
)

// Image is a 1-bit image. Pix holds rows of Stride bytes; the dot at
// (x, y) is bit 7-(x-Rect.Min.X)%8 of Pix[(y-Rect.Min.Y)*Stride+(x-Rect.Min.X)/8],
// 1 = black. Padding bits at the end of a row are 0.
type Image struct {
	Pix    []byte
	Stride int
	Rect   image.Rectangle
}

var _ draw.Image = (*Image)(nil)

// New returns a white (all zero) image of bounds r.
func New(r image.Rectangle) *Image {
	r = r.Canon()
	stride := (r.Dx() + 7) / 8
	return &Image{Pix: make([]byte, stride*r.Dy()), Stride: stride, Rect: r}
}

// Model is the color model of Image: black or white.
var Model = color.ModelFunc(func(c color.Color) color.Color {
	if Black(c) {
		return color.Gray{}
	}
	return color.Gray{Y: 0xff}
})

// Black reports whether c is printed as a dot: opaque enough (alpha at
// least half) and dark (luminance below half).
func Black(c color.Color) bool {
	r, g, b, a := c.RGBA()
	if a < 0x8000 {
		return false
	}
	// Un-premultiply against white: what shows on white paper.
	w := 0xffff - a
	y := (19595*(r+w) + 38470*(g+w) + 7471*(b+w) + 1<<15) >> 16
	return y < 0x8000
}

// ColorModel implements image.Image.
func (m *Image) ColorModel() color.Model { return Model }

// Bounds implements image.Image.
func (m *Image) Bounds() image.Rectangle { return m.Rect }

// At implements image.Image.
func (m *Image) At(x, y int) color.Color {
	if m.Bit(x, y) {
		return color.Gray{}
	}
	return color.Gray{Y: 0xff}
}

// Set implements draw.Image.
func (m *Image) Set(x, y int, c color.Color) { m.SetBit(x, y, Black(c)) }

// Bit reports whether the dot at (x, y) is black; outside the bounds it
// is false.
func (m *Image) Bit(x, y int) bool {
	if !(image.Point{x, y}.In(m.Rect)) {
		return false
	}
	x -= m.Rect.Min.X
	return m.Pix[(y-m.Rect.Min.Y)*m.Stride+x/8]&(0x80>>(x%8)) != 0
}

// SetBit sets the dot at (x, y); outside the bounds it does nothing.
func (m *Image) SetBit(x, y int, black bool) {
	if !(image.Point{x, y}.In(m.Rect)) {
		return
	}
	x -= m.Rect.Min.X
	i := (y-m.Rect.Min.Y)*m.Stride + x/8
	if black {
		m.Pix[i] |= 0x80 >> (x % 8)
	} else {
		m.Pix[i] &^= 0x80 >> (x % 8)
	}
}

// Row returns the packed bytes of row y (a slice of Pix).
func (m *Image) Row(y int) []byte {
	i := (y - m.Rect.Min.Y) * m.Stride
	return m.Pix[i : i+m.Stride]
}

// FromImage thresholds src with Black; transparent parts are white.
func FromImage(src image.Image) *Image {
	b := src.Bounds()
	m := New(b)
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if Black(src.At(x, y)) {
				m.SetBit(x, y, true)
			}
		}
	}
	return m
}

// Marks turns a colour picture into ink: a dot is black where the
// picture is opaque (alpha at least half) and its colour is within tol
// (sum of the R, G and B differences, 0-765) of mark, the colour the
// marks are drawn in. A tag preview (marks on a metal-coloured blank)
// becomes its marks in black on white; the blank itself prints nothing.
func Marks(src image.Image, mark color.Color, tol int) *Image {
	b := src.Bounds()
	m := New(b)
	mr, mg, mb, _ := mark.RGBA()
	diff := func(a, b uint32) int {
		if a > b {
			return int(a-b) >> 8
		}
		return int(b-a) >> 8
	}
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, a := src.At(x, y).RGBA()
			if a < 0x8000 {
				continue
			}
			// un-premultiply before comparing colours
			r, g, bl = r*0xffff/a, g*0xffff/a, bl*0xffff/a
			if diff(r, mr)+diff(g, mg)+diff(bl, mb) < tol {
				m.SetBit(x, y, true)
			}
		}
	}
	return m
}

// Edges sets black every dot within width dots of the boundary between
// the opaque (alpha at least half) and transparent parts of src: the
// outline of a shape, drawn as a line of that width inside it.
func (m *Image) Edges(src image.Image, width int) {
	b := src.Bounds()
	opaque := func(x, y int) bool {
		if !(image.Point{x, y}.In(b)) {
			return false
		}
		_, _, _, a := src.At(x, y).RGBA()
		return a >= 0x8000
	}
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if !opaque(x, y) {
				continue
			}
		near:
			for dy := -width; dy <= width; dy++ {
				for dx := -width; dx <= width; dx++ {
					if dx*dx+dy*dy <= width*width && !opaque(x+dx, y+dy) {
						m.SetBit(x, y, true)
						break near
					}
				}
			}
		}
	}
}
