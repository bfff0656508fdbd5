package readers

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
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
	// DecodeAt, when set, is used instead of Decode for protocols whose
	// frames mean something by when they came: a keyboard's keys, where
	// a pause ends a partial line. at is the frame's receive time.
	DecodeAt func(frame []byte, at time.Time) (r reader.Read, ok bool, err error)
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

// Opts configures Open.
type Opts struct {
	// Mode is set on the port when it supports it; zero Baud leaves the
	// port's framing alone (a port already opened in its final mode).
	Mode port.Mode
	// Now stamps reads; nil means time.Now.
	Now func() time.Time
	// Rejected, when set, is told of each frame Decode rejects (with
	// Decode's error) before Next goes on to the next frame: a tool
	// that shows a person what their scanner sent uses it.
	Rejected func(frame []byte, err error)
}

// Dev reads one Protocol from a port: it reads the port itself, cuts
// frames with the protocol's split and decodes them, with no layer
// between the port and the read.
type Dev struct {
	p        port.Port
	proto    Protocol
	name     string
	now      func() time.Time
	rejected func([]byte, error)
	closed   atomic.Bool

	mu    sync.Mutex // guards sc, buf, ask and queue: one Next or Exchange at a time
	sc    *Scanner
	buf   []byte
	ask   bool // a trigger is due
	queue []reader.Read

	smu   sync.Mutex // guards snap and extra, so Stats never waits for Next
	snap  Stats      // the scanner's counters after the last step
	extra Scanner    // what Decode made of the frames
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
	if t, ok := p.(port.Timeouter); ok {
		// The port's error names the port; the driver's name prefixes it.
		if err := t.SetReadTimeout(PollInterval); err != nil {
			return nil, fmt.Errorf("%s: %w", proto.Name, err)
		}
	}
	now := o.Now
	if now == nil {
		now = time.Now
	}
	return &Dev{p: p, proto: proto, name: proto.Name + " on " + p.String(), now: now, rejected: o.Rejected,
		sc: NewScanner(proto.Split, proto.Max), buf: make([]byte, 512), ask: proto.Trigger != nil}, nil
}

// Next returns the next chip read, its Raw the frame unless Decode gave
// one (a typed line); frames that carry none are counted and skipped.
// Reads that arrived while Exchange waited for a reply come first.
func (d *Dev) Next(ctx context.Context) (reader.Read, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if len(d.queue) > 0 {
		r := d.queue[0]
		d.queue = d.queue[1:]
		return r, nil
	}
	var werr error // a failed trigger: frames received before it still count
	for {
		fctx, cancel := ctx, context.CancelFunc(func() {})
		if d.proto.Trigger != nil {
			if d.ask && werr == nil {
				werr = d.write(d.proto.Trigger)
				d.ask = false
			}
			if d.proto.TriggerEvery > 0 {
				fctx, cancel = context.WithTimeout(ctx, d.proto.TriggerEvery)
			}
		}
		f, at, err := d.frame(fctx)
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
		r, ok := d.decode(f, at)
		if !ok {
			if d.proto.Idle != nil && d.proto.Idle(f) {
				d.ask = d.proto.Trigger != nil
			}
			continue
		}
		d.ask = d.proto.Trigger != nil
		return r, nil
	}
}

// decode turns a frame received at at into a read, counting what it
// made of it; ok false for a frame without a chip or a rejected one.
func (d *Dev) decode(f []byte, at time.Time) (reader.Read, bool) {
	var (
		r   reader.Read
		ok  bool
		err error
	)
	if d.proto.DecodeAt != nil {
		r, ok, err = d.proto.DecodeAt(f, at)
	} else {
		r, ok, err = d.proto.Decode(f)
	}
	switch {
	case err != nil:
		d.count(OutcomeBad, err)
		if d.rejected != nil {
			d.rejected(f, err)
		}
		return reader.Read{}, false
	case !ok:
		d.count(OutcomeOther, nil)
		return reader.Read{}, false
	}
	d.count(OutcomeRead, nil)
	if r.Raw == nil {
		r.Raw = f
	}
	r.At, r.Source, r.Format = at, d.name, d.proto.Name
	return r, true
}

// Exchange sends cmd and returns the first frame received after it
// that reply accepts, for readers that take commands (the RFIDRW-E).
// Chips read while it waits are kept for Next; other frames are
// decoded and counted as Next would. It must not be called while Next
// is blocked in another goroutine; ctx bounds the wait.
func (d *Dev) Exchange(ctx context.Context, cmd []byte, reply func(frame []byte) bool) ([]byte, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if err := d.write(cmd); err != nil {
		return nil, d.wrap(err)
	}
	for {
		f, at, err := d.frame(ctx)
		if err != nil {
			return nil, d.wrap(err)
		}
		if reply(f) {
			d.count(OutcomeOther, nil)
			return f, nil
		}
		if r, ok := d.decode(f, at); ok {
			d.queue = append(d.queue, r)
		}
	}
}

func (d *Dev) wrap(err error) error {
	if errors.Is(err, reader.ErrClosed) {
		return reader.ErrClosed
	}
	return fmt.Errorf("%s: %w", d.proto.Name, err)
}

// String names the protocol and the port.
func (d *Dev) String() string { return d.name }

// Protocol returns the protocol d reads.
func (d *Dev) Protocol() Protocol { return d.proto }
