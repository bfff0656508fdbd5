package sqlite

import (
	"errors"
	"fmt"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// parseBody reads a body of lookup rows: the JSON that SQLite's
// json_array and json_group_array write from column values, an array of
// rows, each an array of integers, strings and nulls (the record's
// columns hold no reals or blobs), and calls each with every row in
// turn. Values come out as the vals that database/sql's values make
// (valOf), so the record's column decoders (cols) read both; strings
// without escapes are slices of body. The values of each row are
// appended to row[:0], which is reused for the next row: each decodes
// it and keeps no reference to the slice. A caller that passes a row as
// wide as its widest makes a body cost no allocation however many rows
// it holds (a slice per row was a third of the bytes a lookup
// allocated); nil is allowed.
//
// It exists because encoding/json, decoding into any, took a fifth of a
// lookup's time; it accepts exactly the JSON of that shape (RFC 8259
// section 2, without objects, reals, true and false).
func parseBody(body string, row cols, each func(cols) error) error {
	p := bodyParser{b: body}
	p.space()
	if !p.take('[') {
		return p.fail("want [")
	}
	p.space()
	if p.take(']') {
		return p.end()
	}
	for {
		p.space()
		if !p.take('[') {
			return p.fail("want a row")
		}
		var err error
		if row, err = p.row(row[:0]); err != nil {
			return err
		}
		if err := each(row); err != nil {
			return err
		}
		p.space()
		switch {
		case p.take(','):
		case p.take(']'):
			return p.end()
		default:
			return p.fail("want , or ]")
		}
	}
}

// errBodySyntax is wrapped by every error of parseBody.
var errBodySyntax = errors.New("sqlite: lookup row: bad JSON")

type bodyParser struct {
	b string
	i int
}

func (p *bodyParser) fail(what string) error {
	return fmt.Errorf("%w at byte %d: %s", errBodySyntax, p.i, what)
}

// take consumes c when it is next.
func (p *bodyParser) take(c byte) bool {
	if p.i < len(p.b) && p.b[p.i] == c {
		p.i++
		return true
	}
	return false
}

// end checks that only white space follows.
func (p *bodyParser) end() error {
	p.space()
	if p.i != len(p.b) {
		return p.fail("text after the value")
	}
	return nil
}

// row appends the values of a row after its [ to out.
func (p *bodyParser) row(out cols) (cols, error) {
	p.space()
	if p.take(']') {
		return out, nil
	}
	for {
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		out = append(out, v)
		p.space()
		switch {
		case p.take(','):
		case p.take(']'):
			return out, nil
		default:
			return nil, p.fail("want , or ]")
		}
	}
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

func (p *bodyParser) value() (val, error) {
	p.space()
	if p.i >= len(p.b) {
		return val{}, p.fail("unexpected end")
	}
	switch c := p.b[p.i]; {
	case c == '"':
		s, err := p.str()
		return val{s: s, kind: valText}, err
	case c == 'n':
		if len(p.b)-p.i >= 4 && p.b[p.i:p.i+4] == "null" {
			p.i += 4
			return val{}, nil
		}
		return val{}, p.fail("bad literal")
	case c == '-' || (c >= '0' && c <= '9'):
		n, err := p.integer()
		return val{n: n, kind: valInt}, err
	}
	return val{}, p.fail("unexpected character")
}

// integer reads -?(0|[1-9][0-9]*), which must fit an int64.
func (p *bodyParser) integer() (int64, error) {
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
		return 0, p.fail("no digits")
	case p.b[digits] == '0' && p.i-digits > 1:
		return 0, p.fail("leading zero")
	case p.i < len(p.b) && (p.b[p.i] == '.' || p.b[p.i] == 'e' || p.b[p.i] == 'E'):
		return 0, p.fail("not an integer")
	}
	n, err := strconv.ParseInt(p.b[start:p.i], 10, 64)
	if err != nil {
		return 0, p.fail("integer out of range")
	}
	return n, nil
}

// str reads a string; the common one without escapes is a slice of the
// body.
func (p *bodyParser) str() (string, error) {
	p.i++ // "
	start := p.i
	for p.i < len(p.b) {
		switch c := p.b[p.i]; {
		case c == '"':
			s := p.b[start:p.i]
			p.i++
			return s, nil
		case c == '\\':
			return p.escaped(start)
		case c < 0x20:
			return "", p.fail("control character in string")
		}
		p.i++
	}
	return "", p.fail("unterminated string")
}

// escaped finishes a string that has escapes, from its start.
func (p *bodyParser) escaped(start int) (string, error) {
	out := append([]byte(nil), p.b[start:p.i]...)
	for p.i < len(p.b) {
		c := p.b[p.i]
		switch {
		case c == '"':
			p.i++
			return string(out), nil
		case c < 0x20:
			return "", p.fail("control character in string")
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
				return "", p.fail("bad \\u escape")
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
						return "", p.fail("bad \\u escape")
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
			return "", p.fail("bad escape")
		}
	}
	return "", p.fail("unterminated string")
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
