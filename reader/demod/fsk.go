package demod

import "math"

// zeroCross measures the period of an oscillating input: it removes the
// DC level with a short boxcar mean, finds rising zero crossings with
// hysteresis (a crossing counts once the signal has gone a fraction of
// its running amplitude beyond zero, so noise around zero does not make
// extra cycles) and places each crossing by linear interpolation.
type zeroCross struct {
	box   []float64 // last len(box) inputs
	bsum  float64
	bi    int
	n     int64 // inputs seen
	prev  float64
	amp   float64 // running mean of |y|
	high  bool    // the signal is above +hysteresis since the last crossing
	cross float64 // position of the last zero crossing upwards, not yet confirmed
	last  float64 // position of the last confirmed rising crossing
	have  bool
}

func newZeroCross(dcWindow int) zeroCross {
	return zeroCross{box: make([]float64, dcWindow)}
}

func (z *zeroCross) reset() {
	clear(z.box)
	z.bsum, z.bi, z.n = 0, 0, 0
	z.prev, z.amp = 0, 0
	z.high, z.have = false, false
	z.cross, z.last = 0, 0
}

// push returns the period ending at this input, or 0 when no cycle
// completed. at is the position of the rising crossing that ended it.
func (z *zeroCross) push(x float64) (period, at float64) {
	// Boxcar DC removal, delayed by half the window.
	old := z.box[z.bi]
	z.box[z.bi] = x
	z.bsum += x - old
	z.bi++
	if z.bi == len(z.box) {
		z.bi = 0
	}
	mid := z.box[(z.bi+len(z.box)/2)%len(z.box)]
	y := mid - z.bsum/float64(len(z.box))
	pos := float64(z.n) - float64(len(z.box)/2)
	z.n++
	if z.n < int64(len(z.box)) {
		z.prev = y
		return 0, 0
	}
	z.amp += (math.Abs(y) - z.amp) / 64
	h := 0.5 * z.amp
	if z.prev <= 0 && y > 0 {
		z.cross = pos - 1 + z.prev/(z.prev-y)
	}
	z.prev = y
	switch {
	case !z.high && y > h:
		z.high = true
		if z.have {
			period = z.cross - z.last
		}
		z.last, z.have = z.cross, true
		return period, z.cross
	case z.high && y < -h:
		z.high = false
	}
	return 0, 0
}
