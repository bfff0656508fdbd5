package hardware

import (
	"fmt"
	"strconv"
	"time"

	"github.com/chipdesk/chipdesk/drivers/port"
	"github.com/chipdesk/chipdesk/drivers/readers/catalog"
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
}

// DefaultDebounce suppresses the repeats a reader sends while a chip
// stays in its field.
const DefaultDebounce = 2 * time.Second

// ParseSpec reads KIND:PORT[,option=value...]. Options: name=NAME,
// baud=N, debounce=DURATION ("1500ms"). The kind must be one of the
// catalog's protocols.
func ParseSpec(s string) (Spec, error) {
	ds, err := devspec.Parse(s)
	if err != nil {
		return Spec{}, fmt.Errorf("hardware: reader %q: %w", s, err)
	}
	proto, err := catalog.Lookup(ds.Kind)
	if err != nil {
		return Spec{}, fmt.Errorf("hardware: reader %q: %w", s, err)
	}
	sp := Spec{Kind: ds.Kind, Port: ds.Addr, Name: ds.Head(), Mode: proto.Mode, Debounce: DefaultDebounce}
	for _, o := range ds.Options {
		k, v := o.Key, o.Value
		switch k {
		case "name":
			sp.Name = v
		case "baud":
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
			return Spec{}, fmt.Errorf("hardware: reader %q: unknown option %q (want name, baud or debounce)", s, k)
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
	if p, err := catalog.Lookup(sp.Kind); err == nil && sp.Mode.Baud != p.Mode.Baud {
		s += ",baud=" + strconv.Itoa(sp.Mode.Baud)
	}
	if sp.Debounce != DefaultDebounce {
		s += ",debounce=" + sp.Debounce.String()
	}
	return s
}
