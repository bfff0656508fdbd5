package demod_test

import (
	"bytes"
	"testing"

	"github.com/chipdesk/chipdesk/reader"
	"github.com/chipdesk/chipdesk/reader/demod"
	"github.com/chipdesk/chipdesk/reader/demod/synth"
	"github.com/chipdesk/chipdesk/reader/iso11784"
	"github.com/chipdesk/chipdesk/reader/iso11785"
)

// checkResults fails on any result that does not re-validate: a
// decoder must never return a telegram without a valid CRC or parity.
func checkResults(t *testing.T, rs []demod.Result) {
	t.Helper()
	for _, r := range rs {
		switch r.Protocol {
		case reader.AirFDXB:
			tg, err := iso11785.DecodeFDXB(r.Raw)
			if err != nil || tg != r.Telegram || iso11785.EncodeFDXB(tg.Code, tg.Ext) != r.Raw {
				t.Fatalf("FDX-B result %X does not re-validate: %v", r.Raw, err)
			}
		case reader.AirHDX:
			if tg, err := iso11785.DecodeHDX(r.Bytes()); err != nil || tg != r.Telegram {
				t.Fatalf("HDX result %X does not re-validate: %v", r.Bytes(), err)
			}
		case reader.AirFDXA:
			if a, err := iso11785.DecodeFDXA(r.Bytes()); err != nil || a != r.FDXA {
				t.Fatalf("FDX-A result %X does not re-validate: %v", r.Bytes(), err)
			}
		default:
			t.Fatalf("result of protocol %q", r.Protocol)
		}
		if r.Quality < 0 || r.Quality > 1 {
			t.Fatalf("quality %v outside [0, 1]", r.Quality)
		}
	}
}

// FuzzDecoders feeds arbitrary bytes as int8 samples (and as int16
// pairs) to all decoders, in two chunks: no panic, no invalid read.
func FuzzDecoders(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3}, 1)
	tg := iso11785.EncodeFDXB(codeAnimal, 0)
	seed := synth.FDXB(tg, &synth.Opts{Repeats: 2, Amplitude: 100})
	b := make([]byte, len(seed))
	for i, v := range seed {
		b[i] = byte(int8(v))
	}
	f.Add(b, 1000)
	f.Fuzz(func(t *testing.T, data []byte, split int) {
		s := make([]int16, len(data))
		for i, v := range data {
			s[i] = int16(int8(v))
		}
		s2 := make([]int16, len(data)/2)
		for i := range s2 {
			s2[i] = int16(uint16(data[2*i]) | uint16(data[2*i+1])<<8)
		}
		for _, in := range [][]int16{s, s2} {
			k := 0
			if len(in) > 0 {
				k = (split%len(in) + len(in)) % len(in)
			}
			for _, d := range allDecoders(&demod.Opts{Circular: true}) {
				checkResults(t, d.Write(in[:k]))
				checkResults(t, d.Write(in[k:]))
				checkResults(t, d.Flush())
			}
		}
	})
}

// FuzzRoundTrip: a code synthesised with moderate impairments decodes
// back to itself, and to nothing else (encode → signal → decode).
func FuzzRoundTrip(f *testing.F) {
	f.Add(uint16(985), uint64(121004515220), true, uint32(0), uint64(1), uint8(3), uint8(0))
	f.Add(uint16(999), uint64(112233), false, uint32(0x16A), uint64(2), uint8(0), uint8(1))
	f.Add(uint16(1), uint64(0), true, uint32(0xFFFFFF), uint64(3), uint8(9), uint8(2))
	f.Fuzz(func(t *testing.T, country uint16, national uint64, animal bool, ext uint32, seed uint64, imp uint8, proto uint8) {
		code, err := iso11784.New(country%1000, national%(1<<38), animal)
		if err != nil {
			t.Skip()
		}
		code = code.WithDataBlock(ext != 0)
		ext &= 0xFFFFFF
		o := &synth.Opts{
			Noise:  float64(imp%4) * 0.1,
			Drift:  float64(int(imp/4%5)-2) * 0.01,
			Invert: imp&0x80 != 0,
			Seed:   seed,
			Lead:   -1,
		}
		var s []int16
		var d demod.Decoder
		switch proto % 3 {
		case 0:
			s, d = synth.FDXB(iso11785.EncodeFDXB(code, ext), o), demod.NewFDXB(nil)
		case 1:
			o.Noise /= 2
			s, d = synth.HDX(append(iso11785.EncodeHDX(code, ext), iso11785.HDXStartRO), o), demod.NewHDX(nil)
		case 2:
			var a iso11785.FDXA
			for i := range a {
				a[i] = byte(national>>(7*i)) & 0x7f
			}
			raw, err := iso11785.EncodeFDXA(a)
			if err != nil {
				t.Fatal(err)
			}
			rs := decodeAll(demod.NewFDXA(nil), synth.FDXA(raw, o))
			checkResults(t, rs)
			if len(rs) < 2 {
				t.Fatalf("FDX-A %s with %+v: %d reads, want ≥ 2", a, o, len(rs))
			}
			for _, r := range rs {
				if r.FDXA != a {
					t.Fatalf("FDX-A read %s, want %s", r.FDXA, a)
				}
			}
			return
		}
		rs := decodeAll(d, s)
		checkResults(t, rs)
		if len(rs) < 2 {
			t.Fatalf("%s %v ext %X with %+v: %d reads, want ≥ 2", d, code, ext, o, len(rs))
		}
		for _, r := range rs {
			if r.Telegram.Code != code || r.Telegram.Ext != ext && d.Protocol() == reader.AirFDXB {
				t.Fatalf("%s read %v ext %X, want %v ext %X", d, r.Telegram.Code, r.Telegram.Ext, code, ext)
			}
		}
	})
}

// FuzzReadTrace: any text either fails with ErrTrace or reads samples
// that WritePM3 writes back to text that reads the same.
func FuzzReadTrace(f *testing.F) {
	f.Add([]byte("1\n-2\r\n\n127\n"))
	f.Add([]byte("x\n"))
	f.Add([]byte("99999999999999999999\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := demod.ReadTrace(bytes.NewReader(data), demod.FormatPM3)
		if err != nil {
			return
		}
		var b bytes.Buffer
		if err := demod.WritePM3(&b, s); err != nil {
			t.Fatal(err)
		}
		s2, err := demod.ReadTrace(&b, demod.FormatPM3)
		if err != nil || len(s2) != len(s) {
			t.Fatalf("round trip: %d samples, %v; want %d", len(s2), err, len(s))
		}
		for i := range s {
			if s[i] != s2[i] {
				t.Fatalf("sample %d: %d, want %d", i, s2[i], s[i])
			}
		}
	})
}
