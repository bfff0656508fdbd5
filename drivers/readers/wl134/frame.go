package wl134

import (
	"errors"
	"fmt"

	"github.com/chipdesk/chipdesk/drivers/readers"
)

// Size is the length of a frame in bytes.
const Size = 30

// Frame bytes. The end byte is always 0x03: the CZSTAR-R134 frame table
// and Rfid134's parser know no other (an 0x07 "HDX" end byte that an
// earlier version accepted is refused).
const (
	STX = 0x02
	ETX = 0x03
)

// Errors of Decode.
var (
	ErrLength   = errors.New("wl134: frame is not 30 bytes")
	ErrFraming  = errors.New("wl134: bad start or end byte")
	ErrField    = errors.New("wl134: bad field")
	ErrChecksum = errors.New("wl134: bad checksum")
)

// Frame is the content of one frame.
type Frame struct {
	National  uint64 // ISO 11784 national ID, 38 bits
	Country   uint16 // ISO 11784 country or manufacturer code, 10 bits
	DataBlock bool   // ISO 11784 data-block flag
	Animal    bool   // ISO 11784 animal flag
	Reserved  uint16 // 4 reserved hex digits
	Ext       uint32 // 6 reserved hex digits, probably the extension block
}

// Field limits: ISO 11784 gives 38 bits to the national ID and 10 to
// the country code.
const (
	MaxNational = 1<<38 - 1
	MaxCountry  = 1<<10 - 1
)

// Encode returns the 30 bytes of f. It fails when a field does not fit.
func Encode(f Frame) ([]byte, error) {
	if f.National > MaxNational || f.Country > MaxCountry || f.Ext >= 1<<24 {
		return nil, fmt.Errorf("%w: national %d, country %d, ext %#x out of range", ErrField, f.National, f.Country, f.Ext)
	}
	b := make([]byte, Size)
	b[0] = STX
	putHexLSB(b[1:11], f.National)
	putHexLSB(b[11:15], uint64(f.Country))
	b[15] = flag(f.DataBlock)
	b[16] = flag(f.Animal)
	putHexLSB(b[17:21], uint64(f.Reserved))
	putHexLSB(b[21:27], uint64(f.Ext))
	b[27] = checksum(b)
	b[28] = ^b[27]
	b[29] = ETX
	return b, nil
}

// Decode parses one 30-byte frame, checking start and end bytes, the
// fields, the XOR checksum and its inverse.
func Decode(b []byte) (Frame, error) {
	if len(b) != Size {
		return Frame{}, fmt.Errorf("%w: %d bytes", ErrLength, len(b))
	}
	if err := shape(b); err != nil {
		return Frame{}, err
	}
	if c := checksum(b); b[27] != c || b[28] != ^c {
		return Frame{}, fmt.Errorf("%w: got %02X %02X, want %02X %02X", ErrChecksum, b[27], b[28], c, ^c)
	}
	f := Frame{
		National:  hexLSB(b[1:11]),
		Country:   uint16(hexLSB(b[11:15])),
		DataBlock: b[15] == '1',
		Animal:    b[16] == '1',
		Reserved:  uint16(hexLSB(b[17:21])),
		Ext:       uint32(hexLSB(b[21:27])),
	}
	if f.National > MaxNational || hexLSB(b[11:15]) > MaxCountry {
		return Frame{}, fmt.Errorf("%w: national %d or country %d out of ISO 11784 range", ErrField, hexLSB(b[1:11]), hexLSB(b[11:15]))
	}
	return f, nil
}

// shape checks everything but the checksum, so that Split can tell
// noise (garbage) from a damaged frame.
func shape(b []byte) error {
	if b[0] != STX || b[29] != ETX {
		return fmt.Errorf("%w: %02X…%02X", ErrFraming, b[0], b[29])
	}
	for i := 1; i < 27; i++ {
		if i == 15 || i == 16 {
			if b[i] != '0' && b[i] != '1' {
				return fmt.Errorf("%w: flag byte %d is %q", ErrField, i, b[i])
			}
			continue
		}
		if unhex(b[i]) < 0 {
			return fmt.Errorf("%w: byte %d is %q, not a hex digit", ErrField, i, b[i])
		}
	}
	return nil
}

// Split finds frames in a byte stream: bytes before an STX are garbage;
// a candidate that is not shaped like a frame costs one byte of garbage
// (the stream is searched again from the next byte), and a
// well-shaped frame with a wrong checksum is a bad frame.
func Split(buf []byte) (int, error) {
	i := 0
	for i < len(buf) && buf[i] != STX {
		i++
	}
	if i > 0 {
		return i, fmt.Errorf("%w: %d bytes before STX", readers.ErrGarbage, i)
	}
	if len(buf) < Size {
		return 0, nil
	}
	if err := shape(buf[:Size]); err != nil {
		return 1, fmt.Errorf("%w: %w", readers.ErrGarbage, err)
	}
	if _, err := Decode(buf[:Size]); err != nil {
		return 1, err
	}
	return Size, nil
}

// checksum is the XOR of bytes 1 to 26.
func checksum(b []byte) byte {
	var c byte
	for _, x := range b[1:27] {
		c ^= x
	}
	return c
}

func flag(v bool) byte {
	if v {
		return '1'
	}
	return '0'
}

const hexDigits = "0123456789ABCDEF"

// putHexLSB writes v as len(dst) upper-case hex digits, least
// significant digit first.
func putHexLSB(dst []byte, v uint64) {
	for i := range dst {
		dst[i] = hexDigits[v&0xF]
		v >>= 4
	}
}

// hexLSB reads hex digits least significant first; the caller has
// checked they are hex digits.
func hexLSB(src []byte) uint64 {
	var v uint64
	for i := len(src) - 1; i >= 0; i-- {
		v = v<<4 | uint64(unhex(src[i]))
	}
	return v
}

func unhex(c byte) int {
	switch {
	case '0' <= c && c <= '9':
		return int(c - '0')
	case 'A' <= c && c <= 'F':
		return int(c - 'A' + 10)
	case 'a' <= c && c <= 'f':
		return int(c - 'a' + 10)
	}
	return -1
}
