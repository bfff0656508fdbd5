package runner

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/chipdesk/chipdesk/drivers/port"
	"github.com/chipdesk/chipdesk/internal/testtime"
	"github.com/chipdesk/chipdesk/reader"
	"github.com/chipdesk/chipdesk/reader/readertest"
)

// clock is a fake clock; sleeping advances it and records the wait.
type clock struct {
	mu     sync.Mutex
	t      time.Time
	sleeps []time.Duration
}

func newClock() *clock { return &clock{t: time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)} }

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

func (c *clock) Sleep(ctx context.Context, d time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	c.mu.Lock()
	c.sleeps = append(c.sleeps, d)
	c.t = c.t.Add(d)
	c.mu.Unlock()
	return nil
}

func (c *clock) Sleeps() []time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]time.Duration(nil), c.sleeps...)
}

// factory hands out scripted readers in turn, failing when given an
// error.
type factory struct {
	mu    sync.Mutex
	items []any // *readertest.Reader or error
	calls int
}

func (f *factory) open(ctx context.Context) (reader.Reader, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls++
	if len(f.items) == 0 {
		return nil, errors.New("factory: no more readers")
	}
	it := f.items[0]
	f.items = f.items[1:]
	if err, ok := it.(error); ok {
		return nil, err
	}
	return it.(*readertest.Reader), nil
}

var hangup = fmt.Errorf("test: %w", port.ErrHangup)

// errEnough stops a Run once a test has the reads it wants.
var errEnough = errors.New("test: enough reads")

// codes runs r until it has handed on n reads, and returns their chips.
func codes(t *testing.T, r *Runner, n int) []string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testtime.Scale(5*time.Second))
	defer cancel()
	var out []string
	err := r.Run(ctx, func(_ context.Context, rd reader.Read) error {
		out = append(out, rd.ID.Code)
		if len(out) == n {
			return errEnough
		}
		return nil
	})
	if !errors.Is(err, errEnough) {
		t.Fatalf("Run() = %v after %v", err, out)
	}
	return out
}

func TestDebounce(t *testing.T) {
	t.Parallel()
	c := newClock()
	a, b := "982000123456789", "900250000023921"
	rd := readertest.New("scripted", readertest.Chip(a), readertest.Chip(a), readertest.Chip(b), readertest.Chip(a))
	r, err := New(func(context.Context) (reader.Reader, error) { return rd, nil }, &Opts{Now: c.Now, Sleep: c.Sleep})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	// a, then a again 1.9 s later (dropped), then b, then a at 2.0 s
	// after the first a (passes: one scan per window).
	if got := codes(t, r, 1); got[0] != a {
		t.Fatalf("first read %v, want %s", got, a)
	}
	c.Advance(1900 * time.Millisecond)
	if got := codes(t, r, 1); got[0] != b {
		t.Fatalf("read after a repeat = %v, want %s (the repeat dropped)", got, b)
	}
	c.Advance(100 * time.Millisecond)
	if got := codes(t, r, 1); got[0] != a {
		t.Fatalf("read at the end of the window = %v, want %s", got, a)
	}
	if st := r.Stats(); st.Reads != 3 || st.Suppressed != 1 {
		t.Errorf("Stats() = %+v, want 3 reads, 1 suppressed", st)
	}
}

func TestDebounceOff(t *testing.T) {
	t.Parallel()
	a := "982000123456789"
	rd := readertest.New("scripted", readertest.Chip(a), readertest.Chip(a))
	r, _ := New(func(context.Context) (reader.Reader, error) { return rd, nil }, &Opts{Debounce: -1})
	defer r.Close()
	if got := codes(t, r, 2); got[1] != a {
		t.Errorf("reads = %v, want %s twice", got, a)
	}
}

