package readers

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/chipdesk/chipdesk/drivers/port"
	"github.com/chipdesk/chipdesk/reader"
)

// Config describes a protocol to NewBase.
type Config struct {
	Format string     // reader.Read.Format and the error prefix, "wl134"
	Mode   port.Mode  // set on the port when it has framing; zero Baud: leave it
	Split  SplitFunc  // frames
	Max    int        // longest frame; more buffered without a frame is garbage
	Decode DecodeFunc // frames to reads
	Now    func() time.Time
}

// Opts configures New of a driver that only listens to its device and
// needs nothing more than its line and a clock; such drivers use it as
// their own Opts.
type Opts struct {
	// Mode is set on the port when it supports it; zero Baud leaves the
	// port's framing alone.
	Mode port.Mode
	// Now stamps reads; nil means time.Now.
	Now func() time.Time
}

// Listen is NewBase for a driver whose New takes Opts: nil o means def,
// and the Mode and Now of the options replace c's.
func Listen(p port.Port, o *Opts, def Opts, c Config) (Base, error) {
	if o == nil {
		o = &def
	}
	c.Mode, c.Now = o.Mode, o.Now
	return NewBase(p, c)
}

// Base is the part of a reader driver that every protocol shares: a
// Stream and its decoder. Drivers embed it to get Next, Stats, String
// and Close.
type Base struct {
	s      *Stream
	name   string
	format string
	decode DecodeFunc
}

// NewBase sets the port's mode and starts reading it.
func NewBase(p port.Port, c Config) (Base, error) {
	if err := SetMode(p, c.Mode); err != nil {
		return Base{}, fmt.Errorf("%s: %w", c.Format, err)
	}
	s, err := NewStream(p, c.Split, c.Max, c.Now)
	if err != nil {
		return Base{}, fmt.Errorf("%s: %w", c.Format, err)
	}
	return Base{s: s, name: c.Format + " on " + p.String(), format: c.Format, decode: c.Decode}, nil
}

// Next returns the next chip read.
func (b *Base) Next(ctx context.Context) (reader.Read, error) {
	r, err := b.s.Next(ctx, b.decode, b.name, b.format)
	if err != nil {
		if errors.Is(err, reader.ErrClosed) {
			return r, reader.ErrClosed
		}
		return r, fmt.Errorf("%s: %w", b.format, err)
	}
	return r, nil
}

// Stats returns the frame counters.
func (b *Base) Stats() Stats { return b.s.Stats() }

// String names the protocol and the port.
func (b *Base) String() string { return b.name }

// Close closes the port; a blocked Next returns reader.ErrClosed.
func (b *Base) Close() error { return b.s.Close() }

// Stream returns the stream, for drivers that also send commands.
func (b *Base) Stream() *Stream { return b.s }
