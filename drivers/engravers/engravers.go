package engravers

import (
	"context"
	"errors"
	"fmt"
	"math"
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
	for i, p := range j.Paths {
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
// g-code lines acknowledged by the controller).
type Progress struct {
	Done, Total int
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

// Errors shared by the engraver drivers.
var (
	ErrJob   = errors.New("engravers: bad job")
	ErrBusy  = errors.New("engravers: a job is running")
	ErrAlarm = errors.New("engravers: machine in alarm, needs an operator")
)
