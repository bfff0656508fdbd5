package iso11785

import (
	"errors"
	"fmt"

	"github.com/chipdesk/chipdesk/reader/iso11784"
)

// Decode errors. Every decoder wraps one of them.
var (
	// ErrLength reports input of the wrong size.
	ErrLength = errors.New("iso11785: wrong length")
	// ErrHeader reports a missing FDX-B header or a bad HDX start byte.
	ErrHeader = errors.New("iso11785: bad header")
	// ErrFraming reports a cleared FDX-B control bit or a bad HDX stop
	// byte.
	ErrFraming = errors.New("iso11785: framing error")
	// ErrCRC reports a CRC that does not match the 64 ID bits.
	ErrCRC = errors.New("iso11785: CRC mismatch")
	// ErrParity reports an FDX-A byte with even parity.
	ErrParity = errors.New("iso11785: parity error")
	// ErrInvalidCode reports a well-formed telegram whose code is no
	// valid ISO 11784 code (country field > 999).
	ErrInvalidCode = errors.New("iso11785: invalid ISO 11784 code")
)

// Telegram is one decoded FDX-B or HDX telegram.
type Telegram struct {
	// Code is the 64-bit ISO 11784 code.
	Code iso11784.Code
	// CRC is the CRC as received (equal to CRC16 of the code's wire
	// bytes unless the decoder returned ErrCRC).
	CRC uint16
	// Ext is the 24-bit extension (FDX-B trailer); it carries data only
	// when Code.DataBlock() is set.
	Ext uint32
}

// Temperature returns the Bio-Thermo body temperature in degrees
// Fahrenheit when the data-block flag is set and the extension holds a
// well-formed Bio-Thermo reading.
func (t Telegram) Temperature() (fahrenheit float64, ok bool) {
	if !t.Code.DataBlock() {
		return 0, false
	}
	return BioThermo(t.Ext)
}

// CRC16 returns the CRC-16/KERMIT of b: polynomial 0x1021 reflected
// (0x8408), initial value 0, input and output reflected, no final XOR.
// ISO 11785 computes it over the 8 ID bytes in wire order; it is sent
// low byte first.
func CRC16(b []byte) uint16 {
	var crc uint16
	for _, v := range b {
		crc ^= uint16(v)
		for range 8 {
			if crc&1 != 0 {
				crc = crc>>1 ^ 0x8408
			} else {
				crc >>= 1
			}
		}
	}
	return crc
}

// CodeCRC returns the ISO 11785 CRC of a code: CRC16 over its 8 bytes
// in wire order, as a telegram carries it.
func CodeCRC(c iso11784.Code) uint16 {
	w := c.WireBytes()
	return CRC16(w[:])
}

// BioThermo reads the temperature of a Bio-Thermo chip from the 24-bit
// extension: the low 8 bits are the raw reading, bit 8 makes the 9 bits
// odd parity, bits 9–11 are zero; °F = 74 + 0.2·raw. ok is false when
// the extension is no such reading.
func BioThermo(ext uint32) (fahrenheit float64, ok bool) {
	if ext>>9&0x7 != 0 || ext>>24 != 0 {
		return 0, false
	}
	nine := ext & 0x1ff
	ones := 0
	for v := nine; v != 0; v &= v - 1 {
		ones++
	}
	if ones%2 != 1 {
		return 0, false
	}
	raw := ext & 0xff
	return float64(740+2*raw) / 10, true
}

// Celsius converts a Fahrenheit temperature.
func Celsius(fahrenheit float64) float64 { return (fahrenheit - 32) / 1.8 }

func checkCode(t Telegram) (Telegram, error) {
	if err := t.Code.Valid(); err != nil {
		return t, fmt.Errorf("%w: country field %d", ErrInvalidCode, t.Code.Country())
	}
	return t, nil
}
