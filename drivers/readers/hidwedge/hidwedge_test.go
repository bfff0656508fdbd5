package hidwedge_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/chipdesk/chipdesk/drivers/port"
	"github.com/chipdesk/chipdesk/drivers/port/usbport"
	"github.com/chipdesk/chipdesk/drivers/port/usbport/usbporttest"
	"github.com/chipdesk/chipdesk/drivers/readers/hidwedge"
	"github.com/chipdesk/chipdesk/reader"
	"github.com/chipdesk/chipdesk/reader/chipid"
)

// scanner is a GIGA-TMS PCR330A (a known wedge, drivers/usbids) that
// records the class requests it gets.
type scanner struct {
	*usbporttest.Device
	requests []string
}

func newScanner(t *testing.T) *scanner {
	s := &scanner{Device: usbporttest.BootKeyboard(0x1667, 0x0005, "")}
	s.Control = func(rType, req uint8, value, index uint16, data []byte) (int, error) {
		if !s.Detached(0) {
			t.Errorf("class request 0x%02x sent before the interface was claimed", req)
		}
		switch {
		case rType == 0x21 && req == 0x0b:
			s.requests = append(s.requests, "SET_PROTOCOL")
			if value != 0 {
				t.Errorf("SET_PROTOCOL value %d, want 0 (boot, HID 1.11 §7.2.6)", value)
			}
		case rType == 0x21 && req == 0x0a:
			s.requests = append(s.requests, "SET_IDLE")
			return 0, usbport.ErrStall // many scanners stall it
		default:
			t.Errorf("unexpected request 0x%02x 0x%02x", rType, req)
			return 0, usbport.ErrStall
		}
		return 0, nil
	}
	return s
}

// typeText queues the reports the scanner sends for text.
func (s *scanner) typeText(t *testing.T, text string) {
	t.Helper()
	reports, err := hidwedge.Encode(text, nil)
	if err != nil {
		t.Fatal(err)
	}
	s.Feed(0x81, reports...)
}

type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

func open(t *testing.T, s *scanner, o *hidwedge.Opts) (*usbporttest.Bus, *hidwedge.Dev) {
	t.Helper()
	b := usbporttest.NewBus(s.Device)
	ms := hidwedge.Known()
	found, err := hidwedge.Find(context.Background(), b, ms)
	if err != nil || len(found) != 1 {
		t.Fatalf("Find(Known()) = %v, %v, want the scanner", found, err)
	}
	d, err := hidwedge.Open(context.Background(), b, usbport.Match{VID: found[0].VID, PID: found[0].PID}, o)
	if err != nil {
		t.Fatalf("Open = %v", err)
	}
	t.Cleanup(func() { _ = d.Close() })
	return b, d
}

func TestScan(t *testing.T) {
	t.Parallel()
	s := newScanner(t)
	c := &clock{time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)}
	o := hidwedge.DefaultOpts
	o.Now = c.now
	_, d := open(t, s, &o)
	if !s.Detached(0) {
		t.Fatal("usbhid still holds the scanner: scans would reach the focused window")
	}
	if got := s.requests; len(got) != 2 || got[0] != "SET_PROTOCOL" {
		t.Errorf("class requests %v, want SET_PROTOCOL then SET_IDLE", got)
	}
	s.typeText(t, "982000123456789\nAVID*012*345*678\n\n4A3D5C1B2E\n")
	ctx := context.Background()
	for _, want := range []struct {
		kind  chipid.Kind
		code  string
		proto reader.Air
		raw   string
	}{
		{chipid.KindISO, "982000123456789", reader.AirISO, "982000123456789"},
		{chipid.KindAVID, "012345678", reader.AirAVID, "AVID*012*345*678"},
		{chipid.KindFECAVA, "4A3D5C1B2E", reader.AirFDXA, "4A3D5C1B2E"},
	} {
		r, err := d.Next(ctx)
		if err != nil {
			t.Fatalf("Next = %v", err)
		}
		if r.ID.Kind != want.kind || r.ID.Code != want.code || r.Protocol != want.proto ||
			string(r.Raw) != want.raw || r.Format != "hidwedge" || !r.At.Equal(c.t) || r.Source != d.String() {
			t.Errorf("Next = %+v, want %s %s %s raw %q", r, want.kind, want.code, want.proto, want.raw)
		}
	}
}

