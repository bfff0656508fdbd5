//go:build unix

package grblsim

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/chipdesk/chipdesk/drivers/engravers/grbl"
	"github.com/chipdesk/chipdesk/drivers/port/porttest"
)

// Opts configures a Sim.
type Opts struct {
	// RXBuffer is the receive buffer in bytes; 0 means 127.
	RXBuffer int
	// Blocks is the usable planner size; 0 means 15.
	Blocks int
	// BlockTime is how long one motion block takes; 0 executes blocks
	// at once.
	BlockTime time.Duration
	// Version is printed in the welcome banner; "" means "1.1h".
	Version string
	// LaserMode is the initial $32.
	LaserMode bool
	// Fail, when set, is asked for every g-code line taken from the
	// buffer; a non-zero result is answered as error:N.
	Fail func(line string) int
	// AlarmAt, when set, is asked for every g-code line taken from the
	// buffer, before Fail; a non-zero result raises ALARM:N at that line
	// (a limit switch hit during the move before it), which grbl then
	// refuses with error:9, as it does every line until unlocked.
	AlarmAt func(line string) int
	// Reply, when set, may change the reply (ok or error:N) to the n-th
	// line taken, counting from 1: a reply garbled on the wire. An empty
	// result sends nothing (a reply lost).
	Reply func(n int, line, reply string) string
	// Homing is $22: homing enabled. The controller then starts locked
	// (Alarm, "'$H'|'$X' to unlock") as grbl does with HOMING_INIT_LOCK,
	// and $H homes: state Home for HomeTime, then machine zero.
	Homing bool
	// HomeTime is how long a homing cycle takes; 0 is at once.
	HomeTime time.Duration
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// Real-time commands of grbl 1.1 beyond ? ! ~ 0x18 (interface.md,
// "Real-time Commands"; config.h CMD_*).
const (
	SafetyDoor    byte = 0x84
	JogCancel     byte = 0x85
	FeedOvReset   byte = 0x90
	FeedOvPlus10  byte = 0x91
	FeedOvMinus10 byte = 0x92
	FeedOvPlus1   byte = 0x93
	FeedOvMinus1  byte = 0x94
	RapidOv100    byte = 0x95
	RapidOv50     byte = 0x96
	RapidOv25     byte = 0x97
	SpindleOv100  byte = 0x99
	SpindlePlus10 byte = 0x9A
	SpindleMin10  byte = 0x9B
	SpindlePlus1  byte = 0x9C
	SpindleMin1   byte = 0x9D
)

// Laser is the recorded state of the laser output.
type Laser struct {
	// Mode is "M3", "M4" or "M5".
	Mode string
	// S is the programmed power.
	S float64
	// Mode32 is $32, laser mode.
	Mode32 bool
	// Fired counts motion blocks executed with the laser on.
	Fired int
	// RapidFired counts G0 moves executed with the spindle on outside
	// laser mode: the beam would have burned the travel.
	RapidFired int
	// Stopped is set while a feed hold in laser mode or an open safety
	// door keeps the output off although the program has it on
	// (laser_mode.md: the laser is disabled during a feed hold).
	Stopped bool
	// PowerOv is the spindle (laser power) override in percent.
	PowerOv int
}

// On reports whether the output is enabled (spindle on with power).
func (l Laser) On() bool { return l.Mode != "M5" && l.S > 0 && !l.Stopped }

type block struct {
	to      [3]float64
	rapid   bool
	jog     bool
	mode    string
	s, feed float64
}

// Sim is a fake GRBL on a pseudo-terminal.
type Sim struct {
	opts Opts
	pty  *porttest.PTY
	now  func() time.Time
	wake chan struct{}
	quit chan struct{}
	wg   sync.WaitGroup

	mu         sync.Mutex
	rx         []byte // the receive ring
	peak       int    // most bytes ever held in rx
	dropped    int    // bytes lost to a full rx
	line       string // a line taken from rx, waiting for the planner
	hasLine    bool
	planner    []block
	started    time.Time // when planner[0] started
	state      string    // Idle, Run, Hold, Alarm, Check
	hold       bool
	door       int  // 0 closed; 1 opened (Door:1 while ajar, Door:0 once closed)
	doorOpen   bool // the door switch
	homing     bool // a $H cycle runs
	homeEnd    time.Time
	wco        [3]float64 // G54 work coordinate offset (G10 L20 P1)
	ov         [3]int     // feed, rapid, spindle override in percent
	reports    int
	check      bool
	alarm      int
	pos        [3]float64
	abs        bool
	motion     string // G0 or G1 modal motion
	feed       float64
	mode       string // M3 M4 M5
	s          float64
	settings   map[int]string
	fired      int
	rapid      int
	resets     int
	syncBroken int
	lines      []string // lines taken, in order
	writeErr   error
}

// Start opens a pseudo-terminal and plays GRBL on it.
func Start(o *Opts) (*Sim, error) {
	if o == nil {
		o = &Opts{}
	}
	s := &Sim{opts: *o, wake: make(chan struct{}, 1), quit: make(chan struct{})}
	if s.opts.RXBuffer <= 0 {
		s.opts.RXBuffer = 127
	}
	if s.opts.Blocks <= 0 {
		s.opts.Blocks = 15
	}
	if s.opts.Version == "" {
		s.opts.Version = "1.1h"
	}
	s.now = s.opts.Now
	if s.now == nil {
		s.now = time.Now
	}
	p, err := porttest.NewPTY()
	if err != nil {
		return nil, fmt.Errorf("grblsim: %w", err)
	}
	s.pty = p
	s.settings = map[int]string{0: "10", 1: "25", 10: "1", 22: "0", 30: "1000", 31: "0", 32: "0", 110: "500", 111: "500", 120: "10", 121: "10"}
	if s.opts.LaserMode {
		s.settings[32] = "1"
	}
	if s.opts.Homing {
		s.settings[22] = "1"
		s.alarm = -1 // locked until $H or $X; no ALARM:N is printed at power-up
	}
	s.reset(false)
	s.mu.Lock()
	s.welcome()
	s.mu.Unlock()
	s.wg.Add(2)
	go s.receive()
	go s.run()
	return s, nil
}

// TTY is the name of the terminal to open as the controller's port.
func (s *Sim) TTY() string { return s.pty.Path() }

// Close stops the simulator and closes the terminal.
func (s *Sim) Close() error {
	select {
	case <-s.quit:
		return nil
	default:
	}
	close(s.quit)
	err := s.pty.Close()
	s.wg.Wait()
	if err != nil {
		return fmt.Errorf("grblsim: %w", err)
	}
	return nil
}

// Dropped returns how many received bytes were lost to a full receive
// buffer: a streamer that broke the character-counting rule.
func (s *Sim) Dropped() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.dropped
}

