package tags

import (
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"io"
	"math"
	"strings"
	"sync"

	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/vector"

	"github.com/chipdesk/chipdesk/tags/toolpath"
)

// Opts configures a Renderer.
type Opts struct {
	// Font is a TrueType or OpenType font for the text; nil means Go
	// Bold (golang.org/x/image/font/gofont/gobold).
	Font []byte
	// Tolerance is how far, in mm, flattened curves may stray from the
	// true outline.
	Tolerance float64
	// Hatch is the distance in mm between hatch strokes of engraved
	// marks (about the laser's spot size); 0 means the default, a
	// negative value no hatch (outlines only, e.g. for a drag engraver).
	// Set it from the engraver's line interval.
	Hatch float64
	// Beam is the engraver's beam (spot) width in mm. A beam burns half
	// its width either side of the path, so the paths of code modules
	// are traced Beam/2 inside the module's edges and their fill lines
	// end Beam/2 short of them: the burned module comes out its design
	// size, as the code needs. Text fill strokes are shortened the same
	// way (glyph contours stay on the edge). 0 means a hairline tool.
	Beam float64
}

// DefaultOpts are the options used for a nil *Opts.
var DefaultOpts = Opts{Tolerance: 0.01, Hatch: 0.08}

// Renderer draws tags as images, SVG, ZPL and engraving paths. It caches
// glyph outlines and per-design artwork, and is safe for concurrent use.
type Renderer struct {
	font *Font
	o    Opts

	mu      sync.Mutex
	outline map[outlineKey][]byte // ZPL ^GFA of a design's outline
	fields  map[fieldKey]*fieldPaths
}

// fieldKey names a text line that is the same on many tags (any line
// without the register number).
type fieldKey struct {
	d    *Design
	i    int
	text string
}

type fieldPaths struct {
	outline, hatch []toolpath.Polyline
}

type outlineKey struct {
	d    *Design
	dpmm int
}

// NewRenderer returns a Renderer; nil o means DefaultOpts.
func NewRenderer(o *Opts) (*Renderer, error) {
	opts := DefaultOpts
	if o != nil {
		opts = *o
		if opts.Tolerance <= 0 {
			opts.Tolerance = DefaultOpts.Tolerance
		}
		if opts.Hatch == 0 {
			opts.Hatch = DefaultOpts.Hatch
		}
		if opts.Beam < 0 || opts.Beam > 2 || math.IsNaN(opts.Beam) {
			return nil, fmt.Errorf("tags: beam width %g mm outside 0-2", opts.Beam)
		}
	}
	data := opts.Font
	if data == nil {
		data = gobold.TTF
	}
	f, err := ParseFont(data)
	if err != nil {
		return nil, err
	}
	return &Renderer{font: f, o: opts, outline: map[outlineKey][]byte{}, fields: map[fieldKey]*fieldPaths{}}, nil
}

// scene is a tag laid out in mm.
type scene struct {
	outline toolpath.Polyline   // the blank
	hole    toolpath.Polyline   // the ring hole
	text    []toolpath.Polyline // glyph contours of every field (non-zero winding)
	code    modules
	codeX   float64 // top left of the symbol, mm
	codeY   float64
	module  float64
}

func (r *Renderer) scene(t *Tag) (*scene, error) {
	d := t.Design
	s := &scene{outline: d.Outline(r.o.Tolerance), module: d.Code.Module}
	s.hole = circle(pt{X: d.Hole.X, Y: d.Hole.Y}, d.Hole.Diameter/2, r.o.Tolerance)
	for _, f := range t.Fields() {
		c, _, err := r.font.fieldText(f, t.Text(f.Text))
		if err != nil {
			return nil, err
		}
		s.text = append(s.text, c...)
	}
	m, err := encodeCode(d.Code, t.Payload)
	if err != nil {
		return nil, err
	}
	s.code = m
	half := float64(m.n) * s.module / 2
	s.codeX, s.codeY = d.Code.X-half, d.Code.Y-half
	return s, nil
}

