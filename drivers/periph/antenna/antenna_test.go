package antenna_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"
	"time"

	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/gpio/gpiotest"

	"github.com/chipdesk/chipdesk/drivers/periph/antenna"
	"github.com/chipdesk/chipdesk/internal/testtime"
	"github.com/chipdesk/chipdesk/reader"
	"github.com/chipdesk/chipdesk/reader/demod"
	"github.com/chipdesk/chipdesk/reader/iso11784"
	"github.com/chipdesk/chipdesk/reader/iso11785"
)

// bitTime is one FDX-B bit: 32 cycles of 134.2 kHz (ISO 11785 §6).
const bitTime = 32.0 / 134200 // seconds

// fdxbEdges returns the times (from 0) of the comparator's edges for an
// FDX-B tag sending the telegram of c repeats times: differential
// bi-phase, a transition at every bit boundary and another mid-bit for a
// 0. jitter moves each edge by up to ±jitter of a half bit.
func fdxbEdges(t *testing.T, c iso11784.Code, repeats int, jitter float64, seed uint64) []time.Duration {
	t.Helper()
	tg := iso11785.EncodeFDXB(c, 0)
	r := rand.New(rand.NewPCG(seed, seed))
	var out []time.Duration
	at := func(s float64) {
		s += (r.Float64()*2 - 1) * jitter * bitTime / 2
		out = append(out, time.Duration(s*float64(time.Second)))
	}
	for k := range 128 * repeats {
		i := k % 128
		t0 := float64(k) * bitTime
		at(t0)
		if tg[i/8]>>(7-i%8)&1 == 0 {
			at(t0 + bitTime/2)
		}
	}
	at(float64(128*repeats) * bitTime)
	return out
}

// script is a gpiotest pin with edges queued and a clock that tells the
// time of each edge in turn, then the time after the last plus a second.
type script struct {
	pin   *gpiotest.Pin
	times []time.Duration
	i     int
	base  time.Time
}

func newScript(edges []time.Duration) *script {
	s := &script{
		pin:   &gpiotest.Pin{N: "GPIO4", Num: 4, EdgesChan: make(chan gpio.Level, len(edges))},
		times: edges,
		base:  time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC),
	}
	return s
}

// start queues the edges (after New, which flushes queued edges).
func (s *script) start() {
	l := gpio.High
	for range s.times {
		s.pin.EdgesChan <- l
		l = !l
	}
}

func (s *script) now() time.Time {
	// The first call is New's: the start, just before the first edge.
	var d time.Duration
	switch {
	case s.i == 0:
		d = s.times[0] - time.Microsecond
	case s.i-1 < len(s.times):
		d = s.times[s.i-1]
	default:
		d = s.times[len(s.times)-1] + time.Duration(s.i-len(s.times))*time.Second
	}
	s.i++
	return s.base.Add(d)
}

func TestFDXBFromEdges(t *testing.T) {
	t.Parallel()
	c, err := iso11784.ParseDecimal("985121004515220")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		jitter float64
	}{
		{"clean", 0},
		{"user-space jitter ±15% of a half bit", 0.15},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := newScript(fdxbEdges(t, c, 3, tc.jitter, 7))
			d, err := antenna.New(s.pin, &antenna.Opts{Now: s.now, Poll: time.Millisecond})
			if err != nil {
				t.Fatal(err)
			}
			defer d.Close()
			s.start()
			ctx, cancel := context.WithTimeout(context.Background(), testtime.Scale(5*time.Second))
			defer cancel()
			r, err := d.Next(ctx)
			if err != nil {
				t.Fatalf("Next = %v", err)
			}
			if r.ID.Code != "985121004515220" || r.Protocol != reader.AirFDXB || r.Source != "antenna on GPIO4(4)" {
				t.Errorf("Next = %s %s from %q, want 985121004515220 FDX-B", r.ID.Code, r.Protocol, r.Source)
			}
			if r.At.Before(s.base) || r.At.After(s.base.Add(100*time.Millisecond+2*time.Second)) {
				t.Errorf("Next At = %v, outside the transmission", r.At)
			}
			if r.Quality <= 0 {
				t.Errorf("Next Quality = %v, want > 0", r.Quality)
			}
		})
	}
}

func TestNoSignal(t *testing.T) {
	t.Parallel()
	pin := &gpiotest.Pin{N: "GPIO4", EdgesChan: make(chan gpio.Level)}
	d, err := antenna.New(pin, &antenna.Opts{Poll: 2 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Millisecond)
	defer cancel()
	if _, err := d.Next(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Next with no edges = %v, want DeadlineExceeded", err)
	}
}

func TestFeeder(t *testing.T) {
	t.Parallel()
	if _, err := antenna.NewFeeder(&antenna.Opts{Protocols: []reader.Air{"AVID"}}); !errors.Is(err, demod.ErrProtocol) {
		t.Errorf("NewFeeder(AVID) = %v, want ErrProtocol", err)
	}
	if _, err := antenna.New(&gpiotest.Pin{N: "GPIO4"}, nil); err == nil {
		t.Error("New on a pin without edge support = nil error")
	}
	// Intervals written at 134.2 kHz, 2 cycles at a time, in both
	// levels: a flat nothing, then a flush; no telegram and no panic.
	f, err := antenna.NewFeeder(nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 1000 {
		if res := f.Interval(gpio.Level(i%2 == 0), 2*time.Second/134200); len(res) != 0 {
			t.Fatalf("a 67 kHz square wave decoded as %v", res)
		}
	}
	if res := f.Flush(); len(res) != 0 {
		t.Errorf("Flush = %v, want nothing", res)
	}
}

func BenchmarkFeederFDXB(b *testing.B) {
	c, _ := iso11784.ParseDecimal("985121004515220")
	var t testing.T
	edges := fdxbEdges(&t, c, 3, 0, 1)
	f, _ := antenna.NewFeeder(nil)
	b.ResetTimer()
	reads := 0
	for range b.N {
		l := gpio.High
		for i := 1; i < len(edges); i++ {
			reads += len(f.Interval(l, edges[i]-edges[i-1]))
			l = !l
		}
		reads += len(f.Flush())
	}
	if reads < b.N {
		b.Fatalf("%d reads in %d rounds", reads, b.N)
	}
	b.ReportMetric(float64(3*128*bitTime*float64(b.N))/b.Elapsed().Seconds(), "signal-s/s")
}
