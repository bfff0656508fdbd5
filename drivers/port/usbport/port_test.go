package usbport_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"testing"
	"time"

	"github.com/chipdesk/chipdesk/drivers/port"
	"github.com/chipdesk/chipdesk/drivers/port/usbport"
	"github.com/chipdesk/chipdesk/drivers/port/usbport/usbporttest"
)

func openVendor(t *testing.T, o *usbport.Opts) (*usbporttest.Bus, *usbporttest.Device, *usbport.Port) {
	t.Helper()
	d := usbporttest.Vendor(0x0403, 0x6001, "A10K")
	b := usbporttest.NewBus(d)
	p, err := usbport.Open(context.Background(), b, usbport.Match{VID: 0x0403, PID: 0x6001}, o)
	if err != nil {
		t.Fatalf("Open = %v", err)
	}
	t.Cleanup(func() { _ = p.Close() })
	return b, d, p
}

func TestOpenClaimsAndDetaches(t *testing.T) {
	t.Parallel()
	b, d, p := openVendor(t, nil)
	if !d.Claimed(0) || !d.Detached(0) {
		t.Errorf("after Open: claimed %v detached %v, want both", d.Claimed(0), d.Detached(0))
	}
	if got, want := p.String(), "usb 0403:6001 A10K bus 1 addr 6 if 0"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
	if err := p.Close(); err != nil {
		t.Fatalf("Close = %v", err)
	}
	if d.Claimed(0) || d.Detached(0) || d.Opened() != 0 {
		t.Errorf("after Close: claimed %v detached %v opened %d, want none", d.Claimed(0), d.Detached(0), d.Opened())
	}
	if err := p.Close(); err != nil {
		t.Errorf("second Close = %v, want nil", err)
	}
	if err := b.Close(); err != nil {
		t.Errorf("Bus.Close = %v", err)
	}
}

func TestOpenErrors(t *testing.T) {
	t.Parallel()
	denied := usbporttest.Printer(0x0a5f, 0x0141, "Z1")
	denied.OpenErr = usbport.ErrAccess
	kbd := usbporttest.BootKeyboard(0x1667, 0x0005, "")
	b := usbporttest.NewBus(denied, kbd)
	for _, tc := range []struct {
		name string
		m    usbport.Match
		o    *usbport.Opts
		want error
	}{
		{"nothing matches", usbport.Match{VID: 0x1234}, nil, usbport.ErrNotFound},
		{"serial differs", usbport.Match{VID: 0x1667, Serial: "X"}, nil, usbport.ErrNotFound},
		{"access denied", usbport.Match{VID: 0x0a5f}, nil, usbport.ErrAccess},
		{"keyboard has no bulk endpoints", usbport.Match{VID: 0x1667}, nil, usbport.ErrNoInterface},
		{"keyboard has no interrupt out", usbport.Match{VID: 0x1667}, &usbport.Opts{Iface: usbport.AnyIface, Type: usbport.Interrupt}, usbport.ErrNoInterface},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := usbport.Open(context.Background(), b, tc.m, tc.o)
			if !errors.Is(err, tc.want) || p != nil {
				t.Errorf("Open(%v) = %v, %v, want nil, %v", tc.m, p, err, tc.want)
			}
		})
	}
	if n := kbd.Opened(); n != 0 {
		t.Errorf("a failed Open left %d handles open", n)
	}
	if _, err := usbport.Open(context.Background(), nil, usbport.Match{}, nil); err == nil {
		t.Error("Open(nil bus) = nil error")
	}
}

