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

// Dev reads one Protocol from a port: its Next reads the port straight
// into Dev's frame buffer, cuts frames with the protocol's split and
// calls the protocol's decode, with no layer between the port and the
// read.
type Dev struct {
	p        port.Port
	proto    Protocol
	name     string
	now      func() time.Time
	rejected func([]byte, error)
	closed   atomic.Bool

	mu    sync.Mutex // guards sc's bytes, ask and queue: one Next or Exchange at a time
	sc    Scanner    // the frame buffer; its counters are guarded by smu
	ask   bool       // a trigger is due
	queue []reader.Read

	smu sync.Mutex // guards sc's counters, so Stats never waits for Next
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
		sc: newScanner(proto.Split, proto.Max), ask: proto.Trigger != nil}, nil
}

// Next returns the next chip read, its Raw the frame unless Decode gave
// one (a typed line); frames that carry none are counted and skipped.
// Reads that arrived while Exchange waited for a reply come first.
// Frames already received are read before a transport error. After
// Close it returns reader.ErrClosed; when the device hung up, an error
// wrapping port.ErrHangup.
func (d *Dev) Next(ctx context.Context) (reader.Read, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if len(d.queue) > 0 {
		r := d.queue[0]
		d.queue = d.queue[1:]
		return r, nil
	}
	r, _, err := d.read(ctx, nil)
	return r, err
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
	_, f, err := d.read(ctx, reply)
	return f, err
}

// read is the loop of Next and Exchange: it cuts frames out of the
// bytes received, reading the port when it needs more, and decodes each
// with the protocol. Without reply it returns the first chip read,
// sending the protocol's trigger when one is due; with reply it returns
// the first frame reply accepts and queues the chips read before it.
// d.mu is held.
func (d *Dev) read(ctx context.Context, reply func([]byte) bool) (reader.Read, []byte, error) {
	trigger := reply == nil && d.proto.Trigger != nil
	var (
		werr   error       // a failed trigger: frames received before it still count
		wait   = ctx       // the wait for the next frame, cut short by TriggerEvery
		cancel = func() {} // ends wait
	)
	defer func() { cancel() }()
	waiting := false // the wait for the next frame has begun: trigger sent, TriggerEvery running
	for {
		if trigger && !waiting {
			if d.ask && werr == nil {
				werr = d.write(d.proto.Trigger)
				d.ask = false
			}
			if d.proto.TriggerEvery > 0 {
				var end context.CancelFunc
				wait, end = context.WithTimeout(ctx, d.proto.TriggerEvery)
				cancel = end
			}
		}
		waiting = true
		d.smu.Lock()
		f := d.sc.Frame()
		d.smu.Unlock()
		if f == nil {
			if d.closed.Load() {
				return reader.Read{}, nil, reader.ErrClosed
			}
			if err := wait.Err(); err != nil {
				if wait != ctx && ctx.Err() == nil {
					if werr != nil {
						return reader.Read{}, nil, d.wrap(werr)
					}
					cancel()
					wait, waiting, d.ask = ctx, false, true // silence: ask again
					continue
				}
				return reader.Read{}, nil, d.wrap(err)
			}
			n, err := d.p.Read(d.sc.room(readSize))
			if n > 0 {
				d.smu.Lock()
				d.sc.filled(n)
				d.smu.Unlock()
			}
			switch {
			case err == nil, errors.Is(err, port.ErrTimeout):
			case d.closed.Load() || errors.Is(err, port.ErrClosed):
				return reader.Read{}, nil, reader.ErrClosed
			case n > 0:
				// Let the bytes be framed first; the error comes back
				// on the next read.
			default:
				return reader.Read{}, nil, d.wrap(err)
			}
			continue
		}
		at := d.now()
		cancel()
		wait, waiting = ctx, false
		if reply != nil && reply(f) {
			d.count(OutcomeOther, nil)
			return reader.Read{}, f, nil
		}
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
		case !ok:
			d.count(OutcomeOther, nil)
		}
		if err != nil || !ok {
			if trigger && d.proto.Idle != nil && d.proto.Idle(f) {
				d.ask = true
			}
			continue
		}
		d.count(OutcomeRead, nil)
		if r.Raw == nil {
			r.Raw = f
		}
		r.At, r.Source, r.Format = at, d.name, d.proto.Name
		if reply != nil {
			d.queue = append(d.queue, r)
			continue
		}
		d.ask = trigger
		return r, nil, nil
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
