package zpl

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"strconv"
	"sync"
	"time"

	"github.com/chipdesk/chipdesk/drivers/port"
	"github.com/chipdesk/chipdesk/drivers/printers"
	"github.com/chipdesk/chipdesk/tags/mono"
	"github.com/chipdesk/chipdesk/tags/zplgf"
)

// Errors of the driver.
var (
	// ErrFormat: the data is not a complete ^XA … ^XZ format.
	ErrFormat = errors.New("zpl: not a complete ^XA … ^XZ format")
	// ErrNoReply: the printer did not answer ~HS in time.
	ErrNoReply = errors.New("zpl: no host status reply")
)

// Opts configures a Dev.
type Opts struct {
	// ReplyTimeout bounds the wait for a ~HS reply.
	ReplyTimeout time.Duration
	// NoStatus turns off the ~HS checks, for a one-way link that gives
	// no reply (a serial cable without a receive line, a print server
	// that drops replies). Status then returns printers.ErrStatusUnavailable.
	NoStatus bool
	// ChunkSize is the largest single write; the context is checked
	// between chunks.
	ChunkSize int
	// Dpmm is the printer's resolution in dots per mm (8 = 203 dpi, 12 =
	// 300 dpi, 24 = 600 dpi), used to draw a Label's Art; 0 means 8.
	Dpmm int
	// Darkness, when not 0, is sent as ~SDnn (1-30) before each job:
	// the printer's darkness setting, kept until changed.
	Darkness int
	// Speed, when not 0, is the print speed in inches per second (2-14)
	// set by ^PRn in each format.
	Speed int
	// Calibrate sends ~JC (media and ribbon sensor calibration: the
	// printer feeds labels to find their length) once when the device
	// is opened, for a roll just loaded.
	Calibrate bool
	// Now is the clock.
	Now func() time.Time
}

// DefaultOpts are the options used when nil is passed.
var DefaultOpts = Opts{ReplyTimeout: 3 * time.Second, ChunkSize: 16 << 10, Dpmm: 8, Now: time.Now}

// Check returns an error naming the option out of its range.
func (o Opts) Check() error {
	switch {
	case o.Dpmm != 0 && o.Dpmm != 6 && o.Dpmm != 8 && o.Dpmm != 12 && o.Dpmm != 24:
		return fmt.Errorf("zpl: dpmm %d: want 6, 8, 12 or 24", o.Dpmm)
	case o.Darkness < 0 || o.Darkness > 30:
		return fmt.Errorf("zpl: darkness %d: want 1-30 (~SD)", o.Darkness)
	case o.Speed != 0 && (o.Speed < 2 || o.Speed > 14):
		return fmt.Errorf("zpl: speed %d: want 2-14 in/s (^PR)", o.Speed)
	}
	return nil
}

// pollInterval is the longest single read, so a cancelled context is
// seen within it.
const pollInterval = 50 * time.Millisecond

// Dev is a ZPL printer on a port.
type Dev struct {
	p    port.Port
	opts Opts

	mu    sync.Mutex // one exchange at a time
	stale bool       // a reply may still be on its way
}

var _ printers.Printer = (*Dev)(nil)

// New returns a printer on p. Unless o.NoStatus is set it probes the
// printer with ~HS, waiting at most o.ReplyTimeout and no longer than
// ctx allows, and fails when there is no valid reply; a printer that
// reports faults is still returned.
func New(ctx context.Context, p port.Port, o *Opts) (*Dev, error) {
	if o == nil {
		o = &DefaultOpts
	}
	if err := o.Check(); err != nil {
		return nil, err
	}
	d := &Dev{p: p, opts: *o}
	if d.opts.Dpmm == 0 {
		d.opts.Dpmm = DefaultOpts.Dpmm
	}
	if d.opts.ReplyTimeout <= 0 {
		d.opts.ReplyTimeout = DefaultOpts.ReplyTimeout
	}
	if d.opts.ChunkSize <= 0 {
		d.opts.ChunkSize = DefaultOpts.ChunkSize
	}
	if d.opts.Now == nil {
		d.opts.Now = time.Now
	}
	if !d.opts.NoStatus {
		if _, err := d.HostStatus(ctx); err != nil {
			return nil, err
		}
	}
	if d.opts.Calibrate {
		if err := d.write(ctx, []byte(CalibrateCommand)); err != nil {
			return nil, err
		}
	}
	return d, nil
}

