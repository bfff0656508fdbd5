//go:build linux

package readersim

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/chipdesk/chipdesk/drivers/port/porttest"
	"github.com/chipdesk/chipdesk/drivers/readers"
	"github.com/chipdesk/chipdesk/drivers/readers/catalog"
	"github.com/chipdesk/chipdesk/reader/chipid"
)

// Opts configures Start.
type Opts struct {
	// Protocol is a catalog protocol name ("wl134", "allflex", ...).
	Protocol string
	// Link, when set, is made a symlink to the tty (replacing an
	// existing symlink, never another file).
	Link string
	// Rate limits reads per second; 0 sends each read at once.
	Rate float64
	// Noise is the fraction of the bytes sent that are random noise, put
	// between frames; 0 ≤ Noise < 1.
	Noise float64
	// Seed seeds the noise; 0 picks one.
	Seed uint64
	// Now and Sleep pace the reads; nil means the real clock.
	Now   func() time.Time
	Sleep func(ctx context.Context, d time.Duration) error
}

// Sim is a running virtual reader.
type Sim struct {
	proto catalog.Protocol
	o     Opts
	rng   *rand.Rand

	mu     sync.Mutex    // guards everything below and writes to the pty
	line   *porttest.PTY // nil while the line is down
	tty    string
	last   time.Time // when the last read was sent
	chip   chipid.ID // the last chip sent
	hasHit bool
	sent   int
	closed bool
	wg     sync.WaitGroup
}

// ErrClosed is returned after Close.
var ErrClosed = errors.New("readersim: closed")

// Start opens a pseudo-terminal and makes it a reader of o.Protocol.
func Start(o *Opts) (*Sim, error) {
	if o == nil {
		return nil, errors.New("readersim: no options")
	}
	p, err := catalog.Lookup(o.Protocol)
	if err != nil {
		return nil, fmt.Errorf("readersim: %w", err)
	}
	if o.Noise < 0 || o.Noise >= 1 || o.Rate < 0 {
		return nil, fmt.Errorf("readersim: noise %v must be in [0, 1) and rate %v ≥ 0", o.Noise, o.Rate)
	}
	s := &Sim{proto: p, o: *o}
	if s.o.Now == nil {
		s.o.Now = time.Now
	}
	if s.o.Sleep == nil {
		s.o.Sleep = sleep
	}
	seed := o.Seed
	if seed == 0 {
		seed = uint64(s.o.Now().UnixNano())
	}
	s.rng = rand.New(rand.NewPCG(seed, seed^0x9E3779B97F4A7C15))
	if err := s.open(); err != nil {
		return nil, err
	}
	return s, nil
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

// open makes a new pty, links it and starts answering commands. Called
// with s.mu held or before s is shared.
func (s *Sim) open() error {
	l, err := porttest.NewPTY()
	if err != nil {
		return fmt.Errorf("readersim: %w", err)
	}
	if s.o.Link != "" {
		if err := relink(l.Path(), s.o.Link); err != nil {
			l.Close()
			return err
		}
	}
	s.line, s.tty = l, l.Path()
	s.wg.Add(1)
	go s.answer(l)
	return nil
}

// relink points link at target, replacing a previous symlink.
func relink(target, link string) error {
	if fi, err := os.Lstat(link); err == nil {
		if fi.Mode()&fs.ModeSymlink == 0 {
			return fmt.Errorf("readersim: %s exists and is not a symlink", link)
		}
		if err := os.Remove(link); err != nil {
			return fmt.Errorf("readersim: %w", err)
		}
	}
	if err := os.Symlink(target, link); err != nil {
		return fmt.Errorf("readersim: %w", err)
	}
	return nil
}

// Path returns the path drivers should open: the link when there is
// one, else the tty.
func (s *Sim) Path() string {
	if s.o.Link != "" {
		return s.o.Link
	}
	return s.TTY()
}

// TTY returns the current pseudo-terminal's device path.
func (s *Sim) TTY() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.tty
}

// Protocol returns the protocol name.
func (s *Sim) Protocol() string { return s.proto.Name }

// String names the simulator.
func (s *Sim) String() string { return "simulated " + s.proto.Name + " on " + s.Path() }

// Sent returns how many reads were sent.
func (s *Sim) Sent() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sent
}

