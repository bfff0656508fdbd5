package iso11785

import (
	"fmt"

	"github.com/chipdesk/chipdesk/reader/iso11784"
)

// FDX-B telegram layout, ISO 11785 clause 6.2: 11 header bits (ten 0s,
// then a 1), then 13 groups of 8 data bits sent least significant bit
// first, each followed by a control bit 1: the 8 ID bytes, the 2 CRC
// bytes and the 3 extension bytes, all low byte first. 128 bits.
const (
	headerBits = 11
	groups     = 13
)

func getBit(t *[16]byte, i int) byte { return t[i>>3] >> (7 - i&7) & 1 }

func setBit(t *[16]byte, i int) { t[i>>3] |= 0x80 >> (i & 7) }

// EncodeFDXB returns the 128-bit FDX-B telegram of code with the 24-bit
// extension ext, in transmission order packed most significant bit first
// (byte 0 bit 7 is the first bit on air). The CRC is computed here.
func EncodeFDXB(code iso11784.Code, ext uint32) [16]byte {
	var t [16]byte
	setBit(&t, headerBits-1)
	w := code.WireBytes()
	crc := CRC16(w[:])
	data := [groups]byte{w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7],
		byte(crc), byte(crc >> 8), byte(ext), byte(ext >> 8), byte(ext >> 16)}
	for g, v := range data {
		at := headerBits + 9*g
		for j := range 8 {
			if v>>j&1 == 1 {
				setBit(&t, at+j)
			}
		}
		setBit(&t, at+8)
	}
	return t
}

// DecodeFDXB decodes a 128-bit FDX-B telegram packed as EncodeFDXB
// writes it. It checks the header (ErrHeader), the 13 control bits
// (ErrFraming), the CRC (ErrCRC) and the code (ErrInvalidCode). On ErrCRC
// and ErrInvalidCode the Telegram holds the fields as received, for
// diagnostics; it must not be used as a read.
func DecodeFDXB(t [16]byte) (Telegram, error) {
	for i := range headerBits - 1 {
		if getBit(&t, i) != 0 {
			return Telegram{}, fmt.Errorf("%w: FDX-B header bit %d is 1", ErrHeader, i)
		}
	}
	if getBit(&t, headerBits-1) != 1 {
		return Telegram{}, fmt.Errorf("%w: FDX-B header bit 10 is 0", ErrHeader)
	}
	var data [groups]byte
	for g := range groups {
		at := headerBits + 9*g
		var v byte
		for j := range 8 {
			v |= getBit(&t, at+j) << j
		}
		if getBit(&t, at+8) != 1 {
			return Telegram{}, fmt.Errorf("%w: FDX-B control bit %d (after byte %d) is 0", ErrFraming, at+8, g)
		}
		data[g] = v
	}
	tg := Telegram{
		Code: iso11784.FromWireBytes([8]byte(data[:8])),
		CRC:  uint16(data[8]) | uint16(data[9])<<8,
		Ext:  uint32(data[10]) | uint32(data[11])<<8 | uint32(data[12])<<16,
	}
	if want := CRC16(data[:8]); tg.CRC != want {
		return tg, fmt.Errorf("%w: FDX-B CRC %04X, computed %04X", ErrCRC, tg.CRC, want)
	}
	return checkCode(tg)
}
