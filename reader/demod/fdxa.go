package demod

import (
	"math"

	"github.com/chipdesk/chipdesk/reader"
	"github.com/chipdesk/chipdesk/reader/iso11785"
)

// FDX-A / FECAVA timing: 125 kHz carrier, FSK with the tones fc/8 and
// fc/10, 50 carrier cycles per FSK bit; a frame is 96 FSK bits, a
// 16-bit preamble and 40 Manchester-coded data bits (5 bytes of 7 data
// bits and an odd parity bit, most significant bit first).
const (
	fdxaCarrier      = 125000.0
	fdxaCyclesPerBit = 50
	fdxaLowPeriod    = 8  // fc/8 = FSK 0
	fdxaHighPeriod   = 10 // fc/10 = FSK 1
	fdxaFrameBits    = 96
	fdxaWindow       = 40 // discriminator window, cycles
	// fdxaPreamble is the preamble with fc/10 read as 1 (Proxmark prints
	// it inverted, 0xAAE2).
	fdxaPreamble = 0x551D
)

// FDXA demodulates FDX-A (FECAVA, Destron, early HomeAgain) tags:
// the envelope carries an FSK subcarrier (fc/8, fc/10) whose bits are
// Manchester coded.
type FDXA struct {
	opts  Opts
	scale float64 // samples per carrier cycle
	disc  toneDisc
	clk   *clock
	hi    uint32 // the oldest 32 of the last 96 FSK bits
	lo    uint64 // the newest 64
	nbits int64
	at    [128]float64
	q     quality
	out   []Result
	done  bool
}

var _ Decoder = (*FDXA)(nil)

// NewFDXA returns an FDX-A demodulator.
func NewFDXA(o *Opts) *FDXA {
	d := &FDXA{opts: optsOrDefault(o), scale: 1}
	if d.opts.SampleRate > 0 {
		car := d.opts.Carrier
		if car <= 0 {
			car = fdxaCarrier
		}
		d.scale = d.opts.SampleRate / car
	}
	// 40 cycles hold whole periods of both tones.
	d.disc = newToneDisc(fdxaLowPeriod*d.scale, fdxaHighPeriod*d.scale, int(math.Round(fdxaWindow*d.scale)))
	d.clk = newClock(fdxaCyclesPerBit*d.scale, 0, d)
	d.Reset()
	return d
}

// Reset implements Decoder.
func (d *FDXA) Reset() {
	d.disc.reset()
	d.clk.reset()
	d.hi, d.lo, d.nbits = 0, 0, 0
	d.q = quality{}
	d.out = d.out[:0]
	d.done = false
}

// Protocol implements Decoder.
func (d *FDXA) Protocol() reader.Air { return reader.AirFDXA }

// String implements Decoder.
func (d *FDXA) String() string { return "demod.FDXA" }

func (d *FDXA) push(x float64) {
	d.clk.push(d.disc.push(x))
}

// Write implements Decoder.
func (d *FDXA) Write(s []int16) []Result {
	d.out = d.out[:0]
	for _, x := range s {
		d.push(float64(x))
	}
	return d.out
}

// WriteFloat implements Decoder.
func (d *FDXA) WriteFloat(s []float32) []Result {
	d.out = d.out[:0]
	for _, x := range s {
		d.push(float64(x))
	}
	return d.out
}

// Flush implements Decoder.
func (d *FDXA) Flush() []Result {
	d.out = d.out[:0]
	if !d.done {
		d.done = true
		d.clk.step(true)
	}
	return d.out
}

// cell receives one FSK bit.
func (d *FDXA) cell(v, at float64) {
	d.q.add(v)
	bit := uint64(0)
	if v > 0 {
		bit = 1
	}
	d.hi = d.hi<<1 | uint32(d.lo>>63)
	d.lo = d.lo<<1 | bit
	d.at[d.nbits&127] = at
	d.nbits++
	if d.nbits < fdxaFrameBits || d.hi>>16 != fdxaPreamble {
		return
	}
	// 80 FSK bits: the low 16 of hi and all of lo. Manchester: 10 = 1,
	// 01 = 0; anything else is not a frame.
	var b [5]byte
	for i := 0; i < 40; i++ {
		k := 2 * i // FSK bit index after the preamble
		var pair uint64
		if k < 16 {
			pair = uint64(d.hi>>(14-k)) & 3
		} else {
			pair = d.lo >> (62 - (k - 16)) & 3
		}
		switch pair {
		case 2:
			b[i/8] |= 0x80 >> (i % 8)
		case 1:
		default:
			return
		}
	}
	code, err := iso11785.DecodeFDXA(b[:])
	if err != nil {
		return
	}
	// The discriminator lags the input by half its window.
	start := d.at[(d.nbits-fdxaFrameBits)&127] - float64(d.disc.l)/2
	r := Result{
		Protocol: reader.AirFDXA,
		Offset:   int64(math.Round(start)),
		Length:   int64(math.Round(at + d.clk.t - start)),
		Quality:  d.q.over(fdxaFrameBits),
		FDXA:     code,
		RawLen:   5,
	}
	copy(r.Raw[:], b[:])
	d.out = append(d.out, r)
}