// Peak returns the most bytes the receive buffer ever held.
func (s *Sim) Peak() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.peak
}

// SyncBroken counts $ lines taken while more bytes were already
// waiting behind them: a host that streamed a setting instead of sending
// it alone and waiting for its ok.
func (s *Sim) SyncBroken() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.syncBroken
}

// Laser returns the laser record.
func (s *Sim) Laser() Laser {
	s.mu.Lock()
	defer s.mu.Unlock()
	return Laser{Mode: s.mode, S: s.s, Mode32: s.settings[32] == "1", Fired: s.fired, RapidFired: s.rapid,
		Stopped: s.door != 0 || s.hold && s.settings[32] == "1", PowerOv: s.ov[2]}
}

// State returns the machine state as a status report names it.
func (s *Sim) State() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stateName()
}

// Resets returns how many soft resets were received.
func (s *Sim) Resets() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.resets
}

// Lines returns the lines taken from the receive buffer, in order.
func (s *Sim) Lines() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.lines...)
}

// Pending returns the number of planner blocks not yet executed.
func (s *Sim) Pending() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.planner)
}

// Reports returns how many status reports were sent.
func (s *Sim) Reports() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.reports
}

// Pos returns the machine position.
func (s *Sim) Pos() [3]float64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.pos
}

// WCO returns the G54 work coordinate offset (work = machine - WCO).
func (s *Sim) WCO() [3]float64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.wco
}

// Overrides returns the feed, rapid and spindle overrides in percent.
func (s *Sim) Overrides() [3]int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ov
}

// Setting returns $n as stored.
func (s *Sim) Setting(n int) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.settings[n]
}

// FeedHold is the feed hold button at the machine: the same as a host
// sending !.
func (s *Sim) FeedHold() {
	s.mu.Lock()
	s.byteIn('!')
	s.mu.Unlock()
	s.signal()
}

