package runner

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/chipdesk/chipdesk/reader"
)

// OpenFunc opens the port and the driver. The runner calls it at the
// first Next and again after each failure.
type OpenFunc func(ctx context.Context) (reader.Reader, error)

// EventKind names what happened to the line.
type EventKind string

// Event kinds.
const (
	Connected    EventKind = "connected"    // the factory returned a reader
	OpenFailed   EventKind = "open-failed"  // the factory failed; Wait is the backoff
	Disconnected EventKind = "disconnected" // the reader failed (Err); Wait is the backoff
	Suppressed   EventKind = "suppressed"   // a read inside the debounce window was dropped
)

// Event reports a change, for logs and status pages.
type Event struct {
	Kind   EventKind
	Reader string // the reader's String, when known
	Err    error
	Wait   time.Duration
	Read   reader.Read // for Suppressed
}

// Opts configures New.
type Opts struct {
	// Name names the runner (String) until a reader is open.
	Name string
	// Debounce is the window in which further reads of the same chip
	// are dropped; 0 means 2 s, negative turns debouncing off.
	Debounce time.Duration
	// MinBackoff and MaxBackoff bound the wait before reopening; the
	// wait doubles after each failure and resets after a read. 0 means
	// 250 ms and 30 s.
	MinBackoff, MaxBackoff time.Duration
	// Now is the debounce clock; nil means time.Now.
	Now func() time.Time
	// Sleep waits d or until ctx is done; nil means a timer.
	Sleep func(ctx context.Context, d time.Duration) error
	// OnEvent, when set, is called (from Next's goroutine) for every
	// Event.
	OnEvent func(Event)
}

// DefaultOpts is used when New is given nil Opts.
var DefaultOpts = Opts{Debounce: 2 * time.Second, MinBackoff: 250 * time.Millisecond, MaxBackoff: 30 * time.Second}

// Stats counts what a runner did.
type Stats struct {
	Reads      uint64 // reads returned
	Suppressed uint64 // reads dropped by the debounce
	Opens      uint64 // successful opens
	Failures   uint64 // failed opens and reader failures
	Connected  bool
	LastErr    error
}

// HandleFunc takes each read a Runner passes on, in its Run's
// goroutine. An error stops Run, which returns it.
type HandleFunc func(ctx context.Context, rd reader.Read) error

// Runner supervises one reader. Run must not be called from two
// goroutines at once; Close may be called at any time.
type Runner struct {
	open OpenFunc
	o    Opts

	closing context.Context
	close   context.CancelFunc

	mu      sync.Mutex // guards cur, stats
	cur     reader.Reader
	stats   Stats
	backoff time.Duration
	seen    map[chipKey]time.Time
}

type chipKey struct {
	kind string
	code string
}

