package demod

import (
	"math"

	"github.com/chipdesk/chipdesk/reader"
	"github.com/chipdesk/chipdesk/reader/iso11785"
)

// HDX timing (ISO 11785 half duplex): FSK with 16 RF cycles per bit, a 0
// at 134.2 kHz and a 1 at 123.2 kHz; bits go least significant first.
// The tag answers after the reader's charge burst with pre-bits (0s),
// the start byte, the data, the CRC and more.
const (
	hdxF0           = 134200.0
	hdxF1           = 123200.0
	hdxCyclesPerBit = 16
	hdxRate         = 2e6  // default input rate: Proxmark's zero-crossing form
	hdxPreBits      = 8    // zero bits required before the start byte
	hdxBandwidth    = 16e3 // of the band-pass in front of the zero-crossing detector
)

// HDX telegram lengths in bytes, start byte included: start, 8 ID
// bytes and the CRC; then optionally the 3-byte trailer and a stop byte
// (iso11785.DecodeHDX).
const (
	hdxMinFrame = 11
	hdxMaxFrame = 15
)

// HDX demodulates ISO 11785 half-duplex answers from the sampled RF (or
// its zero-crossing line), counting carrier cycles: the clock runs on
// one value per cycle, the period's deviation from the middle of the two
// tones.
type HDX struct {
	opts   Opts
	p0, p1 float64 // tone periods in samples, tracked
	bp     resonator
	zc     zeroCross
	clk    *clock
	cycles int64
	ctime  [4096]float64 // sample position of each cycle
	w      [3]uint64     // the last 192 bits, newest in w[2] bit 0
	nbits  int64
	at     [256]float64 // cycle position of each bit
	pend   Result       // telegram waiting for its longer forms
	first  int64        // bit index of pend's start byte
	q      quality
	out    []Result
	done   bool
}

var _ Decoder = (*HDX)(nil)

// NewHDX returns an HDX demodulator.
func NewHDX(o *Opts) *HDX {
	d := &HDX{opts: optsOrDefault(o)}
	rate := d.opts.SampleRate
	if rate <= 0 {
		rate = hdxRate
	}
	d.opts.SampleRate = rate
	// Boxcar over about 8 cycles of either tone.
	d.bp = newResonator(math.Sqrt(hdxF0*hdxF1), hdxBandwidth, rate)
	d.zc = newZeroCross(max(int(math.Round(8*rate/hdxF0)), 2))
	d.clk = newClock(hdxCyclesPerBit, 0, d)
	d.clk.fixed = true // a bit is exactly 16 cycles whatever the tag's clock
	d.Reset()
	return d
}

// Reset implements Decoder.
func (d *HDX) Reset() {
	d.p0 = d.opts.SampleRate / hdxF0
	d.p1 = d.opts.SampleRate / hdxF1
	d.bp.reset()
	d.zc.reset()
	d.clk.reset()
	d.cycles, d.nbits = 0, 0
	d.pend, d.first = Result{}, 0
	d.w = [3]uint64{}
	d.q = quality{}
	d.out = d.out[:0]
	d.done = false
}

// Protocol implements Decoder.
func (d *HDX) Protocol() reader.Air { return reader.AirHDX }

// String implements Decoder.
func (d *HDX) String() string { return "demod.HDX" }

func (d *HDX) push(x float64) {
	p, at := d.zc.push(d.bp.push(x))
	if p <= 0 {
		return
	}
	nom0, nom1 := d.opts.SampleRate/hdxF0, d.opts.SampleRate/hdxF1
	mid := (d.p0 + d.p1) / 2
	half := (d.p1 - d.p0) / 2
	v := (p - mid) / half
	if v < -3 || v > 3 {
		// Not a cycle of either tone (silence, noise, a missed or
		// extra crossing): no information.
		v = 0
	}
	// Track the two tone periods (clock drift), within ±2.5 % so that
	// noise between answers cannot bring them together.
	if v < 0 && v > -2 {
		d.p0 += (p - d.p0) / 64
		d.p0 = min(max(d.p0, nom0*0.975), nom0*1.025)
	} else if v >= 0 && v < 2 {
		d.p1 += (p - d.p1) / 64
		d.p1 = min(max(d.p1, nom1*0.975), nom1*1.025)
	}
	d.ctime[d.cycles&4095] = at
	d.cycles++
	d.clk.push(min(max(v, -2), 2))
}

// Write implements Decoder.
func (d *HDX) Write(s []int16) []Result {
	d.out = d.out[:0]
	for _, x := range s {
		d.push(float64(x))
	}
	return d.out
}

// WriteFloat implements Decoder.
func (d *HDX) WriteFloat(s []float32) []Result {
	d.out = d.out[:0]
	for _, x := range s {
		d.push(float64(x))
	}
	return d.out
}

// Flush implements Decoder.
func (d *HDX) Flush() []Result {
	d.out = d.out[:0]
	if !d.done {
		d.done = true
		d.clk.step(true)
		d.emit()
	}
	return d.out
}

