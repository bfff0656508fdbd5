package iso11785

import (
	"encoding/hex"
	"fmt"
	"math/bits"
	"strings"
)

// FDXA is an FDX-A (FECAVA, Destron, HomeAgain legacy) code: 5 bytes of
// 7 data bits each, parity removed. It prints as 10 hex digits, the way
// Proxmark3 and Flipper show it and shelters write it.
type FDXA [5]byte

// String returns the 10 upper-case hex digits, e.g. "0000013531".
func (a FDXA) String() string { return strings.ToUpper(hex.EncodeToString(a[:])) }

// DecodeFDXA decodes the 5 bytes of an FDX-A frame after the preamble:
// each byte is 7 data bits with an odd-parity bit in the most
// significant bit. It fails with ErrLength or ErrParity.
func DecodeFDXA(b []byte) (FDXA, error) {
	var a FDXA
	if len(b) != len(a) {
		return FDXA{}, fmt.Errorf("%w: FDX-A frame of %d bytes, want 5", ErrLength, len(b))
	}
	for i, v := range b {
		if bits.OnesCount8(v)%2 != 1 {
			return FDXA{}, fmt.Errorf("%w: FDX-A byte %d (%02X) has even parity", ErrParity, i, v)
		}
		a[i] = v & 0x7f
	}
	return a, nil
}

// EncodeFDXA returns the 5 bytes of a, each with its odd-parity bit. A
// byte of a above 0x7F does not fit 7 bits: ErrInvalidCode.
func EncodeFDXA(a FDXA) ([5]byte, error) {
	var b [5]byte
	for i, v := range a {
		if v > 0x7f {
			return [5]byte{}, fmt.Errorf("%w: FDX-A data byte %d (%02X) over 7 bits", ErrInvalidCode, i, v)
		}
		if bits.OnesCount8(v)%2 == 0 {
			v |= 0x80
		}
		b[i] = v
	}
	return b, nil
}
