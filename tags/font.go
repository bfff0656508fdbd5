package tags

import (
	"fmt"
	"sync"

	"golang.org/x/image/font"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"

	"github.com/chipdesk/chipdesk/tags/toolpath"
)

// Font turns text into outline contours through golang.org/x/image/font/sfnt.
// It caches glyph outlines and is safe for concurrent use.
type Font struct {
	f    *sfnt.Font
	upem fixed.Int26_6
	cap  float64 // capital height in em

	mu     sync.Mutex
	buf    sfnt.Buffer
	glyphs map[rune]*glyph
}

// glyph is one outline in em units (1 em = 1), baseline at y = 0, y down.
type glyph struct {
	index    sfnt.GlyphIndex
	advance  float64
	contours []toolpath.Polyline
}

// ParseFont reads a TrueType or OpenType (CFF) font.
func ParseFont(data []byte) (*Font, error) {
	f, err := sfnt.Parse(data)
	if err != nil {
		return nil, fmt.Errorf("tags: font: %w", err)
	}
	ft := &Font{f: f, upem: fixed.I(int(f.UnitsPerEm())), glyphs: map[rune]*glyph{}}
	m, err := f.Metrics(&ft.buf, ft.upem, font.HintingNone)
	if err != nil {
		return nil, fmt.Errorf("tags: font metrics: %w", err)
	}
	ft.cap = float64(m.CapHeight) / float64(ft.upem)
	if ft.cap <= 0 {
		ft.cap = 0.7
	}
	return ft, nil
}

func (ft *Font) glyph(r rune) (*glyph, error) {
	ft.mu.Lock()
	defer ft.mu.Unlock()
	if g, ok := ft.glyphs[r]; ok {
		return g, nil
	}
	idx, err := ft.f.GlyphIndex(&ft.buf, r)
	if err != nil {
		return nil, fmt.Errorf("tags: glyph %q: %w", r, err)
	}
	adv, err := ft.f.GlyphAdvance(&ft.buf, idx, ft.upem, font.HintingNone)
	if err != nil {
		return nil, fmt.Errorf("tags: glyph %q: %w", r, err)
	}
	segs, err := ft.f.LoadGlyph(&ft.buf, idx, ft.upem, nil)
	if err != nil {
		return nil, fmt.Errorf("tags: glyph %q: %w", r, err)
	}
	s := 1 / float64(ft.upem)
	P := func(p fixed.Point26_6) pt { return pt{X: float64(p.X) * s, Y: float64(p.Y) * s} }
	b := pathBuilder{tol: 0.001}
	for _, seg := range segs {
		switch seg.Op {
		case sfnt.SegmentOpMoveTo:
			b.moveTo(P(seg.Args[0]))
		case sfnt.SegmentOpLineTo:
			b.lineTo(P(seg.Args[0]))
		case sfnt.SegmentOpQuadTo:
			b.quadTo(P(seg.Args[0]), P(seg.Args[1]))
		case sfnt.SegmentOpCubeTo:
			b.cubeTo(P(seg.Args[0]), P(seg.Args[1]), P(seg.Args[2]))
		}
	}
	b.close()
	g := &glyph{index: idx, advance: float64(adv) * s, contours: b.contours}
	ft.glyphs[r] = g
	return g, nil
}

func (ft *Font) kern(a, b sfnt.GlyphIndex) float64 {
	ft.mu.Lock()
	defer ft.mu.Unlock()
	k, err := ft.f.Kern(&ft.buf, a, b, ft.upem, font.HintingNone)
	if err != nil {
		return 0 // no kerning table, or no pair
	}
	return float64(k) / float64(ft.upem)
}

// textRun is laid-out text: the glyphs and their pen positions in em.
type textRun struct {
	glyphs []*glyph
	x      []float64
	width  float64 // em
}

func (ft *Font) layout(text string) (textRun, error) {
	var t textRun
	var prev *glyph
	for _, r := range text {
		g, err := ft.glyph(r)
		if err != nil {
			return t, err
		}
		if prev != nil {
			t.width += ft.kern(prev.index, g.index)
		}
		t.glyphs = append(t.glyphs, g)
		t.x = append(t.x, t.width)
		t.width += g.advance
		prev = g
	}
	return t, nil
}

// fieldText lays out f's resolved text and returns its contours in mm.
// The text is set with capitals f.Cap high, narrowed horizontally to fit
// f.MaxWidth when it is wider.
func (ft *Font) fieldText(f Field, text string) ([]toolpath.Polyline, rect, error) {
	t, err := ft.layout(text)
	if err != nil {
		return nil, rect{}, err
	}
	em := f.Cap / ft.cap
	sx := em
	if w := t.width * em; w > f.MaxWidth {
		sx = f.MaxWidth / t.width
	}
	w := t.width * sx
	x0 := f.X - w/2
	switch f.Align {
	case "left":
		x0 = f.X
	case "right":
		x0 = f.X - w
	}
	var out []toolpath.Polyline
	for i, g := range t.glyphs {
		gx := x0 + t.x[i]*sx
		for _, c := range g.contours {
			p := make(toolpath.Polyline, len(c))
			for k, q := range c {
				p[k] = pt{X: gx + q.X*sx, Y: f.Y + q.Y*em}
			}
			out = append(out, p)
		}
	}
	return out, rect{x0, f.Y - f.Cap, x0 + w, f.Y}, nil
}
