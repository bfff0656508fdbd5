package are

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/chipdesk/chipdesk/drivers/port"
	"github.com/chipdesk/chipdesk/drivers/port/porttest"
	"github.com/chipdesk/chipdesk/drivers/readers"
	"github.com/chipdesk/chipdesk/drivers/readers/readerstest"
	"github.com/chipdesk/chipdesk/reader"
)

// manualRecord is the record printed in the AEG ARE H9 HF manual §7.4.
func manualRecord(t testing.TB) []byte {
	t.Helper()
	return []byte(readerstest.ManualLines(t, "../testdata/reader_lines.json", "AEG")[0].Raw)
}

// The manual's record: K, 01.01.2001 00:01:33, 16 nibbles,
// 2858997D3A4F0000 = 969 123456789012 (not an animal), ISO-FDX.
func TestManualRecord(t *testing.T) {
	t.Parallel()
	raw := manualRecord(t)
	sc := readers.NewScanner(Split, 0)
	sc.Write(raw)
	fr := sc.Frame()
	if !bytes.Equal(fr, raw) {
		t.Fatalf("Split(%q) = %q (%v)", raw, fr, sc.LastError())
	}
	f, err := Decode(fr)
	if err != nil {
		t.Fatal(err)
	}
	want := Frame{Code: 0x2858997D3A4F0000, Record: true, Attribute: 'K', Stamp: "010101000133", Length: 16,
		Type: TypeISOFDX, Text: "______________", CRC: 0x46F6}
	if f != want {
		t.Errorf("Decode(%q) = %+v, want %+v", fr, f, want)
	}
	r, ok, err := ToRead(f)
	if err != nil || !ok || r.ID.Code != "969123456789012" || r.Protocol != reader.ProtocolFDXB {
		t.Errorf("ToRead() = %+v, %v, %v", r, ok, err)
	}
	if a, known := r.ID.Animal(); a || !known {
		t.Errorf("animal = %v, %v, want false, true", a, known)
	}
	if enc, err := Encode(f); err != nil || !bytes.Equal(enc, raw) {
		t.Errorf("Encode() = %q, %v, want %q", enc, err, raw)
	}
	// Records give reads only when asked for: their CRC is unchecked.
	if _, ok, _ := ReadFrame(fr); ok {
		t.Error("ReadFrame(record) gave a read by default")
	}
}

// The hexadecimal output line through the driver; the record gives a
// read only with Opts.Records.
func TestDriver(t *testing.T) {
	t.Parallel()
	for _, records := range []bool{false, true} {
		rec := manualRecord(t)
		pb := &porttest.Playback{Ops: []porttest.IO{{R: append([]byte("2858997D3A4F0000\r\n"), rec...)}}}
		d, err := New(pb, &Opts{Records: records})
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
			got = append(got, r.ID.Code+" "+string(r.Protocol))
		}
		want := []string{"969123456789012 ISO"}
		if records {
			want = append(want, "969123456789012 FDX-B")
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("Records=%v: reads %v, want %v", records, got, want)
		}
	}
}

func TestDecodeErrors(t *testing.T) {
	t.Parallel()
	for _, in := range []string{"2858997D3A4F000", "2858997D3A4F000G", "\x02K0101", "\x02K01010100013XF2858997D3A4F00001______________46F6\x03"} {
		if f, err := Decode([]byte(in)); err == nil {
			t.Errorf("Decode(%q) = %+v, want an error", in, f)
		}
	}
	// Country field 1023: no ISO 11784 code.
	if _, ok, err := ReadFrame([]byte("FFFFFFFFFFFFFFFF\r\n")); ok || err == nil {
		t.Errorf("ReadFrame(FFFF…) = %v, %v, want an error", ok, err)
	}
}

func FuzzDecode(f *testing.F) {
	f.Add([]byte("2858997D3A4F0000\r\n"))
	f.Add(manualRecord(f))
	f.Fuzz(func(t *testing.T, b []byte) {
		readerstest.RoundTrip(t, b, Decode, Encode)
	})
}

func FuzzSplit(f *testing.F) {
	f.Add(append([]byte("x\x02y\r\n"), manualRecord(f)...))
	f.Fuzz(func(t *testing.T, b []byte) {
		readerstest.SplitDecodes(t, Split, b, Decode)
	})
}

func Example() {
	r, _, _ := ReadFrame([]byte("2858997D3A4F0000\r\n"))
	fmt.Println(r.ID)
	// Output: 969 123456789012
}
