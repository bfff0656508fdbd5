package brotherql

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/chipdesk/chipdesk/drivers/port"
	"github.com/chipdesk/chipdesk/drivers/printers"
)

// Opts configures a Dev.
type Opts struct {
	// Model names the printer ("QL-820NWB"). Over USB it may be empty:
	// the model code in the status reply decides.
	Model string
	// Media is the roll loaded ("62", "29x90"). Over USB it may be empty:
	// the media the printer reports is used. Over the network it is
	// required.
	Media string
	// Network says the port is a TCP connection to port 9100: the
	// printer sends no status back there, so nothing is checked or
	// confirmed.
	Network bool
	// Raster and Job shape the conversion and the job stream.
	Raster RasterOpts
	Job    JobOpts
	// ReplyTimeout bounds the wait for one status reply; 0 means 2 s.
	ReplyTimeout time.Duration
	// PrintTimeout bounds the wait for "printing completed"; 0 means 60 s.
	PrintTimeout time.Duration
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// HeadDpmm is the print head's resolution across the tape: 300 dpi.
const HeadDpmm = 300 / 25.4

// Dev is a Brother QL printer on a port.
type Dev struct {
	p     port.Port
	opts  Opts
	model Model
	media *Media // configured media, nil to use the loaded one

	mu   sync.Mutex
	rbuf []byte
}

var _ printers.Printer = (*Dev)(nil)

// chunk is the largest single write (a multiple of the 64-byte USB
// full-speed packet).
const chunk = 4096

// pollInterval is the longest single read, so a cancelled context is
// seen within it.
const pollInterval = 50 * time.Millisecond

// New returns the printer on p. Over USB it asks for the status and
// fails when there is no valid reply or the printer is another model;
// without Opts.Model the model is taken from the status reply when its
// code names one model only. Over the network Model and Media are
// required. A nil o means Opts{}. ctx bounds the status request.
func New(ctx context.Context, p port.Port, o *Opts) (*Dev, error) {
	if o == nil {
		o = &Opts{}
	}
	var mo Model
	if o.Model != "" || o.Network {
		var err error
		if mo, err = LookupModel(o.Model); err != nil {
			return nil, err
		}
	}
	d := &Dev{p: p, opts: *o, model: mo}
	if d.opts.ReplyTimeout <= 0 {
		d.opts.ReplyTimeout = 2 * time.Second
	}
	if d.opts.PrintTimeout <= 0 {
		d.opts.PrintTimeout = 60 * time.Second
	}
	if d.opts.Now == nil {
		d.opts.Now = time.Now
	}
	if o.Media != "" {
		me, err := LookupMedia(o.Media)
		if err != nil {
			return nil, err
		}
		d.media = &me
	} else if o.Network {
		return nil, fmt.Errorf("%w: Opts.Media is required over the network", ErrMedia)
	}
	if !o.Network {
		st, err := d.status(ctx)
		if err != nil {
			return nil, err
		}
		if o.Model == "" {
			if d.model, err = modelByCode(st.Model); err != nil {
				return nil, fmt.Errorf("%w (set Opts.Model)", err)
			}
		} else if mo.CodeConfirmed && st.Model != mo.Code {
			return nil, fmt.Errorf("%w: %s reports model code %#02x, %s is %#02x", ErrModel, p, st.Model, mo.Name, mo.Code)
		}
	}
	if d.media != nil {
		if err := d.media.fits(d.model); err != nil {
			return nil, err
		}
	}
	return d, nil
}

// String names the printer and its port.
func (d *Dev) String() string { return "brotherql " + d.model.Name + "{" + d.p.String() + "}" }

// Confirms implements printers.Confirmer: over USB or serial the
// printer reports "printing completed"; over the network it sends
// nothing back.
func (d *Dev) Confirms() bool { return !d.opts.Network }

// Model returns the printer model.
func (d *Dev) Model() Model { return d.model }

// Close closes the port.
func (d *Dev) Close() error {
	if err := d.p.Close(); err != nil {
		return fmt.Errorf("brotherql: %w", err)
	}
	return nil
}

// Status implements printers.Printer. Over the network it returns
// printers.ErrStatusUnavailable.
func (d *Dev) Status(ctx context.Context) (printers.Status, error) {
	st, err := d.RawStatus(ctx)
	if err != nil {
		return printers.Status{}, err
	}
	return st.Shared(), nil
}

// RawStatus asks for the 32-byte status.
func (d *Dev) RawStatus(ctx context.Context) (Status, error) {
	if d.opts.Network {
		return Status{}, fmt.Errorf("brotherql: %s: %w", d.p, printers.ErrStatusUnavailable)
	}
	return d.status(ctx)
}

func (d *Dev) status(ctx context.Context) (Status, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.rbuf = d.rbuf[:0]
	var req []byte
	req = append(req, make([]byte, InvalidateLen)...)
	req = append(req, cmdInitialize...)
	req = append(req, cmdStatus...)
	if err := d.write(ctx, req); err != nil {
		return Status{}, err
	}
	return d.readStatus(ctx, d.opts.Now().Add(d.opts.ReplyTimeout))
}

// readStatus reads one 32-byte reply, skipping bytes before a valid
// head.
func (d *Dev) readStatus(ctx context.Context, deadline time.Time) (Status, error) {
	buf := make([]byte, 64)
	for {
		// resynchronise on the fixed head
		if i := bytes.Index(d.rbuf, []byte{0x80, 0x20, 'B'}); i > 0 {
			d.rbuf = append(d.rbuf[:0], d.rbuf[i:]...)
		} else if i < 0 && len(d.rbuf) > 2 {
			d.rbuf = append(d.rbuf[:0], d.rbuf[len(d.rbuf)-2:]...)
		}
		if len(d.rbuf) >= StatusLen {
			st, err := ParseStatus(d.rbuf[:StatusLen])
			d.rbuf = append(d.rbuf[:0], d.rbuf[StatusLen:]...)
			return st, err
		}
		if err := ctx.Err(); err != nil {
			return Status{}, fmt.Errorf("brotherql: status: %w", err)
		}
		left := deadline.Sub(d.opts.Now())
		if left <= 0 {
			return Status{}, fmt.Errorf("%w from %s", ErrNoReply, d.p)
		}
		if t, ok := d.p.(port.Timeouter); ok {
			_ = t.SetReadTimeout(min(left, pollInterval)) // a port that refuses keeps its own
		}
		n, err := d.p.Read(buf)
		d.rbuf = append(d.rbuf, buf[:n]...)
		if err != nil && !errors.Is(err, port.ErrTimeout) {
			return Status{}, fmt.Errorf("brotherql: status: %w", err)
		}
	}
}

func (d *Dev) write(ctx context.Context, b []byte) error {
	for len(b) > 0 {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("brotherql: send: %w", err)
		}
		n := min(len(b), chunk)
		if _, err := d.p.Write(b[:n]); err != nil {
			return fmt.Errorf("brotherql: send: %w", err)
		}
		b = b[n:]
	}
	return nil
}

