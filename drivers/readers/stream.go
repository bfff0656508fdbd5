package readers

import (
	"context"
	"errors"
	"time"

	"github.com/chipdesk/chipdesk/drivers/port"
	"github.com/chipdesk/chipdesk/reader"
)

// PollInterval is the read timeout a Dev sets on ports that support
// one, so that a blocked Next notices its context. Data is returned as
// soon as it arrives whatever the interval.
const PollInterval = 100 * time.Millisecond

// frame returns the next well-formed frame read from the port and the
// time its last byte was received. Frames already received are
// returned before a transport error. After Close it returns
// reader.ErrClosed; when the device hung up, an error wrapping
// port.ErrHangup. d.mu is held.
func (d *Dev) frame(ctx context.Context) ([]byte, time.Time, error) {
	for {
		f := d.sc.Frame()
		d.snapshot()
		if f != nil {
			return f, d.now(), nil
		}
		if d.closed.Load() {
			return nil, time.Time{}, reader.ErrClosed
		}
		if err := ctx.Err(); err != nil {
			return nil, time.Time{}, err
		}
		n, err := d.p.Read(d.buf)
		if n > 0 {
			d.sc.Write(d.buf[:n])
			d.snapshot()
		}
		if err != nil {
			switch {
			case errors.Is(err, port.ErrTimeout):
				continue
			case d.closed.Load() || errors.Is(err, port.ErrClosed):
				return nil, time.Time{}, reader.ErrClosed
			case n > 0:
				// Let the bytes be framed first; the error comes back
				// on the next read.
				continue
			}
			return nil, time.Time{}, err
		}
	}
}

// write sends b to the device. d.mu is held, so writes never
// interleave.
func (d *Dev) write(b []byte) error {
	if d.closed.Load() {
		return reader.ErrClosed
	}
	_, err := d.p.Write(b)
	return err
}

// snapshot copies the scanner's counters for Stats, which must not
// wait for a blocked Next. d.mu is held.
func (d *Dev) snapshot() {
	st := d.sc.Stats()
	d.smu.Lock()
	d.snap = st
	d.smu.Unlock()
}

// count records what Decode made of a frame.
func (d *Dev) count(o Outcome, err error) {
	d.smu.Lock()
	d.extra.Count(o, err)
	d.smu.Unlock()
}

// Stats returns the frame counters. It does not wait for a blocked
// Next.
func (d *Dev) Stats() Stats {
	d.smu.Lock()
	defer d.smu.Unlock()
	st, x := d.snap, d.extra.stats
	st.Reads += x.Reads
	st.Bad += x.Bad
	st.Other += x.Other
	return st
}

// Close closes the port; a Next blocked in another goroutine returns
// reader.ErrClosed.
func (d *Dev) Close() error {
	if d.closed.Swap(true) {
		return nil
	}
	return d.p.Close()
}

// DecodeFunc makes a read of a well-formed frame. ok false with a nil
// error means the frame carries no chip (a reply, an echo); an error
// means the frame is rejected and counted as bad.
type DecodeFunc func(frame []byte) (r reader.Read, ok bool, err error)

// SetMode sets m on p when p supports line framing (a serial port); a
// zero Baud leaves the port as it is. The port's error, which names the
// port, is returned as it is: the driver's Open adds its own name.
func SetMode(p port.Port, m port.Mode) error {
	if m.Baud == 0 {
		return nil
	}
	if md, ok := p.(port.Moder); ok {
		return md.SetMode(m)
	}
	return nil
}
