package chipid

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"testing"

	"github.com/chipdesk/chipdesk/reader/internal/vectortest"
	"github.com/chipdesk/chipdesk/reader/iso11784"
)

func iso(t testing.TB, s string) iso11784.Code {
	t.Helper()
	c, err := iso11784.ParseDecimal(s)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestParse(t *testing.T) {
	t.Parallel()
	homeAgain := ID{Kind: KindISO, Code: "985121004515220", ISO: iso(t, "985121004515220")}
	allflex := ID{Kind: KindISO, Code: "982000001088420", ISO: iso(t, "982000001088420")}
	homeAgainFull := FromISO(iso11784.Code(0x8000F65C2C6E5F94))
	aeg := FromISO(iso11784.Code(0x0000F25CBE991A14))
	avid := ID{Kind: KindAVID, Code: "012345678"}
	tests := []struct {
		name string
		in   string
		opts *Opts
		want ID
	}{
		{"15 digits", "985121004515220", nil, homeAgain},
		{"display form", "985 121004515220", nil, homeAgain},
		{"dot", "982.000001088420", nil, allflex},
		{"dash", "982-000001088420", nil, allflex},
		{"underscore (Priority 1 Design)", "982_000001088420", nil, allflex},
		{"slash", "982/000001088420", nil, allflex},
		{"Allflex LA line", "LA 982 000001088420\r\n", nil, allflex.withAnimal(true)},
		{"lower-case la", "la 982 000001088420", nil, allflex.withAnimal(true)},
		{"ISO word", "ISO: 982000001088420", nil, allflex},
		{"FDX-B word", "FDX-B 982 000001088420", nil, allflex},
		{"HDX word", "HDX 982-000001088420", nil, allflex},
		{"STX ETX around", "\x02985121004515220\x03", nil, homeAgain},
		{"spaces around", "  985 121004515220 \t", nil, homeAgain},
		{"grouped by four", "985 1210 0451 5220", nil, homeAgain},
		{"Biomark hex country", "3DD.003BA20748", nil, ID{Kind: KindISO, Code: "989001000474440", ISO: iso(t, "989001000474440")}},
		{"16 hex value", "8000F65C2C6E5F94", nil, homeAgainFull},
		{"16 hex value lower case", "8000f65c2c6e5f94", nil, homeAgainFull},
		{"16 hex air order (Proxmark Raw)", "29FA76343A6F0001", nil, homeAgainFull},
		{"16 hex air order, AEG ARE record", "2858997D3A4F0000", nil, aeg},
		{"16 hex forced raw", "29FA76343A6F0001", &Opts{Form: FormHexAir}, homeAgainFull},
		{"MULTITAG Z line", "Z2858997D3A4F0000", nil, aeg},
		{"Tru-Test 16 digits", "0826012345600001", nil, ID{Kind: KindISO, Code: "826012345600001", ISO: iso(t, "826012345600001")}},
		{"Tru-Test declared", "0982000123456789", &Opts{Form: FormDecimal}, ID{Kind: KindISO, Code: "982000123456789", ISO: iso(t, "982000123456789")}},
		{"4-digit country", "0999 000000123456", nil, ID{Kind: KindISO, Code: "999000000123456", ISO: iso(t, "999000000123456")}},
		{"TIRIS style LA line", "LA 00000 0 982 000001088420\r\n", nil, allflex.withAnimal(true)},
		{"Datamars A form", "A 00000 0 982 000017383201", nil, ID{Kind: KindISO, Code: "982000017383201", ISO: iso(t, "982000017383201")}.withAnimal(true)},
		{"Digi-Star compact A form", "A0000000964000000123456", nil, ID{Kind: KindISO, Code: "964000000123456", ISO: iso(t, "964000000123456")}.withAnimal(true)},
		{"23 digits, not an animal", "00000010964000000123456", nil, ID{Kind: KindISO, Code: "964000000123456", ISO: iso(t, "964000000123456").WithDataBlock(true)}.withAnimal(false)},
		{"EM4102 word", "EM4102 06001259E3", nil, ID{Kind: KindEM4102, Code: "06001259E3"}},
		{"EM4102 declared", "06001259E3", &Opts{Form: FormEM4102}, ID{Kind: KindEM4102, Code: "06001259E3"}},
		{"AVID 9 digits", "012345678", nil, avid},
		{"AVID stars", "012*345*678", nil, avid},
		{"AVID dashes", "012-345-678", nil, avid},
		{"AVID word", "AVID*012*345*678", nil, avid},
		{"AVID word lower case spaced", "avid 012 345 678", nil, avid},
		{"FECAVA", "4A3D5C1B2E", nil, ID{Kind: KindFECAVA, Code: "4A3D5C1B2E"}},
		{"FECAVA lower case", "4a3d5c1b2e", nil, ID{Kind: KindFECAVA, Code: "4A3D5C1B2E"}},
		{"FECAVA digits only", "0000013531", nil, ID{Kind: KindFECAVA, Code: "0000013531"}},
		{"FDX-A word", "FDX-A 0000013531", nil, ID{Kind: KindFECAVA, Code: "0000013531"}},
		{"Trovan grouping", "00-1234-5678", nil, ID{Kind: KindTrovan, Code: "0012345678"}},
		{"Trovan word", "TROVAN 0012345678", nil, ID{Kind: KindTrovan, Code: "0012345678"}},
		{"Trovan word lower case", "trovan 7f-abcd-ef01", nil, ID{Kind: KindTrovan, Code: "7FABCDEF01"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := Parse(tt.in, tt.opts)
			if err != nil || got != tt.want {
				t.Errorf("Parse(%q) = %+v, %v, want %+v", tt.in, got, err, tt.want)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   string
		opts *Opts
		want error
	}{
		{"empty", "", nil, ErrInvalid},
		{"blank", " \r\n", nil, ErrInvalid},
		{"short", "12345", nil, ErrInvalid},
		{"14 digits", "98512100451522", nil, ErrInvalid},
		{"national over 38 bits (ISO 11784 clause 5)", "999 274877906944", nil, ErrInvalid},
		{"15 with a letter", "98512100451522O", nil, ErrInvalid},
		{"ISO word with 9 digits", "ISO 012345678", nil, ErrInvalid},
		{"AVID word with 15 digits", "AVID 985121004515220", nil, ErrInvalid},
		{"AVID mixed separators", "012*345-678", nil, ErrInvalid},
		{"10 letters not hex", "ABCDEFGHIJ", nil, ErrInvalid},
		{"AKC TR code", "TR1234567890AB", nil, ErrInvalid},
		{"Trovan over 39 bits", "80-1234-5678", nil, ErrInvalid},
		{"FECAVA word with Trovan grouping of AVID", "AVID 00-1234-5678", nil, ErrInvalid},
		{"whole RAT reply is a driver's frame", "999_000000001007_1_0_AEC4_000000", nil, ErrInvalid},
		{"reserved form, data-block flag 2", "A 00000 2 982 000017383201", nil, ErrInvalid},
		{"4-digit country over 999", "1999 000000123456", nil, ErrInvalid},
		{"23 digits, flag 2", "20000000964000000123456", nil, ErrInvalid},
		{"EM4102 word with 16 hex", "EM 29FA76343A6F0001", nil, ErrInvalid},
		{"Allflex industrial", "LR 0006 0000000018514348", nil, ErrInvalid},
		{"status reply", "?1", nil, ErrInvalid},
		{"country 1023 in both bit orders", "8000FFC00001B669", nil, ErrInvalid},
		{"16 hex forced value, country 1023", "8000FFC00001B669", &Opts{Form: FormHex64}, ErrInvalid},
		{"non-ASCII", "985 1210045152２0", nil, ErrInvalid},
		{"hex country with dash", "3DD-003BA20748", nil, ErrInvalid},
		{"too many groups", "1 2 3 4 5 6 7 8 9", nil, ErrInvalid},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := Parse(tt.in, tt.opts)
			if !errors.Is(err, tt.want) {
				t.Errorf("Parse(%q) = %+v, %v, want %v", tt.in, got, err, tt.want)
			}
			if got != (ID{}) {
				t.Errorf("Parse(%q) returned %+v with the error", tt.in, got)
			}
		})
	}
}

// TestParseAmbiguous: 16 hex digits that are a possible code in both
// bit orders are reported, not guessed; the declared form picks one.
func TestParseAmbiguous(t *testing.T) {
	t.Parallel()
	// a: animal, country 4 (Afghanistan), national 2^20; its bit
	// reversal: country 32 (Argentina), national 2^23+1, not an animal.
	a, _ := iso11784.New(4, 1<<20, true)
	b := iso11784.FromReversed(uint64(a))
	if !plausible(a) || !plausible(b) || !Possible(a) || !Possible(b) || a == b {
		t.Fatalf("test value not ambiguous: %#v / %#v", a, b)
	}
	in := fmt.Sprintf("%016X", uint64(a))
	_, err := Parse(in, &Opts{Locale: "en_US"})
	var ae *AmbiguousError
	if !errors.As(err, &ae) || !errors.Is(err, ErrAmbiguous) {
		t.Fatalf("Parse(%q) = %v, want *AmbiguousError", in, err)
	}
	if len(ae.Candidates) != 2 || ae.Candidates[0] != FromISO(a) || ae.Candidates[1] != FromISO(b) || ae.Input != in {
		t.Errorf("Parse(%q) candidates = %+v", in, ae.Candidates)
	}
	if ae.Error() == "" {
		t.Error("empty error text")
	}
	for _, o := range []struct {
		f    Form
		want iso11784.Code
	}{{FormHex64, a}, {FormHexAir, b}} {
		got, err := Parse(in, &Opts{Form: o.f})
		if err != nil || got != FromISO(o.want) {
			t.Errorf("Parse(%q, %s) = %+v, %v, want %#v", in, o.f, got, err, o.want)
		}
	}
	// The case: the Tru-Test text's air-order reading has
	// country 26, which ISO 3166 does not assign: decimal it is.
	if got, err := Parse("0826012345600001", nil); err != nil || got.Code != "826012345600001" {
		t.Errorf("Parse(Tru-Test) = %+v, %v", got, err)
	}
}

func readJSON(t testing.TB, name string, v any) {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatal(err)
	}
}

// TestParseVectors reads every positive FDX-B vector in each of its
// written forms.
func TestParseVectors(t *testing.T) {
	t.Parallel()
	pos, neg := vectortest.LoadFDXB(t, "testdata/fdxb_vectors.json")
	for _, v := range pos {
		t.Run(v.Case, func(t *testing.T) {
			t.Parallel()
			id64, err := strconv.ParseUint(v.ID64, 16, 64)
			if err != nil {
				t.Fatal(err)
			}
			full := FromISO(iso11784.Code(id64))
			short := ID{Kind: KindISO, Code: v.ID15, ISO: iso11784.Code(id64).ID15()}
			for _, in := range []struct {
				text string
				want ID
			}{{v.ID15, short}, {v.Display, short}, {v.ID64, full}, {v.RawBitrev, full}} {
				got, err := Parse(in.text, nil)
				if err != nil || got != in.want {
					t.Errorf("Parse(%q) = %+v, %v, want %+v", in.text, got, err, in.want)
				}
			}
			if a, known := full.Animal(); !known || a != (v.Animal == 1) {
				t.Errorf("Animal() = %t, %t, want %t, true", a, known, v.Animal == 1)
			}
			if _, known := short.Animal(); known {
				t.Errorf("15-digit form claims a known animal flag")
			}
		})
	}
	for _, v := range neg {
		if v.ID64 == "" {
			continue
		}
		if got, err := Parse(v.ID64, nil); !errors.Is(err, ErrInvalid) {
			t.Errorf("Parse(%q) = %+v, %v, want ErrInvalid (%s)", v.ID64, got, err, v.Case)
		}
	}
}

// TestReaderLines runs the reader lines quoted from manuals through
// Parse. Lines that are a bare number (optionally with the Allflex "LA"
// prefix and CR/LF) are read whole. Lines that are a reader's frame with
// further fields (the Priority 1 Design RAT reply, the Allflex TIRIS
// format, the AEG ARE record) belong to that reader's driver, which cuts
// the number out; for them the test checks that Parse rejects the whole
// frame and accepts the part a driver hands over.
func TestReaderLines(t *testing.T) {
	t.Parallel()
	var f struct {
		Lines []struct {
			Reader string `json:"reader"`
			Raw    string `json:"raw"`
		} `json:"lines"`
	}
	readJSON(t, "reader_lines.json", &f)
	type want struct {
		whole   string // expected code of the whole line, "" = rejected
		part    string // what the driver hands over, "" = nothing
		partIDs string // expected code of part
		animal  int    // -1 unknown
	}
	wants := map[string]want{
		"LA 982 000001088420\r\n":            {"982000001088420", "", "", -1},
		"LA 982 000000255895\r\n":            {"982000000255895", "", "", -1},
		"LA 00000 0 982 000001088420\r\n":    {"982000001088420", "", "", -1},
		"LR 0006 0000000018514348\r\n":       {"", "", "", -1}, // industrial tag, not an animal chip
		"LA 982 000000678234\r\n":            {"982000000678234", "", "", -1},
		"999_000000001008\r":                 {"999000000001008", "", "", -1},
		"999_000000001007_1_0_AEC4_000000\r": {"", "999_000000001007", "999000000001007", -1},
		"?1\r":                               {"", "", "", -1}, // status
		"\x02K010101000133F2858997D3A4F00001______________46F6\x03": {"", "2858997D3A4F0000", "969123456789012", 0},
		"06001259E3\r": {"0600125" + "9E3", "", "", -1},
	}
	if len(f.Lines) != len(wants) {
		t.Fatalf("%d lines in reader_lines.json, %d expectations", len(f.Lines), len(wants))
	}
	for _, l := range f.Lines {
		w, ok := wants[l.Raw]
		if !ok {
			t.Errorf("no expectation for %q (%s)", l.Raw, l.Reader)
			continue
		}
		got, err := Parse(l.Raw, nil)
		switch {
		case w.whole == "" && err == nil:
			t.Errorf("Parse(%q) = %+v, want an error (%s)", l.Raw, got, l.Reader)
		case w.whole != "" && (err != nil || got.Code != w.whole):
			t.Errorf("Parse(%q) = %+v, %v, want code %s (%s)", l.Raw, got, err, w.whole, l.Reader)
		}
		if w.part == "" {
			continue
		}
		got, err = Parse(w.part, nil)
		if err != nil || got.Code != w.partIDs {
			t.Errorf("Parse(%q) = %+v, %v, want code %s (%s)", w.part, got, err, w.partIDs, l.Reader)
		}
		if a, known := got.Animal(); w.animal >= 0 && (!known || a != (w.animal == 1)) {
			t.Errorf("Parse(%q).Animal() = %t, %t, want %d", w.part, a, known, w.animal)
		}
	}
	// The EM4100 line of the Priority 1 Design reader is 10 hex digits,
	// which Parse cannot tell from a FECAVA code: a driver must not hand
	// EM4100 reads to chipid (they are no animal chips).
	if got, _ := Parse("06001259E3", nil); got.Kind != KindFECAVA {
		t.Errorf("Parse(EM4100 line) kind = %q", got.Kind)
	}
}

func TestFromFECAVA(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in      string
		want    ID
		wantErr bool
	}{
		{"0000013531", ID{Kind: KindFECAVA, Code: "0000013531"}, false},
		{"4a3d5c1b2e", ID{Kind: KindFECAVA, Code: "4A3D5C1B2E"}, false},
		{"4A3D5C1B2", ID{}, true},
		{"4A3D5C1B2G", ID{}, true},
	}
	for _, tt := range tests {
		got, err := FromFECAVA(tt.in)
		if got != tt.want || (err != nil) != tt.wantErr || err != nil && !errors.Is(err, ErrInvalid) {
			t.Errorf("FromFECAVA(%q) = %+v, %v, want %+v", tt.in, got, err, tt.want)
		}
	}
}

