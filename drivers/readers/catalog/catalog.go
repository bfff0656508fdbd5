package catalog

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/chipdesk/chipdesk/drivers/port"
	"github.com/chipdesk/chipdesk/drivers/port/evdevport"
	"github.com/chipdesk/chipdesk/drivers/port/serialport"
	"github.com/chipdesk/chipdesk/drivers/readers"
	"github.com/chipdesk/chipdesk/drivers/readers/allflex"
	"github.com/chipdesk/chipdesk/drivers/readers/are"
	"github.com/chipdesk/chipdesk/drivers/readers/avid"
	"github.com/chipdesk/chipdesk/drivers/readers/binframe"
	"github.com/chipdesk/chipdesk/drivers/readers/datamars"
	"github.com/chipdesk/chipdesk/drivers/readers/hidwedge"
	"github.com/chipdesk/chipdesk/drivers/readers/iso24631"
	"github.com/chipdesk/chipdesk/drivers/readers/linefmt"
	"github.com/chipdesk/chipdesk/drivers/readers/rfidrw"
	"github.com/chipdesk/chipdesk/drivers/readers/rt100"
	"github.com/chipdesk/chipdesk/drivers/readers/wl134"
	"github.com/chipdesk/chipdesk/reader"
)

// Reader is a reader driver with frame counters.
type Reader interface {
	reader.Reader
	Stats() readers.Stats
}

// Protocol is a reader protocol value (readers.Protocol: split,
// decode, encode, query, line) with what it takes to start a reader of
// it on a device.
type Protocol struct {
	readers.Protocol
	// New starts the driver on p, a port already opened in its final
	// mode (the driver sets no line); now stamps reads (nil: time.Now).
	New func(p port.Port, now func() time.Time) (Reader, error)
	// OpenPort opens the device at path for this protocol; nil means a
	// serial port (drivers/port/serialport) in mode.
	OpenPort func(path string, mode port.Mode) (port.Port, error)
}

// fromProtocol lists a protocol value read by the one generic device.
func fromProtocol(rp readers.Protocol) Protocol {
	return Protocol{
		Protocol: rp,
		New: func(p port.Port, now func() time.Time) (Reader, error) {
			return readers.Open(p, rp, &readers.Opts{Now: now})
		},
	}
}

// Protocols returns every protocol, in a stable order.
func Protocols() []Protocol {
	return []Protocol{
		fromProtocol(wl134.Protocol),
		fromProtocol(allflex.Protocol),
		fromProtocol(rfidrw.Protocol),
		fromProtocol(rt100.Protocol),
		fromProtocol(are.Protocol(false)),
		fromProtocol(iso24631.Protocol),
		fromProtocol(avid.Protocol),
		fromProtocol(datamars.Protocol(nil)),
		fromProtocol(binframe.AIR200.Protocol()),
		fromProtocol(binframe.AABB.Protocol()),
	}
}

// LinefmtName is the kind of a configured line reader: not in
// Protocols, since it needs a pattern; see Linefmt.
const LinefmtName = "linefmt"

// Linefmt returns the protocol of a configured line format (package
// linefmt); a spec without a name is named "linefmt".
func Linefmt(s linefmt.Spec) (Protocol, error) {
	if s.Name == "" {
		s.Name = LinefmtName
	}
	f, err := linefmt.Compile(s)
	if err != nil {
		return Protocol{}, err
	}
	return fromProtocol(f.Protocol()), nil
}

// EvdevName is the kind of a keyboard-wedge scanner read from the Linux
// input subsystem (/dev/input/eventN, best named by its
// /dev/input/by-id link): not in Protocols, since it is no serial
// protocol to probe for; see Evdev.
const EvdevName = hidwedge.EvdevFormat

// Evdev returns the protocol of a wedge scanner on a Linux input
// device, typing for o's layout and form (nil: hidwedge.DefaultOpts).
// The device is grabbed while it is read, so the digits do not also
// land in the focused window.
func Evdev(o *hidwedge.Opts) (Protocol, error) {
	if o == nil {
		o = &hidwedge.DefaultOpts
	}
	rp, err := hidwedge.Evdev(o) // checks the layout; each reader gets its own below
	if err != nil {
		return Protocol{}, err
	}
	opts := *o
	return Protocol{
		// The decoder is stateful: only the names and the framing are
		// shared; each reader New starts gets a decoder of its own.
		Protocol: readers.Protocol{Name: rp.Name, Summary: rp.Summary, Split: rp.Split},
		New: func(p port.Port, now func() time.Time) (Reader, error) {
			o := opts
			o.Now = now
			return hidwedge.NewEvdev(p, &o)
		},
		OpenPort: func(path string, _ port.Mode) (port.Port, error) { return evdevport.Open(path, nil) },
	}, nil
}

// Names returns the protocol names.
func Names() []string {
	var n []string
	for _, p := range Protocols() {
		n = append(n, p.Name)
	}
	return n
}

// Lookup returns the protocol called name.
func Lookup(name string) (Protocol, error) {
	for _, p := range Protocols() {
		if p.Name == name {
			return p, nil
		}
	}
	switch name {
	case LinefmtName:
		return Protocol{}, fmt.Errorf("catalog: protocol %s needs a pattern (see Linefmt)", name)
	case EvdevName:
		return Evdev(nil)
	}
	return Protocol{}, fmt.Errorf("catalog: unknown protocol %q (want one of %s, %s or %s)", name, strings.Join(Names(), ", "), EvdevName, LinefmtName)
}

// Opener returns a function that opens the port at path (a serial port
// in the protocol's mode, unless OpenPort says otherwise) and starts
// the driver on it: the factory a runner.Runner (or service/hardware)
// calls to open and reopen a reader. now stamps reads (nil: time.Now).
func (p Protocol) Opener(path string, now func() time.Time) func(ctx context.Context) (reader.Reader, error) {
	return func(ctx context.Context) (reader.Reader, error) {
		// Opened once, in the protocol's line; the driver sets none.
		var (
			sp  port.Port
			err error
		)
		if p.OpenPort != nil {
			sp, err = p.OpenPort(path, p.Mode)
		} else {
			sp, err = serialport.Open(path, &serialport.Opts{Mode: p.Mode})
		}
		if err != nil {
			return nil, err
		}
		r, err := p.New(sp, now)
		if err != nil {
			sp.Close()
			return nil, err
		}
		return r, nil
	}
}
