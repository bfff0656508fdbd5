package antenna

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"

	"periph.io/x/conn/v3/gpio"

	"github.com/chipdesk/chipdesk/reader"
	"github.com/chipdesk/chipdesk/reader/demod"
)

// DefaultSampleRate is one sample per FDX-B carrier cycle, the rate the
// decoders are tuned for.
const DefaultSampleRate = 134200.0

// Opts configures a Feeder and a Dev.
type Opts struct {
	// Protocols to decode: FDX-B, FDX-A and (rarely useful here) HDX;
	// nil means FDX-B and FDX-A.
	Protocols []reader.Air
	// SampleRate is the rate, in samples per second, intervals are
	// written at; 0 means DefaultSampleRate.
	SampleRate float64
	// Idle ends a transmission: when no edge comes for this long, the
	// decoders are flushed and reset. 0 means 50 ms (more than ten
	// FDX-B bits).
	Idle time.Duration
	// Poll is the longest wait for one edge, so that Next notices its
	// context; 0 means 20 ms.
	Poll time.Duration
	// Pull is the input's pull resistor.
	Pull gpio.Pull
	// Now timestamps edges; nil means time.Now.
	Now func() time.Time
}

// DefaultOpts decodes FDX-B and FDX-A at DefaultSampleRate.
var DefaultOpts = Opts{}

func (o *Opts) fill() Opts {
	r := DefaultOpts
	if o != nil {
		r = *o
	}
	if r.Protocols == nil {
		r.Protocols = []reader.Air{reader.AirFDXB, reader.AirFDXA}
	}
	if r.SampleRate <= 0 {
		r.SampleRate = DefaultSampleRate
	}
	if r.Idle <= 0 {
		r.Idle = 50 * time.Millisecond
	}
	if r.Poll <= 0 {
		r.Poll = 20 * time.Millisecond
	}
	if r.Now == nil {
		r.Now = time.Now
	}
	return r
}

// Feeder turns level intervals into samples for the decoders.
type Feeder struct {
	decs []demod.Decoder
	rate float64
	frac float64 // samples owed from rounding
	buf  []int16
	res  []demod.Result
}

// NewFeeder returns a feeder for o.Protocols at o.SampleRate.
func NewFeeder(o *Opts) (*Feeder, error) {
	oo := o.fill()
	f := &Feeder{rate: oo.SampleRate}
	dopts := &demod.Opts{SampleRate: oo.SampleRate}
	for _, p := range oo.Protocols {
		switch p {
		case reader.AirFDXB:
			f.decs = append(f.decs, demod.NewFDXB(dopts))
		case reader.AirFDXA:
			f.decs = append(f.decs, demod.NewFDXA(dopts))
		case reader.AirHDX:
			f.decs = append(f.decs, demod.NewHDX(dopts))
		default:
			return nil, fmt.Errorf("antenna: %w: %q", demod.ErrProtocol, p)
		}
	}
	if len(f.decs) == 0 {
		return nil, errors.New("antenna: no protocol to decode")
	}
	return f, nil
}

// Interval writes d at level l and returns the telegrams that completed.
// The results are valid until the next call.
func (f *Feeder) Interval(l gpio.Level, d time.Duration) []demod.Result {
	if d <= 0 {
		return nil
	}
	x := d.Seconds()*f.rate + f.frac
	n := math.Floor(x)
	f.frac = x - n
	v := int16(-1)
	if l {
		v = 1
	}
	f.res = f.res[:0]
	for left := int(n); left > 0; {
		k := min(left, 4096)
		if cap(f.buf) < k {
			f.buf = make([]int16, 4096)
		}
		b := f.buf[:k]
		for i := range b {
			b[i] = v
		}
		for _, dec := range f.decs {
			f.res = append(f.res, dec.Write(b)...)
		}
		left -= k
	}
	return f.res
}

// Flush ends a transmission: it returns what the decoders still held
// and resets them.
func (f *Feeder) Flush() []demod.Result {
	f.res = f.res[:0]
	for _, dec := range f.decs {
		f.res = append(f.res, dec.Flush()...)
		dec.Reset()
	}
	f.frac = 0
	return f.res
}

// Dev reads chips from a comparator on a GPIO input.
type Dev struct {
	pin   gpio.PinIn
	o     Opts
	f     *Feeder
	level gpio.Level
	last  time.Time // the time up to which samples were written
	idle  bool      // flushed since the last edge
	queue []reader.Read
	name  string
}

var _ reader.Reader = (*Dev)(nil)

// New sets pin as an input with edge detection on both edges and starts
// timing from now.
func New(pin gpio.PinIn, o *Opts) (*Dev, error) {
	oo := o.fill()
	f, err := NewFeeder(&oo)
	if err != nil {
		return nil, err
	}
	if err := pin.In(oo.Pull, gpio.BothEdges); err != nil {
		return nil, fmt.Errorf("antenna: %s: %w", pin, err)
	}
	return &Dev{pin: pin, o: oo, f: f, level: pin.Read(), last: oo.Now(), idle: true,
		name: "antenna on " + pin.String()}, nil
}

// String names the input.
func (d *Dev) String() string { return d.name }

// Close stops edge detection.
func (d *Dev) Close() error {
	if err := d.pin.In(d.o.Pull, gpio.NoEdge); err != nil {
		return fmt.Errorf("antenna: %s: %w", d.pin, err)
	}
	return nil
}

// Next times edges until a telegram decodes, and returns it. Every
// telegram a tag repeats is returned; debouncing is the caller's.
func (d *Dev) Next(ctx context.Context) (reader.Read, error) {
	for len(d.queue) == 0 {
		if err := ctx.Err(); err != nil {
			return reader.Read{}, err
		}
		edge := d.pin.WaitForEdge(d.o.Poll)
		now := d.o.Now()
		switch {
		case edge:
			d.add(d.f.Interval(d.level, now.Sub(d.last)), now)
			d.level, d.last, d.idle = d.pin.Read(), now, false
		case !d.idle && now.Sub(d.last) >= d.o.Idle:
			d.add(d.f.Interval(d.level, now.Sub(d.last)), now)
			d.add(d.f.Flush(), now)
			d.last, d.idle = now, true
		case d.idle:
			d.last = now // nothing to decode: keep the gap out of the signal
		}
	}
	r := d.queue[0]
	d.queue = d.queue[1:]
	return r, nil
}

func (d *Dev) add(res []demod.Result, at time.Time) {
	for i := range res {
		r, err := res[i].Read()
		if err != nil {
			continue // a protocol demod validated but chipid refused
		}
		r.Source, r.At = d.name, at
		d.queue = append(d.queue, r)
	}
}
