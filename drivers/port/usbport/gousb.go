//go:build libusb && cgo

package usbport

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/google/gousb"

	"github.com/chipdesk/chipdesk/drivers/port"
)

// Supported tells whether this build can reach real USB devices.
const Supported = true

// NewBus starts libusb. It returns ErrInit (wrapped) when libusb cannot
// start, where gousb itself would panic.
func NewBus() (b Bus, err error) {
	defer func() {
		if r := recover(); r != nil {
			b, err = nil, fmt.Errorf("%w: %v", ErrInit, r)
		}
	}()
	return &gbus{ctx: gousb.NewContext()}, nil
}

// gbus is a Bus on a gousb context.
type gbus struct {
	mu     sync.Mutex
	ctx    *gousb.Context
	closed bool
}

func (b *gbus) context() (*gousb.Context, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return nil, ErrClosed
	}
	return b.ctx, nil
}

// Devices lists the devices; each is opened briefly to read its string
// descriptors, which stay empty when that is refused.
func (b *gbus) Devices(ctx context.Context) ([]Desc, error) {
	c, err := b.context()
	if err != nil {
		return nil, err
	}
	var descs []Desc
	devs, err := c.OpenDevices(func(d *gousb.DeviceDesc) bool {
		descs = append(descs, fromDesc(d))
		return true
	})
	for _, d := range devs {
		for i := range descs {
			if descs[i].Bus == d.Desc.Bus && descs[i].Address == d.Desc.Address {
				readStrings(d, &descs[i])
			}
		}
		_ = d.Close()
	}
	if err != nil && len(descs) == 0 {
		return nil, fmt.Errorf("usbport: list devices: %w", mapErr(err))
	}
	// An error opening one device (access) does not hide the others.
	return descs, ctx.Err()
}

// Open opens the first device m matches.
func (b *gbus) Open(ctx context.Context, m Match) (Device, error) {
	c, err := b.context()
	if err != nil {
		return nil, err
	}
	var (
		picked  bool
		lastErr error
	)
	devs, err := c.OpenDevices(func(d *gousb.DeviceDesc) bool {
		if picked && !m.NeedsStrings() {
			return false
		}
		// Without strings the serial is unknown here: open every
		// candidate and check it below.
		mm := m
		mm.Serial = ""
		ok := mm.Matches(fromDesc(d))
		picked = picked || ok
		return ok
	})
	if err != nil {
		lastErr = mapErr(err)
	}
	var found *gdev
	for _, d := range devs {
		desc := fromDesc(d.Desc)
		readStrings(d, &desc)
		if found == nil && m.Matches(desc) {
			found = &gdev{d: d, desc: desc}
			continue
		}
		_ = d.Close()
	}
	if found != nil {
		return found, nil
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if lastErr != nil {
		// A candidate could not be opened (permissions, busy).
		return nil, fmt.Errorf("usbport: open %s: %w", m, lastErr)
	}
	return nil, fmt.Errorf("usbport: open %s: %w", m, ErrNotFound)
}

func (b *gbus) Close() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return nil
	}
	b.closed = true
	if err := b.ctx.Close(); err != nil {
		return fmt.Errorf("usbport: close bus: %w", err)
	}
	return nil
}

func readStrings(d *gousb.Device, desc *Desc) {
	if s, err := d.Manufacturer(); err == nil {
		desc.Manufacturer = s
	}
	if s, err := d.Product(); err == nil {
		desc.Product = s
	}
	if s, err := d.SerialNumber(); err == nil {
		desc.Serial = s
	}
}

func fromDesc(d *gousb.DeviceDesc) Desc {
	out := Desc{
		Bus:      d.Bus,
		Address:  d.Address,
		Path:     append([]int(nil), d.Path...),
		VID:      uint16(d.Vendor),
		PID:      uint16(d.Product),
		Class:    Class(d.Class),
		SubClass: uint8(d.SubClass),
		Protocol: uint8(d.Protocol),
	}
	// The lowest configuration: nearly every device has only one.
	cfg := -1
	for n := range d.Configs {
		if cfg < 0 || n < cfg {
			cfg = n
		}
	}
	if cfg < 0 {
		return out
	}
	out.Config = cfg
	for _, i := range d.Configs[cfg].Interfaces {
		for _, a := range i.AltSettings {
			id := InterfaceDesc{
				Number:   a.Number,
				Alt:      a.Alternate,
				Class:    Class(a.Class),
				SubClass: uint8(a.SubClass),
				Protocol: uint8(a.Protocol),
			}
			for _, e := range a.Endpoints {
				id.Endpoints = append(id.Endpoints, EndpointDesc{
					Address:   uint8(e.Address),
					Type:      TransferType(e.TransferType),
					MaxPacket: e.MaxPacketSize,
					Interval:  e.PollInterval,
				})
			}
			sortEndpoints(id.Endpoints)
			out.Interfaces = append(out.Interfaces, id)
		}
	}
	sortInterfaces(out.Interfaces)
	return out
}

// gdev is an open gousb device.
type gdev struct {
	d    *gousb.Device
	desc Desc

	mu  sync.Mutex
	cfg *gousb.Config
	n   int // interfaces claimed from cfg
}

func (g *gdev) Desc() Desc { return g.desc }

