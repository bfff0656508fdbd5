//go:build unix

package grblsim_test

import (
	"bufio"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chipdesk/chipdesk/drivers/engravers/grbl"
	"github.com/chipdesk/chipdesk/firmware-tools/sim/grblsim"
)

// host is the test's side of the terminal: it writes bytes and reads
// reply lines.
type host struct {
	t     *testing.T
	f     *os.File
	lines chan string
}

func open(t *testing.T, o *grblsim.Opts) (*grblsim.Sim, *host) {
	t.Helper()
	s, err := grblsim.Start(o)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(s.TTY(), os.O_RDWR, 0)
	if err != nil {
		s.Close()
		t.Fatal(err)
	}
	h := &host{t: t, f: f, lines: make(chan string, 256)}
	go func() {
		r := bufio.NewReader(f)
		for {
			l, err := r.ReadString('\n')
			if err != nil {
				close(h.lines)
				return
			}
			h.lines <- strings.TrimRight(l, "\r\n")
		}
	}()
	t.Cleanup(func() { f.Close(); s.Close() })
	return s, h
}

func (h *host) send(s string) {
	h.t.Helper()
	if _, err := io.WriteString(h.f, s); err != nil {
		h.t.Fatal(err)
	}
}

// expect reads lines, skipping empty ones, and compares them.
func (h *host) expect(want ...string) {
	h.t.Helper()
	for _, w := range want {
		for {
			select {
			case l, ok := <-h.lines:
				if !ok {
					h.t.Fatalf("terminal closed, want %q", w)
				}
				if l == "" {
					continue
				}
				if l != w {
					h.t.Fatalf("got %q, want %q", l, w)
				}
			case <-time.After(2 * time.Second):
				h.t.Fatalf("no line, want %q", w)
			}
			break
		}
	}
}

func (h *host) status() grbl.StatusReport {
	h.t.Helper()
	h.send("?")
	for {
		select {
		case l := <-h.lines:
			if !strings.HasPrefix(l, "<") {
				continue
			}
			r, err := grbl.ParseStatus(l)
			if err != nil {
				h.t.Fatalf("ParseStatus(%q) = %v", l, err)
			}
			return r
		case <-time.After(2 * time.Second):
			h.t.Fatal("no status report")
		}
	}
}

func TestBannerAndCommands(t *testing.T) {
	t.Parallel()
	_, h := open(t, &grblsim.Opts{Version: "1.1h"})
	h.expect("Grbl 1.1h ['$' for help]")
	if r := h.status(); r.State != "Idle" || len(r.Pos) != 3 || !r.HasBuf || r.Blocks != 15 || r.RX != 128 {
		t.Errorf("idle status = %+v", r)
	}
	tests := []struct {
		name string
		line string
		want []string
	}{
		{"build info", "$I\n", []string{"[VER:1.1h.20190830:]", "[OPT:V,15,128]", "ok"}},
		{"feed rate unset: error:22", "G1 X1\n", []string{"error:22"}},
		{"dwell", "G4 P0\n", []string{"ok"}},
		{"unsupported word", "Q1\n", []string{"error:20"}},
		{"number missing: error:2", "X\n", []string{"error:2"}},
		{"not a letter: error:1", "1X\n", []string{"error:1"}},
		{"bad $ statement", "$abc=1\n", []string{"error:3"}},
		{"homing disabled", "$H\n", []string{"error:5"}},
		{"comment and lower case", "g21 (mm) g90 ; absolute\n", []string{"ok"}},
		{"line too long: error:11", strings.Repeat("G4P0", 21) + "\n", []string{"error:11"}},
		{"setting", "$30=255\n", []string{"ok"}},
	}
	for _, tt := range tests {
		h.send(tt.line)
		h.expect(tt.want...)
	}
}

