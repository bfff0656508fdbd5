package engravers

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"
)

// Point is a position on the work in millimetres, X to the right and Y
// up from the job origin.
type Point struct{ X, Y float64 }

// Path is a polyline marked from its first point to its last.
type Path []Point

// Job is one engraving.
type Job struct {
	// Name identifies the job in logs ("licence 2027000123").
	Name string
	// Paths are marked in order; the tool travels unmarked between them.
	// Paths with fewer than two points are skipped.
	Paths []Path
	// Power is the laser power from 0 to 1 of the machine's maximum.
	Power float64
	// Speed is the marking speed in mm/min.
	Speed float64
	// Passes is how often the paths are marked; 0 means 1.
	Passes int
	// Outline is the blank's outline (the tag's shape), traced by a
	// station's Frame with the laser off; empty frames the bounds of
	// Paths instead.
	Outline Path
}

// Validate checks that the job can be marked.
func (j Job) Validate() error {
	if !(j.Power > 0 && j.Power <= 1) {
		return fmt.Errorf("%w: power %v not in (0, 1]", ErrJob, j.Power)
	}
	if !(j.Speed > 0) || math.IsInf(j.Speed, 0) {
		return fmt.Errorf("%w: speed %v mm/min", ErrJob, j.Speed)
	}
	if j.Passes < 0 {
		return fmt.Errorf("%w: %d passes", ErrJob, j.Passes)
	}
	for i, p := range append(j.Paths, j.Outline) {
		for _, pt := range p {
			if math.IsNaN(pt.X) || math.IsNaN(pt.Y) || math.IsInf(pt.X, 0) || math.IsInf(pt.Y, 0) ||
				math.Abs(pt.X) > 1e5 || math.Abs(pt.Y) > 1e5 {
				return fmt.Errorf("%w: path %d has point %v", ErrJob, i, pt)
			}
		}
	}
	return nil
}

// Progress tells how far a job is. The unit is the backend's (GRBL:
// g-code lines acknowledged by the controller). It is reported at each
// step and whenever the machine's state changes, so a hold or an open
// door shows at the counter while the job waits.
type Progress struct {
	Done, Total int
	// State is the machine state last reported ("Run", "Hold:0",
	// "Door:1"); "" before the first report.
	State string
	// Pos is the work position last reported, mm.
	Pos Point
	// Held is set while the machine holds the job (a feed hold or the
	// safety door): the job waits for resume or abort and is not faulty.
	Held bool
}

// Estimate is the time the job takes at its speed, travelling at rapid
// mm/min between paths and from and back to the origin. It ignores
// acceleration, so short strokes take longer than this; use it to plan
// a blank, not to time out a job.
func (j Job) Estimate(rapid float64) time.Duration {
	if !(j.Speed > 0) || !(rapid > 0) {
		return 0
	}
	mark, travel := 0.0, 0.0
	at := Point{}
	for _, p := range j.Paths {
		if len(p) < 2 {
			continue
		}
		travel += math.Hypot(p[0].X-at.X, p[0].Y-at.Y)
		for i := 1; i < len(p); i++ {
			mark += math.Hypot(p[i].X-p[i-1].X, p[i].Y-p[i-1].Y)
		}
		at = p[len(p)-1]
	}
	travel += math.Hypot(at.X, at.Y)
	passes := float64(max(j.Passes, 1))
	minutes := passes * (mark/j.Speed + travel/rapid)
	return time.Duration(minutes * float64(time.Minute))
}

// Bounds returns the smallest rectangle holding every path, as its
// lower-left and upper-right corners; ok is false for a job without
// points.
func (j Job) Bounds() (lo, hi Point, ok bool) {
	lo, hi = Point{math.Inf(1), math.Inf(1)}, Point{math.Inf(-1), math.Inf(-1)}
	for _, p := range j.Paths {
		for _, pt := range p {
			lo.X, lo.Y = math.Min(lo.X, pt.X), math.Min(lo.Y, pt.Y)
			hi.X, hi.Y = math.Max(hi.X, pt.X), math.Max(hi.Y, pt.Y)
			ok = true
		}
	}
	return lo, hi, ok
}

