package serialport

import (
	"fmt"
	"sort"
	"strings"

	"go.bug.st/serial/enumerator"
)

// Info describes one serial port of the machine.
type Info struct {
	Name         string // device path, "/dev/ttyUSB0"
	IsUSB        bool
	VID, PID     string // 4 lower-case hex digits each, "" when not USB
	SerialNumber string
	Manufacturer string
	Product      string
}

// String formats the port as "/dev/ttyUSB0 usb 0403:6001 A10K".
func (i Info) String() string {
	if !i.IsUSB {
		return i.Name
	}
	s := fmt.Sprintf("%s usb %s:%s", i.Name, i.VID, i.PID)
	if i.SerialNumber != "" {
		s += " " + i.SerialNumber
	}
	return s
}

// List returns the serial ports of the machine, sorted by name, with USB
// details where the system gives them. Pseudo-terminals are not listed.
func List() ([]Info, error) {
	names, err := enumerator.GetDetailedPortsList()
	if err != nil {
		return nil, fmt.Errorf("serialport: list: %w", err)
	}
	out := make([]Info, 0, len(names))
	for _, d := range names {
		// The enumerator returns an empty entry for a /dev node that
		// has no sysfs device (a symlink to a pty, for one).
		if d == nil || d.Name == "" {
			continue
		}
		out = append(out, Info{
			Name:         d.Name,
			IsUSB:        d.IsUSB,
			VID:          strings.ToLower(d.VID),
			PID:          strings.ToLower(d.PID),
			SerialNumber: d.SerialNumber,
			Manufacturer: d.Manufacturer,
			Product:      d.Product,
		})
	}
	sort.Slice(out, func(a, b int) bool { return out[a].Name < out[b].Name })
	return out, nil
}

// Find returns the first port whose USB vendor and product match (hex,
// case-insensitive) and, when serial is not empty, whose serial number
// matches too.
func Find(vid, pid, serial string) (Info, error) {
	ports, err := List()
	if err != nil {
		return Info{}, err
	}
	for _, p := range ports {
		if p.IsUSB && strings.EqualFold(p.VID, vid) && strings.EqualFold(p.PID, pid) &&
			(serial == "" || p.SerialNumber == serial) {
			return p, nil
		}
	}
	return Info{}, fmt.Errorf("%w: usb %s:%s %s", ErrNotFound, vid, pid, serial)
}
