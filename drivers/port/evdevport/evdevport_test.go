//go:build linux

package evdevport_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chipdesk/chipdesk/drivers/port"
	"github.com/chipdesk/chipdesk/drivers/port/evdevport"
	"github.com/chipdesk/chipdesk/drivers/port/porttest"
	"github.com/chipdesk/chipdesk/internal/testtime"
)

func TestOpenErrors(t *testing.T) {
	t.Parallel()
	missing := filepath.Join(t.TempDir(), "event9")
	if _, err := evdevport.Open(missing, nil); !errors.Is(err, evdevport.ErrNotFound) {
		t.Errorf("Open(%s) = %v, want ErrNotFound", missing, err)
	}
	// A terminal answers EVIOCGRAB with ENOTTY: not an input device.
	pt, err := porttest.NewPTY()
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	defer pt.Close()
	if _, err := evdevport.Open(pt.Path(), nil); !errors.Is(err, evdevport.ErrNotInput) {
		t.Errorf("Open(%s) = %v, want ErrNotInput", pt.Path(), err)
	}
}

// Without a grab any character device reads: the port's reads, read
// timeout, hang-up and Close, played on a pseudo-terminal.
func TestReadTimeoutClose(t *testing.T) {
	t.Parallel()
	pt, err := porttest.NewPTY()
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	defer pt.Close()
	p, err := evdevport.Open(pt.Path(), &evdevport.Opts{NoGrab: true})
	if err != nil {
		t.Fatal(err)
	}
	if p.Grabbed() {
		t.Error("Grabbed() with NoGrab")
	}
	if _, err := p.Write([]byte{1}); !errors.Is(err, evdevport.ErrReadOnly) {
		t.Errorf("Write = %v, want ErrReadOnly", err)
	}
	if err := p.SetReadTimeout(20 * time.Millisecond); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 64)
	if _, err := p.Read(buf); !errors.Is(err, port.ErrTimeout) {
		t.Errorf("Read with nothing sent = %v, want ErrTimeout", err)
	}
	if _, err := pt.Write([]byte("abc")); err != nil {
		t.Fatal(err)
	}
	if n, err := p.Read(buf); err != nil || string(buf[:n]) != "abc" {
		t.Errorf("Read = %q, %v", buf[:n], err)
	}
	if err := p.SetReadTimeout(0); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := p.Read(buf)
		done <- err
	}()
	time.Sleep(10 * time.Millisecond)
	if err := p.Close(); err != nil {
		t.Errorf("Close = %v", err)
	}
	select {
	case err := <-done:
		if !errors.Is(err, port.ErrClosed) {
			t.Errorf("Read after Close = %v, want ErrClosed", err)
		}
	case <-time.After(testtime.Scale(5 * time.Second)):
		t.Fatal("a blocked Read did not return at Close")
	}
	if err := p.Close(); err != nil {
		t.Errorf("second Close = %v", err)
	}
}

// List reads names, stable names and key capabilities from a /dev and
// /sys laid out as udev and the kernel lay them out.
func TestList(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(filepath.Join(root, "dev/input/by-id"), 0o755))
	for ev, caps := range map[string]struct{ name, keys string }{
		// A keyboard: bits 1-57 and more set in the lowest word.
		"event0": {"QEMU QEMU USB Keyboard", "ff00000000000007 ff800000000007ff febeffdfffefffff fffffffffffffffe"},
		// A power button: KEY_POWER (116) only.
		"event1": {"Power Button", "10000000000000 0"},
	} {
		must(os.WriteFile(filepath.Join(root, "dev/input", ev), nil, 0o644))
		d := filepath.Join(root, "sys/class/input", ev, "device", "capabilities")
		must(os.MkdirAll(d, 0o755))
		must(os.WriteFile(filepath.Join(d, "key"), []byte(caps.keys+"\n"), 0o644))
		must(os.WriteFile(filepath.Join(root, "sys/class/input", ev, "device", "name"), []byte(caps.name+"\n"), 0o644))
	}
	must(os.Symlink("../event0", filepath.Join(root, "dev/input/by-id/usb-QEMU_QEMU_USB_Keyboard-event-kbd")))
	got, err := evdevport.List(root)
	if err != nil {
		t.Fatal(err)
	}
	want := []evdevport.Info{
		{Path: filepath.Join(root, "dev/input/event0"), ByID: filepath.Join(root, "dev/input/by-id/usb-QEMU_QEMU_USB_Keyboard-event-kbd"), Name: "QEMU QEMU USB Keyboard", Keys: true},
		{Path: filepath.Join(root, "dev/input/event1"), Name: "Power Button"},
	}
	if len(got) != len(want) {
		t.Fatalf("List = %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("List[%d] = %+v, want %+v", i, got[i], want[i])
		}
	}
	if s := got[0].Stable(); s != want[0].ByID {
		t.Errorf("Stable() = %s, want the by-id name", s)
	}
	if s := got[1].Stable(); s != want[1].Path {
		t.Errorf("Stable() = %s, want the path", s)
	}
}
