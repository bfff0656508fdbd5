package rfidrw

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/chipdesk/chipdesk/drivers/readers"
)

// Errors of Decode.
var (
	ErrFraming = errors.New("rfidrw: not a tag line")
	ErrField   = errors.New("rfidrw: bad field")
)

// Frame is a tag line: the plain form, or the RAT reply form when RAT
// is set.
type Frame struct {
	Country  uint16
	National uint64

	RAT       bool   // the RAT reply form, with the fields below
	Animal    bool   // animal flag
	DataBlock bool   // data-block flag
	CRC       uint16 // the tag's ISO 11785 CRC as read
	Ext       uint32 // 24-bit extension
}

// Line returns the tag line for f without its CR.
func Line(f Frame) ([]byte, error) {
	if f.Country > 999 || f.National > 999999999999 || f.Ext >= 1<<24 {
		return nil, fmt.Errorf("%w: %d %d %#x out of range", ErrField, f.Country, f.National, f.Ext)
	}
	b := fmt.Appendf(nil, "%03d_%012d", f.Country, f.National)
	if f.RAT {
		b = fmt.Appendf(b, "_%c_%c_%04X_%06X", bit(f.Animal), bit(f.DataBlock), f.CRC, f.Ext)
	}
	return b, nil
}

// Encode returns the bytes the reader sends for f: the line and CR.
func Encode(f Frame) ([]byte, error) {
	b, err := Line(f)
	if err != nil {
		return nil, err
	}
	return append(b, '\r'), nil
}

func bit(v bool) byte {
	if v {
		return '1'
	}
	return '0'
}

// Decode parses a tag line, with or without its line end.
func Decode(line []byte) (Frame, error) {
	s := string(readers.TrimEOL(line))
	if len(s) != 16 && len(s) != 32 {
		return Frame{}, fmt.Errorf("%w: %q", ErrFraming, s)
	}
	if s[3] != '_' || !isDigits(s[:3]) || !isDigits(s[4:16]) {
		return Frame{}, fmt.Errorf("%w: %q", ErrFraming, s)
	}
	c, _ := strconv.ParseUint(s[:3], 10, 16)
	n, _ := strconv.ParseUint(s[4:16], 10, 64)
	f := Frame{Country: uint16(c), National: n}
	if len(s) == 16 {
		return f, nil
	}
	if s[16] != '_' || s[18] != '_' || s[20] != '_' || s[25] != '_' ||
		!isFlag(s[17]) || !isFlag(s[19]) || !readers.HexDigits(s[21:25]) || !readers.HexDigits(s[26:32]) {
		return Frame{}, fmt.Errorf("%w: %q", ErrFraming, s)
	}
	crc, _ := strconv.ParseUint(s[21:25], 16, 16)
	ext, _ := strconv.ParseUint(s[26:32], 16, 32)
	f.RAT, f.Animal, f.DataBlock, f.CRC, f.Ext = true, s[17] == '1', s[19] == '1', uint16(crc), uint32(ext)
	return f, nil
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func isFlag(c byte) bool { return c == '0' || c == '1' }

// Status is a status reply: "OK" is 0 with OK set, "?n" is n.
type Status struct {
	OK   bool
	Code int // 0..4 for "?0".."?4"
}

// ParseStatus parses a status reply line.
func ParseStatus(line []byte) (Status, bool) {
	s := string(readers.TrimEOL(line))
	switch {
	case s == "OK":
		return Status{OK: true}, true
	case len(s) == 2 && s[0] == '?' && '0' <= s[1] && s[1] <= '9':
		return Status{Code: int(s[1] - '0')}, true
	}
	return Status{}, false
}

// match: a tag line at the end of a line (after noise), else any
// printable line is a reply (status, version, other tag types), else
// garbage.
func match(line []byte) (int, error) {
	for _, n := range []int{32, 16} {
		if len(line) >= n {
			if _, err := Decode(line[len(line)-n:]); err == nil {
				return len(line) - n, nil
			}
		}
	}
	if len(line) == 0 || len(line) > 64 {
		return -1, nil
	}
	for _, c := range line {
		if c < 0x20 || c > 0x7E {
			return -1, nil
		}
	}
	return 0, nil
}

// Split cuts lines out of a byte stream (a readers.SplitFunc).
func Split(buf []byte) (int, error) { return readers.SplitLine(buf, 80, match) }
