package iso24631

import (
	"bytes"
	"errors"
	"fmt"
	"testing"

	"github.com/chipdesk/chipdesk/drivers/readers"
	"github.com/chipdesk/chipdesk/drivers/readers/protocoltest"
)

func TestDecode(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		in   string
		want Frame
		err  error
	}{
		{"code only", "\x02982 000123456789\r\n", Frame{Country: 982, National: 123456789}, nil},
		{"with fields", "\x02982 000123456789 3 17 000\r\n", Frame{Country: 982, National: 123456789, Extra: true, Retag: 3, UserInfo: 17}, nil},
		{"no STX", "982 000123456789\r\n", Frame{}, ErrFraming},
		{"retag 8 (3 bits)", "\x02982 000123456789 8 17 000\r\n", Frame{}, ErrField},
		{"user information 32 (5 bits)", "\x02982 000123456789 3 32 000\r\n", Frame{}, ErrField},
		{"no space", "\x02982000123456789\r\n", Frame{}, ErrFraming},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Decode([]byte(tc.in))
			if !errors.Is(err, tc.err) || got != tc.want {
				t.Errorf("Decode(%q) = %+v, %v, want %+v, %v", tc.in, got, err, tc.want, tc.err)
			}
			if err == nil {
				if enc, err := Encode(got); err != nil || string(enc) != tc.in {
					t.Errorf("Encode(%+v) = %q, %v, want %q", got, enc, err, tc.in)
				}
			}
		})
	}
}

// The retagging counter and user information reach the code's reserved
// field (ISO 11784 Amd 2).
func TestReadFrame(t *testing.T) {
	t.Parallel()
	r, ok, err := ReadFrame([]byte("\x02982 000123456789 3 17 000\r\n"))
	if err != nil || !ok || r.ID.Code != "982000123456789" || r.ID.ISO.RetagCounter() != 3 || r.ID.ISO.UserInfo() != 17 {
		t.Errorf("ReadFrame() = %+v, %v, %v", r, ok, err)
	}
}

// Noise and a stray STX before the line on the same line are dropped.
func TestSplitNoise(t *testing.T) {
	t.Parallel()
	sc := readers.NewScanner(Split, 0)
	sc.Write([]byte("\x02\x02zz\x02982 000123456789 0 00 000\r\n"))
	if f := sc.Frame(); !bytes.Equal(f, []byte("\x02982 000123456789 0 00 000\r\n")) {
		t.Errorf("Frame() = %q", f)
	}
}

func FuzzDecode(f *testing.F) {
	f.Add([]byte("\x02982 000123456789 3 17 000\r\n"))
	f.Add([]byte("\x02982 000123456789\r\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		protocoltest.RoundTrip(t, b, Decode, Encode)
	})
}

func FuzzSplit(f *testing.F) {
	f.Add([]byte("zz\x02982 000123456789 0 00 000\r\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		protocoltest.SplitDecodes(t, Split, b, Decode)
	})
}

func Example() {
	b, _ := Encode(Frame{Country: 982, National: 123456789, Extra: true})
	fmt.Printf("%q\n", b)
	// Output: "\x02982 000123456789 0 00 000\r\n"
}
