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
