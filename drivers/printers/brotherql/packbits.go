package brotherql

import (
	"errors"
	"fmt"
)

// ErrPackBits: packed data does not expand to the expected length.
var ErrPackBits = errors.New("brotherql: bad PackBits data")

// PackBits compresses one raster line (TIFF 6.0 section 9): a header
// byte h of 0…127 copies the next h+1 bytes, 0x81…0xFF (−127…−1) repeats
// the next byte 1−h times. Runs of three or more equal bytes are
// repeated, the rest copied.
func PackBits(src []byte) []byte {
	var out []byte
	for i := 0; i < len(src); {
		// length of the run starting at i
		r := 1
		for i+r < len(src) && src[i+r] == src[i] && r < 128 {
			r++
		}
		if r >= 3 {
			out = append(out, byte(1-r), src[i]) // 1−r as a signed byte
			i += r
			continue
		}
		// a literal: up to the next run of three or 128 bytes
		j := i
		for j < len(src) && j-i < 128 {
			if j+2 < len(src) && src[j] == src[j+1] && src[j] == src[j+2] {
				break
			}
			j++
		}
		out = append(out, byte(j-i-1))
		out = append(out, src[i:j]...)
		i = j
	}
	return out
}

// UnpackBits expands packed data that must give exactly n bytes.
func UnpackBits(src []byte, n int) ([]byte, error) {
	out := make([]byte, 0, n)
	for i := 0; i < len(src); {
		h := int8(src[i])
		i++
		switch {
		case h >= 0:
			k := int(h) + 1
			if i+k > len(src) {
				return nil, fmt.Errorf("%w: literal of %d past the end", ErrPackBits, k)
			}
			out = append(out, src[i:i+k]...)
			i += k
		case h == -128:
			// no operation (TIFF 6.0)
		default:
			if i >= len(src) {
				return nil, fmt.Errorf("%w: run without a byte", ErrPackBits)
			}
			for range 1 - int(h) {
				out = append(out, src[i])
			}
			i++
		}
		if len(out) > n {
			return nil, fmt.Errorf("%w: expands past %d bytes", ErrPackBits, n)
		}
	}
	if len(out) != n {
		return nil, fmt.Errorf("%w: expands to %d bytes, want %d", ErrPackBits, len(out), n)
	}
	return out, nil
}
