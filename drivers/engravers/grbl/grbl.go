package grbl

import (
	"bytes"
	"context"
	"errors"
	"fmt"
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
)

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
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// DefaultOpts are the options used when nil is passed.
var DefaultOpts = Opts{RXBuffer: 127, MaxS: 1000, AckTimeout: 30 * time.Second,
	ResetTimeout: 3 * time.Second, PollInterval: 200 * time.Millisecond, Now: time.Now}

// Dev is a GRBL controller on a port.
type Dev struct {
	p    port.Port
	opts Opts

	wmu   sync.Mutex // one writer at a time
	job   sync.Mutex // one job or command at a time
	acks  chan Reply // ok and error:N, in order
	dead  chan struct{}
	alarm chan int // ALARM:N as it arrives

	mu        sync.Mutex
	last      StatusReport
	reportCh  chan struct{} // closed at the next status report
	welcomeCh chan struct{} // closed at the next welcome banner
	version   string
	paused    bool
	resumed   time.Time
	laserMode bool
	err       error // why the reader stopped
}

var _ engravers.Engraver = (*Dev)(nil)

// New returns the controller on p. It soft-resets the controller (the
// laser goes off) and waits for the welcome banner.
func New(p port.Port, o *Opts) (*Dev, error) {
	if o == nil {
		o = &DefaultOpts
	}
	d := &Dev{p: p, opts: *o, acks: make(chan Reply, 1024), dead: make(chan struct{}),
		alarm: make(chan int, 16), reportCh: make(chan struct{}), welcomeCh: make(chan struct{})}
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
	if d.opts.Now == nil {
		d.opts.Now = time.Now
	}
	if t, ok := p.(port.Timeouter); ok {
		if err := t.SetReadTimeout(100 * time.Millisecond); err != nil {
			return nil, fmt.Errorf("grbl: %w", err)
		}
	}
	go d.read()
	if err := d.reset(context.Background()); err != nil {
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
		return // noise, or a line this driver has no use for
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
	case KindStatus:
		d.mu.Lock()
		d.last = r.Status
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
	return toStatus(r), nil
}

func toStatus(r StatusReport) engravers.Status {
	st := engravers.Status{State: r.State, Alarm: r.State == "Alarm"}
	if r.Sub >= 0 {
		st.State += fmt.Sprintf(":%d", r.Sub)
	}
	if len(r.Pos) >= 2 {
		st.Pos = engravers.Point{X: r.Pos[0], Y: r.Pos[1]}
	}
	switch r.State {
	case "Run", "Hold", "Jog", "Home", "Door":
		st.Busy = true
	}
	st.LaserOn = r.HasAcc && strings.ContainsAny(r.Acc, "SC")
	return st
}

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

// Resume continues after Pause (real-time ~).
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
	if err := d.write([]byte(line + "\n")); err != nil {
		return err
	}
	t := time.NewTimer(d.opts.AckTimeout)
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
// machine is idle. Before the first job it turns laser mode on ($32=1).
// A failure of any kind (error:N, ALARM:N, no reply, cancelled context)
// aborts the job: feed hold, soft reset, wait for the banner; the laser
// is then off.
func (d *Dev) Stream(ctx context.Context, lines []string, progress func(engravers.Progress)) error {
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
		return fmt.Errorf("grbl: %s: machine is %s, not idle: %w", d, r.State, engravers.ErrBusy)
	}
	d.mu.Lock()
	d.paused = false
	lm := d.laserMode
	d.mu.Unlock()
	if !lm {
		if err := d.command(ctx, "$32=1"); err != nil {
			return fmt.Errorf("grbl: laser mode: %w", err)
		}
		d.mu.Lock()
		d.laserMode = true
		d.mu.Unlock()
	}
	if err := d.stream(ctx, lines, progress); err != nil {
		if aerr := d.abort(); aerr != nil {
			return errors.Join(err, aerr)
		}
		return err
	}
	return nil
}

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
	total := len(lines)
	var inflight []wireLine
	used, sent, acked := 0, 0, 0
	lastMove := d.opts.Now()
	tick := time.NewTicker(d.opts.PollInterval)
	defer tick.Stop()
	stalled := func() bool {
		d.mu.Lock()
		defer d.mu.Unlock()
		if d.paused {
			return false
		}
		from := lastMove
		if d.resumed.After(from) {
			from = d.resumed
		}
		return d.opts.Now().Sub(from) > d.opts.AckTimeout
	}
	var lastPos []float64
	done := false
	for !done {
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
			lastMove = d.opts.Now()
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
			if progress != nil {
				progress(engravers.Progress{Done: acked, Total: total})
			}
		case <-reportCh:
			if acked < total {
				continue
			}
			d.mu.Lock()
			r := d.last
			d.mu.Unlock()
			if r.State == "Idle" {
				done = true
			} else if !equal(r.Pos, lastPos) {
				lastPos = r.Pos
				lastMove = d.opts.Now()
			}
		case code := <-d.alarm:
			return fmt.Errorf("grbl: %s: job stopped at line %d of %d: %w", d, acked, total, Alarm(code))
		case <-tick.C:
			if err := d.write([]byte{StatusQuery}); err != nil {
				return err
			}
			if stalled() {
				return fmt.Errorf("%w: %s after line %d of %d", ErrAckTimeout, d, acked, total)
			}
		case <-d.dead:
			return d.linkErr()
		case <-ctx.Done():
			return fmt.Errorf("grbl: %s: job aborted at line %d of %d: %w", d, acked, total, ctx.Err())
		}
	}
	return nil
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
// switches the spindle, i.e. the laser, off), wait for the banner.
func (d *Dev) abort() error {
	ctx, cancel := context.WithTimeout(context.Background(), 2*d.opts.ResetTimeout)
	defer cancel()
	if err := d.write([]byte{FeedHold}); err != nil {
		return err
	}
	deadline := d.opts.Now().Add(d.opts.ResetTimeout / 2)
	for d.opts.Now().Before(deadline) {
		r, err := d.report(ctx)
		if err != nil || r.State == "Hold" && r.Sub == 0 || r.State == "Idle" || r.State == "Alarm" {
			break
		}
		t := time.NewTimer(d.opts.PollInterval / 4) // at most 20 Hz while the hold decelerates
		<-t.C
	}
	return d.reset(ctx)
}