// CalibrateCommand is ~JC: calibrate the media and ribbon sensors.
const CalibrateCommand = "~JC"

// Confirms implements printers.Confirmer: a job is confirmed by ~HS
// after it unless the link gives no reply (Opts.NoStatus).
func (d *Dev) Confirms() bool { return !d.opts.NoStatus }

// Dpmm is the resolution the printer's labels are drawn at.
func (d *Dev) Dpmm() int { return d.opts.Dpmm }

// String names the printer and its port.
func (d *Dev) String() string { return "zpl{" + d.p.String() + "}" }

// Close closes the port.
func (d *Dev) Close() error {
	if err := d.p.Close(); err != nil {
		return fmt.Errorf("zpl: %w", err)
	}
	return nil
}

// Status implements printers.Printer.
func (d *Dev) Status(ctx context.Context) (printers.Status, error) {
	if d.opts.NoStatus {
		return printers.Status{}, fmt.Errorf("zpl: %s: %w", d.p, printers.ErrStatusUnavailable)
	}
	h, err := d.HostStatus(ctx)
	if err != nil {
		return printers.Status{}, err
	}
	return h.Status(), nil
}

// Print implements printers.Printer. It sends l.ZPL, with ^PQ set to
// l.Copies when that is more than 1. A label with only an Image is sent
// as one ^GFA graphic field at the top left, one image pixel per dot.
// A label with neither returns printers.ErrUnsupported.
func (d *Dev) Print(ctx context.Context, l printers.Label) error {
	z := l.ZPL
	if l.Art != nil {
		var err error
		if z, err = l.Art.ZPL(d.opts.Dpmm); err != nil {
			return fmt.Errorf("zpl: %w", err)
		}
	}
	if len(z) == 0 {
		if l.Image == nil {
			return fmt.Errorf("zpl: %w", printers.ErrUnsupported)
		}
		z = ImageFormat(l.Image)
	}
	data, err := withCopies(z, l.Copies)
	if err != nil {
		return err
	}
	return d.Send(ctx, d.withSettings(data))
}

// withSettings adds the device's darkness (~SD, before the format: a
// tilde command acts at once) and print speed (^PR, right after ^XA).
func (d *Dev) withSettings(z []byte) []byte {
	if d.opts.Darkness == 0 && d.opts.Speed == 0 {
		return z
	}
	var b bytes.Buffer
	if d.opts.Darkness != 0 {
		fmt.Fprintf(&b, "~SD%02d", d.opts.Darkness)
	}
	i := bytes.Index(z, []byte("^XA"))
	if d.opts.Speed == 0 || i < 0 {
		b.Write(z)
		return b.Bytes()
	}
	b.Write(z[:i+3])
	fmt.Fprintf(&b, "^PR%d", d.opts.Speed)
	b.Write(z[i+3:])
	return b.Bytes()
}

// Send sends ZPL data as one job: the printer is checked with ~HS
// before (a faulted printer gets nothing) and after the data.
func (d *Dev) Send(ctx context.Context, data []byte) error {
	if !d.opts.NoStatus {
		h, err := d.HostStatus(ctx)
		if err != nil {
			return err
		}
		if f := h.Faults(); f != 0 {
			return fmt.Errorf("zpl: %s not ready: %w", d.p, f)
		}
	}
	if err := d.write(ctx, data); err != nil {
		return err
	}
	if d.opts.NoStatus {
		return nil
	}
	h, err := d.HostStatus(ctx)
	if err != nil {
		return fmt.Errorf("zpl: after job: %w", err)
	}
	if f := h.Faults(); f != 0 {
		return fmt.Errorf("zpl: %s after job: %w", d.p, f)
	}
	return nil
}

