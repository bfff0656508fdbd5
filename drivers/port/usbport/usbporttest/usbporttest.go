package usbporttest

import (
	"context"
	"fmt"
	"slices"
	"sync"

	"github.com/chipdesk/chipdesk/drivers/port/usbport"
)

// Bus is a fake usbport.Bus.
type Bus struct {
	mu     sync.Mutex
	devs   []*Device
	closed bool
	// Err, when set, is returned by Devices and Open.
	Err error
}

var _ usbport.Bus = (*Bus)(nil)

// NewBus returns a bus with devs plugged in.
func NewBus(devs ...*Device) *Bus {
	b := &Bus{}
	for _, d := range devs {
		b.Plug(d)
	}
	return b
}

// Plug adds d to the bus; a device plugged again after Unplug works anew.
func (b *Bus) Plug(d *Device) {
	b.mu.Lock()
	defer b.mu.Unlock()
	d.mu.Lock()
	d.gone = false
	d.mu.Unlock()
	if !slices.Contains(b.devs, d) {
		b.devs = append(b.devs, d)
	}
}

// Unplug removes d: waiting and later transfers on it fail with
// usbport.ErrNoDevice, as libusb's do.
func (b *Bus) Unplug(d *Device) {
	b.mu.Lock()
	b.devs = slices.DeleteFunc(b.devs, func(x *Device) bool { return x == d })
	b.mu.Unlock()
	d.mu.Lock()
	d.gone = true
	d.wake()
	d.mu.Unlock()
}

// Devices implements usbport.Bus.
func (b *Bus) Devices(ctx context.Context) ([]usbport.Desc, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if err := b.check(ctx); err != nil {
		return nil, err
	}
	out := make([]usbport.Desc, len(b.devs))
	for i, d := range b.devs {
		out[i] = d.D
	}
	return out, nil
}

// Open implements usbport.Bus.
func (b *Bus) Open(ctx context.Context, m usbport.Match) (usbport.Device, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if err := b.check(ctx); err != nil {
		return nil, err
	}
	for _, d := range b.devs {
		if !m.Matches(d.D) {
			continue
		}
		if d.OpenErr != nil {
			return nil, fmt.Errorf("usbporttest: open %s: %w", d.D, d.OpenErr)
		}
		d.mu.Lock()
		d.opened++
		d.mu.Unlock()
		return &handle{d: d}, nil
	}
	return nil, fmt.Errorf("usbporttest: open %s: %w", m, usbport.ErrNotFound)
}

// Close implements usbport.Bus; like gousb it refuses while devices are open.
func (b *Bus) Close() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, d := range b.devs {
		if n := d.Opened(); n > 0 {
			return fmt.Errorf("usbporttest: close bus: %s still open %d times", d.D, n)
		}
	}
	b.closed = true
	return nil
}

func (b *Bus) check(ctx context.Context) error {
	if b.closed {
		return usbport.ErrClosed
	}
	if b.Err != nil {
		return b.Err
	}
	return ctx.Err()
}

// Device is a fake device. Set the exported fields before plugging it in.
type Device struct {
	D usbport.Desc
	// OpenErr, when set, is returned by Bus.Open for this device
	// (usbport.ErrAccess, for instance).
	OpenErr error
	// KernelDriver names the kernel driver bound to each interface
	// number ("usbhid", "usblp"); Claim detaches it.
	KernelDriver map[int]string
	// Control answers control transfers; nil stalls every request.
	Control func(rType, request uint8, value, index uint16, data []byte) (int, error)
	// OnWrite, when set, sees every OUT transfer after it is stored; it
	// may call Feed to answer. It runs without the device's lock.
	OnWrite func(addr uint8, p []byte)

	mu       sync.Mutex
	in       map[uint8][][]byte
	out      map[uint8][]byte
	claimed  map[int]bool
	detached map[int]bool
	blockW   bool
	gone     bool
	opened   int
	signal   chan struct{}
}

// wake tells waiting transfers to look again; d.mu is held.
func (d *Device) wake() {
	if d.signal != nil {
		close(d.signal)
	}
	d.signal = make(chan struct{})
}

// changed returns a channel closed at the next change; d.mu is held.
func (d *Device) changed() <-chan struct{} {
	if d.signal == nil {
		d.signal = make(chan struct{})
	}
	return d.signal
}

