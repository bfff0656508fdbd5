package synth_test

import (
	"slices"
	"testing"

	"github.com/chipdesk/chipdesk/reader/demod/synth"
)

var tg = [16]byte{0x00, 0x25, 0x3F, 0xAB, 0xB4, 0xD2, 0x75, 0x6F, 0x80, 0x40, 0x6A, 0x11, 0xB8, 0x04, 0x02, 0x01}

func TestDeterministic(t *testing.T) {
	t.Parallel()
	o := &synth.Opts{Noise: 0.5, Lead: -1, Seed: 9}
	if a, b := synth.FDXB(tg, o), synth.FDXB(tg, o); !slices.Equal(a, b) {
		t.Error("FDXB with the same seed differs")
	}
	o2 := *o
	o2.Seed = 10
	if a, b := synth.FDXB(tg, o), synth.FDXB(tg, &o2); slices.Equal(a, b) {
		t.Error("FDXB with different seeds is the same")
	}
}

// TestFDXBShape: a clean signal is ±Amplitude, 32 samples per bit, a
// 0 has a mid-bit transition (ISO 11785 differential bi-phase), and
// the level changes at every bit boundary.
func TestFDXBShape(t *testing.T) {
	t.Parallel()
	s := synth.FDXB(tg, &synth.Opts{Repeats: 1})
	if len(s) < 128*32 {
		t.Fatalf("len = %d, want ≥ %d", len(s), 128*32)
	}
	for i := 0; i < 128; i++ {
		a, m, b := s[32*i], s[32*i+15], s[32*i+16]
		if a != 100 && a != -100 {
			t.Fatalf("bit %d: level %d, want ±100", i, a)
		}
		if i > 0 && s[32*i-1] == a {
			t.Errorf("bit %d: no transition at the boundary", i)
		}
		zero := tg[i/8]>>(7-i%8)&1 == 0
		if (m != b) != zero {
			t.Errorf("bit %d (zero=%v): mid-bit %d→%d", i, zero, m, b)
		}
	}
	inv := synth.FDXB(tg, &synth.Opts{Repeats: 1, Invert: true})
	if inv[0] != -s[0] {
		t.Errorf("Invert: %d, want %d", inv[0], -s[0])
	}
	d := synth.FDXB(tg, &synth.Opts{Repeats: 1, Duty: 0.75})
	high := 0
	for _, v := range d[:32] { // bit 0 is a 0: one high and one low half
		if v > 0 {
			high++
		}
	}
	if high != 24 {
		t.Errorf("duty 0.75: %d of 32 samples high, want 24", high)
	}
}

func TestHDXLength(t *testing.T) {
	t.Parallel()
	frame := []byte{0x7E, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 0x7E}
	s := synth.HDX(frame, &synth.Opts{Repeats: 1})
	// 16 pre-bits + 96 bits + 4 end bits, 16 cycles each, at about
	// 14.9 to 16.2 samples per cycle.
	bits := 16 + 8*len(frame) + 4
	if min, max := bits*16*14, bits*16*17+200; len(s) < min || len(s) > max {
		t.Errorf("HDX length %d, want %d..%d", len(s), min, max)
	}
}
