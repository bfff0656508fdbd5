package wl134

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/chipdesk/chipdesk/drivers/readers"
	"github.com/chipdesk/chipdesk/drivers/readers/protocoltest"
	"github.com/chipdesk/chipdesk/reader"
)

type vector struct {
	name   string
	ok     bool
	expect string
	raw    []byte
}

// vectors reads testdata/wl134_frames.txt: STATUS | expected | origin | hex.
func vectors(t testing.TB) []vector {
	t.Helper()
	f, err := os.Open("testdata/wl134_frames.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []vector
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") || strings.TrimSpace(line) == "" {
			continue
		}
		col := strings.Split(line, "|")
		if len(col) != 4 {
			t.Fatalf("bad vector line %q", line)
		}
		raw, err := hex.DecodeString(strings.ReplaceAll(strings.TrimSpace(col[3]), " ", ""))
		if err != nil {
			t.Fatalf("bad hex in %q: %v", line, err)
		}
		exp := strings.TrimSpace(col[1])
		_, no := refused[exp]
		out = append(out, vector{name: exp, ok: strings.TrimSpace(col[0]) == "OK" && !no, expect: exp, raw: raw})
	}
	if len(out) < 10 {
		t.Fatalf("only %d vectors", len(out))
	}
	return out
}

// describe formats a frame as the vector file's expected column does.
func describe(f Frame) string {
	return fmt.Sprintf("%03d %012d animal=%d data=%d fdxb", f.Country, f.National, b2i(f.Animal), b2i(f.DataBlock))
}

// refused are vectors of the shared file that the driver refuses on
// purpose, and why.
var refused = map[string]string{
	"982 000123456789 animal=1 data=0 hdx (end byte 07)": "end byte 0x07 is in neither the CZSTAR-R134 frame table nor Rfid134's parser",
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// The vendor-sheet and computed frames decode to the expected codes
// through the stream framing (which skips leading noise), and the bad
// frames give no frame at all.
func TestVectors(t *testing.T) {
	t.Parallel()
	for _, v := range vectors(t) {
		t.Run(v.name, func(t *testing.T) {
			sc := readers.NewScanner(Split, 0)
			sc.Write(v.raw)
			f := sc.Frame()
			if !v.ok {
				if f != nil {
					t.Fatalf("Split(%x) gave frame %x, want none", v.raw, f)
				}
				if len(v.raw) == Size {
					if got, err := Decode(v.raw); err == nil {
						t.Errorf("Decode(%x) = %+v, want an error", v.raw, got)
					}
				}
				return
			}
			if f == nil {
				t.Fatalf("Split(%x) gave no frame; last error %v", v.raw, sc.LastError())
			}
			got, err := Decode(f)
			if err != nil {
				t.Fatalf("Decode(%x) = %v", f, err)
			}
			// The expected column may carry a note after the protocol.
			if d := describe(got); !strings.HasPrefix(v.expect, d) {
				t.Errorf("Decode(%x) = %s, want %s", f, d, v.expect)
			}
			// Encoding the decoded frame gives the vendor's bytes back.
			if enc, err := Encode(got); err != nil || !bytes.Equal(enc, f) {
				t.Errorf("Encode(%+v) = %x, %v, want %x", got, enc, err, f)
			}
		})
	}
}

func TestDecodeErrors(t *testing.T) {
	t.Parallel()
	good, _ := Encode(Frame{Country: 999, National: 1008, Animal: true})
	mod := func(i int, b byte) []byte {
		c := bytes.Clone(good)
		c[i] = b
		return c
	}
	for _, tc := range []struct {
		name string
		in   []byte
		want error
	}{
		{"short", good[:29], ErrLength},
		{"long", append(bytes.Clone(good), 0), ErrLength},
		{"no STX", mod(0, 0x03), ErrFraming},
		{"end byte 05", mod(29, 0x05), ErrFraming},
		{"end byte 07", mod(29, 0x07), ErrFraming},
		{"flag not 0/1", mod(16, '2'), ErrField},
		{"non-hex digit", mod(3, 'G'), ErrField},
		{"checksum", mod(27, good[27]^1), ErrChecksum},
		{"inverted checksum", mod(28, good[28]^0x10), ErrChecksum},
		{"national beyond 38 bits", func() []byte {
			c := bytes.Clone(good)
			putHexLSB(c[1:11], 1<<38)
			c[27] = checksum(c)
			c[28] = ^c[27]
			return c
		}(), ErrField},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got, err := Decode(tc.in); !errors.Is(err, tc.want) {
				t.Errorf("Decode(%x) = %+v, %v, want %v", tc.in, got, err, tc.want)
			}
		})
	}
}

