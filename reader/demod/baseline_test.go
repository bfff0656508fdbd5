package demod_test

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/chipdesk/chipdesk/reader/demod"
	"github.com/chipdesk/chipdesk/reader/demod/synth"
	"github.com/chipdesk/chipdesk/reader/iso11785"
)

// edgeFDXB is the usual way FDX-B is read (Flipper Zero, many reader
// firmwares): a comparator with hysteresis on the envelope, pulse
// widths classified as short (half a bit) or long (a bit) with a fixed
// tolerance, one long pulse a 1 and two short ones a 0. It is here only
// to measure the package's decoder against.
func edgeFDXB(s []int16) int {
	var mean, amp float64
	high := false
	last := 0
	var hi, lo uint64
	pendingShort := false
	reads := 0
	push := func(bit uint64) {
		hi = hi<<1 | lo>>63
		lo = lo<<1 | bit
		var t [16]byte
		for i := 0; i < 8; i++ {
			t[i] = byte(hi >> (56 - 8*i))
			t[8+i] = byte(lo >> (56 - 8*i))
		}
		if _, err := iso11785.DecodeFDXB(t); err == nil {
			reads++
		}
	}
	for i, v := range s {
		x := float64(v)
		mean += (x - mean) / 256
		y := x - mean
		amp += (math.Abs(y) - amp) / 256
		h := 0.5 * amp // the best of 0.1, 0.3, 0.5, 0.7 on these captures
		edge := false
		if !high && y > h {
			high, edge = true, true
		} else if high && y < -h {
			high, edge = false, true
		}
		if !edge {
			continue
		}
		w := i - last
		last = i
		switch {
		case w >= 8 && w < 24:
			if pendingShort {
				push(0)
			}
			pendingShort = !pendingShort
		case w >= 24 && w <= 40:
			if pendingShort {
				pendingShort = false // a lone short: out of step
				continue
			}
			push(1)
		default:
			pendingShort = false
		}
	}
	return reads
}

// TestBetterThanEdgeDecoder: on the same noisy captures the package's
// FDX-B decoder reads at least as often as the edge decoder, and reads
// on at noise levels where the edge decoder reads nothing. Run with -v
// for the comparison.
func TestBetterThanEdgeDecoder(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("noise sweep skipped in -short mode")
	}
	tg := iso11785.EncodeFDXB(codeAnimal, 0)
	var b strings.Builder
	for _, sigma := range []float64{0, 0.2, 0.4, 0.5, 0.6, 0.9} {
		ours, edge := 0, 0
		for seed := uint64(1); seed <= 8; seed++ {
			s := synth.FDXB(tg, &synth.Opts{Noise: sigma, Seed: seed, Lead: -1, Repeats: 4})
			ours += min(readRateOne(s), 3)
			edge += min(edgeFDXB(s), 3)
		}
		fmt.Fprintf(&b, " σ=%.1f: %d%% vs %d%%;", sigma, 100*ours/24, 100*edge/24)
		if ours < edge {
			t.Errorf("σ=%.1f: demod read %d, edge decoder %d", sigma, ours, edge)
		}
		if sigma >= 0.6 && (edge != 0 || ours != 24) {
			t.Errorf("σ=%.1f: demod %d/24, edge decoder %d/24; want 24 and 0", sigma, ours, edge)
		}
		if sigma == 0 && edge < 16 {
			t.Errorf("edge decoder reads %d/24 of clean captures: the baseline is broken", edge)
		}
	}
	t.Logf("FDX-B reads, demod vs edge decoder:%s", b.String())
}

func readRateOne(s []int16) int {
	return len(decodeAll(demod.NewFDXB(nil), s))
}
