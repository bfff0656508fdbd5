//go:build unix

package grbl_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/creack/pty"

	"github.com/chipdesk/chipdesk/drivers/engravers"
	"github.com/chipdesk/chipdesk/drivers/engravers/grbl"
	"github.com/chipdesk/chipdesk/drivers/port"
	"github.com/chipdesk/chipdesk/drivers/port/serialport"
	"github.com/chipdesk/chipdesk/firmware-tools/sim/grblsim"
	"github.com/chipdesk/chipdesk/internal/testtime"
)

// clock is the driver's clock in a test: it moves only when the test
// says, so no timeout of the driver depends on how busy the machine is.
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

// waitFor polls cond until it holds, failing the test after a scaled
// while.
func waitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(testtime.Scale(5 * time.Second))
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}

// advance moves the clock a minute at a time, letting the driver look
// at the machine in between, until the job returns.
func advance(t testing.TB, c *clock, sim *grblsim.Sim, errc chan error) error {
	t.Helper()
	for range 100 {
		from := sim.Reports()
		deadline := time.Now().Add(testtime.Scale(5 * time.Second))
		for sim.Reports() < from+2 {
			select {
			case err := <-errc:
				return err
			default:
			}
			if time.Now().After(deadline) {
				t.Fatal("the driver stopped polling the machine")
			}
			time.Sleep(time.Millisecond)
		}
		c.Add(time.Minute)
	}
	t.Fatal("the job did not end after 100 minutes of its clock")
	return nil
}

// reports waits until the simulator has answered n more status polls:
// the driver has looked at the machine since.
func reports(t testing.TB, sim *grblsim.Sim, n int) {
	t.Helper()
	from := sim.Reports()
	waitFor(t, "status reports", func() bool { return sim.Reports() >= from+n })
}

// start runs a simulated controller and the driver on its terminal.
func start(t testing.TB, so *grblsim.Opts, do *grbl.Opts) (*grblsim.Sim, *grbl.Dev) {
	t.Helper()
	sim, err := grblsim.Start(so)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sim.Close() })
	p, err := serialport.Open(sim.TTY(), &serialport.Opts{Mode: port.Mode{Baud: 115200}})
	if err != nil {
		t.Fatal(err)
	}
	if do == nil {
		do = &grbl.Opts{PollInterval: 10 * time.Millisecond, SetLaserMode: true}
	}
	if do.Now == nil {
		// A clock that stands still: no link-fault timeout can fire
		// however slowly the machine runs the test.
		do.Now = newClock().Now
	}
	if do.ResetTimeout == 0 {
		do.ResetTimeout = testtime.Scale(3 * time.Second)
	}
	d, err := grbl.New(context.Background(), p, do)
	if err != nil {
		p.Close()
		t.Fatalf("New: %v", err)
	}
	t.Cleanup(func() { d.Close() })
	return sim, d
}

// grid is a job of n short horizontal strokes.
func grid(n int) engravers.Job {
	j := engravers.Job{Name: "test grid", Power: 0.4, Speed: 1200}
	for i := range n {
		y := float64(i) * 0.1
		j.Paths = append(j.Paths, engravers.Path{{X: 0, Y: y}, {X: 12.5, Y: y}, {X: 12.5, Y: y + 0.05}})
	}
	return j
}

