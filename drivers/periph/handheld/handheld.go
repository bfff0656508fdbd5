package handheld

import (
	"context"
	"errors"
	"fmt"

	"github.com/chipdesk/chipdesk/drivers/periph/feedback"
	"github.com/chipdesk/chipdesk/reader"
)

// Opts configures a Dev.
type Opts struct {
	// Classify tells what a read means: feedback.Good (on record),
	// feedback.Dangerous or feedback.Unknown. An error plays
	// feedback.Failure and is returned with the read. nil signals every
	// read as Good.
	Classify func(ctx context.Context, r reader.Read) (feedback.Signal, error)
}

// DefaultOpts signals every read as Good.
var DefaultOpts = Opts{}

// Dev is a reader with a buzzer and an LED. It is itself a
// reader.Reader, so a program can hand it to whatever consumes reads.
type Dev struct {
	r  reader.Reader
	fb *feedback.Dev
	o  Opts
}

var _ reader.Reader = (*Dev)(nil)

// New ties r and fb; a nil o means DefaultOpts.
func New(r reader.Reader, fb *feedback.Dev, o *Opts) (*Dev, error) {
	if r == nil || fb == nil {
		return nil, errors.New("handheld: nil reader or feedback")
	}
	if o == nil {
		o = &DefaultOpts
	}
	return &Dev{r: r, fb: fb, o: *o}, nil
}

// String names the reader.
func (d *Dev) String() string { return "handheld " + d.r.String() }

// Close closes the reader and silences the outputs.
func (d *Dev) Close() error {
	return errors.Join(d.r.Close(), d.fb.Close())
}

// Next reads a chip, classifies it and plays its pattern before
// returning it. A reader failure other than a closed reader or an ended
// context plays feedback.Failure.
func (d *Dev) Next(ctx context.Context) (reader.Read, error) {
	r, err := d.r.Next(ctx)
	if err != nil {
		if ctx.Err() == nil && !errors.Is(err, reader.ErrClosed) {
			err = errors.Join(err, d.fb.Signal(ctx, feedback.Failure))
		}
		return r, err
	}
	sig := feedback.Good
	var cerr error
	if d.o.Classify != nil {
		sig, cerr = d.o.Classify(ctx, r)
		if cerr != nil {
			sig = feedback.Failure
			cerr = fmt.Errorf("handheld: classify %s: %w", r.ID.Code, cerr)
		}
	}
	if err := d.fb.Signal(ctx, sig); err != nil {
		return r, errors.Join(cerr, err)
	}
	return r, cerr
}