// Send writes a read of id, after the pause the rate asks for, preceded
// by noise when configured.
//
// An ISO chip given by its 15 digits only (id.Full false) is sent as an
// animal chip, the animal flag set, as pet chips are.
func (s *Sim) Send(ctx context.Context, id chipid.ID) error {
	if id.Kind == chipid.KindISO && !id.Full {
		id = chipid.FromISO(id.ISO.WithAnimal(true))
	}
	frame, err := s.proto.Encode(id)
	if err != nil {
		return fmt.Errorf("readersim: %s: %w", s.proto.Name, err)
	}
	if s.o.Rate > 0 {
		s.mu.Lock()
		wait := s.last.Add(time.Duration(float64(time.Second) / s.o.Rate)).Sub(s.o.Now())
		s.mu.Unlock()
		if wait > 0 {
			if err := s.o.Sleep(ctx, wait); err != nil {
				return err
			}
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	b := append(s.noise(len(frame)), frame...)
	if err := s.writeLocked(b); err != nil {
		return err
	}
	s.last = s.o.Now()
	s.chip, s.hasHit = id, true
	s.sent++
	return nil
}

// noise returns random bytes to put before a frame of n bytes, so that
// on average the fraction Noise of all bytes is noise.
func (s *Sim) noise(n int) []byte {
	if s.o.Noise == 0 {
		return nil
	}
	x := s.o.Noise / (1 - s.o.Noise) * float64(n)
	k := int(x)
	if s.rng.Float64() < x-float64(k) {
		k++
	}
	b := make([]byte, k)
	for i := range b {
		b[i] = byte(s.rng.Uint32())
	}
	return b
}

// SendText parses text as a chip number and sends a read of it.
func (s *Sim) SendText(ctx context.Context, text string) error {
	id, err := readers.ChipText(strings.TrimSpace(text), chipid.FormAuto)
	if err != nil {
		return fmt.Errorf("readersim: %q: %w", text, err)
	}
	return s.Send(ctx, id)
}

// Feed sends a read for each chip number in r, one per line; blank lines
// and lines starting with # are skipped. It returns the count sent.
func (s *Sim) Feed(ctx context.Context, r io.Reader) (int, error) {
	sc := bufio.NewScanner(r)
	n := 0
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if err := s.SendText(ctx, line); err != nil {
			return n, err
		}
		n++
	}
	if err := sc.Err(); err != nil {
		return n, fmt.Errorf("readersim: %w", err)
	}
	return n, nil
}

// Write sends raw bytes as the device, for scripted tests.
func (s *Sim) Write(b []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.writeLocked(b); err != nil {
		return 0, err
	}
	return len(b), nil
}

func (s *Sim) writeLocked(b []byte) error {
	if s.closed {
		return ErrClosed
	}
	if s.line == nil {
		return fmt.Errorf("readersim: %s: line is down", s.proto.Name)
	}
	if _, err := s.line.Write(b); err != nil {
		return fmt.Errorf("readersim: %w", err)
	}
	return nil
}

// Hangup drops the line: a driver reading the tty sees a hang-up, and
// the link is removed. Reads sent until Reconnect fail.
func (s *Sim) Hangup() error {
	s.mu.Lock()
	l := s.line
	s.line = nil
	s.mu.Unlock()
	if l == nil {
		return nil
	}
	// The link goes with the line, as /dev/ttyUSB0 goes when an adapter
	// is unplugged: left behind, it would point at whatever
	// pseudo-terminal next gets the same number.
	err := s.unlink()
	err = errors.Join(err, l.Close())
	s.wg.Wait()
	if err != nil {
		return fmt.Errorf("readersim: %w", err)
	}
	return nil
}

// Reconnect brings the line back on a new pseudo-terminal, re-pointing
// the link.
func (s *Sim) Reconnect() error {
	if err := s.Hangup(); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return ErrClosed
	}
	return s.open()
}

// Close hangs up, removes the link and stops the simulator.
func (s *Sim) Close() error {
	err := s.Hangup()
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
	return err
}

// unlink removes the link if it is still our symlink.
func (s *Sim) unlink() error {
	if s.o.Link == "" {
		return nil
	}
	if fi, err := os.Lstat(s.o.Link); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		if err := os.Remove(s.o.Link); err != nil {
			return fmt.Errorf("readersim: %w", err)
		}
	}
	return nil
}
