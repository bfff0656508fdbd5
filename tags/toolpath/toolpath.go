package toolpath

import (
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
)

// Point is a position in millimetres.
type Point struct {
	X float64 `json:"x"`
	Y float64 `json:"y"`
}

// Polyline is a run of marking moves through its points. A closed
// contour repeats its first point at the end.
type Polyline []Point

// Closed reports whether p ends where it starts.
func (p Polyline) Closed() bool { return len(p) > 2 && p[0] == p[len(p)-1] }

// Length is the marking length of p in millimetres.
func (p Polyline) Length() float64 {
	l := 0.0
	for i := 1; i < len(p); i++ {
		l += dist(p[i-1], p[i])
	}
	return l
}

// Job is one engraving: a tag or a whole plate.
type Job struct {
	Width   float64    `json:"width_mm"`  // extent of the job, mm
	Height  float64    `json:"height_mm"` // extent of the job, mm
	Cut     []Polyline `json:"cut"`       // outline of the blank(s): cut, or ignore for pre-cut blanks
	Outline []Polyline `json:"outline"`   // contours of the marks
	Hatch   []Polyline `json:"hatch"`     // fill strokes inside the contours
}

// Append adds o's polylines to j, moved by (dx, dy).
func (j *Job) Append(o *Job, dx, dy float64) {
	j.Cut = appendMoved(j.Cut, o.Cut, dx, dy)
	j.Outline = appendMoved(j.Outline, o.Outline, dx, dy)
	j.Hatch = appendMoved(j.Hatch, o.Hatch, dx, dy)
}

func appendMoved(dst, src []Polyline, dx, dy float64) []Polyline {
	for _, p := range src {
		q := make(Polyline, len(p))
		for i, pt := range p {
			q[i] = Point{pt.X + dx, pt.Y + dy}
		}
		dst = append(dst, q)
	}
	return dst
}

// Travel returns the length of the moves between polylines when the job
// is run in order Outline, Hatch, Cut, starting and ending at start.
func (j *Job) Travel(start Point) float64 {
	at, t := start, 0.0
	for _, set := range [][]Polyline{j.Outline, j.Hatch, j.Cut} {
		for _, p := range set {
			if len(p) == 0 {
				continue
			}
			t += dist(at, p[0])
			at = p[len(p)-1]
		}
	}
	return t + dist(at, start)
}

// OrderJob orders each layer of j with Order, continuing from where the
// previous layer ended, starting at start.
func OrderJob(j *Job, start Point) {
	at := start
	for _, set := range []*[]Polyline{&j.Outline, &j.Hatch, &j.Cut} {
		*set = Order(*set, at)
		if n := len(*set); n > 0 {
			l := (*set)[n-1]
			at = l[len(l)-1]
		}
	}
}

// Order returns the polylines in a greedy nearest-neighbour order from
// start: open polylines may be reversed, closed ones may start at one of
// up to 16 vertices spread along them. The input slice is not changed.
func Order(lines []Polyline, start Point) []Polyline {
	n := len(lines)
	out := make([]Polyline, 0, n)
	if n == 0 {
		return out
	}
	// A uniform grid of cells over the first points of the lines keeps
	// the search near-linear for thousands of strokes.
	g := newGrid(lines)
	done := make([]bool, n)
	at := start
	for len(out) < n {
		i, rev, vtx := g.nearest(lines, done, at)
		done[i] = true
		g.remove(lines, i)
		p := lines[i]
		switch {
		case vtx > 0:
			q := make(Polyline, 0, len(p))
			q = append(q, p[vtx:len(p)-1]...)
			q = append(q, p[:vtx+1]...)
			p = q
		case rev:
			q := make(Polyline, len(p))
			for k := range p {
				q[k] = p[len(p)-1-k]
			}
			p = q
		}
		out = append(out, p)
		at = p[len(p)-1]
	}
	return out
}

// grid buckets the end points of lines by cell.
type grid struct {
	x0, y0, cell float64
	nx, ny       int
	cells        [][]int32
}

func newGrid(lines []Polyline) *grid {
	minX, minY, maxX, maxY := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, p := range lines {
		for _, pt := range p {
			minX, minY = math.Min(minX, pt.X), math.Min(minY, pt.Y)
			maxX, maxY = math.Max(maxX, pt.X), math.Max(maxY, pt.Y)
		}
	}
	if math.IsInf(minX, 0) {
		minX, minY, maxX, maxY = 0, 0, 1, 1
	}
	area := math.Max((maxX-minX)*(maxY-minY), 1e-6)
	cell := math.Max(math.Sqrt(area/float64(len(lines)+1)), 1e-3)
	g := &grid{x0: minX, y0: minY, cell: cell}
	g.nx = int((maxX-minX)/cell) + 1
	g.ny = int((maxY-minY)/cell) + 1
	g.cells = make([][]int32, g.nx*g.ny)
	for i, p := range lines {
		for _, c := range g.cellsOf(p) {
			g.cells[c] = append(g.cells[c], int32(i))
		}
	}
	return g
}

