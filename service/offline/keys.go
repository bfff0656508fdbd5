package offline

import (
	"bytes"
	"fmt"

	"github.com/chipdesk/chipdesk/internal/jsonscan"
)

// readKeys sets k to the keys of the record line b, as json.Unmarshal
// into k would: the line must be valid JSON (RFC 8259), and only the
// animal's id, the chips' codes and the licences' tags are decoded, the
// rest checked and skipped (internal/jsonscan). encoding/json decodes
// every value of the line to find them, which was a sixth of a first
// pull's time.
//
// Members are matched as encoding/json matches them (exactly, else
// without regard to case); a value of the wrong type is an error.
// FuzzReadKeys checks it against json.Unmarshal.
func readKeys(b []byte, k *recordKeys) error {
	s := jsonscan.New(b)
	p := &s
	err := object(p, func(key []byte) error {
		switch {
		case member(key, "animal"):
			return object(p, func(key []byte) error {
				if member(key, "id") {
					return int64At(p, &k.Animal.ID)
				}
				return p.Skip()
			})
		case member(key, "chips"):
			return array(p, func() { k.Chips = nil }, func(i int) error {
				k.Chips = element(k.Chips, i)
				c := &k.Chips[i]
				return object(p, func(key []byte) error {
					if member(key, "code") {
						return stringAt(p, &c.Code)
					}
					return p.Skip()
				})
			}, func(n int) { k.Chips = sized(k.Chips, n) })
		case member(key, "licences"):
			return array(p, func() { k.Licences = nil }, func(i int) error {
				k.Licences = element(k.Licences, i)
				l := &k.Licences[i]
				return object(p, func(key []byte) error {
					switch {
					case member(key, "jurisdiction"):
						return stringAt(p, &l.Jurisdiction)
					case member(key, "year"):
						return intAt(p, &l.Year)
					case member(key, "tag_number"):
						return intAt(p, &l.TagNumber)
					}
					return p.Skip()
				})
			}, func(n int) { k.Licences = sized(k.Licences, n) })
		}
		return p.Skip()
	})
	if err == nil {
		err = s.End()
	}
	if err != nil {
		return fmt.Errorf("offline: a record line: %w", err)
	}
	return nil
}

// member reports whether a member's key names the field name, as
// encoding/json matches it.
func member(key []byte, name string) bool {
	return string(key) == name || bytes.EqualFold(key, []byte(name))
}

// object reads an object's members as jsonscan's Object does; null is
// no members, as encoding/json decodes it into a struct.
func object(s *jsonscan.Scanner[[]byte], fn func(key []byte) error) error {
	if s.Null() {
		return nil
	}
	return s.Object(fn)
}

// array calls null when the value is null, else fn with each element's
// index, at the element (fn consumes it), then end with their number.
func array(s *jsonscan.Scanner[[]byte], null func(), fn func(i int) error, end func(n int)) error {
	if s.Null() {
		null()
		return nil
	}
	n, err := s.Array(fn)
	if err == nil {
		end(n)
	}
	return err
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

func stringAt(s *jsonscan.Scanner[[]byte], dst *string) error {
	if s.Null() {
		return nil
	}
	t, err := s.String()
	if err == nil {
		*dst = string(t)
	}
	return err
}

func int64At(s *jsonscan.Scanner[[]byte], dst *int64) error {
	if s.Null() {
		return nil
	}
	n, err := s.Int64()
	if err == nil {
		*dst = n
	}
	return err
}

func intAt(s *jsonscan.Scanner[[]byte], dst *int) error {
	var n int64
	if s.Null() {
		return nil
	}
	if err := int64At(s, &n); err != nil {
		return err
	}
	if int64(int(n)) != n {
		return fmt.Errorf("offline: a record key out of range: %d", n)
	}
	*dst = int(n)
	return nil
}
