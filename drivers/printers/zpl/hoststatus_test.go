package zpl

import (
	"errors"
	"fmt"
	"testing"

	"github.com/chipdesk/chipdesk/drivers/printers"
)

// guideReply is the ready reply quoted in the research notes (ZPL II
// guide field layout): 159 = DTR handshake, 1 stop bit, 8 data bits,
// 19200 baud; tear-off mode.
const guideReply = "\x02159,0,0,0211,000,0,0,0,000,0,0,0\x03\r\n" +
	"\x02000,0,0,0,0,2,3,0,00000000,1,002\x03\r\n" +
	"\x020000,0\x03\r\n"

func TestParseHostStatus(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		in    string
		want  HostStatus
		fault printers.Fault
	}{
		{
			name: "guide example ready",
			in:   guideReply,
			want: HostStatus{Comm: 159, LabelLength: 211, PrintMode: 2, WidthMode: 3, Always1: 1, GraphicsStored: 2},
		},
		{
			name: "paper out and paused",
			in: "\x02159,1,1,0211,000,0,0,0,000,0,0,0\x03\r\n" +
				"\x02000,0,0,0,0,2,3,0,00000000,1,002\x03\r\n\x020000,0\x03\r\n",
			want:  HostStatus{Comm: 159, PaperOut: true, Paused: true, LabelLength: 211, PrintMode: 2, WidthMode: 3, Always1: 1, GraphicsStored: 2},
			fault: printers.FaultPaperOut | printers.FaultPaused,
		},
		{
			name: "head open, ribbon out in thermal transfer, over temperature, buffer full",
			in: "\x02159,0,0,0400,003,1,0,1,000,0,0,1\x03\r\n" +
				"\x02001,0,1,1,1,2,3,0,00000005,1,000\x03\r\n\x021234,1\x03\r\n",
			want: HostStatus{Comm: 159, LabelLength: 400, FormatsInBuffer: 3, BufferFull: true, PartialFormat: true,
				OverTemp: true, Function: 1, HeadOpen: true, RibbonOut: true, ThermalTransfer: true, PrintMode: 2,
				WidthMode: 3, LabelsRemaining: 5, Always1: 1, Password: 1234, StaticRAM: true},
			fault: printers.FaultHeadOpen | printers.FaultRibbonOut | printers.FaultHeadOverTemp | printers.FaultBufferFull,
		},
		{
			name: "ribbon out ignored in direct thermal; under temperature, corrupt RAM",
			in: "\x02159,0,0,0211,000,0,0,0,000,1,1,0\x03\r\n" +
				"\x02000,0,0,1,0,2,3,0,00000000,1,002\x03\r\n\x020000,0\x03\r\n",
			want: HostStatus{Comm: 159, LabelLength: 211, CorruptRAM: true, UnderTemp: true, RibbonOut: true,
				PrintMode: 2, WidthMode: 3, Always1: 1, GraphicsStored: 2},
			fault: printers.FaultCorruptRAM | printers.FaultHeadUnderTemp,
		},
		{
			name: "no CR LF between strings, unpadded numbers",
			in:   "\x02159,0,0,211,0,0,0,0,0,0,0,0\x03\x020,0,0,0,0,2,3,0,0,1,2\x03\x020,0\x03",
			want: HostStatus{Comm: 159, LabelLength: 211, PrintMode: 2, WidthMode: 3, Always1: 1, GraphicsStored: 2},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := ParseHostStatus([]byte(tt.in))
			if err != nil || got != tt.want {
				t.Fatalf("ParseHostStatus(%q) = %+v, %v, want %+v", tt.in, got, err, tt.want)
			}
			if f := got.Faults(); f != tt.fault {
				t.Errorf("Faults() = %v, want %v", f, tt.fault)
			}
		})
	}
}

func TestParseHostStatusErrors(t *testing.T) {
	t.Parallel()
	s2 := "\x02000,0,0,0,0,2,3,0,00000000,1,002\x03\r\n"
	tests := []struct {
		name string
		in   string
		want error
	}{
		{"empty", "", ErrFraming},
		{"two strings", guideReply[:len(guideReply)-10], ErrFraming},
		{"four strings", guideReply + "\x020000,0\x03", ErrFraming},
		{"garbage before", "x" + guideReply, ErrFraming},
		{"garbage after", guideReply + "zz", ErrFraming},
		{"nested STX", "\x02159,\x020,0\x03" + s2 + "\x020000,0\x03", ErrFraming},
		{"too few fields", "\x02159,0,0,0211,000,0,0,0,000,0,0\x03" + s2 + "\x020000,0\x03", ErrField},
		{"letter in field", "\x02159,0,X,0211,000,0,0,0,000,0,0,0\x03" + s2 + "\x020000,0\x03", ErrField},
		{"empty field", "\x02159,0,,0211,000,0,0,0,000,0,0,0\x03" + s2 + "\x020000,0\x03", ErrField},
		{"ten digits", "\x02159,0,0,0211,000,0,0,0,000,0,0,0\x03" + s2 + "\x020000000000,0\x03", ErrField},
		{"minus sign", "\x02159,0,0,-211,000,0,0,0,000,0,0,0\x03" + s2 + "\x020000,0\x03", ErrField},
	}
	for _, tt := range tests {
		if got, err := ParseHostStatus([]byte(tt.in)); !errors.Is(err, tt.want) {
			t.Errorf("%s: ParseHostStatus(%q) = %+v, %v, want %v", tt.name, tt.in, got, err, tt.want)
		}
	}
}

