package usbport

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"sort"
	"strings"
)

// Printer class requests (Printing Devices 1.1 §4.2).
const (
	reqGetDeviceID   = 0
	reqGetPortStatus = 1
	// bmRequestType: class request to an interface, device to host.
	rtClassIfaceIn = 0xa1
)

// ErrDeviceID is returned for a malformed IEEE 1284 device id.
var ErrDeviceID = errors.New("usbport: malformed IEEE 1284 device id")

// PrinterOpts is DefaultOpts on the first bidirectional printer-class
// interface (bulk OUT for the job, bulk IN for status replies).
var PrinterOpts = Opts{
	Iface:        IfaceSel{-1, int(ClassPrinter), 1, 2},
	Type:         Bulk,
	ReadTimeout:  DefaultOpts.ReadTimeout,
	WriteTimeout: DefaultOpts.WriteTimeout,
}

// OpenPrinter opens the first device that m matches on its printer-class
// interface, detaching usblp. Printer drivers (ZPL, Brother QL raster)
// write jobs to it and read status replies from it as from any port.Port.
// A nil o means PrinterOpts.
func OpenPrinter(ctx context.Context, b Bus, m Match, o *Opts) (*Port, error) {
	if o == nil {
		o = &PrinterOpts
	}
	if m.Class == 0 {
		m.Class = ClassPrinter
	}
	return Open(ctx, b, m, o)
}

// DeviceID is an IEEE 1284 device id, as in
// "MFG:Brother;CMD:PT-CBP;MDL:QL-700;CLS:PRINTER;".
type DeviceID map[string]string

// Manufacturer returns the MFG (or MANUFACTURER) field.
func (id DeviceID) Manufacturer() string { return id.get("MFG", "MANUFACTURER") }

// Model returns the MDL (or MODEL) field.
func (id DeviceID) Model() string { return id.get("MDL", "MODEL") }

// CommandSet returns the CMD (or COMMAND SET) field.
func (id DeviceID) CommandSet() string { return id.get("CMD", "COMMAND SET") }

func (id DeviceID) get(keys ...string) string {
	for _, k := range keys {
		if v, ok := id[k]; ok {
			return v
		}
	}
	return ""
}

// String formats the id with its keys sorted.
func (id DeviceID) String() string {
	keys := make([]string, 0, len(id))
	for k := range id {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		b.WriteString(k)
		b.WriteByte(':')
		b.WriteString(id[k])
		b.WriteByte(';')
	}
	return b.String()
}

// ParseDeviceID parses "KEY:value;KEY:value;..." (IEEE 1284-2000 §7.6).
// Keys are upper-cased and trimmed; a missing final ';' is accepted.
func ParseDeviceID(s string) (DeviceID, error) {
	id := DeviceID{}
	for f := range strings.SplitSeq(s, ";") {
		if strings.TrimSpace(f) == "" {
			continue
		}
		k, v, ok := strings.Cut(f, ":")
		k = strings.ToUpper(strings.TrimSpace(k))
		if !ok || k == "" {
			return nil, fmt.Errorf("%w: field %q", ErrDeviceID, f)
		}
		id[k] = v
	}
	if len(id) == 0 {
		return nil, fmt.Errorf("%w: empty", ErrDeviceID)
	}
	return id, nil
}

// GetDeviceID asks a printer-class interface for its IEEE 1284 device id
// (GET_DEVICE_ID, Printing Devices 1.1 §4.2.1): a two-byte big-endian
// length that counts itself, then the id text.
func GetDeviceID(ctx context.Context, p *Port) (DeviceID, error) {
	i := p.Interface()
	buf := make([]byte, 1024)
	cfgIndex := uint16(0) // the configuration's index, not its value
	if c := p.dev.Desc().Config; c > 0 {
		cfgIndex = uint16(c - 1)
	}
	n, err := p.dev.Control(ctx, rtClassIfaceIn, reqGetDeviceID,
		cfgIndex, uint16(i.Number)<<8|uint16(i.Alt), buf)
	if err != nil {
		return nil, fmt.Errorf("usbport: %s: get device id: %w", p.name, err)
	}
	if n < 2 {
		return nil, fmt.Errorf("%w: %d bytes", ErrDeviceID, n)
	}
	l := int(binary.BigEndian.Uint16(buf))
	if l < 2 || l > n {
		// Some printers count little-endian or leave the length out;
		// take what came.
		l = n
	}
	return ParseDeviceID(string(buf[2:l]))
}

// PortStatus is the GET_PORT_STATUS byte (Printing Devices 1.1 §4.2.2).
type PortStatus uint8

// PaperEmpty tells that the printer reports paper out (bit 5).
func (s PortStatus) PaperEmpty() bool { return s&0x20 != 0 }

// Selected tells that the printer is on line (bit 4).
func (s PortStatus) Selected() bool { return s&0x10 != 0 }

// Error tells that the printer reports an error (bit 3 clear).
func (s PortStatus) Error() bool { return s&0x08 == 0 }

func (s PortStatus) String() string {
	var f []string
	if s.PaperEmpty() {
		f = append(f, "paper empty")
	}
	if s.Selected() {
		f = append(f, "selected")
	}
	if s.Error() {
		f = append(f, "error")
	}
	if len(f) == 0 {
		return "idle"
	}
	return strings.Join(f, ", ")
}

// GetPortStatus reads the printer's port status byte.
func GetPortStatus(ctx context.Context, p *Port) (PortStatus, error) {
	var b [1]byte
	n, err := p.dev.Control(ctx, rtClassIfaceIn, reqGetPortStatus, 0, uint16(p.Interface().Number), b[:])
	if err != nil {
		return 0, fmt.Errorf("usbport: %s: get port status: %w", p.name, err)
	}
	if n != 1 {
		return 0, fmt.Errorf("usbport: %s: get port status: %d bytes, want 1", p.name, n)
	}
	return PortStatus(b[0]), nil
}
