package allflex

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/chipdesk/chipdesk/drivers/readers"
)

// Errors of Decode.
var (
	ErrFraming = errors.New("allflex: not a tag line")
	ErrField   = errors.New("allflex: bad field")
)

// Frame is the content of one tag line.
type Frame struct {
	// Industrial is true for an "LR" line; then App and ID16 are set and
	// Country and National are not.
	Industrial bool
	App        string // 4-digit application code of an industrial tag
	ID16       string // 16-digit industrial tag number

	Country  uint16 // country or manufacturer code, 3 digits
	National uint64 // national ID, 12 digits

	// TIRIS is true for the TIRIS S2000-style line, which carries the
	// reserved field and the data-block flag.
	TIRIS     bool
	Reserved  uint32 // 5 digits
	DataBlock bool
}

// Line returns the tag line for f without its CR LF.
func Line(f Frame) ([]byte, error) {
	switch {
	case f.Industrial:
		if !digits(f.App, 4) || !digits(f.ID16, 16) {
			return nil, fmt.Errorf("%w: industrial %q %q", ErrField, f.App, f.ID16)
		}
		return fmt.Appendf(nil, "LR %s %s", f.App, f.ID16), nil
	case f.Country > 999 || f.National > 999999999999 || f.Reserved > 99999:
		return nil, fmt.Errorf("%w: %d %d %d out of range", ErrField, f.Country, f.National, f.Reserved)
	case f.TIRIS:
		db := 0
		if f.DataBlock {
			db = 1
		}
		return fmt.Appendf(nil, "LA %05d %d %03d %012d", f.Reserved, db, f.Country, f.National), nil
	}
	return fmt.Appendf(nil, "LA %03d %012d", f.Country, f.National), nil
}

// Encode returns the bytes the reader sends for f: the line and CR LF.
func Encode(f Frame) ([]byte, error) {
	b, err := Line(f)
	if err != nil {
		return nil, err
	}
	return append(b, '\r', '\n'), nil
}

// Decode parses one tag line, with or without its line end.
func Decode(line []byte) (Frame, error) {
	s := string(readers.TrimEOL(line))
	switch {
	case len(s) == 19 && s[:3] == "LA " && s[6] == ' ':
		c, n, err := code(s[3:6], s[7:])
		return Frame{Country: c, National: n}, err
	case len(s) == 27 && s[:3] == "LA " && s[8] == ' ' && s[10] == ' ' && s[14] == ' ':
		if !digits(s[3:8], 5) || (s[9] != '0' && s[9] != '1') {
			return Frame{}, fmt.Errorf("%w: %q", ErrField, s)
		}
		r, _ := strconv.ParseUint(s[3:8], 10, 32)
		c, n, err := code(s[11:14], s[15:])
		return Frame{TIRIS: true, Reserved: uint32(r), DataBlock: s[9] == '1', Country: c, National: n}, err
	case len(s) == 24 && s[:3] == "LR " && s[7] == ' ':
		if !digits(s[3:7], 4) || !digits(s[8:], 16) {
			return Frame{}, fmt.Errorf("%w: %q", ErrField, s)
		}
		return Frame{Industrial: true, App: s[3:7], ID16: s[8:]}, nil
	}
	return Frame{}, fmt.Errorf("%w: %q", ErrFraming, s)
}

func code(c, n string) (uint16, uint64, error) {
	if !digits(c, 3) || !digits(n, 12) {
		return 0, 0, fmt.Errorf("%w: %q %q", ErrField, c, n)
	}
	cc, _ := strconv.ParseUint(c, 10, 16)
	nn, _ := strconv.ParseUint(n, 10, 64)
	return uint16(cc), nn, nil
}

// digits reports whether s is n decimal digits.
func digits(s string, n int) bool { return len(s) == n && readers.Digits(s) }

// match finds a tag line at the end of line; anything before it is
// noise.
func match(line []byte) (int, error) {
	for i := 0; i+1 < len(line); i++ {
		if line[i] == 'L' && (line[i+1] == 'A' || line[i+1] == 'R') {
			if _, err := Decode(line[i:]); err == nil {
				return i, nil
			}
		}
	}
	return -1, nil
}

// Split cuts tag lines out of a byte stream (a readers.SplitFunc).
func Split(buf []byte) (int, error) { return readers.SplitLine(buf, 64, match) }
