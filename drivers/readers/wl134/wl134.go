package wl134

import (
	"fmt"

	"github.com/chipdesk/chipdesk/drivers/port"
	"github.com/chipdesk/chipdesk/drivers/readers"
	"github.com/chipdesk/chipdesk/reader"
	"github.com/chipdesk/chipdesk/reader/chipid"
	"github.com/chipdesk/chipdesk/reader/iso11784"
)

// Format is the value of reader.Read.Format for this protocol.
const Format = "wl134"

// Mode is the module's line: 9600 baud, 8 data bits, no parity, 2 stop
// bits (WL-134A sheet).
var Mode = port.Mode{Baud: 9600, DataBits: 8, Parity: port.ParityNone, StopBits: 2}

// Opts configures New: the port's line and the clock that stamps reads.
type Opts = readers.Opts

// DefaultOpts is used when New is given nil Opts.
var DefaultOpts = Opts{Mode: Mode}

// Dev is a WL-134 module on a port.
type Dev struct{ readers.Base }

var _ reader.Reader = (*Dev)(nil)

// New reads WL-134 frames from p. The module only sends, so New sends
// nothing.
func New(p port.Port, o *Opts) (*Dev, error) {
	b, err := readers.Listen(p, o, DefaultOpts, readers.Config{Format: Format, Split: Split, Max: 4 * Size, Decode: ReadFrame})
	if err != nil {
		return nil, err
	}
	return &Dev{Base: b}, nil
}

// ToRead turns a frame into a read (without Raw, At and Source).
func ToRead(f Frame) (reader.Read, error) {
	c, err := iso11784.New(f.Country, f.National, f.Animal)
	if err != nil {
		return reader.Read{}, fmt.Errorf("wl134: %w", err)
	}
	c = c.WithDataBlock(f.DataBlock)
	r := reader.Read{ID: readers.ChipISO(c), Protocol: reader.ProtocolFDXB}
	if f.HDX {
		r.Protocol = reader.ProtocolHDX
	}
	if f.DataBlock {
		r.Ext, r.HasExt = f.Ext, true
	}
	return r, nil
}

// ReadFrame turns a well-formed frame into a read (a readers.DecodeFunc).
func ReadFrame(b []byte) (reader.Read, bool, error) {
	f, err := Decode(b)
	if err != nil {
		return reader.Read{}, false, err
	}
	r, err := ToRead(f)
	return r, err == nil, err
}

// FromID returns the frame a module sends for id, an ISO 11784 chip;
// hdx picks the end byte.
func FromID(id chipid.ID, hdx bool) (Frame, error) {
	if id.Kind != chipid.KindISO {
		return Frame{}, fmt.Errorf("%w: %s chip %s is not ISO 11784", ErrField, id.Kind, id.Code)
	}
	c := id.ISO
	return Frame{
		National:  c.National(),
		Country:   c.Country(),
		DataBlock: c.DataBlock(),
		Animal:    c.Animal(),
		HDX:       hdx,
	}, nil
}
