package readers

import (
	"errors"
	"fmt"
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
// usable; call NewScanner.
type Scanner struct {
	split SplitFunc
	max   int
	buf   []byte
	stats Stats
	last  error // last rejection, for diagnostics
}

// NewScanner returns a Scanner for split. When more than max bytes are
// buffered without a frame, the oldest are dropped as garbage; max 0
// means 4096.
func NewScanner(split SplitFunc, max int) *Scanner {
	if max <= 0 {
		max = 4096
	}
	return &Scanner{split: split, max: max}
}

// Write appends received bytes.
func (s *Scanner) Write(p []byte) {
	s.stats.Bytes += uint64(len(p))
	s.buf = append(s.buf, p...)
}

// Frame returns the next well-formed frame, or nil when more bytes are
// needed. The frame is a fresh copy.
func (s *Scanner) Frame() []byte {
	for len(s.buf) > 0 {
		n, err := s.split(s.buf)
		if n < 0 || n > len(s.buf) {
			// A broken SplitFunc; drop one byte rather than loop.
			n, err = 1, fmt.Errorf("%w: split returned %d of %d", ErrGarbage, n, len(s.buf))
		}
		if n == 0 {
			if len(s.buf) > s.max {
				drop := len(s.buf) - s.max
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
		f := append([]byte(nil), s.buf[:n]...)
		s.consume(n)
		s.stats.Frames++
		return f
	}
	s.compact()
	return nil
}

func (s *Scanner) consume(n int) { s.buf = s.buf[n:] }

// compact moves buffered bytes to the front when the slice has drifted.
func (s *Scanner) compact() {
	if cap(s.buf) > 2*s.max && len(s.buf) < s.max {
		s.buf = append(make([]byte, 0, s.max), s.buf...)
	}
}

// Buffered returns how many bytes wait for the rest of a frame.
func (s *Scanner) Buffered() int { return len(s.buf) }

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
