package iso11784

import (
	"encoding/hex"
	"errors"
	"strings"
	"testing"

	"github.com/chipdesk/chipdesk/reader/internal/vectortest"
)

func loadVectors(t testing.TB) (pos, neg []vectortest.FDXB) {
	t.Helper()
	return vectortest.LoadFDXB(t, "testdata/fdxb_vectors.json")
}

// TestVectors checks every form of every positive vector (ISO 11784
// clause 5 field layout).
func TestVectors(t *testing.T) {
	t.Parallel()
	pos, _ := loadVectors(t)
	for _, v := range pos {
		t.Run(v.Case, func(t *testing.T) {
			t.Parallel()
			c, err := New(v.Country, v.National, v.Animal == 1)
			if err != nil {
				t.Fatalf("New(%d, %d) = %v", v.Country, v.National, err)
			}
			c = c.WithDataBlock(v.DataBlock == 1).WithReserved(v.Reserved14)
			want := Code(vectortest.Hex(t, v.ID64))
			if c != want {
				t.Fatalf("New(%d, %d) = %#x, want %#x", v.Country, v.National, uint64(c), uint64(want))
			}
			if got := c.String(); got != v.ID15 {
				t.Errorf("String() = %q, want %q", got, v.ID15)
			}
			if got := c.Display(); got != v.Display {
				t.Errorf("Display() = %q, want %q", got, v.Display)
			}
			if got, want := c.Reversed(), vectortest.Hex(t, v.RawBitrev); got != want {
				t.Errorf("Reversed() = %016X, want %016X", got, want)
			}
			if got := FromReversed(vectortest.Hex(t, v.RawBitrev)); got != c {
				t.Errorf("FromReversed(%s) = %#x, want %#x", v.RawBitrev, uint64(got), uint64(c))
			}
			wb, err := hex.DecodeString(strings.ReplaceAll(v.WireBytes, " ", ""))
			if err != nil {
				t.Fatal(err)
			}
			if got := c.WireBytes(); string(got[:]) != string(wb) {
				t.Errorf("WireBytes() = % X, want % X", got, wb)
			}
			if got := FromWireBytes([8]byte(wb)); got != c {
				t.Errorf("FromWireBytes(% X) = %#x, want %#x", wb, uint64(got), uint64(c))
			}
			p, err := ParseDecimal(v.ID15)
			if err != nil || p != c.ID15() {
				t.Errorf("ParseDecimal(%q) = %#x, %v, want %#x", v.ID15, uint64(p), err, uint64(c.ID15()))
			}
			if c.Country() != v.Country || c.National() != v.National || c.Animal() != (v.Animal == 1) ||
				c.DataBlock() != (v.DataBlock == 1) || c.Reserved() != v.Reserved14 {
				t.Errorf("fields of %#v differ from %+v", c, v)
			}
			if err := c.Valid(); err != nil {
				t.Errorf("Valid() = %v", err)
			}
		})
	}
}

// TestInvalidCountry: a country field above 999 is not a valid ISO 11784
// code (clause 5), even with a correct CRC (negative vector 4).
func TestInvalidCountry(t *testing.T) {
	t.Parallel()
	_, neg := loadVectors(t)
	for _, v := range neg {
		if v.ID64 == "" {
			continue
		}
		c := Code(vectortest.Hex(t, v.ID64))
		if err := c.Valid(); !errors.Is(err, ErrRange) {
			t.Errorf("Valid(%#x) = %v, want ErrRange", uint64(c), err)
		}
		if _, ok := c.Manufacturer("en_US"); ok {
			t.Errorf("Manufacturer of invalid %#x reported ok", uint64(c))
		}
	}
}

func TestNew(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		country  uint16
		national uint64
		wantErr  error
	}{
		{"max national (clause 5: 38 bits)", 999, 274877906943, nil},
		{"national over 38 bits", 999, 274877906944, ErrRange},
		{"country 1000", 1000, 1, ErrRange},
		{"country 1023", 1023, 1, ErrRange},
		{"country 0", 0, 1, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := New(tt.country, tt.national, true)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("New(%d, %d) = %v, want %v", tt.country, tt.national, err, tt.wantErr)
			}
			if err == nil && (c.Country() != tt.country || c.National() != tt.national || !c.Animal()) {
				t.Errorf("New(%d, %d) = %#v", tt.country, tt.national, c)
			}
		})
	}
}

