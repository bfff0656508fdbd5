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
// The program works in mm and absolute coordinates (G21 G90), switches
// the laser on in dynamic power mode (M4: power follows the actual speed,
// off while not moving; in laser mode G0 travel never fires), marks each
// path with G1 moves at the job's speed and ends with M5 S0 and a travel
// back to the origin.
func Program(j engravers.Job, maxS int) ([]string, error) {
	if err := j.Validate(); err != nil {
		return nil, err
	}
	if maxS <= 0 {
		return nil, fmt.Errorf("grbl: maximum S %d", maxS)
	}
	s := int(math.Round(j.Power * float64(maxS)))
	if s < 1 {
		s = 1
	}
	passes := max(j.Passes, 1)
	lines := []string{"G21 G90", "M5 S0", "M4 S" + strconv.Itoa(s)}
	feed := " F" + strconv.FormatFloat(j.Speed, 'f', -1, 64)
	for range passes {
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
