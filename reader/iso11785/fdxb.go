package iso11785

import (
	"encoding/binary"
	"fmt"
	"math/bits"

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

// The telegram is handled as one 128-bit number, hi holding bits 0–63
// (bit 0 = most significant bit of hi), lo bits 64–127.
type bits128 struct{ hi, lo uint64 }

func load128(t *[16]byte) bits128 {
	return bits128{binary.BigEndian.Uint64(t[:8]), binary.BigEndian.Uint64(t[8:])}
}

func (b bits128) store() [16]byte {
	var t [16]byte
	binary.BigEndian.PutUint64(t[:8], b.hi)
	binary.BigEndian.PutUint64(t[8:], b.lo)
	return t
}

// window returns the 8 bits at positions p..p+7, bit p most significant.
func (b bits128) window(p int) byte {
	switch {
	case p+8 <= 64:
		return byte(b.hi >> (56 - p))
	case p >= 64:
		return byte(b.lo >> (120 - p))
	}
	return byte(b.hi<<(p-56) | b.lo>>(120-p))
}

// setWindow ORs v into positions p..p+7, bit p = most significant bit.
func (b *bits128) setWindow(p int, v byte) {
	switch {
	case p+8 <= 64:
		b.hi |= uint64(v) << (56 - p)
	case p >= 64:
		b.lo |= uint64(v) << (120 - p)
	default:
		b.hi |= uint64(v) >> (p - 56)
		b.lo |= uint64(v) << (120 - p)
	}
}

func (b *bits128) set(p int) {
	if p < 64 {
		b.hi |= 1 << (63 - p)
	} else {
		b.lo |= 1 << (127 - p)
	}
}

func (b bits128) get(p int) byte {
	if p < 64 {
		return byte(b.hi >> (63 - p) & 1)
	}
	return byte(b.lo >> (127 - p) & 1)
}

// controlMask has a 1 at every control bit position.
func controlMask() bits128 {
	var m bits128
	for g := range groups {
		m.set(headerBits + 9*g + 8)
	}
	return m
}

// EncodeFDXB returns the 128-bit FDX-B telegram of code with the 24-bit
// extension ext, in transmission order packed most significant bit first
// (byte 0 bit 7 is the first bit on air). The CRC is computed here.
func EncodeFDXB(code iso11784.Code, ext uint32) [16]byte {
	w := code.WireBytes()
	crc := CRC16(w[:])
	data := [groups]byte{w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7],
		byte(crc), byte(crc >> 8), byte(ext), byte(ext >> 8), byte(ext >> 16)}
	b := controlMask()
	b.set(headerBits - 1)
	for g, v := range data {
		// Data bits go least significant first: reverse into the window.
		b.setWindow(headerBits+9*g, bits.Reverse8(v))
	}
	return b.store()
}

// DecodeFDXB decodes a 128-bit FDX-B telegram packed as EncodeFDXB
// writes it. It checks the header (ErrHeader), the 13 control bits
// (ErrFraming), the CRC (ErrCRC) and the code (ErrInvalidCode). On ErrCRC
// and ErrInvalidCode the Telegram holds the fields as received, for
// diagnostics; it must not be used as a read.
func DecodeFDXB(t [16]byte) (Telegram, error) {
	b := load128(&t)
	if h := b.hi >> (64 - headerBits); h != 1 {
		return Telegram{}, fmt.Errorf("%w: FDX-B header %011b, want 00000000001", ErrHeader, h)
	}
	if m := controlMask(); b.hi&m.hi != m.hi || b.lo&m.lo != m.lo {
		for g := range groups {
			if p := headerBits + 9*g + 8; b.get(p) == 0 {
				return Telegram{}, fmt.Errorf("%w: FDX-B control bit %d (after byte %d) is 0", ErrFraming, p, g)
			}
		}
	}
	var data [groups]byte
	for g := range groups {
		data[g] = bits.Reverse8(b.window(headerBits + 9*g))
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
