package allflex

import (
	"bytes"
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

// Protocol is the protocol as a value, read by the generic readers.Dev.
var Protocol = readers.Protocol{
	Name: Format, Summary: "Allflex legacy ASCII protocol, LA lines, 9600 8N1, echo",
	Mode: Mode, Split: Split, Max: 256, Decode: ReadFrame, Encode: EncodeID,
	// The readers echo every character; P prints the settings.
	Query:   []byte("P\r"),
	Answers: func(b []byte) bool { return bytes.HasPrefix(b, []byte("P\r")) && len(b) > 2 },
}

// Dev is an Allflex reader on a port: the generic device reading Protocol.
type Dev = readers.Dev

// New reads the reader on p; nil o means Protocol's line and time.Now.
func New(p port.Port, o *Opts) (*Dev, error) { return readers.Open(p, Protocol, o) }

// EncodeID returns the bytes the reader sends when id is read.
func EncodeID(id chipid.ID) ([]byte, error) {
	f, err := FromID(id)
	if err != nil {
		return nil, err
	}
	return Encode(f)
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
	return reader.Read{ID: id, Protocol: reader.AirISO}, true, nil
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
