package tags

import (
	"math"

	"github.com/chipdesk/chipdesk/tags/toolpath"
)

type pt = toolpath.Point

// pathBuilder collects contours of straight lines and Bézier curves,
// flattened into polylines as it goes. Each contour is closed (its last
// point repeats the first).
type pathBuilder struct {
	tol      float64 // flattening tolerance, mm
	contours []toolpath.Polyline
	cur      toolpath.Polyline
}

func (b *pathBuilder) moveTo(p pt) {
	b.close()
	b.cur = toolpath.Polyline{p}
}

func (b *pathBuilder) lineTo(p pt) { b.cur = append(b.cur, p) }

func (b *pathBuilder) last() pt { return b.cur[len(b.cur)-1] }

func (b *pathBuilder) quadTo(c, p pt) {
	a := b.last()
	n := segments(math.Hypot(a.X-2*c.X+p.X, a.Y-2*c.Y+p.Y), b.tol)
	for i := 1; i <= n; i++ {
		t := float64(i) / float64(n)
		u := 1 - t
		b.cur = append(b.cur, pt{X: u*u*a.X + 2*u*t*c.X + t*t*p.X, Y: u*u*a.Y + 2*u*t*c.Y + t*t*p.Y})
	}
}

func (b *pathBuilder) cubeTo(c1, c2, p pt) {
	a := b.last()
	dd := math.Max(math.Hypot(a.X-2*c1.X+c2.X, a.Y-2*c1.Y+c2.Y), math.Hypot(c1.X-2*c2.X+p.X, c1.Y-2*c2.Y+p.Y))
	n := segments(1.5*dd, b.tol)
	for i := 1; i <= n; i++ {
		t := float64(i) / float64(n)
		u := 1 - t
		b.cur = append(b.cur, pt{
			X: u*u*u*a.X + 3*u*u*t*c1.X + 3*u*t*t*c2.X + t*t*t*p.X,
			Y: u*u*u*a.Y + 3*u*u*t*c1.Y + 3*u*t*t*c2.Y + t*t*t*p.Y,
		})
	}
}

// segments: how many chords keep a curve with second difference dd
// within tol (the chord error of a parabola is dd/8 per n²).
func segments(dd, tol float64) int {
	n := int(math.Ceil(math.Sqrt(dd / (8 * tol))))
	return min(max(n, 1), 200)
}

// arc adds a circular arc around c from angle a0 to a1 (radians, y
// down: increasing angles turn clockwise on screen).
func (b *pathBuilder) arc(c pt, r, a0, a1 float64) {
	n := int(math.Ceil(math.Abs(a1-a0) / (2 * math.Acos(math.Max(-1, 1-b.tol/r)))))
	n = min(max(n, 2), 720)
	for i := 1; i <= n; i++ {
		a := a0 + (a1-a0)*float64(i)/float64(n)
		b.cur = append(b.cur, pt{X: c.X + r*math.Cos(a), Y: c.Y + r*math.Sin(a)})
	}
}

// arcCW adds an arc around c from angle a0 to a1 turning with growing
// angles (clockwise on a y-down page), whatever turns a0 and a1 are given in.
func (b *pathBuilder) arcCW(c pt, r, a0, a1 float64) {
	for a1 <= a0 {
		a1 += 2 * math.Pi
	}
	b.arc(c, r, a0, a1)
}

func (b *pathBuilder) close() {
	if len(b.cur) > 1 {
		if b.cur[0] != b.last() {
			b.cur = append(b.cur, b.cur[0])
		}
		b.contours = append(b.contours, b.cur)
	}
	b.cur = nil
}

// circle returns a closed circle contour.
func circle(c pt, r, tol float64) toolpath.Polyline {
	b := pathBuilder{tol: tol}
	b.moveTo(pt{X: c.X + r, Y: c.Y})
	b.arc(c, r, 0, 2*math.Pi)
	b.close()
	return b.contours[0]
}

// inside reports whether p is inside the closed contour (even-odd).
func inside(contour toolpath.Polyline, p pt) bool {
	in := false
	for i := 1; i < len(contour); i++ {
		a, b := contour[i-1], contour[i]
		if (a.Y > p.Y) != (b.Y > p.Y) && p.X < a.X+(p.Y-a.Y)*(b.X-a.X)/(b.Y-a.Y) {
			in = !in
		}
	}
	return in
}

// distToEdge is the distance from p to the nearest edge of contour.
func distToEdge(contour toolpath.Polyline, p pt) float64 {
	d := math.Inf(1)
	for i := 1; i < len(contour); i++ {
		a, b := contour[i-1], contour[i]
		dx, dy := b.X-a.X, b.Y-a.Y
		t := 0.0
		if l := dx*dx + dy*dy; l > 0 {
			t = math.Max(0, math.Min(1, ((p.X-a.X)*dx+(p.Y-a.Y)*dy)/l))
		}
		d = math.Min(d, math.Hypot(p.X-a.X-t*dx, p.Y-a.Y-t*dy))
	}
	return d
}

// rect is an axis-aligned box in mm.
type rect struct{ x0, y0, x1, y1 float64 }

func (r rect) overlaps(o rect) bool {
	return r.x0 < o.x1 && o.x0 < r.x1 && r.y0 < o.y1 && o.y0 < r.y1
}

func (r rect) grow(d float64) rect { return rect{r.x0 - d, r.y0 - d, r.x1 + d, r.y1 + d} }

// corners and edge midpoints of r.
func (r rect) points() []pt {
	mx, my := (r.x0+r.x1)/2, (r.y0+r.y1)/2
	return []pt{{X: r.x0, Y: r.y0}, {X: mx, Y: r.y0}, {X: r.x1, Y: r.y0}, {X: r.x1, Y: my},
		{X: r.x1, Y: r.y1}, {X: mx, Y: r.y1}, {X: r.x0, Y: r.y1}, {X: r.x0, Y: my}}
}

// rectInside reports whether r lies inside contour with margin mm of
// material all round (checked at its corners and edge midpoints, which
// is exact for the convex shapes and close for the others).
func rectInside(contour toolpath.Polyline, r rect, margin float64) bool {
	for _, p := range r.points() {
		if !inside(contour, p) || distToEdge(contour, p) < margin {
			return false
		}
	}
	return true
}