// maxStarts bounds the vertices of a closed contour tried as its start.
const maxStarts = 16

// starts returns the indices of the points of p where the tool may
// start: either end of an open polyline, or up to maxStarts vertices
// spread along a closed one.
func starts(p Polyline) []int {
	if len(p) == 0 {
		return nil
	}
	if p.Closed() {
		n := len(p) - 1
		step := (n + maxStarts - 1) / maxStarts
		s := make([]int, 0, min(n, maxStarts))
		for i := 0; i < n; i += step {
			s = append(s, i)
		}
		return s
	}
	return []int{0, len(p) - 1}
}

func (g *grid) cellOf(pt Point) int {
	cx := min(max(int((pt.X-g.x0)/g.cell), 0), g.nx-1)
	cy := min(max(int((pt.Y-g.y0)/g.cell), 0), g.ny-1)
	return cy*g.nx + cx
}

func (g *grid) cellsOf(p Polyline) []int {
	var buf [maxStarts]int
	cs := buf[:0]
next:
	for _, k := range starts(p) {
		c := g.cellOf(p[k])
		for _, o := range cs {
			if o == c {
				continue next
			}
		}
		cs = append(cs, c)
	}
	return cs
}

func (g *grid) remove(lines []Polyline, i int) {
	for _, c := range g.cellsOf(lines[i]) {
		s := g.cells[c]
		for k, v := range s {
			if int(v) == i {
				s[k] = s[len(s)-1]
				g.cells[c] = s[:len(s)-1]
				break
			}
		}
	}
}

