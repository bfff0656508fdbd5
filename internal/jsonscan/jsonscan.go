package jsonscan

import (
	"fmt"
	"unicode/utf16"
	"unicode/utf8"
)

// Text is what a Scanner reads.
type Text interface{ string | []byte }

// MaxDepth is how deep arrays and objects may nest, as encoding/json
// allows.
const MaxDepth = 10000

// Error is a malformed piece of text, or a value of another kind than
// the one asked for, at Offset.
type Error struct {
	Offset int
	Msg    string
}

func (e *Error) Error() string { return fmt.Sprintf("%s at byte %d", e.Msg, e.Offset) }

// Scanner reads the JSON text it was made with; see the package's doc.
type Scanner[T Text] struct {
	b     T
	i     int
	depth int

	// KeepInvalidUTF8 makes String return the bytes of a string that
	// are not UTF-8 as they stand, rather than as U+FFFD: for text whose
	// strings are a store's bytes, to be read back unchanged.
	KeepInvalidUTF8 bool
}

// New is a Scanner at the start of b.
func New[T Text](b T) Scanner[T] { return Scanner[T]{b: b} }

// Pos is the offset of the next byte to read.
func (s *Scanner[T]) Pos() int { return s.i }

func (s *Scanner[T]) fail(msg string) error { return &Error{Offset: s.i, Msg: msg} }

// Space skips white space.
func (s *Scanner[T]) Space() {
	i, b := s.i, s.b
	for i < len(b) {
		if c := b[i]; c > ' ' || c != ' ' && c != '\t' && c != '\n' && c != '\r' {
			break
		}
		i++
	}
	s.i = i
}

// Peek is the next byte after white space, 0 at the end.
func (s *Scanner[T]) Peek() byte {
	s.Space()
	if s.i < len(s.b) {
		return s.b[s.i]
	}
	return 0
}

// Take consumes c when it is the next byte after white space.
func (s *Scanner[T]) Take(c byte) bool {
	if s.i < len(s.b) && s.b[s.i] == c {
		s.i++
		return true
	}
	if s.Peek() == c && s.i < len(s.b) {
		s.i++
		return true
	}
	return false
}

// End checks that only white space is left.
func (s *Scanner[T]) End() error {
	s.Space()
	if s.i != len(s.b) {
		return s.fail("text after the value")
	}
	return nil
}

// literal consumes the name lit when it is next.
func (s *Scanner[T]) literal(lit string) bool {
	s.Space()
	if len(s.b)-s.i < len(lit) {
		return false
	}
	for j := 0; j < len(lit); j++ {
		if s.b[s.i+j] != lit[j] {
			return false
		}
	}
	s.i += len(lit)
	return true
}

// Null consumes a null when it is next.
func (s *Scanner[T]) Null() bool { return s.literal("null") }

// Bool reads true or false.
func (s *Scanner[T]) Bool() (bool, error) {
	switch {
	case s.literal("true"):
		return true, nil
	case s.literal("false"):
		return false, nil
	}
	return false, s.fail("want true or false")
}

// digits consumes decimal digits and says how many.
func (s *Scanner[T]) digits() int {
	start := s.i
	for s.i < len(s.b) && s.b[s.i] >= '0' && s.b[s.i] <= '9' {
		s.i++
	}
	return s.i - start
}

// Number reads a number's literal: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?
func (s *Scanner[T]) Number() (T, error) {
	var zero T
	s.Space()
	start := s.i
	if s.i < len(s.b) && s.b[s.i] == '-' {
		s.i++
	}
	switch {
	case s.i < len(s.b) && s.b[s.i] == '0':
		s.i++
	case s.digits() == 0:
		return zero, s.fail("want a number")
	}
	if s.i < len(s.b) && s.b[s.i] == '.' {
		s.i++
		if s.digits() == 0 {
			return zero, s.fail("want a digit after the point")
		}
	}
	if s.i < len(s.b) && (s.b[s.i] == 'e' || s.b[s.i] == 'E') {
		s.i++
		if s.i < len(s.b) && (s.b[s.i] == '+' || s.b[s.i] == '-') {
			s.i++
		}
		if s.digits() == 0 {
			return zero, s.fail("want a digit in the exponent")
		}
	}
	return s.b[start:s.i], nil
}

