package rt100

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/chipdesk/chipdesk/drivers/readers"
)

// Errors of Decode.
var (
	ErrFraming = errors.New("rt100: not a frame")
	ErrCRC     = errors.New("rt100: bad CRC")
	ErrField   = errors.New("rt100: bad field")
)

// Lengths of the fields.
const (
	TypeLen = 8
	IDLen   = 16
	Size    = 1 + TypeLen + IDLen + 1 + 4 // without the CR
)

// Chip types as the scanner names them (see the package documentation).
const (
	TypeFDXB   = "FDX-B"
	TypeHDX    = "HDX"
	TypeFDXA   = "FDX-A"
	TypeAVID   = "AVID"
	TypeTrovan = "TROVAN"
	TypeISO    = "ISO"
)

// Frame is one read.
type Frame struct {
	Type string // chip type, trailing spaces removed
	ID   string // chip identifier, trailing spaces removed
	// Record is set for a frame dumped from memory; Index is its record
	// number.
	Record bool
	Index  string
}

// CRC returns the CRC-16/AUG-CCITT of b.
func CRC(b []byte) uint16 {
	crc := uint16(0x1D0F)
	for _, x := range b {
		crc ^= uint16(x) << 8
		for range 8 {
			if crc&0x8000 != 0 {
				crc = crc<<1 ^ 0x1021
			} else {
				crc <<= 1
			}
		}
	}
	return crc
}

// Line returns the frame for f without its CR.
func Line(f Frame) ([]byte, error) {
	if len(f.Type) > TypeLen || len(f.ID) > IDLen || f.ID == "" || !readers.Printable(f.Type) || !readers.Printable(f.ID) ||
		strings.ContainsAny(f.Type+f.ID, "*") {
		return nil, fmt.Errorf("%w: type %q, id %q", ErrField, f.Type, f.ID)
	}
	var b []byte
	if f.Record {
		if len(f.Index) != 4 || !readers.Printable(f.Index) {
			return nil, fmt.Errorf("%w: record number %q", ErrField, f.Index)
		}
		b = append(b, 0xAA)
		b = append(b, f.Index...)
		b = append(b, '*')
	}
	body := fmt.Appendf(nil, "%-8s%-16s", f.Type, f.ID)
	b = append(b, 'U')
	b = append(b, body...)
	return fmt.Appendf(b, "*%04X", CRC(body)), nil
}

// Encode returns the bytes the scanner sends for f: the frame and CR.
func Encode(f Frame) ([]byte, error) {
	b, err := Line(f)
	if err != nil {
		return nil, err
	}
	return append(b, '\r'), nil
}

// Decode parses one frame, with or without its CR, and checks its CRC.
func Decode(line []byte) (Frame, error) {
	b := readers.TrimEOL(line)
	var f Frame
	if len(b) > 0 && b[0] == 0xAA {
		if len(b) < 6 || b[5] != '*' || !readers.Printable(b[1:5]) {
			return Frame{}, fmt.Errorf("%w: bad record prefix", ErrFraming)
		}
		f.Record, f.Index = true, string(b[1:5])
		b = b[6:]
	}
	if len(b) != Size || b[0] != 'U' || b[Size-5] != '*' {
		return Frame{}, fmt.Errorf("%w: %q", ErrFraming, b)
	}
	body := b[1 : 1+TypeLen+IDLen]
	if !readers.Printable(body) {
		return Frame{}, fmt.Errorf("%w: %q", ErrFraming, b)
	}
	got, err := strconv.ParseUint(string(b[Size-4:]), 16, 16)
	if err != nil || !upperHex(b[Size-4:]) {
		return Frame{}, fmt.Errorf("%w: CRC field %q", ErrFraming, b[Size-4:])
	}
	if want := CRC(body); uint16(got) != want {
		return Frame{}, fmt.Errorf("%w: got %04X, want %04X", ErrCRC, got, want)
	}
	f.Type = strings.TrimRight(string(body[:TypeLen]), " ")
	f.ID = strings.TrimRight(string(body[TypeLen:]), " ")
	if f.ID == "" {
		return Frame{}, fmt.Errorf("%w: empty identifier", ErrField)
	}
	return f, nil
}

func upperHex(b []byte) bool {
	for _, c := range b {
		if !('0' <= c && c <= '9' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}

// match finds a frame (or a memory record) at the end of a line. A
// frame-shaped tail with a wrong CRC is reported as a bad frame.
func match(line []byte) (int, error) {
	start := len(line) - Size
	if start < 0 || line[start] != 'U' {
		return -1, nil
	}
	if start >= 6 && line[start-6] == 0xAA && line[start-1] == '*' {
		start -= 6
	}
	if _, err := Decode(line[start:]); err != nil {
		if errors.Is(err, ErrCRC) {
			return start, err
		}
		return -1, nil
	}
	return start, nil
}

// Split cuts frames out of a byte stream (a readers.SplitFunc).
func Split(buf []byte) (int, error) { return readers.SplitLine(buf, 128, match) }
