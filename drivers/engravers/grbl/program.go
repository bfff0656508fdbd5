package grbl

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/chipdesk/chipdesk/drivers/engravers"
)

// MaxLine is the longest line grbl takes, without its LF (config.h
// LINE_BUFFER_SIZE 80 includes the terminator; longer lines get
// error:11).
const MaxLine = 79

// Program turns a job into g-code lines for a GRBL laser in laser mode
// ($32=1). maxS is the S value of full power ($30, 1000 by default).
//
// The program works in mm, absolute coordinates and feed per minute
// (G21 G90 G94) with the job's feed set before the first move (grbl
// answers error:22 to a G1 with no feed rate), switches the laser on in
// dynamic power mode (M4: power follows the actual speed, off while not
// moving; in laser mode G0 travel never fires), marks each path with G1
// moves and ends with the laser off (M5 S0) and a travel back to the
// origin. Every line is shorter than grbl's 80-byte line buffer.
func Program(j engravers.Job, maxS int) ([]string, error) {
	return Programs([]engravers.Job{j}, maxS)
}

// Programs is Program for jobs marked one after the other, each at its
// own power and speed (a material test grid).
func Programs(jobs []engravers.Job, maxS int) ([]string, error) {
	if maxS <= 0 {
		return nil, fmt.Errorf("grbl: maximum S %d", maxS)
	}
	if len(jobs) == 0 {
		return nil, fmt.Errorf("%w: no job", engravers.ErrJob)
	}
	var lines []string
	for k, j := range jobs {
		if err := j.Validate(); err != nil {
			return nil, err
		}
		s := int(math.Round(j.Power * float64(maxS)))
		if s < 1 {
			s = 1
		}
		feed := " F" + strconv.FormatFloat(j.Speed, 'f', -1, 64)
		if k == 0 {
			lines = append(lines, "G21 G90 G94"+feed, "M5 S0")
		}
		lines = append(lines, "M4 S"+strconv.Itoa(s))
		for range max(j.Passes, 1) {
			for _, p := range j.Paths {
				if len(p) < 2 {
					continue
				}
				lines = append(lines, "G0 "+xy(p[0]))
				for i, pt := range p[1:] {
					l := "G1 " + xy(pt)
					if i == 0 {
						l += feed
					}
					lines = append(lines, l)
				}
			}
		}
	}
	lines = append(lines, "M5 S0", "G0 X0 Y0")
	for _, l := range lines {
		if len(l) > MaxLine {
			return nil, fmt.Errorf("%w: line %q longer than %d", engravers.ErrJob, l, MaxLine)
		}
	}
	return lines, nil
}

// xy formats a point with at most three decimals (µm).
func xy(p engravers.Point) string {
	return "X" + coord(p.X) + " Y" + coord(p.Y)
}

func coord(v float64) string {
	s := strconv.FormatFloat(v, 'f', 3, 64)
	s = strings.TrimRight(s, "0")
	s = strings.TrimSuffix(s, ".")
	if s == "-0" {
		s = "0"
	}
	return s
}

// FrameProgram is the g-code that travels once round the job's Outline
// (the blank's shape), or its bounds when it has none, with the laser
// off (M5 S0, G1 at feed mm/min: in laser mode G1 with the spindle off
// does not fire, and without laser mode M5 keeps the output off) and
// back to the origin.
func FrameProgram(j engravers.Job, feed float64) ([]string, error) {
	if !(feed > 0) || math.IsInf(feed, 0) {
		return nil, fmt.Errorf("%w: frame feed %v mm/min", engravers.ErrJob, feed)
	}
	f := " F" + strconv.FormatFloat(feed, 'f', -1, 64)
	if len(j.Outline) >= 2 {
		if err := j.Validate(); err != nil {
			return nil, err
		}
		lines := []string{"G21 G90", "M5 S0", "G0 " + xy(j.Outline[0])}
		for i, pt := range j.Outline[1:] {
			l := "G1 " + xy(pt)
			if i == 0 {
				l += f
			}
			lines = append(lines, l)
		}
		return append(lines, "G0 X0 Y0"), nil
	}
	lo, hi, ok := j.Bounds()
	if !ok {
		return nil, fmt.Errorf("%w: nothing to frame", engravers.ErrJob)
	}
	return []string{
		"G21 G90", "M5 S0",
		"G0 " + xy(lo),
		"G1 " + xy(engravers.Point{X: hi.X, Y: lo.Y}) + f,
		"G1 " + xy(hi),
		"G1 " + xy(engravers.Point{X: lo.X, Y: hi.Y}),
		"G1 " + xy(lo),
		"G0 X0 Y0",
	}, nil
}
