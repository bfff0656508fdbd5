package demod

import (
	"encoding/binary"
	"math"

	"github.com/chipdesk/chipdesk/reader"
	"github.com/chipdesk/chipdesk/reader/iso11785"
)

// FDX-B timing (ISO 11785): 32 carrier cycles per bit, so a half-bit
// cell is 16 cycles.
const (
	fdxbCyclesPerBit = 32
	fdxbCarrier      = 134200.0
	fdxbDCWindow     = 16 * fdxbCyclesPerBit // 16 bits: ample against a one-bit imbalance
)

// Header and control-bit pattern of an FDX-B telegram as the 128-bit
// shift register holds it (ISO 11785: ten 0s and a 1, then a 1 after
// every 8 data bits). Telegram bit i sits at register bit 127−i: the
// masks cover bits 0–10 and every 9th bit after, the patterns have the
// 1s (TestFDXBPattern derives them).
const (
	fdxbMaskHi = 0xFFE0100804020100
	fdxbMaskLo = 0x8040201008040201
	fdxbPatHi  = 0x0020100804020100
	fdxbPatLo  = 0x8040201008040201
)

// FDXB demodulates ISO 11785 FDX-B: the envelope of the reader field,
// load-modulated with differential bi-phase at 32 carrier cycles per
// bit (a transition at every bit boundary, another mid-bit for a 0).
type FDXB struct {
	opts  Opts
	scale float64 // samples per carrier cycle
	clk   *clock
	cells int64
	prev  float64 // previous cell value
	// Two bit framers, one per pairing of half-bit cells; only the one
	// aligned with the bit boundaries ever sees a valid telegram.
	ph   [2]fdxbPhase
	pos  [512]float64 // cell start positions
	q    quality
	out  []Result
	done bool
}

type fdxbPhase struct {
	hi, lo uint64 // the last 128 bits, newest in lo bit 0
	old    [2]uint64
	n      int64        // bits received
	at     [256]float64 // start position of each bit, by bit index
	last   int64        // cell index of the last emitted telegram's end
}

var _ Decoder = (*FDXB)(nil)

// NewFDXB returns an FDX-B demodulator.
func NewFDXB(o *Opts) *FDXB {
	d := &FDXB{opts: optsOrDefault(o), scale: 1}
	if d.opts.SampleRate > 0 {
		car := d.opts.Carrier
		if car <= 0 {
			car = fdxbCarrier
		}
		d.scale = d.opts.SampleRate / car
	}
	cell := d.scale * fdxbCyclesPerBit / 2
	d.clk = newClock(cell, int(fdxbDCWindow*d.scale), d)
	d.Reset()
	return d
}

// Reset implements Decoder.
func (d *FDXB) Reset() {
	d.clk.reset()
	d.cells, d.prev = 0, 0
	d.ph = [2]fdxbPhase{}
	for i := range d.ph {
		d.ph[i].last = -1 << 62
	}
	d.q = quality{}
	d.out = d.out[:0]
	d.done = false
}

// Protocol implements Decoder.
func (d *FDXB) Protocol() reader.Air { return reader.AirFDXB }

// String implements Decoder.
func (d *FDXB) String() string { return "demod.FDXB" }

// Write implements Decoder.
func (d *FDXB) Write(s []int16) []Result {
	d.out = d.out[:0]
	writeSamples(d.clk, s)
	return d.out
}

// WriteFloat implements Decoder.
func (d *FDXB) WriteFloat(s []float32) []Result {
	d.out = d.out[:0]
	writeSamples(d.clk, s)
	return d.out
}

// Flush implements Decoder.
func (d *FDXB) Flush() []Result {
	d.out = d.out[:0]
	if d.done {
		return d.out
	}
	d.done = true
	d.clk.step(true)
	if d.opts.Circular {
		d.circular()
	}
	return d.out
}

// cell receives one half-bit cell from the clock.
func (d *FDXB) cell(v, at float64) {
	j := d.cells
	d.cells++
	d.pos[j&511] = at
	d.q.add(v)
	if j == 0 {
		d.prev = v
		return
	}
	// The bit made of cells j−1 and j: equal halves are a 1, a mid-bit
	// transition a 0. The product is independent of polarity.
	p := &d.ph[j&1]
	s := d.prev * v
	d.prev = v
	bit := uint64(0)
	if s > 0 {
		bit = 1
	}
	p.old[0] = p.old[0]<<1 | p.old[1]>>63
	p.old[1] = p.old[1]<<1 | p.hi>>63
	p.hi = p.hi<<1 | p.lo>>63
	p.lo = p.lo<<1 | bit
	p.at[p.n&255] = d.pos[(j-1)&511]
	p.n++
	if p.n < 128 || p.hi&fdxbMaskHi != fdxbPatHi || p.lo&fdxbMaskLo != fdxbPatLo {
		return
	}
	var t [16]byte
	binary.BigEndian.PutUint64(t[:8], p.hi)
	binary.BigEndian.PutUint64(t[8:], p.lo)
	tg, err := iso11785.DecodeFDXB(t)
	if err != nil {
		return
	}
	start := p.at[(p.n-128)&255]
	d.out = append(d.out, Result{
		Protocol: reader.AirFDXB,
		Offset:   int64(math.Round(start)),
		Length:   int64(math.Round(at + d.clk.t - start)),
		Quality:  d.q.over(256),
		Telegram: tg,
		Raw:      t,
		RawLen:   16,
	})
	p.last = j
}

// circular looks, at the end of a capture without any telegram, for a
// header whose telegram runs past the end, and completes it with the
// bits received 128 bits earlier: the tag repeats its telegram without
// a gap, so those are the same bits.
func (d *FDXB) circular() {
	for k := range d.ph {
		p := &d.ph[k]
		if p.last >= 0 || p.n < 128 {
			continue
		}
		// The last 256 bits, oldest first: old[0], old[1], hi, lo.
		have := min(p.n, 256)
		bitAt := func(i int64) uint64 { // i = 0 is the oldest of the 256
			w := [4]uint64{p.old[0], p.old[1], p.hi, p.lo}[i/64]
			return w >> (63 - i%64) & 1
		}
		for h := int64(256 - 127); h < 256; h++ {
			if h < 256-have {
				continue
			}
			var t [16]byte
			ok := true
			for i := int64(0); i < 128; i++ {
				pos := h + i
				if pos >= 256 {
					pos -= 128
				}
				if pos < 256-have {
					ok = false
					break
				}
				if bitAt(pos) == 1 {
					t[i/8] |= 0x80 >> (i % 8)
				}
			}
			if !ok || t[0] != 0 || t[1]&0xE0 != 0x20 {
				continue
			}
			tg, err := iso11785.DecodeFDXB(t)
			if err != nil {
				continue
			}
			start := p.at[(p.n-256+h)&255]
			d.out = append(d.out, Result{
				Protocol: reader.AirFDXB,
				Offset:   int64(math.Round(start)),
				Length:   int64(math.Round(128 * 2 * d.clk.t)),
				Quality:  d.q.over(2 * int(have)),
				Telegram: tg,
				Raw:      t,
				RawLen:   16,
				Circular: true,
			})
			return
		}
	}
}
