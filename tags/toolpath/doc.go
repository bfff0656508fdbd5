// Package toolpath holds what an engraver receives: polylines in
// millimetres, separated into cut lines (the blank's outline), mark
// outlines (contours of text and code modules) and hatch strokes (the
// fill inside those contours). Coordinates have their origin at the top
// left of the job, x to the right and y downwards, as in the tag design;
// a G-code writer flips y if its machine wants it up.
//
// A driver engraves a Job by travelling (laser off) to the first point
// of each polyline and marking (laser on) along it, in the order given:
// Outline first, then Hatch, with Cut last or not at all. Order and
// OrderJob sort polylines so that the travel between them stays short.
//
// Hatch fills closed contours with parallel strokes by the non-zero
// winding rule (the rule TrueType outlines are drawn with), alternating
// direction from stroke to stroke.
//
// # References
//
//   - GRBL 1.1 laser mode ($32=1): the laser is only on during G1/G2/G3
//     moves, so travel is G0 and marking is G1 (gnea/grbl
//     doc/markdown/laser_mode.md).
//   - W3C SVG 1.1, 8.3 path data (SVGPathData output).
package toolpath
