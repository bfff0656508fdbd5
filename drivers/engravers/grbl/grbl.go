package grbl

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/chipdesk/chipdesk/drivers/engravers"
	"github.com/chipdesk/chipdesk/drivers/port"
)

// Real-time commands (interface.md, "Real-time Commands"): single bytes,
// acted on at receipt, never buffered or answered with ok.
const (
	StatusQuery byte = '?'
	FeedHold    byte = '!'
	CycleStart  byte = '~'
	SoftReset   byte = 0x18
	SafetyDoor  byte = 0x84
	JogCancel   byte = 0x85
)

// Override bytes (interface.md, "Real-time Commands", 0x90-0x9D): feed
// and spindle (in laser mode: laser power) in 10 % and 1 % steps within
// 10-200 %, and back to 100 %.
var overrideBytes = map[engravers.Override]byte{
	engravers.Feed100: 0x90, engravers.FeedPlus10: 0x91, engravers.FeedMinus10: 0x92,
	engravers.FeedPlus1: 0x93, engravers.FeedMinus1: 0x94,
	engravers.Power100: 0x99, engravers.PowerPlus10: 0x9A, engravers.PowerMinus10: 0x9B,
	engravers.PowerPlus1: 0x9C, engravers.PowerMinus1: 0x9D,
}

// Errors of the driver.
var (
	ErrNoWelcome  = errors.New("grbl: no welcome banner")
	ErrAckTimeout = errors.New("grbl: no reply to a line in time (link fault)")
	ErrLine       = errors.New("grbl: line cannot be streamed")
	ErrNoStatus   = errors.New("grbl: no status report")
)

