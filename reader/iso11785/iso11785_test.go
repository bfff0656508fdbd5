package iso11785

import (
	"bytes"
	"encoding/hex"
	"errors"
	"math"
	"testing"

	"github.com/chipdesk/chipdesk/reader/internal/vectortest"
	"github.com/chipdesk/chipdesk/reader/iso11784"
)

func loadVectors(t testing.TB) (pos, neg []vectortest.FDXB) {
	t.Helper()
	return vectortest.LoadFDXB(t, "testdata/fdxb_vectors.json")
}

func telegram(t testing.TB, s string) [16]byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil || len(b) != 16 {
		t.Fatalf("telegram %q: %v", s, err)
	}
	return [16]byte(b)
}

// TestCRC16Check: the CRC-16/KERMIT check value (ISO 11785 CRC, CCITT
// polynomial, reflected).
func TestCRC16Check(t *testing.T) {
	t.Parallel()
	if got := CRC16([]byte("123456789")); got != 0x2189 {
		t.Errorf("CRC16(123456789) = %04X, want 2189", got)
	}
	if got := CRC16(nil); got != 0 {
		t.Errorf("CRC16(nil) = %04X, want 0", got)
	}
	// TI HDX read/write tag of the Proxmark3 trace lf_TI.pm3.
	if got := CRC16(bytes.Repeat([]byte{0x55}, 8)); got != 0x852C {
		t.Errorf("CRC16(55×8) = %04X, want 852C", got)
	}
}

// TestFDXBVectors: ISO 11785 clause 6.2 telegrams of every vector,
// encoded bit-exactly and decoded back.
func TestFDXBVectors(t *testing.T) {
	t.Parallel()
	pos, _ := loadVectors(t)
	for _, v := range pos {
		t.Run(v.Case, func(t *testing.T) {
			t.Parallel()
			code := iso11784.Code(vectortest.Hex(t, v.ID64))
			ext := uint32(vectortest.Hex(t, v.Ext24))
			want := telegram(t, v.Telegram)
			if got := EncodeFDXB(code, ext); got != want {
				t.Errorf("EncodeFDXB(%#x, %06X) = %X, want %X", uint64(code), ext, got, want)
			}
			got, err := DecodeFDXB(want)
			wantT := Telegram{Code: code, CRC: uint16(vectortest.Hex(t, v.CRC16)), Ext: ext}
			if err != nil || got != wantT {
				t.Errorf("DecodeFDXB(%X) = %+v, %v, want %+v", want, got, err, wantT)
			}
			if w := code.WireBytes(); CRC16(w[:]) != wantT.CRC {
				t.Errorf("CRC16(% X) = %04X, want %04X", w, CRC16(w[:]), wantT.CRC)
			}
			if got := CodeCRC(code); got != wantT.CRC {
				t.Errorf("CodeCRC(%#x) = %04X, want %04X", uint64(code), got, wantT.CRC)
			}
			hdx := EncodeHDX(code, ext)
			if g, err := DecodeHDX(hdx); err != nil || g != wantT {
				t.Errorf("DecodeHDX(% X) = %+v, %v, want %+v", hdx, g, err, wantT)
			}
			f, ok := got.Temperature()
			if v.DataBlock == 1 && (!ok || f != 95.2) || v.DataBlock == 0 && ok {
				t.Errorf("Temperature() = %v, %t", f, ok)
			}
		})
	}
}

func TestFDXBNegative(t *testing.T) {
	t.Parallel()
	_, neg := loadVectors(t)
	wants := []error{ErrCRC, ErrFraming, ErrCRC, ErrInvalidCode}
	for i, v := range neg {
		t.Run(v.Case, func(t *testing.T) {
			t.Parallel()
			tg := telegram(t, v.Telegram)
			got, err := DecodeFDXB(tg)
			if !errors.Is(err, wants[i]) {
				t.Errorf("DecodeFDXB(%X) = %+v, %v, want %v (%s)", tg, got, err, wants[i], v.Reason)
			}
			if v.ID64 != "" && got.Code != iso11784.Code(vectortest.Hex(t, v.ID64)) {
				t.Errorf("DecodeFDXB(%X).Code = %#x, want the received %s", tg, uint64(got.Code), v.ID64)
			}
		})
	}
}

func TestFDXBHeader(t *testing.T) {
	t.Parallel()
	good := EncodeFDXB(iso11784.Code(0x8000F65C2C6E5F94), 0)
	tests := []struct {
		name string
		bit  int
		want error
	}{
		{"header zero set", 3, ErrHeader},
		{"header one cleared", 10, ErrHeader},
		{"last control bit cleared", 127, ErrFraming},
		{"extension bit flipped (unprotected by the CRC)", 120, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			b := good
			b[tt.bit/8] ^= 0x80 >> (tt.bit % 8)
			if _, err := DecodeFDXB(b); !errors.Is(err, tt.want) {
				t.Errorf("DecodeFDXB(%X) = %v, want %v", b, err, tt.want)
			}
		})
	}
}