// Int64 reads a number that is an integer, without a fraction or an
// exponent, and fits an int64 (as encoding/json decodes one into an
// int64).
func (s *Scanner[T]) Int64() (int64, error) {
	s.Space()
	start := s.i
	neg := s.i < len(s.b) && s.b[s.i] == '-'
	if neg {
		s.i++
	}
	digits := s.i
	var n uint64
	over := false
	for s.i < len(s.b) {
		c := s.b[s.i]
		if c < '0' || c > '9' {
			break
		}
		if n > (1<<64-1)/10-1 {
			over = true
		}
		n = n*10 + uint64(c-'0')
		s.i++
		if n == 0 {
			break // a leading 0 is all of the integer part
		}
	}
	if s.i == digits || s.i < len(s.b) && (s.b[s.i] == '.' || s.b[s.i] == 'e' || s.b[s.i] == 'E') {
		// Not a number, or one with a fraction or an exponent.
		s.i = start
		if _, err := s.Number(); err != nil {
			return 0, err
		}
		s.i = start
		return 0, s.fail("want an integer")
	}
	switch {
	case over:
	case neg && n <= 1<<63:
		return -int64(n), nil
	case !neg && n < 1<<63:
		return int64(n), nil
	}
	s.i = start
	return 0, s.fail("integer out of range")
}

// String reads a string; see the package's doc.
func (s *Scanner[T]) String() (T, error) {
	var zero T
	if s.Peek() != '"' {
		return zero, s.fail("want a string")
	}
	start := s.i + 1
	b := s.b
	for i := start; i < len(b); i++ {
		switch c := b[i]; {
		case c == '"':
			t := b[start:i]
			if !s.KeepInvalidUTF8 && !validUTF8(t) {
				s.i = start
				return s.decode(start)
			}
			s.i = i + 1
			return t, nil
		case c == '\\':
			s.i = i
			if !s.KeepInvalidUTF8 && !validUTF8(b[start:i]) {
				s.i = start
			}
			return s.decode(start)
		case c < 0x20:
			s.i = i
			return zero, s.fail("control character in string")
		}
	}
	s.i = len(b)
	return zero, s.fail("unterminated string")
}

// decode finishes a string that needs decoding, from its start; the
// bytes from start to the position are copied as they stand.
func (s *Scanner[T]) decode(start int) (T, error) {
	var zero T
	out := append([]byte(nil), s.b[start:s.i]...)
	for s.i < len(s.b) {
		c := s.b[s.i]
		switch {
		case c == '"':
			s.i++
			return T(out), nil
		case c < 0x20:
			return zero, s.fail("control character in string")
		case c >= utf8.RuneSelf && !s.KeepInvalidUTF8:
			if n := utf8Len(s.b, s.i); n > 0 {
				out = append(out, s.b[s.i:s.i+n]...)
				s.i += n
			} else {
				out = utf8.AppendRune(out, utf8.RuneError)
				s.i++
			}
			continue
		case c != '\\':
			out = append(out, c)
			s.i++
			continue
		}
		if s.i+1 >= len(s.b) {
			break
		}
		e := s.b[s.i+1]
		s.i += 2
		switch e {
		case '"', '\\', '/':
			out = append(out, e)
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			r, ok := s.hex4()
			if !ok {
				return zero, s.fail("bad \\u escape")
			}
			if utf16.IsSurrogate(r) {
				// A pair makes one character; a lone half is U+FFFD, and
				// what follows it is read on its own, as encoding/json
				// reads it.
				r2 := rune(-1)
				if s.i+1 < len(s.b) && s.b[s.i] == '\\' && s.b[s.i+1] == 'u' {
					save := s.i
					s.i += 2
					var ok2 bool
					if r2, ok2 = s.hex4(); !ok2 {
						return zero, s.fail("bad \\u escape")
					}
					if utf16.DecodeRune(r, r2) == utf8.RuneError {
						s.i, r2 = save, -1
					}
				}
				if r2 < 0 {
					r = utf8.RuneError
				} else {
					r = utf16.DecodeRune(r, r2)
				}
			}
			out = utf8.AppendRune(out, r)
		default:
			s.i -= 2
			return zero, s.fail("bad escape")
		}
	}
	return zero, s.fail("unterminated string")
}