// runs calls f for each horizontal run of dark modules, in mm.
func (s *scene) runs(f func(x0, y0, x1, y1 float64)) {
	n, m := s.code.n, s.module
	for y := 0; y < n; y++ {
		for x := 0; x < n; {
			if !s.code.dark[y*n+x] {
				x++
				continue
			}
			e := x
			for e < n && s.code.dark[y*n+e] {
				e++
			}
			f(s.codeX+float64(x)*m, s.codeY+float64(y)*m, s.codeX+float64(e)*m, s.codeY+float64(y+1)*m)
			x = e
		}
	}
}

// Image renders a colour preview of t at dpi dots per inch: the blank in
// its metal colour, marks in the mark colour, transparent around the
// blank and in the ring hole.
func (r *Renderer) Image(t *Tag, dpi float64) (*image.RGBA, error) {
	if dpi < 10 || dpi > 4800 {
		return nil, fmt.Errorf("tags: dpi %g outside 10-4800", dpi)
	}
	s, err := r.scene(t)
	if err != nil {
		return nil, err
	}
	k := dpi / 25.4
	d := t.Design
	w, h := int(math.Ceil(d.Width*k)), int(math.Ceil(d.Height*k))
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	z := vector.NewRasterizer(w, h)
	fill := func(lines []toolpath.Polyline, c color.Color, op draw.Op) {
		z.Reset(w, h)
		z.DrawOp = op
		for _, p := range lines {
			addPoly(z, p, k, 0, 0)
		}
		z.Draw(img, img.Bounds(), image.NewUniform(c), image.Point{})
	}
	// The rasterizer sums signed coverage: a hole wound against the
	// outline cancels it.
	fill([]toolpath.Polyline{s.outline, against(s.hole, s.outline)}, d.Metal.Fill, draw.Over)
	fill(s.text, d.Metal.Mark, draw.Over)
	// Modules are drawn a whole number of pixels wide, centred where the
	// design puts the code: a crisp symbol reads even at low dpi.
	mp := math.Max(1, math.Round(s.module*k))
	ox := math.Round(d.Code.X*k - float64(s.code.n)*mp/2)
	oy := math.Round(d.Code.Y*k - float64(s.code.n)*mp/2)
	var mods []toolpath.Polyline
	s.runs(func(x0, y0, x1, y1 float64) {
		c0, r0 := math.Round((x0-s.codeX)/s.module), math.Round((y0-s.codeY)/s.module)
		c1 := math.Round((x1 - s.codeX) / s.module)
		x0, y0, x1, y1 = (ox+c0*mp)/k, (oy+r0*mp)/k, (ox+c1*mp)/k, (oy+(r0+1)*mp)/k
		mods = append(mods, toolpath.Polyline{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}, {X: x0, Y: y0}})
	})
	fill(mods, d.Metal.Mark, draw.Over)
	return img, nil
}

// against returns p wound the other way round from q.
func against(p, q toolpath.Polyline) toolpath.Polyline {
	if (area(p) > 0) != (area(q) > 0) {
		return p
	}
	r := make(toolpath.Polyline, len(p))
	for i := range p {
		r[i] = p[len(p)-1-i]
	}
	return r
}

// area is the signed area of a closed polyline.
func area(p toolpath.Polyline) float64 {
	a := 0.0
	for i := 1; i < len(p); i++ {
		a += p[i-1].X*p[i].Y - p[i].X*p[i-1].Y
	}
	return a / 2
}

func addPoly(z *vector.Rasterizer, p toolpath.Polyline, k, dx, dy float64) {
	if len(p) < 2 {
		return
	}
	z.MoveTo(float32((p[0].X+dx)*k), float32((p[0].Y+dy)*k))
	for _, q := range p[1:] {
		z.LineTo(float32((q.X+dx)*k), float32((q.Y+dy)*k))
	}
	z.ClosePath()
}

