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

	// read sends the chip's line until the runner returns a read.
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
		reads := make(chan reader.Read, 1)
		errs := make(chan error, 1)
		go func() {
			rd, err := r.Next(ctx)
			if err != nil {
				errs <- err
				return
			}
			reads <- rd
		}()
		for {
			if _, err := s.pty.Write(line); err != nil {
				t.Fatal(err)
			}
			select {
			case rd := <-reads:
				return rd
			case err := <-errs:
				t.Fatalf("Next = %v", err)
			case <-time.After(testtime.Scale(50 * time.Millisecond)):
			}
		}
	}
	if rd := read("985121004515220"); rd.ID.Code != "985121004515220" {
		t.Fatalf("first read = %s", rd.ID.Code)
	}
	s.sleep(t)
	// The runner notices only when it reads: ask for the next read in
	// the background and wait for it to find the port gone.
	next := make(chan reader.Read, 1)
	go func() {
		if rd, err := r.Next(ctx); err == nil {
			next <- rd
		}
	}()
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
	id, _ := chipid.Parse("982000123456789", nil)
	line, _ := p.Encode(id)
	for {
		if _, err := s.pty.Write(line); err != nil {
			t.Fatal(err)
		}
		select {
		case rd := <-next:
			if rd.ID.Code != "982000123456789" {
				t.Errorf("read after waking = %s", rd.ID.Code)
			}
			if st := r.Stats(); st.Opens != 2 || !st.Connected {
				t.Errorf("runner stats %+v, want 2 opens and connected", st)
			}
			return
		case <-ctx.Done():
			t.Fatal("no read after the scanner woke")
		case <-time.After(testtime.Scale(50 * time.Millisecond)):
		}
	}
}