// A reader that hangs up is reopened after a backoff that doubles on
// each failure, is capped, and resets after a read; no read is lost or
// doubled across the reconnect.
func TestReconnectWithBackoff(t *testing.T) {
	t.Parallel()
	c := newClock()
	a, b := "982000123456789", "900250000023921"
	first := readertest.New("first", readertest.Chip(a), readertest.Fail(hangup))
	// The device sends a again when it comes back (still in the window),
	// then b.
	second := readertest.New("second", readertest.Chip(a), readertest.Chip(b), readertest.Fail(hangup))
	c3 := "985121004515220"
	third := readertest.New("third", readertest.Chip(c3))
	f := &factory{items: []any{
		errors.New("no such port"), first,
		errors.New("no such port"), errors.New("no such port"), errors.New("no such port"), second,
		third,
	}}
	var events []EventKind
	r, err := New(f.open, &Opts{
		Now: c.Now, Sleep: c.Sleep, MinBackoff: 100 * time.Millisecond, MaxBackoff: 300 * time.Millisecond,
		OnEvent: func(e Event) { events = append(events, e.Kind) },
	})
	if err != nil {
		t.Fatal(err)
	}
	got := codes(t, r, 3)
	want := []string{a, b, c3}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("reads = %v, want %v", got, want)
	}
	wantSleeps := []time.Duration{
		100 * time.Millisecond,                                                 // open failed
		100 * time.Millisecond,                                                 // first hung up (backoff reset by the read of a)
		200 * time.Millisecond, 300 * time.Millisecond, 300 * time.Millisecond, // three failed opens, capped
		100 * time.Millisecond, // second hung up after reads
	}
	if fmt.Sprint(c.Sleeps()) != fmt.Sprint(wantSleeps) {
		t.Errorf("sleeps = %v, want %v", c.Sleeps(), wantSleeps)
	}
	if st := r.Stats(); st.Opens != 3 || st.Failures != 6 || st.Suppressed != 1 || !st.Connected {
		t.Errorf("Stats() = %+v", st)
	}
	if err := r.Close(); err != nil {
		t.Errorf("Close() = %v", err)
	}
	if !first.Closed() || !second.Closed() || !third.Closed() {
		t.Errorf("readers closed: %v %v %v, want all", first.Closed(), second.Closed(), third.Closed())
	}
	if events[0] != OpenFailed || events[1] != Connected {
		t.Errorf("events = %v", events)
	}
}

// closeWhileBlocked closes r while a Run waits in another goroutine,
// and fails t unless that Run returns nil; when says where Run was
// blocked.
func closeWhileBlocked(t *testing.T, r *Runner, when string) {
	t.Helper()
	done := make(chan error)
	go func() {
		done <- r.Run(context.Background(), func(context.Context, reader.Read) error { return nil })
	}()
	time.Sleep(20 * time.Millisecond)
	r.Close()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Run() after Close%s = %v, want nil", when, err)
		}
	case <-time.After(testtime.Scale(2 * time.Second)):
		t.Fatalf("Run did not return after Close%s", when)
	}
}

func TestCloseUnblocksRun(t *testing.T) {
	t.Parallel()
	rd := readertest.New("idle")
	r, _ := New(func(context.Context) (reader.Reader, error) { return rd, nil }, nil)
	closeWhileBlocked(t, r, "")
	if !rd.Closed() {
		t.Error("Close left the reader open")
	}
	if err := r.Run(context.Background(), func(context.Context, reader.Read) error { return errEnough }); err != nil {
		t.Errorf("Run() on a closed runner = %v, want nil", err)
	}
}

func TestCloseDuringBackoff(t *testing.T) {
	t.Parallel()
	r, _ := New(func(context.Context) (reader.Reader, error) { return nil, errors.New("unplugged") },
		&Opts{MinBackoff: time.Hour})
	closeWhileBlocked(t, r, " during the backoff")
}

func TestContextCancel(t *testing.T) {
	t.Parallel()
	rd := readertest.New("idle")
	r, _ := New(func(context.Context) (reader.Reader, error) { return rd, nil }, nil)
	defer r.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if err := r.Run(ctx, func(context.Context, reader.Read) error { return nil }); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Run() = %v, want context.DeadlineExceeded", err)
	}
	// The reader stays open for the next Run.
	if rd.Closed() {
		t.Error("reader closed by a cancelled Run")
	}
}

// Run hands each read to its handler in order, in its own goroutine;
// a handler's error stops it and is returned, and a handler is given
// the caller's context.
func TestRunHandler(t *testing.T) {
	t.Parallel()
	a, b, c := "982000123456789", "900250000023921", "985121004515220"
	rd := readertest.New("scripted", readertest.Chip(a), readertest.Chip(b), readertest.Chip(c))
	r, _ := New(func(context.Context) (reader.Reader, error) { return rd, nil }, nil)
	defer r.Close()
	type key struct{}
	ctx := context.WithValue(context.Background(), key{}, "caller")
	var got []string
	stop := errors.New("test: handler failed")
	err := r.Run(ctx, func(hctx context.Context, rd reader.Read) error {
		if hctx.Value(key{}) != "caller" {
			t.Error("handler not given the caller's context")
		}
		got = append(got, rd.ID.Code)
		if rd.ID.Code == b {
			return stop
		}
		return nil
	})
	if !errors.Is(err, stop) {
		t.Errorf("Run() = %v, want the handler's error", err)
	}
	if want := []string{a, b}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("handled %v, want %v", got, want)
	}
	// The reader stays open: the next Run goes on from the next read.
	if got := codes(t, r, 1); got[0] != c {
		t.Errorf("next Run read %v, want %s", got, c)
	}
}
