package readers

import (
	"time"

	"github.com/chipdesk/chipdesk/drivers/port"
	"github.com/chipdesk/chipdesk/reader"
)

// PollInterval is the read timeout a Dev sets on ports that support
// one, so that a blocked Next notices its context. Data is returned as
// soon as it arrives whatever the interval.
const PollInterval = 100 * time.Millisecond

// readSize is the free space a Dev asks of its buffer for one read of
// the port.
const readSize = 512

// write sends b to the device. d.mu is held, so writes never
// interleave.
func (d *Dev) write(b []byte) error {
	if d.closed.Load() {
		return reader.ErrClosed
	}
	_, err := d.p.Write(b)
	return err
}

// count records what Decode made of a frame. d.mu is held.
func (d *Dev) count(o Outcome, err error) {
	d.smu.Lock()
	d.sc.Count(o, err)
	d.smu.Unlock()
}

// Stats returns the frame counters. It does not wait for a blocked
// Next.
func (d *Dev) Stats() Stats {
	d.smu.Lock()
	defer d.smu.Unlock()
	return d.sc.stats
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
