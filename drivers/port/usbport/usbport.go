package usbport

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/chipdesk/chipdesk/drivers/port"
)

// Errors returned by this package and by every Bus implementation.
var (
	// ErrNoUSB is returned by NewBus in a build without the libusb tag
	// or without cgo.
	ErrNoUSB = errors.New("usbport: built without USB support (build with cgo and -tags libusb)")
	// ErrInit is returned when libusb cannot start.
	ErrInit = errors.New("usbport: libusb could not start")
	// ErrNotFound is returned when no device matches.
	ErrNotFound = errors.New("usbport: no matching USB device")
	// ErrNoInterface is returned when a device has no interface that fits.
	ErrNoInterface = errors.New("usbport: no matching interface")
	// ErrNoEndpoint is returned when an interface lacks the endpoint asked for.
	ErrNoEndpoint = errors.New("usbport: no matching endpoint")
	// ErrAccess is returned when the operating system refuses access
	// (see deploy/udev for the group rules).
	ErrAccess = errors.New("usbport: access denied")
	// ErrBusy is returned when another program holds the interface.
	ErrBusy = errors.New("usbport: interface busy")
	// ErrStall is returned when an endpoint stalls (halt condition).
	ErrStall = errors.New("usbport: endpoint stalled")
	// ErrOverflow is returned when the device sent more than was asked.
	ErrOverflow = errors.New("usbport: transfer overflow")
	// ErrNoDevice is returned when the device went away; it wraps
	// port.ErrHangup.
	ErrNoDevice = fmt.Errorf("usbport: device gone: %w", port.ErrHangup)
	// ErrClosed is returned after Close; it wraps port.ErrClosed.
	ErrClosed = fmt.Errorf("usbport: %w", port.ErrClosed)
)

// Class is a USB class code (USB 2.0 §9.6.1, §9.6.5).
type Class uint8

// Class codes used by chipdesk devices.
const (
	ClassPerInterface Class = 0x00
	ClassCDC          Class = 0x02 // communications (CDC-ACM serial)
	ClassHID          Class = 0x03
	ClassPrinter      Class = 0x07
	ClassCDCData      Class = 0x0a
	ClassVendor       Class = 0xff
)

// TransferType is an endpoint's transfer type (USB 2.0 §9.6.6, bmAttributes).
type TransferType uint8

// Transfer types.
const (
	Control     TransferType = 0
	Isochronous TransferType = 1
	Bulk        TransferType = 2
	Interrupt   TransferType = 3
)

func (t TransferType) String() string {
	switch t {
	case Control:
		return "control"
	case Isochronous:
		return "isochronous"
	case Bulk:
		return "bulk"
	case Interrupt:
		return "interrupt"
	}
	return "transfer(" + strconv.Itoa(int(t)) + ")"
}

// EndpointDesc describes one endpoint of an interface setting.
type EndpointDesc struct {
	// Address is the endpoint address; bit 7 set means IN.
	Address   uint8
	Type      TransferType
	MaxPacket int
	// Interval is the polling interval of interrupt endpoints.
	Interval time.Duration
}

// In tells whether the endpoint sends data to the host.
func (e EndpointDesc) In() bool { return e.Address&0x80 != 0 }

func (e EndpointDesc) String() string {
	dir := "out"
	if e.In() {
		dir = "in"
	}
	return fmt.Sprintf("ep 0x%02x %s %s %dB", e.Address, e.Type, dir, e.MaxPacket)
}

// InterfaceDesc describes one alternate setting of one interface.
type InterfaceDesc struct {
	Number    int
	Alt       int
	Class     Class
	SubClass  uint8
	Protocol  uint8
	Endpoints []EndpointDesc
}

