package hardware_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chipdesk/chipdesk/drivers/port"
	"github.com/chipdesk/chipdesk/drivers/port/porttest"
	"github.com/chipdesk/chipdesk/drivers/readers/catalog"
	"github.com/chipdesk/chipdesk/firmware-tools/sim/readersim"
	"github.com/chipdesk/chipdesk/internal/testtime"
	"github.com/chipdesk/chipdesk/reader"
	"github.com/chipdesk/chipdesk/reader/chipid"
	"github.com/chipdesk/chipdesk/reader/readertest"
	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/events"
	"github.com/chipdesk/chipdesk/service/hardware"
	"github.com/chipdesk/chipdesk/service/lookup"
	"github.com/chipdesk/chipdesk/service/rules"
	"github.com/chipdesk/chipdesk/service/store/sqlite"
)

const (
	biscuitChip = "985121004515220" // registered below
	strayChip   = "982009104515220" // nobody's
)

type fixture struct {
	store  *sqlite.DB
	hub    *events.Hub
	pipe   *hardware.Pipeline
	animal int64
}

func newFixture(t testing.TB) *fixture {
	t.Helper()
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "hw.db"), nil)
	if err != nil {
		t.Fatalf("sqlite.Open: %v", err)
	}
	t.Cleanup(func() { st.Close() })
	rs, err := rules.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	lk, err := lookup.New(&lookup.Opts{Store: st, Rules: rs})
	if err != nil {
		t.Fatal(err)
	}
	hub := events.New(nil)
	t.Cleanup(hub.Close)
	pipe, err := hardware.NewPipeline(&hardware.PipelineOpts{Lookup: lk, Scans: st, Hub: hub, Site: "shelter"})
	if err != nil {
		t.Fatal(err)
	}
	o := &service.Owner{Name: "Ada Lindqvist", City: "Minneapolis"}
	if err := st.CreateOwner(ctx, o); err != nil {
		t.Fatal(err)
	}
	a := &service.Animal{OwnerID: o.ID, Name: "Biscuit", Species: service.Dog}
	if err := st.CreateAnimal(ctx, a); err != nil {
		t.Fatal(err)
	}
	if err := st.AddChip(ctx, &service.Chip{AnimalID: a.ID, Code: biscuitChip, Kind: "iso11784"}); err != nil {
		t.Fatal(err)
	}
	return &fixture{store: st, hub: hub, pipe: pipe, animal: a.ID}
}

// next waits for one event and decodes it.
func next(t *testing.T, sub *events.Sub, within time.Duration) lookup.ScanEvent {
	t.Helper()
	select {
	case ev, ok := <-sub.C():
		if !ok {
			t.Fatal("event stream closed")
		}
		var se lookup.ScanEvent
		if err := json.Unmarshal(ev.Data, &se); err != nil {
			t.Fatalf("event %s: %v", ev.Data, err)
		}
		if se.Reader != ev.Reader {
			t.Errorf("event published for reader %q carries reader %q", ev.Reader, se.Reader)
		}
		return se
	case <-time.After(within):
		t.Fatalf("no scan event within %v", within)
	}
	panic("unreachable")
}

