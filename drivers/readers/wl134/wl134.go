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

// Mode is the line the port is opened with: 9600 baud, 8 data bits, no
// parity, 1 stop bit. The module sends 9600 8N1 per the vendor sheet as
// the issue tracker quotes it (the CZSTAR-R134 table and Rfid134 say 2
// stop bits); a receiver set to one stop bit reads either, since a
// second stop bit is only a longer idle line.
var Mode = port.Mode{Baud: 9600, DataBits: 8, Parity: port.ParityNone, StopBits: 1}

// Opts configures New: the port's line and the clock that stamps reads.
type Opts = readers.Opts

// Protocol is the protocol as a value, read by the generic readers.Dev.
var Protocol = readers.Protocol{
	Name: Format, Summary: "WL-134 / CZSTAR-R134 134.2 kHz modules, 30-byte binary frames, 9600 8N1",
	Mode: Mode, Split: Split, Max: 4 * Size, Decode: ReadFrame, Encode: EncodeID,
}

// Dev is a WL-134 module on a port: the generic device reading Protocol.
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

// ToRead turns a frame into a read (without Raw, At and Source).
func ToRead(f Frame) (reader.Read, error) {
	c, err := iso11784.New(f.Country, f.National, f.Animal)
	if err != nil {
		return reader.Read{}, fmt.Errorf("wl134: %w", err)
	}
	c = c.WithDataBlock(f.DataBlock)
	// The module reads FDX-B and HDX chips and prints both alike.
	r := reader.Read{ID: readers.ChipISO(c), Protocol: reader.AirISO}
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

// FromID returns the frame a module sends for id, an ISO 11784 chip.
func FromID(id chipid.ID) (Frame, error) {
	if id.Kind != chipid.KindISO {
		return Frame{}, fmt.Errorf("%w: %s chip %s is not ISO 11784", ErrField, id.Kind, id.Code)
	}
	c := id.ISO
	return Frame{
		National:  c.National(),
		Country:   c.Country(),
		DataBlock: c.DataBlock(),
		Animal:    c.Animal(),
	}, nil
}
