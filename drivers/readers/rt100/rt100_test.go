package rt100

import (
	"bytes"
	"errors"
	"fmt"
	"testing"

	"github.com/chipdesk/chipdesk/drivers/readers"
	"github.com/chipdesk/chipdesk/drivers/readers/protocoltest"
	"github.com/chipdesk/chipdesk/reader"
)

// The CRC is CRC-16/AUG-CCITT: check value 0xE5CC for "123456789"
// (RT100 V8 manual p. 15 gives polynomial 0x1021 and this check).
func TestCRCCheckValue(t *testing.T) {
	t.Parallel()
	if got := CRC([]byte("123456789")); got != 0xE5CC {
		t.Errorf("CRC(123456789) = %04X, want E5CC", got)
	}
}

func TestDecode(t *testing.T) {
	t.Parallel()
	good, _ := Encode(Frame{Type: TypeFDXB, ID: "982000123456789"})
	for _, tc := range []struct {
		name string
		in   []byte
		want Frame
		err  error
	}{
		{"FDX-B", good, Frame{Type: TypeFDXB, ID: "982000123456789"}, nil},
		{"CRC off by one", bytes.Replace(good, good[Size-4:Size], fmt.Appendf(nil, "%04X", CRC(good[1:25])^1), 1), Frame{}, ErrCRC},
		{"lower-case CRC", bytes.ToLower(good), Frame{}, ErrFraming},
		{"no U", good[1:], Frame{}, ErrFraming},
		{"no star", bytes.Replace(good, []byte("*"), []byte("#"), 1), Frame{}, ErrFraming},
		{"memory record", append([]byte("\xAA0001*"), good...), Frame{Type: TypeFDXB, ID: "982000123456789", Record: true, Index: "0001"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Decode(tc.in)
			if !errors.Is(err, tc.err) || got != tc.want {
				t.Errorf("Decode(%q) = %+v, %v, want %+v, %v", tc.in, got, err, tc.want, tc.err)
			}
		})
	}
}

func TestReadFrame(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		f    Frame
		code string
		p    reader.Air
		ok   bool
	}{
		{Frame{Type: TypeHDX, ID: "982000123456789"}, "982000123456789", reader.AirHDX, true},
		{Frame{Type: TypeAVID, ID: "012345678"}, "012345678", reader.AirAVID, true},
		{Frame{Type: TypeFDXA, ID: "4A3D5C1B2E"}, "4A3D5C1B2E", reader.AirFDXA, true},
		{Frame{Type: TypeFDXB, ID: "982000123456789", Record: true, Index: "0007"}, "", "", false},
	} {
		b, err := Encode(tc.f)
		if err != nil {
			t.Fatal(err)
		}
		r, ok, err := ReadFrame(b)
		if err != nil || ok != tc.ok || r.ID.Code != tc.code || r.Protocol != tc.p {
			t.Errorf("ReadFrame(%q) = %s %s, %v, %v, want %s %s, %v", b, r.ID.Code, r.Protocol, ok, err, tc.code, tc.p, tc.ok)
		}
	}
}

// A frame with a bad CRC is counted as bad, and never read.
func TestSplitBadCRC(t *testing.T) {
	t.Parallel()
	good, _ := Encode(Frame{Type: TypeFDXB, ID: "982000123456789"})
	bad := bytes.Clone(good)
	bad[10] = '1' // an ID digit changed, CRC as sent
	sc := readers.NewScanner(Split, 0)
	sc.Write(append(append([]byte("xx"), bad...), good...))
	f := sc.Frame()
	if !bytes.Equal(f, good) || sc.Frame() != nil {
		t.Errorf("frames: %q, want only the good frame", f)
	}
	if st := sc.Stats(); st.Bad != 1 || st.Garbage != 2 {
		t.Errorf("Stats() = %v, want 1 bad frame and 2 garbage bytes", st)
	}
}

func FuzzDecode(f *testing.F) {
	good, _ := Encode(Frame{Type: TypeFDXB, ID: "982000123456789"})
	f.Add(good)
	f.Add(append([]byte("\xAA0001*"), good...))
	f.Fuzz(func(t *testing.T, b []byte) {
		protocoltest.RoundTrip(t, b, Decode, Encode)
	})
}

// Any bytes through the stream framing: no panic, and every frame it
// gives decodes.
func FuzzSplit(f *testing.F) {
	good, _ := Encode(Frame{Type: TypeFDXB, ID: "982000123456789"})
	f.Add(append([]byte("noise\r"), good...))
	f.Add(append([]byte("\xAA0001*"), good...))
	f.Fuzz(func(t *testing.T, b []byte) {
		protocoltest.SplitDecodes(t, Split, b, Decode)
	})
}

func Example() {
	b, _ := Encode(Frame{Type: TypeFDXB, ID: "982000123456789"})
	fmt.Printf("%q\n", b)
	// Output: "UFDX-B   982000123456789 *364A\r"
}
