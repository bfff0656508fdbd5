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
	"github.com/chipdesk/chipdesk/drivers/readers/protocoltest"
	"github.com/chipdesk/chipdesk/reader"
)

// manualRecord is the record printed in the AEG ARE H9 HF manual §7.4.
func manualRecord(t testing.TB) []byte {
	t.Helper()
	return []byte(protocoltest.ManualLines(t, "../testdata/reader_lines.json", "AEG")[0].Raw)
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
	if err != nil || !ok || r.ID.Code != "969123456789012" || r.Protocol != reader.AirFDXB {
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
		protocoltest.RoundTrip(t, b, Decode, Encode)
	})
}

func FuzzSplit(f *testing.F) {
	f.Add(append([]byte("x\x02y\r\n"), manualRecord(f)...))
	f.Fuzz(func(t *testing.T, b []byte) {
		protocoltest.SplitDecodes(t, Split, b, Decode)
	})
}

func Example() {
	r, _, _ := ReadFrame([]byte("2858997D3A4F0000\r\n"))
	fmt.Println(r.ID)
	// Output: 969 123456789012
}

// The MULTITAG Z line, a Trovan output line and records of the 40-bit
// transponder types: each read in the kind the reader says, never a
// bare 10-hex code called FECAVA.
func TestKinds(t *testing.T) {
	t.Parallel()
	rec := func(typ byte, code string) string {
		return "\x02K0101010001339" + code + string(typ) + "______________0000\x03"
	}
	tests := []struct {
		in, kind, code string
		p              reader.Air
	}{
		{"Z2858997D3A4F0000\r\n", "iso11784", "969123456789012", reader.AirISO},
		{"0012345678\r\n", "trovan", "0012345678", reader.AirTrovan},
		{rec(TypeTrovan, "0000000012345678"), "trovan", "0012345678", reader.AirTrovan},
		{rec(TypeDestron, "0000000000013531"), "fecava", "0000013531", reader.AirFDXA},
		{rec(TypeASK64, "00000006001259E3"), "em4102", "06001259E3", reader.AirUnknown},
	}
	var in []byte
	for _, tt := range tests {
		in = append(in, "\x13"+tt.in...)
	}
	pb := &porttest.Playback{Ops: []porttest.IO{{R: in}}}
	d, err := New(pb, &Opts{Records: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		r, err := d.Next(context.Background())
		if err != nil {
			t.Fatalf("Next() = %v; %v", err, d.Stats())
		}
		if string(r.ID.Kind) != tt.kind || r.ID.Code != tt.code || r.Protocol != tt.p {
			t.Errorf("%q: %s %s %s, want %s %s %s", tt.in, r.ID.Kind, r.ID.Code, r.Protocol, tt.kind, tt.code, tt.p)
		}
	}
	// A Trovan line over 39 bits is a bad frame, and a damaged 16-hex
	// line is no short code.
	for _, bad := range []string{"8012345678\r\n", "858997D3A4F0000\r\n"} {
		if r, ok, err := ReadFrame([]byte(bad)); ok || err == nil && bad[0] == '8' {
			t.Errorf("ReadFrame(%q) = %+v, %v, %v", bad, r, ok, err)
		}
	}
	sc := readers.NewScanner(Split, 0)
	sc.Write([]byte("858997D3A4F0000\r\n"))
	if f := sc.Frame(); f != nil {
		t.Errorf("Split(15 hex) = %q, want no frame", f)
	}
}
