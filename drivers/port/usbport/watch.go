package usbport

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"time"
)

// EventKind tells whether a device came or went.
type EventKind int

// Event kinds.
const (
	Added EventKind = iota + 1
	Removed
)

func (k EventKind) String() string {
	switch k {
	case Added:
		return "added"
	case Removed:
		return "removed"
	}
	return fmt.Sprintf("EventKind(%d)", int(k))
}

// Event is one device plugged in or unplugged.
type Event struct {
	Kind EventKind
	Desc Desc
}

func (e Event) String() string { return e.Kind.String() + " " + e.Desc.String() }

// WatchOpts configures a Watcher.
type WatchOpts struct {
	// Match selects the devices to report.
	Match Match
	// Interval is the time between two polls of the bus.
	Interval time.Duration
	// Sleep waits d or until ctx ends; nil means a timer.
	Sleep func(ctx context.Context, d time.Duration) error
}

// DefaultWatchOpts polls every second for any device.
var DefaultWatchOpts = WatchOpts{Interval: time.Second}

// Watcher reports devices plugged in and unplugged by polling the bus
// (libusb's hot-plug callbacks are not available on every platform and
// gousb does not expose them). Its first poll reports every device
// present as Added.
type Watcher struct {
	bus     Bus
	o       WatchOpts
	known   map[string]Desc
	pending []Event
	polled  bool
}

// NewWatcher returns a Watcher of b; nil o means DefaultWatchOpts.
func NewWatcher(b Bus, o *WatchOpts) *Watcher {
	if o == nil {
		o = &DefaultWatchOpts
	}
	w := &Watcher{bus: b, o: *o, known: map[string]Desc{}}
	if w.o.Interval <= 0 {
		w.o.Interval = DefaultWatchOpts.Interval
	}
	if w.o.Sleep == nil {
		w.o.Sleep = sleep
	}
	return w
}

// Next returns the next change, polling until there is one or ctx ends.
// A failed poll returns its error; the next call polls again.
func (w *Watcher) Next(ctx context.Context) (Event, error) {
	for len(w.pending) == 0 {
		if w.polled {
			if err := w.o.Sleep(ctx, w.o.Interval); err != nil {
				return Event{}, err
			}
		}
		if err := ctx.Err(); err != nil {
			return Event{}, err
		}
		if err := w.Poll(ctx); err != nil {
			return Event{}, err
		}
	}
	e := w.pending[0]
	w.pending = w.pending[1:]
	return e, nil
}

// Poll lists the bus once and queues the differences from the last poll.
func (w *Watcher) Poll(ctx context.Context) error {
	devs, err := Find(ctx, w.bus, w.o.Match)
	if err != nil {
		return fmt.Errorf("usbport: watch: %w", err)
	}
	w.polled = true
	now := make(map[string]Desc, len(devs))
	for _, d := range devs {
		now[d.Key()] = d
	}
	var gone, came []string
	for k := range w.known {
		if _, ok := now[k]; !ok {
			gone = append(gone, k)
		}
	}
	for k := range now {
		if _, ok := w.known[k]; !ok {
			came = append(came, k)
		}
	}
	sort.Strings(gone)
	sort.Strings(came)
	for _, k := range gone {
		w.pending = append(w.pending, Event{Removed, w.known[k]})
	}
	for _, k := range came {
		w.pending = append(w.pending, Event{Added, now[k]})
	}
	w.known = now
	return nil
}

// Present returns the devices seen at the last poll, sorted by key.
func (w *Watcher) Present() []Desc {
	out := make([]Desc, 0, len(w.known))
	for _, d := range w.known {
		out = append(out, d)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key() < out[j].Key() })
	return out
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// errNoBus is returned by operations on a nil Bus.
var errNoBus = errors.New("usbport: nil bus")
