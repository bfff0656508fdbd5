package allflex

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/chipdesk/chipdesk/drivers/readers"
	"github.com/chipdesk/chipdesk/drivers/readers/protocoltest"
	"github.com/chipdesk/chipdesk/reader"
)

const manual = "../testdata/reader_lines.json"

// The lines quoted in the Allflex manuals decode as the manuals say, and
// encode back to the same bytes.
func TestManualLines(t *testing.T) {
	t.Parallel()
	for _, l := range protocoltest.ManualLines(t, manual, "Allflex") {
		t.Run(strings.TrimSpace(l.Raw), func(t *testing.T) {
			raw := []byte(l.Raw)
			sc := readers.NewScanner(Split, 0)
			sc.Write(raw)
			fr := sc.Frame()
			if !bytes.Equal(fr, raw) {
				t.Fatalf("Split(%q) = %q (%v)", raw, fr, sc.LastError())
			}
			f, err := Decode(fr)
			if err != nil {
				t.Fatalf("Decode(%q) = %v", fr, err)
			}
			if app, ok := l.Expect["application_code"]; ok {
				if !f.Industrial || f.App != app || f.ID16 != l.Expect["id16"] {
					t.Errorf("Decode(%q) = %+v, want industrial %v %v", fr, f, app, l.Expect["id16"])
				}
				if _, ok, err := ToRead(f); ok || err != nil {
					t.Errorf("ToRead(industrial) = %v, %v, want no read", ok, err)
				}
			} else {
				c, _ := l.Num("country")
				n, _ := l.Num("national")
				if uint64(f.Country) != c || f.National != n {
					t.Errorf("Decode(%q) = %d %d, want %d %d", fr, f.Country, f.National, c, n)
				}
				if db, ok := l.Num("data_block"); ok && (f.DataBlock != (db == 1) || !f.TIRIS) {
					t.Errorf("Decode(%q) = %+v, want TIRIS form, data block %d", fr, f, db)
				}
				r, ok, err := ToRead(f)
				want := fmt.Sprintf("%03d%012d", c, n)
				if err != nil || !ok || r.ID.Code != want || r.Protocol != reader.AirISO {
					t.Errorf("ToRead(%+v) = %+v, %v, %v, want %s", f, r, ok, err, want)
				}
				// "LA": A is an animal-coded tag (panel reader manual
				// p.19); the read keeps the flag.
				if a, known := r.ID.Animal(); !a || !known {
					t.Errorf("ToRead(%+v): animal %v, known %v, want true, true", f, a, known)
				}
				if db, ok := l.Num("data_block"); ok && r.ID.ISO.DataBlock() != (db == 1) {
					t.Errorf("ToRead(%+v): data block %v, want %d", f, r.ID.ISO.DataBlock(), db)
				}
			}
			if enc, err := Encode(f); err != nil || !bytes.Equal(enc, raw) {
				t.Errorf("Encode(%+v) = %q, %v, want %q", f, enc, err, raw)
			}
		})
	}
}

func TestDecodeErrors(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, in string
		want     error
	}{
		{"empty", "", ErrFraming},
		{"short national", "LA 982 00000108842", ErrFraming},
		{"letters", "LA 98X 000001088420", ErrField},
		{"TIRIS flag 2", "LA 00000 2 982 000001088420", ErrField},
		{"industrial letters", "LR 00A6 0000000018514348", ErrField},
		{"no L", "XA 982 000001088420", ErrFraming},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got, err := Decode([]byte(tc.in)); !errors.Is(err, tc.want) {
				t.Errorf("Decode(%q) = %+v, %v, want %v", tc.in, got, err, tc.want)
			}
		})
	}
}

// Noise before a line on the same line is dropped, the line is read;
// the power-on STX CR LF and echoed commands are not reads.
func TestSplitNoise(t *testing.T) {
	t.Parallel()
	sc := readers.NewScanner(Split, 0)
	sc.Write([]byte("\x02\r\nP\r\x07\xffLALA 982 000001088420\r\nLA 982 0000\r\n"))
	var frames []string
	for f := sc.Frame(); f != nil; f = sc.Frame() {
		frames = append(frames, string(f))
	}
	if len(frames) != 1 || frames[0] != "LA 982 000001088420\r\n" {
		t.Errorf("frames = %q, want the one tag line", frames)
	}
	if st := sc.Stats(); st.Garbage == 0 {
		t.Errorf("Stats() = %v, want garbage counted", st)
	}
}

func FuzzDecode(f *testing.F) {
	for _, l := range protocoltest.ManualLines(f, manual, "Allflex") {
		f.Add([]byte(l.Raw))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		enc, ok := protocoltest.RoundTrip(t, b, Decode, Encode)
		if !ok {
			return
		}
		if !bytes.Equal(readers.TrimEOL(enc), readers.TrimEOL(b)) {
			t.Fatalf("Encode(Decode(%q)) = %q", b, enc)
		}
	})
}

func FuzzSplit(f *testing.F) {
	f.Add([]byte("noiseLA 982 000001088420\r\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		protocoltest.SplitDecodes(t, Split, b, Decode)
	})
}

func Example() {
	f, _ := Decode([]byte("LA 00000 0 982 000001088420\r\n"))
	fmt.Println(f.Country, f.National, f.TIRIS)
	r, _, _ := ToRead(f)
	fmt.Println(r.ID)
	// Output:
	// 982 1088420 true
	// 982 000001088420
}