// FuzzParse: whatever Parse accepts, it reads back from the id's String
// as the same kind and code (and the same ISO value when the text had
// only the 15 digits); and it never panics.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"985121004515220", "LA 982 000001088420\r\n", "29FA76343A6F0001", "8000F65C2C6E5F94",
		"AVID*012*345*678", "4A3D5C1B2E", "00-1234-5678", "3DD.003BA20748", "TROVAN 0012345678",
		"999_000000001007_1_0_AEC4_000000", "", "0000000000000003",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		id, err := Parse(s, nil)
		if err != nil {
			var ae *AmbiguousError
			if errors.As(err, &ae) {
				for _, c := range ae.Candidates {
					if c.Kind != KindISO || c.ISO.Valid() != nil {
						t.Fatalf("Parse(%q): bad candidate %+v", s, c)
					}
				}
			} else if !errors.Is(err, ErrInvalid) {
				t.Fatalf("Parse(%q) = %v, neither invalid nor ambiguous", s, err)
			}
			return
		}
		back, err := Parse(id.String(), nil)
		if err != nil {
			t.Fatalf("Parse(%q) = %+v; Parse(%q) = %v", s, id, id.String(), err)
		}
		want := id
		if id.Full || id.AnimalStated {
			want = ID{Kind: KindISO, Code: id.Code, ISO: id.ISO.ID15()}
		}
		if back != want {
			t.Fatalf("Parse(%q) = %+v; Parse(%q) = %+v, want %+v", s, id, id.String(), back, want)
		}
		if id.Kind == KindISO && (id.Code != id.ISO.String() || id.ISO.Valid() != nil) {
			t.Fatalf("Parse(%q) = inconsistent %+v", s, id)
		}
	})
}

