package demod_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chipdesk/chipdesk/reader/demod"
	"github.com/chipdesk/chipdesk/reader/demod/synth"
	"github.com/chipdesk/chipdesk/reader/iso11785"
)

// readRate returns the fraction of telegrams read (of the complete ones
// after the first, which may be lost while the clock locks) over seeds
// captures at noise sigma.
func readRate(t *testing.T, p string, sigma float64, seeds int) float64 {
	got, want := 0, 0
	for seed := 1; seed <= seeds; seed++ {
		o := &synth.Opts{Noise: sigma, Seed: uint64(seed), Lead: -1, Repeats: 4}
		var s []int16
		var d demod.Decoder
		switch p {
		case "FDX-B":
			s, d = synth.FDXB(iso11785.EncodeFDXB(codeAnimal, 0), o), demod.NewFDXB(nil)
		case "FDX-A":
			s, d = synth.FDXA(fdxaBytes(0x0000013531), o), demod.NewFDXA(nil)
		case "HDX":
			s, d = synth.HDX(hdxFrame(codeAnimal, 0), o), demod.NewHDX(nil)
		}
		want += 3
		rs := decodeAll(d, s)
		checkResults(t, rs)
		for _, r := range rs {
			if r.Telegram.Code != codeAnimal && r.FDXA.String() != "0000013531" {
				t.Errorf("%s at σ=%.2f read a wrong telegram %X", p, sigma, r.Bytes())
			}
		}
		got += min(len(rs), 3)
	}
	return float64(got) / float64(want)
}

// TestNoiseThreshold measures where decoding starts to fail (the table
// in the package doc; run with -v to print it) and checks the doc's
// figures.
func TestNoiseThreshold(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("noise sweep skipped in -short mode")
	}
	sweeps := []struct {
		p      string
		sigmas []float64
		// the doc's claims: all read at ok, none at zero
		ok, none float64
	}{
		{"FDX-B", []float64{0.6, 0.9, 1.0, 1.1, 1.2, 1.4, 1.6, 1.8, 2.0}, 0.9, 2.0},
		{"FDX-A", []float64{0.6, 0.8, 0.9, 1.0, 1.2, 1.4, 1.6, 1.8}, 0.9, 1.8},
		{"HDX", []float64{0.6, 0.9, 1.0, 1.2, 1.4, 1.6, 1.8, 2.0, 2.4}, 1.2, 2.4},
	}
	for _, sw := range sweeps {
		var b strings.Builder
		for _, s := range sw.sigmas {
			r := readRate(t, sw.p, s, 12)
			fmt.Fprintf(&b, " σ=%.2f:%3.0f%%", s, 100*r)
			if s <= sw.ok && r < 1 {
				t.Errorf("%s at σ=%.2f reads %.0f%%, the doc says all", sw.p, s, 100*r)
			}
			if s >= sw.none && r > 0.1 {
				t.Errorf("%s at σ=%.2f reads %.0f%%, the doc says about none", sw.p, s, 100*r)
			}
		}
		t.Logf("%-5s%s", sw.p, b.String())
	}
}
