//go:build unix

package zpl_test

import (
	"context"
	"io"
	"testing"

	"github.com/chipdesk/chipdesk/drivers/port"
	"github.com/chipdesk/chipdesk/drivers/port/porttest"
	"github.com/chipdesk/chipdesk/drivers/port/serialport"
	"github.com/chipdesk/chipdesk/drivers/port/usbport"
	"github.com/chipdesk/chipdesk/drivers/port/usbport/usbporttest"
	"github.com/chipdesk/chipdesk/drivers/printers"
	"github.com/chipdesk/chipdesk/drivers/printers/zpl"
	"github.com/chipdesk/chipdesk/firmware-tools/sim/zplsim"
)

// TestPrintSerial: the same driver on a serial line (a pty played by
// the fake printer).
func TestPrintSerial(t *testing.T) {
	t.Parallel()
	pt, err := porttest.NewPTY()
	if err != nil {
		t.Fatal(err)
	}
	defer pt.Close()
	sim := zplsim.New(nil)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go sim.Serve(ctx, pt)
	p, err := serialport.Open(pt.Path(), &serialport.Opts{Mode: port.Mode{Baud: 9600}})
	if err != nil {
		t.Fatal(err)
	}
	d, err := zpl.New(context.Background(), p, nil)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	defer d.Close()
	if err := d.Print(ctx, printers.Label{ZPL: []byte(label)}); err != nil {
		t.Fatalf("Print over serial: %v", err)
	}
	if jobs := sim.Jobs(); len(jobs) != 1 || string(jobs[0].Data) != label {
		t.Errorf("printer got %d jobs %+v, want the label", len(jobs), jobs)
	}
	sim.SetStatus(func(h *zpl.HostStatus) { h.Paused = true })
	if err := d.Print(ctx, printers.Label{ZPL: []byte(label)}); err == nil {
		t.Error("Print to a paused printer over serial = nil, want an error")
	}
}

// feeder turns the fake printer's replies into USB IN packets.
type feeder struct{ d *usbporttest.Device }

func (f feeder) Write(b []byte) (int, error) {
	f.d.Feed(0x82, b)
	return len(b), nil
}

// TestPrintUSB: the same driver on a USB printer-class pipe (Zebra
// vendor id 0x0A5F, ZD620 0x0141).
func TestPrintUSB(t *testing.T) {
	t.Parallel()
	dev := usbporttest.Printer(0x0a5f, 0x0141, "D4J0")
	pr, pw := io.Pipe()
	defer pw.Close()
	dev.OnWrite = func(addr uint8, p []byte) { pw.Write(p) }
	sim := zplsim.New(nil)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go sim.Serve(ctx, struct {
		io.Reader
		io.Writer
	}{pr, feeder{dev}})
	p, err := usbport.OpenPrinter(ctx, usbporttest.NewBus(dev), usbport.Match{VID: 0x0a5f}, nil)
	if err != nil {
		t.Fatal(err)
	}
	d, err := zpl.New(context.Background(), p, nil)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	defer d.Close()
	if err := d.Print(ctx, printers.Label{ZPL: []byte(label), Copies: 2}); err != nil {
		t.Fatalf("Print over USB: %v", err)
	}
	if jobs := sim.Jobs(); len(jobs) != 1 {
		t.Errorf("printer got %d jobs, want 1", len(jobs))
	}
	if q := sim.Queries(); q != 3 {
		t.Errorf("printer answered %d ~HS, want 3", q)
	}
}