// TestManagerDebounceAndReconnect plays a reader that repeats a chip,
// then hangs up; the manager reopens it and goes on.
func TestManagerDebounceAndReconnect(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	var opens atomic.Int32
	first := readertest.New("desk-1 first", readertest.Chip(biscuitChip), readertest.Chip(biscuitChip), readertest.Chip(strayChip))
	first.End = fmt.Errorf("test: %w", port.ErrHangup)
	second := readertest.New("desk-1 second", readertest.Chip("AVID*012*345*678"))
	open := func(ctx context.Context, sp hardware.Spec) (reader.Reader, error) {
		switch opens.Add(1) {
		case 1:
			return first, nil
		case 2:
			return nil, fmt.Errorf("test: %w", port.ErrHangup) // still unplugged
		case 3:
			return second, nil
		}
		<-ctx.Done()
		return nil, ctx.Err()
	}
	m, err := hardware.NewManager(&hardware.ManagerOpts{Pipeline: f.pipe, Open: open, MinBackoff: time.Millisecond, MaxBackoff: 5 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Add("wl134:/dev/null,name=desk-1"); err != nil {
		t.Fatal(err)
	}
	sub := f.hub.Subscribe("desk-1")
	defer sub.Close()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- m.Run(ctx) }()

	want := []struct {
		chip  string
		found bool
	}{{biscuitChip, true}, {strayChip, false}, {"012345678", false}}
	for i, w := range want {
		se := next(t, sub, testtime.Scale(5*time.Second))
		if se.Chip.Code != w.chip || se.Lookup == nil || se.Lookup.Found != w.found || se.ScanID == 0 {
			t.Errorf("event %d = chip %s found %v scan %d, want chip %s found %v, stored", i, se.Chip.Code, se.Lookup != nil && se.Lookup.Found, se.ScanID, w.chip, w.found)
		}
		if w.found && (se.Lookup.Animal == nil || se.Lookup.Animal.ID != f.animal || se.Lookup.Owner == nil) {
			t.Errorf("event %d lookup = %+v, want Biscuit with owner", i, se.Lookup)
		}
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("Run = %v, want nil after cancel", err)
	}
	st := m.Status()
	if len(st) != 1 || st[0].Reads != 3 || st[0].Suppressed != 1 || st[0].Failures < 2 {
		t.Errorf("Status = %+v, want 3 reads, 1 suppressed, ≥2 failures", st)
	}
	scans, n, err := f.store.FindScans(context.Background(), service.ScanFilter{})
	if err != nil || n != 3 {
		t.Fatalf("FindScans = %d, %v; want 3 stored scans", n, err)
	}
	if scans[len(scans)-1].AnimalID != f.animal || scans[0].Site != "shelter" {
		t.Errorf("scans %+v, want the first resolved to Biscuit at site shelter", scans)
	}
}

// TestManagerSerialPTY runs a real driver on a pseudo-terminal played
// by the reader simulator: bytes on the pty to a scan event.
func TestManagerSerialPTY(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	for _, kind := range []string{"wl134", "allflex", "iso24631", "avid", "datamars", "agrident", "aabb"} {
		t.Run(kind, func(t *testing.T) {
			sim, err := readersim.Start(&readersim.Opts{Protocol: kind})
			if err != nil {
				t.Fatalf("readersim.Start: %v", err)
			}
			defer sim.Close()
			m, err := hardware.NewManager(&hardware.ManagerOpts{Pipeline: f.pipe})
			if err != nil {
				t.Fatal(err)
			}
			name := "sim-" + kind
			if err := m.Add(kind + ":" + sim.Path() + ",name=" + name); err != nil {
				t.Fatal(err)
			}
			sub := f.hub.Subscribe(name)
			defer sub.Close()
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan error, 1)
			go func() { done <- m.Run(ctx) }()
			defer func() { cancel(); <-done }()
			// The driver may open the port after the first send: resend
			// until a scan arrives (the debounce keeps it to one event).
			deadline := time.Now().Add(testtime.Scale(10 * time.Second))
			for {
				if err := sim.SendText(ctx, biscuitChip); err != nil {
					t.Fatalf("Send: %v", err)
				}
				select {
				case ev := <-sub.C():
					var se lookup.ScanEvent
					if err := json.Unmarshal(ev.Data, &se); err != nil {
						t.Fatal(err)
					}
					if se.Chip.Code != biscuitChip || se.Lookup.Animal == nil || se.Lookup.Animal.ID != f.animal {
						t.Errorf("event %s, want Biscuit", ev.Data)
					}
					return
				case <-time.After(100 * time.Millisecond):
				}
				if time.Now().After(deadline) {
					t.Fatalf("no scan event from the %s simulator; status %+v", kind, m.Status())
				}
			}
		})
	}
}