func TestReadFrame(t *testing.T) {
	t.Parallel()
	b, _ := Encode(Frame{Country: 982, National: 123456789, Animal: true, DataBlock: true, Ext: 0x00016A})
	r, ok, err := ReadFrame(b)
	if err != nil || !ok {
		t.Fatalf("ReadFrame(%x) = %v, %v", b, ok, err)
	}
	if r.ID.Code != "982000123456789" || r.Protocol != reader.AirISO || !r.HasExt || r.Ext != 0x16A || !r.ID.Full {
		t.Errorf("ReadFrame(%x) = %+v", b, r)
	}
	if a, known := r.ID.Animal(); !a || !known {
		t.Errorf("animal = %v, %v, want true, true", a, known)
	}
	// Country 1000..1023 fits the field but is no ISO 11784 code.
	b, _ = Encode(Frame{Country: 1000, National: 1})
	if _, ok, err := ReadFrame(b); ok || err == nil {
		t.Errorf("ReadFrame(country 1000) = %v, %v, want an error", ok, err)
	}
}

func FuzzDecode(f *testing.F) {
	for _, v := range vectors(f) {
		f.Add(v.raw)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		fr, err := Decode(b)
		if err != nil {
			return
		}
		enc, err := Encode(fr)
		if err != nil {
			t.Fatalf("Encode(Decode(%x)) = %v", b, err)
		}
		// Lower-case hex digits decode too; otherwise the bytes come back.
		if !bytes.Equal(enc, b) && !bytes.Equal(enc, bytes.ToUpper(b)) {
			back, _ := Decode(enc)
			if back != fr {
				t.Fatalf("Decode(Encode(%+v)) = %+v", fr, back)
			}
		}
	})
}

func FuzzEncode(f *testing.F) {
	f.Add(uint64(305434182), uint16(999), true, false, uint16(0), uint32(0))
	f.Add(uint64(MaxNational), uint16(MaxCountry), false, true, uint16(0xFFFF), uint32(0xFFFFFF))
	f.Fuzz(func(t *testing.T, nat uint64, country uint16, animal, db bool, res uint16, ext uint32) {
		in := Frame{National: nat, Country: country, Animal: animal, DataBlock: db, Reserved: res, Ext: ext}
		b, err := Encode(in)
		if err != nil {
			if nat <= MaxNational && country <= MaxCountry && ext < 1<<24 {
				t.Fatalf("Encode(%+v) = %v", in, err)
			}
			return
		}
		got, err := Decode(b)
		if err != nil || got != in {
			t.Fatalf("Decode(Encode(%+v)) = %+v, %v", in, got, err)
		}
	})
}

// Any bytes through the stream framing: no panic, and every frame it
// gives decodes.
func FuzzSplit(f *testing.F) {
	for _, v := range vectors(f) {
		f.Add(v.raw)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		protocoltest.SplitDecodes(t, Split, b, Decode)
	})
}

func Example() {
	b, _ := Encode(Frame{Country: 999, National: 305434182, Animal: true})
	fmt.Printf("% X\n", b)
	f, _ := Decode(b)
	fmt.Println(f.Country, f.National, f.Animal)
	// Output:
	// 02 36 34 45 38 34 33 32 31 30 30 37 45 33 30 30 31 30 30 30 30 30 30 30 30 30 30 0B F4 03
	// 999 305434182 true
}
