package allflex

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/chipdesk/chipdesk/drivers/readers"
	"github.com/chipdesk/chipdesk/reader"
)

type line struct {
	Reader string         `json:"reader"`
	Raw    string         `json:"raw"`
	Expect map[string]any `json:"expect"`
	Src    string         `json:"src"`
}

func manualLines(t testing.TB, reader string) []line {
	t.Helper()
	b, err := os.ReadFile("../testdata/reader_lines.json")
	if err != nil {
		t.Fatal(err)
	}
	var v struct{ Lines []line }
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	var out []line
	for _, l := range v.Lines {
		if strings.HasPrefix(l.Reader, reader) {
			out = append(out, l)
		}
	}
	if len(out) == 0 {
		t.Fatalf("no %s lines", reader)
	}
	return out
}

func num(m map[string]any, k string) (uint64, bool) {
	v, ok := m[k].(float64)
	return uint64(v), ok
}

// The lines quoted in the Allflex manuals decode as the manuals say, and
// encode back to the same bytes.
func TestManualLines(t *testing.T) {
	t.Parallel()
	for _, l := range manualLines(t, "Allflex") {
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
				c, _ := num(l.Expect, "country")
				n, _ := num(l.Expect, "national")
				if uint64(f.Country) != c || f.National != n {
					t.Errorf("Decode(%q) = %d %d, want %d %d", fr, f.Country, f.National, c, n)
				}
				if db, ok := num(l.Expect, "data_block"); ok && (f.DataBlock != (db == 1) || !f.TIRIS) {
					t.Errorf("Decode(%q) = %+v, want TIRIS form, data block %d", fr, f, db)
				}
				r, ok, err := ToRead(f)
				want := fmt.Sprintf("%03d%012d", c, n)
				if err != nil || !ok || r.ID.Code != want || r.Protocol != reader.ProtocolISO {
					t.Errorf("ToRead(%+v) = %+v, %v, %v, want %s", f, r, ok, err, want)
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
	for _, l := range manualLines(f, "Allflex") {
		f.Add([]byte(l.Raw))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		fr, err := Decode(b)
		if err != nil {
			return
		}
		enc, err := Encode(fr)
		if err != nil {
			t.Fatalf("Encode(Decode(%q)) = %v", b, err)
		}
		if back, err := Decode(enc); err != nil || back != fr {
			t.Fatalf("Decode(Encode(%+v)) = %+v, %v", fr, back, err)
		}
		if !bytes.Equal(readers.TrimEOL(enc), readers.TrimEOL(b)) {
			t.Fatalf("Encode(Decode(%q)) = %q", b, enc)
		}
	})
}

func FuzzSplit(f *testing.F) {
	f.Add([]byte("noiseLA 982 000001088420\r\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		sc := readers.NewScanner(Split, 0)
		sc.Write(b)
		for fr := sc.Frame(); fr != nil; fr = sc.Frame() {
			if _, err := Decode(fr); err != nil {
				t.Fatalf("Split gave %q, which Decode rejects: %v", fr, err)
			}
		}
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
