package demod

import "math"

// cellSink receives the soft value of each timed cell (half-bit, FSK
// bit) as the clock recovers it: c is the DC-free integral of the
// baseband over the cell divided by the running cell amplitude (about
// ±1 for a clean signal), at is the absolute position where the cell
// starts, in input units (samples or carrier cycles).
type cellSink interface {
	cell(c float64, at float64)
}

// clock is the integrate-and-dump symbol clock shared by the three
// demodulators. It keeps the running sum of its input in a ring, so the
// integral of any window is two look-ups with linear interpolation: the
// per-sample cost is one add and one store, and all the work happens
// once per cell.
//
// Timing is recovered by a second-order loop on a Gardner-style error:
// at each cell boundary where the two cells around it differ in sign,
// the integral of a cell-wide window centred on the boundary is zero
// when the boundary is in the right place and grows with the timing
// error. The loop follows clock drift of several percent and slow
// wander; it needs no edge detector, so noise, slewed edges and
// asymmetric duty cycles only add jitter to the error, which the loop
// averages away.
//
// DC removal (window dc > 0) subtracts the mean of a window centred on
// the cell, which takes out offsets, AC coupling and droop whose time
// constants are long compared with a cell.
type clock struct {
	ring  []float64 // ring[i&mask] = sum of inputs 0..i-1
	mask  int64
	n     int64   // inputs written
	acc   float64 // sum of all inputs written (rebased)
	t0    float64 // nominal cell length
	t     float64 // current cell length estimate
	tb    float64 // start of the next cell
	dc    int64   // half of the DC window; 0 = no DC removal
	next  int64   // evaluate the next cell when n reaches next
	prev  float64 // previous cell's raw integral
	amp   float64 // running mean of |cell integral|
	kp    float64 // phase gain
	ki    float64 // frequency gain
	edges int     // transitions seen (for the acquisition gain)
	quiet int     // cells since the last transition
	fixed bool    // the cell length is exact (HDX counts cycles): no frequency loop, snap after quiet runs
	sink  cellSink
}

const (
	ringBits   = 12 // 4096 entries: DC window + several cells of look-ahead
	rebaseMask = 1<<20 - 1
	kpAcquire  = 0.3
	kpTrack    = 0.12
	edgesAcq   = 48
	quietCells = 8
	driftLimit = 0.06 // the cell length stays within ±6 % of nominal
)

func newClock(cell float64, dcWindow int, sink cellSink) *clock {
	c := &clock{
		ring: make([]float64, 1<<ringBits),
		mask: 1<<ringBits - 1,
		t0:   cell,
		dc:   int64(dcWindow / 2),
		sink: sink,
	}
	c.reset()
	return c
}

func (c *clock) reset() {
	clear(c.ring)
	c.n, c.acc = 0, 0
	c.t = c.t0
	c.tb = 0
	c.prev, c.amp = 0, 0
	c.edges, c.quiet = 0, 0
	c.kp = kpAcquire
	c.schedule()
}

// schedule sets next to the first input count at which the cell starting
// at tb can be evaluated: its end, the boundary window and the DC window
// must all be in the ring.
func (c *clock) schedule() {
	need := c.tb + c.t + c.t/2 + 1
	if c.dc > 0 {
		need = max(need, c.tb+c.t/2+float64(c.dc)+1)
	}
	c.next = int64(math.Ceil(need))
}

// push adds one input value.
func (c *clock) push(x float64) {
	c.acc += x
	c.n++
	c.ring[c.n&c.mask] = c.acc
	if c.n >= c.next {
		c.step(false)
	}
	if c.n&rebaseMask == 0 {
		c.rebase()
	}
}