func (g *gdev) Claim(ctx context.Context, number, alt int) (Interface, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if err := g.d.SetAutoDetach(true); err != nil {
		return nil, fmt.Errorf("usbport: auto-detach: %w", mapErr(err))
	}
	if g.cfg == nil {
		num, err := g.d.ActiveConfigNum()
		if err != nil || num <= 0 {
			num = g.desc.Config
		}
		cfg, err := g.d.Config(num)
		if err != nil {
			return nil, fmt.Errorf("usbport: config %d: %w", num, mapErr(err))
		}
		g.cfg = cfg
	}
	i, err := g.cfg.Interface(number, alt)
	if err != nil {
		if g.n == 0 {
			_ = g.cfg.Close()
			g.cfg = nil
		}
		return nil, fmt.Errorf("usbport: interface %d alt %d: %w", number, alt, mapErr(err))
	}
	g.n++
	var desc InterfaceDesc
	for _, d := range g.desc.Interfaces {
		if d.Number == number && d.Alt == alt {
			desc = d
		}
	}
	return &giface{dev: g, i: i, desc: desc}, nil
}

func (g *gdev) release() error {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.n--
	if g.n == 0 && g.cfg != nil {
		err := g.cfg.Close()
		g.cfg = nil
		return mapErr(err)
	}
	return nil
}

func (g *gdev) Control(ctx context.Context, rType, request uint8, value, index uint16, data []byte) (int, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	g.d.ControlTimeout = 0
	if dl, ok := ctx.Deadline(); ok {
		g.d.ControlTimeout = max(time.Millisecond, time.Until(dl))
	}
	n, err := g.d.Control(rType, request, value, index, data)
	return n, mapErr(err)
}

func (g *gdev) Close() error {
	g.mu.Lock()
	defer g.mu.Unlock()
	var errs []error
	if g.cfg != nil {
		errs = append(errs, g.cfg.Close())
		g.cfg = nil
	}
	errs = append(errs, g.d.Close())
	return mapErr(errors.Join(errs...))
}

type giface struct {
	dev  *gdev
	i    *gousb.Interface
	desc InterfaceDesc
	once sync.Once
}

func (i *giface) Desc() InterfaceDesc { return i.desc }

func (i *giface) In(addr uint8) (InEndpoint, error) {
	ep, err := i.i.InEndpoint(int(addr & 0x0f))
	if err != nil {
		return nil, fmt.Errorf("usbport: in endpoint 0x%02x: %w: %v", addr, ErrNoEndpoint, err)
	}
	return &gin{ep: ep, desc: i.epDesc(addr)}, nil
}

func (i *giface) Out(addr uint8) (OutEndpoint, error) {
	ep, err := i.i.OutEndpoint(int(addr & 0x0f))
	if err != nil {
		return nil, fmt.Errorf("usbport: out endpoint 0x%02x: %w: %v", addr, ErrNoEndpoint, err)
	}
	return &gout{ep: ep, desc: i.epDesc(addr)}, nil
}

func (i *giface) epDesc(addr uint8) EndpointDesc {
	for _, e := range i.desc.Endpoints {
		if e.Address == addr {
			return e
		}
	}
	return EndpointDesc{Address: addr}
}

func (i *giface) Release() error {
	var err error
	i.once.Do(func() {
		i.i.Close()
		err = i.dev.release()
	})
	return err
}

type gin struct {
	ep   *gousb.InEndpoint
	desc EndpointDesc
}

func (e *gin) Desc() EndpointDesc { return e.desc }

func (e *gin) ReadContext(ctx context.Context, p []byte) (int, error) {
	n, err := e.ep.ReadContext(ctx, p)
	return n, transferErr(ctx, err)
}

type gout struct {
	ep   *gousb.OutEndpoint
	desc EndpointDesc
}

func (e *gout) Desc() EndpointDesc { return e.desc }

func (e *gout) WriteContext(ctx context.Context, p []byte) (int, error) {
	n, err := e.ep.WriteContext(ctx, p)
	return n, transferErr(ctx, err)
}

// transferErr reports a transfer cancelled by ctx as ctx's error.
func transferErr(ctx context.Context, err error) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, gousb.TransferCancelled) && ctx.Err() != nil {
		return ctx.Err()
	}
	return mapErr(err)
}

// mapErr turns libusb errors into this package's sentinels, keeping the
// libusb text.
func mapErr(err error) error {
	if err == nil {
		return nil
	}
	var sentinel error
	switch {
	case errors.Is(err, gousb.ErrorNoDevice), errors.Is(err, gousb.TransferNoDevice):
		sentinel = ErrNoDevice
	case errors.Is(err, gousb.ErrorTimeout), errors.Is(err, gousb.TransferTimedOut):
		sentinel = port.ErrTimeout
	case errors.Is(err, gousb.ErrorAccess):
		sentinel = ErrAccess
	case errors.Is(err, gousb.ErrorBusy):
		sentinel = ErrBusy
	case errors.Is(err, gousb.ErrorNotFound):
		sentinel = ErrNotFound
	case errors.Is(err, gousb.ErrorPipe), errors.Is(err, gousb.TransferStall):
		sentinel = ErrStall
	case errors.Is(err, gousb.ErrorOverflow), errors.Is(err, gousb.TransferOverflow):
		sentinel = ErrOverflow
	default:
		return err
	}
	return fmt.Errorf("%w (%v)", sentinel, err)
}