// Desc describes a device as enumerated.
type Desc struct {
	Bus     int
	Address int
	// Path is the chain of hub ports from the root hub, as in
	// /sys/bus/usb/devices/1-1.4 ("1.4").
	Path     []int
	VID, PID uint16
	Class    Class
	SubClass uint8
	Protocol uint8
	// Manufacturer, Product and Serial are the string descriptors,
	// read when the device could be opened; empty otherwise.
	Manufacturer string
	Product      string
	Serial       string
	// Config is the configuration whose interfaces are listed.
	Config     int
	Interfaces []InterfaceDesc
}

// ID returns "vvvv:pppp", as lsusb prints it.
func (d Desc) ID() string { return fmt.Sprintf("%04x:%04x", d.VID, d.PID) }

// Key identifies the device for as long as it stays plugged in: a
// replugged device gets a new address and so a new key.
func (d Desc) Key() string {
	return fmt.Sprintf("%03d/%03d", d.Bus, d.Address)
}

// PathString returns the sysfs-style port path ("1-1.4"), or "" when
// the path is not known.
func (d Desc) PathString() string {
	if len(d.Path) == 0 {
		return ""
	}
	s := make([]string, len(d.Path))
	for i, p := range d.Path {
		s[i] = strconv.Itoa(p)
	}
	return strconv.Itoa(d.Bus) + "-" + strings.Join(s, ".")
}

func (d Desc) String() string {
	s := "usb " + d.ID()
	if d.Serial != "" {
		s += " " + d.Serial
	}
	return s + " bus " + strconv.Itoa(d.Bus) + " addr " + strconv.Itoa(d.Address)
}

// Bus enumerates and opens USB devices.
type Bus interface {
	// Devices lists the devices plugged in now.
	Devices(ctx context.Context) ([]Desc, error)
	// Open opens the first device that m matches. It returns an error
	// wrapping ErrNotFound when none does, never a nil Device and a nil
	// error.
	Open(ctx context.Context, m Match) (Device, error)
	// Close releases the bus; devices opened from it must be closed first.
	Close() error
}

// Device is an open device.
type Device interface {
	// Desc describes the device, string descriptors included.
	Desc() Desc
	// Claim claims an interface in its alternate setting, detaching a
	// kernel driver that holds it; the driver is reattached on Release.
	Claim(ctx context.Context, number, alt int) (Interface, error)
	// Control makes a control transfer on endpoint 0 (USB 2.0 §9.3);
	// data is read into or written from according to rType bit 7.
	Control(ctx context.Context, rType, request uint8, value, index uint16, data []byte) (int, error)
	Close() error
}

// Interface is a claimed interface.
type Interface interface {
	Desc() InterfaceDesc
	In(addr uint8) (InEndpoint, error)
	Out(addr uint8) (OutEndpoint, error)
	// Release releases the interface (and reattaches a kernel driver
	// that was detached).
	Release() error
}

// InEndpoint is an IN endpoint, bulk or interrupt. ReadContext returns
// one transfer: at most len(p) bytes, possibly 0 for a zero-length
// packet. It returns ErrOverflow when the device sent more than len(p),
// ErrNoDevice when the device went away, and ctx.Err() (wrapped) when
// ctx ended first.
type InEndpoint interface {
	Desc() EndpointDesc
	ReadContext(ctx context.Context, p []byte) (int, error)
}

// OutEndpoint is an OUT endpoint, bulk or interrupt.
type OutEndpoint interface {
	Desc() EndpointDesc
	WriteContext(ctx context.Context, p []byte) (int, error)
}

// Match selects devices. Zero fields match anything.
type Match struct {
	VID, PID uint16
	// Serial matches the serial-number string descriptor exactly.
	Serial string
	// Path matches Desc.PathString ("1-1.4"), for devices without a
	// serial number.
	Path string
	// Class matches a device whose device class or any interface class
	// is this one; 0 matches any.
	Class Class
}