// writeSamples adds a block of inputs. The inner loop only sums and
// stores; it stops where a cell is due or the sums need rebasing.
func writeSamples[T int16 | float32](c *clock, s []T) {
	for len(s) > 0 {
		k := min(c.next-c.n, (c.n|rebaseMask)+1-c.n, int64(len(s)))
		if k < 1 {
			k = 1
		}
		acc, n, ring, mask := c.acc, c.n, c.ring, c.mask
		for _, x := range s[:k] {
			acc += float64(x)
			n++
			ring[n&mask] = acc
		}
		c.acc, c.n = acc, n
		s = s[k:]
		if c.n >= c.next {
			c.step(false)
		}
		if c.n&rebaseMask == 0 {
			c.rebase()
		}
	}
}

// rebase keeps the running sums small so float64 stays exact on streams
// of any length.
func (c *clock) rebase() {
	b := c.ring[(c.n-c.mask)&c.mask]
	for i := range c.ring {
		c.ring[i] -= b
	}
	c.acc -= b
}

// sum returns the running sum at the real position t, clamped to what
// the ring holds.
func (c *clock) sum(t float64) float64 {
	lo := float64(c.n - c.mask)
	if t < lo {
		t = lo
	}
	if t < 0 {
		t = 0
	}
	if t >= float64(c.n) {
		return c.ring[c.n&c.mask]
	}
	i := int64(t)
	f := t - float64(i)
	a := c.ring[i&c.mask]
	return a + f*(c.ring[(i+1)&c.mask]-a)
}

// mean returns the DC level around position t.
func (c *clock) mean(t float64) float64 {
	if c.dc == 0 {
		return 0
	}
	k := int64(t + 0.5)
	lo, hi := k-c.dc, k+c.dc
	if m := c.n - c.mask; lo < m {
		lo = m
	}
	if lo < 0 {
		lo = 0
	}
	if hi > c.n {
		hi = c.n
	}
	if hi <= lo {
		return 0
	}
	return (c.ring[hi&c.mask] - c.ring[lo&c.mask]) / float64(hi-lo)
}

// step evaluates every cell that the inputs now cover. final evaluates
// the cells that end inside the input even though the DC window is cut.
func (c *clock) step(final bool) {
	for {
		if final {
			if c.tb+c.t+1 > float64(c.n) {
				return
			}
		} else if c.n < c.next {
			return
		}
		tb, t := c.tb, c.t
		mu := c.mean(tb + t/2)
		v := c.sum(tb+t) - c.sum(tb) - t*mu
		// Timing error at the boundary tb, from the window straddling it.
		adj, kp := 0.0, c.kp
		c.quiet++
		if c.amp > 0 && (v > 0) != (c.prev > 0) && c.prev != 0 {
			mb := c.mean(tb)
			m := c.sum(tb+t/2) - c.sum(tb-t/2) - t*mb
			e := m / c.amp
			if c.prev < v {
				e = -e
			}
			e = min(max(e, -1), 1)
			if c.fixed && c.quiet >= quietCells {
				// The first transition after a long run without any (the
				// start of an HDX answer after its pre-bits): take its
				// timing whole, scaled by the two cells around it (the
				// running amplitude may be stale after silence), and
				// acquire again.
				e = m / ((math.Abs(c.prev) + math.Abs(v)) / 2)
				if c.prev < v {
					e = -e
				}
				e = min(max(e, -1), 1)
				kp = 1
				c.edges, c.kp = 0, kpAcquire
			}
			adj = e * t / 2
			c.quiet = 0
			c.edges++
			if c.edges == edgesAcq {
				c.kp = kpTrack
			}
		}
		a := math.Abs(v)
		if c.amp == 0 {
			c.amp = a
		} else {
			c.amp += (a - c.amp) / 32
		}
		norm := 0.0
		if c.amp > 0 {
			norm = v / c.amp
		}
		c.prev = v
		c.sink.cell(norm, tb)
		if !c.fixed {
			c.t += c.kp * c.kp / 4 * adj
		}
		c.t = min(max(c.t, c.t0*(1-driftLimit)), c.t0*(1+driftLimit))
		c.tb = tb + c.t + kp*adj
		c.schedule()
	}
}