func TestEngrave(t *testing.T) {
	t.Parallel()
	sim, d := start(t, &grblsim.Opts{BlockTime: 200 * time.Microsecond}, nil)
	if got := d.String(); !strings.HasPrefix(got, "grbl 1.1h{") {
		t.Errorf("String() = %q, want grbl 1.1h{…}", got)
	}
	j := grid(60)
	want, err := grbl.Program(j, 1000)
	if err != nil {
		t.Fatal(err)
	}
	var last engravers.Progress
	calls := 0
	if err := d.Engrave(context.Background(), j, func(p engravers.Progress) { last = p; calls++ }); err != nil {
		t.Fatalf("Engrave: %v", err)
	}
	if last.Done != len(want) || last.Total != len(want) || calls < len(want) || last.Held {
		t.Errorf("last progress %+v after %d calls, want %d of %d", last, calls, len(want), len(want))
	}
	if n := sim.Dropped(); n != 0 {
		t.Errorf("controller dropped %d bytes: the receive buffer overflowed", n)
	}
	if p := sim.Peak(); p > 127 {
		t.Errorf("receive buffer peaked at %d bytes, want ≤ 127", p)
	}
	got := sim.Lines()
	if len(got) != len(want)+2 || got[0] != "$$" || got[1] != "$32=1" || strings.Join(got[2:], "\n") != strings.Join(want, "\n") {
		t.Errorf("controller took %d lines %q…, want $$, $32=1 (allowed by SetLaserMode), then the %d program lines", len(got), got[:min(4, len(got))], len(want))
	}
	l := sim.Laser()
	if l.On() || !l.Mode32 || l.Fired == 0 || l.RapidFired != 0 {
		t.Errorf("laser after job = %+v, want off, laser mode on, fired > 0, no fired travel", l)
	}
	st, err := d.Status(context.Background())
	if err != nil || st.State != "Idle" || st.LaserOn || st.Busy {
		t.Errorf("Status() = %+v, %v, want Idle, laser off", st, err)
	}
	// A second job does not set $32 again.
	if err := d.Engrave(context.Background(), grid(2), nil); err != nil {
		t.Fatalf("second Engrave: %v", err)
	}
	if n := strings.Count(strings.Join(sim.Lines(), "\n"), "$32=1"); n != 1 {
		t.Errorf("$32=1 sent %d times, want once", n)
	}
}

