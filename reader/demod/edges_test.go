package demod_test

import (
	"testing"

	"github.com/chipdesk/chipdesk/reader/demod"
	"github.com/chipdesk/chipdesk/reader/iso11785"
)

// TestEdges: the edge timings of an FDX-B tag (differential bi-phase:
// 16 or 32 cycles between edges), with jitter, read like samples.
func TestEdges(t *testing.T) {
	t.Parallel()
	tg := iso11785.EncodeFDXB(codeExt, 0x16A)
	var iv []float64
	jit := []float64{0.7, -0.4, 1.1, -0.9, 0.2}
	for rep := 0; rep < 3; rep++ {
		for i := 0; i < 128; i++ {
			if tg[i/8]>>(7-i%8)&1 == 1 {
				iv = append(iv, 32*1.015+jit[len(iv)%len(jit)])
			} else {
				iv = append(iv, 16*1.015+jit[len(iv)%len(jit)], 16*1.015-jit[len(iv)%len(jit)])
			}
		}
	}
	iv = append(iv, 0, -3) // glitches are skipped
	e := &demod.Edges{D: demod.NewFDXB(nil)}
	var got []demod.Result
	for len(iv) > 0 {
		n := min(len(iv), 37)
		got = append(got, e.Write(iv[:n])...)
		iv = iv[n:]
	}
	got = append(got, e.D.Flush()...)
	if len(got) < 2 {
		t.Fatalf("Edges gave %d reads, want ≥ 2", len(got))
	}
	for _, r := range got {
		if r.Raw != tg {
			t.Errorf("Edges read %X, want %X", r.Raw, tg)
		}
	}
}
