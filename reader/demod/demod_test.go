package demod_test

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/chipdesk/chipdesk/reader"
	"github.com/chipdesk/chipdesk/reader/demod"
	"github.com/chipdesk/chipdesk/reader/demod/synth"
	"github.com/chipdesk/chipdesk/reader/iso11784"
	"github.com/chipdesk/chipdesk/reader/iso11785"
	"github.com/chipdesk/chipdesk/reader/readertest"
)

func loadTrace(t testing.TB, name string) []int16 {
	t.Helper()
	f, err := os.Open(filepath.Join(readertest.Vectors(t), "pm3", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s, err := demod.ReadTrace(f, demod.FormatPM3)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// decodeAll runs d over s in one call plus Flush.
func decodeAll(d demod.Decoder, s []int16) []demod.Result {
	var out []demod.Result
	out = append(out, d.Write(s)...)
	out = append(out, d.Flush()...)
	return out
}

func allDecoders(o *demod.Opts) []demod.Decoder {
	return []demod.Decoder{demod.NewFDXB(o), demod.NewFDXA(o), demod.NewHDX(o)}
}

type expectation struct {
	File     string         `json:"file"`
	Protocol string         `json:"protocol"`
	Expect   map[string]any `json:"expect"`
}

// TestTraces decodes every Proxmark capture and checks it against
// trace_expectations.json: the value, the protocol, and that no other
// decoder reads anything in it.
func TestTraces(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile(filepath.Join(readertest.Vectors(t), "trace_expectations.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct{ Traces []expectation }
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Traces) != 8 {
		t.Fatalf("trace_expectations.json has %d traces, want 8", len(doc.Traces))
	}
	for _, tr := range doc.Traces {
		name := filepath.Base(tr.File)
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			s := loadTrace(t, name)
			got := map[reader.Air][]demod.Result{}
			for _, d := range allDecoders(nil) {
				for _, r := range decodeAll(d, s) {
					if r.Circular {
						t.Errorf("%s: circular result without Opts.Circular", d)
					}
					got[d.Protocol()] = append(got[d.Protocol()], r)
				}
			}
			e := tr.Expect
			switch name {
			case "lf_EM4102-1.pm3":
				if len(got) != 0 {
					t.Errorf("negative control: got reads %v, want none", got)
				}
				return
			case "lf_HomeAgain.pm3":
				// Strict: the only header is at bit 124 of 187, so no
				// complete telegram; see Opts.Circular in the package doc.
				if len(got) != 0 {
					t.Errorf("strict decode: got %v, want no read", got)
				}
				return
			case "lf_EM4305_fdxa_destron.pm3":
				rs := onlyProtocol(t, got, reader.AirFDXA)
				for _, r := range rs {
					if g := fmt.Sprintf("% X", r.Bytes()); g != e["raw_bytes_with_parity"] {
						t.Errorf("raw = %s, want %s", g, e["raw_bytes_with_parity"])
					}
					if g := r.FDXA.String(); g != e["id_hex"] {
						t.Errorf("code = %s, want %s", g, e["id_hex"])
					}
				}
				if len(rs) != 2 {
					t.Errorf("got %d frames, want the 2 complete ones in 16000 samples", len(rs))
				}
				return
			case "lf_TI.pm3":
				rs := onlyProtocol(t, got, reader.AirHDX)
				for _, r := range rs {
					b := r.Bytes()
					if len(b) != 12 || b[0] != 0xFE || b[11] != 0xFE || hex.EncodeToString(b[1:9]) != "5555555555555555" || r.Telegram.CRC != 0x852C {
						t.Errorf("HDX = %X, want FE 5555555555555555 CRC 852C", b)
					}
				}
				if len(rs) != 1 {
					t.Errorf("got %d answers, want 1", len(rs))
				}
				return
			}
			rs := onlyProtocol(t, got, reader.AirFDXB)
			wantN := len(s)/4096 - 1 // complete telegrams, any phase
			if len(rs) < wantN {
				t.Errorf("got %d telegrams, want at least %d", len(rs), wantN)
			}
			for _, r := range rs {
				c := r.Telegram.Code
				if g := c.Display(); g != e["display"] {
					t.Errorf("code = %s, want %s", g, e["display"])
				}
				if g := fmt.Sprintf("%04X", r.Telegram.CRC); g != e["crc16"] {
					t.Errorf("CRC = %s, want %s", g, e["crc16"])
				}
				if g, w := c.Animal(), e["animal"] == 1.0; g != w {
					t.Errorf("animal = %v, want %v", g, w)
				}
				if g, w := c.DataBlock(), e["data_block"] == 1.0; g != w {
					t.Errorf("data block = %v, want %v", g, w)
				}
				if g := fmt.Sprintf("%06X", r.Telegram.Ext); g != e["ext24"] {
					t.Errorf("ext = %s, want %s", g, e["ext24"])
				}
				if w, ok := e["raw_bitrev64"].(string); ok {
					if g := fmt.Sprintf("%016X", c.Reversed()); g != w {
						t.Errorf("raw = %s, want %s", g, w)
					}
				}
				if r.Quality < 0.8 {
					t.Errorf("quality %.2f on a clean capture, want ≥ 0.8", r.Quality)
				}
			}
		})
	}
}

func onlyProtocol(t *testing.T, got map[reader.Air][]demod.Result, p reader.Air) []demod.Result {
	t.Helper()
	for q, rs := range got {
		if q != p {
			t.Errorf("%s decoder read %d telegrams, want none (file is %s)", q, len(rs), p)
		}
	}
	if len(got[p]) == 0 {
		t.Fatalf("no %s read", p)
	}
	return got[p]
}

// TestHomeAgainCircular: the short capture of the real HomeAgain chip
// holds 187 bits, the header at bit 124; treated as a repeating
// telegram it gives the chip's number (traces/README of Proxmark).
func TestHomeAgainCircular(t *testing.T) {
	t.Parallel()
	s := loadTrace(t, "lf_HomeAgain.pm3")
	d := demod.NewFDXB(&demod.Opts{Circular: true})
	if r := d.Write(s); len(r) != 0 {
		t.Fatalf("Write gave %d reads before Flush, want 0", len(r))
	}
	rs := d.Flush()
	if len(rs) != 1 {
		t.Fatalf("Flush gave %d reads, want 1", len(rs))
	}
	r := rs[0]
	if !r.Circular || r.Telegram.Code.Display() != "985 121004515220" || r.Telegram.CRC != 0xD80A {
		t.Errorf("circular read = %v circular=%v CRC %04X, want 985 121004515220, CRC D80A, circular",
			r.Telegram.Code.Display(), r.Circular, r.Telegram.CRC)
	}
	if bit := float64(r.Offset) / 32; bit < 123 || bit > 126 {
		t.Errorf("header at bit %.1f, want 124", bit)
	}
	// A capture with whole telegrams never uses the circular path.
	d = demod.NewFDXB(&demod.Opts{Circular: true})
	for _, r := range decodeAll(d, loadTrace(t, "lf_EM4x05.pm3")) {
		if r.Circular {
			t.Errorf("circular read in a capture with whole telegrams")
		}
	}
}

// TestChunks: any chunking of the input gives the same reads at the
// same offsets.
func TestChunks(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"lf_EM4x05.pm3", "lf_EM4305_fdxa_destron.pm3", "lf_TI.pm3"} {
		s := loadTrace(t, name)
		for _, mk := range []func() demod.Decoder{
			func() demod.Decoder { return demod.NewFDXB(nil) },
			func() demod.Decoder { return demod.NewFDXA(nil) },
			func() demod.Decoder { return demod.NewHDX(nil) },
		} {
			want := decodeAll(mk(), s)
			r := rand.New(rand.NewPCG(1, 2))
			d := mk()
			var got []demod.Result
			for rest := s; len(rest) > 0; {
				n := min(len(rest), 1+r.IntN(700))
				got = append(got, d.Write(rest[:n])...)
				rest = rest[n:]
			}
			got = append(got, d.Flush()...)
			if len(got) != len(want) {
				t.Fatalf("%s %s: chunked %d reads, want %d", name, d, len(got), len(want))
			}
			for i := range got {
				if got[i].Offset != want[i].Offset || got[i].Raw != want[i].Raw {
					t.Errorf("%s %s read %d: chunked offset %d %X, want %d %X", name, d, i,
						got[i].Offset, got[i].Bytes(), want[i].Offset, want[i].Bytes())
				}
			}
			// Reset makes the decoder new again.
			d.Reset()
			if again := decodeAll(d, s); len(again) != len(want) {
				t.Errorf("%s %s after Reset: %d reads, want %d", name, d, len(again), len(want))
			}
			// Float input gives the same.
			f := make([]float32, len(s))
			for i, v := range s {
				f[i] = float32(v) / 128
			}
			d.Reset()
			fl := append(d.WriteFloat(f), d.Flush()...)
			if len(fl) != len(want) {
				t.Errorf("%s %s float input: %d reads, want %d", name, d, len(fl), len(want))
			}
		}
	}
}

// The chips used in synthesised captures.
var (
	codeAnimal = mustCode("985121004515220", true, false)
	codeExt    = mustCode("999000000112233", false, true)
)

func mustCode(s string, animal, data bool) iso11784.Code {
	c, err := iso11784.ParseDecimal(s)
	if err != nil {
		panic(err)
	}
	return c.WithAnimal(animal).WithDataBlock(data)
}

func hdxFrame(code iso11784.Code, ext uint32) []byte {
	return append(iso11785.EncodeHDX(code, ext), iso11785.HDXStartRO)
}

func fdxaBytes(v uint64) [5]byte {
	var a iso11785.FDXA
	for i := range a {
		a[i] = byte(v>>(8*(4-i))) & 0x7f
	}
	b, err := iso11785.EncodeFDXA(a)
	if err != nil {
		panic(err)
	}
	return b
}

// impairment is one point of the robustness grid.
type impairment struct {
	name string
	o    synth.Opts
}

func grid() []impairment {
	var g []impairment
	for _, noise := range []float64{0, 0.3, 0.6} {
		for _, drift := range []float64{-0.02, 0, 0.02} {
			for _, duty := range []float64{0.4, 0.5, 0.6} {
				for _, inv := range []bool{false, true} {
					for _, filt := range []string{"none", "slew", "ac", "clip+dc"} {
						o := synth.Opts{Noise: noise, Drift: drift, Duty: duty, Invert: inv, Lead: -1,
							Seed: uint64(len(g)) + 1}
						switch filt {
						case "slew":
							o.Slew = 4
						case "ac":
							o.ACCouple = 200
						case "clip+dc":
							o.Offset, o.Clip = 0.7, 1.2
						}
						g = append(g, impairment{
							name: fmt.Sprintf("noise=%.1f/drift=%+.2f/duty=%.1f/inv=%v/%s", noise, drift, duty, inv, filt),
							o:    o,
						})
					}
				}
			}
		}
	}
	return g
}

// TestSynthGridFDXB: every impaired capture of three telegrams gives at
// least two valid reads of the right code (the first may be lost while
// the clock locks, when the capture starts inside a telegram), and
// nothing else.
func TestSynthGridFDXB(t *testing.T) {
	t.Parallel()
	tg := iso11785.EncodeFDXB(codeExt, 0x16A)
	for _, im := range grid() {
		s := synth.FDXB(tg, &im.o)
		rs := decodeAll(demod.NewFDXB(nil), s)
		if len(rs) < 2 {
			t.Errorf("%s: %d reads, want ≥ 2", im.name, len(rs))
		}
		for _, r := range rs {
			if r.Raw != tg {
				t.Errorf("%s: read %X, want %X", im.name, r.Raw, tg)
			}
		}
	}
}

func TestSynthGridFDXA(t *testing.T) {
	t.Parallel()
	b := fdxaBytes(0x0000013531)
	for _, im := range grid() {
		if im.o.Duty != 0.5 {
			continue // duty is an FDX-B (ASK) impairment
		}
		im.o.Slew /= 2
		s := synth.FDXA(b, &im.o)
		rs := decodeAll(demod.NewFDXA(nil), s)
		if len(rs) < 2 {
			t.Errorf("%s: %d reads, want ≥ 2", im.name, len(rs))
		}
		for _, r := range rs {
			if r.FDXA.String() != "0000013531" {
				t.Errorf("%s: read %s, want 0000013531", im.name, r.FDXA)
			}
		}
	}
}

func TestSynthGridHDX(t *testing.T) {
	t.Parallel()
	frame := hdxFrame(codeAnimal, 0)
	for _, im := range grid() {
		if im.o.Duty != 0.5 || im.o.Slew > 0 {
			continue // ASK impairments
		}
		s := synth.HDX(frame, &im.o)
		rs := decodeAll(demod.NewHDX(nil), s)
		if len(rs) < 2 || im.o.Noise == 0 && len(rs) != 3 {
			t.Errorf("%s: %d reads, want 3 (≥ 2 with noise)", im.name, len(rs))
		}
		for _, r := range rs {
			if r.Telegram.Code != codeAnimal {
				t.Errorf("%s: read %v, want %v", im.name, r.Telegram.Code, codeAnimal)
			}
		}
	}
}

// TestNoOtherProtocol: a decoder never reads the other protocols'
// signals, and none reads plain noise.
func TestNoOtherProtocol(t *testing.T) {
	t.Parallel()
	o := &synth.Opts{Noise: 0.2, Repeats: 4}
	sig := map[reader.Air][]int16{
		reader.AirFDXB: synth.FDXB(iso11785.EncodeFDXB(codeAnimal, 0), o),
		reader.AirFDXA: synth.FDXA(fdxaBytes(0x1234567F1), o),
		reader.AirHDX:  synth.HDX(hdxFrame(codeAnimal, 0), o),
	}
	r := rand.New(rand.NewPCG(3, 4))
	noise := make([]int16, 1<<18)
	for i := range noise {
		noise[i] = int16(r.NormFloat64() * 50)
	}
	sig["noise"] = noise
	for p, s := range sig {
		for _, d := range allDecoders(nil) {
			n := len(decodeAll(d, s))
			if d.Protocol() == p && n == 0 {
				t.Errorf("%s read nothing in its own signal", d)
			}
			if d.Protocol() != p && n != 0 {
				t.Errorf("%s read %d telegrams in a %s signal", d, n, p)
			}
		}
	}
}

func TestResultRead(t *testing.T) {
	t.Parallel()
	tg := iso11785.EncodeFDXB(codeExt, 0x16A)
	rs := decodeAll(demod.NewFDXB(nil), synth.FDXB(tg, nil))
	if len(rs) == 0 {
		t.Fatal("no read")
	}
	rd, err := rs[0].Read()
	if err != nil {
		t.Fatal(err)
	}
	if rd.ID.Code != "999000000112233" || rd.Protocol != reader.AirFDXB || !rd.HasExt || rd.Ext != 0x16A ||
		!bytes.Equal(rd.Raw, tg[:]) || rd.Quality <= 0.9 {
		t.Errorf("Read() = %+v, want 999000000112233 FDX-B ext 16A", rd)
	}
	fa := decodeAll(demod.NewFDXA(nil), synth.FDXA(fdxaBytes(0x0000013531), nil))
	if len(fa) == 0 {
		t.Fatal("no FDX-A read")
	}
	rd, err = fa[0].Read()
	if err != nil || rd.ID.Code != "0000013531" || rd.Protocol != reader.AirFDXA {
		t.Errorf("FDX-A Read() = %+v, %v, want 0000013531", rd, err)
	}
}

// TestOffset: the reported offset is where the telegram starts.
func TestOffset(t *testing.T) {
	t.Parallel()
	tg := iso11785.EncodeFDXB(codeAnimal, 0)
	for _, lead := range []int{0, 1000, 3001} {
		rs := decodeAll(demod.NewFDXB(nil), synth.FDXB(tg, &synth.Opts{Lead: lead, Repeats: 4}))
		if len(rs) < 3 {
			t.Fatalf("lead %d: %d reads, want ≥ 3", lead, len(rs))
		}
		for _, r := range rs {
			k := (r.Offset - int64(lead) + 2048) / 4096
			want := int64(lead) + 4096*k
			// The clock settles within the first telegram; later ones
			// are placed within a sample or two.
			tol := int64(3)
			if k == 0 {
				tol = 12
			}
			if d := r.Offset - want; d < -tol || d > tol {
				t.Errorf("lead %d: offset %d, want %d", lead, r.Offset, want)
			}
			if r.Length < 4096-2*tol || r.Length > 4096+2*tol {
				t.Errorf("lead %d: length %d, want 4096", lead, r.Length)
			}
		}
	}
}

// TestAmplitudeSteps: the tag moves in the field, the amplitude jumps
// by ×10 and ÷10 between telegrams; every telegram after the first of
// each piece is still read.
func TestAmplitudeSteps(t *testing.T) {
	t.Parallel()
	tg := iso11785.EncodeFDXB(codeAnimal, 0)
	var s []int16
	for i, a := range []float64{100, 1000, 100, 10, 100} {
		s = append(s, synth.FDXB(tg, &synth.Opts{Amplitude: a, Noise: 0.2, Seed: uint64(i + 1), Repeats: 3})...)
	}
	n := 0
	for _, r := range decodeAll(demod.NewFDXB(nil), s) {
		if r.Raw != tg {
			t.Fatalf("read %X, want %X", r.Raw, tg)
		}
		n++
	}
	if n < 10 {
		t.Errorf("%d reads over 5 amplitude steps of 3 telegrams, want ≥ 10", n)
	}
}

// TestSampleRate: the envelope sampled at 2.5 samples per carrier cycle
// (a 335.5 kHz ADC) reads with Opts.SampleRate.
func TestSampleRate(t *testing.T) {
	t.Parallel()
	tg := iso11785.EncodeFDXB(codeAnimal, 0)
	one := synth.FDXB(tg, &synth.Opts{Noise: 0.3, Repeats: 3})
	up := make([]int16, len(one)*5/2)
	for i := range up {
		up[i] = one[i*2/5]
	}
	rs := decodeAll(demod.NewFDXB(&demod.Opts{SampleRate: 2.5 * 134200}), up)
	if len(rs) < 2 {
		t.Fatalf("%d reads at 2.5 samples per cycle, want ≥ 2", len(rs))
	}
	for _, r := range rs {
		if r.Raw != tg {
			t.Errorf("read %X, want %X", r.Raw, tg)
		}
		if k := float64(r.Offset) / (4096 * 2.5); k-math.Round(k) > 0.01 || k-math.Round(k) < -0.01 {
			t.Errorf("offset %d is not at a telegram start", r.Offset)
		}
	}
	fa := synth.FDXA(fdxaBytes(0x0000013531), &synth.Opts{Noise: 0.3})
	up = make([]int16, len(fa)*2)
	for i := range up {
		up[i] = fa[i/2]
	}
	if n := len(decodeAll(demod.NewFDXA(&demod.Opts{SampleRate: 250000}), up)); n < 2 {
		t.Errorf("FDX-A at 2 samples per cycle: %d reads, want ≥ 2", n)
	}
}
