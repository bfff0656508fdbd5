package iso24631

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/chipdesk/chipdesk/drivers/readers"
)

// STX starts every line (ISO 24631-6 clause 4.3).
const STX = 0x02

// Errors of Decode.
var (
	ErrFraming = errors.New("iso24631: not an identification line")
	ErrField   = errors.New("iso24631: bad field")
)

// Frame is one line.
type Frame struct {
	Country  uint16
	National uint64
	// Extra is set when the line carries the three fields below.
	Extra      bool
	Retag      uint8  // retagging counter, 0..7
	UserInfo   uint8  // user information field, 0..31
	Additional uint16 // additional information value, 0..999
}

const (
	baseLen  = 1 + 3 + 1 + 12
	extraLen = baseLen + 2 + 3 + 4
)

// Line returns the line for f without its CR LF.
func Line(f Frame) ([]byte, error) {
	if f.Country > 999 || f.National > 999999999999 || f.Retag > 7 || f.UserInfo > 31 || f.Additional > 999 {
		return nil, fmt.Errorf("%w: %+v", ErrField, f)
	}
	b := fmt.Appendf([]byte{STX}, "%03d %012d", f.Country, f.National)
	if f.Extra {
		b = fmt.Appendf(b, " %d %02d %03d", f.Retag, f.UserInfo, f.Additional)
	}
	return b, nil
}

// Encode returns the bytes the reader sends for f: the line and CR LF.
func Encode(f Frame) ([]byte, error) {
	b, err := Line(f)
	if err != nil {
		return nil, err
	}
	return append(b, '\r', '\n'), nil
}

// Decode parses one line, with or without its line end.
func Decode(line []byte) (Frame, error) {
	s := string(readers.TrimEOL(line))
	if (len(s) != baseLen && len(s) != extraLen) || s[0] != STX || s[4] != ' ' ||
		!readers.Digits(s[1:4]) || !readers.Digits(s[5:17]) {
		return Frame{}, fmt.Errorf("%w: %q", ErrFraming, s)
	}
	c, _ := strconv.ParseUint(s[1:4], 10, 16)
	n, _ := strconv.ParseUint(s[5:17], 10, 64)
	f := Frame{Country: uint16(c), National: n}
	if len(s) == baseLen {
		return f, nil
	}
	if s[17] != ' ' || s[19] != ' ' || s[22] != ' ' || !readers.Digits(s[18:19]) || !readers.Digits(s[20:22]) || !readers.Digits(s[23:26]) {
		return Frame{}, fmt.Errorf("%w: %q", ErrFraming, s)
	}
	r, _ := strconv.ParseUint(s[18:19], 10, 8)
	u, _ := strconv.ParseUint(s[20:22], 10, 8)
	a, _ := strconv.ParseUint(s[23:26], 10, 16)
	if r > 7 || u > 31 {
		return Frame{}, fmt.Errorf("%w: retag %d, user information %d", ErrField, r, u)
	}
	f.Extra, f.Retag, f.UserInfo, f.Additional = true, uint8(r), uint8(u), uint16(a)
	return f, nil
}

// match finds a line at the end of a line: at its last STX.
func match(line []byte) (int, error) {
	for i := len(line) - baseLen; i >= 0; i-- {
		if line[i] == STX {
			if _, err := Decode(line[i:]); err == nil {
				return i, nil
			}
			return -1, nil
		}
	}
	return -1, nil
}

// Split cuts lines out of a byte stream (a readers.SplitFunc).
func Split(buf []byte) (int, error) { return readers.SplitLine(buf, 128, match) }