// Print implements printers.Printer: l.Image is rasterised for the
// media and printed l.Copies times (one page each). Over USB the printer
// is checked first (faults, loaded media) and the job is confirmed by the
// printer; over the network the bytes are sent and nothing is confirmed.
func (d *Dev) Print(ctx context.Context, l printers.Label) error {
	if l.Image == nil && l.Art == nil {
		return fmt.Errorf("brotherql: %w", printers.ErrUnsupported)
	}
	var me Media
	if !d.opts.Network {
		st, err := d.status(ctx)
		if err != nil {
			return err
		}
		if f := st.Faults(); f != 0 {
			return fmt.Errorf("brotherql: %s not ready (%v): %w", d.p, st.Errors(), f)
		}
		loaded, ok := st.Media()
		switch {
		case d.media != nil && (!ok || loaded.ID != d.media.ID):
			return fmt.Errorf("brotherql: %s has %s loaded, job wants %s: %w", d.p, st.Shared().Media, d.media, printers.FaultMediaWrong)
		case !ok:
			return fmt.Errorf("brotherql: %s has unknown media loaded: %w", d.p, printers.FaultMediaWrong)
		}
		me = loaded
	} else {
		me = *d.media
	}
	img := l.Image
	if l.Art != nil {
		// The label is laid out for the tape's printable width at the
		// head's 300 dpi, so Rasterize need not scale it.
		var err error
		if img, err = l.Art.Raster(HeadDpmm, float64(me.Dots)/HeadDpmm); err != nil {
			return fmt.Errorf("brotherql: %w", err)
		}
	}
	r, err := Rasterize(img, d.model, me, &d.opts.Raster)
	if err != nil {
		return err
	}
	pages := make([]Raster, max(l.Copies, 1))
	for i := range pages {
		pages[i] = r
	}
	job, err := EncodeJob(d.model, me, pages, &d.opts.Job)
	if err != nil {
		return err
	}
	return d.Send(ctx, job, len(pages))
}

// Send sends an encoded job of the given number of pages and, over USB,
// waits until the printer reports it printed.
func (d *Dev) Send(ctx context.Context, job []byte, pages int) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.rbuf = d.rbuf[:0]
	if err := d.write(ctx, job); err != nil {
		return err
	}
	if d.opts.Network {
		return nil
	}
	deadline := d.opts.Now().Add(d.opts.PrintTimeout)
	printed := 0
	for {
		st, err := d.readStatus(ctx, deadline)
		if err != nil {
			return fmt.Errorf("brotherql: waiting for the job (%d of %d pages printed): %w", printed, pages, err)
		}
		switch st.Type {
		case StatusError:
			return fmt.Errorf("brotherql: %s: job failed (%v): %w", d.p, st.Errors(), st.Faults())
		case StatusReply:
			if f := st.Faults(); f != 0 {
				return fmt.Errorf("brotherql: %s: job refused (%v): %w", d.p, st.Errors(), f)
			}
		case StatusPrinted:
			printed++
		case StatusPhaseChange:
			if st.Phase == PhaseWaiting && printed >= pages {
				return nil
			}
		}
	}
}