// New returns a runner of the readers open makes. It opens nothing until
// Run.
func New(open OpenFunc, o *Opts) (*Runner, error) {
	if open == nil {
		return nil, errors.New("runner: no open function")
	}
	if o == nil {
		o = &DefaultOpts
	}
	r := &Runner{open: open, o: *o, seen: map[chipKey]time.Time{}}
	if r.o.Debounce == 0 {
		r.o.Debounce = DefaultOpts.Debounce
	}
	if r.o.MinBackoff <= 0 {
		r.o.MinBackoff = DefaultOpts.MinBackoff
	}
	if r.o.MaxBackoff <= 0 {
		r.o.MaxBackoff = DefaultOpts.MaxBackoff
	}
	if r.o.MaxBackoff < r.o.MinBackoff {
		r.o.MaxBackoff = r.o.MinBackoff
	}
	if r.o.Now == nil {
		r.o.Now = time.Now
	}
	if r.o.Sleep == nil {
		r.o.Sleep = sleep
	}
	if r.o.Name == "" {
		r.o.Name = "reader"
	}
	r.backoff = r.o.MinBackoff
	r.closing, r.close = context.WithCancel(context.Background())
	return r, nil
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// Run reads the reader, opening and reopening it as needed, and hands
// handle each read that is not a repeat inside the debounce window. It
// returns nil after Close, ctx.Err() when ctx is done (the reader stays
// open for the next Run), or handle's error. handle is given the
// caller's ctx, so that Close does not cut short a read being handled.
func (r *Runner) Run(ctx context.Context, handle HandleFunc) error {
	hctx := ctx
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	unhook := context.AfterFunc(r.closing, cancel)
	defer unhook()
	// ended tells that Run must stop: ctx is done or the runner closed.
	ended := func() bool { return ctx.Err() != nil || r.closing.Err() != nil }
	// stop is what Run returns then: nil after Close, else err.
	stop := func(err error) error {
		if r.closing.Err() != nil {
			return nil
		}
		return err
	}
	for {
		if ended() {
			return stop(ctx.Err())
		}
		cur := r.current()
		if cur == nil {
			rd, err := r.open(ctx)
			if err != nil {
				if ended() {
					return stop(ctx.Err())
				}
				if err := r.fail(ctx, OpenFailed, "", err); err != nil {
					return stop(err)
				}
				continue
			}
			r.mu.Lock()
			if r.closing.Err() != nil {
				r.mu.Unlock()
				rd.Close()
				return nil
			}
			r.cur = rd
			r.stats.Opens++
			r.stats.Connected = true
			r.mu.Unlock()
			r.event(Event{Kind: Connected, Reader: rd.String()})
			continue
		}
		rd, err := cur.Next(ctx)
		if err != nil {
			if ended() {
				return stop(ctx.Err())
			}
			r.mu.Lock()
			r.cur = nil
			r.stats.Connected = false
			r.mu.Unlock()
			cur.Close()
			if err := r.fail(ctx, Disconnected, cur.String(), err); err != nil {
				return stop(err)
			}
			continue
		}
		r.mu.Lock()
		r.backoff = r.o.MinBackoff
		dup := r.repeat(rd)
		if dup {
			r.stats.Suppressed++
		} else {
			r.stats.Reads++
		}
		r.mu.Unlock()
		if dup {
			r.event(Event{Kind: Suppressed, Reader: cur.String(), Read: rd})
			continue
		}
		if err := handle(hctx, rd); err != nil {
			return err
		}
	}
}

// repeat tells whether rd repeats a chip read inside the window, and
// records it otherwise. Called with r.mu held.
func (r *Runner) repeat(rd reader.Read) bool {
	if r.o.Debounce < 0 {
		return false
	}
	now := r.o.Now()
	k := chipKey{string(rd.ID.Kind), rd.ID.Code}
	if last, ok := r.seen[k]; ok && now.Sub(last) < r.o.Debounce && now.Sub(last) >= 0 {
		return true
	}
	r.seen[k] = now
	if len(r.seen) > 64 {
		for k, t := range r.seen {
			if now.Sub(t) >= r.o.Debounce {
				delete(r.seen, k)
			}
		}
	}
	return false
}

// fail records a failure and waits the backoff, doubling it; it
// returns the wait's error when ctx ends it.
func (r *Runner) fail(ctx context.Context, kind EventKind, name string, err error) error {
	r.mu.Lock()
	wait := r.backoff
	r.backoff = min(2*r.backoff, r.o.MaxBackoff)
	r.stats.Failures++
	r.stats.LastErr = err
	r.mu.Unlock()
	r.event(Event{Kind: kind, Reader: name, Err: err, Wait: wait})
	return r.o.Sleep(ctx, wait)
}

func (r *Runner) event(e Event) {
	if r.o.OnEvent != nil {
		r.o.OnEvent(e)
	}
}

func (r *Runner) current() reader.Reader {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.cur
}

// Stats returns the counters.
func (r *Runner) Stats() Stats {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.stats
}

// String names the open reader, or the runner's name.
func (r *Runner) String() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.cur != nil {
		return r.cur.String()
	}
	return r.o.Name
}

// Close closes the current reader and makes Next return
// reader.ErrClosed.
func (r *Runner) Close() error {
	r.close()
	r.mu.Lock()
	cur := r.cur
	r.cur = nil
	r.stats.Connected = false
	r.mu.Unlock()
	if cur != nil {
		if err := cur.Close(); err != nil {
			return fmt.Errorf("runner: %w", err)
		}
	}
	return nil
}
