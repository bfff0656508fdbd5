package are

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"

	"github.com/chipdesk/chipdesk/drivers/readers"
)

// Errors of Decode.
var (
	ErrFraming = errors.New("are: not a code line or record")
	ErrField   = errors.New("are: bad field")
)

// Frame bytes and lengths.
const (
	STX        = 0x02
	ETX        = 0x03
	CodeLen    = 16
	RecordLen  = 1 + 12 + 1 + CodeLen + 1 + 14 + 4 // between STX and ETX
	recordSize = RecordLen + 2
)

// Transponder types of a record.
const (
	TypeUnknown = '0'
	TypeISOFDX  = '1'
	TypeISOHDX  = '6'
)

// Frame is a code line, or a stored record when Record is set.
type Frame struct {
	// Code is the 64-bit code in air order, as printed.
	Code uint64

	Record    bool
	Attribute byte   // '#' or 'A'..'Z'
	Stamp     string // YYMMDDhhmmss as stored
	Length    int    // code length in nibbles, 1..16
	Type      byte   // transponder type character
	Text      string // 14 characters
	CRC       uint16 // as stored; not verified
}

// Encode returns the bytes the reader sends for f: a code line with CR
// LF, or an STX … ETX record.
func Encode(f Frame) ([]byte, error) {
	if !f.Record {
		return fmt.Appendf(nil, "%016X\r\n", f.Code), nil
	}
	if f.Length < 1 || f.Length > 16 || len(f.Stamp) != 12 || !readers.Digits(f.Stamp) || len(f.Text) != 14 ||
		!readers.Printable(f.Text) || !readers.Printable([]byte{f.Attribute, f.Type}) {
		return nil, fmt.Errorf("%w: %+v", ErrField, f)
	}
	b := []byte{STX, f.Attribute}
	b = append(b, f.Stamp...)
	b = append(b, "0123456789ABCDEF"[f.Length-1])
	b = fmt.Appendf(b, "%016X%c%s%04X", f.Code, f.Type, f.Text, f.CRC)
	return append(b, ETX), nil
}

// Decode parses a code line (with or without its line end) or a record
// (with its STX and ETX).
func Decode(b []byte) (Frame, error) {
	if len(b) > 0 && b[0] == STX {
		return decodeRecord(b)
	}
	s := readers.TrimEOL(b)
	if len(s) != CodeLen || !readers.HexDigits(s) {
		return Frame{}, fmt.Errorf("%w: %q", ErrFraming, s)
	}
	v, _ := strconv.ParseUint(string(s), 16, 64)
	return Frame{Code: v}, nil
}

func decodeRecord(b []byte) (Frame, error) {
	if len(b) != recordSize || b[len(b)-1] != ETX {
		return Frame{}, fmt.Errorf("%w: record of %d bytes", ErrFraming, len(b))
	}
	r := b[1 : len(b)-1]
	f := Frame{Record: true, Attribute: r[0], Stamp: string(r[1:13]), Type: r[30], Text: string(r[31:45])}
	if !readers.Printable(r) || !readers.Digits(f.Stamp) {
		return Frame{}, fmt.Errorf("%w: record %q", ErrFraming, r)
	}
	n, err := strconv.ParseUint(string(r[13:14]), 16, 8)
	if err != nil || !readers.HexDigits(r[14:30]) || !readers.HexDigits(r[45:49]) {
		return Frame{}, fmt.Errorf("%w: record %q", ErrField, r)
	}
	f.Length = int(n) + 1
	f.Code, _ = strconv.ParseUint(string(r[14:30]), 16, 64)
	crc, _ := strconv.ParseUint(string(r[45:49]), 16, 16)
	f.CRC = uint16(crc)
	return f, nil
}

// match finds a 16-hex code at the end of a line.
func match(line []byte) (int, error) {
	start := len(line) - CodeLen
	if start < 0 || !readers.HexDigits(line[start:]) {
		return -1, nil
	}
	return start, nil
}

// Split cuts code lines and records out of a byte stream (a
// readers.SplitFunc).
func Split(buf []byte) (int, error) {
	if len(buf) > 0 && buf[0] == STX {
		// Records are printable: a line end before the ETX means this
		// STX was noise.
		if i := bytes.IndexAny(buf[1:min(len(buf), recordSize)], "\r\n"); i >= 0 {
			return 1, fmt.Errorf("%w: STX followed by a line end", readers.ErrGarbage)
		}
		if len(buf) < recordSize {
			return 0, nil
		}
		if _, err := decodeRecord(buf[:recordSize]); err != nil {
			return 1, fmt.Errorf("%w: %w", readers.ErrGarbage, err)
		}
		return recordSize, nil
	}
	// A line stops at an STX too, so that a record right after noise is
	// still found.
	for i, c := range buf {
		if c == STX && i > 0 {
			if n, err := readers.SplitLine(buf[:i], 64, match); n > 0 {
				return n, err
			}
			return i, fmt.Errorf("%w: %q before STX", readers.ErrGarbage, buf[:i])
		}
		if c == '\r' || c == '\n' {
			break
		}
	}
	return readers.SplitLine(buf, 64, match)
}
