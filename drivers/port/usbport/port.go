package usbport

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/chipdesk/chipdesk/drivers/port"
)

// Opts selects what Open claims and how the Port times out.
type Opts struct {
	// Iface selects the interface; AnyIface takes the first with the
	// endpoints asked for.
	Iface IfaceSel
	// Alt is the alternate setting to claim.
	Alt int
	// Type is Bulk or Interrupt.
	Type TransferType
	// In and Out are endpoint addresses; 0 takes the first of Type in
	// that direction. NoOut opens a read-only port (a HID keyboard has
	// no OUT endpoint).
	In, Out uint8
	NoOut   bool
	// ReadTimeout bounds each Read; 0 blocks until data arrives.
	ReadTimeout time.Duration
	// WriteTimeout bounds each Write; 0 blocks.
	WriteTimeout time.Duration
}

// DefaultOpts opens the first interface with a bulk IN and a bulk OUT
// endpoint, with a one-second read timeout and a ten-second write timeout.
var DefaultOpts = Opts{
	Iface:        AnyIface,
	Type:         Bulk,
	ReadTimeout:  time.Second,
	WriteTimeout: 10 * time.Second,
}

// Port is a claimed interface seen as a byte stream. It implements
// port.Port and port.Timeouter; ReadContext and WriteContext take a
// context as well.
type Port struct {
	dev   Device
	iface Interface
	in    InEndpoint
	out   OutEndpoint
	name  string

	closed    context.Context
	closeOnce sync.Once
	cancel    context.CancelFunc

	mu       sync.Mutex // guards the fields below
	rTimeout time.Duration
	wTimeout time.Duration

	rmu  sync.Mutex // one reader at a time; guards buf
	buf  []byte
	rbuf []byte
	wmu  sync.Mutex // one writer at a time
}

var (
	_ port.Port      = (*Port)(nil)
	_ port.Timeouter = (*Port)(nil)
)

// Open opens the first device on b that m matches and claims an
// interface as o says. On success the Port owns the device.
func Open(ctx context.Context, b Bus, m Match, o *Opts) (*Port, error) {
	if b == nil {
		return nil, errNoBus
	}
	d, err := b.Open(ctx, m)
	if err != nil {
		return nil, err
	}
	if d == nil {
		return nil, fmt.Errorf("usbport: %s: %w", m, ErrNotFound)
	}
	p, err := NewPort(ctx, d, o)
	if err != nil {
		_ = d.Close()
		return nil, err
	}
	return p, nil
}

// NewPort claims an interface of an open device as o says. On success
// the Port owns d and closes it on Close; on failure d is left open.
func NewPort(ctx context.Context, d Device, o *Opts) (*Port, error) {
	if o == nil {
		o = &DefaultOpts
	}
	t := o.Type
	if t == Control {
		t = Bulk
	}
	desc := d.Desc()
	var (
		sel   InterfaceDesc
		inEP  EndpointDesc
		outEP EndpointDesc
		found bool
	)
	for _, i := range desc.Interfaces {
		if i.Alt != o.Alt || !o.Iface.Fits(i) {
			continue
		}
		ie, okIn := FindEndpoint(i, true, t, o.In)
		oe, okOut := FindEndpoint(i, false, t, o.Out)
		if !okIn || (!okOut && !o.NoOut) {
			continue
		}
		sel, inEP, outEP, found = i, ie, oe, true
		break
	}
	if !found {
		return nil, fmt.Errorf("usbport: %s: %s endpoints: %w", desc, t, ErrNoInterface)
	}
	iface, err := d.Claim(ctx, sel.Number, sel.Alt)
	if err != nil {
		return nil, fmt.Errorf("usbport: %s: claim interface %d: %w", desc, sel.Number, err)
	}
	in, err := iface.In(inEP.Address)
	if err != nil {
		_ = iface.Release()
		return nil, fmt.Errorf("usbport: %s: %w", desc, err)
	}
	var out OutEndpoint
	if !o.NoOut {
		if out, err = iface.Out(outEP.Address); err != nil {
			_ = iface.Release()
			return nil, fmt.Errorf("usbport: %s: %w", desc, err)
		}
	}
	n := inEP.MaxPacket
	if n <= 0 {
		n = 64
	}
	if t == Bulk && n < 512 {
		// Several packets per transfer; a multiple of the packet size
		// so that the device can never overflow the buffer.
		n *= 512 / n
	}
	closed, cancel := context.WithCancel(context.Background())
	name := desc.String()
	if desc.Serial == "" {
		if ps := desc.PathString(); ps != "" {
			name += " at " + ps
		}
	}
	return &Port{
		dev:      d,
		iface:    iface,
		in:       in,
		out:      out,
		name:     fmt.Sprintf("%s if %d", name, sel.Number),
		closed:   closed,
		cancel:   cancel,
		rTimeout: o.ReadTimeout,
		wTimeout: o.WriteTimeout,
		rbuf:     make([]byte, n),
	}, nil
}

// Device returns the open device, for class requests on endpoint 0.
func (p *Port) Device() Device { return p.dev }

// Interface returns the claimed interface's descriptor.
func (p *Port) Interface() InterfaceDesc { return p.iface.Desc() }

