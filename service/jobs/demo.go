package jobs

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"time"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/licensing"
)

// DemoOpts configures Demo.
type DemoOpts struct {
	Orders *Orders
	// Printer is the address of a ZPL printer ("127.0.0.1:9100"), a
	// simulated one in the demo.
	Printer string
	// Engraver, when set, is the serial device of a GRBL engraver.
	Engraver string
	// Previews is the folder that receives a PNG of every tag made; it is
	// created when missing.
	Previews string
	// Poll is how often the queue is looked at; 0 means one second.
	Poll   time.Duration
	Logger *slog.Logger
	Now    func() time.Time
}

// Demo runs the print queue of the demonstration: it opens the printer
// (and engraver), queues the tag of every active licence that has none,
// and makes queued tags until ctx is done, writing a PNG of each to the
// previews folder. It returns nil when ctx ends.
func Demo(ctx context.Context, o DemoOpts) error {
	if o.Orders == nil || o.Printer == "" || o.Previews == "" {
		return errors.New("jobs: demo needs Orders, a printer and a previews folder")
	}
	if o.Poll <= 0 {
		o.Poll = time.Second
	}
	if err := os.MkdirAll(o.Previews, 0o755); err != nil {
		return fmt.Errorf("jobs: %w", err)
	}
	specs := []string{"zpl:" + o.Printer + ",name=demo-zebra"}
	if o.Engraver != "" {
		specs = append(specs, "grbl:"+o.Engraver+",name=demo-laser,speed=3000")
	}
	var devs []*Device
	defer func() {
		for _, d := range devs {
			d.Close()
		}
	}()
	for _, s := range specs {
		sp, err := ParseSpec(s)
		if err != nil {
			return err
		}
		d, err := Open(ctx, sp)
		if err != nil {
			return err
		}
		devs = append(devs, d)
	}
	r, err := New(devs, &Opts{Orders: o.Orders, Previews: o.Previews, Poll: o.Poll, Logger: o.Logger, Now: o.Now})
	if err != nil {
		return err
	}
	now := time.Now
	if o.Now != nil {
		now = o.Now
	}
	if err := o.Orders.ApproveAll(ctx, "demo", now(), now().Year(), now().Year()+1); err != nil {
		return err
	}
	if _, err := QueueActive(ctx, o.Orders, service.JobPrint); err != nil {
		return err
	}
	if err := r.Run(ctx); !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return nil
}

// ApproveAll approves, as actor at at, every valid licence design for
// each of years (licensing.ApproveAll): what an administrator does on
// the admin page, for the demonstration and for tests.
func (is *Orders) ApproveAll(ctx context.Context, actor string, at time.Time, years ...int) error {
	return licensing.ApproveAll(ctx, is.Store, is.Designs, actor, at, years...)
}

// QueueActive queues the tag of every active licence that has no job
// yet, and returns how many it queued. Licences whose tag cannot be made
// (no design for the year) are left out.
func QueueActive(ctx context.Context, is *Orders, kind service.JobKind) (int, error) {
	active := service.LicenceActive
	n := 0
	for off := 0; ; off += 500 {
		ls, _, err := is.Store.FindLicences(ctx, service.LicenceFilter{Status: &active, Offset: off, Limit: 500})
		if err != nil {
			return n, err
		}
		for _, l := range ls {
			_, created, err := is.Queue(ctx, l.ID, kind)
			switch {
			case err == nil && created:
				n++
			case err != nil && service.ErrorCode(err) == service.EINTERNAL:
				return n, err
			}
		}
		if len(ls) < 500 {
			return n, nil
		}
	}
}