// Feed queues packets on the IN endpoint addr; each is one transfer's
// worth (an empty packet is a zero-length packet).
func (d *Device) Feed(addr uint8, packets ...[]byte) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.in == nil {
		d.in = map[uint8][][]byte{}
	}
	for _, p := range packets {
		d.in[addr] = append(d.in[addr], append([]byte{}, p...))
	}
	d.wake()
}

// Pending returns the number of packets not yet read from addr.
func (d *Device) Pending(addr uint8) int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return len(d.in[addr])
}

// Written returns everything written to the OUT endpoint addr.
func (d *Device) Written(addr uint8) []byte {
	d.mu.Lock()
	defer d.mu.Unlock()
	return append([]byte(nil), d.out[addr]...)
}

// BlockWrites makes OUT transfers wait (a printer that stopped taking
// data) until ctx ends or BlockWrites(false).
func (d *Device) BlockWrites(b bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.blockW = b
	d.wake()
}

// Claimed tells whether interface n is claimed.
func (d *Device) Claimed(n int) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.claimed[n]
}

// Detached tells whether the kernel driver of interface n is detached now.
func (d *Device) Detached(n int) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.detached[n]
}

// Opened returns the number of open handles.
func (d *Device) Opened() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.opened
}

// handle is an open Device.
type handle struct {
	d      *Device
	mu     sync.Mutex
	closed bool
}

func (h *handle) Desc() usbport.Desc { return h.d.D }

func (h *handle) Claim(ctx context.Context, number, alt int) (usbport.Interface, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if h.isClosed() {
		return nil, usbport.ErrClosed
	}
	d := h.d
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.gone {
		return nil, usbport.ErrNoDevice
	}
	var desc usbport.InterfaceDesc
	found := false
	for _, i := range d.D.Interfaces {
		if i.Number == number && i.Alt == alt {
			desc, found = i, true
		}
	}
	if !found {
		return nil, fmt.Errorf("usbporttest: interface %d alt %d: %w", number, alt, usbport.ErrNotFound)
	}
	if d.claimed[number] {
		return nil, usbport.ErrBusy
	}
	if d.claimed == nil {
		d.claimed = map[int]bool{}
		d.detached = map[int]bool{}
	}
	d.claimed[number] = true
	if d.KernelDriver[number] != "" {
		d.detached[number] = true
	}
	return &iface{h: h, desc: desc}, nil
}

func (h *handle) Control(ctx context.Context, rType, request uint8, value, index uint16, data []byte) (int, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	if h.isClosed() {
		return 0, usbport.ErrClosed
	}
	h.d.mu.Lock()
	gone, fn := h.d.gone, h.d.Control
	h.d.mu.Unlock()
	if gone {
		return 0, usbport.ErrNoDevice
	}
	if fn == nil {
		return 0, usbport.ErrStall
	}
	return fn(rType, request, value, index, data)
}

func (h *handle) Close() error {
	h.mu.Lock()
	was := h.closed
	h.closed = true
	h.mu.Unlock()
	if was {
		return nil
	}
	h.d.mu.Lock()
	h.d.opened--
	h.d.wake()
	h.d.mu.Unlock()
	return nil
}

func (h *handle) isClosed() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.closed
}

type iface struct {
	h        *handle
	desc     usbport.InterfaceDesc
	released bool
}

func (i *iface) Desc() usbport.InterfaceDesc { return i.desc }

func (i *iface) ep(addr uint8, in bool) (usbport.EndpointDesc, error) {
	for _, e := range i.desc.Endpoints {
		if e.Address == addr && e.In() == in {
			return e, nil
		}
	}
	return usbport.EndpointDesc{}, fmt.Errorf("usbporttest: endpoint 0x%02x: %w", addr, usbport.ErrNoEndpoint)
}

func (i *iface) In(addr uint8) (usbport.InEndpoint, error) {
	e, err := i.ep(addr, true)
	if err != nil {
		return nil, err
	}
	return &inEP{i: i, desc: e}, nil
}

func (i *iface) Out(addr uint8) (usbport.OutEndpoint, error) {
	e, err := i.ep(addr, false)
	if err != nil {
		return nil, err
	}
	return &outEP{i: i, desc: e}, nil
}

func (i *iface) Release() error {
	d := i.h.d
	d.mu.Lock()
	defer d.mu.Unlock()
	if i.released {
		return nil
	}
	i.released = true
	delete(d.claimed, i.desc.Number)
	delete(d.detached, i.desc.Number)
	d.wake()
	return nil
}