// SVG writes t as an SVG document sized in millimetres.
func (r *Renderer) SVG(w io.Writer, t *Tag) error {
	s, err := r.scene(t)
	if err != nil {
		return err
	}
	d := t.Design
	ew := &errWriter{w: w}
	fmt.Fprintf(ew, `<svg xmlns="http://www.w3.org/2000/svg" width="%smm" height="%smm" viewBox="0 0 %s %s">`+"\n",
		num(d.Width), num(d.Height), num(d.Width), num(d.Height))
	fmt.Fprintf(ew, "<title>%s</title>\n", xmlEscape(t.String()))
	fmt.Fprintf(ew, `<path fill="%v" fill-rule="evenodd" d="`, d.Metal.Fill)
	toolpath.WritePathData(ew, []toolpath.Polyline{s.outline, s.hole})
	fmt.Fprintf(ew, "\"/>\n<path fill=\"%v\" fill-rule=\"nonzero\" d=\"", d.Metal.Mark)
	toolpath.WritePathData(ew, s.text)
	fmt.Fprintf(ew, "\"/>\n<path fill=\"%v\" d=\"", d.Metal.Mark)
	var rects []toolpath.Polyline
	s.runs(func(x0, y0, x1, y1 float64) {
		rects = append(rects, toolpath.Polyline{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}, {X: x0, Y: y0}})
	})
	toolpath.WritePathData(ew, rects)
	io.WriteString(ew, "\"/>\n</svg>\n")
	if ew.err != nil {
		return fmt.Errorf("tags: %w", ew.err)
	}
	return nil
}

// Paths returns the engraving of t in mm: the blank's outline and hole
// as Cut, glyph contours and code module runs as Outline, and their fill
// as Hatch strokes, each layer ordered to keep travel short.
func (r *Renderer) Paths(t *Tag) (*toolpath.Job, error) {
	j, err := r.paths(t)
	if err != nil {
		return nil, err
	}
	toolpath.OrderJob(j, toolpath.Point{})
	return j, nil
}

// paths is Paths without the ordering.
func (r *Renderer) paths(t *Tag) (*toolpath.Job, error) {
	d := t.Design
	j := &toolpath.Job{Width: d.Width, Height: d.Height}
	for i, f := range t.Fields() {
		fp, err := r.fieldPaths(t, i, f)
		if err != nil {
			return nil, err
		}
		// Copies: callers may change a Job in place, the cache must not change.
		j.Outline = appendCopy(j.Outline, fp.outline)
		j.Hatch = appendCopy(j.Hatch, fp.hatch)
	}
	m, err := encodeCode(d.Code, t.Payload)
	if err != nil {
		return nil, err
	}
	half := float64(m.n) * d.Code.Module / 2
	s := &scene{code: m, module: d.Code.Module, codeX: d.Code.X - half, codeY: d.Code.Y - half}
	s.runs(func(x0, y0, x1, y1 float64) {
		o, h := moduleRun(x0, y0, x1, y1, r.o.Beam, r.o.Hatch)
		j.Outline = append(j.Outline, o)
		j.Hatch = append(j.Hatch, h...)
	})
	j.Cut = []toolpath.Polyline{d.Outline(r.o.Tolerance), circle(pt{X: d.Hole.X, Y: d.Hole.Y}, d.Hole.Diameter/2, r.o.Tolerance)}
	return j, nil
}

