package hardware

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/chipdesk/chipdesk/drivers/port"
	"github.com/chipdesk/chipdesk/drivers/readers/catalog"
	"github.com/chipdesk/chipdesk/drivers/readers/hidwedge"
	"github.com/chipdesk/chipdesk/drivers/readers/linefmt"
	"github.com/chipdesk/chipdesk/reader"
	"github.com/chipdesk/chipdesk/service/devspec"
)

// Spec is one configured reader.
type Spec struct {
	// Kind is a catalog protocol name ("wl134", "allflex", ...).
	Kind string
	// Port is the device path ("/dev/ttyUSB0", "/dev/rfcomm0").
	Port string
	// Name names the reader on scan events and in the stream filter;
	// KIND:PORT when not given.
	Name string
	// Mode is the serial line; the protocol's default when Baud is 0.
	Mode port.Mode
	// Debounce is how long a repeated read of the same chip is
	// suppressed; DefaultDebounce when 0.
	Debounce time.Duration
	// Line describes a configured line reader (Kind "linefmt"); nil
	// for the catalog's protocols.
	Line *linefmt.Spec
	// Layout is the keyboard layout a wedge scanner on a Linux input
	// device types for (Kind "evdev"): "us" (the default) or "de".
	Layout string
}

// protocol returns the catalog protocol sp names, in sp's line.
func (sp Spec) protocol() (catalog.Protocol, error) {
	switch {
	case sp.Line != nil:
		return catalog.Linefmt(*sp.Line)
	case sp.Kind == catalog.EvdevName:
		o := hidwedge.DefaultOpts
		if sp.Layout != "" {
			o.Layout = sp.Layout
		}
		return catalog.Evdev(&o)
	}
	return catalog.Lookup(sp.Kind)
}

// DefaultDebounce suppresses the repeats a reader sends while a chip
// stays in its field.
const DefaultDebounce = 2 * time.Second

// ParseSpec reads KIND:PORT[,option=value...]. Options: name=NAME,
// baud=N, debounce=DURATION ("1500ms"). The kind must be one of the
// catalog's protocols; or evdev, a keyboard-wedge scanner on a Linux
// input device (PORT best its /dev/input/by-id name), with the option
// layout=us|de and no baud; or linefmt, a configured line reader, with the
// options pattern=REGEXP (required; it comes last and runs to the end
// of the spec, commas included), form=FORM (the chipid form of its code
// group), framing=8N1 and air=PROTOCOL (the air protocol of its reads):
//
//	linefmt:/dev/ttyUSB0,baud=19200,form=decimal,pattern=^ID (?P<code>\d{15})$
func ParseSpec(s string) (Spec, error) {
	head, pattern, hasPattern := strings.Cut(s, ",pattern=")
	ds, err := devspec.Parse(head)
	if err != nil {
		return Spec{}, fmt.Errorf("hardware: reader %q: %w", s, err)
	}
	var line *linefmt.Spec
	switch {
	case ds.Kind == catalog.LinefmtName && !hasPattern:
		return Spec{}, fmt.Errorf("hardware: reader %q: a linefmt reader needs pattern=REGEXP (last)", s)
	case ds.Kind == catalog.LinefmtName:
		line = &linefmt.Spec{Name: catalog.LinefmtName, Pattern: pattern}
	case hasPattern:
		return Spec{}, fmt.Errorf("hardware: reader %q: pattern is an option of linefmt readers only", s)
	}
	sp := Spec{Kind: ds.Kind, Port: ds.Addr, Name: ds.Head(), Debounce: DefaultDebounce, Line: line}
	for _, o := range ds.Options {
		if o.Key == "layout" && sp.Kind == catalog.EvdevName {
			sp.Layout = o.Value
		}
		if line == nil {
			continue
		}
		switch o.Key {
		case "form":
			line.Form = o.Value
		case "framing":
			line.Framing = o.Value
		case "air":
			line.Protocol = reader.Air(o.Value)
		}
	}
	proto, err := sp.protocol()
	if err != nil {
		return Spec{}, fmt.Errorf("hardware: reader %q: %w", s, err)
	}
	sp.Mode = proto.Mode
	if line != nil && sp.Mode.Baud == 0 {
		sp.Mode.Baud = 9600 // a configured reader's line: 9600 unless baud= says
	}
	for _, o := range ds.Options {
		k, v := o.Key, o.Value
		switch k {
		case "form", "framing", "air":
			if line == nil {
				return Spec{}, fmt.Errorf("hardware: reader %q: %s is an option of linefmt readers only", s, k)
			}
		case "layout":
			if sp.Kind != catalog.EvdevName {
				return Spec{}, fmt.Errorf("hardware: reader %q: layout is an option of evdev readers only", s)
			}
		case "name":
			sp.Name = v
		case "baud":
			if sp.Kind == catalog.EvdevName {
				return Spec{}, fmt.Errorf("hardware: reader %q: an evdev reader has no baud", s)
			}
			n, err := strconv.Atoi(v)
			if err != nil || n <= 0 {
				return Spec{}, fmt.Errorf("hardware: reader %q: bad baud %q", s, v)
			}
			sp.Mode.Baud = n
		case "debounce":
			d, err := time.ParseDuration(v)
			if err != nil || d < 0 {
				return Spec{}, fmt.Errorf("hardware: reader %q: bad debounce %q", s, v)
			}
			sp.Debounce = d
		default:
			return Spec{}, fmt.Errorf("hardware: reader %q: unknown option %q (want name, baud or debounce; linefmt also form, framing, air, pattern; evdev layout)", s, k)
		}
	}
	return sp, nil
}

// String returns the spec in the form ParseSpec reads.
func (sp Spec) String() string {
	s := sp.Kind + ":" + sp.Port
	if sp.Name != sp.Kind+":"+sp.Port {
		s += ",name=" + sp.Name
	}
	if p, err := sp.protocol(); err == nil && sp.Mode.Baud != p.Mode.Baud && (sp.Line == nil || sp.Mode.Baud != 9600) {
		s += ",baud=" + strconv.Itoa(sp.Mode.Baud)
	}
	if sp.Debounce != DefaultDebounce {
		s += ",debounce=" + sp.Debounce.String()
	}
	if sp.Layout != "" {
		s += ",layout=" + sp.Layout
	}
	if l := sp.Line; l != nil {
		if l.Form != "" {
			s += ",form=" + l.Form
		}
		if l.Framing != "" {
			s += ",framing=" + l.Framing
		}
		if l.Protocol != "" {
			s += ",air=" + string(l.Protocol)
		}
		s += ",pattern=" + l.Pattern
	}
	return s
}
