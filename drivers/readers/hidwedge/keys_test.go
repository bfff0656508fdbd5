package hidwedge_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/chipdesk/chipdesk/drivers/readers/hidwedge"
)

func rep(mods byte, keys ...byte) []byte {
	r := make([]byte, 8)
	r[0] = mods
	copy(r[2:], keys)
	return r
}

func TestDecode(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		layout  string
		reports [][]byte
		want    string
	}{
		// HID Usage Tables 1.12 §10: 0x1E-0x27 are 1..9, 0.
		{"digits", "us", [][]byte{rep(0, 0x26), rep(0), rep(0, 0x25), rep(0), rep(0, 0x1f), rep(0)}, "982"},
		{"letters and shift (HID 1.11 B.1 modifier bits 1 and 5)", "us", [][]byte{rep(0, 0x04), rep(0x02, 0x05), rep(0x20, 0x06), rep(0)}, "aBC"},
		{"key held over several reports types once", "us", [][]byte{rep(0, 0x1e), rep(0, 0x1e), rep(0, 0x1e), rep(0)}, "1"},
		{"two keys down in one report", "us", [][]byte{rep(0, 0x1e, 0x1f), rep(0)}, "12"},
		{"next key pressed before the release", "us", [][]byte{rep(0, 0x1e), rep(0, 0x1f), rep(0)}, "12"},
		{"same key twice needs a release", "us", [][]byte{rep(0, 0x27), rep(0), rep(0, 0x27), rep(0)}, "00"},
		{"keypad digits and keypad enter", "us", [][]byte{rep(0, 0x61), rep(0, 0x62), rep(0, 0x58), rep(0)}, "90\n"},
		{"enter, tab, backspace", "us", [][]byte{rep(0, 0x28), rep(0, 0x2b), rep(0, 0x2a), rep(0)}, "\n\t\b"},
		{"phantom report (ErrorRollOver) ignored", "us", [][]byte{rep(0, 0x1e), rep(0, 1, 1, 1, 1, 1, 1), rep(0, 0x1e, 0x1f), rep(0)}, "12"},
		{"ctrl chords type nothing", "us", [][]byte{rep(0x01, 0x06), rep(0), rep(0x08, 0x07), rep(0)}, ""},
		{"caps lock shifts letters only", "us", [][]byte{rep(0, 0x39), rep(0), rep(0, 0x04), rep(0), rep(0, 0x1e), rep(0), rep(0x02, 0x05), rep(0)}, "A1b"},
		{"unknown usages type nothing", "us", [][]byte{rep(0, 0x3a), rep(0, 0xe0), rep(0)}, ""},
		{"us punctuation", "us", [][]byte{rep(0x02, 0x25), rep(0), rep(0, 0x2d), rep(0), rep(0, 0x37), rep(0)}, "*-."},
		{"de swaps y and z", "de", [][]byte{rep(0, 0x1c), rep(0), rep(0, 0x1d), rep(0)}, "zy"},
		{"de shifted digits and AltGr (DIN 2137-1)", "de", [][]byte{rep(0x02, 0x24), rep(0), rep(0x40, 0x14), rep(0), rep(0, 0x38), rep(0)}, "/@-"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l, err := hidwedge.LayoutByName(tc.layout)
			if err != nil {
				t.Fatal(err)
			}
			d := hidwedge.NewDecoder(l)
			var got []rune
			for _, r := range tc.reports {
				rs, err := d.Decode(r)
				if err != nil {
					t.Fatalf("Decode(%x) = %v", r, err)
				}
				got = append(got, rs...)
			}
			if string(got) != tc.want {
				t.Errorf("Decode(%x) = %q, want %q", tc.reports, string(got), tc.want)
			}
		})
	}
}

func TestDecodeBadReport(t *testing.T) {
	t.Parallel()
	d := hidwedge.NewDecoder(nil)
	for _, r := range [][]byte{nil, {0, 0, 4}, make([]byte, 9)} {
		if _, err := d.Decode(r); !errors.Is(err, hidwedge.ErrReport) {
			t.Errorf("Decode(%x) = %v, want ErrReport", r, err)
		}
	}
}

func TestEncode(t *testing.T) {
	t.Parallel()
	got, err := hidwedge.Encode("9A\n", nil)
	if err != nil {
		t.Fatal(err)
	}
	want := [][]byte{rep(0, 0x26), rep(0), rep(0x02, 0x04), rep(0), rep(0, 0x28), rep(0)}
	if !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("Encode(%q) = %x, want %x", "9A\n", got, want)
	}
	if _, err := hidwedge.Encode("ä", hidwedge.US()); !errors.Is(err, hidwedge.ErrUnmappable) {
		t.Errorf("Encode(ä) on us = %v, want ErrUnmappable", err)
	}
	if _, err := hidwedge.LayoutByName("fr"); !errors.Is(err, hidwedge.ErrLayout) {
		t.Errorf("LayoutByName(fr) = %v, want ErrLayout", err)
	}
}

// decodeAll plays reports to a fresh decoder.
func decodeAll(t *testing.T, l *hidwedge.Layout, reports [][]byte) string {
	d := hidwedge.NewDecoder(l)
	var b strings.Builder
	for _, r := range reports {
		rs, err := d.Decode(r)
		if err != nil {
			t.Fatalf("Decode(%x) = %v", r, err)
		}
		b.WriteString(string(rs))
	}
	return b.String()
}

func FuzzEncodeDecode(f *testing.F) {
	f.Add("982000123456789\n", false)
	f.Add("AVID*012*345*678\t", false)
	f.Add("Größe 4A3D5C1B2E @ yz\n", true)
	f.Fuzz(func(t *testing.T, s string, de bool) {
		l := hidwedge.US()
		if de {
			l = hidwedge.DE()
		}
		if !utf8.ValidString(s) {
			return
		}
		reports, err := hidwedge.Encode(s, l)
		if err != nil {
			if !errors.Is(err, hidwedge.ErrUnmappable) {
				t.Fatalf("Encode(%q) = %v", s, err)
			}
			return
		}
		// Round trip: what the encoder types, the decoder reads back.
		if got := decodeAll(t, l, reports); got != s {
			t.Fatalf("Decode(Encode(%q)) = %q on %s", s, got, l)
		}
	})
}

func FuzzDecode(f *testing.F) {
	f.Add([]byte{2, 0, 4, 5, 0, 0, 0, 0, 0, 0, 0x28, 0, 0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, b []byte) {
		d := hidwedge.NewDecoder(hidwedge.DE())
		for len(b) >= 8 {
			if _, err := d.Decode(b[:8]); err != nil {
				t.Fatalf("Decode(%x) = %v", b[:8], err)
			}
			b = b[8:]
		}
	})
}

func ExampleDecoder() {
	d := hidwedge.NewDecoder(hidwedge.US())
	for _, r := range [][]byte{
		{0, 0, 0x26, 0, 0, 0, 0, 0},    // 9 down
		{0, 0, 0, 0, 0, 0, 0, 0},       // released
		{0x02, 0, 0x04, 0, 0, 0, 0, 0}, // Shift + a
		{0, 0, 0x28, 0, 0, 0, 0, 0},    // Enter
	} {
		rs, _ := d.Decode(r)
		fmt.Printf("%q", string(rs))
	}
	fmt.Println()
	// Output: "9""""A""\n"
}
