package readers

import (
	"bytes"
	"fmt"
)

// MatchFunc looks at one line, without its terminator, and returns
// where a frame starts in it (the frame runs to the end of the line), or
// -1 when the line holds no frame. A non-nil error means the line has
// the shape of a frame but fails a check such as its CRC.
type MatchFunc func(line []byte) (start int, err error)

// LineSplit returns a SplitFunc for protocols that send one frame per
// line, ended by CR, LF or CR LF. Bytes before the frame on the same
// line (noise, a partial line from before the port was opened) are
// dropped as garbage, so a frame preceded by noise is still read. Of a
// line longer than max bytes only the last max are kept, so max must
// be at least the longest frame.
func LineSplit(max int, match MatchFunc) SplitFunc {
	return func(buf []byte) (int, error) { return SplitLine(buf, max, match) }
}

// SplitLine is LineSplit's SplitFunc applied to buf.
func SplitLine(buf []byte, max int, match MatchFunc) (int, error) {
	// Skip line ends left over from the previous line.
	k := 0
	for k < len(buf) && (buf[k] == '\r' || buf[k] == '\n') {
		k++
	}
	if k > 0 {
		return k, ErrBlank
	}
	i := bytes.IndexAny(buf, "\r\n")
	if i < 0 {
		// Keep the last max bytes: they may hold the start of a frame.
		if len(buf) > max {
			return len(buf) - max, fmt.Errorf("%w: line longer than %d bytes", ErrGarbage, max)
		}
		return 0, nil
	}
	end := i + 1
	if buf[i] == '\r' && end < len(buf) && buf[end] == '\n' {
		end++
	}
	start, err := match(buf[:i])
	if err != nil {
		if start > 0 {
			return start, fmt.Errorf("%w: before a bad frame", ErrGarbage)
		}
		return end, err
	}
	if start < 0 || start > i {
		return end, fmt.Errorf("%w: %q", ErrGarbage, clip(buf[:i]))
	}
	if start > 0 {
		return start, fmt.Errorf("%w: %q before a frame", ErrGarbage, clip(buf[:start]))
	}
	return end, nil
}

// clip shortens b for an error message.
func clip(b []byte) []byte {
	if len(b) > 40 {
		return b[:40]
	}
	return b
}

// TrimEOL returns line without its trailing CR and LF bytes.
func TrimEOL(line []byte) []byte {
	return bytes.TrimRight(line, "\r\n")
}

// Digits reports whether s holds only ASCII decimal digits (true for an
// empty s): the frame checks every line protocol needs.
func Digits[T ~string | ~[]byte](s T) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// HexDigits reports whether s holds only hex digits, in either case
// (true for an empty s).
func HexDigits[T ~string | ~[]byte](s T) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('0' <= c && c <= '9' || 'A' <= c && c <= 'F' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// Printable reports whether s holds only printable ASCII, 0x20 to 0x7E
// (true for an empty s).
func Printable[T ~string | ~[]byte](s T) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] > 0x7E {
			return false
		}
	}
	return true
}
