package iso24631

import (
	"fmt"

	"github.com/chipdesk/chipdesk/drivers/port"
	"github.com/chipdesk/chipdesk/drivers/readers"
	"github.com/chipdesk/chipdesk/reader"
	"github.com/chipdesk/chipdesk/reader/chipid"
)

// Format is the value of reader.Read.Format for this protocol.
const Format = "iso24631"

// Mode is the usual line: 9600 8N1 (the standard does not fix it).
var Mode = port.Mode{Baud: 9600, DataBits: 8, Parity: port.ParityNone, StopBits: 1}

// Opts configures New: the port's line and the clock that stamps reads.
type Opts = readers.Opts

// Protocol is the protocol as a value, read by the generic readers.Dev.
var Protocol = readers.Protocol{
	Name: Format, Summary: "ISO 24631-6 standard output, STX lines, 9600 8N1",
	Mode: Mode, Split: Split, Max: 256, Decode: ReadFrame, Encode: EncodeID,
}

// Dev is an ISO 24631-6 reader on a port: the generic device reading Protocol.
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

// ToRead turns a line into a read.
func ToRead(f Frame) (reader.Read, error) {
	id, err := readers.ChipText(fmt.Sprintf("%03d%012d", f.Country, f.National), chipid.FormDecimal)
	if err != nil {
		return reader.Read{}, fmt.Errorf("iso24631: %w", err)
	}
	if f.Extra {
		id.ISO = id.ISO.WithRetagCounter(f.Retag).WithUserInfo(f.UserInfo)
	}
	return reader.Read{ID: id, Protocol: reader.AirISO}, nil
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

// FromID returns the line for an ISO chip, with its retagging counter
// and user information.
func FromID(id chipid.ID) (Frame, error) {
	if id.Kind != chipid.KindISO {
		return Frame{}, fmt.Errorf("%w: %s chip %s is not ISO 11784", ErrField, id.Kind, id.Code)
	}
	c := id.ISO
	return Frame{Country: c.Country(), National: c.National(), Extra: true, Retag: c.RetagCounter(), UserInfo: c.UserInfo()}, nil
}
