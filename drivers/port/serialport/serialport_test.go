//go:build linux

package serialport

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chipdesk/chipdesk/drivers/port"
	"github.com/chipdesk/chipdesk/drivers/port/porttest"
	"github.com/chipdesk/chipdesk/internal/testtime"
)

func openPTY(t *testing.T, o *Opts) (*porttest.PTY, *Port) {
	t.Helper()
	dev, err := porttest.NewPTY()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { dev.Close() })
	p, err := Open(dev.Path(), o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return dev, p
}

// Bytes pass unchanged both ways, control characters included.
func TestBinaryClean(t *testing.T) {
	t.Parallel()
	dev, p := openPTY(t, nil)
	all := make([]byte, 256)
	for i := range all {
		all[i] = byte(i)
	}
	if _, err := dev.Write(all); err != nil {
		t.Fatal(err)
	}
	got := make([]byte, 256)
	if _, err := io.ReadFull(p, got); err != nil || !bytes.Equal(got, all) {
		t.Fatalf("read %x, %v, want all 256 byte values", got, err)
	}
	if _, err := p.Write(all); err != nil {
		t.Fatal(err)
	}
	if _, err := io.ReadFull(dev, got); err != nil || !bytes.Equal(got, all) {
		t.Fatalf("device read %x, %v", got, err)
	}
}

// A read timeout is an error wrapping port.ErrTimeout, not (0, nil).
func TestReadTimeout(t *testing.T) {
	t.Parallel()
	_, p := openPTY(t, &Opts{ReadTimeout: 30 * time.Millisecond})
	n, err := p.Read(make([]byte, 8))
	if n != 0 || !errors.Is(err, port.ErrTimeout) {
		t.Errorf("Read() = %d, %v, want 0, port.ErrTimeout", n, err)
	}
	if err := p.SetReadTimeout(-time.Second); err == nil {
		t.Error("SetReadTimeout(-1s) = nil, want an error")
	}
}

// The device going away is port.ErrHangup; our own Close is
// port.ErrClosed, also for a Read blocked in another goroutine.
func TestHangupAndClose(t *testing.T) {
	t.Parallel()
	dev, p := openPTY(t, nil)
	dev.Hangup()
	if _, err := p.Read(make([]byte, 8)); !errors.Is(err, port.ErrHangup) {
		t.Errorf("Read() after hang-up = %v, want port.ErrHangup", err)
	}
	if _, err := p.Write([]byte("x")); !errors.Is(err, port.ErrHangup) {
		t.Errorf("Write() after hang-up = %v, want port.ErrHangup", err)
	}

	_, q := openPTY(t, nil)
	done := make(chan error)
	go func() {
		_, err := q.Read(make([]byte, 8))
		done <- err
	}()
	time.Sleep(20 * time.Millisecond)
	if err := q.Close(); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		if !errors.Is(err, port.ErrClosed) || errors.Is(err, port.ErrHangup) {
			t.Errorf("blocked Read() after Close = %v, want port.ErrClosed", err)
		}
	case <-time.After(testtime.Scale(2 * time.Second)):
		t.Fatal("Read did not return after Close")
	}
	if err := q.Close(); err != nil {
		t.Errorf("second Close() = %v", err)
	}
	if _, err := q.Write([]byte("x")); !errors.Is(err, port.ErrClosed) {
		t.Errorf("Write() after Close = %v, want port.ErrClosed", err)
	}
}

func TestModes(t *testing.T) {
	t.Parallel()
	_, p := openPTY(t, &Opts{Mode: port.Mode{Baud: 9600, StopBits: 2}})
	for _, m := range []port.Mode{
		{Baud: 115200, DataBits: 7, Parity: port.ParityEven, StopBits: 1},
		{Baud: 19200, Parity: port.ParityOdd, StopBits: 2},
		{},
	} {
		if err := p.SetMode(m); err != nil {
			t.Errorf("SetMode(%+v) = %v", m, err)
		}
	}
	for _, m := range []port.Mode{
		{Baud: -1}, {DataBits: 9}, {Parity: 'X'}, {StopBits: 3},
	} {
		if err := p.SetMode(m); err == nil {
			t.Errorf("SetMode(%+v) = nil, want an error", m)
		}
	}
}

func TestOpenMissing(t *testing.T) {
	t.Parallel()
	_, err := Open("/dev/chipdesk-no-such-port", nil)
	if !errors.Is(err, ErrNotFound) || errors.Is(err, ErrNotPaired) {
		t.Errorf("Open(missing) = %v, want ErrNotFound", err)
	}
	// A Bluetooth port that is not there: the scanner is not paired or
	// not bound, and the error says how to do both.
	rf := filepath.Join(t.TempDir(), "rfcomm7")
	_, err = Open(rf, nil)
	if !errors.Is(err, ErrNotFound) || !errors.Is(err, ErrNotPaired) || !strings.Contains(err.Error(), "rfcomm bind 7") {
		t.Errorf("Open(%s) = %v, want ErrNotPaired naming rfcomm bind 7", rf, err)
	}
}

// Errors keep what they wrap, the library's and the system's, and say
// "serialport:" once.
func TestErrorsKeepTheirType(t *testing.T) {
	t.Parallel()
	_, p := openPTY(t, nil)
	_, missing := Open("/dev/chipdesk-no-such-port", nil)
	_, rfcomm := Open(filepath.Join(t.TempDir(), "rfcomm2"), nil)
	_, badOpen := Open(p.String(), &Opts{Mode: port.Mode{StopBits: 3}})
	badMode := p.SetMode(port.Mode{DataBits: 9})
	badTimeout := p.SetReadTimeout(-time.Second)
	p.Close()
	closedMode := p.SetMode(port.Mode{Baud: 9600})
	for _, tc := range []struct {
		name string
		err  error
		is   []error
	}{
		{"missing", missing, []error{ErrNotFound, fs.ErrNotExist}},
		{"rfcomm", rfcomm, []error{ErrNotPaired, ErrNotFound, fs.ErrNotExist}},
		{"bad mode at open", badOpen, []error{ErrMode}},
		{"bad mode", badMode, []error{ErrMode}},
		{"negative timeout", badTimeout, nil},
		{"set mode after close", closedMode, []error{port.ErrClosed}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.err == nil {
				t.Fatal("no error")
			}
			for _, want := range tc.is {
				if !errors.Is(tc.err, want) {
					t.Errorf("%q does not wrap %q", tc.err, want)
				}
			}
			if n := strings.Count(tc.err.Error(), "serialport:"); n != 1 {
				t.Errorf("%q: %d serialport prefixes, want 1", tc.err, n)
			}
		})
	}
}

// List runs and never returns an entry without a name (the enumerator
// gives one for a /dev symlink to a pty).
func TestList(t *testing.T) {
	t.Parallel()
	ports, err := List()
	if err != nil {
		t.Skipf("no serial port enumeration here: %v", err)
	}
	for _, p := range ports {
		if p.Name == "" {
			t.Errorf("List() gave an entry without a name: %+v", p)
		}
	}
}

func TestInfoString(t *testing.T) {
	t.Parallel()
	i := Info{Name: "/dev/ttyUSB0", IsUSB: true, VID: "0403", PID: "6001", SerialNumber: "A10K"}
	if got, want := i.String(), "/dev/ttyUSB0 usb 0403:6001 A10K"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
}