// String names the port ("usb 0a5f:0141 XXRBJ0000000 bus 1 addr 4 if 0").
func (p *Port) String() string { return p.name }

// SetReadTimeout implements port.Timeouter.
func (p *Port) SetReadTimeout(d time.Duration) error {
	if d < 0 {
		return fmt.Errorf("usbport: negative read timeout %v", d)
	}
	p.mu.Lock()
	p.rTimeout = d
	p.mu.Unlock()
	return nil
}

// SetWriteTimeout sets the bound on each Write; 0 blocks.
func (p *Port) SetWriteTimeout(d time.Duration) error {
	if d < 0 {
		return fmt.Errorf("usbport: negative write timeout %v", d)
	}
	p.mu.Lock()
	p.wTimeout = d
	p.mu.Unlock()
	return nil
}

// Read implements io.Reader with the read timeout.
func (p *Port) Read(b []byte) (int, error) { return p.ReadContext(context.Background(), b) }

// Write implements io.Writer with the write timeout.
func (p *Port) Write(b []byte) (int, error) { return p.WriteContext(context.Background(), b) }

// ReadContext reads what the device sent, waiting at most the read
// timeout. It returns port.ErrTimeout (wrapped) when nothing came,
// ErrNoDevice (wrapping port.ErrHangup) when the device went away and
// ErrClosed after Close. Zero-length packets are skipped.
func (p *Port) ReadContext(ctx context.Context, b []byte) (int, error) {
	if len(b) == 0 {
		return 0, nil
	}
	p.rmu.Lock()
	defer p.rmu.Unlock()
	if p.closed.Err() != nil {
		return 0, ErrClosed
	}
	if len(p.buf) > 0 {
		n := copy(b, p.buf)
		p.buf = p.buf[n:]
		return n, nil
	}
	p.mu.Lock()
	d := p.rTimeout
	p.mu.Unlock()
	tctx, cancel := p.transferCtx(ctx, d)
	defer cancel()
	for {
		n, err := p.in.ReadContext(tctx, p.rbuf)
		if n > 0 && (err == nil || tctx.Err() != nil) {
			// Data that came with an error (a cancelled transfer) is
			// delivered; the error shows again on the next read.
			c := copy(b, p.rbuf[:n])
			p.buf = p.rbuf[c:n]
			return c, nil
		}
		if err != nil {
			return 0, p.mapErr(ctx, tctx, "read", err)
		}
		if tctx.Err() != nil {
			return 0, p.mapErr(ctx, tctx, "read", tctx.Err())
		}
	}
}

// WriteContext writes b to the OUT endpoint, waiting at most the write
// timeout. A short write comes with an error.
func (p *Port) WriteContext(ctx context.Context, b []byte) (int, error) {
	p.wmu.Lock()
	defer p.wmu.Unlock()
	if p.closed.Err() != nil {
		return 0, ErrClosed
	}
	if p.out == nil {
		return 0, fmt.Errorf("usbport: %s: read-only port: %w", p.name, ErrNoEndpoint)
	}
	p.mu.Lock()
	d := p.wTimeout
	p.mu.Unlock()
	tctx, cancel := p.transferCtx(ctx, d)
	defer cancel()
	w := 0
	for w < len(b) {
		n, err := p.out.WriteContext(tctx, b[w:])
		w += n
		if err != nil {
			return w, p.mapErr(ctx, tctx, "write", err)
		}
		if n == 0 {
			return w, fmt.Errorf("usbport: %s: write accepted 0 bytes", p.name)
		}
	}
	return w, nil
}

// transferCtx ends when ctx ends, the timeout passes or the port closes.
func (p *Port) transferCtx(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	var (
		tctx   context.Context
		cancel context.CancelFunc
	)
	if d > 0 {
		tctx, cancel = context.WithTimeout(ctx, d)
	} else {
		tctx, cancel = context.WithCancel(ctx)
	}
	stop := context.AfterFunc(p.closed, cancel)
	return tctx, func() { stop(); cancel() }
}

// mapErr turns a transfer error into the port contract's errors.
func (p *Port) mapErr(ctx, tctx context.Context, op string, err error) error {
	switch {
	case p.closed.Err() != nil:
		return ErrClosed
	case ctx.Err() != nil:
		return fmt.Errorf("usbport: %s: %s: %w", p.name, op, ctx.Err())
	case errors.Is(err, port.ErrTimeout), errors.Is(tctx.Err(), context.DeadlineExceeded):
		return fmt.Errorf("usbport: %s: %s: %w", p.name, op, port.ErrTimeout)
	}
	return fmt.Errorf("usbport: %s: %s: %w", p.name, op, err)
}

// Close cancels transfers in flight, releases the interface and closes
// the device. It is safe to call more than once.
func (p *Port) Close() error {
	var err error
	p.closeOnce.Do(func() {
		p.cancel()
		// Wait for transfers in flight to see the cancellation.
		p.rmu.Lock()
		p.buf = nil
		p.rmu.Unlock()
		p.wmu.Lock()
		defer p.wmu.Unlock()
		err = errors.Join(p.iface.Release(), p.dev.Close())
		if err != nil {
			err = fmt.Errorf("usbport: %s: close: %w", p.name, err)
		}
	})
	return err
}