// usable returns an error when transfers can no longer run; d.mu is held.
func (i *iface) usable() error {
	switch {
	case i.h.d.gone:
		return usbport.ErrNoDevice
	case i.released, i.h.isClosed():
		return usbport.ErrClosed
	}
	return nil
}

type inEP struct {
	i    *iface
	desc usbport.EndpointDesc
}

func (e *inEP) Desc() usbport.EndpointDesc { return e.desc }

func (e *inEP) ReadContext(ctx context.Context, p []byte) (int, error) {
	d := e.i.h.d
	for {
		d.mu.Lock()
		if err := e.i.usable(); err != nil {
			d.mu.Unlock()
			return 0, err
		}
		if q := d.in[e.desc.Address]; len(q) > 0 {
			pkt := q[0]
			d.in[e.desc.Address] = q[1:]
			d.mu.Unlock()
			if len(pkt) > len(p) {
				return copy(p, pkt), usbport.ErrOverflow
			}
			return copy(p, pkt), nil
		}
		ch := d.changed()
		d.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			return 0, ctx.Err()
		}
	}
}

type outEP struct {
	i    *iface
	desc usbport.EndpointDesc
}

func (e *outEP) Desc() usbport.EndpointDesc { return e.desc }

func (e *outEP) WriteContext(ctx context.Context, p []byte) (int, error) {
	d := e.i.h.d
	for {
		d.mu.Lock()
		if err := e.i.usable(); err != nil {
			d.mu.Unlock()
			return 0, err
		}
		if !d.blockW {
			break
		}
		ch := d.changed()
		d.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			return 0, ctx.Err()
		}
	}
	if d.out == nil {
		d.out = map[uint8][]byte{}
	}
	d.out[e.desc.Address] = append(d.out[e.desc.Address], p...)
	fn := d.OnWrite
	d.mu.Unlock()
	if fn != nil {
		fn(e.desc.Address, append([]byte(nil), p...))
	}
	return len(p), nil
}

// Printer returns a bidirectional printer-class device (interface 0,
// class 7/1/2, bulk OUT 0x01 and bulk IN 0x82 of 64 bytes) bound to usblp.
func Printer(vid, pid uint16, serial string) *Device {
	return &Device{
		D: usbport.Desc{
			Bus: 1, Address: 4, Path: []int{1}, VID: vid, PID: pid,
			Serial: serial, Config: 1,
			Interfaces: []usbport.InterfaceDesc{{
				Number: 0, Class: usbport.ClassPrinter, SubClass: 1, Protocol: 2,
				Endpoints: []usbport.EndpointDesc{
					{Address: 0x01, Type: usbport.Bulk, MaxPacket: 64},
					{Address: 0x82, Type: usbport.Bulk, MaxPacket: 64},
				},
			}},
		},
		KernelDriver: map[int]string{0: "usblp"},
	}
}

// BootKeyboard returns a HID boot keyboard (interface 0, class 3/1/1,
// interrupt IN 0x81 of 8 bytes) bound to usbhid, as a keyboard-wedge
// scanner presents itself.
func BootKeyboard(vid, pid uint16, serial string) *Device {
	return &Device{
		D: usbport.Desc{
			Bus: 1, Address: 5, Path: []int{2}, VID: vid, PID: pid,
			Serial: serial, Config: 1,
			Interfaces: []usbport.InterfaceDesc{{
				Number: 0, Class: usbport.ClassHID, SubClass: 1, Protocol: 1,
				Endpoints: []usbport.EndpointDesc{
					{Address: 0x81, Type: usbport.Interrupt, MaxPacket: 8},
				},
			}},
		},
		KernelDriver: map[int]string{0: "usbhid"},
	}
}

// Vendor returns a device with one vendor-specific interface (class
// 0xff, bulk IN 0x81 and bulk OUT 0x02 of 64 bytes), as an FTDI
// adapter has.
func Vendor(vid, pid uint16, serial string) *Device {
	return &Device{
		D: usbport.Desc{
			Bus: 1, Address: 6, Path: []int{3}, VID: vid, PID: pid,
			Serial: serial, Config: 1,
			Interfaces: []usbport.InterfaceDesc{{
				Number: 0, Class: usbport.ClassVendor, SubClass: 0xff, Protocol: 0xff,
				Endpoints: []usbport.EndpointDesc{
					{Address: 0x02, Type: usbport.Bulk, MaxPacket: 64},
					{Address: 0x81, Type: usbport.Bulk, MaxPacket: 64},
				},
			}},
		},
		KernelDriver: map[int]string{0: "ftdi_sio"},
	}
}
