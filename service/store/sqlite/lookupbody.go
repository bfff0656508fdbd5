package sqlite

import (
	"errors"
	"fmt"

	"github.com/chipdesk/chipdesk/internal/jsonscan"
)

// parseBody reads a body of lookup rows: the JSON that SQLite's
// json_array and json_group_array write from column values, an array of
// rows, each an array of integers, strings and nulls (the record's
// columns hold no reals or blobs), and calls each with every row in
// turn. Values come out as the vals that database/sql's values make
// (valOf), so the record's column decoders (cols) read both; strings
// without escapes are slices of body, and bytes that are not UTF-8 are
// kept as SQLite stored them. The values of each row are appended to
// row[:0], which is reused for the next row: each decodes it and keeps
// no reference to the slice. A caller that passes a row as wide as its
// widest makes a body cost no allocation however many rows it holds (a
// slice per row was a third of the bytes a lookup allocated); nil is
// allowed.
//
// It exists because encoding/json, decoding into any, took a fifth of a
// lookup's time; it accepts exactly the JSON of that shape (RFC 8259
// section 2, without objects, reals, true and false), read by
// internal/jsonscan.
func parseBody(body string, row cols, each func(cols) error) error {
	s := jsonscan.New(body)
	s.KeepInvalidUTF8 = true
	var value func(int) error = func(int) error {
		var v val
		switch c := s.Peek(); {
		case c == '"':
			t, err := s.String()
			if err != nil {
				return err
			}
			v = val{s: t, kind: valText}
		case c == '-' || c >= '0' && c <= '9':
			n, err := s.Int64()
			if err != nil {
				return err
			}
			v = val{n: n, kind: valInt}
		case s.Null():
		default:
			return &jsonscan.Error{Offset: s.Pos(), Msg: "want an integer, a string or null"}
		}
		row = append(row, v)
		return nil
	}
	var eachErr error
	_, err := s.Array(func(int) error {
		row = row[:0]
		if _, err := s.Array(value); err != nil {
			return err
		}
		eachErr = each(row)
		return eachErr
	})
	if err == nil {
		err = s.End()
	}
	if err != nil && err != eachErr {
		return fmt.Errorf("%w: %w", errBodySyntax, err)
	}
	return err
}

// errBodySyntax is wrapped by every error of parseBody.
var errBodySyntax = errors.New("sqlite: lookup row: bad JSON")
