package main

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chipdesk/chipdesk/drivers/port/usbport"
	"github.com/chipdesk/chipdesk/drivers/port/usbport/usbporttest"
	"github.com/chipdesk/chipdesk/drivers/readers/hidwedge"
	"github.com/chipdesk/chipdesk/internal/cmdline"
)

// runUSBOn runs chiptool usb on bus.
func runUSBOn(t *testing.T, bus *usbporttest.Bus, args ...string) (string, string, error) {
	t.Helper()
	var out, errOut bytes.Buffer
	e := &cmdline.Env{
		Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errOut,
		Now: func() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) },
	}
	err := usbCommand(func() (usbport.Bus, error) { return bus, nil })(context.Background(), e, args)
	return out.String(), errOut.String(), err
}

func TestUSBList(t *testing.T) {
	t.Parallel()
	ftdi := usbporttest.Vendor(0x0403, 0x6001, "A10K")
	ql := usbporttest.Printer(0x04f9, 0x2042, "000F1Z401370")
	acm := usbporttest.Vendor(0x2341, 0x0043, "")
	acm.D.Address = 9
	acm.D.Interfaces[0].Class, acm.D.Interfaces[0].SubClass = usbport.ClassCDC, 2
	out, _, err := runUSBOn(t, usbporttest.NewBus(ftdi, ql, acm), "list")
	if err != nil {
		t.Fatal(err)
	}
	want := "001/006 0403:6001 serial ftdi FT232 Serial (UART) IC serial A10K at 1-3\n" +
		"001/004 04f9:2042 printer brother-ql QL-700 serial 000F1Z401370 at 1-1\n" +
		"001/009 2341:0043 serial cdc-acm  at 1-3\n"
	if out != want {
		t.Errorf("usb list =\n%s\nwant\n%s", out, want)
	}
}

func TestUSBWedge(t *testing.T) {
	t.Parallel()
	kbd := usbporttest.BootKeyboard(0x1667, 0x0005, "")
	kbd.Control = func(uint8, uint8, uint16, uint16, []byte) (int, error) { return 0, nil }
	reports, err := hidwedge.Encode("985121004515220\nTAG-0042\n", nil)
	if err != nil {
		t.Fatal(err)
	}
	kbd.Feed(0x81, reports...)
	out, errOut, err := runUSBOn(t, usbporttest.NewBus(kbd), "wedge", "--count", "2")
	if err != nil {
		t.Fatalf("usb wedge = %v (%s)", err, errOut)
	}
	var got []wedgeJSON
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		var w wedgeJSON
		if err := json.Unmarshal([]byte(l), &w); err != nil {
			t.Fatalf("line %q: %v", l, err)
		}
		got = append(got, w)
	}
	if len(got) != 2 || !got[0].OK || got[0].Code != "985121004515220" || got[1].OK || got[1].Line != "TAG-0042" || got[1].Error == "" {
		t.Errorf("usb wedge printed %+v", got)
	}
	if kbd.Detached(0) {
		t.Error("the scanner was not given back to usbhid")
	}
}

func TestUSBWedgeNone(t *testing.T) {
	t.Parallel()
	_, _, err := runUSBOn(t, usbporttest.NewBus(), "wedge")
	if !errors.Is(err, usbport.ErrNotFound) {
		t.Errorf("usb wedge with no scanner = %v, want ErrNotFound", err)
	}
}

func TestUSBPrinter(t *testing.T) {
	t.Parallel()
	zd := usbporttest.Printer(0x0a5f, 0x0141, "D4J")
	id := "MFG:Zebra Technologies;CMD:ZPL;MDL:ZD410;"
	zd.Control = func(rType, req uint8, _, _ uint16, data []byte) (int, error) {
		if req == 0 {
			binary.BigEndian.PutUint16(data, uint16(2+len(id)))
			return 2 + copy(data[2:], id), nil
		}
		data[0] = 0x38
		return 1, nil
	}
	out, _, err := runUSBOn(t, usbporttest.NewBus(zd), "printer", "--match", "0a5f:")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"printer usb 0a5f:0141 D4J", "device id: CMD:ZPL;MDL:ZD410;MFG:Zebra Technologies;", "status: paper empty, selected"} {
		if !strings.Contains(out, want) {
			t.Errorf("usb printer output %q lacks %q", out, want)
		}
	}
}

func TestUSBUdevMatchesDeploy(t *testing.T) {
	t.Parallel()
	out, _, err := runUSBOn(t, usbporttest.NewBus(), "udev")
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(filepath.Join("..", "..", "..", "deploy", "udev", "99-chipdesk.rules"))
	if err != nil {
		t.Fatal(err)
	}
	if out != string(want) {
		t.Error("chiptool usb udev differs from deploy/udev/99-chipdesk.rules")
	}
}

func TestUSBUsage(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{nil, {"frob"}, {"udev", "--group", "a b"}, {"list", "extra"}, {"wedge", "--match", "zz"}} {
		_, _, err := runUSBOn(t, usbporttest.NewBus(), args...)
		if cmdline.ExitCode(err) != 2 {
			t.Errorf("usb %q = %v, want a usage error", args, err)
		}
	}
	if usbport.Supported {
		return
	}
	// Without libusb the real command says so.
	code, _, errOut := runCmd(t, "", "usb", "list")
	if code != 1 || !strings.Contains(errOut, "built without USB support") {
		t.Errorf("chiptool usb list without libusb = %d, %q", code, errOut)
	}
}
