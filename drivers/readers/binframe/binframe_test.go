package binframe

import (
	"bufio"
	"bytes"
	"context"
	"encoding/hex"
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

type vector struct {
	spec   Spec
	ok     bool
	expect string
	raw    []byte
}

func specs() map[string]Spec { return map[string]Spec{AIR200.Name: AIR200, AABB.Name: AABB} }

func vectors(t testing.TB) []vector {
	t.Helper()
	f, err := os.Open("testdata/frames.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []vector
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		l := sc.Text()
		if strings.HasPrefix(l, "#") || strings.TrimSpace(l) == "" {
			continue
		}
		col := strings.Split(l, "|")
		raw, err := hex.DecodeString(strings.ReplaceAll(strings.TrimSpace(col[3]), " ", ""))
		if err != nil || len(col) != 4 {
			t.Fatalf("bad line %q", l)
		}
		out = append(out, vector{specs()[strings.TrimSpace(col[0])], strings.TrimSpace(col[1]) == "OK", strings.TrimSpace(col[2]), raw})
	}
	return out
}

func describe(f Frame) string {
	s := fmt.Sprintf("%s animal=%d data=%d", f.Code.Display(), b2i(f.Code.Animal()), b2i(f.Code.DataBlock()))
	if f.HasExt {
		s += fmt.Sprintf(" ext=%06X", f.Ext)
	}
	switch f.Type {
	case TypeFDXB:
		s += " fdxb"
	case TypeHDX:
		s += " hdx"
	}
	return s
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func TestVectors(t *testing.T) {
	t.Parallel()
	for _, v := range vectors(t) {
		t.Run(v.spec.Name+" "+v.expect, func(t *testing.T) {
			sc := readers.NewScanner(v.spec.Split, 0)
			sc.Write(v.raw)
			fr := sc.Frame()
			if !v.ok {
				if fr != nil {
					t.Fatalf("Split gave %X, want none", fr)
				}
				return
			}
			if fr == nil {
				t.Fatalf("no frame; %v", sc.LastError())
			}
			f, err := v.spec.Decode(fr)
			if err != nil || !strings.HasPrefix(v.expect, describe(f)) {
				t.Fatalf("Decode(%X) = %s, %v, want %s", fr, describe(f), err, v.expect)
			}
			if enc, err := v.spec.Encode(f); err != nil || !bytes.Equal(enc, fr) {
				t.Errorf("Encode() = %X, %v, want %X", enc, err, fr)
			}
		})
	}
}

// Through the generic device: noise between frames is skipped, a bad
// frame counted, the line set once to the Spec's mode; a hang-up ends
// Next with port.ErrHangup after the frames received.
func TestDevice(t *testing.T) {
	t.Parallel()
	for _, s := range []Spec{AIR200, AABB} {
		var in []byte
		var want []string
		for _, v := range vectors(t) {
			if v.spec.Name == s.Name {
				in = append(append(in, 0x55, s.Start, 0xFF), v.raw...)
				if v.ok {
					want = append(want, strings.Fields(v.expect)[0]+strings.Fields(v.expect)[1])
				}
			}
		}
		pb := &porttest.Playback{Name: s.Name, Ops: []porttest.IO{{R: in}}}
		d, err := readers.Open(pb, s.Protocol(), nil)
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
			if !r.ID.Full || r.Format != s.Name {
				t.Errorf("read %+v", r)
			}
			got = append(got, r.ID.Code)
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s: reads %v, want %v", s.Name, got, want)
		}
		if st := d.Stats(); st.Bad == 0 || st.Garbage == 0 {
			t.Errorf("%s: %v, want bad frames and garbage counted", s.Name, st)
		}
	}
}

func FuzzDecode(f *testing.F) {
	for _, v := range vectors(f) {
		f.Add(v.raw, v.spec.Name == AIR200.Name)
	}
	f.Fuzz(func(t *testing.T, b []byte, typed bool) {
		s := AABB
		if typed {
			s = AIR200
		}
		protocoltest.RoundTrip(t, b, s.Decode, s.Encode)
	})
}

func FuzzSplit(f *testing.F) {
	for _, v := range vectors(f) {
		f.Add(v.raw, v.spec.Name == AIR200.Name)
	}
	f.Fuzz(func(t *testing.T, b []byte, typed bool) {
		s := AABB
		if typed {
			s = AIR200
		}
		protocoltest.SplitDecodes(t, s.Split, b, s.Decode)
	})
}
