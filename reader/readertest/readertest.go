package readertest

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/chipdesk/chipdesk/reader"
	"github.com/chipdesk/chipdesk/reader/chipid"
)

// ErrUnconsumed is wrapped by Close when the script was not played to
// its end.
var ErrUnconsumed = errors.New("readertest: script not consumed")

// Step is one entry of a script: a read, or an error Next returns.
type Step struct {
	Read reader.Read
	Err  error
}

// Reader is a scripted fake reader.Reader. Next plays the steps in order;
// when they are used up it returns End if End is set (io.EOF, a hangup
// error, ...), and otherwise blocks until ctx is done, Close is called or
// Push adds steps, like a reader with no chip in its field. Close reports
// steps that were never read, so a test notices a service that stopped
// reading too early.
//
// Set the fields before the first call; a Reader is then safe for
// concurrent use.
type Reader struct {
	// Name is what String returns and Next puts in Read.Source when a
	// step leaves it empty; "readertest" when empty.
	Name string
	// Steps is the script.
	Steps []Step
	// End, when not nil, is returned by Next once the script is used up.
	End error

	mu     sync.Mutex
	pos    int
	closed bool
	wake   chan struct{} // closed and replaced by Push and Close
}

var _ reader.Reader = (*Reader)(nil)

// New returns a Reader named name that plays steps.
func New(name string, steps ...Step) *Reader {
	return &Reader{Name: name, Steps: steps}
}

// Chip returns a step reading the chip number text (parsed by package
// chipid), with Raw set to text. It returns an error step wrapping the
// parse error when text is no chip number, so a bad script fails the
// test that plays it.
func Chip(text string) Step {
	id, err := chipid.Parse(text, nil)
	if err != nil {
		return Step{Err: fmt.Errorf("readertest: script step %q: %w", text, err)}
	}
	return Step{Read: reader.Read{ID: id, Protocol: protocolOf(id), Format: "readertest", Raw: []byte(text)}}
}

// Fail returns a step in which Next returns err.
func Fail(err error) Step { return Step{Err: err} }

func protocolOf(id chipid.ID) reader.Air {
	switch id.Kind {
	case chipid.KindISO:
		return reader.AirISO
	case chipid.KindAVID:
		return reader.AirAVID
	case chipid.KindFECAVA:
		return reader.AirFDXA
	case chipid.KindTrovan:
		return reader.AirTrovan
	}
	return reader.AirUnknown
}

// String names the reader.
func (r *Reader) String() string {
	if r.Name == "" {
		return "readertest"
	}
	return r.Name
}

// Push appends steps to the script and wakes a blocked Next.
func (r *Reader) Push(steps ...Step) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.Steps = append(r.Steps, steps...)
	r.wakeLocked()
}

func (r *Reader) wakeLocked() {
	if r.wake != nil {
		close(r.wake)
		r.wake = nil
	}
}

// Next returns the next step of the script.
func (r *Reader) Next(ctx context.Context) (reader.Read, error) {
	for {
		if err := ctx.Err(); err != nil {
			return reader.Read{}, err
		}
		r.mu.Lock()
		if r.closed {
			r.mu.Unlock()
			return reader.Read{}, reader.ErrClosed
		}
		if r.pos < len(r.Steps) {
			s := r.Steps[r.pos]
			r.pos++
			r.mu.Unlock()
			if s.Err != nil {
				return reader.Read{}, s.Err
			}
			if s.Read.Source == "" {
				s.Read.Source = r.String()
			}
			return s.Read, nil
		}
		if r.End != nil {
			r.mu.Unlock()
			return reader.Read{}, r.End
		}
		if r.wake == nil {
			r.wake = make(chan struct{})
		}
		wake := r.wake
		r.mu.Unlock()
		select {
		case <-ctx.Done():
			return reader.Read{}, ctx.Err()
		case <-wake:
		}
	}
}

// Close stops the reader: a blocked Next returns reader.ErrClosed, and
// so does every later one. Close returns an error wrapping ErrUnconsumed
// that lists the steps never read; closing again returns nil.
func (r *Reader) Close() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return nil
	}
	r.closed = true
	r.wakeLocked()
	if left := r.Steps[r.pos:]; len(left) > 0 {
		var b strings.Builder
		for i, s := range left {
			if i > 0 {
				b.WriteString(", ")
			}
			if s.Err != nil {
				fmt.Fprintf(&b, "error %q", s.Err)
			} else {
				fmt.Fprintf(&b, "read %s", s.Read.ID)
			}
		}
		return fmt.Errorf("%w: %s closed with %d steps left: %s", ErrUnconsumed, r.String(), len(left), b.String())
	}
	return nil
}

// Consumed returns how many steps Next has played.
func (r *Reader) Consumed() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.pos
}

// Closed reports whether Close was called.
func (r *Reader) Closed() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.closed
}