// Door opens (true) or closes the safety door switch. Opening it stops
// motion and turns the laser off (Door:1); once closed the state is
// Door:0 until cycle start (~) resumes the job.
func (s *Sim) Door(open bool) {
	s.mu.Lock()
	s.doorOpen = open
	if open {
		s.byteIn(SafetyDoor)
	}
	s.mu.Unlock()
	s.signal()
}

// Alarm raises ALARM:code now, as a limit switch would: motion stops,
// the laser goes off and g-code is locked until $X.
func (s *Sim) Alarm(code int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.alarmed(code)
}

// alarmed raises ALARM:code; the caller holds s.mu.
func (s *Sim) alarmed(code int) {
	s.planner = nil
	s.hasLine = false
	s.mode, s.s = "M5", 0
	s.alarm = code
	s.state = "Alarm"
	s.send("ALARM:" + strconv.Itoa(code))
}

// send writes one reply line; the caller holds s.mu.
func (s *Sim) send(line string) {
	if s.writeErr != nil {
		return
	}
	if s.opts.Reply != nil && len(s.lines) > 0 && (line == "ok" || strings.HasPrefix(line, "error:")) {
		if line = s.opts.Reply(len(s.lines), s.lines[len(s.lines)-1], line); line == "" {
			return
		}
	}
	if _, err := io.WriteString(s.pty, line+"\r\n"); err != nil {
		s.writeErr = err
	}
}

func (s *Sim) welcome() {
	s.send("")
	s.send("Grbl " + s.opts.Version + " ['$' for help]")
	if s.state == "Alarm" {
		s.send("[MSG:'$H'|'$X' to unlock]")
	}
}

// reset puts the controller in its power-on state; the caller holds
// s.mu or is Start.
func (s *Sim) reset(moving bool) {
	s.rx = s.rx[:0]
	s.hasLine = false
	s.planner = nil
	s.hold = false
	s.door = 0
	s.homing = false
	s.ov = [3]int{100, 100, 100}
	s.check = false
	s.abs, s.motion, s.feed = true, "G0", 0
	s.mode, s.s = "M5", 0
	if moving {
		s.alarm = 3
	}
	if s.alarm != 0 {
		s.state = "Alarm"
	} else {
		s.state = "Idle"
	}
}

func (s *Sim) signal() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// receive is the UART interrupt: real-time bytes act at once, others go
// to the ring or are dropped when it is full.
func (s *Sim) receive() {
	defer s.wg.Done()
	buf := make([]byte, 4096)
	for {
		n, err := s.pty.Read(buf)
		if n > 0 {
			s.mu.Lock()
			for _, c := range buf[:n] {
				s.byteIn(c)
			}
			s.mu.Unlock()
			s.signal()
		}
		if err != nil {
			return
		}
	}
}

func (s *Sim) byteIn(c byte) {
	switch {
	case c == '?':
		s.advance() // a report gives the position of now
		s.reports++
		s.send(s.report().String())
	case c == '!':
		// grbl 1.1 enters Hold from Idle too, so lines still in the
		// buffer do not start moving after a hold that meant "stop".
		if s.door == 0 && s.state != "Alarm" && !s.homing && !s.check {
			s.hold = true
		}
	case c == '~':
		// Cycle start resumes a hold, or a door once it is closed.
		switch {
		case s.door != 0 && !s.doorOpen:
			s.door = 0
			s.hold = false
			s.started = s.now()
		case s.door == 0 && s.hold:
			s.hold = false
			s.started = s.now()
		}
	case c == 0x18:
		s.resets++
		// Reset in motion loses position (ALARM:3); after a completed
		// feed hold it does not (interface.md, feed hold then reset).
		moving := len(s.planner) > 0 && !s.hold
		s.reset(moving)
		if moving {
			s.send("ALARM:3")
		}
		s.welcome()
	case c == SafetyDoor:
		// The door stops motion with a hold and keeps the laser off until
		// it is closed and cycle start is sent (Door:1, then Door:0).
		if s.state != "Alarm" {
			s.door = 1
			s.hold = len(s.planner) > 0
		}
	case c == JogCancel:
		if len(s.planner) > 0 && s.planner[0].jog {
			s.planner = nil
		}
	case c >= FeedOvReset && c <= SpindleMin1:
		s.override(c)
	case c >= 0x80:
		// coolant and spindle-stop toggles: accepted and ignored
	default:
		if len(s.rx) >= s.opts.RXBuffer {
			s.dropped++
			return
		}
		s.rx = append(s.rx, c)
		s.peak = max(s.peak, len(s.rx))
	}
}

