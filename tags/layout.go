package tags

import (
	"errors"
	"fmt"
	"image"
	"image/draw"
	"math"

	"github.com/chipdesk/chipdesk/tags/toolpath"
)

// ErrLayout: the tags do not fit the plate or sheet.
var ErrLayout = errors.New("tags: layout")

// Layout places many tags on engraving plates or label sheets, in a
// grid of equal cells as large as the largest tag.
type Layout struct {
	Width  float64 // plate or sheet width, mm
	Height float64 // plate or sheet height, mm
	Margin float64 // mm kept clear at the edges
	Gap    float64 // mm between tags
}

// Sheet is one plate or sheet of placed tags.
type Sheet struct {
	Width, Height float64
	Tags          []Placed // in the order to engrave them
}

// Placed is a tag at a position: the top left of its box, mm.
type Placed struct {
	Tag  *Tag
	X, Y float64
}

// Place lays tags out on as many sheets as they need. Cells are filled
// row by row in alternate directions (left to right, then right to
// left), so that the engraver moves from each tag to a neighbour and
// the travel across a plate stays short.
func (l Layout) Place(tags []*Tag) ([]Sheet, error) {
	if len(tags) == 0 {
		return nil, nil
	}
	cw, ch := 0.0, 0.0
	for _, t := range tags {
		cw, ch = math.Max(cw, t.Design.Width), math.Max(ch, t.Design.Height)
	}
	cols := int((l.Width - 2*l.Margin + l.Gap) / (cw + l.Gap))
	rows := int((l.Height - 2*l.Margin + l.Gap) / (ch + l.Gap))
	if cols < 1 || rows < 1 {
		return nil, fmt.Errorf("%w: a %gx%g mm tag does not fit a %gx%g mm sheet with %g mm margins", ErrLayout, cw, ch, l.Width, l.Height, l.Margin)
	}
	per := cols * rows
	var sheets []Sheet
	for i, t := range tags {
		k := i % per
		if k == 0 {
			sheets = append(sheets, Sheet{Width: l.Width, Height: l.Height})
		}
		row, col := k/cols, k%cols
		if row%2 == 1 {
			col = cols - 1 - col
		}
		// Centre each tag in its cell.
		x := l.Margin + float64(col)*(cw+l.Gap) + (cw-t.Design.Width)/2
		y := l.Margin + float64(row)*(ch+l.Gap) + (ch-t.Design.Height)/2
		s := &sheets[len(sheets)-1]
		s.Tags = append(s.Tags, Placed{Tag: t, X: x, Y: y})
	}
	return sheets, nil
}

// SheetPaths returns the engraving of a whole sheet: each tag's paths
// (see Paths), moved into place, in the sheet's order, and within each
// tag ordered from where the previous tag ended.
func (r *Renderer) SheetPaths(s Sheet) (*toolpath.Job, error) {
	j := &toolpath.Job{Width: s.Width, Height: s.Height}
	at := toolpath.Point{}
	for _, p := range s.Tags {
		tj, err := r.paths(p.Tag)
		if err != nil {
			return nil, err
		}
		moved := &toolpath.Job{}
		moved.Append(tj, p.X, p.Y)
		toolpath.OrderJob(moved, at)
		j.Outline = append(j.Outline, moved.Outline...)
		j.Hatch = append(j.Hatch, moved.Hatch...)
		j.Cut = append(j.Cut, moved.Cut...)
		if n := len(moved.Hatch); n > 0 {
			l := moved.Hatch[n-1]
			at = l[len(l)-1]
		}
	}
	return j, nil
}

// SheetImage renders a whole sheet of previews at dpi.
func (r *Renderer) SheetImage(s Sheet, dpi float64) (*image.RGBA, error) {
	k := dpi / 25.4
	img := image.NewRGBA(image.Rect(0, 0, int(math.Ceil(s.Width*k)), int(math.Ceil(s.Height*k))))
	for _, p := range s.Tags {
		ti, err := r.Image(p.Tag, dpi)
		if err != nil {
			return nil, err
		}
		at := image.Pt(int(math.Round(p.X*k)), int(math.Round(p.Y*k)))
		draw.Draw(img, ti.Bounds().Add(at), ti, image.Point{}, draw.Over)
	}
	return img, nil
}
