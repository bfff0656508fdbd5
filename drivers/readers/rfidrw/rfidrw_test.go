package rfidrw

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chipdesk/chipdesk/drivers/port/porttest"
	"github.com/chipdesk/chipdesk/drivers/readers"
	"github.com/chipdesk/chipdesk/drivers/readers/protocoltest"
	"github.com/chipdesk/chipdesk/reader"
)

// manualLines returns the four Priority 1 Design lines of the manual.
func manualLines(t testing.TB) []protocoltest.Line {
	t.Helper()
	out := protocoltest.ManualLines(t, "../testdata/reader_lines.json", "Priority 1 Design")
	if len(out) != 4 {
		t.Fatalf("%d RFIDRW lines, want 4", len(out))
	}
	return out
}

// The lines of the RFIDRW-E manual: a tag line and a RAT reply are
// reads (the RAT CRC checked against ISO 11785), a status and an EM4100
// line are not.
func TestManualLines(t *testing.T) {
	t.Parallel()
	for _, l := range manualLines(t) {
		t.Run(strings.TrimSpace(l.Raw), func(t *testing.T) {
			raw := []byte(l.Raw)
			sc := readers.NewScanner(Split, 0)
			sc.Write(raw)
			fr := sc.Frame()
			if !bytes.Equal(fr, raw) {
				t.Fatalf("Split(%q) = %q", raw, fr)
			}
			r, ok, err := ReadFrame(fr)
			c, isTag := l.Expect["country"].(float64)
			if !isTag {
				if ok || err != nil {
					t.Errorf("ReadFrame(%q) = %+v, %v, %v, want no read", fr, r, ok, err)
				}
				if _, isStatus := l.Expect["status"]; isStatus {
					if st, ok := ParseStatus(fr); !ok || st.Code != 1 {
						t.Errorf("ParseStatus(%q) = %+v, %v, want ?1", fr, st, ok)
					}
				}
				return
			}
			n := l.Expect["national"].(float64)
			want := fmt.Sprintf("%03d%012d", int(c), int64(n))
			if err != nil || !ok || r.ID.Code != want || r.Protocol != reader.AirISO {
				t.Fatalf("ReadFrame(%q) = %+v, %v, %v, want %s", fr, r, ok, err, want)
			}
			if _, rat := l.Expect["crc16"]; rat {
				if a, known := r.ID.Animal(); !a || !known {
					t.Errorf("RAT animal = %v, %v, want true, true", a, known)
				}
			}
			f, _ := Decode(fr)
			if enc, err := Encode(f); err != nil || !bytes.Equal(enc, raw) {
				t.Errorf("Encode(%+v) = %q, %v, want %q", f, enc, err, raw)
			}
		})
	}
}

// A RAT reply whose CRC does not match its code is no read.
func TestRATBadCRC(t *testing.T) {
	t.Parallel()
	b := []byte("999_000000001007_1_0_AEC5_000000\r")
	if r, ok, err := ReadFrame(b); ok || !errors.Is(err, ErrCRC) {
		t.Errorf("ReadFrame(%q) = %+v, %v, %v, want ErrCRC", b, r, ok, err)
	}
}

// Commands and their replies, scripted as the manual shows them.
func TestCommands(t *testing.T) {
	t.Parallel()
	pb := &porttest.Playback{Name: "script", Ops: []porttest.IO{
		{W: []byte("VER\r"), R: []byte("RFIDRW-E V308\r")},
		{W: []byte("SRA\r"), R: []byte("OK\r")},
		{W: []byte("SD2\r"), R: []byte("OK\r")},
		{W: []byte("LTG\r"), R: []byte("?1\r")},
		// A chip arrives while RAT waits for its reply.
		{W: []byte("RAT\r"), R: []byte("999_000000001008\r999_000000001007_1_0_AEC4_000000\r")},
		{W: []byte("MOF\r")}, // no reply
		{W: []byte("WAT\r"), R: []byte("?0\r")},
	}}
	d, err := New(pb, &Opts{Timeout: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if v, err := d.Version(ctx); err != nil || v != "RFIDRW-E V308" {
		t.Errorf("Version() = %q, %v", v, err)
	}
	if err := d.RF(ctx, true); err != nil {
		t.Errorf("RF(true) = %v", err)
	}
	if err := d.SetType(ctx, TypeFDXBHDX, true); err != nil {
		t.Errorf("SetType(2, true) = %v", err)
	}
	if ok, err := d.Locate(ctx); ok || err != nil {
		t.Errorf("Locate() = %v, %v, want false, nil", ok, err)
	}
	r, err := d.ReadAnimalTag(ctx)
	if err != nil || r.ID.Code != "999000000001007" {
		t.Errorf("ReadAnimalTag() = %+v, %v", r, err)
	}
	if _, err := d.Command(ctx, "MOF"); !errors.Is(err, ErrNoReply) {
		t.Errorf("Command(MOF) = %v, want ErrNoReply", err)
	}
	var se *StatusError
	if _, err := d.Command(ctx, "WAT"); !errors.As(err, &se) || se.Code != 0 {
		t.Errorf("Command(WAT) = %v, want ?0", err)
	}
	if err := d.SetType(ctx, 7, false); err == nil {
		t.Error("SetType(7) = nil, want an error")
	}
	// The tag line that came during RAT is returned by Next.
	if r, err := d.Next(ctx); err != nil || r.ID.Code != "999000000001008" || r.Format != Format {
		t.Errorf("Next() = %+v, %v", r, err)
	}
	if err := pb.Done(); err != nil {
		t.Error(err)
	}
	if st := d.Stats(); st.Reads != 1 || st.Other < 6 {
		t.Errorf("Stats() = %v", st)
	}
}

func FuzzDecode(f *testing.F) {
	f.Add([]byte("999_000000001008\r"))
	f.Add([]byte("999_000000001007_1_0_AEC4_000000\r"))
	f.Fuzz(func(t *testing.T, b []byte) {
		enc, ok := protocoltest.RoundTrip(t, b, Decode, Encode)
		if !ok {
			return
		}
		if !bytes.EqualFold(readers.TrimEOL(enc), readers.TrimEOL(b)) {
			t.Fatalf("Encode(Decode(%q)) = %q", b, enc)
		}
	})
}

func FuzzSplit(f *testing.F) {
	f.Add([]byte("junk999_000000001008\rOK\r?1\r"))
	f.Fuzz(func(t *testing.T, b []byte) {
		sc := readers.NewScanner(Split, 0)
		sc.Write(b)
		for fr := sc.Frame(); fr != nil; fr = sc.Frame() {
			ReadFrame(fr) // must not panic; replies give no read
		}
	})
}

func Example() {
	f, _ := Decode([]byte("999_000000001007_1_0_AEC4_000000\r"))
	r, _ := ToRead(f)
	fmt.Println(r.ID, f.Animal, fmt.Sprintf("%04X", f.CRC))
	// Output: 999 000000001007 true AEC4
}
