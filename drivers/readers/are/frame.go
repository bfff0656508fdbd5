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
	TypeASK64   = '2' // 64-bit ASK: EM4102 / EM4100
	TypeTrovan  = '3'
	TypeDestron = '5' // FDX-A / FECAVA
	TypeISOHDX  = '6'
)

// TrovanLen is the length in hex digits of a Trovan Unique, FDX-A or
// EM4102 code (40 bits).
const TrovanLen = 10

// Multitag is the first character of a MULTITAG output line, before
// the 16-hex code in air order.
const Multitag = 'Z' // MULTITAG line prefix

// Frame is a code line, or a stored record when Record is set.
type Frame struct {
	// Code is the 64-bit code in air order, as printed; for a 10-hex
	// code line (Trovan output) the 40-bit code.
	Code uint64
	// Short is set for a 10-hex code line, Z for a MULTITAG line.
	Short, Z bool

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
		switch {
		case f.Short && (f.Z || f.Code >= 1<<40):
			return nil, fmt.Errorf("%w: %+v", ErrField, f)
		case f.Short:
			return fmt.Appendf(nil, "%010X\r\n", f.Code), nil
		case f.Z:
			return fmt.Appendf(nil, "%c%016X\r\n", Multitag, f.Code), nil
		}
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
	var f Frame
	if len(s) == CodeLen+1 && s[0] == Multitag {
		f.Z, s = true, s[1:]
	}
	if len(s) == TrovanLen && !f.Z {
		f.Short = true
	} else if len(s) != CodeLen {
		return Frame{}, fmt.Errorf("%w: %q", ErrFraming, s)
	}
	if !readers.HexDigits(s) {
		return Frame{}, fmt.Errorf("%w: %q", ErrFraming, s)
	}
	f.Code, _ = strconv.ParseUint(string(s), 16, 64)
	return f, nil
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

// match finds a code at the end of a line: Z and 16 hex digits, 16 hex
// digits, or 10 hex digits after a character that is no hex digit (or
// at the start of the line), so that a damaged 16-hex line is never
// read as a short code.
func match(line []byte) (int, error) {
	n := len(line)
	switch {
	case n >= CodeLen+1 && line[n-CodeLen-1] == Multitag && readers.HexDigits(line[n-CodeLen:]):
		return n - CodeLen - 1, nil
	case n >= CodeLen && readers.HexDigits(line[n-CodeLen:]):
		return n - CodeLen, nil
	case n >= TrovanLen && readers.HexDigits(line[n-TrovanLen:]) && (n == TrovanLen || !readers.HexDigits(line[n-TrovanLen-1:n-TrovanLen])):
		return n - TrovanLen, nil
	}
	return -1, nil
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