// A line that is not a chip is told to Rejected as a LineError; Next
// goes on to the next line, and the line counts as a bad frame.
func TestLineNotAChip(t *testing.T) {
	t.Parallel()
	s := newScanner(t)
	var rejected []error
	o := hidwedge.DefaultOpts
	o.Rejected = func(_ []byte, err error) { rejected = append(rejected, err) }
	_, d := open(t, s, &o)
	s.typeText(t, "TAG-2026-0042\n985121004515220\n")
	if r, err := d.Next(context.Background()); err != nil || r.ID.Code != "985121004515220" {
		t.Errorf("Next after a line not a chip = %v, %v", r.ID, err)
	}
	var le *hidwedge.LineError
	if len(rejected) != 1 || !errors.As(rejected[0], &le) || le.Line != "TAG-2026-0042" || !errors.Is(le, chipid.ErrInvalid) {
		t.Fatalf("Rejected saw %v, want one LineError for the tag barcode", rejected)
	}
	if st := d.Stats(); st.Reads != 1 || st.Bad != 1 {
		t.Errorf("Stats = %v, want 1 read and 1 bad line", st)
	}
}

func TestGap(t *testing.T) {
	t.Parallel()
	s := newScanner(t)
	// ms at each report received: a key press, its release.
	times := []time.Duration{0, 50, 100, 150, 200, 250, 3000}
	base := time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)
	var i int
	o := hidwedge.DefaultOpts
	o.Now = func() time.Time {
		at := times[min(i, len(times)-1)]
		i++
		return base.Add(at * time.Millisecond)
	}
	_, d := open(t, s, &o)
	// "12" then "3" come in time; the last key and everything after
	// come 2.8 s later, so "123" is a partial line from a lost scan.
	s.typeText(t, "123")
	s.typeText(t, "985121004515220\n")
	r, err := d.Next(context.Background())
	if err != nil || r.ID.Code != "985121004515220" {
		t.Errorf("Next = %v, %v, want the scan without the stale digits", r.ID, err)
	}
}

func TestUnplugAndClose(t *testing.T) {
	t.Parallel()
	s := newScanner(t)
	b, d := open(t, s, nil)
	errc := make(chan error)
	go func() {
		_, err := d.Next(context.Background())
		errc <- err
	}()
	time.Sleep(10 * time.Millisecond)
	b.Unplug(s.Device)
	if err := <-errc; !errors.Is(err, port.ErrHangup) {
		t.Errorf("Next after unplug = %v, want ErrHangup", err)
	}
	if err := d.Close(); err != nil {
		t.Errorf("Close = %v", err)
	}
	if _, err := d.Next(context.Background()); !errors.Is(err, reader.ErrClosed) {
		t.Errorf("Next after Close = %v, want reader.ErrClosed", err)
	}
	if s.Detached(0) {
		t.Error("the kernel driver was not given the scanner back")
	}
}

func TestNextContext(t *testing.T) {
	t.Parallel()
	s := newScanner(t)
	_, d := open(t, s, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if _, err := d.Next(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Next = %v, want DeadlineExceeded", err)
	}
}

func TestOpenErrors(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	b := usbporttest.NewBus(usbporttest.Printer(0x04f9, 0x2042, ""))
	if _, err := hidwedge.Open(ctx, b, usbport.Match{VID: 0x1667}, nil); !errors.Is(err, usbport.ErrNotFound) {
		t.Errorf("Open of an absent scanner = %v, want ErrNotFound", err)
	}
	if _, err := hidwedge.Open(ctx, b, usbport.Match{VID: 0x04f9}, nil); !errors.Is(err, usbport.ErrNoInterface) {
		t.Errorf("Open of a printer = %v, want ErrNoInterface", err)
	}
	if _, err := hidwedge.Open(ctx, b, usbport.Match{VID: 0x04f9}, &hidwedge.Opts{Layout: "xx"}); err == nil {
		t.Error("Open with a bad layout = nil error")
	}
	if found, _ := hidwedge.Find(ctx, b, hidwedge.Known(usbport.Match{VID: 0x04f9})); len(found) != 0 {
		t.Errorf("Find listed a printer as a scanner: %v", found)
	}
}