// moduleRun returns the outline and fill of a run of dark modules from
// (x0, y0) to (x1, y1) mm for a beam beam mm wide and fill lines hatch
// mm apart: the outline inset by beam/2 (collapsed to a centre line
// where the run is narrower than the beam), and fill lines from
// beam/2 inside the top edge to beam/2 inside the bottom one, evenly
// spread at most hatch apart. With beam 0 this is the run's own edge
// and lines half a hatch in.
func moduleRun(x0, y0, x1, y1, beam, hatch float64) (toolpath.Polyline, []toolpath.Polyline) {
	b := beam / 2
	ix0, ix1, iy0, iy1 := x0+b, x1-b, y0+b, y1-b
	if ix0 > ix1 {
		ix0, ix1 = (x0+x1)/2, (x0+x1)/2
	}
	if iy0 > iy1 {
		iy0, iy1 = (y0+y1)/2, (y0+y1)/2
	}
	outline := toolpath.Polyline{{X: ix0, Y: iy0}, {X: ix1, Y: iy0}, {X: ix1, Y: iy1}, {X: ix0, Y: iy1}, {X: ix0, Y: iy0}}
	if hatch <= 0 {
		return outline, nil
	}
	var fill []toolpath.Polyline
	if beam == 0 {
		for y := y0 + hatch/2; y < y1; y += hatch {
			fill = append(fill, toolpath.Polyline{{X: x0, Y: y}, {X: x1, Y: y}})
		}
		return outline, fill
	}
	n := int(math.Ceil((iy1-iy0)/hatch-1e-9)) + 1
	for i := range n {
		y := iy0
		if n > 1 {
			y = iy0 + (iy1-iy0)*float64(i)/float64(n-1)
		}
		fill = append(fill, toolpath.Polyline{{X: ix0, Y: y}, {X: ix1, Y: y}})
	}
	return outline, fill
}

// shorten trims each horizontal fill stroke by b mm at both ends,
// dropping strokes shorter than 2b: the beam's half width, so a fill
// does not burn past its glyph.
func shorten(strokes []toolpath.Polyline, b float64) []toolpath.Polyline {
	if b <= 0 {
		return strokes
	}
	out := make([]toolpath.Polyline, 0, len(strokes))
	for _, s := range strokes {
		if len(s) != 2 || math.Abs(s[1].X-s[0].X) <= 2*b {
			continue
		}
		d := b
		if s[1].X < s[0].X {
			d = -b
		}
		out = append(out, toolpath.Polyline{{X: s[0].X + d, Y: s[0].Y}, {X: s[1].X - d, Y: s[1].Y}})
	}
	return out
}

// fieldPaths returns the contours and hatch of text line i of t; lines
// that do not hold the register number are cached, as they repeat on
// every tag of a batch. The result must not be modified.
func (r *Renderer) fieldPaths(t *Tag, i int, f Field) (*fieldPaths, error) {
	text := t.Text(f.Text)
	key := fieldKey{t.Design, i, text}
	shared := !strings.Contains(f.Text, "{NUMBER}")
	if shared {
		r.mu.Lock()
		fp, ok := r.fields[key]
		r.mu.Unlock()
		if ok {
			return fp, nil
		}
	}
	c, _, err := r.font.fieldText(f, text)
	if err != nil {
		return nil, err
	}
	fp := &fieldPaths{outline: c, hatch: shorten(toolpath.Hatch(c, r.o.Hatch), r.o.Beam/2)}
	if shared {
		r.mu.Lock()
		r.fields[key] = fp
		r.mu.Unlock()
	}
	return fp, nil
}

func appendCopy(dst, src []toolpath.Polyline) []toolpath.Polyline {
	for _, p := range src {
		dst = append(dst, append(toolpath.Polyline(nil), p...))
	}
	return dst
}

type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(b []byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	n, err := e.w.Write(b)
	e.err = err
	return n, err
}

func num(v float64) string { return fmt.Sprint(math.Round(v*1000) / 1000) }

func xmlEscape(s string) string {
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '<':
			out = append(out, "&lt;"...)
		case '>':
			out = append(out, "&gt;"...)
		case '&':
			out = append(out, "&amp;"...)
		case '"':
			out = append(out, "&quot;"...)
		default:
			out = append(out, s[i])
		}
	}
	return string(out)
}
