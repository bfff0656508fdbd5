package synth

import (
	"math"
	"math/rand/v2"
)

// Opts are the signal and its impairments. The zero value is a clean
// signal of amplitude 100, three telegrams long.
type Opts struct {
	// Amplitude of the modulation in ADC counts; 0 means 100.
	Amplitude float64
	// Noise is the standard deviation of white Gaussian noise, as a
	// fraction of Amplitude.
	Noise float64
	// Drift scales the tag's clock: 0.02 makes every bit 2 % longer.
	Drift float64
	// Duty is the fraction of a 0-bit (FDX-B) spent at the high level;
	// 0 means 0.5.
	Duty float64
	// Invert flips the polarity.
	Invert bool
	// Offset is a DC offset as a fraction of Amplitude.
	Offset float64
	// Slew is the time constant, in samples, of a one-pole low-pass
	// that rounds the edges (old Proxmark captures); 0 = none.
	Slew float64
	// ACCouple is the time constant, in samples, of a one-pole
	// high-pass (AC coupling, droop); 0 = none.
	ACCouple float64
	// Clip clips the result at ±Clip×Amplitude; 0 = none.
	Clip float64
	// Lead is the number of idle samples before the first telegram;
	// negative means a random lead shorter than one telegram.
	Lead int
	// Repeats is the number of telegrams; 0 means 3.
	Repeats int
	// Seed seeds the noise and the random lead.
	Seed uint64
}

func (o *Opts) defaults() Opts {
	var r Opts
	if o != nil {
		r = *o
	}
	if r.Amplitude == 0 {
		r.Amplitude = 100
	}
	if r.Duty == 0 {
		r.Duty = 0.5
	}
	if r.Repeats == 0 {
		r.Repeats = 3
	}
	return r
}

func (o *Opts) rng() *rand.Rand {
	return rand.New(rand.NewPCG(o.Seed, o.Seed^0x9e3779b97f4a7c15))
}

// lead returns the idle length, random when Lead < 0.
func (o *Opts) lead(r *rand.Rand, telegram int) int {
	if o.Lead >= 0 {
		return o.Lead
	}
	return r.IntN(telegram)
}

// FDXB returns the envelope of an FDX-B tag sending telegram t (128 bits
// in transmission order, MSB first) Repeats times without gaps, one
// sample per carrier cycle.
func FDXB(t [16]byte, o *Opts) []int16 {
	op := o.defaults()
	r := op.rng()
	bit := 32 * (1 + op.Drift)
	lead := op.lead(r, 4096)
	nbits := 128 * op.Repeats
	n := lead + int(math.Ceil(float64(nbits)*bit)) + 64
	// Transition times: every bit boundary, and mid-bit for a 0. The
	// level after a transition alternates; duty shifts rising edges
	// earlier and falling edges later.
	d := (op.Duty - 0.5) * bit / 2
	var edges []float64
	for k := 0; k < nbits; k++ {
		i := k % 128
		t0 := float64(lead) + float64(k)*bit
		edges = append(edges, t0)
		if t[i/8]>>(7-i%8)&1 == 0 {
			edges = append(edges, t0+bit/2)
		}
	}
	x := make([]float64, n)
	level := -1.0
	e := 0
	for s := range x {
		c := float64(s) + 0.5
		for e < len(edges) {
			at := edges[e]
			if level < 0 {
				at -= d // rising
			} else {
				at += d
			}
			if at > c {
				break
			}
			level = -level
			e++
		}
		if float64(s) < float64(lead) || e >= len(edges) && float64(s) > edges[len(edges)-1]+bit {
			x[s] = 0 // idle carrier: no modulation
			continue
		}
		x[s] = level
	}
	return finish(x, &op, r)
}

// FDXA returns the envelope of an FDX-A tag sending the 5 bytes b (7
// data bits and the odd parity bit each, parity in the MSB) Repeats
// times, one sample per carrier cycle at 125 kHz.
func FDXA(b [5]byte, o *Opts) []int16 {
	op := o.defaults()
	r := op.rng()
	var fsk []byte
	for i := 15; i >= 0; i-- {
		fsk = append(fsk, byte(preamble>>i)&1)
	}
	for _, v := range b {
		for i := 7; i >= 0; i-- {
			if v>>i&1 == 1 {
				fsk = append(fsk, 1, 0)
			} else {
				fsk = append(fsk, 0, 1)
			}
		}
	}
	bit := 50 * (1 + op.Drift)
	lead := op.lead(r, 4800)
	nb := len(fsk) * op.Repeats
	n := lead + int(math.Ceil(float64(nb)*bit)) + 64
	x := make([]float64, n)
	phase := 0.0
	for s := range x {
		k := int((float64(s) - float64(lead)) / bit)
		if s < lead || k >= nb {
			continue
		}
		per := 8.0
		if fsk[k%len(fsk)] == 1 {
			per = 10
		}
		phase += 2 * math.Pi / (per * (1 + op.Drift))
		x[s] = math.Sin(phase)
	}
	return finish(x, &op, r)
}

// preamble is the FDX-A preamble with fc/10 read as 1.
const preamble uint16 = 0x551D

// HDX sampling and tones (ISO 11785).
const (
	HDXRate = 2e6
	hdxF0   = 134200.0
	hdxF1   = 123200.0
)

// HDX returns the RF of an HDX answer sampled at 2 MHz: 16 pre-bits of
// 0, then frame (start byte first, each byte least significant bit
// first), each bit 16 cycles of 134.2 kHz (0) or 123.2 kHz (1); the
// answer is repeated Repeats times with 2 ms of silence (the reader's
// charge phase) before each.
func HDX(frame []byte, o *Opts) []int16 {
	op := o.defaults()
	r := op.rng()
	var bits []byte
	bits = append(bits, make([]byte, 16)...)
	for _, v := range frame {
		for i := 0; i < 8; i++ {
			bits = append(bits, v>>i&1)
		}
	}
	bits = append(bits, make([]byte, 4)...) // end bits
	gap := int(0.002 * HDXRate)
	lead := op.lead(r, gap)
	var x []float64
	x = append(x, make([]float64, lead)...)
	for rep := 0; rep < op.Repeats; rep++ {
		if rep > 0 {
			x = append(x, make([]float64, gap)...)
		}
		cycles := 0.0
		for {
			k := int(cycles / 16)
			if k >= len(bits) {
				break
			}
			f := hdxF0
			if bits[k] == 1 {
				f = hdxF1
			}
			f /= 1 + op.Drift
			x = append(x, math.Sin(2*math.Pi*cycles))
			cycles += f / HDXRate
		}
	}
	x = append(x, make([]float64, 64)...)
	return finish(x, &op, r)
}

// finish applies the analogue impairments and quantises.
func finish(x []float64, o *Opts, r *rand.Rand) []int16 {
	lp, hp := 0.0, 0.0
	out := make([]int16, len(x))
	for i, v := range x {
		if o.Invert {
			v = -v
		}
		if o.Slew > 0 {
			lp += (v - lp) / o.Slew
			v = lp
		}
		if o.ACCouple > 0 {
			hp += (v - hp) / o.ACCouple
			v -= hp
		}
		v = v*o.Amplitude + o.Offset*o.Amplitude
		if o.Noise > 0 {
			v += r.NormFloat64() * o.Noise * o.Amplitude
		}
		if o.Clip > 0 {
			c := o.Clip * o.Amplitude
			v = min(max(v, -c), c)
		}
		out[i] = int16(math.Round(min(max(v, -32768), 32767)))
	}
	return out
}
