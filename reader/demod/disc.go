package demod

import "math"

// toneDisc is a non-coherent two-tone FSK discriminator: sliding DFTs
// at the two tone frequencies over a window of whole periods of both,
// giving per input (|S1|² − |S0|²) / (|S1|² + |S0|²) in [−1, 1]. It is
// independent of amplitude and polarity, and a DC offset has no energy
// at either tone.
type toneDisc struct {
	l      int
	ring   []complex128 // per input: x·e^{−jω0n} and x·e^{−jω1n}, interleaved
	i      int
	s0, s1 complex128
	r0, r1 complex128 // current phasors
	w0, w1 complex128 // per-input rotation
	n      int64
}

func newToneDisc(period0, period1 float64, window int) toneDisc {
	d := toneDisc{l: window, ring: make([]complex128, 2*window)}
	d.w0 = complex(math.Cos(-2*math.Pi/period0), math.Sin(-2*math.Pi/period0))
	d.w1 = complex(math.Cos(-2*math.Pi/period1), math.Sin(-2*math.Pi/period1))
	d.reset()
	return d
}

func (d *toneDisc) reset() {
	clear(d.ring)
	d.i, d.n = 0, 0
	d.s0, d.s1 = 0, 0
	d.r0, d.r1 = 1, 1
}

func (d *toneDisc) push(x float64) float64 {
	a := complex(x, 0) * d.r0
	b := complex(x, 0) * d.r1
	k := 2 * d.i
	d.s0 += a - d.ring[k]
	d.s1 += b - d.ring[k+1]
	d.ring[k], d.ring[k+1] = a, b
	d.i++
	if d.i == d.l {
		d.i = 0
	}
	d.r0 *= d.w0
	d.r1 *= d.w1
	d.n++
	if d.n&0xffff == 0 {
		// Renormalise the phasors and resum the window against drift.
		d.r0 /= complex(cmplxAbs(d.r0), 0)
		d.r1 /= complex(cmplxAbs(d.r1), 0)
		d.s0, d.s1 = 0, 0
		for j := 0; j < d.l; j++ {
			d.s0 += d.ring[2*j]
			d.s1 += d.ring[2*j+1]
		}
	}
	e0 := real(d.s0)*real(d.s0) + imag(d.s0)*imag(d.s0)
	e1 := real(d.s1)*real(d.s1) + imag(d.s1)*imag(d.s1)
	if e0+e1 == 0 {
		return 0
	}
	return (e1 - e0) / (e1 + e0)
}

func cmplxAbs(c complex128) float64 { return math.Hypot(real(c), imag(c)) }
