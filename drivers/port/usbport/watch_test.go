package usbport_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/chipdesk/chipdesk/drivers/port/usbport"
	"github.com/chipdesk/chipdesk/drivers/port/usbport/usbporttest"
)

func TestWatcher(t *testing.T) {
	t.Parallel()
	a := usbporttest.BootKeyboard(0x1667, 0x0005, "")
	c := usbporttest.Printer(0x0a5f, 0x0141, "Z")
	b := usbporttest.NewBus(a, c)
	var slept []time.Duration
	script := []func(){
		func() { b.Unplug(a) },
		func() {},
		func() { a.D.Address = 11; b.Plug(a) }, // replugged: new address
	}
	w := usbport.NewWatcher(b, &usbport.WatchOpts{
		Match:    usbport.Match{VID: 0x1667},
		Interval: 250 * time.Millisecond,
		Sleep: func(ctx context.Context, d time.Duration) error {
			slept = append(slept, d)
			if len(script) == 0 {
				return context.Canceled
			}
			script[0]()
			script = script[1:]
			return nil
		},
	})
	ctx := context.Background()
	want := []string{"added 001/005", "removed 001/005", "added 001/011"}
	for i, wnt := range want {
		e, err := w.Next(ctx)
		if err != nil {
			t.Fatalf("Next #%d = %v", i, err)
		}
		if got := e.Kind.String() + " " + e.Desc.Key(); got != wnt {
			t.Errorf("Next #%d = %q, want %q", i, got, wnt)
		}
	}
	if _, err := w.Next(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("Next at the end = %v, want the sleep's error", err)
	}
	if len(slept) != 4 || slept[0] != 250*time.Millisecond {
		t.Errorf("slept %v, want 4 × 250ms", slept)
	}
	if p := w.Present(); len(p) != 1 || p[0].Address != 11 {
		t.Errorf("Present() = %v", p)
	}
}

func TestWatcherBusError(t *testing.T) {
	t.Parallel()
	b := usbporttest.NewBus()
	b.Err = usbport.ErrAccess
	w := usbport.NewWatcher(b, nil)
	if _, err := w.Next(context.Background()); !errors.Is(err, usbport.ErrAccess) {
		t.Errorf("Next = %v, want ErrAccess", err)
	}
}
