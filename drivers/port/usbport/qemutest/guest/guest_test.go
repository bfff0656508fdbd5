//go:build qemu && libusb && cgo

package guest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chipdesk/chipdesk/drivers/port"
	"github.com/chipdesk/chipdesk/drivers/port/evdevport"
	"github.com/chipdesk/chipdesk/drivers/port/usbport"
	"github.com/chipdesk/chipdesk/drivers/readers/catalog"
	"github.com/chipdesk/chipdesk/drivers/readers/hidwedge"
	"github.com/chipdesk/chipdesk/drivers/usbids"
	"github.com/chipdesk/chipdesk/reader/chipid"
)

// The markers the host waits for on the guest's console.
const (
	readyFTDI = "CHIPDESK-READY-FTDI"
	readyKbd  = "CHIPDESK-READY-KBD"
	// The keyboard as a Linux input device: grabbed, then released.
	readyEvdev     = "CHIPDESK-READY-EVDEV"
	readyEvdevFree = "CHIPDESK-READY-EVDEV-FREE"
)

func signal(marker string) {
	fmt.Println(marker)
	_ = os.Stdout.Sync()
}

// waitPath waits until path exists (want) or is gone (!want).
func waitPath(path string, want bool, d time.Duration) bool {
	for end := time.Now().Add(d); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
		if _, err := os.Stat(path); (err == nil) == want {
			return true
		}
	}
	return false
}

const ttyUSB0 = "/sys/bus/usb-serial/devices/ttyUSB0"