// TestManagerLinefmt: a configured line reader, as --reader or the
// config file's readers give it, reads its lines on a pseudo-terminal
// into scan events.
func TestManagerLinefmt(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	pty, err := porttest.NewPTY()
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	defer pty.Close()
	go io.Copy(io.Discard, pty)
	m, err := hardware.NewManager(&hardware.ManagerOpts{Pipeline: f.pipe})
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Add("linefmt:" + pty.Path() + ",name=gallagher,form=decimal,pattern=^ID:(?P<code>\\d{3} \\d{12})$"); err != nil {
		t.Fatal(err)
	}
	sub := f.hub.Subscribe("gallagher")
	defer sub.Close()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- m.Run(ctx) }()
	defer func() { cancel(); <-done }()
	line := "ID:" + biscuitChip[:3] + " " + biscuitChip[3:] + "\r\n"
	deadline := time.After(testtime.Scale(10 * time.Second))
	for {
		if _, err := pty.Write([]byte("noise\r\n" + line)); err != nil {
			t.Fatal(err)
		}
		select {
		case ev := <-sub.C():
			var se lookup.ScanEvent
			if err := json.Unmarshal(ev.Data, &se); err != nil {
				t.Fatal(err)
			}
			if se.Chip.Code != biscuitChip || se.Lookup.Animal == nil || se.Lookup.Animal.ID != f.animal {
				t.Errorf("event %s, want Biscuit", ev.Data)
			}
			return
		case <-time.After(testtime.Scale(100 * time.Millisecond)):
		case <-deadline:
			t.Fatalf("no scan event from the linefmt reader; status %+v", m.Status())
		}
	}
}

// BenchmarkScanToEvent times a WL-134 frame written on an in-memory
// port to its event on the hub: the driver, the runner's loop, the
// Pipeline (lookup, scan stored) and the hub, without a pty or HTTP,
// so that the service's own part of scan to event is seen alone. It
// reports p50 and p99 beside ns/op and allocs/op.
func BenchmarkScanToEvent(b *testing.B) {
	f := newFixture(b)
	proto, err := catalog.Lookup("wl134")
	if err != nil {
		b.Fatal(err)
	}
	frames := make([][]byte, 1000)
	for i := range frames {
		id, err := chipid.Parse(fmt.Sprintf("%03d%012d", 900+i%100, 1000003*i), nil)
		if err != nil {
			b.Fatal(err)
		}
		if frames[i], err = proto.Encode(id); err != nil {
			b.Fatal(err)
		}
	}
	host, dev := porttest.Pipe("bench")
	defer dev.Close()
	var opens atomic.Int32
	open := func(ctx context.Context, sp hardware.Spec) (reader.Reader, error) {
		if opens.Add(1) == 1 {
			return proto.New(host, nil)
		}
		<-ctx.Done()
		return nil, ctx.Err()
	}
	m, err := hardware.NewManager(&hardware.ManagerOpts{Pipeline: f.pipe, Open: open})
	if err != nil {
		b.Fatal(err)
	}
	sp, err := hardware.ParseSpec("wl134:/dev/null,name=bench")
	if err != nil {
		b.Fatal(err)
	}
	sp.Debounce = -1 // the chips repeat; every frame is an event
	if err := m.AddSpec(sp); err != nil {
		b.Fatal(err)
	}
	sub := f.hub.Subscribe("bench")
	defer sub.Close()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- m.Run(ctx) }()
	defer func() { cancel(); <-done }()
	within := testtime.Scale(5 * time.Second)
	var lat []time.Duration
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		t0 := time.Now()
		if _, err := dev.Write(frames[i%len(frames)]); err != nil {
			b.Fatal(err)
		}
		select {
		case <-sub.C():
		case <-time.After(within):
			b.Fatalf("no event within %v; status %+v", within, m.Status())
		}
		lat = append(lat, time.Since(t0))
		i++
	}
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "p50-µs")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "p99-µs")
}