func TestHDX(t *testing.T) {
	t.Parallel()
	code := iso11784.Code(0x8000F65C2C6E5F94)
	w := code.WireBytes()
	crc := []byte{0x0A, 0xD8}
	frame := func(parts ...[]byte) []byte { return bytes.Join(parts, nil) }
	ti := frame([]byte{0xFE}, bytes.Repeat([]byte{0x55}, 8), []byte{0x2C, 0x85, 0xFE})
	tests := []struct {
		name string
		in   []byte
		want Telegram
		err  error
	}{
		{"short form", frame([]byte{0x7E}, w[:], crc), Telegram{Code: code, CRC: 0xD80A}, nil},
		{"with stop byte", frame([]byte{0x7E}, w[:], crc, []byte{0x7E}), Telegram{Code: code, CRC: 0xD80A}, nil},
		{"with trailer", frame([]byte{0x7E}, w[:], crc, []byte{0x6A, 0x01, 0x00}), Telegram{Code: code, CRC: 0xD80A, Ext: 0x16A}, nil},
		{"trailer and stop", frame([]byte{0x7E}, w[:], crc, []byte{0x6A, 0x01, 0x00, 0x7E}), Telegram{Code: code, CRC: 0xD80A, Ext: 0x16A}, nil},
		{"TI read/write tag (lf_TI.pm3)", ti, Telegram{Code: iso11784.Code(0x5555555555555555), CRC: 0x852C}, nil},
		{"bad start", frame([]byte{0x7F}, w[:], crc), Telegram{}, ErrHeader},
		{"stop differs from start", frame([]byte{0x7E}, w[:], crc, []byte{0xFE}), Telegram{}, ErrFraming},
		{"bad CRC", frame([]byte{0x7E}, w[:], []byte{0x0B, 0xD8}), Telegram{Code: code, CRC: 0xD80B}, ErrCRC},
		{"too short", frame([]byte{0x7E}, w[:]), Telegram{}, ErrLength},
		{"13 bytes", frame([]byte{0x7E}, w[:], crc, []byte{1, 2}), Telegram{}, ErrLength},
		{"empty", nil, Telegram{}, ErrLength},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := DecodeHDX(tt.in)
			if got != tt.want || !errors.Is(err, tt.err) {
				t.Errorf("DecodeHDX(% X) = %+v, %v, want %+v, %v", tt.in, got, err, tt.want, tt.err)
			}
		})
	}
	// Country 1023 with a right CRC.
	bad := iso11784.Code(0x8000FFC00001B669)
	if _, err := DecodeHDX(EncodeHDX(bad, 0)); !errors.Is(err, ErrInvalidCode) {
		t.Errorf("DecodeHDX(country 1023) = %v, want ErrInvalidCode", err)
	}
}

func TestFDXA(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   []byte
		want string
		err  error
	}{
		// Proxmark3 trace lf_EM4305_fdxa_destron.pm3.
		{"Destron trace", []byte{0x80, 0x80, 0x01, 0xB5, 0x31}, "0000013531", nil},
		{"even parity", []byte{0x00, 0x80, 0x01, 0xB5, 0x31}, "", ErrParity},
		{"short", []byte{0x80, 0x80, 0x01, 0xB5}, "", ErrLength},
		{"long", []byte{0x80, 0x80, 0x01, 0xB5, 0x31, 0x80}, "", ErrLength},
	}
	for _, tt := range tests {
		got, err := DecodeFDXA(tt.in)
		if !errors.Is(err, tt.err) || err == nil && got.String() != tt.want {
			t.Errorf("DecodeFDXA(% X) = %v, %v, want %s, %v", tt.in, got, err, tt.want, tt.err)
		}
	}
	enc, err := EncodeFDXA(FDXA{0, 0, 1, 0x35, 0x31})
	if err != nil || enc != [5]byte{0x80, 0x80, 0x01, 0xB5, 0x31} {
		t.Errorf("EncodeFDXA = % X, %v", enc, err)
	}
	if _, err := EncodeFDXA(FDXA{0x80}); !errors.Is(err, ErrInvalidCode) {
		t.Errorf("EncodeFDXA(80…) = %v, want ErrInvalidCode", err)
	}
}