// bit returns the bit received age bits ago (0 = newest).
func (d *HDX) bit(age int) byte {
	return byte(d.w[2-age/64] >> (age % 64) & 1)
}

// cell receives one bit: the 16-cycle integral, positive for 123.2 kHz.
func (d *HDX) cell(v, at float64) {
	d.q.add(v)
	bit := uint64(0)
	if v > 0 {
		bit = 1
	}
	d.w[0] = d.w[0]<<1 | d.w[1]>>63
	d.w[1] = d.w[1]<<1 | d.w[2]>>63
	d.w[2] = d.w[2]<<1 | bit
	d.at[d.nbits&255] = at
	d.nbits++
	if d.pend.RawLen > 0 {
		d.upgrade()
		return
	}
	// A start byte preceded by pre-bits, and the shortest telegram
	// (start, 8 ID bytes, CRC) after it.
	age := 8*hdxMinFrame - 1 // age of the start byte's first bit
	if d.nbits < int64(age+1+hdxPreBits) {
		return
	}
	for k := 1; k <= hdxPreBits; k++ {
		if d.bit(age+k) != 0 {
			return
		}
	}
	first := d.nbits - 1 - int64(age)
	b := d.bytes(first, hdxMinFrame)
	if b[0] != iso11785.HDXStartRO && b[0] != iso11785.HDXStartRW {
		return
	}
	tg, err := iso11785.DecodeHDX(b[:hdxMinFrame])
	if err != nil {
		return
	}
	start := d.cycleTime(d.at[first&255])
	d.pend = Result{
		Protocol: reader.AirHDX,
		Offset:   int64(math.Round(start)),
		Length:   int64(math.Round(d.cycleTime(at+hdxCyclesPerBit) - start)),
		Quality:  d.q.over(8 * hdxMinFrame),
		Telegram: tg,
		Raw:      b,
		RawLen:   hdxMinFrame,
	}
	d.first = first
}

// upgrade tries the longer telegram forms (stop byte, trailer, both) of
// the pending telegram as their bits arrive, and emits it once the
// longest form has had its chance.
func (d *HDX) upgrade() {
	n := int(d.nbits-d.first) / 8
	if int(d.nbits-d.first)%8 != 0 {
		return
	}
	// A stop byte (12, 15) confirms the form; the bare trailer (14) is
	// taken only when no stop byte followed the CRC.
	if n == 12 || n == 15 || n == 14 && d.pend.RawLen == hdxMinFrame {
		b := d.bytes(d.first, n)
		if tg, err := iso11785.DecodeHDX(b[:n]); err == nil {
			p := &d.pend
			p.Telegram, p.Raw, p.RawLen = tg, b, n
			p.Length = int64(math.Round(d.cycleTime(d.at[(d.nbits-1)&255]+hdxCyclesPerBit))) - p.Offset
			p.Quality = d.q.over(8 * n)
		}
	}
	if n >= hdxMaxFrame {
		d.emit()
	}
}

func (d *HDX) emit() {
	if d.pend.RawLen > 0 {
		d.out = append(d.out, d.pend)
		d.pend = Result{}
	}
}

// bytes assembles n bytes (least significant bit first) from the bit
// with index first.
func (d *HDX) bytes(first int64, n int) [16]byte {
	var b [16]byte
	age := int(d.nbits - 1 - first)
	for k := 0; k < n; k++ {
		for i := 0; i < 8; i++ {
			b[k] |= d.bit(age-8*k-i) << i
		}
	}
	return b
}

// cycleTime maps a real cycle position to a sample position.
func (d *HDX) cycleTime(c float64) float64 {
	i := int64(math.Floor(c))
	if i < 0 {
		i = 0
	}
	if i >= d.cycles-1 {
		i = max(d.cycles-2, 0)
	}
	if d.cycles-i > 4095 {
		i = d.cycles - 4095
	}
	a, b := d.ctime[i&4095], d.ctime[(i+1)&4095]
	return a + (c-float64(i))*(b-a)
}

const (
	hdxShortFrame = 12
	hdxLongFrame  = 15
)

// resonator is a two-pole band-pass (a resonator with zeros at DC and
// half the sample rate) that keeps the two HDX tones and removes most
// of the noise before zero crossings are timed. It has no effect when
// the input is sampled at less than four times its centre frequency.
type resonator struct {
	on             bool
	g, a1, a2      float64
	x1, x2, y1, y2 float64
}

func newResonator(centre, bandwidth, rate float64) resonator {
	if rate < 4*centre {
		return resonator{}
	}
	r := 1 - math.Pi*bandwidth/rate
	w := 2 * math.Pi * centre / rate
	return resonator{on: true, g: 1 - r, a1: 2 * r * math.Cos(w), a2: -r * r}
}

func (b *resonator) reset() { b.x1, b.x2, b.y1, b.y2 = 0, 0, 0, 0 }

func (b *resonator) push(x float64) float64 {
	if !b.on {
		return x
	}
	y := b.g*(x-b.x2) + b.a1*b.y1 + b.a2*b.y2
	b.x2, b.x1 = b.x1, x
	b.y2, b.y1 = b.y1, y
	return y
}