// Opts configures a Dev.
type Opts struct {
	// RXBuffer is the receive buffer the streamer may fill; 0 means 127.
	RXBuffer int
	// MaxS is the S value of full laser power ($30); 0 means 1000.
	MaxS int
	// AckTimeout is the longest wait for a reply to a line (or, at the
	// end of a job, for the machine to move on) before the link counts as
	// broken; 0 means 30 s. It does not run while paused.
	AckTimeout time.Duration
	// ResetTimeout bounds the wait for the welcome banner and for a
	// status report; 0 means 3 s.
	ResetTimeout time.Duration
	// PollInterval is the status poll period during a job; 0 means
	// 200 ms (grbl's authors advise at most 5 Hz).
	PollInterval time.Duration
	// SetLaserMode allows the driver to write $32=1 when the controller
	// has laser mode off. It is the operator's explicit choice (device
	// option laser_mode=set): $32 lives in the controller's EEPROM and
	// changes how every program on it runs. Without it a job on a
	// controller with $32=0 fails with engravers.ErrSettings before
	// anything is written.
	SetLaserMode bool
	// HomeTimeout bounds a homing cycle ($H); 0 means 2 minutes.
	HomeTimeout time.Duration
	// FeedFrame is the feed of Frame in mm/min; 0 means 3000.
	FeedFrame float64
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// DefaultOpts are the options used when nil is passed.
var DefaultOpts = Opts{RXBuffer: 127, MaxS: 1000, AckTimeout: 30 * time.Second,
	ResetTimeout: 3 * time.Second, PollInterval: 200 * time.Millisecond, HomeTimeout: 2 * time.Minute,
	FeedFrame: 3000, Now: time.Now}

// Dev is a GRBL controller on a port.
type Dev struct {
	p    port.Port
	opts Opts

	wmu      sync.Mutex // one writer at a time
	job      sync.Mutex // one job or command at a time
	acks     chan Reply // ok and error:N, in order
	dead     chan struct{}
	alarm    chan int    // ALARM:N as it arrives
	settings chan string // $n=value lines, in order

	mu        sync.Mutex
	last      StatusReport
	reportCh  chan struct{} // closed at the next status report
	welcomeCh chan struct{} // closed at the next welcome banner
	version   string
	paused    bool
	resumed   time.Time
	laserMode bool
	wco       []float64 // last WCO: reported (work = machine - WCO)
	garbled   int       // lines that were not a reply grbl sends
	cancelJob context.CancelFunc
	err       error // why the reader stopped
}

var _ engravers.Engraver = (*Dev)(nil)

// New returns the controller on p. It soft-resets the controller (the
// laser goes off) and waits for the welcome banner, at most
// Opts.ResetTimeout and no longer than ctx allows.
func New(ctx context.Context, p port.Port, o *Opts) (*Dev, error) {
	if o == nil {
		o = &DefaultOpts
	}
	d := &Dev{p: p, opts: *o, acks: make(chan Reply, 1024), dead: make(chan struct{}),
		alarm: make(chan int, 16), settings: make(chan string, 256), reportCh: make(chan struct{}), welcomeCh: make(chan struct{})}
	def := DefaultOpts
	if d.opts.RXBuffer <= 0 {
		d.opts.RXBuffer = def.RXBuffer
	}
	if d.opts.MaxS <= 0 {
		d.opts.MaxS = def.MaxS
	}
	if d.opts.AckTimeout <= 0 {
		d.opts.AckTimeout = def.AckTimeout
	}
	if d.opts.ResetTimeout <= 0 {
		d.opts.ResetTimeout = def.ResetTimeout
	}
	if d.opts.PollInterval <= 0 {
		d.opts.PollInterval = def.PollInterval
	}
	if d.opts.HomeTimeout <= 0 {
		d.opts.HomeTimeout = def.HomeTimeout
	}
	if d.opts.FeedFrame <= 0 {
		d.opts.FeedFrame = def.FeedFrame
	}
	if d.opts.Now == nil {
		d.opts.Now = time.Now
	}
	if t, ok := p.(port.Timeouter); ok {
		if err := t.SetReadTimeout(100 * time.Millisecond); err != nil {
			return nil, fmt.Errorf("grbl: %w", err)
		}
	}
	go d.read()
	if err := d.reset(ctx); err != nil {
		p.Close()
		<-d.dead
		return nil, err
	}
	return d, nil
}

// String names the controller and its port.
func (d *Dev) String() string {
	d.mu.Lock()
	v := d.version
	d.mu.Unlock()
	return "grbl " + v + "{" + d.p.String() + "}"
}

// Close closes the port. A running job sees a hung-up link.
func (d *Dev) Close() error {
	err := d.p.Close()
	<-d.dead
	if err != nil {
		return fmt.Errorf("grbl: %w", err)
	}
	return nil
}

// read is the one reader of the port: it sorts the lines into acks,
// alarms, status reports and welcomes.
func (d *Dev) read() {
	defer close(d.dead)
	buf := make([]byte, 512)
	var line []byte
	for {
		n, err := d.p.Read(buf)
		for _, c := range buf[:n] {
			if c != '\n' {
				line = append(line, c)
				continue
			}
			d.dispatch(string(bytes.TrimRight(line, "\r")))
			line = line[:0]
		}
		if err != nil && !errors.Is(err, port.ErrTimeout) {
			d.mu.Lock()
			d.err = err
			d.mu.Unlock()
			return
		}
	}
}

func (d *Dev) dispatch(line string) {
	if line == "" {
		return
	}
	r, err := ParseReply(line)
	if err != nil {
		// Noise, or a reply garbled on the line: counted, so the end
		// of a job can tell a lost ok from a missing one.
		d.mu.Lock()
		d.garbled++
		d.mu.Unlock()
		return
	}
	switch r.Kind {
	case KindOK, KindError:
		select {
		case d.acks <- r:
		default: // more replies than lines sent: cannot be ours
		}
	case KindAlarm:
		select {
		case d.alarm <- r.Code:
		default:
		}
	case KindSetting:
		select {
		case d.settings <- r.Text:
		default:
		}
	case KindStatus:
		d.mu.Lock()
		d.last = r.Status
		if r.Status.WCO != nil {
			d.wco = r.Status.WCO
		}
		close(d.reportCh)
		d.reportCh = make(chan struct{})
		d.mu.Unlock()
	case KindWelcome:
		d.mu.Lock()
		d.version = r.Text
		close(d.welcomeCh)
		d.welcomeCh = make(chan struct{})
		d.mu.Unlock()
	}
}

func (d *Dev) write(b []byte) error {
	d.wmu.Lock()
	defer d.wmu.Unlock()
	if _, err := d.p.Write(b); err != nil {
		return fmt.Errorf("grbl: %w", err)
	}
	return nil
}

func (d *Dev) linkErr() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	return fmt.Errorf("grbl: %s: link lost: %w", d.p, d.err)
}