// FuzzFromISO: a code a decoder returns, printed in either 16-hex form,
// parses back to itself (or to an ambiguity that names it).
func FuzzFromISO(f *testing.F) {
	f.Add(uint64(0x8000F65C2C6E5F94))
	f.Add(uint64(0x0000F25CBE991A14))
	f.Fuzz(func(t *testing.T, v uint64) {
		c := iso11784.Code(v)
		if !plausible(c) || !Possible(c) {
			return // no real chip's code
		}
		for _, form := range []uint64{v, c.Reversed()} {
			in := strconv.FormatUint(form, 16)
			for len(in) < 16 {
				in = "0" + in
			}
			id, err := Parse(in, nil)
			var ae *AmbiguousError
			switch {
			case errors.As(err, &ae):
				if !slices.Contains(ae.Candidates, FromISO(c)) {
					t.Fatalf("Parse(%q) = %v, does not name %#v", in, err, c)
				}
			case err != nil || id != FromISO(c):
				t.Fatalf("Parse(%q) = %+v, %v, want %+v", in, id, err, FromISO(c))
			}
		}
	})
}

func BenchmarkParse(b *testing.B) {
	for _, bm := range []struct{ name, in string }{
		{"15digits", "985121004515220"},
		{"15digitsCRLF", "985121004515220\r\n"},
		{"allflex", "LA 982 000001088420\r\n"},
		{"raw16", "29FA76343A6F0001"},
		{"avid", "AVID*012*345*678"},
		{"fecava", "4A3D5C1B2E"},
	} {
		b.Run(bm.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Parse(bm.in, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
