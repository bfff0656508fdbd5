//go:build unix

package grbl_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/creack/pty"

	"github.com/chipdesk/chipdesk/drivers/engravers"
	"github.com/chipdesk/chipdesk/drivers/engravers/grbl"
	"github.com/chipdesk/chipdesk/drivers/port"
	"github.com/chipdesk/chipdesk/drivers/port/serialport"
	"github.com/chipdesk/chipdesk/firmware-tools/sim/grblsim"
)

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
		do = &grbl.Opts{PollInterval: 20 * time.Millisecond, AckTimeout: 5 * time.Second}
	}
	d, err := grbl.New(p, do)
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
	if last != (engravers.Progress{Done: len(want), Total: len(want)}) || calls != len(want) {
		t.Errorf("last progress %+v after %d calls, want %d of %d", last, calls, len(want), len(want))
	}
	if n := sim.Dropped(); n != 0 {
		t.Errorf("controller dropped %d bytes: the receive buffer overflowed", n)
	}
	if p := sim.Peak(); p > 127 {
		t.Errorf("receive buffer peaked at %d bytes, want ≤ 127", p)
	}
	got := sim.Lines()
	if len(got) != len(want)+1 || got[0] != "$32=1" || strings.Join(got[1:], "\n") != strings.Join(want, "\n") {
		t.Errorf("controller took %d lines %q…, want $32=1 then the %d program lines", len(got), got[:min(4, len(got))], len(want))
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
	deadline := time.Now().Add(3 * time.Second)
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

func TestPauseResume(t *testing.T) {
	t.Parallel()
	sim, d := start(t, &grblsim.Opts{BlockTime: time.Millisecond}, &grbl.Opts{PollInterval: 10 * time.Millisecond, AckTimeout: 100 * time.Millisecond})
	paused := make(chan struct{})
	resume := make(chan struct{})
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
	time.Sleep(30 * time.Millisecond)
	if st := sim.State(); st != "Hold:0" {
		t.Errorf("state while paused = %s, want Hold:0", st)
	}
	n := sim.Pending()
	fired := sim.Laser().Fired
	// Longer than AckTimeout: a pause is not a link fault.
	time.Sleep(150 * time.Millisecond)
	if sim.Pending() != n || sim.Laser().Fired != fired {
		t.Errorf("machine moved while held: %d→%d blocks, %d→%d fired", n, sim.Pending(), fired, sim.Laser().Fired)
	}
	go func() { <-resume }()
	close(resume)
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

func TestAckTimeout(t *testing.T) {
	t.Parallel()
	// One block takes an hour: the planner fills and the oks stop.
	sim, d := start(t, &grblsim.Opts{BlockTime: time.Hour},
		&grbl.Opts{PollInterval: 10 * time.Millisecond, AckTimeout: 150 * time.Millisecond, ResetTimeout: time.Second})
	err := d.Engrave(context.Background(), grid(30), nil)
	if !errors.Is(err, grbl.ErrAckTimeout) {
		t.Fatalf("Engrave on a stuck controller = %v, want ErrAckTimeout", err)
	}
	if l := sim.Laser(); l.On() || sim.Pending() != 0 {
		t.Errorf("after timeout: laser %+v, %d blocks planned; want off, none", l, sim.Pending())
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
	deadline := time.Now().Add(2 * time.Second)
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
	if _, err := grbl.New(p, &grbl.Opts{ResetTimeout: 100 * time.Millisecond}); !errors.Is(err, grbl.ErrNoWelcome) {
		t.Errorf("New on a silent line = %v, want ErrNoWelcome", err)
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
	// G21 G90
	// M5 S0
	// M4 S500
	// G0 X0 Y0
	// G1 X5 Y0 F300
	// M5 S0
	// G0 X0 Y0
}