// hex4 reads the four hex digits of a \u escape.
func (s *Scanner[T]) hex4() (rune, bool) {
	if len(s.b)-s.i < 4 {
		return 0, false
	}
	var r rune
	for j := s.i; j < s.i+4; j++ {
		switch c := s.b[j]; {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	s.i += 4
	return r, true
}

// utf8Len is the length of the UTF-8 encoding of a character at b[i],
// 0 when the bytes there are not one (as utf8.DecodeRune reads them).
func utf8Len[T Text](b T, i int) int {
	c, n := b[i], len(b)-i
	cont := func(j int) bool { return b[i+j]&0xC0 == 0x80 }
	switch {
	case c < utf8.RuneSelf:
		return 1
	case c >= 0xC2 && c <= 0xDF:
		if n >= 2 && cont(1) {
			return 2
		}
	case c >= 0xE0 && c <= 0xEF:
		lo, hi := byte(0x80), byte(0xBF)
		if c == 0xE0 {
			lo = 0xA0
		} else if c == 0xED {
			hi = 0x9F
		}
		if n >= 3 && b[i+1] >= lo && b[i+1] <= hi && cont(2) {
			return 3
		}
	case c >= 0xF0 && c <= 0xF4:
		lo, hi := byte(0x80), byte(0xBF)
		if c == 0xF0 {
			lo = 0x90
		} else if c == 0xF4 {
			hi = 0x8F
		}
		if n >= 4 && b[i+1] >= lo && b[i+1] <= hi && cont(2) && cont(3) {
			return 4
		}
	}
	return 0
}

func validUTF8[T Text](b T) bool {
	for i := 0; i < len(b); {
		if b[i] < utf8.RuneSelf {
			i++
			continue
		}
		n := utf8Len(b, i)
		if n == 0 {
			return false
		}
		i += n
	}
	return true
}

// skipString consumes a string, checked but not decoded.
func (s *Scanner[T]) skipString() error {
	s.i++ // "
	for s.i < len(s.b) {
		c := s.b[s.i]
		switch {
		case c == '"':
			s.i++
			return nil
		case c < 0x20:
			return s.fail("control character in string")
		case c == '\\':
			if s.i+1 >= len(s.b) {
				s.i++
				return s.fail("unterminated string")
			}
			switch s.b[s.i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				s.i += 2
			case 'u':
				s.i += 2
				if _, ok := s.hex4(); !ok {
					return s.fail("bad \\u escape")
				}
			default:
				return s.fail("bad escape")
			}
			continue
		}
		s.i++
	}
	return s.fail("unterminated string")
}

// push enters an array or an object.
func (s *Scanner[T]) push() error {
	if s.depth++; s.depth > MaxDepth {
		return s.fail("nested too deep")
	}
	return nil
}

// Object reads an object, calling fn with each member's key (decoded as
// String decodes it) at the member's value, which fn must consume.
func (s *Scanner[T]) Object(fn func(key T) error) error {
	if !s.Take('{') {
		return s.fail("want an object")
	}
	if err := s.push(); err != nil {
		return err
	}
	if !s.Take('}') {
		for {
			key, err := s.String()
			if err != nil {
				return err
			}
			if !s.Take(':') {
				return s.fail("want :")
			}
			if err := fn(key); err != nil {
				return err
			}
			if s.Take(',') {
				continue
			}
			if s.Take('}') {
				break
			}
			return s.fail("want , or }")
		}
	}
	s.depth--
	return nil
}

// Array reads an array, calling fn with each element's index at the
// element, which fn must consume, and says how many there were.
func (s *Scanner[T]) Array(fn func(i int) error) (int, error) {
	if !s.Take('[') {
		return 0, s.fail("want an array")
	}
	if err := s.push(); err != nil {
		return 0, err
	}
	n := 0
	if !s.Take(']') {
		for {
			if err := fn(n); err != nil {
				return n, err
			}
			n++
			if s.Take(',') {
				continue
			}
			if s.Take(']') {
				break
			}
			return n, s.fail("want , or ]")
		}
	}
	s.depth--
	return n, nil
}

// Skip consumes one value of any kind, checking it as json.Valid
// would.
func (s *Scanner[T]) Skip() error {
	switch c := s.Peek(); {
	case c == '"':
		return s.skipString()
	case c == '{':
		s.i++
		if err := s.push(); err != nil {
			return err
		}
		if !s.Take('}') {
			for {
				if s.Peek() != '"' {
					return s.fail("want a string")
				}
				if err := s.skipString(); err != nil {
					return err
				}
				if !s.Take(':') {
					return s.fail("want :")
				}
				if err := s.Skip(); err != nil {
					return err
				}
				if s.Take('}') {
					break
				}
				if !s.Take(',') {
					return s.fail("want , or }")
				}
			}
		}
		s.depth--
		return nil
	case c == '[':
		s.i++
		if err := s.push(); err != nil {
			return err
		}
		if !s.Take(']') {
			for {
				if err := s.Skip(); err != nil {
					return err
				}
				if s.Take(']') {
					break
				}
				if !s.Take(',') {
					return s.fail("want , or ]")
				}
			}
		}
		s.depth--
		return nil
	case c == 't' || c == 'f':
		_, err := s.Bool()
		return err
	case c == 'n':
		if s.Null() {
			return nil
		}
	case c == '-' || c >= '0' && c <= '9':
		_, err := s.Number()
		return err
	}
	return s.fail("want a value")
}
