//go:build unix

package grblsim_test

import (
	"bufio"
	"io"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chipdesk/chipdesk/drivers/engravers/grbl"
	"github.com/chipdesk/chipdesk/firmware-tools/sim/grblsim"
	"github.com/chipdesk/chipdesk/internal/testtime"
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
			case <-time.After(testtime.Scale(2 * time.Second)):
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
		case <-time.After(testtime.Scale(2 * time.Second)):
			h.t.Fatal("no status report")
		}
	}
}

// until polls the status until the state is want (or the time is up)
// and returns the last report: a line sent before is taken by the
// simulator's main loop, not at once.
func (h *host) until(want string) grbl.StatusReport {
	h.t.Helper()
	deadline := time.Now().Add(testtime.Scale(2 * time.Second))
	for {
		r := h.status()
		if r.State == want || time.Now().After(deadline) {
			return r
		}
		time.Sleep(time.Millisecond)
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
	deadline := time.Now().Add(testtime.Scale(time.Second))
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
	deadline := time.Now().Add(testtime.Scale(2 * time.Second))
	for s.Dropped() < 10 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if s.Dropped() != 10 || s.Peak() != 127 {
		t.Errorf("Dropped() = %d, Peak() = %d, want 10, 127", s.Dropped(), s.Peak())
	}
}

// clock is a test clock that moves only when told.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock() *clock { return &clock{t: time.Date(2027, 1, 4, 9, 0, 0, 0, time.UTC)} }

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// TestHoldPersists: a feed hold from the machine's button lasts as long
// as nobody resumes it (here ten minutes of the simulator's clock):
// every status report says Hold:0, nothing moves, the laser is off; ~
// goes on where it stopped.
func TestHoldPersists(t *testing.T) {
	t.Parallel()
	c := newClock()
	s, h := open(t, &grblsim.Opts{BlockTime: time.Second, LaserMode: true, Now: c.Now})
	h.expect("Grbl 1.1h ['$' for help]")
	h.send("M4 S300\nG1 X1 F600\nG1 X2\nG1 X3\n")
	h.expect("ok", "ok", "ok", "ok")
	c.Add(time.Second)
	if r := h.status(); r.State != "Run" || r.Pos[0] != 1 {
		t.Fatalf("after one block: %v, want Run at X1", r)
	}
	s.FeedHold()
	for range 10 {
		c.Add(time.Minute)
		if r := h.status(); r.State != "Hold" || r.Sub != 0 || r.Pos[0] != 1 {
			t.Fatalf("%v into the hold: %v, want Hold:0 at X1", c.Now().Sub(newClock().Now()), r)
		}
	}
	if l := s.Laser(); l.On() || !l.Stopped || s.Pending() != 2 {
		t.Errorf("during the hold: laser %+v, %d blocks; want off (stopped), 2", l, s.Pending())
	}
	h.send("~")
	h.status() // ~ is taken before the clock moves
	c.Add(2 * time.Second)
	if r := h.status(); r.State != "Idle" || r.Pos[0] != 3 {
		t.Errorf("after ~ and two blocks: %v, want Idle at X3", r)
	}
}

// TestDoor: the safety door stops the job (Door:1 while open), keeps
// the laser off, refuses ~ until the door is closed (Door:0), then
// resumes.
func TestDoor(t *testing.T) {
	t.Parallel()
	c := newClock()
	s, h := open(t, &grblsim.Opts{BlockTime: time.Second, LaserMode: true, Now: c.Now})
	h.expect("Grbl 1.1h ['$' for help]")
	h.send("M4 S300\nG1 X1 F600\nG1 X2\n")
	h.expect("ok", "ok", "ok")
	s.Door(true)
	c.Add(time.Hour)
	if r := h.status(); r.State != "Door" || r.Sub != 1 || r.Pos[0] != 0 {
		t.Fatalf("door open: %v, want Door:1 at X0", r)
	}
	if l := s.Laser(); l.On() {
		t.Errorf("laser with the door open = %+v, want off", l)
	}
	h.send("~")
	if r := h.status(); r.State != "Door" || r.Sub != 1 {
		t.Errorf("~ with the door open: %v, want still Door:1", r)
	}
	s.Door(false)
	if r := h.status(); r.State != "Door" || r.Sub != 0 {
		t.Errorf("door closed: %v, want Door:0", r)
	}
	h.send("~")
	h.status()
	c.Add(2 * time.Second)
	if r := h.status(); r.State != "Idle" || r.Pos[0] != 2 {
		t.Errorf("after ~: %v, want Idle at X2", r)
	}
	// The host's safety door command (0x84) acts as the switch does.
	h.send("G1 X5\n")
	h.expect("ok")
	h.send(string(rune(grblsim.SafetyDoor)))
	if r := h.status(); r.State != "Door" || r.Sub != 0 {
		t.Errorf("after 0x84 with the switch closed: %v, want Door:0", r)
	}
}

// TestHomingAlarm: with homing enabled ($22=1) the controller starts
// locked; g-code gets error:9, $H homes (Home, then ok at machine zero)
// and unlocks.
func TestHomingAlarm(t *testing.T) {
	t.Parallel()
	c := newClock()
	s, h := open(t, &grblsim.Opts{Homing: true, HomeTime: 10 * time.Second, Now: c.Now})
	h.expect("Grbl 1.1h ['$' for help]", "[MSG:'$H'|'$X' to unlock]")
	if r := h.status(); r.State != "Alarm" {
		t.Fatalf("at power-up with $22=1: %v, want Alarm", r)
	}
	h.send("G0 X1\n$J=G91 X1 F100\n")
	h.expect("error:9", "error:9")
	h.send("$H\n")
	if r := h.until("Home"); r.State != "Home" {
		t.Errorf("during $H: %v, want Home", r)
	}
	c.Add(10 * time.Second)
	h.send("?")
	h.expect("ok", "<Idle|MPos:0.000,0.000,0.000|Bf:15,128|FS:0,0|WCO:0.000,0.000,0.000>")
	if s.Pos() != [3]float64{} {
		t.Errorf("after $H: at %v, want machine zero", s.Pos())
	}
}

// TestJogAndOrigin: $J= moves in the Jog state and leaves the parser in
// G90; G10 L20 P1 makes the current position the work origin, and the
// next absolute move is in work coordinates.
func TestJogAndOrigin(t *testing.T) {
	t.Parallel()
	s, h := open(t, nil)
	h.expect("Grbl 1.1h ['$' for help]")
	for _, tt := range []struct{ line, want string }{
		{"$J=X1 Y1\n", "error:16"}, // no feed
		{"$J=G91 X10 Y5 F1000\n", "ok"},
		{"$J=G91 X-2 Q1 F1000\n", "error:16"},
		{"G4 P0\n", "ok"},
		{"G10 L20 P1 X0 Y0\n", "ok"},
		{"G10 L20 P2 X0\n", "error:20"},
		{"G0 X1 Y1\n", "ok"},
		{"G4 P0\n", "ok"},
	} {
		h.send(tt.line)
		h.expect(tt.want)
	}
	if p, w := s.Pos(), s.WCO(); p != [3]float64{11, 6, 0} || w != [3]float64{10, 5, 0} {
		t.Errorf("after jog, origin and G0 X1 Y1: MPos %v WCO %v, want [11 6 0] [10 5 0]", p, w)
	}
	if r := h.status(); len(r.WCO) != 3 || r.WCO[0] != 10 {
		t.Errorf("status = %v, want WCO:10,5,0", r)
	}
}

// TestOverrides: the real-time override bytes change the feed and
// spindle (laser power) overrides within grbl's 10-200 %, and the status
// report shows them (Ov:) and the overridden feed and power (FS:).
func TestOverrides(t *testing.T) {
	t.Parallel()
	c := newClock()
	s, h := open(t, &grblsim.Opts{BlockTime: time.Second, LaserMode: true, Now: c.Now})
	h.expect("Grbl 1.1h ['$' for help]")
	h.send("M4 S500\nG1 X1 F600\n")
	h.expect("ok", "ok")
	h.send(string([]byte{grblsim.FeedOvPlus10, grblsim.FeedOvPlus10, grblsim.FeedOvMinus1,
		grblsim.SpindleMin10, grblsim.SpindleMin10, grblsim.RapidOv25}))
	r := h.status()
	if !r.HasOv || r.Ov != [3]int{119, 25, 80} || r.Feed != 600*1.19 || r.Speed != 400 {
		t.Errorf("after overrides: %v, want Ov:119,25,80 FS:714,400", r)
	}
	for range 30 {
		h.send(string([]byte{grblsim.SpindleMin10}))
	}
	h.status() // the bytes before it are taken
	if ov := s.Overrides(); ov[2] != 10 {
		t.Errorf("spindle override after 30 x -10 %% = %d, want the 10 %% floor", ov[2])
	}
	h.send(string([]byte{grblsim.FeedOvReset, grblsim.SpindleOv100, grblsim.RapidOv100}))
	if r := h.status(); r.HasOv || s.Laser().PowerOv != 100 {
		t.Errorf("after the resets: %v, want no Ov: field (all 100 %%)", r)
	}
}