// reset soft-resets the controller and waits for the banner; stale
// replies are dropped.
func (d *Dev) reset(ctx context.Context) error {
	d.mu.Lock()
	w := d.welcomeCh
	d.paused = false
	d.mu.Unlock()
	if err := d.write([]byte{SoftReset}); err != nil {
		return err
	}
	t := time.NewTimer(d.opts.ResetTimeout)
	defer t.Stop()
	select {
	case <-w:
	case <-t.C:
		return fmt.Errorf("%w from %s after %v", ErrNoWelcome, d.p, d.opts.ResetTimeout)
	case <-d.dead:
		return d.linkErr()
	case <-ctx.Done():
		return fmt.Errorf("grbl: reset: %w", ctx.Err())
	}
	for {
		select {
		case <-d.acks:
		default:
			return nil
		}
	}
}

// report asks for a status report and waits for it.
func (d *Dev) report(ctx context.Context) (StatusReport, error) {
	d.mu.Lock()
	ch := d.reportCh
	d.mu.Unlock()
	if err := d.write([]byte{StatusQuery}); err != nil {
		return StatusReport{}, err
	}
	t := time.NewTimer(d.opts.ResetTimeout)
	defer t.Stop()
	select {
	case <-ch:
	case <-t.C:
		return StatusReport{}, fmt.Errorf("%w from %s", ErrNoStatus, d.p)
	case <-d.dead:
		return StatusReport{}, d.linkErr()
	case <-ctx.Done():
		return StatusReport{}, fmt.Errorf("grbl: status: %w", ctx.Err())
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.last, nil
}

// Report returns a fresh status report.
func (d *Dev) Report(ctx context.Context) (StatusReport, error) { return d.report(ctx) }

// Status implements engravers.Engraver.
func (d *Dev) Status(ctx context.Context) (engravers.Status, error) {
	r, err := d.report(ctx)
	if err != nil {
		return engravers.Status{}, err
	}
	return d.toStatus(r), nil
}

// workPos is the work position of a report: WPos as sent, or MPos less
// the last WCO grbl reported (interface.md: WPos = MPos - WCO).
func (d *Dev) workPos(r StatusReport) engravers.Point {
	if len(r.Pos) < 2 {
		return engravers.Point{}
	}
	p := engravers.Point{X: r.Pos[0], Y: r.Pos[1]}
	if r.Work {
		return p
	}
	d.mu.Lock()
	wco := d.wco
	d.mu.Unlock()
	if len(wco) >= 2 {
		p.X -= wco[0]
		p.Y -= wco[1]
	}
	return p
}

func (d *Dev) toStatus(r StatusReport) engravers.Status {
	st := engravers.Status{State: stateName(r), Alarm: r.State == "Alarm", Pos: d.workPos(r)}
	switch r.State {
	case "Run", "Hold", "Jog", "Home", "Door":
		st.Busy = true
	}
	st.LaserOn = r.HasAcc && strings.ContainsAny(r.Acc, "SC")
	return st
}

// stateName is the state as grbl writes it, with its sub-state.
func stateName(r StatusReport) string {
	if r.Sub >= 0 {
		return fmt.Sprintf("%s:%d", r.State, r.Sub)
	}
	return r.State
}

// held reports whether the machine holds a job: a feed hold or the
// safety door. The job waits for cycle start (~) or an abort.
func held(r StatusReport) bool { return r.State == "Hold" || r.State == "Door" }

// Pause holds the feed (real-time !). In laser mode the laser stops
// with the motion.
func (d *Dev) Pause(ctx context.Context) error {
	if err := d.write([]byte{FeedHold}); err != nil {
		return err
	}
	d.mu.Lock()
	d.paused = true
	d.mu.Unlock()
	return nil
}

// Resume continues after a hold, whether Pause or the machine's own
// button made it, or after the safety door was closed (real-time ~).
func (d *Dev) Resume(ctx context.Context) error {
	if err := d.write([]byte{CycleStart}); err != nil {
		return err
	}
	d.mu.Lock()
	d.paused = false
	d.resumed = d.opts.Now()
	d.mu.Unlock()
	return nil
}

// Unlock clears an alarm lock ($X).
func (d *Dev) Unlock(ctx context.Context) error { return d.Command(ctx, "$X") }

// Home runs the homing cycle ($H), which also clears an alarm; it waits
// up to Opts.HomeTimeout for the ok that ends the cycle. A controller
// without homing ($22=0) answers error:5.
func (d *Dev) Home(ctx context.Context) error {
	if !d.job.TryLock() {
		return fmt.Errorf("grbl: %s: %w", d, engravers.ErrBusy)
	}
	defer d.job.Unlock()
	return d.commandWithin(ctx, "$H", d.opts.HomeTimeout)
}

// Jog moves by dx, dy mm at feed mm/min ($J=G91 G21 ...): a jog runs in
// the Jog state with the laser off and leaves the parser's modes alone
// (commands.md, "$J=line"). JogCancel stops one.
func (d *Dev) Jog(ctx context.Context, dx, dy, feed float64) error {
	if !(feed > 0) || math.IsInf(feed, 0) || math.IsNaN(dx) || math.IsNaN(dy) || math.Abs(dx) > 1e4 || math.Abs(dy) > 1e4 {
		return fmt.Errorf("%w: jog %v, %v mm at %v mm/min", engravers.ErrJob, dx, dy, feed)
	}
	return d.Command(ctx, "$J=G91 G21 X"+coord(dx)+" Y"+coord(dy)+" F"+coord(feed))
}

// CancelJog stops a jog at once (real-time 0x85).
func (d *Dev) CancelJog(ctx context.Context) error { return d.write([]byte{JogCancel}) }

// originLine makes the current position X0 Y0 of the G54 work system.
// G10 L20 P1 rather than G92: the G54 offset is kept in EEPROM, so it
// survives the soft reset this driver sends on connect and on every
// abort (and a power cycle), while a G92 offset lives only in memory
// and would move the next job's tag off the blank (gnea/grbl
// commands.md; interface.md "EEPROM Issues" - hence sent alone).
const originLine = "G10 L20 P1 X0 Y0"

// SetOrigin makes the current position the job origin (see originLine).
func (d *Dev) SetOrigin(ctx context.Context) error { return d.Command(ctx, originLine) }

// Frame travels round the job's bounds once with the laser off (M5, at
// Opts.FeedFrame), so the operator sees where the tag will land before
// the first blank is marked; it ends back at the origin.
func (d *Dev) Frame(ctx context.Context, j engravers.Job) error {
	lines, err := FrameProgram(j, d.opts.FeedFrame)
	if err != nil {
		return err
	}
	return d.stream0(ctx, lines, nil, false)
}

// Estimate is the job's time at the controller's rapid rate (the lower
// of $110 and $111, X and Y maximum rate).
func (d *Dev) Estimate(ctx context.Context, j engravers.Job) (time.Duration, error) {
	st, err := d.Settings(ctx)
	if err != nil {
		return 0, err
	}
	rapid := math.Inf(1)
	for _, k := range []int{110, 111} {
		if v, err := strconv.ParseFloat(st[k], 64); err == nil && v > 0 {
			rapid = math.Min(rapid, v)
		}
	}
	if math.IsInf(rapid, 1) {
		rapid = j.Speed
	}
	return j.Estimate(rapid), nil
}

// Override sends a real-time feed or laser power override; grbl keeps
// it within 10-200 % and shows it in the status report (Ov:).
func (d *Dev) Override(ctx context.Context, o engravers.Override) error {
	b, ok := overrideBytes[o]
	if !ok {
		return fmt.Errorf("grbl: unknown override %q", o)
	}
	return d.write([]byte{b})
}

// Abort stops the running job as a cancelled context does (hold, soft
// reset: laser off); with no job running it holds and resets the
// machine.
func (d *Dev) Abort(ctx context.Context) error {
	d.mu.Lock()
	cancel := d.cancelJob
	d.mu.Unlock()
	if cancel != nil {
		cancel()
		return nil
	}
	if !d.job.TryLock() {
		return fmt.Errorf("grbl: %s: %w", d, engravers.ErrBusy)
	}
	defer d.job.Unlock()
	return d.abort(ctx)
}

// Settings reads the controller's settings ($$) as number to value.
func (d *Dev) Settings(ctx context.Context) (map[int]string, error) {
	if !d.job.TryLock() {
		return nil, fmt.Errorf("grbl: %s: %w", d, engravers.ErrBusy)
	}
	defer d.job.Unlock()
	return d.readSettings(ctx)
}

func (d *Dev) readSettings(ctx context.Context) (map[int]string, error) {
	for drained := false; !drained; {
		select {
		case <-d.settings:
		default:
			drained = true
		}
	}
	if err := d.command(ctx, "$$"); err != nil {
		return nil, err
	}
	// The reader queues the $n=value lines before the ok that ends
	// them, so they are all waiting now.
	out := map[int]string{}
	for {
		select {
		case t := <-d.settings:
			k, v, _ := strings.Cut(t, "=")
			if n, err := strconv.Atoi(k); err == nil {
				out[n] = strings.TrimSpace(v)
			}
		default:
			return out, nil
		}
	}
}

// Command sends one line (a $ setting or command, or a g-code block) and
// waits for its ok: the send-response mode settings need, since grbl
// writes EEPROM with interrupts off. An error:N reply returns *Error.
func (d *Dev) Command(ctx context.Context, line string) error {
	if err := checkLine(line, d.opts.RXBuffer); err != nil {
		return err
	}
	if !d.job.TryLock() {
		return fmt.Errorf("grbl: %s: %w", d, engravers.ErrBusy)
	}
	defer d.job.Unlock()
	return d.command(ctx, line)
}

func (d *Dev) command(ctx context.Context, line string) error {
	return d.commandWithin(ctx, line, d.opts.AckTimeout)
}

func (d *Dev) commandWithin(ctx context.Context, line string, timeout time.Duration) error {
	if err := d.write([]byte(line + "\n")); err != nil {
		return err
	}
	t := time.NewTimer(timeout)
	defer t.Stop()
	select {
	case r := <-d.acks:
		if r.Kind == KindError {
			return &Error{Code: r.Code, Text: line}
		}
		return nil
	case <-t.C:
		return fmt.Errorf("%w: %q", ErrAckTimeout, line)
	case <-d.dead:
		return d.linkErr()
	case <-ctx.Done():
		return fmt.Errorf("grbl: %q: %w", line, ctx.Err())
	}
}

// checkLine refuses what would break the stream: line ends, real-time
// bytes that grbl would act on inside the line, over-long lines.
func checkLine(l string, rx int) error {
	if len(l) > MaxLine || len(l)+1 > rx {
		return fmt.Errorf("%w: %q is longer than %d", ErrLine, l, min(MaxLine, rx-1))
	}
	for i := 0; i < len(l); i++ {
		c := l[i]
		if c == '\n' || c == '\r' || c == StatusQuery || c == FeedHold || c == CycleStart || c == SoftReset || c >= 0x80 {
			return fmt.Errorf("%w: %q holds byte %#x", ErrLine, l, c)
		}
	}
	return nil
}

// Engrave implements engravers.Engraver: it turns the job into g-code
// (Program) and streams it (Stream). progress counts lines acknowledged.
func (d *Dev) Engrave(ctx context.Context, j engravers.Job, progress func(engravers.Progress)) error {
	lines, err := Program(j, d.opts.MaxS)
	if err != nil {
		return err
	}
	return d.Stream(ctx, lines, progress)
}

// Stream sends g-code lines by character counting and waits until the
// machine is idle at the program's end. Before the first job it checks
// laser mode ($32=1, read with $$) and writes it only when
// Opts.SetLaserMode allows. A failure of any kind (error:N, ALARM:N, no
// reply, cancelled context, Abort) aborts the job: feed hold, soft
// reset, wait for the banner; the laser is then off.
//
// A feed hold or an open safety door, from Pause or from the machine,
// holds the job as long as it lasts: progress reports it (Held) and no
// timeout runs while status reports keep saying so. Progress is judged
// from status reports as well as oks. When every line was sent and the
// machine reports Idle at the program's end position, the job is done
// even if an ok was lost to a garbled reply; an end that cannot be
// confirmed returns engravers.ErrUnclear (check the tag), never a plain
// failure that would invite a second engraving.
func (d *Dev) Stream(ctx context.Context, lines []string, progress func(engravers.Progress)) error {
	return d.stream0(ctx, lines, progress, true)
}

func (d *Dev) stream0(ctx context.Context, lines []string, progress func(engravers.Progress), laser bool) error {
	for _, l := range lines {
		if err := checkLine(l, d.opts.RXBuffer); err != nil {
			return err
		}
	}
	if !d.job.TryLock() {
		return fmt.Errorf("grbl: %s: %w", d, engravers.ErrBusy)
	}
	defer d.job.Unlock()
	for drained := false; !drained; {
		select {
		case <-d.alarm:
		default:
			drained = true
		}
	}
	r, err := d.report(ctx)
	if err != nil {
		return err
	}
	switch r.State {
	case "Alarm":
		return fmt.Errorf("grbl: %s: %w", d, engravers.ErrAlarm)
	case "Idle", "Check":
	default:
		return fmt.Errorf("grbl: %s: machine is %s, not idle: %w", d, stateName(r), engravers.ErrBusy)
	}
	d.mu.Lock()
	d.paused = false
	lm := d.laserMode
	d.mu.Unlock()
	if laser && !lm {
		if err := d.checkLaserMode(ctx); err != nil {
			return err
		}
	}
	jctx, cancel := context.WithCancel(ctx)
	defer cancel()
	d.mu.Lock()
	d.cancelJob = cancel
	d.garbled = 0
	d.mu.Unlock()
	defer func() {
		d.mu.Lock()
		d.cancelJob = nil
		d.mu.Unlock()
	}()
	if err := d.stream(jctx, lines, progress); err != nil {
		if aerr := d.abort(ctx); aerr != nil {
			return errors.Join(err, aerr)
		}
		return err
	}
	return nil
}

// checkLaserMode reads $32 and, when it is off, sets it only if the
// operator allowed it (Opts.SetLaserMode).
func (d *Dev) checkLaserMode(ctx context.Context) error {
	st, err := d.readSettings(ctx)
	if err != nil {
		return fmt.Errorf("grbl: reading settings: %w", err)
	}
	if st[32] != "1" {
		if !d.opts.SetLaserMode {
			return fmt.Errorf("grbl: %s has laser mode off ($32=%s): the job needs $32=1; set it at the controller, or allow chipdesk to (device option laser_mode=set): %w",
				d, st[32], engravers.ErrSettings)
		}
		if err := d.command(ctx, "$32=1"); err != nil {
			return fmt.Errorf("grbl: laser mode: %w", err)
		}
	}
	d.mu.Lock()
	d.laserMode = true
	d.mu.Unlock()
	return nil
}

// endOf returns the position the program ends at (work coordinates),
// or ok false when it cannot tell (relative moves).
func endOf(lines []string) (p engravers.Point, ok bool) {
	ok = true
	for _, l := range lines {
		u := strings.ToUpper(l)
		if strings.Contains(strings.ReplaceAll(u, " ", ""), "G91") {
			return p, false
		}
		if strings.HasPrefix(u, "$") || strings.HasPrefix(u, "G10") {
			continue
		}
		for _, f := range strings.Fields(u) {
			v, err := strconv.ParseFloat(f[1:], 64)
			if err != nil {
				continue
			}
			switch f[0] {
			case 'X':
				p.X = v
			case 'Y':
				p.Y = v
			}
		}
	}
	return p, ok
}

func near(a, b engravers.Point) bool { return math.Abs(a.X-b.X) < 0.01 && math.Abs(a.Y-b.Y) < 0.01 }

func (d *Dev) stream(ctx context.Context, lines []string, progress func(engravers.Progress)) error {
	// The lines on the wire: the job's, plus a dwell "G4 P0" before each
	// line that must run on an idle machine (a dwell is answered only
	// once all motion before it is done).
	type wireLine struct {
		text string
		job  int // 1-based number of the job line, 0 for an added dwell
	}
	var wire []wireLine
	for i, l := range lines {
		if NeedsSync(l) && i > 0 {
			wire = append(wire, wireLine{text: syncDwell})
		}
		wire = append(wire, wireLine{text: l, job: i + 1})
	}
	end, endKnown := endOf(lines)
	total := len(lines)
	var inflight []wireLine
	used, sent, acked := 0, 0, 0
	// lastAlive is the last sign the machine is working the job: an ok,
	// a report with a new position, or one saying it holds the job.
	lastAlive := d.opts.Now()
	tick := time.NewTicker(d.opts.PollInterval)
	defer tick.Stop()
	stalled := func() bool {
		d.mu.Lock()
		defer d.mu.Unlock()
		if d.paused {
			return false
		}
		from := lastAlive
		if d.resumed.After(from) {
			from = d.resumed
		}
		return d.opts.Now().Sub(from) > d.opts.AckTimeout
	}
	var (
		lastPos   []float64
		lastState string
		last      StatusReport
		seen      bool
	)
	report := func() {
		if progress != nil {
			p := engravers.Progress{Done: acked, Total: total}
			if seen {
				p.State, p.Pos, p.Held = stateName(last), d.workPos(last), held(last)
			}
			progress(p)
		}
	}
	for {
		for sent < len(wire) && used+len(wire[sent].text)+1 <= d.opts.RXBuffer {
			// A line that must run alone waits until every earlier line
			// is answered, and nothing follows it until it is.
			if len(inflight) > 0 && (wire[sent].text == syncDwell || NeedsSync(wire[sent].text) || NeedsSync(wire[sent-1].text)) {
				break
			}
			if err := d.write([]byte(wire[sent].text + "\n")); err != nil {
				return err
			}
			inflight = append(inflight, wire[sent])
			used += len(wire[sent].text) + 1
			sent++
		}
		d.mu.Lock()
		reportCh := d.reportCh
		d.mu.Unlock()
		select {
		case r := <-d.acks:
			if len(inflight) == 0 {
				continue // a late reply from before the job
			}
			w := inflight[0]
			used -= len(w.text) + 1
			inflight = inflight[1:]
			lastAlive = d.opts.Now()
			if r.Kind == KindError {
				err := &Error{Code: r.Code, Line: w.job, Text: w.text}
				// An ALARM:N read before this error caused it: grbl
				// answers error:9 to every line after an alarm. dispatch
				// queued the alarm first, so it is waiting now; without
				// this look, select would pick either at random.
				select {
				case code := <-d.alarm:
					return fmt.Errorf("grbl: %s: job stopped at line %d of %d: %w, then %w", d, acked, total, Alarm(code), err)
				default:
				}
				return err
			}
			if w.job == 0 {
				continue
			}
			acked++
			report()
		case <-reportCh:
			d.mu.Lock()
			r := d.last
			garbled := d.garbled
			d.mu.Unlock()
			last, seen = r, true
			if st := stateName(r); st != lastState {
				lastState = st
				report()
			}
			switch {
			case held(r):
				lastAlive = d.opts.Now() // the machine answers and holds the job
			case !equal(r.Pos, lastPos):
				lastPos = r.Pos
				lastAlive = d.opts.Now()
			}
			if r.State != "Idle" || sent < len(wire) {
				continue
			}
			// All sent and the machine idle: done when every line was
			// answered, or when the missing answers are accounted for by
			// garbled replies and the machine stands at the end.
			if acked == total || endKnown && near(d.workPos(r), end) && len(inflight) <= garbled {
				return nil
			}
		case code := <-d.alarm:
			return fmt.Errorf("grbl: %s: job stopped at line %d of %d: %w", d, acked, total, Alarm(code))
		case <-tick.C:
			if err := d.write([]byte{StatusQuery}); err != nil {
				return err
			}
			if stalled() {
				if sent == len(wire) {
					return fmt.Errorf("grbl: %s: every line sent, %d of %d answered, machine %s at %v: %w",
						d, acked, total, lastState, d.workPos(last), engravers.ErrUnclear)
				}
				return fmt.Errorf("%w: %s after line %d of %d", ErrAckTimeout, d, acked, total)
			}
		case <-d.dead:
			return d.linkErr()
		case <-ctx.Done():
			return fmt.Errorf("grbl: %s: job aborted at line %d of %d: %w", d, acked, total, ctx.Err())
		}
	}
}

// syncDwell is the line that makes grbl finish all motion before it
// answers (a dwell synchronises the planner).
const syncDwell = "G4 P0"

// NeedsSync reports whether a line must be sent alone and answered
// before anything else is sent: every $ command (settings write EEPROM
// with interrupts off, and grbl takes $ commands only when idle) and the
// g-code that writes EEPROM, G10 L2/L20, G28.1 and G30.1 (interface.md,
// "EEPROM Issues").
func NeedsSync(line string) bool {
	l := strings.ToUpper(strings.ReplaceAll(line, " ", ""))
	return strings.HasPrefix(l, "$") || strings.Contains(l, "G10L2") ||
		strings.Contains(l, "G28.1") || strings.Contains(l, "G30.1")
}

func equal(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// abort stops a job so that the laser is off: feed hold, wait briefly
// for the hold to complete (so position is kept), soft reset (which
// switches the spindle, i.e. the laser, off), wait for the banner. It
// runs to its end even when ctx is cancelled (a cancelled job is what
// it stops), bounded by the reset timeout; ctx's values are kept.
func (d *Dev) abort(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*d.opts.ResetTimeout)
	defer cancel()
	if err := d.write([]byte{FeedHold}); err != nil {
		return err
	}
	deadline := d.opts.Now().Add(d.opts.ResetTimeout / 2)
	for d.opts.Now().Before(deadline) {
		r, err := d.report(ctx)
		if err != nil || r.State == "Hold" && r.Sub == 0 || r.State == "Door" || r.State == "Idle" || r.State == "Alarm" {
			break
		}
		t := time.NewTimer(d.opts.PollInterval / 4) // at most 20 Hz while the hold decelerates
		<-t.C
	}
	return d.reset(ctx)
}
