//go:build libusb && cgo

package usbport_test

import (
	"context"
	"errors"
	"testing"

	"github.com/chipdesk/chipdesk/drivers/port/usbport"
)

// These run against the real libusb. CI has no USB bus, so they check
// the paths that gousb gets wrong: nothing found must be ErrNotFound,
// not a nil device with a nil error.
func TestGousbBus(t *testing.T) {
	b, err := usbport.NewBus()
	if err != nil {
		t.Fatalf("NewBus() = %v", err)
	}
	defer func() {
		if err := b.Close(); err != nil {
			t.Errorf("Close = %v", err)
		}
	}()
	ctx := context.Background()
	devs, err := b.Devices(ctx)
	if err != nil {
		t.Fatalf("Devices = %v", err)
	}
	t.Logf("%d devices", len(devs))
	m := usbport.Match{VID: 0xfffe, PID: 0xfffe, Serial: "no such device"}
	d, err := b.Open(ctx, m)
	if d != nil || !errors.Is(err, usbport.ErrNotFound) {
		t.Fatalf("Open(%v) = %v, %v, want nil, ErrNotFound", m, d, err)
	}
	p, err := usbport.OpenPrinter(ctx, b, usbport.Match{VID: 0xfffe}, nil)
	if p != nil || !errors.Is(err, usbport.ErrNotFound) {
		t.Errorf("OpenPrinter = %v, %v, want nil, ErrNotFound", p, err)
	}
	if !usbport.Supported {
		t.Error("Supported = false in a libusb build")
	}
	if err := b.Close(); err != nil {
		t.Errorf("Close = %v", err)
	}
	if _, err := b.Devices(ctx); !errors.Is(err, usbport.ErrClosed) {
		t.Errorf("Devices after Close = %v, want ErrClosed", err)
	}
}
