package readers

import (
	"errors"
	"fmt"
	"slices"
)

// SplitFunc finds the next frame at the start of buf. It returns:
//
//   - n > 0 and err == nil: buf[:n] is a well-formed frame;
//   - n > 0 and err != nil: buf[:n] must be dropped; err wraps
//     ErrGarbage for bytes that cannot begin a frame, or a decode error
//     (checksum, framing) for a rejected frame;
//   - n == 0: more bytes are needed.
//
// A SplitFunc must never return n > len(buf) and must not keep buf.
type SplitFunc func(buf []byte) (n int, err error)

// ErrGarbage marks bytes that are not part of any frame.
var ErrGarbage = errors.New("readers: garbage")

// ErrBlank marks bytes dropped without counting: the line ends left
// between two lines.
var ErrBlank = errors.New("readers: blank")

// Stats counts what a driver saw.
type Stats struct {
	Bytes   uint64 // bytes received
	Frames  uint64 // well-formed frames
	Reads   uint64 // frames that became reads
	Garbage uint64 // bytes dropped as not part of any frame
	Bad     uint64 // frames rejected (checksum, framing, bad code)
	Other   uint64 // well-formed frames that carry no chip (replies, echo)
}

// String formats the counters for logs.
func (s Stats) String() string {
	return fmt.Sprintf("%d bytes, %d frames, %d reads, %d garbage bytes, %d bad frames, %d other",
		s.Bytes, s.Frames, s.Reads, s.Garbage, s.Bad, s.Other)
}

// Scanner cuts frames out of a byte stream. The zero value is not
// usable; call NewScanner. A Dev keeps one as its buffer and reads the
// port straight into it.
type Scanner struct {
	split SplitFunc
	max   int
	buf   []byte // buf[off:] waits for the rest of a frame
	off   int
	stats Stats
	last  error // last rejection, for diagnostics
}

// NewScanner returns a Scanner for split. When more than max bytes are
// buffered without a frame, the oldest are dropped as garbage; max 0
// means 4096.
func NewScanner(split SplitFunc, max int) *Scanner {
	s := newScanner(split, max)
	return &s
}

func newScanner(split SplitFunc, max int) Scanner {
	if max <= 0 {
		max = 4096
	}
	return Scanner{split: split, max: max}
}

// Write appends received bytes.
func (s *Scanner) Write(p []byte) {
	s.filled(copy(s.room(len(p)), p))
}

// room returns the free space after the buffered bytes, at least n
// bytes, for a read straight into the buffer; filled takes what was
// put there.
func (s *Scanner) room(n int) []byte {
	if cap(s.buf)-len(s.buf) < n && s.off > 0 {
		m := copy(s.buf, s.buf[s.off:])
		s.buf, s.off = s.buf[:m], 0
	}
	if cap(s.buf)-len(s.buf) < n {
		s.buf = slices.Grow(s.buf, n)
	}
	return s.buf[len(s.buf):cap(s.buf)]
}

// filled takes n bytes written into room's space.
func (s *Scanner) filled(n int) {
	s.stats.Bytes += uint64(n)
	s.buf = s.buf[:len(s.buf)+n]
}

// Frame returns the next well-formed frame, or nil when more bytes are
// needed. The frame is a fresh copy.
func (s *Scanner) Frame() []byte {
	for s.off < len(s.buf) {
		buf := s.buf[s.off:]
		n, err := s.split(buf)
		if n < 0 || n > len(buf) {
			// A broken SplitFunc; drop one byte rather than loop.
			n, err = 1, fmt.Errorf("%w: split returned %d of %d", ErrGarbage, n, len(buf))
		}
		if n == 0 {
			if len(buf) > s.max {
				drop := len(buf) - s.max
				s.stats.Garbage += uint64(drop)
				s.consume(drop)
				continue
			}
			break
		}
		if err != nil {
			if errors.Is(err, ErrBlank) {
				s.consume(n)
				continue
			}
			if errors.Is(err, ErrGarbage) {
				s.stats.Garbage += uint64(n)
			} else {
				s.stats.Bad++
			}
			s.last = err
			s.consume(n)
			continue
		}
		f := append([]byte(nil), buf[:n]...)
		s.consume(n)
		s.stats.Frames++
		return f
	}
	s.compact()
	return nil
}

// consume drops n buffered bytes; an empty buffer starts again at the
// front of its space, so bytes are seldom moved.
func (s *Scanner) consume(n int) {
	s.off += n
	if s.off == len(s.buf) {
		s.buf, s.off = s.buf[:0], 0
	}
}

// compact gives back the space a large Write left once its bytes are
// framed.
func (s *Scanner) compact() {
	if cap(s.buf) > 64<<10 && len(s.buf)-s.off < s.max {
		s.buf, s.off = append(make([]byte, 0, 2*s.max), s.buf[s.off:]...), 0
	}
}

// Buffered returns how many bytes wait for the rest of a frame.
func (s *Scanner) Buffered() int { return len(s.buf) - s.off }

// Stats returns the counters. Reads, Bad and Other are counted by the
// driver through Count.
func (s *Scanner) Stats() Stats { return s.stats }

// LastError returns the reason the last frame or bytes were rejected.
func (s *Scanner) LastError() error { return s.last }

// Outcome is what a driver made of a well-formed frame.
type Outcome int

// Outcomes for Count.
const (
	OutcomeRead  Outcome = iota // became a read
	OutcomeBad                  // rejected after framing (bad code)
	OutcomeOther                // a reply, an echo, a status line
)

// Count records what a driver made of a frame.
func (s *Scanner) Count(o Outcome, err error) {
	switch o {
	case OutcomeRead:
		s.stats.Reads++
	case OutcomeBad:
		s.stats.Bad++
		s.last = err
	case OutcomeOther:
		s.stats.Other++
	}
}