// nearest finds the closest remaining start point by searching rings of
// cells around at.
func (g *grid) nearest(lines []Polyline, done []bool, at Point) (idx int, rev bool, vtx int) {
	best := math.Inf(1)
	idx = -1
	c := g.cellOf(at)
	cx, cy := c%g.nx, c/g.nx
	for r := 0; r <= max(g.nx, g.ny); r++ {
		for y := cy - r; y <= cy+r; y++ {
			for x := cx - r; x <= cx+r; x++ {
				if x < 0 || y < 0 || x >= g.nx || y >= g.ny || (max(abs(x-cx), abs(y-cy)) != r) {
					continue
				}
				for _, i := range g.cells[y*g.nx+x] {
					p := lines[i]
					if p.Closed() {
						for _, k := range starts(p) {
							if d := dist2(at, p[k]); d < best {
								best, idx, rev, vtx = d, int(i), false, k
							}
						}
						continue
					}
					if d := dist2(at, p[0]); d < best {
						best, idx, rev, vtx = d, int(i), false, 0
					}
					if d := dist2(at, p[len(p)-1]); d < best {
						best, idx, rev, vtx = d, int(i), true, 0
					}
				}
			}
		}
		// Everything within r cells is searched; anything farther is at
		// least r*cell away (from the cell edges).
		if lim := float64(r) * g.cell; idx >= 0 && best <= lim*lim {
			return idx, rev, vtx
		}
	}
	if idx < 0 { // lines with no points
		for i := range lines {
			if !done[i] {
				return i, false, 0
			}
		}
	}
	return idx, rev, vtx
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func dist(a, b Point) float64 { return math.Hypot(a.X-b.X, a.Y-b.Y) }

func dist2(a, b Point) float64 {
	dx, dy := a.X-b.X, a.Y-b.Y
	return dx*dx + dy*dy
}

// Hatch fills the closed contours (all taken together, non-zero winding)
// with horizontal strokes spacing mm apart, the first half a spacing
// below the top. Strokes alternate direction.
func Hatch(contours []Polyline, spacing float64) []Polyline {
	if spacing <= 0 || len(contours) == 0 {
		return nil
	}
	type edge struct {
		x0, y0, x1, y1 float64
		dir            int
	}
	var edges []edge
	minY, maxY := math.Inf(1), math.Inf(-1)
	for _, c := range contours {
		for i := 1; i < len(c); i++ {
			a, b := c[i-1], c[i]
			if a.Y == b.Y {
				continue
			}
			e := edge{a.X, a.Y, b.X, b.Y, 1}
			if a.Y > b.Y {
				e = edge{b.X, b.Y, a.X, a.Y, -1}
			}
			edges = append(edges, e)
			minY, maxY = math.Min(minY, e.y0), math.Max(maxY, e.y1)
		}
	}
	if len(edges) == 0 {
		return nil
	}
	sort.Slice(edges, func(i, j int) bool { return edges[i].y0 < edges[j].y0 })
	type cross struct {
		x   float64
		dir int
	}
	var out []Polyline
	var xs []cross
	var active []edge
	next := 0
	flip := false
	for y := minY + spacing/2; y < maxY; y += spacing {
		for next < len(edges) && edges[next].y0 <= y {
			active = append(active, edges[next])
			next++
		}
		xs = xs[:0]
		k := 0
		for _, e := range active {
			if e.y1 <= y {
				continue // finished: drop
			}
			active[k] = e
			k++
			if e.y0 <= y {
				x := e.x0 + (y-e.y0)*(e.x1-e.x0)/(e.y1-e.y0)
				xs = append(xs, cross{x, e.dir})
			}
		}
		active = active[:k]
		sort.Slice(xs, func(i, j int) bool { return xs[i].x < xs[j].x })
		var row []Polyline
		w := 0
		for i, c := range xs {
			before := w
			w += c.dir
			if before == 0 && w != 0 {
				row = append(row, Polyline{{c.x, y}, {}})
			} else if before != 0 && w == 0 && len(row) > 0 {
				row[len(row)-1][1] = Point{xs[i].x, y}
			}
		}
		if flip {
			for i, j := 0, len(row)-1; i < j; i, j = i+1, j-1 {
				row[i], row[j] = row[j], row[i]
			}
			for _, s := range row {
				s[0], s[1] = s[1], s[0]
			}
		}
		for _, s := range row {
			if s[1].X-s[0].X != 0 {
				out = append(out, s)
			}
		}
		flip = !flip
	}
	return out
}

// WriteSVG writes j as an SVG document in millimetres: cut lines blue,
// outlines black, hatch red, all as hairlines.
func (j *Job) WriteSVG(w io.Writer) error {
	_, err := fmt.Fprintf(w, `<svg xmlns="http://www.w3.org/2000/svg" width="%smm" height="%smm" viewBox="0 0 %s %s">`+"\n",
		num(j.Width), num(j.Height), num(j.Width), num(j.Height))
	if err != nil {
		return fmt.Errorf("toolpath: %w", err)
	}
	for _, l := range []struct {
		id, color string
		lines     []Polyline
	}{{"cut", "#0050ff", j.Cut}, {"outline", "#000000", j.Outline}, {"hatch", "#d00000", j.Hatch}} {
		fmt.Fprintf(w, `<path id="%s" fill="none" stroke="%s" stroke-width="0.02" d="`, l.id, l.color)
		if err := WritePathData(w, l.lines); err != nil {
			return err
		}
		if _, err := io.WriteString(w, "\"/>\n"); err != nil {
			return fmt.Errorf("toolpath: %w", err)
		}
	}
	_, err = io.WriteString(w, "</svg>\n")
	if err != nil {
		return fmt.Errorf("toolpath: %w", err)
	}
	return nil
}

// WritePathData writes lines as SVG path data ("M x y L x y ... Z"),
// coordinates in mm with up to 3 decimals.
func WritePathData(w io.Writer, lines []Polyline) error {
	buf := make([]byte, 0, 4096)
	for _, p := range lines {
		if len(p) == 0 {
			continue
		}
		closed := p.Closed()
		n := len(p)
		if closed {
			n--
		}
		for i := 0; i < n; i++ {
			if i == 0 {
				buf = append(buf, 'M')
			} else {
				buf = append(buf, 'L')
			}
			buf = strconv.AppendFloat(buf, round3(p[i].X), 'f', -1, 64)
			buf = append(buf, ' ')
			buf = strconv.AppendFloat(buf, round3(p[i].Y), 'f', -1, 64)
		}
		if closed {
			buf = append(buf, 'Z')
		}
		if len(buf) > 3500 {
			if _, err := w.Write(buf); err != nil {
				return fmt.Errorf("toolpath: %w", err)
			}
			buf = buf[:0]
		}
	}
	if _, err := w.Write(buf); err != nil {
		return fmt.Errorf("toolpath: %w", err)
	}
	return nil
}

func round3(v float64) float64 { return math.Round(v*1000) / 1000 }

func num(v float64) string { return strconv.FormatFloat(round3(v), 'f', -1, 64) }