// TestSimDetectsOverflow: a streamer that ignores the counting rule
// loses bytes, and the simulator sees it; so the zero in TestEngrave is
// meaningful.
func TestSimDetectsOverflow(t *testing.T) {
	t.Parallel()
	sim, err := grblsim.Start(&grblsim.Opts{BlockTime: time.Millisecond, LaserMode: true})
	if err != nil {
		t.Fatal(err)
	}
	defer sim.Close()
	tty, err := os.OpenFile(sim.TTY(), os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer tty.Close()
	go io.Copy(io.Discard, tty)
	lines, err := grbl.Program(grid(40), 1000)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.WriteString(tty, strings.Join(lines, "\n")+"\n"); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(testtime.Scale(3 * time.Second))
	for sim.Dropped() == 0 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if sim.Dropped() == 0 {
		t.Fatalf("naive streamer of %d lines: simulator dropped nothing, want an overflow", len(lines))
	}
}

func TestAbortMidJob(t *testing.T) {
	t.Parallel()
	sim, d := start(t, &grblsim.Opts{BlockTime: 2 * time.Millisecond}, nil)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	err := d.Engrave(ctx, grid(100), func(p engravers.Progress) {
		if p.Done == 40 {
			cancel()
		}
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Engrave cancelled mid-job = %v, want context.Canceled", err)
	}
	l := sim.Laser()
	if l.On() {
		t.Errorf("laser after abort = %+v, want off", l)
	}
	if sim.Resets() != 2 {
		t.Errorf("controller saw %d soft resets, want 2 (connect, abort)", sim.Resets())
	}
	if n := sim.Pending(); n != 0 {
		t.Errorf("%d blocks still planned after abort, want 0", n)
	}
	fired := l.Fired
	time.Sleep(20 * time.Millisecond)
	if l2 := sim.Laser(); l2.Fired != fired {
		t.Errorf("laser fired %d more blocks after the abort", l2.Fired-fired)
	}
	// Feed hold before the reset kept the position: no alarm, and the
	// next job runs.
	if st := sim.State(); st != "Idle" {
		t.Errorf("state after abort = %s, want Idle", st)
	}
	if err := d.Engrave(context.Background(), grid(3), nil); err != nil {
		t.Errorf("Engrave after abort = %v", err)
	}
}

func TestErrorMidJob(t *testing.T) {
	t.Parallel()
	var n atomic.Int32
	fail := func(line string) int {
		if strings.HasPrefix(line, "G1") && n.Add(1) == 25 {
			return 33 // motion target invalid
		}
		return 0
	}
	sim, d := start(t, &grblsim.Opts{BlockTime: time.Millisecond, Fail: fail}, nil)
	err := d.Engrave(context.Background(), grid(50), nil)
	var ge *grbl.Error
	if !errors.As(err, &ge) || ge.Code != 33 || !strings.HasPrefix(ge.Text, "G1") || ge.Line < 25 {
		t.Fatalf("Engrave with error:33 on the 25th G1 = %v, want *grbl.Error code 33 on that line", err)
	}
	if l := sim.Laser(); l.On() {
		t.Errorf("laser after a failed job = %+v, want off", l)
	}
}

func TestAlarmMidJob(t *testing.T) {
	t.Parallel()
	sim, d := start(t, &grblsim.Opts{BlockTime: 2 * time.Millisecond}, nil)
	err := d.Engrave(context.Background(), grid(100), func(p engravers.Progress) {
		if p.Done == 30 {
			sim.Alarm(1) // hard limit
		}
	})
	var a grbl.Alarm
	if !errors.Is(err, engravers.ErrAlarm) || !errors.As(err, &a) || a != 1 {
		t.Fatalf("Engrave with a hard limit = %v, want ALARM:1", err)
	}
	if l := sim.Laser(); l.On() {
		t.Errorf("laser after alarm = %+v, want off", l)
	}
	if err := d.Engrave(context.Background(), grid(2), nil); !errors.Is(err, engravers.ErrAlarm) {
		t.Errorf("Engrave while in alarm = %v, want ErrAlarm", err)
	}
	st, err := d.Status(context.Background())
	if err != nil || !st.Alarm {
		t.Errorf("Status() = %+v, %v, want Alarm", st, err)
	}
	if err := d.Unlock(context.Background()); err != nil {
		t.Fatalf("Unlock: %v", err)
	}
	if err := d.Engrave(context.Background(), grid(2), nil); err != nil {
		t.Errorf("Engrave after unlock = %v", err)
	}
}

// TestAlarmThenLockedOut: a limit switch trips while lines are in
// flight; grbl reports ALARM:1 and answers error:9 to the next line. The
// job's error is the alarm every time (with the error:9 after it when
// that was read first): the two replies arrive together, and taking
// them in random order made the error:9 hide the alarm in one run of
// two.
func TestAlarmThenLockedOut(t *testing.T) {
	t.Parallel()
	for i := range 20 {
		var n atomic.Int32
		alarm := func(line string) int {
			if strings.HasPrefix(line, "G1") && n.Add(1) == 20 {
				return 1 // hard limit
			}
			return 0
		}
		_, d := start(t, &grblsim.Opts{AlarmAt: alarm}, nil)
		err := d.Engrave(context.Background(), grid(40), nil)
		var a grbl.Alarm
		if !errors.As(err, &a) || a != 1 || !errors.Is(err, engravers.ErrAlarm) {
			t.Fatalf("run %d: Engrave with a hard limit at the 20th G1 = %v, want ALARM:1", i, err)
		}
	}
}

// TestPauseResume: a pause from the counter holds the job as long as
// it lasts (ten minutes of the driver's clock, far past AckTimeout)
// without a link fault; resume finishes it.
func TestPauseResume(t *testing.T) {
	t.Parallel()
	c := newClock()
	sim, d := start(t, &grblsim.Opts{BlockTime: time.Millisecond},
		&grbl.Opts{PollInterval: 10 * time.Millisecond, AckTimeout: 5 * time.Minute, SetLaserMode: true, Now: c.Now})
	paused := make(chan struct{})
	errc := make(chan error, 1)
	go func() {
		once := false
		errc <- d.Engrave(context.Background(), grid(60), func(p engravers.Progress) {
			if p.Done == 20 && !once {
				once = true
				if err := d.Pause(context.Background()); err != nil {
					t.Error(err)
				}
				close(paused)
			}
		})
	}()
	<-paused
	waitFor(t, "Hold:0", func() bool {
		if err := d.Pause(context.Background()); err != nil {
			t.Error(err)
		}
		return sim.State() == "Hold:0"
	})
	// The planner may still fill while held (grbl takes lines in a
	// hold); nothing may execute.
	at := sim.Pos()
	fired := sim.Laser().Fired
	for range 10 {
		c.Add(time.Minute)
		reports(t, sim, 2)
	}
	select {
	case err := <-errc:
		t.Fatalf("Engrave during a ten-minute pause = %v, want it still held", err)
	default:
	}
	if sim.Pos() != at || sim.Laser().Fired != fired {
		t.Errorf("machine moved while held: %v→%v, %d→%d fired", at, sim.Pos(), fired, sim.Laser().Fired)
	}
	if err := d.Resume(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := <-errc; err != nil {
		t.Fatalf("Engrave after resume = %v", err)
	}
	if sim.Dropped() != 0 || sim.Laser().On() {
		t.Errorf("after job: dropped %d, laser %+v", sim.Dropped(), sim.Laser())
	}
}

// TestMachineHoldAndDoor: a feed hold from the machine's button and then
// the safety door are pauses the counter sees (Progress.Held, the state
// Hold:0, Door:1, Door:0), lasting minutes past AckTimeout; ~ resumes
// and the job ends done, never a link fault.
func TestMachineHoldAndDoor(t *testing.T) {
	t.Parallel()
	c := newClock()
	sim, d := start(t, &grblsim.Opts{BlockTime: time.Millisecond, LaserMode: true},
		&grbl.Opts{PollInterval: 10 * time.Millisecond, AckTimeout: 5 * time.Minute, Now: c.Now})
	var mu sync.Mutex
	states := map[string]bool{}
	var held atomic.Bool
	hold := make(chan struct{})
	errc := make(chan error, 1)
	go func() {
		once := false
		errc <- d.Engrave(context.Background(), grid(80), func(p engravers.Progress) {
			mu.Lock()
			if p.Held {
				states[p.State] = true
			}
			mu.Unlock()
			held.Store(p.Held)
			if p.Done == 15 && !once {
				once = true
				close(hold)
			}
		})
	}()
	<-hold
	// The button is pressed until the machine holds: a hold only takes
	// while the planner has a block, which a starved test may lack.
	waitFor(t, "Hold:0", func() bool { sim.FeedHold(); return sim.State() == "Hold:0" })
	waitFor(t, "the driver to see the hold", held.Load)
	for range 8 {
		c.Add(time.Minute)
		reports(t, sim, 2)
	}
	sim.Door(true)
	waitFor(t, "Door:1", func() bool { mu.Lock(); defer mu.Unlock(); return states["Door:1"] })
	for range 8 {
		c.Add(time.Minute)
		reports(t, sim, 2)
	}
	if l := sim.Laser(); l.On() {
		t.Errorf("laser with the door open = %+v, want off", l)
	}
	if err := d.Resume(context.Background()); err != nil { // refused by grbl: the door is open
		t.Fatal(err)
	}
	reports(t, sim, 2)
	if st := sim.State(); st != "Door:1" {
		t.Errorf("after ~ with the door open: %s, want Door:1", st)
	}
	sim.Door(false)
	waitFor(t, "Door:0", func() bool { mu.Lock(); defer mu.Unlock(); return states["Door:0"] })
	select {
	case err := <-errc:
		t.Fatalf("Engrave during hold and door = %v, want it still held", err)
	default:
	}
	if err := d.Resume(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := <-errc; err != nil {
		t.Fatalf("Engrave after the door closed and ~ = %v", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if !states["Hold:0"] || !states["Door:1"] || !states["Door:0"] {
		t.Errorf("held states the counter saw = %v, want Hold:0, Door:1 and Door:0", states)
	}
}

func TestAckTimeout(t *testing.T) {
	t.Parallel()
	// One block takes an hour: the planner fills and the oks stop.
	c := newClock()
	sim, d := start(t, &grblsim.Opts{BlockTime: time.Hour, LaserMode: true},
		&grbl.Opts{PollInterval: 10 * time.Millisecond, AckTimeout: 30 * time.Second, Now: c.Now})
	errc := make(chan error, 1)
	go func() { errc <- d.Engrave(context.Background(), grid(30), nil) }()
	waitFor(t, "a full planner", func() bool { return sim.Pending() == 15 })
	if err := advance(t, c, sim, errc); !errors.Is(err, grbl.ErrAckTimeout) || errors.Is(err, engravers.ErrUnclear) {
		t.Fatalf("Engrave on a stuck controller = %v, want ErrAckTimeout", err)
	}
	if l := sim.Laser(); l.On() || sim.Pending() != 0 {
		t.Errorf("after timeout: laser %+v, %d blocks planned; want off, none", l, sim.Pending())
	}
}

// TestGarbledLastReply: the ok of the last line arrives garbled; the
// machine is Idle at the program's end, so the tag is done (a failure
// here would mean a second engraving of the same number).
func TestGarbledLastReply(t *testing.T) {
	t.Parallel()
	j := grid(20)
	prog, err := grbl.Program(j, 1000)
	if err != nil {
		t.Fatal(err)
	}
	last := 1 + len(prog) // $$, then the program
	garble := func(n int, line, reply string) string {
		if n == last {
			return "o\x7fk"
		}
		return reply
	}
	_, d := start(t, &grblsim.Opts{BlockTime: 200 * time.Microsecond, LaserMode: true, Reply: garble}, nil)
	var p engravers.Progress
	if err := d.Engrave(context.Background(), j, func(q engravers.Progress) { p = q }); err != nil {
		t.Fatalf("Engrave with the last ok garbled = %v, want done", err)
	}
	if p.Done != len(prog)-1 || p.State != "Idle" {
		t.Errorf("last progress %+v, want %d of %d answered, Idle", p, len(prog)-1, len(prog))
	}
}

// TestUnclearEnd: the last ok is lost outright: every line was sent but
// the end cannot be confirmed, so the job says "check the tag"
// (engravers.ErrUnclear), not a link fault that invites a re-engrave.
func TestUnclearEnd(t *testing.T) {
	t.Parallel()
	j := grid(20)
	prog, err := grbl.Program(j, 1000)
	if err != nil {
		t.Fatal(err)
	}
	last := 1 + len(prog)
	lose := func(n int, line, reply string) string {
		if n == last {
			return ""
		}
		return reply
	}
	c := newClock()
	sim, d := start(t, &grblsim.Opts{BlockTime: 200 * time.Microsecond, LaserMode: true, Reply: lose},
		&grbl.Opts{PollInterval: 10 * time.Millisecond, AckTimeout: 30 * time.Second, Now: c.Now})
	errc := make(chan error, 1)
	go func() { errc <- d.Engrave(context.Background(), j, nil) }()
	waitFor(t, "the last line", func() bool { return len(sim.Lines()) == last && sim.State() == "Idle" })
	if err := advance(t, c, sim, errc); !errors.Is(err, engravers.ErrUnclear) {
		t.Fatalf("Engrave with the last ok lost = %v, want ErrUnclear", err)
	}
	if l := sim.Laser(); l.On() {
		t.Errorf("laser = %+v, want off", l)
	}
}

// TestLaserModeAsked: a controller with $32=0 gets nothing written
// unless the operator allowed it (SetLaserMode); the job says which
// setting and how to allow it.
func TestLaserModeAsked(t *testing.T) {
	t.Parallel()
	sim, d := start(t, &grblsim.Opts{BlockTime: 200 * time.Microsecond}, &grbl.Opts{PollInterval: 10 * time.Millisecond})
	err := d.Engrave(context.Background(), grid(3), nil)
	if !errors.Is(err, engravers.ErrSettings) || !strings.Contains(err.Error(), "$32") {
		t.Fatalf("Engrave with $32=0 = %v, want ErrSettings naming $32", err)
	}
	if got := sim.Lines(); len(got) != 1 || got[0] != "$$" || sim.Setting(32) != "0" {
		t.Errorf("controller took %q, $32=%s; want only $$ (a read), $32 still 0", got, sim.Setting(32))
	}
	sim2, d2 := start(t, &grblsim.Opts{BlockTime: 200 * time.Microsecond}, nil) // SetLaserMode
	if err := d2.Engrave(context.Background(), grid(3), nil); err != nil {
		t.Fatal(err)
	}
	if sim2.Setting(32) != "1" {
		t.Errorf("$32 = %s with SetLaserMode, want 1", sim2.Setting(32))
	}
}

// TestStation: the station controls on a controller with homing, as
// after power-up: locked, home, jog to the blank, set the origin there,
// frame with the laser off, estimate, engrave at the new origin, and an
// override seen in the status.
func TestStation(t *testing.T) {
	t.Parallel()
	sim, d := start(t, &grblsim.Opts{BlockTime: 200 * time.Microsecond, LaserMode: true, Homing: true, HomeTime: time.Millisecond}, nil)
	ctx := context.Background()
	var st engravers.Station = d
	if err := st.Engrave(ctx, grid(2), nil); !errors.Is(err, engravers.ErrAlarm) {
		t.Fatalf("Engrave before homing = %v, want ErrAlarm", err)
	}
	if err := st.Home(ctx); err != nil {
		t.Fatalf("Home: %v", err)
	}
	if err := st.Jog(ctx, 10, 5, 1000); err != nil {
		t.Fatalf("Jog: %v", err)
	}
	waitFor(t, "the jog to end", func() bool { return sim.State() == "Idle" && sim.Pos() == [3]float64{10, 5, 0} })
	if err := st.Jog(ctx, 1, 0, 0); !errors.Is(err, engravers.ErrJob) {
		t.Errorf("Jog at feed 0 = %v, want ErrJob", err)
	}
	if err := st.SetOrigin(ctx); err != nil {
		t.Fatalf("SetOrigin: %v", err)
	}
	if w := sim.WCO(); w != [3]float64{10, 5, 0} {
		t.Errorf("WCO after SetOrigin = %v, want the jogged position", w)
	}
	j := grid(4)
	fired := sim.Laser().Fired
	if err := st.Frame(ctx, j); err != nil {
		t.Fatalf("Frame: %v", err)
	}
	if l := sim.Laser(); l.Fired != fired {
		t.Errorf("frame fired the laser %d times, want 0", l.Fired-fired)
	}
	est, err := st.Estimate(ctx, j)
	if err != nil || est != j.Estimate(500) || est <= 0 {
		t.Errorf("Estimate = %v, %v, want %v (rapid $110 = 500 mm/min)", est, err, j.Estimate(500))
	}
	if err := st.Engrave(ctx, j, nil); err != nil {
		t.Fatalf("Engrave after homing: %v", err)
	}
	s, err := st.Status(ctx)
	if err != nil || s.Pos != (engravers.Point{}) || sim.Pos() != [3]float64{10, 5, 0} {
		t.Errorf("after the job: status %+v, %v, machine at %v; want work 0,0 = machine 10,5", s, err, sim.Pos())
	}
	if err := st.Override(ctx, engravers.PowerMinus10); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Status(ctx); err != nil || sim.Overrides()[2] != 90 {
		t.Errorf("power override after -10 %% = %d, want 90", sim.Overrides()[2])
	}
	if err := st.Override(ctx, "feed+1000"); err == nil {
		t.Error("Override(feed+1000) = nil, want an error")
	}
	if err := st.Abort(ctx); err != nil {
		t.Errorf("Abort with no job: %v", err)
	}
}

// TestSettingsSentAlone: $ lines in a stream go one at a time, each
// after every earlier line is answered.
func TestSettingsSentAlone(t *testing.T) {
	t.Parallel()
	sim, d := start(t, &grblsim.Opts{BlockTime: 200 * time.Microsecond, LaserMode: true}, nil)
	lines := []string{"G21 G90", "$30=1000", "G0 X1 Y1", "M4 S10", "G1 X2 F900", "G1 X3", "$31=0", "G1 X4", "M5 S0", "G0 X0 Y0"}
	if err := d.Stream(context.Background(), lines, nil); err != nil {
		t.Fatalf("Stream: %v", err)
	}
	if n := sim.SyncBroken(); n != 0 {
		t.Errorf("%d $ lines had bytes queued behind them, want 0", n)
	}
	// The simulator does notice when a setting is streamed.
	sim2, err := grblsim.Start(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer sim2.Close()
	tty, err := os.OpenFile(sim2.TTY(), os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer tty.Close()
	go io.Copy(io.Discard, tty)
	io.WriteString(tty, "$30=1000\nG4 P0\n")
	deadline := time.Now().Add(testtime.Scale(2 * time.Second))
	for sim2.SyncBroken() == 0 && time.Now().Before(deadline) {
		time.Sleep(2 * time.Millisecond)
	}
	if sim2.SyncBroken() != 1 {
		t.Errorf("streamed setting: SyncBroken() = %d, want 1", sim2.SyncBroken())
	}
}

func TestBusyAndBadLines(t *testing.T) {
	t.Parallel()
	_, d := start(t, &grblsim.Opts{BlockTime: time.Millisecond}, nil)
	if err := d.Stream(context.Background(), []string{"G1 X1 F100", "G1 X2?"}, nil); !errors.Is(err, grbl.ErrLine) {
		t.Errorf("Stream with a real-time byte in a line = %v, want ErrLine", err)
	}
	var ge *grbl.Error
	if err := d.Command(context.Background(), "$99999=1"); !errors.As(err, &ge) || ge.Code != 3 {
		t.Errorf("Command($99999=1) = %v, want error:3", err)
	}
	if err := d.Command(context.Background(), "$30=1000"); err != nil {
		t.Errorf("Command($30=1000) = %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	started := make(chan struct{})
	errc := make(chan error, 1)
	go func() {
		errc <- d.Engrave(ctx, grid(200), func(p engravers.Progress) {
			if p.Done == 1 {
				close(started)
			}
		})
	}()
	<-started
	if err := d.Engrave(context.Background(), grid(1), nil); !errors.Is(err, engravers.ErrBusy) {
		t.Errorf("Engrave during a job = %v, want ErrBusy", err)
	}
	cancel()
	if err := <-errc; !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled job = %v", err)
	}
}

// TestHangupMidJob: the cable is pulled during a job; Engrave returns
// at once with a hang-up rather than waiting for replies.
func TestHangupMidJob(t *testing.T) {
	t.Parallel()
	sim, d := start(t, &grblsim.Opts{BlockTime: 2 * time.Millisecond}, nil)
	err := d.Engrave(context.Background(), grid(100), func(p engravers.Progress) {
		if p.Done == 20 {
			sim.Close()
		}
	})
	if !errors.Is(err, port.ErrHangup) {
		t.Errorf("Engrave with the line gone = %v, want ErrHangup", err)
	}
}

func TestNoController(t *testing.T) {
	t.Parallel()
	m, tty, err := pty.Open()
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	defer tty.Close()
	go io.Copy(io.Discard, m) // a terminal nobody answers on
	p, err := serialport.Open(tty.Name(), &serialport.Opts{Mode: port.Mode{Baud: 115200}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := grbl.New(context.Background(), p, &grbl.Opts{ResetTimeout: testtime.Scale(100 * time.Millisecond)}); !errors.Is(err, grbl.ErrNoWelcome) {
		t.Errorf("New on a silent line = %v, want ErrNoWelcome", err)
	}
	// The reset waits no longer than the caller's context.
	p, err = serialport.Open(tty.Name(), &serialport.Opts{Mode: port.Mode{Baud: 115200}})
	if err != nil {
		t.Fatal(err)
	}
	cctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := grbl.New(cctx, p, &grbl.Opts{ResetTimeout: time.Hour}); !errors.Is(err, context.Canceled) {
		t.Errorf("New with a cancelled context = %v, want context.Canceled", err)
	}
}

// BenchmarkStream measures streaming throughput through a pty with a
// controller that executes blocks at once; reported as lines/s.
func BenchmarkStream(b *testing.B) {
	_, d := start(b, &grblsim.Opts{}, nil)
	lines, err := grbl.Program(grid(200), 1000)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	start := time.Now()
	n := 0
	for b.Loop() {
		if err := d.Stream(context.Background(), lines, nil); err != nil {
			b.Fatal(err)
		}
		n += len(lines)
	}
	b.ReportMetric(float64(n)/time.Since(start).Seconds(), "lines/s")
}

func ExampleProgram() {
	lines, err := grbl.Program(engravers.Job{Paths: []engravers.Path{{{X: 0, Y: 0}, {X: 5, Y: 0}}}, Power: 0.5, Speed: 300}, 1000)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(strings.Join(lines, "\n"))
	// Output:
	// G21 G90 G94 F300
	// M5 S0
	// M4 S500
	// G0 X0 Y0
	// G1 X5 Y0 F300
	// M5 S0
	// G0 X0 Y0
}
