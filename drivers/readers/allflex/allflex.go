package allflex

import (
	"fmt"

	"github.com/chipdesk/chipdesk/drivers/port"
	"github.com/chipdesk/chipdesk/drivers/readers"
	"github.com/chipdesk/chipdesk/reader"
	"github.com/chipdesk/chipdesk/reader/chipid"
)

// Format is the value of reader.Read.Format for this protocol.
const Format = "allflex"

// Mode is the readers' default line: 9600 8N1.
var Mode = port.Mode{Baud: 9600, DataBits: 8, Parity: port.ParityNone, StopBits: 1}

// Opts configures New: the port's line and the clock that stamps reads.
type Opts = readers.Opts

// DefaultOpts is used when New is given nil Opts.
var DefaultOpts = Opts{Mode: Mode}

// Dev is an Allflex reader on a port.
type Dev struct{ readers.Base }

var _ reader.Reader = (*Dev)(nil)

// New reads Allflex tag lines from p. It sends nothing.
func New(p port.Port, o *Opts) (*Dev, error) {
	b, err := readers.Listen(p, o, DefaultOpts, readers.Config{Format: Format, Split: Split, Max: 256, Decode: ReadFrame})
	if err != nil {
		return nil, err
	}
	return &Dev{Base: b}, nil
}

// ToRead turns a tag line into a read; an industrial tag gives ok false.
// The line goes to chipid whole: its A states an animal tag, which the
// read keeps (ID.AnimalStated), and the TIRIS style carries the
// data-block flag.
func ToRead(f Frame) (r reader.Read, ok bool, err error) {
	if f.Industrial {
		return reader.Read{}, false, nil
	}
	line, err := Line(f)
	if err != nil {
		return reader.Read{}, false, err
	}
	id, err := readers.ChipText(string(line), chipid.FormDecimal)
	if err != nil {
		return reader.Read{}, false, fmt.Errorf("allflex: %w", err)
	}
	return reader.Read{ID: id, Protocol: reader.ProtocolISO}, true, nil
}

// ReadFrame turns a well-formed frame into a read (a readers.DecodeFunc).
func ReadFrame(b []byte) (reader.Read, bool, error) {
	f, err := Decode(b)
	if err != nil {
		return reader.Read{}, false, err
	}
	return ToRead(f)
}

// FromID returns the default tag line content for an ISO chip.
func FromID(id chipid.ID) (Frame, error) {
	if id.Kind != chipid.KindISO {
		return Frame{}, fmt.Errorf("%w: %s chip %s is not ISO 11784", ErrField, id.Kind, id.Code)
	}
	return Frame{Country: id.ISO.Country(), National: id.ISO.National()}, nil
}