func TestEncodeGuideReply(t *testing.T) {
	t.Parallel()
	h, err := ParseHostStatus([]byte(guideReply))
	if err != nil {
		t.Fatal(err)
	}
	if got := string(h.Encode()); got != guideReply {
		t.Errorf("Encode() = %q, want %q", got, guideReply)
	}
}

func TestBaud(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		comm int
		want int
	}{
		{"guide example 159", 159, 19200},
		{"9600 code 0110", 0b0110, 9600},
		{"57600 code 1010", 1<<8 | 0b010, 57600},
		{"14400 code 1011", 1<<8 | 0b011, 14400},
		{"unknown code 1111", 1<<8 | 0b111, 0},
	}
	for _, tt := range tests {
		if got := (HostStatus{Comm: tt.comm}).Baud(); got != tt.want {
			t.Errorf("%s: HostStatus{Comm: %d}.Baud() = %d, want %d", tt.name, tt.comm, got, tt.want)
		}
	}
}

func FuzzParseHostStatus(f *testing.F) {
	f.Add([]byte(guideReply))
	f.Add([]byte("\x02159,1,1,0211,000,0,0,0,000,0,0,0\x03\x02000,0,1,0,0,2,3,0,00000000,1,002\x03\x020000,0\x03"))
	f.Add([]byte("\x02\x03\x02\x03\x02\x03"))
	f.Fuzz(func(t *testing.T, b []byte) {
		h, err := ParseHostStatus(b)
		if err != nil {
			return
		}
		// Round trip: what was decoded encodes to a reply that decodes
		// to the same status.
		enc := h.Encode()
		h2, err := ParseHostStatus(enc)
		if err != nil || h2 != h {
			t.Fatalf("ParseHostStatus(Encode(%+v)) = %+v, %v", h, h2, err)
		}
	})
}

func FuzzHostStatusRoundTrip(f *testing.F) {
	f.Add(159, 211, 0, 0, 2, uint32(0), 1234)
	f.Add(999, 9999, 999, 99999999, 9, uint32(0xfffff), 0)
	f.Fuzz(func(t *testing.T, comm, length, formats, remaining, mode int, flags uint32, pw int) {
		abs := func(n, max int) int {
			if n < 0 {
				n = -n
			}
			if n < 0 {
				n = 0
			}
			return n % (max + 1)
		}
		bit := func(i int) bool { return flags&(1<<i) != 0 }
		h := HostStatus{
			Comm: abs(comm, 999), PaperOut: bit(0), Paused: bit(1), LabelLength: abs(length, 9999),
			FormatsInBuffer: abs(formats, 999), BufferFull: bit(2), CommDiag: bit(3), PartialFormat: bit(4),
			CorruptRAM: bit(5), UnderTemp: bit(6), OverTemp: bit(7), Function: abs(comm/3, 999),
			HeadOpen: bit(8), RibbonOut: bit(9), ThermalTransfer: bit(10), PrintMode: abs(mode, 9),
			WidthMode: abs(mode/2, 9), LabelWaiting: bit(11), LabelsRemaining: abs(remaining, 99999999),
			Always1: 1, GraphicsStored: abs(formats/2, 999), Password: abs(pw, 9999), StaticRAM: bit(12),
		}
		got, err := ParseHostStatus(h.Encode())
		if err != nil || got != h {
			t.Fatalf("ParseHostStatus(%q) = %+v, %v, want %+v", h.Encode(), got, err, h)
		}
	})
}

func ExampleParseHostStatus() {
	h, err := ParseHostStatus([]byte("\x02159,1,0,0211,000,0,0,0,000,0,0,0\x03\r\n" +
		"\x02000,0,1,0,0,2,3,0,00000000,1,002\x03\r\n\x020000,0\x03\r\n"))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(h.Baud(), h.Faults().String())
	// Output: 19200 paper out, head open
}
