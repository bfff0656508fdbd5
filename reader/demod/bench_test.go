package demod_test

import (
	"testing"

	"github.com/chipdesk/chipdesk/reader/demod"
	"github.com/chipdesk/chipdesk/reader/demod/synth"
	"github.com/chipdesk/chipdesk/reader/iso11785"
)

// benchDecoder feeds a noisy synthesised capture in 4096-sample chunks
// and reports samples per second (SetBytes counts one "byte" per
// sample, so MB/s reads as million samples per second).
func benchDecoder(b *testing.B, d demod.Decoder, s []int16) {
	b.Helper()
	const chunk = 4096
	b.SetBytes(chunk)
	b.ReportAllocs()
	d.Write(s) // warm up: reach the steady state
	off := 0
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if off+chunk > len(s) {
			off = 0
		}
		d.Write(s[off : off+chunk])
		off += chunk
	}
}

func BenchmarkFDXB(b *testing.B) {
	s := synth.FDXB(iso11785.EncodeFDXB(codeAnimal, 0), &synth.Opts{Noise: 0.3, Repeats: 64})
	benchDecoder(b, demod.NewFDXB(nil), s)
}

func BenchmarkFDXA(b *testing.B) {
	s := synth.FDXA(fdxaBytes(0x0000013531), &synth.Opts{Noise: 0.3, Repeats: 64})
	benchDecoder(b, demod.NewFDXA(nil), s)
}

func BenchmarkHDX(b *testing.B) {
	s := synth.HDX(hdxFrame(codeAnimal, 0), &synth.Opts{Noise: 0.1, Repeats: 16})
	benchDecoder(b, demod.NewHDX(nil), s)
}
