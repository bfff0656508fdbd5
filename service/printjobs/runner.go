package printjobs

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/chipdesk/chipdesk/drivers/printers"
	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/tags"
)

// Opts configures a Runner. Tagger and Printer are required.
type Opts struct {
	Tagger *Tagger
	// Renderer draws the tags; nil makes one with tags.DefaultOpts.
	Renderer *tags.Renderer
	// Printer receives the labels.
	Printer printers.Printer
	// Device names the printer in the jobs; empty means Printer.String().
	Device string
	// ZPL sets the label resolution and margins; nil means
	// tags.DefaultZPLOpts.
	ZPL *tags.ZPLOpts
	// Poll is how often the queue is checked when it is empty; 0 means
	// DefaultPoll. Wake makes the runner look at once.
	Poll   time.Duration
	Logger *slog.Logger
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// DefaultPoll is the queue poll interval.
const DefaultPoll = 2 * time.Second

// Runner sends queued print jobs to one printer.
type Runner struct {
	o    Opts
	wake chan struct{}
}

// New returns a runner; call Run to start it.
func New(o *Opts) (*Runner, error) {
	if o == nil || o.Tagger == nil || o.Printer == nil {
		return nil, errors.New("printjobs: Tagger and Printer required")
	}
	r := &Runner{o: *o, wake: make(chan struct{}, 1)}
	if r.o.Renderer == nil {
		rd, err := tags.NewRenderer(nil)
		if err != nil {
			return nil, err
		}
		r.o.Renderer = rd
	}
	if r.o.Device == "" {
		r.o.Device = r.o.Printer.String()
	}
	if r.o.Poll <= 0 {
		r.o.Poll = DefaultPoll
	}
	if r.o.Now == nil {
		r.o.Now = time.Now
	}
	if r.o.Logger == nil {
		r.o.Logger = slog.New(slog.DiscardHandler)
	}
	return r, nil
}

// String names the runner's printer.
func (r *Runner) String() string { return r.o.Device }

// Wake makes a waiting runner check the queue now (a job was queued).
func (r *Runner) Wake() {
	select {
	case r.wake <- struct{}{}:
	default:
	}
}

// Run sends jobs until ctx is done; it returns ctx's error.
func (r *Runner) Run(ctx context.Context) error {
	t := time.NewTicker(r.o.Poll)
	defer t.Stop()
	for {
		for {
			did, err := r.RunOnce(ctx)
			if err != nil && ctx.Err() == nil {
				r.o.Logger.Error("printjobs: queue", "device", r.o.Device, "err", err)
			}
			if !did || ctx.Err() != nil {
				break
			}
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
		case <-r.wake:
		}
	}
}

// RunOnce claims the oldest queued print job and prints it. It reports
// false when the queue was empty. A job the tag or the printer refused
// is marked failed and is no error of RunOnce.
func (r *Runner) RunOnce(ctx context.Context) (bool, error) {
	j, err := r.o.Tagger.Store.ClaimJob(ctx, service.JobPrint, r.o.Device)
	if service.ErrorCode(err) == service.ENOTFOUND {
		return false, nil
	} else if err != nil {
		return false, fmt.Errorf("printjobs: claim: %w", err)
	}
	state, msg := service.JobDone, ""
	if perr := r.print(ctx, j); perr != nil {
		state, msg = service.JobFailed, perr.Error()
		r.o.Logger.Warn("printjobs: job failed", "job", j.ID, "device", r.o.Device, "err", perr)
	}
	if _, err := r.o.Tagger.Store.UpdateJob(ctx, j.ID, service.JobUpdate{State: &state, Error: &msg}); err != nil {
		return true, fmt.Errorf("printjobs: job %d: %w", j.ID, err)
	}
	return true, nil
}

func (r *Runner) print(ctx context.Context, j *service.Job) error {
	l, err := r.o.Tagger.Store.FindLicenceByID(ctx, j.LicenceID)
	if err != nil {
		return fmt.Errorf("printjobs: licence %d: %s", j.LicenceID, service.ErrorMessage(err))
	}
	tag, err := r.o.Tagger.Tag(ctx, l)
	if err != nil {
		return err
	}
	label, err := r.o.Renderer.ZPL(tag, r.o.ZPL)
	if err != nil {
		return fmt.Errorf("printjobs: render: %w", err)
	}
	return r.o.Printer.Print(ctx, printers.Label{ZPL: label.ZPL})
}

// DeviceStatus is the printer's state as the admin page shows it.
type DeviceStatus struct {
	Name  string
	Ready bool
	// State is "ready", "busy", the faults, or the error asking.
	State string
	At    time.Time
}

// Status asks the printer now.
func (r *Runner) Status(ctx context.Context) DeviceStatus {
	ds := DeviceStatus{Name: r.o.Device, At: r.o.Now()}
	st, err := r.o.Printer.Status(ctx)
	switch {
	case err != nil:
		ds.State = "no status: " + err.Error()
	case !st.Ready():
		ds.State = st.Err().Error()
	case st.Busy:
		ds.State, ds.Ready = "busy", true
	default:
		ds.State, ds.Ready = "ready", true
	}
	return ds
}
