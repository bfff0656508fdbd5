package demod

import "testing"

// TestFDXBPattern derives the header and control-bit masks from the
// telegram layout of ISO 11785 (ten 0s, a 1, then a 1 after each
// 8 data bits).
func TestFDXBPattern(t *testing.T) {
	var mh, ml, ph, pl uint64
	set := func(i int, one bool) {
		m, p := &mh, &ph
		b := 63 - i
		if i >= 64 {
			m, p, b = &ml, &pl, 127-i
		}
		*m |= 1 << b
		if one {
			*p |= 1 << b
		}
	}
	for i := 0; i < 10; i++ {
		set(i, false)
	}
	for i := 10; i < 128; i += 9 {
		set(i, true)
	}
	if mh != fdxbMaskHi || ml != fdxbMaskLo || ph != fdxbPatHi || pl != fdxbPatLo {
		t.Errorf("masks %X %X patterns %X %X, want %X %X %X %X", mh, ml, ph, pl,
			uint64(fdxbMaskHi), uint64(fdxbMaskLo), uint64(fdxbPatHi), uint64(fdxbPatLo))
	}
}
