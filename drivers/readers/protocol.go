package readers

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/chipdesk/chipdesk/drivers/port"
	"github.com/chipdesk/chipdesk/reader"
	"github.com/chipdesk/chipdesk/reader/chipid"
)

// Protocol is a reader family as a value: how its bytes split into
// frames, how a frame decodes to a read and a chip encodes to the bytes
// the reader sends, the line its manual gives, and the harmless query or
// read trigger it answers. One Dev reads any Protocol; the catalog lists
// them.
type Protocol struct {
	Name    string // reader.Read.Format, "avid"
	Summary string
	Mode    port.Mode // the line per the vendor
	Split   SplitFunc
	Max     int // longest frame; 0 means 4096 bytes buffered
	Decode  DecodeFunc
	// Encode returns the bytes the reader sends when id is read.
	Encode func(id chipid.ID) ([]byte, error)
	// Query is a harmless command the reader answers, nil for a push
	// only protocol; Answers tells whether received bytes answer it.
	Query   []byte
	Answers func(reply []byte) bool
	// Trigger is sent to ask for a read, for readers that read only
	// when asked (the AVID Power Tracker reads on a space): at start,
	// after each frame Idle reports, and after TriggerEvery without a
	// read.
	Trigger      []byte
	TriggerEvery time.Duration
	Idle         func(frame []byte) bool
}

// Dev reads one Protocol from a port.
type Dev struct {
	s     *Stream
	proto Protocol
	name  string
	ask   bool // a trigger is due
}

var _ reader.Reader = (*Dev)(nil)

// Open reads proto from p. o.Mode is set on the port when its Baud is
// not zero; a port already opened in its final mode is given Opts with
// a zero Mode, so the line is set once. A nil o means proto.Mode and
// time.Now.
func Open(p port.Port, proto Protocol, o *Opts) (*Dev, error) {
	if o == nil {
		o = &Opts{Mode: proto.Mode}
	}
	if err := SetMode(p, o.Mode); err != nil {
		return nil, fmt.Errorf("%s: %w", proto.Name, err)
	}
	s, err := NewStream(p, proto.Split, proto.Max, o.Now)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", proto.Name, err)
	}
	return &Dev{s: s, proto: proto, name: proto.Name + " on " + p.String(), ask: proto.Trigger != nil}, nil
}

// Next returns the next chip read; frames that carry none are counted
// and skipped.
func (d *Dev) Next(ctx context.Context) (reader.Read, error) {
	var werr error // a failed trigger: frames received before it still count
	for {
		fctx, cancel := ctx, context.CancelFunc(func() {})
		if d.proto.Trigger != nil {
			if d.ask && werr == nil {
				werr = d.s.Write(d.proto.Trigger)
				d.ask = false
			}
			if d.proto.TriggerEvery > 0 {
				fctx, cancel = context.WithTimeout(ctx, d.proto.TriggerEvery)
			}
		}
		f, at, err := d.s.Frame(fctx)
		cancel()
		if err != nil {
			if errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil && d.proto.Trigger != nil {
				if werr != nil {
					return reader.Read{}, d.wrap(werr)
				}
				d.ask = true // silence: ask again
				continue
			}
			return reader.Read{}, d.wrap(err)
		}
		r, ok, err := d.proto.Decode(f)
		switch {
		case err != nil:
			d.s.Count(OutcomeBad, err)
			continue
		case !ok:
			d.s.Count(OutcomeOther, nil)
			if d.proto.Idle != nil && d.proto.Idle(f) {
				d.ask = d.proto.Trigger != nil
			}
			continue
		}
		d.s.Count(OutcomeRead, nil)
		d.ask = d.proto.Trigger != nil
		r.Raw, r.At, r.Source, r.Format = f, at, d.name, d.proto.Name
		return r, nil
	}
}

func (d *Dev) wrap(err error) error {
	if errors.Is(err, reader.ErrClosed) {
		return reader.ErrClosed
	}
	return fmt.Errorf("%s: %w", d.proto.Name, err)
}

// Stats returns the frame counters.
func (d *Dev) Stats() Stats { return d.s.Stats() }

// String names the protocol and the port.
func (d *Dev) String() string { return d.name }

// Close closes the port; a blocked Next returns reader.ErrClosed.
func (d *Dev) Close() error { return d.s.Close() }

// Protocol returns the protocol d reads.
func (d *Dev) Protocol() Protocol { return d.proto }
