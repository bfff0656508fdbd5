package demod

import (
	"errors"
	"fmt"
	"math"

	"github.com/chipdesk/chipdesk/reader"
	"github.com/chipdesk/chipdesk/reader/chipid"
	"github.com/chipdesk/chipdesk/reader/iso11785"
)

// Decoder is a streaming demodulator. Push samples in chunks of any
// size; each call returns the telegrams that completed inside the
// chunk. The returned slice is owned by the decoder and valid until the
// next call.
type Decoder interface {
	// Write feeds integer samples (ADC counts, any scale).
	Write(samples []int16) []Result
	// WriteFloat feeds real samples (any scale).
	WriteFloat(samples []float32) []Result
	// Flush ends the stream: it evaluates what the look-ahead of the
	// filters still held back and returns the telegrams that complete.
	// A telegram cut by the end of the stream is not returned (see the
	// package documentation for Opts.Circular).
	Flush() []Result
	// Reset forgets the stream, ready for a new one starting at
	// sample 0.
	Reset()
	// Protocol names the air protocol the decoder reads.
	Protocol() reader.Air
	// String names the decoder, for logs.
	String() string
}

// Result is one valid telegram found in the signal.
type Result struct {
	Protocol reader.Air
	// Offset is the index of the sample where the telegram starts (its
	// first header or preamble bit), counted from the first sample
	// written after New or Reset.
	Offset int64
	// Length is the number of samples the telegram spans.
	Length int64
	// Quality is a signal-quality figure in [0, 1]: 1 − the coefficient
	// of variation of the soft decisions over the telegram. A clean
	// square wave gives about 1; 0.5 is noisy but still reliable.
	Quality float64
	// Telegram is the validated ISO telegram (FDX-B and HDX).
	Telegram iso11785.Telegram
	// FDXA is the validated FDX-A code (Protocol FDX-A).
	FDXA iso11785.FDXA
	// Raw holds the telegram as received: the 16 bytes of an FDX-B
	// telegram (transmission order, MSB first), the HDX bytes from the
	// start byte on, or the 5 FDX-A bytes with their parity bits.
	Raw [16]byte
	// RawLen is the number of bytes used in Raw.
	RawLen int
	// Circular is set when the telegram was assembled from the tail and
	// the head of a capture of a repeating signal (Opts.Circular).
	Circular bool
}

// Bytes returns the used part of Raw.
func (r *Result) Bytes() []byte { return r.Raw[:r.RawLen] }

// Read turns the result into a reader.Read with the chip identity. The
// caller sets Source and At.
func (r *Result) Read() (reader.Read, error) {
	rd := reader.Read{
		Protocol: r.Protocol,
		Format:   "demod",
		Raw:      append([]byte(nil), r.Bytes()...),
		Quality:  r.Quality,
	}
	switch r.Protocol {
	case reader.AirFDXB, reader.AirHDX:
		rd.ID = chipid.FromISO(r.Telegram.Code)
		if r.Telegram.Code.DataBlock() {
			rd.Ext, rd.HasExt = r.Telegram.Ext, true
		}
	case reader.AirFDXA:
		id, err := chipid.FromFECAVA(r.FDXA.String())
		if err != nil {
			return reader.Read{}, fmt.Errorf("demod: %w", err)
		}
		rd.ID = id
	default:
		return reader.Read{}, fmt.Errorf("%w: %q", ErrProtocol, r.Protocol)
	}
	return rd, nil
}

// ErrProtocol reports a protocol the package does not demodulate.
var ErrProtocol = errors.New("demod: unknown protocol")

// Opts configures a demodulator. A nil *Opts means DefaultOpts.
type Opts struct {
	// SampleRate is the input rate in samples per second. Zero means
	// one sample per carrier cycle (the Proxmark "lf read" form) for
	// FDX-B and FDX-A, and 2 MHz for HDX.
	SampleRate float64
	// Carrier is the reader field frequency in Hz for FDX-B and FDX-A
	// when SampleRate is set; zero means 134.2 kHz for FDX-B and
	// 125 kHz for FDX-A.
	Carrier float64
	// Circular lets Flush assemble one FDX-B telegram from the tail and
	// head of a capture that holds at least 128 bits but no whole
	// telegram; such results carry Circular = true.
	Circular bool
}

// DefaultOpts are the options used for a nil *Opts.
var DefaultOpts = Opts{}

func optsOrDefault(o *Opts) Opts {
	if o == nil {
		return DefaultOpts
	}
	return *o
}

// quality accumulates soft-decision magnitudes in a ring so a telegram's
// figure can be computed when it completes.
type quality struct {
	mag [512]float32
	i   int
}

func (q *quality) add(v float64) {
	if v < 0 {
		v = -v
	}
	q.mag[q.i&511] = float32(v)
	q.i++
}

// over returns 1 − stddev/mean of the last n magnitudes, in [0, 1].
func (q *quality) over(n int) float64 {
	if n > 512 {
		n = 512
	}
	var s, ss float64
	for k := 1; k <= n; k++ {
		v := float64(q.mag[(q.i-k)&511])
		s += v
		ss += v * v
	}
	m := s / float64(n)
	if m <= 0 {
		return 0
	}
	vr := ss/float64(n) - m*m
	if vr < 0 {
		vr = 0
	}
	r := 1 - math.Sqrt(vr)/m
	return min(max(r, 0), 1)
}