// Matches tells whether m selects d.
func (m Match) Matches(d Desc) bool {
	if m.VID != 0 && m.VID != d.VID {
		return false
	}
	if m.PID != 0 && m.PID != d.PID {
		return false
	}
	if m.Serial != "" && m.Serial != d.Serial {
		return false
	}
	if m.Path != "" && m.Path != d.PathString() {
		return false
	}
	if m.Class != 0 && d.Class != m.Class {
		found := false
		for _, i := range d.Interfaces {
			if i.Class == m.Class {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// NeedsStrings tells whether matching needs the string descriptors, so
// that a Bus must open candidates to decide.
func (m Match) NeedsStrings() bool { return m.Serial != "" }

func (m Match) String() string {
	var s []string
	if m.VID != 0 || m.PID != 0 {
		s = append(s, fmt.Sprintf("%04x:%04x", m.VID, m.PID))
	}
	if m.Serial != "" {
		s = append(s, "serial "+strconv.Quote(m.Serial))
	}
	if m.Path != "" {
		s = append(s, "path "+m.Path)
	}
	if m.Class != 0 {
		s = append(s, fmt.Sprintf("class 0x%02x", uint8(m.Class)))
	}
	if len(s) == 0 {
		return "any"
	}
	return strings.Join(s, " ")
}

// ParseMatch parses "vvvv:pppp[:serial]", the form used on command lines
// and in configuration files; "vvvv:" alone matches a whole vendor.
func ParseMatch(s string) (Match, error) {
	var m Match
	parts := strings.SplitN(s, ":", 3)
	if len(parts) < 2 {
		return m, fmt.Errorf("usbport: match %q: want vid:pid[:serial]", s)
	}
	v, err := strconv.ParseUint(parts[0], 16, 16)
	if err != nil {
		return m, fmt.Errorf("usbport: match %q: vendor id: %w", s, err)
	}
	m.VID = uint16(v)
	if parts[1] != "" {
		p, err := strconv.ParseUint(parts[1], 16, 16)
		if err != nil {
			return m, fmt.Errorf("usbport: match %q: product id: %w", s, err)
		}
		m.PID = uint16(p)
	}
	if len(parts) == 3 {
		m.Serial = parts[2]
	}
	return m, nil
}

// IfaceSel selects an interface of a device; -1 in a field matches any.
type IfaceSel struct {
	Number, Class, SubClass, Protocol int
}

// Interface selections.
var (
	// AnyIface selects the first interface that has the endpoints asked for.
	AnyIface = IfaceSel{-1, -1, -1, -1}
	// PrinterIface selects a printer-class interface (Printing Devices 1.1 §4.1:
	// class 7, subclass 1; protocol 1 unidirectional, 2 bidirectional).
	PrinterIface = IfaceSel{-1, int(ClassPrinter), 1, -1}
	// BootKeyboardIface selects a HID boot keyboard (HID 1.11 §4.2-4.3:
	// class 3, subclass 1 boot, protocol 1 keyboard).
	BootKeyboardIface = IfaceSel{-1, int(ClassHID), 1, 1}
)

// Fits tells whether s selects i.
func (s IfaceSel) Fits(i InterfaceDesc) bool {
	return (s.Number < 0 || s.Number == i.Number) &&
		(s.Class < 0 || s.Class == int(i.Class)) &&
		(s.SubClass < 0 || s.SubClass == int(i.SubClass)) &&
		(s.Protocol < 0 || s.Protocol == int(i.Protocol))
}

// FindEndpoint returns the first endpoint of i in the given direction and
// of the given type; addr, when not 0, must match too.
func FindEndpoint(i InterfaceDesc, in bool, t TransferType, addr uint8) (EndpointDesc, bool) {
	for _, e := range i.Endpoints {
		if e.In() != in || e.Type != t {
			continue
		}
		if addr != 0 && e.Address != addr {
			continue
		}
		return e, true
	}
	return EndpointDesc{}, false
}

// Find returns the descriptors of the devices on b that m matches.
func Find(ctx context.Context, b Bus, m Match) ([]Desc, error) {
	all, err := b.Devices(ctx)
	if err != nil {
		return nil, err
	}
	var out []Desc
	for _, d := range all {
		if m.Matches(d) {
			out = append(out, d)
		}
	}
	return out, nil
}