// override applies a feed, rapid or spindle override byte, within
// grbl's limits (config.h: feed 10-200 %, spindle 10-200 %).
func (s *Sim) override(c byte) {
	clamp := func(v int) int { return min(max(v, 10), 200) }
	switch c {
	case FeedOvReset:
		s.ov[0] = 100
	case FeedOvPlus10:
		s.ov[0] = clamp(s.ov[0] + 10)
	case FeedOvMinus10:
		s.ov[0] = clamp(s.ov[0] - 10)
	case FeedOvPlus1:
		s.ov[0] = clamp(s.ov[0] + 1)
	case FeedOvMinus1:
		s.ov[0] = clamp(s.ov[0] - 1)
	case RapidOv100:
		s.ov[1] = 100
	case RapidOv50:
		s.ov[1] = 50
	case RapidOv25:
		s.ov[1] = 25
	case SpindleOv100:
		s.ov[2] = 100
	case SpindlePlus10:
		s.ov[2] = clamp(s.ov[2] + 10)
	case SpindleMin10:
		s.ov[2] = clamp(s.ov[2] - 10)
	case SpindlePlus1:
		s.ov[2] = clamp(s.ov[2] + 1)
	case SpindleMin1:
		s.ov[2] = clamp(s.ov[2] - 1)
	}
}

func (s *Sim) stateName() string {
	switch {
	case s.state == "Alarm":
		return "Alarm"
	case s.homing:
		return "Home"
	case s.check:
		return "Check"
	case s.door != 0 && s.doorOpen:
		return "Door:1"
	case s.door != 0:
		return "Door:0"
	case s.hold:
		return "Hold:0"
	case len(s.planner) > 0 && s.planner[0].jog:
		return "Jog"
	case len(s.planner) > 0:
		return "Run"
	}
	return "Idle"
}

func (s *Sim) report() grbl.StatusReport {
	r := grbl.StatusReport{
		State: s.stateName(), Sub: -1, Pos: []float64{s.pos[0], s.pos[1], s.pos[2]},
		HasBuf: true, Blocks: s.opts.Blocks - len(s.planner), RX: s.opts.RXBuffer - len(s.rx) + 1,
		HasFeed: true, HasSpeed: true,
	}
	if st, sub, ok := strings.Cut(r.State, ":"); ok {
		r.State, r.Sub = st, int(sub[0]-'0')
	}
	if len(s.planner) > 0 && !s.hold {
		b := s.planner[0]
		if !b.rapid {
			r.Feed = b.feed * float64(s.ov[0]) / 100
		}
		if b.mode != "M5" {
			r.Speed = b.s * float64(s.ov[2]) / 100
		}
	}
	r.WCO = []float64{s.wco[0], s.wco[1], s.wco[2]}
	if s.ov != [3]int{100, 100, 100} {
		r.HasOv, r.Ov = true, s.ov
	}
	if s.mode != "M5" {
		r.HasAcc = true
		r.Acc = map[string]string{"M3": "S", "M4": "C"}[s.mode]
	}
	return r
}

// run is grbl's main loop: execute due blocks, take lines into the
// planner, answer them.
func (s *Sim) run() {
	defer s.wg.Done()
	for {
		s.mu.Lock()
		s.step()
		var wait time.Duration = -1
		if len(s.planner) > 0 && !s.hold && s.state != "Alarm" {
			wait = max(s.started.Add(s.blockTime()).Sub(s.now()), 0)
		}
		if s.homing {
			wait = max(s.homeEnd.Sub(s.now()), 0)
		}
		s.mu.Unlock()
		var timer <-chan time.Time
		if wait >= 0 {
			t := time.NewTimer(wait)
			timer = t.C
			select {
			case <-s.wake:
			case <-timer:
			case <-s.quit:
				t.Stop()
				return
			}
			t.Stop()
			continue
		}
		select {
		case <-s.wake:
		case <-s.quit:
			return
		}
	}
}