// Status is what an engraver reported.
type Status struct {
	// State is the machine state in the backend's words ("Idle", "Run",
	// "Hold:0", "Alarm").
	State string
	// Pos is the machine position in mm.
	Pos Point
	// Busy is set while the machine moves or holds a job.
	Busy bool
	// Alarm is set while the machine is locked by an alarm and needs an
	// operator (unlock or home) before the next job.
	Alarm bool
	// LaserOn is set while the laser output is enabled.
	LaserOn bool
}

// Engraver is a machine that marks tags.
//
// Engrave runs a job to the end; the progress function, when not nil, is
// called from Engrave's goroutine. Cancelling ctx aborts the job. Every
// way out of Engrave other than success leaves the laser off. Pause and
// Resume hold and continue a running job from another goroutine.
type Engraver interface {
	Engrave(ctx context.Context, j Job, progress func(Progress)) error
	Pause(ctx context.Context) error
	Resume(ctx context.Context) error
	Status(ctx context.Context) (Status, error)
	// Unlock clears an alarm once the operator has checked the machine.
	Unlock(ctx context.Context) error
	String() string
	Close() error
}

// Override is a change of the running job's feed or laser power, as
// the machine's real-time override commands make it.
type Override string

// Overrides. Feed and power change by 10 % or 1 % steps within the
// machine's limits (GRBL: 10-200 %); the ...100 ones go back to the
// programmed value.
const (
	FeedPlus10   Override = "feed+10"
	FeedMinus10  Override = "feed-10"
	FeedPlus1    Override = "feed+1"
	FeedMinus1   Override = "feed-1"
	Feed100      Override = "feed100"
	PowerPlus10  Override = "power+10"
	PowerMinus10 Override = "power-10"
	PowerPlus1   Override = "power+1"
	PowerMinus1  Override = "power-1"
	Power100     Override = "power100"
)

// Overrides lists every Override, for a page or a command's help.
var Overrides = []Override{FeedPlus10, FeedMinus10, FeedPlus1, FeedMinus1, Feed100,
	PowerPlus10, PowerMinus10, PowerPlus1, PowerMinus1, Power100}

// Station is an engraver with the controls a person at the machine
// needs between jobs and during one: homing, unlocking (Engraver),
// jogging, setting the work origin where the blank lies, tracing a job's
// outline with the laser off (frame), a time estimate, overrides and
// abort.
type Station interface {
	Engraver
	// Home runs the homing cycle; it also clears an alarm.
	Home(ctx context.Context) error
	// Jog moves by dx, dy mm at feed mm/min with the laser off.
	Jog(ctx context.Context, dx, dy, feed float64) error
	// SetOrigin makes the current position the job origin.
	SetOrigin(ctx context.Context) error
	// Frame travels round the job's bounds with the laser off.
	Frame(ctx context.Context, j Job) error
	// Estimate is the job's time on this machine (see Job.Estimate).
	Estimate(ctx context.Context, j Job) (time.Duration, error)
	// Override changes the running job's feed or power.
	Override(ctx context.Context, o Override) error
	// Abort stops the running job (laser off); without one it stops
	// whatever the machine does.
	Abort(ctx context.Context) error
}

// Errors shared by the engraver drivers.
var (
	ErrJob   = errors.New("engravers: bad job")
	ErrBusy  = errors.New("engravers: a job is running")
	ErrAlarm = errors.New("engravers: machine in alarm, needs an operator")
	// ErrUnclear: every line of the job reached the machine but its end
	// could not be confirmed (replies lost, the machine not seen idle at
	// the end position). The tag may be complete: a person checks it
	// before anything is engraved again.
	ErrUnclear = errors.New("engravers: end of job unclear, check the tag")
	// ErrSettings: the controller's settings do not suit the job, and
	// changing them was not allowed.
	ErrSettings = errors.New("engravers: controller settings need changing")
)
