package readers

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"github.com/chipdesk/chipdesk/drivers/port"
	"github.com/chipdesk/chipdesk/reader"
)

// PollInterval is the read timeout a Stream sets on ports that support
// one, so that a blocked Frame notices its context. Data is returned as
// soon as it arrives whatever the interval.
const PollInterval = 100 * time.Millisecond

// Stream pumps a port into a Scanner.
type Stream struct {
	p   port.Port
	now func() time.Time

	mu   sync.Mutex // guards sc and buf: one Frame call at a time
	sc   *Scanner
	buf  []byte
	werr sync.Mutex // serialises writes

	closed atomic.Bool

	smu   sync.Mutex
	snap  Stats // the scanner's counters after the last step
	extra Scanner
}

// NewStream reads p through split. now stamps frames; nil means
// time.Now. The port's read timeout is set to PollInterval when it has
// one.
func NewStream(p port.Port, split SplitFunc, max int, now func() time.Time) (*Stream, error) {
	if now == nil {
		now = time.Now
	}
	if t, ok := p.(port.Timeouter); ok {
		// The port's error names the port; the caller names the driver.
		if err := t.SetReadTimeout(PollInterval); err != nil {
			return nil, err
		}
	}
	return &Stream{p: p, now: now, sc: NewScanner(split, max), buf: make([]byte, 512)}, nil
}

// Frame returns the next well-formed frame and the time its last byte
// was received. Frames already received are returned before a transport
// error. After Close it returns reader.ErrClosed; when the device hung
// up, an error wrapping port.ErrHangup.
func (s *Stream) Frame(ctx context.Context) ([]byte, time.Time, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for {
		f := s.sc.Frame()
		s.snapshot()
		if f != nil {
			return f, s.now(), nil
		}
		if s.isClosed() {
			return nil, time.Time{}, reader.ErrClosed
		}
		if err := ctx.Err(); err != nil {
			return nil, time.Time{}, err
		}
		n, err := s.p.Read(s.buf)
		if n > 0 {
			s.sc.Write(s.buf[:n])
			s.snapshot()
		}
		if err != nil {
			switch {
			case errors.Is(err, port.ErrTimeout):
				continue
			case s.isClosed() || errors.Is(err, port.ErrClosed):
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

// Write sends b to the device.
func (s *Stream) Write(b []byte) error {
	s.werr.Lock()
	defer s.werr.Unlock()
	if s.isClosed() {
		return reader.ErrClosed
	}
	if _, err := s.p.Write(b); err != nil {
		return err
	}
	return nil
}

func (s *Stream) snapshot() {
	st := s.sc.Stats()
	s.smu.Lock()
	s.snap = st
	s.smu.Unlock()
}

// Count records what the driver made of a frame.
func (s *Stream) Count(o Outcome, err error) {
	s.smu.Lock()
	s.extra.Count(o, err)
	s.smu.Unlock()
}

// Stats returns the counters. It does not wait for a blocked Frame.
func (s *Stream) Stats() Stats {
	s.smu.Lock()
	defer s.smu.Unlock()
	st, x := s.snap, s.extra.stats
	st.Reads += x.Reads
	st.Bad += x.Bad
	st.Other += x.Other
	return st
}

// Port returns the underlying port.
func (s *Stream) Port() port.Port { return s.p }

// Close closes the port. A Frame blocked in another goroutine returns
// reader.ErrClosed.
func (s *Stream) Close() error {
	if s.closed.Swap(true) {
		return nil
	}
	return s.p.Close()
}

func (s *Stream) isClosed() bool { return s.closed.Load() }

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