// step does all the work that is due now; the caller holds s.mu.
func (s *Sim) step() {
	for {
		progressed := false
		// execute blocks whose time has come
		progressed = s.advance()
		// take a line from the ring
		if !s.hasLine {
			if i := indexEOL(s.rx); i >= 0 {
				s.line = string(s.rx[:i])
				s.rx = append(s.rx[:0], s.rx[i+1:]...)
				s.hasLine = true
				progressed = true
			}
		}
		if s.hasLine && !s.homing && s.execute() {
			s.hasLine = false
			progressed = true
		}
		if !progressed {
			return
		}
	}
}

// advance ends a homing cycle and executes the blocks whose time has
// come; the caller holds s.mu.
func (s *Sim) advance() bool {
	progressed := false
	if s.homing && !s.now().Before(s.homeEnd) {
		s.homing = false
		s.pos = [3]float64{}
		s.send("ok")
		progressed = true
	}
	for len(s.planner) > 0 && !s.hold && s.state != "Alarm" && !s.now().Before(s.started.Add(s.blockTime())) {
		// The next block starts when this one ends, not when the
		// simulator looked: a clock that jumps runs several.
		s.started = s.started.Add(s.blockTime())
		b := s.planner[0]
		s.planner = s.planner[1:]
		s.pos = b.to
		on := b.mode != "M5" && b.s > 0
		if on && !b.rapid {
			s.fired++
		}
		if on && b.rapid && s.settings[32] != "1" {
			s.rapid++
		}
		progressed = true
	}
	return progressed
}

// blockTime is BlockTime at the feed override (a G0 at the rapid one).
func (s *Sim) blockTime() time.Duration {
	ov := s.ov[0]
	if len(s.planner) > 0 && s.planner[0].rapid {
		ov = s.ov[1]
	}
	return s.opts.BlockTime * 100 / time.Duration(max(ov, 1))
}

func indexEOL(b []byte) int {
	for i, c := range b {
		if c == '\n' || c == '\r' {
			return i
		}
	}
	return -1
}

// execute runs the pending line. It returns false when the line must
// wait (planner full, or a spindle change waiting for motion to end).
func (s *Sim) execute() bool {
	raw := s.line
	line := clean(raw)
	if len(line) > grbl.MaxLine {
		s.took(raw)
		s.send("error:11")
		return true
	}
	if line == "" {
		s.took(raw)
		s.send("ok")
		return true
	}
	if strings.HasPrefix(line, "$J=") {
		s.took(raw)
		s.jog(line[3:])
		return true
	}
	if line[0] == '$' {
		if len(s.rx) > 0 {
			// Bytes that came in behind a $ line would be lost while grbl
			// writes its EEPROM with interrupts off: the host broke
			// send-response.
			s.syncBroken++
		}
		if len(s.planner) > 0 && line != "$$" && line != "$G" && line != "$I" {
			s.took(raw)
			s.send("error:8") // $ commands only when idle
			return true
		}
		s.took(raw)
		s.dollar(line)
		return true
	}
	if s.state == "Alarm" {
		s.took(raw)
		s.send("error:9")
		return true
	}
	words, code := parseWords(line)
	if code != 0 {
		s.took(raw)
		s.send("error:" + strconv.Itoa(code))
		return true
	}
	// a spindle state change and a dwell wait for the planner to empty
	// (protocol_buffer_synchronize in grbl)
	spindle, g10 := false, false
	for _, w := range words {
		if w.l == 'M' && (w.v == 3 || w.v == 4 || w.v == 5) || w.l == 'G' && w.v == 4 {
			spindle = true
		}
		if w.l == 'G' && w.v == 10 {
			spindle, g10 = true, true
		}
	}
	hasAxis := false
	for _, w := range words {
		if w.l == 'X' || w.l == 'Y' || w.l == 'Z' {
			hasAxis = true
		}
	}
	if spindle && len(s.planner) > 0 && !s.check {
		return false
	}
	if hasAxis && len(s.planner) >= s.opts.Blocks {
		return false
	}
	s.took(raw)
	if g10 {
		if len(s.rx) > 0 {
			s.syncBroken++ // G10 writes EEPROM like a $ setting
		}
		s.send(s.g10(words))
		return true
	}
	if s.opts.AlarmAt != nil {
		if c := s.opts.AlarmAt(raw); c != 0 {
			s.alarmed(c)
			s.send("error:9")
			return true
		}
	}
	if s.opts.Fail != nil {
		if c := s.opts.Fail(raw); c != 0 {
			s.send("error:" + strconv.Itoa(c))
			return true
		}
	}
	if c := s.apply(words, hasAxis); c != 0 {
		s.send("error:" + strconv.Itoa(c))
		return true
	}
	s.send("ok")
	return true
}