func TestGuest(t *testing.T) {
	if os.Getenv("CHIPDESK_IN_GUEST") == "" {
		t.Skip("runs inside the QEMU guest only (see package qemutest)")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	b, err := usbport.NewBus()
	if err != nil {
		t.Fatalf("NewBus = %v", err)
	}
	defer b.Close()

	if !waitPath(ttyUSB0, true, 20*time.Second) {
		t.Fatal("ftdi_sio did not bind the adapter")
	}
	devs, err := b.Devices(ctx)
	if err != nil {
		t.Fatalf("Devices = %v", err)
	}
	seen := map[string]bool{}
	for _, d := range devs {
		t.Logf("device %s %q %q at %s", d, d.Manufacturer, d.Product, d.PathString())
		seen[d.ID()] = true
	}
	if !seen["0403:6001"] || !seen["0627:0001"] {
		t.Fatalf("devices %v, want the FTDI 0403:6001 and the keyboard 0627:0001", seen)
	}
	if e, ok := usbids.Lookup(0x0403, 0x6001); !ok || e.Kind != usbids.Serial || e.Family != "ftdi" {
		t.Errorf("Lookup(0403:6001) = %+v, %v, want the FTDI serial bridge", e, ok)
	}

	t.Run("ftdi", func(t *testing.T) { ftdi(ctx, t, b) })
	t.Run("wedge", func(t *testing.T) { wedge(ctx, t, b) })
	t.Run("evdev", func(t *testing.T) { evdev(ctx, t) })
}

// keyboardEvent waits for the emulated keyboard's input device (usbhid
// makes it again after hidwedge gave the keyboard back).
func keyboardEvent(t *testing.T, d time.Duration) evdevport.Info {
	for end := time.Now().Add(d); time.Now().Before(end); time.Sleep(100 * time.Millisecond) {
		devs, err := evdevport.List("")
		if err != nil {
			t.Fatalf("evdevport.List = %v", err)
		}
		for _, d := range devs {
			if d.Keys && strings.Contains(d.Name, "USB Keyboard") {
				return d
			}
		}
	}
	t.Fatal("no input device of the USB keyboard under /dev/input")
	return evdevport.Info{}
}

// evdev reads a chip number typed on the keyboard through the input
// subsystem with an exclusive grab: a second reader of the device sees
// none of the keys while the grab holds, and sees keys again after
// Close.
func evdev(ctx context.Context, t *testing.T) {
	kbd := keyboardEvent(t, 20*time.Second)
	t.Logf("input device %s %q", kbd.Path, kbd.Name)
	other, err := evdevport.Open(kbd.Path, &evdevport.Opts{NoGrab: true})
	if err != nil {
		t.Fatalf("evdevport.Open without grab = %v", err)
	}
	defer other.Close()
	// Opened as the service opens a reader of kind evdev.
	proto, err := catalog.Lookup(catalog.EvdevName)
	if err != nil {
		t.Fatal(err)
	}
	d, err := proto.Opener(kbd.Path, nil)(ctx)
	if err != nil {
		t.Fatalf("opening the evdev reader = %v", err)
	}
	defer d.Close()
	if q, err := evdevport.Open(kbd.Path, nil); !errors.Is(err, evdevport.ErrBusy) {
		t.Errorf("a second grab = %v, want ErrBusy", err)
		if err == nil {
			q.Close()
		}
	}
	signal(readyEvdev)
	rctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	r, err := d.Next(rctx)
	if err != nil {
		t.Fatalf("Next = %v", err)
	}
	if r.ID.Code != "982000123456789" || r.ID.Kind != chipid.KindISO || r.Format != hidwedge.EvdevFormat {
		t.Errorf("Next = %+v, want ISO 982000123456789 from evdev", r)
	}
	if err := other.SetReadTimeout(500 * time.Millisecond); err != nil {
		t.Fatal(err)
	}
	if n := keyEvents(t, other, 500*time.Millisecond); n != 0 {
		t.Errorf("another reader saw %d key events through the grab", n)
	}
	if err := d.Close(); err != nil {
		t.Errorf("Close = %v", err)
	}
	signal(readyEvdevFree)
	if n := keyEvents(t, other, 20*time.Second); n == 0 {
		t.Error("after Close another reader saw no key: the grab was not released")
	}
}

// keyEvents reads p until a key event arrives or d passes, and returns
// how many key events it read.
func keyEvents(t *testing.T, p *evdevport.Port, d time.Duration) int {
	buf := make([]byte, 64*hidwedge.EventSize)
	n := 0
	for end := time.Now().Add(d); n == 0 && time.Now().Before(end); {
		k, err := p.Read(buf)
		if errors.Is(err, port.ErrTimeout) {
			continue
		}
		if err != nil {
			t.Fatalf("Read = %v", err)
		}
		for b := buf[:k]; len(b) >= hidwedge.EventSize; b = b[hidwedge.EventSize:] {
			if e, err := hidwedge.ParseEvent(b[:hidwedge.EventSize]); err == nil && e.Type == hidwedge.EvKey {
				n++
			}
		}
	}
	return n
}

// ftdi reads the adapter's bulk IN pipe through gousb.
func ftdi(ctx context.Context, t *testing.T, b usbport.Bus) {
	d, err := b.Open(ctx, usbport.Match{VID: 0x0403, PID: 0x6001})
	if err != nil {
		t.Fatalf("Open = %v", err)
	}
	defer d.Close()
	if got := d.Desc().Serial; got == "" {
		t.Error("no serial number read from the FTDI")
	}
	iface, err := d.Claim(ctx, 0, 0)
	if err != nil {
		t.Fatalf("Claim = %v", err)
	}
	if !waitPath(ttyUSB0, false, 5*time.Second) {
		t.Error("ttyUSB0 still there: ftdi_sio was not detached")
	}
	in, err := iface.In(0x81)
	if err != nil {
		t.Fatal(err)
	}
	signal(readyFTDI)
	want := []byte("982000123456789\r\n")
	var got []byte
	pkt := make([]byte, 64)
	rctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	for !bytes.Contains(got, want) {
		n, err := in.ReadContext(rctx, pkt)
		if err != nil {
			t.Fatalf("ReadContext after %q = %v", got, err)
		}
		if n > 2 { // two status bytes head every FTDI packet
			got = append(got, pkt[2:n]...)
		}
	}
	id, err := chipid.Parse(string(bytes.TrimSpace(got)), nil)
	if err != nil || id.Code != "982000123456789" {
		t.Errorf("chipid.Parse(%q) = %v, %v", got, id, err)
	}
	if err := iface.Release(); err != nil {
		t.Errorf("Release = %v", err)
	}
	if err := d.Close(); err != nil {
		t.Errorf("Close = %v", err)
	}
	if !waitPath(ttyUSB0, true, 10*time.Second) {
		t.Error("ftdi_sio did not take the adapter back after Release")
	}
}

// wedge reads a chip number typed on the keyboard through hidwedge.
func wedge(ctx context.Context, t *testing.T, b usbport.Bus) {
	found, err := hidwedge.Find(ctx, b, hidwedge.Known(usbport.Match{VID: 0x0627, PID: 0x0001}))
	if err != nil || len(found) != 1 {
		t.Fatalf("hidwedge.Find = %v, %v, want the keyboard", found, err)
	}
	// The interface as bound to usbhid: /sys/bus/usb/drivers/usbhid/1-2:1.0.
	bound := "/sys/bus/usb/drivers/usbhid/" + found[0].PathString() + ":1.0"
	if !waitPath(bound, true, 10*time.Second) {
		t.Fatalf("%s missing: usbhid does not hold the keyboard", bound)
	}
	w, err := hidwedge.Open(ctx, b, usbport.Match{VID: 0x0627, PID: 0x0001}, nil)
	if err != nil {
		t.Fatalf("hidwedge.Open = %v", err)
	}
	defer w.Close()
	if !waitPath(bound, false, 5*time.Second) {
		t.Error("usbhid still holds the keyboard: keys would reach the console")
	}
	signal(readyKbd)
	rctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	r, err := w.Next(rctx)
	if err != nil {
		t.Fatalf("Next = %v", err)
	}
	if r.ID.Code != "985121004515220" || r.ID.Kind != chipid.KindISO {
		t.Errorf("Next = %+v, want ISO 985121004515220", r.ID)
	}
	if err := w.Close(); err != nil {
		t.Errorf("Close = %v", err)
	}
	if !waitPath(bound, true, 10*time.Second) {
		t.Error("usbhid did not take the keyboard back after Close")
	}
}
