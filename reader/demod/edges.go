package demod

// Edges feeds a Decoder from edge timings, as a comparator on a GPIO
// pin gives them: each interval between two edges, in carrier cycles
// (or input samples for HDX), becomes that many samples of alternately
// +1 and −1. Fractions carry over to the next interval, so rounding
// never accumulates. The level of the first interval does not matter:
// the decoders do not depend on polarity.
type Edges struct {
	D     Decoder
	buf   []int16
	level int16
	frac  float64
	out   []Result
}

// Write feeds the intervals and returns the telegrams completed; the
// slice is valid until the next call.
func (e *Edges) Write(intervals []float64) []Result {
	e.out = e.out[:0]
	if e.level == 0 {
		e.level = 1
	}
	for _, iv := range intervals {
		if !(iv > 0) || iv > 1<<20 {
			// A glitch, or the pin stuck: no samples, keep the level.
			continue
		}
		e.frac += iv
		n := int(e.frac)
		e.frac -= float64(n)
		for n > 0 {
			if len(e.buf) == cap(e.buf) {
				e.flush()
			}
			k := min(n, cap(e.buf)-len(e.buf))
			for i := 0; i < k; i++ {
				e.buf = append(e.buf, e.level)
			}
			n -= k
		}
		e.level = -e.level
	}
	e.flush()
	return e.out
}

func (e *Edges) flush() {
	if cap(e.buf) == 0 {
		e.buf = make([]int16, 0, 4096)
		return
	}
	if len(e.buf) > 0 {
		e.out = append(e.out, e.D.Write(e.buf)...)
		e.buf = e.buf[:0]
	}
}
