package brotherql

import (
	"bytes"
	"encoding/hex"
	"errors"
	"reflect"
	"testing"

	"github.com/chipdesk/chipdesk/drivers/printers"
)

// Status replies authored from the documented layout (raster manuals,
// "Status information"; research notes §2.4).
const (
	// QL-700, 62 mm continuous, reply to ESC i S, no error.
	ql700Ready = "80204230353030000000" + "3e0a" + "000000" + "00" + "00" + "00" + "00" + "00" + "0000" + "00" + "00" + "0000000000000000"
	// QL-820NWB (model code 0x41, series '4'), 29x90 die-cut, cover open,
	// error status.
	ql820CoverOpen = "80204234413030000010" + "1d0b" + "000000" + "00" + "00" + "5a" + "02" + "00" + "0000" + "00" + "00" + "0081000000000000"
	// QL-720NW, printing completed, 29 mm, phase printing.
	ql720Printed = "80204234373030000000" + "1d0a" + "000000" + "40" + "00" + "00" + "01" + "01" + "0001" + "00" + "00" + "0000000000000000"
)

func mustHex(t *testing.T, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestParseStatus(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		in     string
		want   Status
		faults printers.Fault
		media  string
	}{
		{"QL-700 ready, 62 mm", ql700Ready,
			Status{Series: '0', Model: 0x35, Country: '0', Reserved67: [2]byte{'0', 0}, MediaWidth: 62, MediaType: MediaContinuous},
			0, "62"},
		{"QL-820NWB cover open, 29x90", ql820CoverOpen,
			Status{Series: '4', Model: 0x41, Country: '0', Reserved67: [2]byte{'0', 0}, Err2: 0x10, MediaWidth: 29, MediaType: MediaDieCut,
				MediaLength: 90, Type: StatusError, Tail: [8]byte{0, 0x81}},
			printers.FaultHeadOpen, "29x90"},
		{"QL-720NW printed", ql720Printed,
			Status{Series: '4', Model: 0x37, Country: '0', Reserved67: [2]byte{'0', 0}, MediaWidth: 29, MediaType: MediaContinuous,
				Mode: 0x40, Type: StatusPrinted, Phase: PhasePrinting, PhaseNumber: 1},
			0, "29"},
	}
	for _, tt := range tests {
		b := mustHex(t, tt.in)
		got, err := ParseStatus(b)
		if err != nil || got != tt.want {
			t.Errorf("%s: ParseStatus(%x) = %+v, %v, want %+v", tt.name, b, got, err, tt.want)
			continue
		}
		if f := got.Faults(); f != tt.faults {
			t.Errorf("%s: Faults() = %v, want %v", tt.name, f, tt.faults)
		}
		if m, ok := got.Media(); !ok || m.ID != tt.media {
			t.Errorf("%s: Media() = %v, %v, want %s", tt.name, m.ID, ok, tt.media)
		}
		if enc := got.Encode(); !bytes.Equal(enc, b) {
			t.Errorf("%s: Encode() = %x, want %x", tt.name, enc, b)
		}
	}
}

func TestParseStatusErrors(t *testing.T) {
	t.Parallel()
	good := mustHex(t, ql700Ready)
	bad := func(i int, v byte) []byte { b := bytes.Clone(good); b[i] = v; return b }
	tests := []struct {
		name string
		in   []byte
	}{
		{"empty", nil},
		{"short read", good[:20]},
		{"too long", append(bytes.Clone(good), 0)},
		{"no print head mark", bad(0, 0x81)},
		{"wrong size byte", bad(1, 0x21)},
		{"not Brother", bad(2, 'b')},
	}
	for _, tt := range tests {
		if got, err := ParseStatus(tt.in); !errors.Is(err, ErrStatus) {
			t.Errorf("%s: ParseStatus(%x) = %+v, %v, want ErrStatus", tt.name, tt.in, got, err)
		}
	}
}

// TestFaultBits: each documented error bit maps to its fault.
func TestFaultBits(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		err1, err2 byte
		want       printers.Fault
		names      []string
	}{
		{"1.0 no media", 0x01, 0, printers.FaultPaperOut, []string{"no media"}},
		{"1.1 end of media", 0x02, 0, printers.FaultPaperOut, []string{"end of media"}},
		{"1.2 cutter jam", 0x04, 0, printers.FaultCutterJam, []string{"cutter jam"}},
		{"1.4 main unit in use", 0x10, 0, printers.FaultSystem, []string{"main unit in use"}},
		{"1.7 fan failure", 0x80, 0, printers.FaultSystem, []string{"fan failure"}},
		{"2.0 replace media", 0, 0x01, printers.FaultMediaWrong, []string{"replace media"}},
		{"2.1 expansion buffer full", 0, 0x02, printers.FaultBufferFull, []string{"expansion buffer full"}},
		{"2.2 transmission error", 0, 0x04, printers.FaultTransmission, []string{"transmission error"}},
		{"2.3 communication buffer full", 0, 0x08, printers.FaultBufferFull, []string{"communication buffer full"}},
		{"2.4 cover open", 0, 0x10, printers.FaultHeadOpen, []string{"cover open"}},
		{"2.5 cancel key", 0, 0x20, printers.FaultCancelled, []string{"cancel key"}},
		{"2.6 cannot feed", 0, 0x40, printers.FaultFeed, []string{"cannot feed"}},
		{"2.7 system error", 0, 0x80, printers.FaultSystem, []string{"system error"}},
		{"two at once", 0x01, 0x10, printers.FaultPaperOut | printers.FaultHeadOpen, []string{"no media", "cover open"}},
	}
	for _, tt := range tests {
		s := Status{Err1: tt.err1, Err2: tt.err2}
		if got := s.Faults(); got != tt.want {
			t.Errorf("%s: Faults() = %v, want %v", tt.name, got, tt.want)
		}
		if got := s.Errors(); !reflect.DeepEqual(got, tt.names) {
			t.Errorf("%s: Errors() = %q, want %q", tt.name, got, tt.names)
		}
	}
	if f := (Status{Type: StatusError}).Faults(); f != printers.FaultSystem {
		t.Errorf("error status with no bits: Faults() = %v, want system error", f)
	}
}

func FuzzParseStatus(f *testing.F) {
	for _, s := range []string{ql700Ready, ql820CoverOpen, ql720Printed} {
		b, _ := hex.DecodeString(s)
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := ParseStatus(b)
		if err != nil {
			return
		}
		// Round trip: every byte of a valid reply survives.
		if enc := s.Encode(); !bytes.Equal(enc, b) {
			t.Fatalf("Encode(ParseStatus(%x)) = %x", b, enc)
		}
		s2, err := ParseStatus(s.Encode())
		if err != nil || s2 != s {
			t.Fatalf("ParseStatus(Encode(%+v)) = %+v, %v", s, s2, err)
		}
		_ = s.Shared()
	})
}