func TestParseDecimal(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		in      string
		want    Code
		wantErr error
	}{
		{"plain", "985121004515220", Code(0x0000F65C2C6E5F94), nil},
		{"max national", "999274877906943", Code(999<<38 | MaxNational), nil},
		{"national too big", "999274877906944", 0, ErrRange},
		{"14 digits", "98512100451522", 0, ErrSyntax},
		{"16 digits", "9851210045152201", 0, ErrSyntax},
		{"space", "985 21004515220", 0, ErrSyntax},
		{"letter", "98512100451522A", 0, ErrSyntax},
		{"empty", "", 0, ErrSyntax},
		{"unicode digit", "٩٨٥121004515", 0, ErrSyntax},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := ParseDecimal(tt.in)
			if !errors.Is(err, tt.wantErr) || got != tt.want {
				t.Errorf("ParseDecimal(%q) = %#x, %v, want %#x, %v", tt.in, uint64(got), err, uint64(tt.want), tt.wantErr)
			}
		})
	}
}

func TestFlags(t *testing.T) {
	t.Parallel()
	c, _ := New(985, 121004515220, false)
	c = c.WithRetagCounter(5).WithUserInfo(17).WithRUDI(true).WithDataBlock(true).WithAnimal(true)
	if c.RetagCounter() != 5 || c.UserInfo() != 17 || !c.RUDI() || !c.DataBlock() || !c.Animal() || c.RFU() != 0 {
		t.Fatalf("flags of %#v wrong", c)
	}
	// Reserved field, ISO bits 2–15: retag(3) user(5) RFU(5) RUDI(1).
	if got, want := c.Reserved(), uint16(5<<11|17<<6|1); got != want {
		t.Errorf("Reserved() = %#x, want %#x", got, want)
	}
	if c.ID15() != Code(985<<38|121004515220) {
		t.Errorf("ID15() = %#x", uint64(c.ID15()))
	}
	if c.WithReserved(0).WithDataBlock(false).WithAnimal(false) != c.ID15() {
		t.Errorf("clearing flags did not give ID15")
	}
	if c.WithRetagCounter(0).RetagCounter() != 0 || c.WithUserInfo(0).UserInfo() != 0 || c.WithRUDI(false).RUDI() {
		t.Errorf("clearing single fields failed")
	}
}

// FuzzCode checks that every 64-bit value survives each of its forms.
func FuzzCode(f *testing.F) {
	f.Add(uint64(0x8000F65C2C6E5F94))
	f.Add(uint64(0x8000FFC00001B669))
	f.Add(uint64(0))
	f.Add(^uint64(0))
	f.Fuzz(func(t *testing.T, v uint64) {
		c := Code(v)
		if FromReversed(c.Reversed()) != c {
			t.Fatalf("FromReversed(Reversed(%#x)) != itself", v)
		}
		if FromWireBytes(c.WireBytes()) != c {
			t.Fatalf("FromWireBytes(WireBytes(%#x)) != itself", v)
		}
		n, err := New(c.Country(), c.National(), c.Animal())
		if (err == nil) != (c.Valid() == nil) {
			t.Fatalf("New and Valid disagree on %#x: %v / %v", v, err, c.Valid())
		}
		if err != nil {
			return
		}
		if n.WithDataBlock(c.DataBlock()).WithReserved(c.Reserved()) != c {
			t.Fatalf("New(fields of %#x) = %#x", v, uint64(n))
		}
		p, err := ParseDecimal(c.String())
		if err != nil || p != c.ID15() {
			t.Fatalf("ParseDecimal(%q) = %#x, %v, want %#x", c.String(), uint64(p), err, uint64(c.ID15()))
		}
		if d := c.Display(); d[:3]+d[4:] != c.String() || d[3] != ' ' {
			t.Fatalf("Display() = %q, String() = %q", d, c.String())
		}
	})
}

// FuzzParseDecimal: whatever parses prints back as the same text.
func FuzzParseDecimal(f *testing.F) {
	f.Add("985121004515220")
	f.Add("999274877906944")
	f.Add("98512100451522x")
	f.Fuzz(func(t *testing.T, s string) {
		c, err := ParseDecimal(s)
		if err != nil {
			return
		}
		if c.String() != s {
			t.Fatalf("ParseDecimal(%q).String() = %q", s, c.String())
		}
		if c.Valid() != nil || c.Animal() || c.DataBlock() || c.Reserved() != 0 {
			t.Fatalf("ParseDecimal(%q) = %#v has flags", s, c)
		}
	})
}

func BenchmarkParseDecimal(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ParseDecimal("985121004515220"); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkString(b *testing.B) {
	b.ReportAllocs()
	c := Code(0x8000F65C2C6E5F94)
	for b.Loop() {
		_ = c.String()
	}
}
