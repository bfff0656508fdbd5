package datamars

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/chipdesk/chipdesk/drivers/port"
	"github.com/chipdesk/chipdesk/drivers/port/porttest"
	"github.com/chipdesk/chipdesk/drivers/readers"
	"github.com/chipdesk/chipdesk/drivers/readers/protocoltest"
)

type line struct {
	ok           bool
	expect, text string
}

func lines(t testing.TB) []line {
	t.Helper()
	f, err := os.Open("testdata/lines.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []line
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		l := sc.Text()
		if strings.HasPrefix(l, "#") || strings.TrimSpace(l) == "" {
			continue
		}
		col := strings.SplitN(l, " | ", 3)
		if len(col) != 3 {
			t.Fatalf("bad line %q", l)
		}
		out = append(out, line{col[0] == "OK", col[1], col[2]})
	}
	return out
}

func TestLines(t *testing.T) {
	t.Parallel()
	for _, l := range lines(t) {
		t.Run(l.text, func(t *testing.T) {
			raw := []byte("\x00" + l.text + "\r\n") // a noise byte before
			sc := readers.NewScanner(Split, 0)
			sc.Write(raw)
			fr := sc.Frame()
			var got string
			var err error
			if fr != nil {
				var f Frame
				if f, err = Decode(fr); err == nil {
					r, _, rerr := ToRead(f, true)
					err = rerr
					got = r.ID.Code
					if f.Record {
						got += " record " + f.Index + " " + f.At.Format("2006-01-02T15:04:05Z07:00")
					}
					if enc, eerr := Encode(f); eerr != nil || !bytes.Equal(enc, fr) {
						t.Errorf("Encode(%+v) = %q, %v, want %q", f, enc, eerr, fr)
					}
				}
			}
			switch {
			case l.ok && (err != nil || got != l.expect):
				t.Errorf("%q: %q, %v, want %s", l.text, got, err, l.expect)
			case !l.ok && fr != nil && err == nil:
				t.Errorf("%q: read %q, want none (%s)", l.text, got, l.expect)
			}
		})
	}
}

// Through the generic device: memory records give reads only with
// Records; A lines keep the animal flag.
func TestDevice(t *testing.T) {
	t.Parallel()
	var in []byte
	for _, l := range lines(t) {
		in = append(in, "\xff"+l.text+"\r\n"...)
	}
	for _, records := range []bool{false, true} {
		pb := &porttest.Playback{Name: "ges3s", Ops: []porttest.IO{{R: in}}}
		d, err := readers.Open(pb, Protocol(&Opts{Records: records}), nil)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for {
			r, err := d.Next(context.Background())
			if errors.Is(err, port.ErrHangup) {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			if a, known := r.ID.Animal(); !a || !known {
				t.Errorf("read %+v: animal flag lost", r)
			}
			got = append(got, r.ID.Code)
		}
		want := []string{"982000017383201", "964000000123456"}
		if records {
			want = append(want, "982000017383201", "999000000001008")
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("Records=%v: %v, want %v", records, got, want)
		}
		if st := d.Stats(); st.Bad == 0 || st.Garbage == 0 {
			t.Errorf("Records=%v: %v, want bad frames and garbage counted", records, st)
		}
	}
}

func FuzzDecode(f *testing.F) {
	for _, l := range lines(f) {
		f.Add([]byte(l.text + "\r\n"))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		protocoltest.RoundTrip(t, b, Decode, Encode)
	})
}

func FuzzSplit(f *testing.F) {
	for _, l := range lines(f) {
		f.Add([]byte("x" + l.text + "\r\n"))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		protocoltest.SplitDecodes(t, Split, b, Decode)
	})
}