func TestOpenBusyInterface(t *testing.T) {
	t.Parallel()
	d := usbporttest.Vendor(0x0403, 0x6001, "A10K")
	b := usbporttest.NewBus(d)
	p, err := usbport.Open(context.Background(), b, usbport.Match{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if _, err := usbport.Open(context.Background(), b, usbport.Match{}, nil); !errors.Is(err, usbport.ErrBusy) {
		t.Errorf("second Open = %v, want ErrBusy", err)
	}
	if d.Opened() != 1 {
		t.Errorf("Opened() = %d after a busy claim, want 1", d.Opened())
	}
}

func TestReadSplitsTransfers(t *testing.T) {
	t.Parallel()
	_, d, p := openVendor(t, nil)
	d.Feed(0x81, []byte("982000"), nil, []byte("123456789\r\n"))
	got := make([]byte, 17)
	if _, err := io.ReadFull(p, got[:4]); err != nil {
		t.Fatal(err)
	}
	if _, err := io.ReadFull(p, got[4:]); err != nil {
		t.Fatal(err)
	}
	if want := []byte("982000123456789\r\n"); !bytes.Equal(got, want) {
		t.Errorf("Read = %q, want %q", got, want)
	}
}

func TestReadTimeout(t *testing.T) {
	t.Parallel()
	_, d, p := openVendor(t, nil)
	if err := p.SetReadTimeout(20 * time.Millisecond); err != nil {
		t.Fatal(err)
	}
	d.Feed(0x81, []byte{}) // a zero-length packet is not data
	n, err := p.Read(make([]byte, 8))
	if n != 0 || !errors.Is(err, port.ErrTimeout) {
		t.Errorf("Read = %d, %v, want 0, ErrTimeout", n, err)
	}
	if err := p.SetReadTimeout(-1); err == nil {
		t.Error("SetReadTimeout(-1) = nil")
	}
}

func TestReadContextCancel(t *testing.T) {
	t.Parallel()
	_, _, p := openVendor(t, &usbport.Opts{Iface: usbport.AnyIface, Type: usbport.Bulk})
	ctx, cancel := context.WithCancel(context.Background())
	go func() { time.Sleep(10 * time.Millisecond); cancel() }()
	_, err := p.ReadContext(ctx, make([]byte, 8))
	if !errors.Is(err, context.Canceled) || errors.Is(err, port.ErrTimeout) {
		t.Errorf("ReadContext = %v, want context.Canceled", err)
	}
}

func TestHangup(t *testing.T) {
	t.Parallel()
	b, d, p := openVendor(t, &usbport.Opts{Iface: usbport.AnyIface, Type: usbport.Bulk})
	errc := make(chan error)
	go func() {
		_, err := p.Read(make([]byte, 8))
		errc <- err
	}()
	time.Sleep(10 * time.Millisecond)
	b.Unplug(d)
	if err := <-errc; !errors.Is(err, port.ErrHangup) {
		t.Errorf("Read after unplug = %v, want ErrHangup", err)
	}
	if _, err := p.Write([]byte("x")); !errors.Is(err, port.ErrHangup) {
		t.Errorf("Write after unplug = %v, want ErrHangup", err)
	}
}

func TestCloseUnblocksRead(t *testing.T) {
	t.Parallel()
	_, _, p := openVendor(t, &usbport.Opts{Iface: usbport.AnyIface, Type: usbport.Bulk})
	errc := make(chan error)
	go func() {
		_, err := p.Read(make([]byte, 8))
		errc <- err
	}()
	time.Sleep(10 * time.Millisecond)
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if err := <-errc; !errors.Is(err, port.ErrClosed) {
		t.Errorf("Read during Close = %v, want ErrClosed", err)
	}
	if _, err := p.Read(make([]byte, 1)); !errors.Is(err, port.ErrClosed) {
		t.Errorf("Read after Close = %v, want ErrClosed", err)
	}
	if _, err := p.Write([]byte{1}); !errors.Is(err, port.ErrClosed) {
		t.Errorf("Write after Close = %v, want ErrClosed", err)
	}
}

func TestWrite(t *testing.T) {
	t.Parallel()
	_, d, p := openVendor(t, nil)
	if n, err := p.Write([]byte("~HS")); n != 3 || err != nil {
		t.Fatalf("Write = %d, %v", n, err)
	}
	if got := d.Written(0x02); string(got) != "~HS" {
		t.Errorf("Written(0x02) = %q, want %q", got, "~HS")
	}
	d.BlockWrites(true)
	if err := p.SetWriteTimeout(15 * time.Millisecond); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Write([]byte("x")); !errors.Is(err, port.ErrTimeout) {
		t.Errorf("Write to a blocked device = %v, want ErrTimeout", err)
	}
}

func TestOverflowIsReported(t *testing.T) {
	t.Parallel()
	_, d, p := openVendor(t, nil)
	d.Feed(0x81, make([]byte, 4096)) // more than one transfer's buffer
	_, err := p.Read(make([]byte, 8))
	if !errors.Is(err, usbport.ErrOverflow) {
		t.Errorf("Read = %v, want ErrOverflow", err)
	}
}

func TestReadOnlyPort(t *testing.T) {
	t.Parallel()
	d := usbporttest.BootKeyboard(0x1667, 0x0005, "")
	b := usbporttest.NewBus(d)
	p, err := usbport.Open(context.Background(), b, usbport.Match{VID: 0x1667},
		&usbport.Opts{Iface: usbport.BootKeyboardIface, Type: usbport.Interrupt, NoOut: true})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	report := []byte{0, 0, 0x1e, 0, 0, 0, 0, 0}
	d.Feed(0x81, report)
	got := make([]byte, 8)
	if _, err := io.ReadFull(p, got); err != nil || !bytes.Equal(got, report) {
		t.Errorf("Read = %x, %v, want %x", got, err, report)
	}
	if _, err := p.Write([]byte{1}); !errors.Is(err, usbport.ErrNoEndpoint) {
		t.Errorf("Write = %v, want ErrNoEndpoint", err)
	}
}
