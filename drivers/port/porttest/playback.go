package porttest

import (
	"bytes"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/chipdesk/chipdesk/drivers/port"
)

// IO is one step of an exchange: the bytes the host writes (W, empty
// when the device speaks unprompted) and the bytes the device sends back
// (R).
type IO struct {
	W []byte
	R []byte
}

// ErrUnexpected is returned by Playback for a write the script did not
// expect.
var ErrUnexpected = errors.New("porttest: unexpected write")

// Playback is a port.Port that replays Ops. The R bytes of each step are
// readable once its W bytes were written (at once for a step with no
// W); a read with nothing left to give times out, and after the last
// step it returns port.ErrHangup, as if the device were unplugged.
//
// Writes must match the scripted W bytes; they may come in pieces.
type Playback struct {
	Name string
	Ops  []IO

	mu      sync.Mutex
	count   int    // steps done
	written []byte // bytes of the current step's W written so far
	pending []byte // R bytes not read yet
	closed  bool
}

var (
	_ port.Port      = (*Playback)(nil)
	_ port.Timeouter = (*Playback)(nil)
	_ port.Moder     = (*Playback)(nil)
)

// String returns p.Name, or "playback".
func (p *Playback) String() string {
	if p.Name == "" {
		return "playback"
	}
	return p.Name
}

// advance moves past steps whose W is satisfied, making their R
// readable. Called with p.mu held.
func (p *Playback) advance() {
	for len(p.pending) == 0 && p.count < len(p.Ops) && len(p.Ops[p.count].W) == len(p.written) {
		p.pending = append(p.pending, p.Ops[p.count].R...)
		p.written = nil
		p.count++
	}
}

// Read returns scripted device bytes.
func (p *Playback) Read(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return 0, fmt.Errorf("porttest: read %s: %w", p, port.ErrClosed)
	}
	p.advance()
	if len(p.pending) > 0 {
		n := copy(b, p.pending)
		p.pending = p.pending[n:]
		return n, nil
	}
	if p.count >= len(p.Ops) {
		return 0, fmt.Errorf("porttest: read %s: %w", p, port.ErrHangup)
	}
	return 0, fmt.Errorf("porttest: read %s: %w", p, port.ErrTimeout)
}

// Write checks b against the script.
func (p *Playback) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return 0, fmt.Errorf("porttest: write %s: %w", p, port.ErrClosed)
	}
	for i := 0; i < len(b); {
		p.advance()
		if p.count >= len(p.Ops) {
			return i, fmt.Errorf("%w: %q after the end of the script", ErrUnexpected, b[i:])
		}
		want := p.Ops[p.count].W[len(p.written):]
		n := min(len(want), len(b)-i)
		if n == 0 || !bytes.Equal(want[:n], b[i:i+n]) {
			return i, fmt.Errorf("%w: step %d: got %q, want %q", ErrUnexpected, p.count, b[i:], want)
		}
		p.written = append(p.written, b[i:i+n]...)
		i += n
	}
	return len(b), nil
}

// Close closes the port; it does not check the script was consumed (see
// Done).
func (p *Playback) Close() error {
	p.mu.Lock()
	p.closed = true
	p.mu.Unlock()
	return nil
}

// Done returns an error unless every step was played and read.
func (p *Playback) Done() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.advance()
	if p.count < len(p.Ops) || len(p.pending) > 0 {
		return fmt.Errorf("porttest: %s: %d of %d steps played, %d bytes unread", p, p.count, len(p.Ops), len(p.pending))
	}
	return nil
}

// SetReadTimeout is accepted and ignored: a Playback never waits.
func (p *Playback) SetReadTimeout(time.Duration) error { return nil }

// SetMode is accepted and ignored.
func (p *Playback) SetMode(port.Mode) error { return nil }

// Record wraps Port and appends every exchange to Ops: each Write starts
// a step (or extends the current one if nothing was read since), each
// Read adds to the current step's R.
type Record struct {
	Port port.Port

	mu  sync.Mutex
	Ops []IO
}

var _ port.Port = (*Record)(nil)

// String names the wrapped port.
func (r *Record) String() string { return r.Port.String() }

// Read reads from the wrapped port and records the bytes.
func (r *Record) Read(b []byte) (int, error) {
	n, err := r.Port.Read(b)
	if n > 0 {
		r.mu.Lock()
		if len(r.Ops) == 0 {
			r.Ops = append(r.Ops, IO{})
		}
		last := &r.Ops[len(r.Ops)-1]
		last.R = append(last.R, b[:n]...)
		r.mu.Unlock()
	}
	return n, err
}

// Write writes to the wrapped port and records the bytes.
func (r *Record) Write(b []byte) (int, error) {
	n, err := r.Port.Write(b)
	if n > 0 {
		r.mu.Lock()
		if len(r.Ops) == 0 || len(r.Ops[len(r.Ops)-1].R) > 0 {
			r.Ops = append(r.Ops, IO{})
		}
		last := &r.Ops[len(r.Ops)-1]
		last.W = append(last.W, b[:n]...)
		r.mu.Unlock()
	}
	return n, err
}

// Close closes the wrapped port.
func (r *Record) Close() error { return r.Port.Close() }

// SetReadTimeout passes through when the wrapped port supports it.
func (r *Record) SetReadTimeout(d time.Duration) error {
	if t, ok := r.Port.(port.Timeouter); ok {
		return t.SetReadTimeout(d)
	}
	return nil
}

// SetMode passes through when the wrapped port supports it.
func (r *Record) SetMode(m port.Mode) error {
	if t, ok := r.Port.(port.Moder); ok {
		return t.SetMode(m)
	}
	return nil
}