func (s *Sim) took(raw string) { s.lines = append(s.lines, raw) }

// clean removes white space and comments and upper-cases, as grbl's
// protocol loop does.
func clean(l string) string {
	var b strings.Builder
	paren := false
	for i := 0; i < len(l); i++ {
		c := l[i]
		switch {
		case paren:
			paren = c != ')'
		case c == '(':
			paren = true
		case c == ';':
			return b.String()
		case c == ' ' || c == '\t':
		case c >= 'a' && c <= 'z':
			b.WriteByte(c - 'a' + 'A')
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

type word struct {
	l byte
	v float64
}

func parseWords(line string) ([]word, int) {
	var ws []word
	for i := 0; i < len(line); {
		c := line[i]
		if c < 'A' || c > 'Z' {
			return nil, 1 // expected command letter
		}
		j := i + 1
		for j < len(line) && (line[j] >= '0' && line[j] <= '9' || line[j] == '.' || line[j] == '-' || line[j] == '+') {
			j++
		}
		v, err := strconv.ParseFloat(line[i+1:j], 64)
		if err != nil {
			return nil, 2 // bad number format
		}
		ws = append(ws, word{c, v})
		i = j
	}
	return ws, 0
}

// apply runs a parsed g-code block; it returns an error code or 0.
func (s *Sim) apply(words []word, hasAxis bool) int {
	target := s.planned()
	motion := s.motion
	seen := map[byte]bool{}
	for _, w := range words {
		if w.l != 'G' && w.l != 'M' {
			if seen[w.l] {
				return 25 // repeated word
			}
			seen[w.l] = true
		}
		switch w.l {
		case 'G':
			switch w.v {
			case 0, 1, 2, 3:
				motion = "G" + strconv.Itoa(min(int(w.v), 1))
			case 4, 17, 54, 94:
			case 20:
				return 20 // inches: not used by this simulator
			case 21:
			case 90:
				s.abs = true
			case 91:
				s.abs = false
			default:
				return 20
			}
		case 'M':
			switch w.v {
			case 2, 30:
				s.mode, s.s = "M5", 0
			case 3, 4, 5:
				s.mode = "M" + strconv.Itoa(int(w.v))
			case 8, 9:
			default:
				return 20
			}
		case 'F':
			if w.v < 0 {
				return 4
			}
			s.feed = w.v
		case 'S':
			if w.v < 0 {
				return 4
			}
			s.s = w.v
		case 'X', 'Y', 'Z':
			k := int(w.l - 'X')
			if s.abs {
				target[k] = w.v + s.wco[k]
			} else {
				target[k] += w.v
			}
		case 'P', 'I', 'J', 'R', 'N':
		default:
			return 20
		}
	}
	s.motion = motion
	if !hasAxis {
		return 0
	}
	if motion == "G1" && s.feed == 0 {
		return 22 // undefined feed rate
	}
	if s.check || target == s.pos && (len(s.planner) == 0 || s.planner[len(s.planner)-1].to == target) {
		return 0
	}
	if len(s.planner) == 0 {
		s.started = s.now()
	}
	s.planner = append(s.planner, block{to: target, rapid: motion == "G0", mode: s.mode, s: s.s, feed: s.feed})
	return 0
}

// planned is where the machine will be when the planner is empty.
func (s *Sim) planned() [3]float64 {
	if n := len(s.planner); n > 0 {
		return s.planner[n-1].to
	}
	return s.pos
}

// g10 runs G10 L2 Pn / G10 L20 Pn for the G54 system (P1; P0 is the
// current one, also G54 here) and returns the reply.
func (s *Sim) g10(words []word) string {
	l, p := -1.0, -1.0
	axes := map[int]float64{}
	for _, w := range words {
		switch w.l {
		case 'L':
			l = w.v
		case 'P':
			p = w.v
		case 'X', 'Y', 'Z':
			axes[int(w.l-'X')] = w.v
		case 'G':
			if w.v != 10 {
				return "error:21" // another command in the block
			}
		default:
			return "error:36"
		}
	}
	if l != 2 && l != 20 || p != 0 && p != 1 {
		return "error:20" // only G54 in this simulator
	}
	if len(axes) == 0 {
		return "error:26"
	}
	for k, v := range axes {
		if l == 20 {
			s.wco[k] = s.pos[k] - v // the current position becomes v
		} else {
			s.wco[k] = v
		}
	}
	return "ok"
}

// jog runs $J=…: a move in the Jog state, relative with G91, at its own
// F, leaving the parser's modes alone (commands.md, "$J=line").
func (s *Sim) jog(body string) {
	switch {
	case s.state == "Alarm":
		s.send("error:9")
		return
	case s.door != 0 || s.hold || len(s.planner) > 0 && !s.planner[0].jog:
		s.send("error:8")
		return
	}
	words, code := parseWords(body)
	if code != 0 {
		s.send("error:" + strconv.Itoa(code))
		return
	}
	target, rel, feed := s.planned(), false, 0.0
	var axes int
	for _, w := range words {
		switch {
		case w.l == 'G' && w.v == 91:
			rel = true
		case w.l == 'G' && (w.v == 90 || w.v == 21 || w.v == 53):
		case w.l == 'F':
			feed = w.v
		case w.l == 'X' || w.l == 'Y' || w.l == 'Z':
			axes++
		default:
			s.send("error:16") // invalid jog command
			return
		}
	}
	if feed <= 0 || axes == 0 {
		s.send("error:16")
		return
	}
	for _, w := range words {
		if w.l == 'X' || w.l == 'Y' || w.l == 'Z' {
			k := int(w.l - 'X')
			if rel {
				target[k] += w.v
			} else {
				target[k] = w.v + s.wco[k]
			}
		}
	}
	if len(s.planner) >= s.opts.Blocks {
		s.send("error:8")
		return
	}
	if len(s.planner) == 0 {
		s.started = s.now()
	}
	s.planner = append(s.planner, block{to: target, jog: true, mode: "M5", feed: feed})
	s.send("ok")
}

// dollar runs a $ command.
func (s *Sim) dollar(line string) {
	switch {
	case line == "$":
		s.send("[HLP:$$ $# $G $I $N $x=val $Nx=line $J=line $SLP $C $X $H ~ ! ? ctrl-x]")
	case line == "$$":
		keys := []int{0, 1, 10, 22, 30, 31, 32, 110, 111, 120, 121}
		for _, k := range keys {
			s.send("$" + strconv.Itoa(k) + "=" + s.settings[k])
		}
	case line == "$X":
		if s.door != 0 {
			s.send("error:13")
			return
		}
		if s.state == "Alarm" {
			s.alarm = 0
			s.state = "Idle"
			s.send("[MSG:Caution: Unlocked]")
		}
	case line == "$H":
		if s.settings[22] != "1" {
			s.send("error:5") // homing not enabled
			return
		}
		s.alarm, s.state = 0, "Idle"
		s.homing, s.homeEnd = true, s.now().Add(s.opts.HomeTime)
		return // ok when the cycle ends
	case line == "$C":
		if s.state == "Alarm" {
			s.send("error:9")
			return
		}
		s.check = !s.check
		if s.check {
			s.send("[MSG:Enabled]")
		} else {
			s.reset(false)
			s.send("[MSG:Disabled]")
			s.welcome()
			return // leaving check mode resets; the welcome stands for ok
		}
	case line == "$I":
		s.send("[VER:" + s.opts.Version + ".20190830:]")
		s.send("[OPT:V," + strconv.Itoa(s.opts.Blocks) + "," + strconv.Itoa(s.opts.RXBuffer+1) + "]")
	case line == "$G":
		mode := "G90"
		if !s.abs {
			mode = "G91"
		}
		s.send(fmt.Sprintf("[GC:%s G54 G17 G21 %s G94 %s M9 T0 F%g S%g]", s.motion, mode, s.mode, s.feed, s.s))
	case line == "$N" || line == "$#":
	default:
		k, v, ok := strings.Cut(line[1:], "=")
		n, err := strconv.Atoi(k)
		if !ok || err != nil || n < 0 || n > 255 {
			s.send("error:3")
			return
		}
		if _, err := strconv.ParseFloat(v, 64); err != nil {
			s.send("error:2")
			return
		}
		if _, known := s.settings[n]; !known {
			s.send("error:3")
			return
		}
		s.settings[n] = v
	}
	s.send("ok")
}
