package usbport_test

import (
	"testing"

	"github.com/chipdesk/chipdesk/drivers/port/usbport"
)

func TestMatches(t *testing.T) {
	t.Parallel()
	d := usbport.Desc{Bus: 1, Address: 7, Path: []int{1, 4}, VID: 0x04f9, PID: 0x2042, Serial: "000F1Z401370",
		Interfaces: []usbport.InterfaceDesc{{Class: usbport.ClassPrinter, SubClass: 1, Protocol: 2}}}
	for _, tc := range []struct {
		name string
		m    usbport.Match
		want bool
	}{
		{"any", usbport.Match{}, true},
		{"vendor", usbport.Match{VID: 0x04f9}, true},
		{"vendor product", usbport.Match{VID: 0x04f9, PID: 0x2042}, true},
		{"other product", usbport.Match{VID: 0x04f9, PID: 0x2049}, false},
		{"serial", usbport.Match{Serial: "000F1Z401370"}, true},
		{"other serial", usbport.Match{Serial: "X"}, false},
		{"path", usbport.Match{Path: "1-1.4"}, true},
		{"other path", usbport.Match{Path: "1-1"}, false},
		{"interface class", usbport.Match{Class: usbport.ClassPrinter}, true},
		{"other class", usbport.Match{Class: usbport.ClassHID}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.m.Matches(d); got != tc.want {
				t.Errorf("%v.Matches(%v) = %v, want %v", tc.m, d, got, tc.want)
			}
		})
	}
}

func TestParseMatch(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in      string
		want    usbport.Match
		wantErr bool
	}{
		{"0403:6001", usbport.Match{VID: 0x0403, PID: 0x6001}, false},
		{"0a5f:", usbport.Match{VID: 0x0a5f}, false},
		{"0403:6001:A10K:x", usbport.Match{VID: 0x0403, PID: 0x6001, Serial: "A10K:x"}, false},
		{"0403", usbport.Match{}, true},
		{"zz:6001", usbport.Match{}, true},
		{"0403:10000", usbport.Match{}, true},
	} {
		got, err := usbport.ParseMatch(tc.in)
		if (err != nil) != tc.wantErr || (!tc.wantErr && got != tc.want) {
			t.Errorf("ParseMatch(%q) = %+v, %v, want %+v (error %v)", tc.in, got, err, tc.want, tc.wantErr)
		}
	}
}

func FuzzParseMatch(f *testing.F) {
	f.Add("0403:6001:A10K")
	f.Add("0a5f:")
	f.Fuzz(func(t *testing.T, s string) {
		m, err := usbport.ParseMatch(s)
		if err != nil {
			return
		}
		// Round trip: the canonical form parses back to the same match.
		canon := m.String()
		if m.VID != 0 || m.PID != 0 || m.Serial != "" {
			text := fmtMatch(m)
			back, err := usbport.ParseMatch(text)
			if err != nil || back != m {
				t.Fatalf("ParseMatch(%q) = %+v, %v, want %+v (from %q, %s)", text, back, err, m, s, canon)
			}
		}
	})
}

func fmtMatch(m usbport.Match) string {
	s := hex4(m.VID) + ":" + hex4(m.PID)
	if m.Serial != "" {
		s += ":" + m.Serial
	}
	return s
}

func hex4(v uint16) string {
	const digits = "0123456789abcdef"
	return string([]byte{digits[v>>12], digits[v>>8&15], digits[v>>4&15], digits[v&15]})
}

func TestDescStrings(t *testing.T) {
	t.Parallel()
	d := usbport.Desc{Bus: 2, Address: 9, Path: []int{1, 4, 2}, VID: 0x0a5f, PID: 0x0141}
	if got, want := d.PathString(), "2-1.4.2"; got != want {
		t.Errorf("PathString() = %q, want %q", got, want)
	}
	if got, want := d.ID(), "0a5f:0141"; got != want {
		t.Errorf("ID() = %q, want %q", got, want)
	}
	if got := (usbport.Desc{}).PathString(); got != "" {
		t.Errorf("PathString() of a root = %q, want empty", got)
	}
}
