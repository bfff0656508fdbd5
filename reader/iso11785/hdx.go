package iso11785

import (
	"fmt"

	"github.com/chipdesk/chipdesk/reader/iso11784"
)

// HDX start bytes (ISO 11785 clause 6.3; TI Series 2000).
const (
	HDXStartRO = 0x7E // read-only transponders: ISO animal tags
	HDXStartRW = 0xFE // read/write transponders
)

// DecodeHDX decodes an HDX telegram at byte level, after the FSK
// demodulation has removed the pre-bits and assembled bytes (each sent
// least significant bit first): the start byte 0x7E or 0xFE, the 8 ID
// bytes in wire order, the CRC low byte first, then optionally the
// 3-byte trailer (the 24-bit extension, low byte first) and optionally a
// stop byte equal to the start byte. So b is 11, 12 (stop), 14 (trailer)
// or 15 bytes long. The CRC is CRC-16/KERMIT over the ID bytes, as for
// FDX-B.
func DecodeHDX(b []byte) (Telegram, error) {
	var ext []byte
	switch len(b) {
	case 11:
	case 12:
		if b[11] != b[0] {
			return Telegram{}, fmt.Errorf("%w: HDX stop byte %02X, start %02X", ErrFraming, b[11], b[0])
		}
	case 14:
		ext = b[11:14]
	case 15:
		ext = b[11:14]
		if b[14] != b[0] {
			return Telegram{}, fmt.Errorf("%w: HDX stop byte %02X, start %02X", ErrFraming, b[14], b[0])
		}
	default:
		return Telegram{}, fmt.Errorf("%w: HDX telegram of %d bytes", ErrLength, len(b))
	}
	if b[0] != HDXStartRO && b[0] != HDXStartRW {
		return Telegram{}, fmt.Errorf("%w: HDX start byte %02X", ErrHeader, b[0])
	}
	t := Telegram{
		Code: iso11784.FromWireBytes([8]byte(b[1:9])),
		CRC:  uint16(b[9]) | uint16(b[10])<<8,
	}
	if ext != nil {
		t.Ext = uint32(ext[0]) | uint32(ext[1])<<8 | uint32(ext[2])<<16
	}
	if want := CRC16(b[1:9]); t.CRC != want {
		return t, fmt.Errorf("%w: HDX CRC %04X, computed %04X", ErrCRC, t.CRC, want)
	}
	return checkCode(t)
}

// EncodeHDX returns the 14-byte HDX telegram of an ISO animal
// transponder: start byte 0x7E, the 8 ID bytes, the CRC and the 3-byte
// trailer ext, as DecodeHDX reads it.
func EncodeHDX(code iso11784.Code, ext uint32) []byte {
	w := code.WireBytes()
	crc := CRC16(w[:])
	b := make([]byte, 0, 14)
	b = append(b, HDXStartRO)
	b = append(b, w[:]...)
	return append(b, byte(crc), byte(crc>>8), byte(ext), byte(ext>>8), byte(ext>>16))
}
