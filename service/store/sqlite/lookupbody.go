package sqlite

import (
	"errors"
	"fmt"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// parseBody reads a lookup row's body: the JSON that SQLite's json_array
// writes from column values, that is arrays, strings, integers and null
// (the record's columns hold no reals or blobs). Integers become int64,
// strings string, null nil, arrays []any: the values database/sql gives
// for the same columns, so the record's column decoders (cols) read both.
//
// It exists because encoding/json, decoding into any, took a fifth of a
// lookup's time; it accepts exactly the JSON of that subset (RFC 8259
// section 2, without objects, reals, true and false) and nests at most
// bodyDepth arrays.
func parseBody(b []byte) (any, error) {
	p := bodyParser{b: b}
	v, err := p.value(0)
	if err != nil {
		return nil, err
	}
	p.space()
	if p.i != len(p.b) {
		return nil, p.fail("text after the value")
	}
	return v, nil
}

// bodyDepth is the deepest nesting of a body: [rows [kind, columns...]].
const bodyDepth = 2

// errBodySyntax is wrapped by every error of parseBody.
var errBodySyntax = errors.New("sqlite: lookup row: bad JSON")

type bodyParser struct {
	b []byte
	i int
}

func (p *bodyParser) fail(what string) error {
	return fmt.Errorf("%w at byte %d: %s", errBodySyntax, p.i, what)
}

// space skips JSON white space.
func (p *bodyParser) space() {
	for p.i < len(p.b) {
		switch p.b[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *bodyParser) value(depth int) (any, error) {
	p.space()
	if p.i >= len(p.b) {
		return nil, p.fail("unexpected end")
	}
	switch c := p.b[p.i]; {
	case c == '[':
		if depth == bodyDepth {
			return nil, p.fail("arrays nested too deep")
		}
		return p.array(depth + 1)
	case c == '"':
		return p.str()
	case c == 'n':
		if len(p.b)-p.i >= 4 && string(p.b[p.i:p.i+4]) == "null" {
			p.i += 4
			return nil, nil
		}
		return nil, p.fail("bad literal")
	case c == '-' || (c >= '0' && c <= '9'):
		return p.integer()
	}
	return nil, p.fail("unexpected character")
}

func (p *bodyParser) array(depth int) (any, error) {
	p.i++ // [
	out := []any{}
	p.space()
	if p.i < len(p.b) && p.b[p.i] == ']' {
		p.i++
		return out, nil
	}
	for {
		v, err := p.value(depth)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
		p.space()
		if p.i >= len(p.b) {
			return nil, p.fail("unterminated array")
		}
		switch p.b[p.i] {
		case ',':
			p.i++
		case ']':
			p.i++
			return out, nil
		default:
			return nil, p.fail("want , or ]")
		}
	}
}

// integer reads -?(0|[1-9][0-9]*), which must fit an int64.
func (p *bodyParser) integer() (any, error) {
	start := p.i
	if p.b[p.i] == '-' {
		p.i++
	}
	digits := p.i
	for p.i < len(p.b) && p.b[p.i] >= '0' && p.b[p.i] <= '9' {
		p.i++
	}
	switch {
	case p.i == digits:
		return nil, p.fail("no digits")
	case p.b[digits] == '0' && p.i-digits > 1:
		return nil, p.fail("leading zero")
	case p.i < len(p.b) && (p.b[p.i] == '.' || p.b[p.i] == 'e' || p.b[p.i] == 'E'):
		return nil, p.fail("not an integer")
	}
	n, err := strconv.ParseInt(string(p.b[start:p.i]), 10, 64)
	if err != nil {
		return nil, p.fail("integer out of range")
	}
	return n, nil
}

// str reads a string; the common one without escapes is one copy.
func (p *bodyParser) str() (any, error) {
	p.i++ // "
	start := p.i
	for p.i < len(p.b) {
		switch c := p.b[p.i]; {
		case c == '"':
			s := string(p.b[start:p.i])
			p.i++
			return s, nil
		case c == '\\':
			return p.escaped(start)
		case c < 0x20:
			return nil, p.fail("control character in string")
		}
		p.i++
	}
	return nil, p.fail("unterminated string")
}

// escaped finishes a string that has escapes, from its start.
func (p *bodyParser) escaped(start int) (any, error) {
	out := append([]byte(nil), p.b[start:p.i]...)
	for p.i < len(p.b) {
		c := p.b[p.i]
		switch {
		case c == '"':
			p.i++
			return string(out), nil
		case c < 0x20:
			return nil, p.fail("control character in string")
		case c != '\\':
			out = append(out, c)
			p.i++
			continue
		}
		if p.i+1 >= len(p.b) {
			break
		}
		e := p.b[p.i+1]
		p.i += 2
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
			r, ok := p.hex4()
			if !ok {
				return nil, p.fail("bad \\u escape")
			}
			if utf16.IsSurrogate(r) {
				// A pair makes one character; a lone half is U+FFFD, as
				// encoding/json reads it.
				r2 := rune(-1)
				if p.i+1 < len(p.b) && p.b[p.i] == '\\' && p.b[p.i+1] == 'u' {
					save := p.i
					p.i += 2
					var ok2 bool
					if r2, ok2 = p.hex4(); !ok2 {
						return nil, p.fail("bad \\u escape")
					}
					if utf16.DecodeRune(r, r2) == utf8.RuneError {
						p.i, r2 = save, -1
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
			return nil, p.fail("bad escape")
		}
	}
	return nil, p.fail("unterminated string")
}

// hex4 reads the four hex digits of a \u escape.
func (p *bodyParser) hex4() (rune, bool) {
	if len(p.b)-p.i < 4 {
		return 0, false
	}
	var r rune
	for _, c := range p.b[p.i : p.i+4] {
		switch {
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
	p.i += 4
	return r, true
}
