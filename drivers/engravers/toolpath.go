package engravers

import "github.com/chipdesk/chipdesk/tags/toolpath"

// FromToolpath returns the polylines of a rendered tag (package
// tags/toolpath) in the order they are marked: mark outlines, then hatch
// strokes, then, when cut is set, the blank's outline. tags/toolpath has
// its origin at the top left with y down; engraver paths have Y up, so y
// is flipped about the job's height (the origin becomes the bottom-left
// corner).
func FromToolpath(t *toolpath.Job, cut bool) []Path {
	var out []Path
	add := func(ls []toolpath.Polyline) {
		for _, l := range ls {
			p := make(Path, len(l))
			for i, pt := range l {
				p[i] = Point{X: pt.X, Y: t.Height - pt.Y}
			}
			out = append(out, p)
		}
	}
	add(t.Outline)
	add(t.Hatch)
	if cut {
		add(t.Cut)
	}
	return out
}

// OutlineOf returns the blank's outline of a rendered tag (the first
// cut line) in engraver coordinates, for a frame; nil for a plate of
// several tags (their bounds frame the plate).
func OutlineOf(t *toolpath.Job) Path {
	if len(t.Cut) == 0 || len(t.Cut) > 2 {
		return nil
	}
	p := make(Path, len(t.Cut[0]))
	for i, pt := range t.Cut[0] {
		p[i] = Point{X: pt.X, Y: t.Height - pt.Y}
	}
	return p
}
