//go:build linux

package readersim

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chipdesk/chipdesk/drivers/port"
	"github.com/chipdesk/chipdesk/drivers/port/serialport"
	"github.com/chipdesk/chipdesk/drivers/readers/catalog"
	"github.com/chipdesk/chipdesk/drivers/readers/rfidrw"
	"github.com/chipdesk/chipdesk/reader"
	"github.com/chipdesk/chipdesk/reader/chipid"
)

var chips = []string{"982000123456789", "900250000023921", "999000000001008", "985121004515220"}

func open(t *testing.T, s *Sim, p catalog.Protocol) catalog.Reader {
	t.Helper()
	sp, err := serialport.Open(s.Path(), &serialport.Opts{Mode: p.Mode})
	if err != nil {
		t.Fatal(err)
	}
	r, err := p.New(sp, nil)
	if err != nil {
		sp.Close()
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

// Every driver reads what the simulator of its protocol sends, through
// a real pseudo-terminal, with noise between the frames.
func TestEveryProtocolThroughPTY(t *testing.T) {
	t.Parallel()
	for _, p := range catalog.Protocols() {
		t.Run(p.Name, func(t *testing.T) {
			t.Parallel()
			s, err := Start(&Opts{Protocol: p.Name, Noise: 0.3, Seed: 7})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			r := open(t, s, p)
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			go func() {
				for _, c := range chips {
					if err := s.SendText(ctx, c); err != nil {
						t.Error(err)
					}
				}
			}()
			for _, want := range chips {
				got, err := r.Next(ctx)
				if err != nil {
					t.Fatalf("Next() = %v; stats %v", err, r.Stats())
				}
				if got.ID.Code != want || got.Format != p.Name || len(got.Raw) == 0 || got.At.IsZero() {
					t.Errorf("Next() = %s %s raw %q at %v, want %s", got.Format, got.ID.Code, got.Raw, got.At, want)
				}
			}
			if st := r.Stats(); st.Reads != uint64(len(chips)) || st.Bad != 0 {
				t.Errorf("Stats() = %v, want %d reads and no bad frame", st, len(chips))
			}
		})
	}
}

// A driver sees a hang-up when the simulated line drops, and a new
// port opened through the link after Reconnect reads again.
func TestHangupAndReconnect(t *testing.T) {
	t.Parallel()
	link := filepath.Join(t.TempDir(), "reader")
	s, err := Start(&Opts{Protocol: "wl134", Link: link})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	p, _ := catalog.Lookup("wl134")
	r := open(t, s, p)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	first := s.TTY()
	if err := s.SendText(ctx, chips[0]); err != nil {
		t.Fatal(err)
	}
	if got, err := r.Next(ctx); err != nil || got.ID.Code != chips[0] {
		t.Fatalf("Next() = %v, %v, want %s", got.ID, err, chips[0])
	}
	if err := s.Hangup(); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Next(ctx); !errors.Is(err, port.ErrHangup) {
		t.Fatalf("Next() after hang-up = %v, want port.ErrHangup", err)
	}
	if err := s.Reconnect(); err != nil {
		t.Fatal(err)
	}
	if s.TTY() == first {
		t.Logf("the new pty reuses %s", first)
	}
	r2 := open(t, s, p)
	if err := s.SendText(ctx, chips[1]); err != nil {
		t.Fatal(err)
	}
	if got, err := r2.Next(ctx); err != nil || got.ID.Code != chips[1] {
		t.Fatalf("Next() after reconnect = %v, %v, want %s", got.ID, err, chips[1])
	}
}

// The simulated RFIDRW-E answers the commands the driver sends.
func TestRFIDRWCommands(t *testing.T) {
	t.Parallel()
	s, err := Start(&Opts{Protocol: "rfidrw"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	sp, err := serialport.Open(s.Path(), nil)
	if err != nil {
		t.Fatal(err)
	}
	d, err := rfidrw.New(sp, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if v, err := d.Version(ctx); err != nil || v != Version {
		t.Errorf("Version() = %q, %v, want %q", v, err, Version)
	}
	if ok, err := d.Locate(ctx); err != nil || ok {
		t.Errorf("Locate() before any chip = %v, %v, want false, nil", ok, err)
	}
	if _, err := d.ReadAnimalTag(ctx); !errors.Is(err, rfidrw.ErrNoTag) {
		t.Errorf("ReadAnimalTag() before any chip = %v, want ErrNoTag", err)
	}
	if err := d.RF(ctx, true); err != nil {
		t.Errorf("RF(true) = %v", err)
	}
	if err := d.SetType(ctx, rfidrw.TypeFDXBHDX, false); err != nil {
		t.Errorf("SetType() = %v", err)
	}
	if _, err := d.Command(ctx, "XYZ"); err == nil || !strings.Contains(err.Error(), "?0") {
		t.Errorf("Command(XYZ) = %v, want ?0", err)
	}
	id, err := chipid.Parse("999000000001007", nil)
	if err != nil {
		t.Fatal(err)
	}
	id.ISO = id.ISO.WithAnimal(true)
	if err := s.Send(ctx, id); err != nil {
		t.Fatal(err)
	}
	// The tag line that arrives while RAT waits is kept for Next.
	got, err := d.ReadAnimalTag(ctx)
	if err != nil || got.ID.Code != "999000000001007" || !got.ID.Full {
		t.Fatalf("ReadAnimalTag() = %+v, %v", got.ID, err)
	}
	if a, known := got.ID.Animal(); !a || !known {
		t.Errorf("RAT animal flag = %v, %v, want true, true", a, known)
	}
	if r, err := d.Next(ctx); err != nil || r.ID.Code != "999000000001007" || r.Protocol != reader.AirISO {
		t.Errorf("Next() = %+v, %v", r.ID, err)
	}
}
