package usbport_test

import (
	"context"
	"encoding/binary"
	"errors"
	"maps"
	"strings"
	"testing"

	"github.com/chipdesk/chipdesk/drivers/port/usbport"
	"github.com/chipdesk/chipdesk/drivers/port/usbport/usbporttest"
)

// brotherQL700 answers the printer class requests as a QL-700 would
// (Printing Devices 1.1 §4.2.1, §4.2.2).
func brotherQL700(t *testing.T) *usbporttest.Device {
	d := usbporttest.Printer(0x04f9, 0x2042, "000F1Z401370")
	id := "MFG:Brother;CMD:PT-CBP;MDL:QL-700;CLS:PRINTER;"
	d.Control = func(rType, req uint8, value, index uint16, data []byte) (int, error) {
		if rType != 0xa1 {
			t.Errorf("Control request type 0x%02x, want 0xa1", rType)
			return 0, usbport.ErrStall
		}
		switch req {
		case 0: // GET_DEVICE_ID: wValue config index, wIndex interface<<8 | alt
			if value != 0 || index != 0 {
				t.Errorf("GET_DEVICE_ID value %d index %#x, want 0, 0", value, index)
			}
			binary.BigEndian.PutUint16(data, uint16(2+len(id)))
			return 2 + copy(data[2:], id), nil
		case 1: // GET_PORT_STATUS
			data[0] = 0x18 // selected, no error
			return 1, nil
		}
		return 0, usbport.ErrStall
	}
	// The printer answers a status request on bulk IN.
	d.OnWrite = func(addr uint8, p []byte) {
		if string(p) == "\x1bi\x53" {
			d.Feed(0x82, make([]byte, 32))
		}
	}
	return d
}

func TestOpenPrinter(t *testing.T) {
	t.Parallel()
	hid := usbporttest.BootKeyboard(0x04f9, 0x1111, "")
	d := brotherQL700(t)
	b := usbporttest.NewBus(hid, d)
	ctx := context.Background()
	p, err := usbport.OpenPrinter(ctx, b, usbport.Match{VID: 0x04f9}, nil)
	if err != nil {
		t.Fatalf("OpenPrinter = %v", err)
	}
	defer p.Close()
	if !d.Detached(0) {
		t.Error("usblp not detached")
	}
	id, err := usbport.GetDeviceID(ctx, p)
	if err != nil {
		t.Fatalf("GetDeviceID = %v", err)
	}
	if id.Manufacturer() != "Brother" || id.Model() != "QL-700" || id.CommandSet() != "PT-CBP" {
		t.Errorf("GetDeviceID = %v", id)
	}
	st, err := usbport.GetPortStatus(ctx, p)
	if err != nil || st.Error() || st.PaperEmpty() || !st.Selected() {
		t.Errorf("GetPortStatus = %v, %v, want selected", st, err)
	}
	// Status request over bulk OUT, 32-byte status over bulk IN
	// (Brother QL raster reference: ESC i S).
	if _, err := p.Write([]byte("\x1bi\x53")); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 32)
	if n, err := p.Read(buf); n != 32 || err != nil {
		t.Errorf("status Read = %d, %v, want 32 bytes", n, err)
	}
}

func TestOpenPrinterNoStatusSupport(t *testing.T) {
	t.Parallel()
	d := usbporttest.Printer(0x0a5f, 0x0141, "Z")
	b := usbporttest.NewBus(d)
	p, err := usbport.OpenPrinter(context.Background(), b, usbport.Match{VID: 0x0a5f}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if _, err := usbport.GetDeviceID(context.Background(), p); !errors.Is(err, usbport.ErrStall) {
		t.Errorf("GetDeviceID on a stalling printer = %v, want ErrStall", err)
	}
}

func TestParseDeviceID(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, in string
		want     usbport.DeviceID
		wantErr  bool
	}{
		{"brother", "MFG:Brother;CMD:PT-CBP;MDL:QL-700;CLS:PRINTER;", usbport.DeviceID{"MFG": "Brother", "CMD": "PT-CBP", "MDL": "QL-700", "CLS": "PRINTER"}, false},
		{"zebra long keys, no final semicolon", "MANUFACTURER:Zebra Technologies;COMMAND SET:ZPL;MODEL:ZTC ZD410-203dpi ZPL",
			usbport.DeviceID{"MANUFACTURER": "Zebra Technologies", "COMMAND SET": "ZPL", "MODEL": "ZTC ZD410-203dpi ZPL"}, false},
		{"lower-case keys", "mfg:X;", usbport.DeviceID{"MFG": "X"}, false},
		{"empty", "", nil, true},
		{"no colon", "MFG;", nil, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := usbport.ParseDeviceID(tc.in)
			if (err != nil) != tc.wantErr || !maps.Equal(got, tc.want) {
				t.Errorf("ParseDeviceID(%q) = %v, %v, want %v", tc.in, got, err, tc.want)
			}
			if err != nil && !errors.Is(err, usbport.ErrDeviceID) {
				t.Errorf("ParseDeviceID(%q) error %v does not wrap ErrDeviceID", tc.in, err)
			}
		})
	}
	if got := (usbport.DeviceID{"MDL": "QL-700", "MFG": "Brother"}).Model(); got != "QL-700" {
		t.Errorf("Model() = %q", got)
	}
}

func FuzzParseDeviceID(f *testing.F) {
	f.Add("MFG:Brother;CMD:PT-CBP;MDL:QL-700;CLS:PRINTER;")
	f.Add("MANUFACTURER:Zebra;MODEL:ZD410")
	f.Fuzz(func(t *testing.T, s string) {
		id, err := usbport.ParseDeviceID(s)
		if err != nil {
			return
		}
		// Round trip: formatting and parsing again gives the same id.
		back, err := usbport.ParseDeviceID(id.String())
		if err != nil || !maps.Equal(back, id) {
			t.Fatalf("ParseDeviceID(%q) = %v, %v, want %v", id.String(), back, err, id)
		}
		for k := range id {
			if k == "" || strings.ContainsAny(k, ":;") {
				t.Fatalf("ParseDeviceID(%q) has key %q", s, k)
			}
		}
	})
}

func TestPortStatusString(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		s    usbport.PortStatus
		want string
	}{
		{0x18, "selected"},
		{0x38, "paper empty, selected"},
		{0x00, "error"},
		{0x08, "idle"},
	} {
		if got := tc.s.String(); got != tc.want {
			t.Errorf("PortStatus(%#x).String() = %q, want %q", uint8(tc.s), got, tc.want)
		}
	}
}