func (d *Dev) write(ctx context.Context, data []byte) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	for len(data) > 0 {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("zpl: send: %w", err)
		}
		n := min(len(data), d.opts.ChunkSize)
		if _, err := d.p.Write(data[:n]); err != nil {
			return fmt.Errorf("zpl: send: %w", err)
		}
		data = data[n:]
	}
	return nil
}

// HostStatus sends ~HS and reads the reply.
func (d *Dev) HostStatus(ctx context.Context) (HostStatus, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.stale {
		d.drain()
	}
	if _, err := d.p.Write([]byte(HostStatusCommand)); err != nil {
		return HostStatus{}, fmt.Errorf("zpl: host status: %w", err)
	}
	b, err := d.readFrames(ctx, 3)
	if err != nil {
		d.stale = true
		return HostStatus{}, err
	}
	h, err := ParseHostStatus(b)
	if err != nil {
		d.stale = true
		return HostStatus{}, err
	}
	return h, nil
}

// readFrames reads until n ETX bytes have arrived.
func (d *Dev) readFrames(ctx context.Context, n int) ([]byte, error) {
	deadline := d.opts.Now().Add(d.opts.ReplyTimeout)
	var b []byte
	buf := make([]byte, 256)
	for bytes.Count(b, []byte{etx}) < n {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("zpl: host status: %w", err)
		}
		left := deadline.Sub(d.opts.Now())
		if left <= 0 {
			return nil, fmt.Errorf("%w from %s after %v", ErrNoReply, d.p, d.opts.ReplyTimeout)
		}
		d.setTimeout(min(left, pollInterval))
		k, err := d.p.Read(buf)
		b = append(b, buf[:k]...)
		if err != nil && !errors.Is(err, port.ErrTimeout) {
			return nil, fmt.Errorf("zpl: host status: %w", err)
		}
	}
	// CR LF after the last ETX may still be in flight: it is not needed.
	return b, nil
}

// drain throws away what is waiting on the port (a late reply).
func (d *Dev) drain() {
	d.setTimeout(10 * time.Millisecond)
	buf := make([]byte, 256)
	for range 64 {
		if _, err := d.p.Read(buf); err != nil {
			break
		}
	}
	d.stale = false
}

func (d *Dev) setTimeout(t time.Duration) {
	if to, ok := d.p.(port.Timeouter); ok {
		_ = to.SetReadTimeout(t) // a port that refuses keeps its own timeout
	}
}

// ImageFormat returns a format that prints img as a ^GFA graphic field
// at the label home, with print width and label length set to its size.
// Dots are black where mono.Black says so.
func ImageFormat(img image.Image) []byte {
	m := mono.FromImage(img)
	r := m.Bounds()
	var b bytes.Buffer
	fmt.Fprintf(&b, "^XA^PW%d^LL%d^FO0,0", r.Dx(), r.Dy())
	b.Write(zplgf.Encode(m))
	b.WriteString("^FS^XZ")
	return b.Bytes()
}

// withCopies sets the print quantity of a format by inserting ^PQn
// before its final ^XZ (the last ^PQ in a format wins).
func withCopies(z []byte, copies int) ([]byte, error) {
	start := bytes.Index(z, []byte("^XA"))
	end := bytes.LastIndex(z, []byte("^XZ"))
	if start < 0 || end < start {
		return nil, ErrFormat
	}
	if copies <= 1 {
		return z, nil
	}
	out := make([]byte, 0, len(z)+12)
	out = append(out, z[:end]...)
	out = append(out, "^PQ"+strconv.Itoa(copies)...)
	return append(out, z[end:]...), nil
}
