package offline

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"unicode/utf8"
)

// readKeys sets k to the keys of the record line b, as json.Unmarshal
// into k would: the line must be valid JSON (RFC 8259), and only the
// animal's id, the chips' codes and the licences' tags are decoded, the
// rest skipped. encoding/json decodes every value of the line to find
// them, which was a sixth of a first pull's time.
//
// Members are matched as encoding/json matches them (exactly, else
// without regard to case); a key or string with an escape or invalid
// UTF-8 is read by encoding/json itself; a value of the wrong type is
// an error. FuzzReadKeys checks it against json.Unmarshal.
func readKeys(b []byte, k *recordKeys) error {
	if !json.Valid(b) {
		return errors.New("offline: a record line that is not JSON")
	}
	p := keyParser{b: b}
	return p.object(func(key []byte) error {
		switch {
		case member(key, "animal"):
			return p.object(func(key []byte) error {
				if member(key, "id") {
					return p.int64(&k.Animal.ID)
				}
				return p.skip()
			})
		case member(key, "chips"):
			return p.array(func() { k.Chips = nil }, func(i int) error {
				k.Chips = element(k.Chips, i)
				c := &k.Chips[i]
				return p.object(func(key []byte) error {
					if member(key, "code") {
						return p.string(&c.Code)
					}
					return p.skip()
				})
			}, func(n int) { k.Chips = sized(k.Chips, n) })
		case member(key, "licences"):
			return p.array(func() { k.Licences = nil }, func(i int) error {
				k.Licences = element(k.Licences, i)
				l := &k.Licences[i]
				return p.object(func(key []byte) error {
					switch {
					case member(key, "jurisdiction"):
						return p.string(&l.Jurisdiction)
					case member(key, "year"):
						return p.int(&l.Year)
					case member(key, "tag_number"):
						return p.int(&l.TagNumber)
					}
					return p.skip()
				})
			}, func(n int) { k.Licences = sized(k.Licences, n) })
		}
		return p.skip()
	})
}

// member reports whether a member's key names the field name, as
// encoding/json matches it.
func member(key []byte, name string) bool {
	return string(key) == name || bytes.EqualFold(key, []byte(name))
}

// keyParser walks JSON that json.Valid accepted.
type keyParser struct {
	b []byte
	i int
}

func (p *keyParser) space() {
	for p.i < len(p.b) {
		switch p.b[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

// peek is the next byte after white space.
func (p *keyParser) peek() byte {
	p.space()
	return p.b[p.i]
}

var errKeyType = errors.New("offline: a record key of the wrong type")

// null consumes a null when it is next.
func (p *keyParser) null() bool {
	if p.peek() == 'n' {
		p.i += len("null")
		return true
	}
	return false
}

// object calls fn with each member's key, at its value; fn consumes the
// value. null is no members; another value is an error.
func (p *keyParser) object(fn func(key []byte) error) error {
	if p.null() {
		return nil
	}
	if p.peek() != '{' {
		return errKeyType
	}
	p.i++
	if p.peek() == '}' {
		p.i++
		return nil
	}
	for {
		key, err := p.text()
		if err != nil {
			return err
		}
		p.space()
		p.i++ // ':'
		if err := fn(key); err != nil {
			return err
		}
		if p.peek() == '}' {
			p.i++
			return nil
		}
		p.i++ // ','
	}
}

// array calls null when the value is null, else fn with each element's
// index, at the element (fn consumes it), then end with their number.
// Another value is an error.
func (p *keyParser) array(null func(), fn func(i int) error, end func(n int)) error {
	if p.null() {
		null()
		return nil
	}
	if p.peek() != '[' {
		return errKeyType
	}
	p.i++
	if p.peek() == ']' {
		p.i++
		end(0)
		return nil
	}
	for i := 0; ; i++ {
		if err := fn(i); err != nil {
			return err
		}
		if p.peek() == ']' {
			p.i++
			end(i + 1)
			return nil
		}
		p.i++ // ','
	}
}

// element makes s long enough for element i, as encoding/json does: an
// element within its capacity is decoded into as it stands (a list given
// twice in a line), one past it is new.
func element[T any](s []T, i int) []T {
	if i < len(s) {
		return s
	}
	if i < cap(s) {
		return s[:i+1]
	}
	var zero T
	return append(s, zero)
}

// sized is a decoded list of n elements, as encoding/json leaves it: an
// empty one is a new empty list.
func sized[T any](s []T, n int) []T {
	if n == 0 {
		return []T{}
	}
	return s[:n]
}

// text reads a string's text: its bytes when they need no decoding,
// else as encoding/json decodes it.
func (p *keyParser) text() ([]byte, error) {
	if p.peek() != '"' {
		return nil, errKeyType
	}
	start := p.i
	p.i++
	plain := true
	for {
		c := p.b[p.i]
		p.i++
		if c == '"' {
			break
		}
		if c == '\\' {
			plain = false
			p.i++
		} else if c >= utf8.RuneSelf {
			plain = false
		}
	}
	tok := p.b[start:p.i]
	if plain || utf8.Valid(tok) && !bytes.ContainsRune(tok, '\\') {
		return tok[1 : len(tok)-1], nil
	}
	var s string
	if err := json.Unmarshal(tok, &s); err != nil {
		return nil, err
	}
	return []byte(s), nil
}

func (p *keyParser) string(dst *string) error {
	if p.null() {
		return nil
	}
	t, err := p.text()
	if err == nil {
		*dst = string(t)
	}
	return err
}

// number reads a number's literal.
func (p *keyParser) number() ([]byte, error) {
	switch c := p.peek(); {
	case c == '-' || c >= '0' && c <= '9':
	default:
		return nil, errKeyType
	}
	start := p.i
	for p.i < len(p.b) {
		c := p.b[p.i]
		if c != '-' && c != '+' && c != '.' && c != 'e' && c != 'E' && (c < '0' || c > '9') {
			break
		}
		p.i++
	}
	return p.b[start:p.i], nil
}

func (p *keyParser) int64(dst *int64) error {
	if p.null() {
		return nil
	}
	lit, err := p.number()
	if err != nil {
		return err
	}
	n, err := strconv.ParseInt(string(lit), 10, 64)
	if err != nil {
		return fmt.Errorf("%w: %s", errKeyType, lit)
	}
	*dst = n
	return nil
}

func (p *keyParser) int(dst *int) error {
	var n int64
	if p.null() {
		return nil
	}
	if err := p.int64(&n); err != nil {
		return err
	}
	if int64(int(n)) != n {
		return fmt.Errorf("%w: %d", errKeyType, n)
	}
	*dst = int(n)
	return nil
}

// skip consumes one value of any kind.
func (p *keyParser) skip() error {
	switch p.peek() {
	case '"':
		_, err := p.text()
		return err
	case '{', '[':
		depth := 0
		for {
			switch p.b[p.i] {
			case '"':
				if _, err := p.text(); err != nil {
					return err
				}
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
			}
			p.i++
			if depth == 0 {
				return nil
			}
		}
	}
	// A number, true, false or null: up to the next delimiter.
	for p.i < len(p.b) {
		switch p.b[p.i] {
		case ',', '}', ']', ' ', '\t', '\n', '\r':
			return nil
		}
		p.i++
	}
	return nil
}