func TestBioThermo(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		ext  uint32
		f    float64
		ok   bool
	}{
		{"Proxmark3 traces: 95.2 °F", 0x00016A, 95.2, true},
		{"raw 0, parity 1", 0x000100, 74, true},
		{"raw FF, parity 1", 0x0001FF, 125, true},
		{"even parity", 0x00006A, 0, false},
		{"bit 9 set", 0x00036A, 0, false},
		{"bit 11 set", 0x00096A, 0, false},
		{"over 24 bits", 0x0100016A, 0, false},
	}
	for _, tt := range tests {
		f, ok := BioThermo(tt.ext)
		if f != tt.f || ok != tt.ok {
			t.Errorf("BioThermo(%06X) = %v, %t, want %v, %t", tt.ext, f, ok, tt.f, tt.ok)
		}
	}
	if c := Celsius(95.2); math.Abs(c-35.1) > 0.05 {
		t.Errorf("Celsius(95.2) = %v, want 35.1", c)
	}
	// The extension carries data only with the data-block flag.
	if _, ok := (Telegram{Code: 0x8000F9C00001B669, Ext: 0x16A}).Temperature(); ok {
		t.Error("Temperature without data-block flag reported ok")
	}
}

// FuzzFDXB: encode then decode returns the code and extension for every
// valid code; decoding any 16 bytes never panics, and whatever decodes
// encodes back to the same telegram.
func FuzzFDXB(f *testing.F) {
	f.Add(uint64(0x8000F65C2C6E5F94), uint32(0), []byte{})
	f.Add(uint64(0x8001F9C00001B669), uint32(0x16A), []byte("0032D6DC0402079FC040613A3AB60201"))
	f.Fuzz(func(t *testing.T, v uint64, ext uint32, raw []byte) {
		code := iso11784.Code(v)
		ext &= 0xffffff
		tg := EncodeFDXB(code, ext)
		got, err := DecodeFDXB(tg)
		if code.Valid() != nil {
			if !errors.Is(err, ErrInvalidCode) {
				t.Fatalf("DecodeFDXB(EncodeFDXB(%#x)) = %v, want ErrInvalidCode", v, err)
			}
		} else if err != nil || got.Code != code || got.Ext != ext || got.CRC != CodeCRC(code) {
			t.Fatalf("DecodeFDXB(EncodeFDXB(%#x, %06X)) = %+v, %v", v, ext, got, err)
		}
		var in [16]byte
		copy(in[:], raw)
		if d, err := DecodeFDXB(in); err == nil && EncodeFDXB(d.Code, d.Ext) != in {
			t.Fatalf("DecodeFDXB(%X) = %+v, which encodes otherwise", in, d)
		}
	})
}

// FuzzHDX: EncodeHDX then DecodeHDX returns the input; any bytes decode
// without panic, and a decoded 14-byte 0x7E telegram encodes back.
func FuzzHDX(f *testing.F) {
	f.Add(uint64(0x8000F65C2C6E5F94), uint32(0x16A), []byte{0x7E})
	f.Fuzz(func(t *testing.T, v uint64, ext uint32, raw []byte) {
		code := iso11784.Code(v)
		ext &= 0xffffff
		got, err := DecodeHDX(EncodeHDX(code, ext))
		if code.Valid() != nil {
			if !errors.Is(err, ErrInvalidCode) {
				t.Fatalf("DecodeHDX(EncodeHDX(%#x)) = %v", v, err)
			}
		} else if err != nil || got != (Telegram{Code: code, CRC: CodeCRC(code), Ext: ext}) {
			t.Fatalf("DecodeHDX(EncodeHDX(%#x, %06X)) = %+v, %v", v, ext, got, err)
		}
		if d, err := DecodeHDX(raw); err == nil && len(raw) == 14 && raw[0] == HDXStartRO &&
			!bytes.Equal(EncodeHDX(d.Code, d.Ext), raw) {
			t.Fatalf("DecodeHDX(% X) = %+v, which encodes otherwise", raw, d)
		}
	})
}

// FuzzFDXA: encode then decode returns the code; decoded bytes encode
// back to the input.
func FuzzFDXA(f *testing.F) {
	f.Add([]byte{0x80, 0x80, 0x01, 0xB5, 0x31})
	f.Fuzz(func(t *testing.T, raw []byte) {
		a, err := DecodeFDXA(raw)
		if err != nil {
			return
		}
		b, err := EncodeFDXA(a)
		if err != nil || !bytes.Equal(b[:], raw) {
			t.Fatalf("EncodeFDXA(DecodeFDXA(% X)) = % X, %v", raw, b, err)
		}
		var seven FDXA
		for i, v := range raw {
			seven[i] = v & 0x7f
		}
		b, _ = EncodeFDXA(seven)
		if back, err := DecodeFDXA(b[:]); err != nil || back != seven {
			t.Fatalf("DecodeFDXA(EncodeFDXA(%v)) = %v, %v", seven, back, err)
		}
	})
}

func BenchmarkDecodeFDXB(b *testing.B) {
	tg := EncodeFDXB(iso11784.Code(0x8000F65C2C6E5F94), 0)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := DecodeFDXB(tg); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEncodeFDXB(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		_ = EncodeFDXB(iso11784.Code(0x8000F65C2C6E5F94), 0)
	}
}
