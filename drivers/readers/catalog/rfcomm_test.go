//go:build linux

package catalog

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/chipdesk/chipdesk/drivers/port/porttest"
	"github.com/chipdesk/chipdesk/drivers/port/serialport"
	"github.com/chipdesk/chipdesk/drivers/readers/runner"
	"github.com/chipdesk/chipdesk/internal/testtime"
	"github.com/chipdesk/chipdesk/reader"
	"github.com/chipdesk/chipdesk/reader/chipid"
)

// rfcommScanner plays a Bluetooth serial-port-profile scanner: a
// pseudo-terminal reached under an rfcomm name, as /dev/rfcommN is
// while the scanner is connected.
type rfcommScanner struct {
	link string
	pty  *porttest.PTY
}

func (s *rfcommScanner) wake(t *testing.T) {
	t.Helper()
	pty, err := porttest.NewPTY()
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	if err := os.Symlink(pty.Path(), s.link); err != nil {
		t.Fatal(err)
	}
	s.pty = pty
}

// sleep drops the link: the tty hangs up and its node goes away.
func (s *rfcommScanner) sleep(t *testing.T) {
	t.Helper()
	if err := s.pty.Hangup(); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(s.link); err != nil {
		t.Fatal(err)
	}
}

// A Bluetooth scanner that sleeps and wakes: the runner reads it, sees
// the hang-up, is told the port is gone as a scanner not paired or not
// bound (ErrNotPaired) while /dev/rfcommN is missing, and reads again
// when the node comes back under the same name.
func TestRFCOMMSleepAndWake(t *testing.T) {
	t.Parallel()
	p, err := Lookup("allflex")
	if err != nil {
		t.Fatal(err)
	}
	s := &rfcommScanner{link: filepath.Join(t.TempDir(), "rfcomm0")}
	s.wake(t)
	defer func() { s.pty.Close() }()

	var (
		mu     sync.Mutex
		events []runner.Event
	)
	seen := func(want func(runner.Event) bool) bool {
		mu.Lock()
		defer mu.Unlock()
		for _, e := range events {
			if want(e) {
				return true
			}
		}
		return false
	}
	r, err := runner.New(p.Opener(s.link, nil), &runner.Opts{
		Name: "van-3", Debounce: -1, MinBackoff: 5 * time.Millisecond, MaxBackoff: 20 * time.Millisecond,
		OnEvent: func(e runner.Event) { mu.Lock(); events = append(events, e); mu.Unlock() },
	})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	ctx, cancel := context.WithTimeout(context.Background(), testtime.Scale(20*time.Second))
	defer cancel()

	// The runner reads in the background, through the sleep and the
	// wake, and hands each read on here.
	reads := make(chan reader.Read, 16)
	go r.Run(ctx, func(ctx context.Context, rd reader.Read) error {
		select {
		case reads <- rd:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	})
	// read sends the chip's line until the runner passes a read on.
	read := func(code string) reader.Read {
		t.Helper()
		id, err := chipid.Parse(code, nil)
		if err != nil {
			t.Fatal(err)
		}
		line, err := p.Encode(id)
		if err != nil {
			t.Fatal(err)
		}
		for {
			if _, err := s.pty.Write(line); err != nil {
				t.Fatal(err)
			}
			select {
			case rd := <-reads:
				return rd
			case <-ctx.Done():
				t.Fatalf("no read of %s", code)
			case <-time.After(testtime.Scale(50 * time.Millisecond)):
			}
		}
	}
	first := "985121004515220"
	if rd := read(first); rd.ID.Code != first {
		t.Fatalf("first read = %s", rd.ID.Code)
	}
	s.sleep(t)
	// The runner finds the port gone when it reads it next.
	for !seen(func(e runner.Event) bool {
		return e.Kind == runner.OpenFailed && errors.Is(e.Err, serialport.ErrNotPaired)
	}) {
		select {
		case <-ctx.Done():
			t.Fatal("no open failure naming an unpaired scanner")
		case <-time.After(testtime.Scale(10 * time.Millisecond)):
		}
	}
	if !seen(func(e runner.Event) bool { return e.Kind == runner.Disconnected }) {
		t.Error("the hang-up was not reported as a disconnect")
	}
	s.wake(t)
	// A line of the first chip sent twice before the sleep may still be
	// handed on first; the chip sent after waking must follow.
	rd := read("982000123456789")
	for rd.ID.Code == first {
		rd = read("982000123456789")
	}
	if rd.ID.Code != "982000123456789" {
		t.Errorf("read after waking = %s", rd.ID.Code)
	}
	if st := r.Stats(); st.Opens != 2 || !st.Connected {
		t.Errorf("runner stats %+v, want 2 opens and connected", st)
	}
}