func TestResetInMotionAlarms(t *testing.T) {
	t.Parallel()
	s, h := open(t, &grblsim.Opts{BlockTime: time.Hour, LaserMode: true})
	h.expect("Grbl 1.1h ['$' for help]")
	h.send("M4 S500\nG1 X5 F100\n")
	h.expect("ok", "ok")
	if l := s.Laser(); !l.On() || l.Mode != "M4" || l.S != 500 {
		t.Errorf("laser while cutting = %+v, want M4 S500 on", l)
	}
	if r := h.status(); r.State != "Run" || r.Acc != "C" || r.Speed != 500 || r.Feed != 100 {
		t.Errorf("status while cutting = %+v", r)
	}
	h.send("\x18")
	h.expect("ALARM:3", "Grbl 1.1h ['$' for help]", "[MSG:'$H'|'$X' to unlock]")
	if l := s.Laser(); l.On() {
		t.Errorf("laser after reset = %+v, want off", l)
	}
	h.send("G0 X1\n")
	h.expect("error:9")
	h.send("$X\n")
	h.expect("[MSG:Caution: Unlocked]", "ok")
	if r := h.status(); r.State != "Idle" {
		t.Errorf("state after $X = %s", r.State)
	}
}

func TestHoldThenResetKeepsPosition(t *testing.T) {
	t.Parallel()
	s, h := open(t, &grblsim.Opts{BlockTime: time.Hour})
	h.expect("Grbl 1.1h ['$' for help]")
	h.send("G1 X5 F100\n")
	h.expect("ok")
	h.send("!")
	if r := h.status(); r.State != "Hold" || r.Sub != 0 {
		t.Errorf("status after ! = %+v, want Hold:0", r)
	}
	h.send("~")
	if r := h.status(); r.State != "Run" {
		t.Errorf("status after ~ = %+v, want Run", r)
	}
	h.send("!\x18")
	h.expect("Grbl 1.1h ['$' for help]")
	if r := h.status(); r.State != "Idle" || s.Resets() != 1 {
		t.Errorf("after hold and reset: %+v, %d resets; want Idle, 1", r, s.Resets())
	}
}

// TestTravelFiresWithoutLaserMode: with $32=0 the spindle output stays on
// during G0 travel; the simulator counts it so tests can catch a driver
// that forgot laser mode.
func TestTravelFiresWithoutLaserMode(t *testing.T) {
	t.Parallel()
	s, h := open(t, nil)
	h.expect("Grbl 1.1h ['$' for help]")
	h.send("M3 S100\nG0 X5\nG4 P0\n")
	h.expect("ok", "ok", "ok")
	deadline := time.Now().Add(time.Second)
	for s.Pending() > 0 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if l := s.Laser(); l.RapidFired != 1 || l.Fired != 0 {
		t.Errorf("laser = %+v, want one fired travel", l)
	}
	h.send("$32=1\nM5\nM3 S100\nG0 X0\nG4 P0\n")
	h.expect("ok", "ok", "ok", "ok", "ok")
	time.Sleep(10 * time.Millisecond)
	if l := s.Laser(); l.RapidFired != 1 {
		t.Errorf("laser in laser mode = %+v, want no more fired travel", l)
	}
}

func TestOverflowCounted(t *testing.T) {
	t.Parallel()
	s, h := open(t, &grblsim.Opts{BlockTime: time.Hour, RXBuffer: 127})
	h.expect("Grbl 1.1h ['$' for help]")
	// 16 moves fill the planner (15) and hold one line; 127 more bytes
	// fill the buffer; 10 more are lost.
	for i := range 16 {
		h.send("G1 X" + string(rune('1'+i%9)) + " F9\n")
		if i < 15 {
			h.expect("ok")
		}
	}
	time.Sleep(20 * time.Millisecond)
	h.send(strings.Repeat("G4 P0\n", 127/6) + strings.Repeat("x", 127%6+10))
	deadline := time.Now().Add(2 * time.Second)
	for s.Dropped() < 10 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if s.Dropped() != 10 || s.Peak() != 127 {
		t.Errorf("Dropped() = %d, Peak() = %d, want 10, 127", s.Dropped(), s.Peak())
	}
}
