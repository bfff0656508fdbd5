//go:build linux

package readersim

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/chipdesk/chipdesk/drivers/port/serialport"
	"github.com/chipdesk/chipdesk/drivers/readers/catalog"
	"github.com/chipdesk/chipdesk/drivers/readers/runner"
	"github.com/chipdesk/chipdesk/reader"
)

// The runner reads through a real pseudo-terminal, sees the line drop,
// reopens the link when the reader comes back, and neither loses nor
// doubles a read: the chip the reader sends again after reconnecting
// falls in the debounce window.
func TestRunnerReconnects(t *testing.T) {
	t.Parallel()
	link := filepath.Join(t.TempDir(), "reader")
	s, err := Start(&Opts{Protocol: "rt100", Link: link})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	p, _ := catalog.Lookup("rt100")
	var events []runner.EventKind
	evc := make(chan runner.EventKind, 256)
	r, err := runner.New(func(ctx context.Context) (reader.Reader, error) {
		sp, err := serialport.Open(link, &serialport.Opts{Mode: p.Mode})
		if err != nil {
			return nil, err
		}
		return p.New(sp, nil)
	}, &runner.Opts{MinBackoff: 10 * time.Millisecond, MaxBackoff: 50 * time.Millisecond, Debounce: time.Minute,
		OnEvent: func(e runner.Event) { evc <- e.Kind }})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()

	reads := make(chan string, 16)
	go r.Run(ctx, func(ctx context.Context, rd reader.Read) error {
		select {
		case reads <- rd.ID.Code:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	})
	next := func() string {
		select {
		case c := <-reads:
			return c
		case <-ctx.Done():
			t.Fatalf("no read; events %v", events)
		}
		return ""
	}
	if err := s.SendText(ctx, chips[0]); err != nil {
		t.Fatal(err)
	}
	if got := next(); got != chips[0] {
		t.Fatalf("read %s, want %s", got, chips[0])
	}
	// Unplug; the runner notices and retries while the link is dead.
	if err := s.Hangup(); err != nil {
		t.Fatal(err)
	}
	waitEvent(t, evc, runner.Disconnected, &events)
	time.Sleep(30 * time.Millisecond)
	if err := s.Reconnect(); err != nil {
		t.Fatal(err)
	}
	waitEvent(t, evc, runner.Connected, &events)
	// The reader repeats the chip still in its field, then a new one.
	for _, c := range chips[:2] {
		if err := s.SendText(ctx, c); err != nil {
			t.Fatal(err)
		}
	}
	if got := next(); got != chips[1] {
		t.Fatalf("read after reconnect = %s, want %s (the repeat of %s debounced)", got, chips[1], chips[0])
	}
	if st := r.Stats(); st.Opens != 2 || st.Reads != 2 || st.Suppressed != 1 {
		t.Errorf("Stats() = %+v", st)
	}
}

func waitEvent(t *testing.T, evc chan runner.EventKind, want runner.EventKind, seen *[]runner.EventKind) {
	t.Helper()
	timeout := time.After(5 * time.Second)
	for {
		select {
		case e := <-evc:
			*seen = append(*seen, e)
			if e == want {
				return
			}
		case <-timeout:
			t.Fatalf("no %s event; saw %v", want, *seen)
		}
	}
}

// Noise through a real pseudo-terminal: 2,000 reads with half the bytes
// noise, every one read in order.
func TestNoiseThroughPTY(t *testing.T) {
	t.Parallel()
	for _, name := range catalog.Names() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			s, err := Start(&Opts{Protocol: name, Noise: 0.5, Seed: 11})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			p, _ := catalog.Lookup(name)
			r := open(t, s, p)
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			const n = 2000
			want := make([]string, n)
			for i := range want {
				want[i] = fmt.Sprintf("%03d%012d", 900+i%100, 1000003*i)
			}
			go func() {
				for _, c := range want {
					if err := s.SendText(ctx, c); err != nil {
						return
					}
				}
			}()
			for i, w := range want {
				rd, err := r.Next(ctx)
				if err != nil {
					t.Fatalf("Next() #%d = %v; stats %v", i, err, r.Stats())
				}
				if rd.ID.Code != w {
					t.Fatalf("read #%d = %s, want %s", i, rd.ID.Code, w)
				}
			}
		})
	}
}
