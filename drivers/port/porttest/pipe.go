package porttest

import (
	"fmt"
	"sync"
	"time"

	"github.com/chipdesk/chipdesk/drivers/port"
)

// stream is one direction of a Pipe.
type stream struct {
	mu     sync.Mutex
	cond   *sync.Cond
	buf    []byte
	closed bool // the writing end hung up
}

func newStream() *stream {
	s := &stream{}
	s.cond = sync.NewCond(&s.mu)
	return s
}

// End is one end of a Pipe. It implements port.Port, port.Timeouter and
// port.Moder.
type End struct {
	name string
	in   *stream // what this end reads
	out  *stream // what this end writes

	mu      sync.Mutex
	closed  bool
	timeout time.Duration
	mode    port.Mode
	modes   []port.Mode
}

var (
	_ port.Port      = (*End)(nil)
	_ port.Timeouter = (*End)(nil)
	_ port.Moder     = (*End)(nil)
)

// Pipe returns two connected in-memory ports: what is written to one is
// read from the other. Closing one end makes the other's reads return
// port.ErrHangup once the buffered bytes are read.
func Pipe(name string) (host, device *End) {
	a, b := newStream(), newStream()
	return &End{name: name, in: a, out: b}, &End{name: name + " (device)", in: b, out: a}
}

// String returns the pipe's name.
func (e *End) String() string { return e.name }

// Read blocks until bytes arrive, the read timeout passes
// (port.ErrTimeout), the other end closes (port.ErrHangup) or this end
// closes (port.ErrClosed).
func (e *End) Read(b []byte) (int, error) {
	e.mu.Lock()
	d := e.timeout
	e.mu.Unlock()
	s := e.in
	s.mu.Lock()
	defer s.mu.Unlock()
	var timer *time.Timer
	expired := false
	if d > 0 {
		timer = time.AfterFunc(d, func() {
			s.mu.Lock()
			expired = true
			s.mu.Unlock()
			s.cond.Broadcast()
		})
		defer timer.Stop()
	}
	for {
		if e.isClosed() {
			return 0, fmt.Errorf("porttest: read %s: %w", e.name, port.ErrClosed)
		}
		if len(s.buf) > 0 && len(b) > 0 {
			n := copy(b, s.buf)
			s.buf = s.buf[n:]
			return n, nil
		}
		if s.closed {
			return 0, fmt.Errorf("porttest: read %s: %w", e.name, port.ErrHangup)
		}
		if expired {
			return 0, fmt.Errorf("porttest: read %s: %w", e.name, port.ErrTimeout)
		}
		s.cond.Wait()
	}
}

// Write queues b for the other end.
func (e *End) Write(b []byte) (int, error) {
	if e.isClosed() {
		return 0, fmt.Errorf("porttest: write %s: %w", e.name, port.ErrClosed)
	}
	if e.in.isHungUp() {
		return 0, fmt.Errorf("porttest: write %s: %w", e.name, port.ErrHangup)
	}
	s := e.out
	s.mu.Lock()
	defer s.mu.Unlock()
	s.buf = append(s.buf, b...)
	s.cond.Broadcast()
	return len(b), nil
}

func (s *stream) isHungUp() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.closed
}

// Close closes this end; the other end sees a hang-up.
func (e *End) Close() error {
	e.mu.Lock()
	if e.closed {
		e.mu.Unlock()
		return nil
	}
	e.closed = true
	e.mu.Unlock()
	for _, s := range []*stream{e.in, e.out} {
		s.mu.Lock()
		if s == e.out {
			s.closed = true
		}
		s.mu.Unlock()
		s.cond.Broadcast()
	}
	return nil
}

func (e *End) isClosed() bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.closed
}

// SetReadTimeout sets the read timeout; 0 blocks.
func (e *End) SetReadTimeout(d time.Duration) error {
	e.mu.Lock()
	e.timeout = d
	e.mu.Unlock()
	return nil
}

// SetMode records m; Modes returns every mode set, in order.
func (e *End) SetMode(m port.Mode) error {
	e.mu.Lock()
	e.mode = m
	e.modes = append(e.modes, m)
	e.mu.Unlock()
	return nil
}

// Mode returns the last mode set.
func (e *End) Mode() port.Mode {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.mode
}

// Modes returns every mode set on this end, in order.
func (e *End) Modes() []port.Mode {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]port.Mode(nil), e.modes...)
}
