package rt100

import (
	"fmt"

	"github.com/chipdesk/chipdesk/drivers/port"
	"github.com/chipdesk/chipdesk/drivers/readers"
	"github.com/chipdesk/chipdesk/reader"
	"github.com/chipdesk/chipdesk/reader/chipid"
)

// Format is the value of reader.Read.Format for this protocol.
const Format = "rt100"

// Mode is the scanner's line: 9600 8N1.
var Mode = port.Mode{Baud: 9600, DataBits: 8, Parity: port.ParityNone, StopBits: 1}

// Opts configures New: the port's line and the clock that stamps reads.
type Opts = readers.Opts

// Protocol is the protocol as a value, read by the generic readers.Dev.
var Protocol = readers.Protocol{
	Name: Format, Summary: "PetScan RT100 V8, U frames with CRC, 9600 8N1",
	Mode: Mode, Split: Split, Max: 256, Decode: ReadFrame, Encode: EncodeID,
}

// Dev is a PetScan RT100 on a port: the generic device reading Protocol.
type Dev = readers.Dev

// New reads the reader on p; nil o means Protocol's line and time.Now.
func New(p port.Port, o *Opts) (*Dev, error) { return readers.Open(p, Protocol, o) }

// EncodeID returns the bytes the reader sends when id is read.
func EncodeID(id chipid.ID) ([]byte, error) {
	return Encode(FromID(id))
}

// protocols maps chip types to air protocols.
func protocol(t string) reader.Air {
	switch t {
	case TypeFDXB:
		return reader.AirFDXB
	case TypeHDX:
		return reader.AirHDX
	case TypeFDXA:
		return reader.AirFDXA
	case TypeAVID:
		return reader.AirAVID
	case TypeTrovan:
		return reader.AirTrovan
	case TypeISO:
		return reader.AirISO
	}
	return reader.AirUnknown
}

// form is how the scanner writes the identifier of a chip type: the
// type names the kind, so a 10-hex identifier is never guessed.
func form(t string) chipid.Form {
	switch t {
	case TypeFDXA:
		return chipid.FormFDXA
	case TypeTrovan:
		return chipid.FormTrovan
	case TypeFDXB, TypeHDX, TypeISO:
		return chipid.FormDecimal
	}
	return chipid.FormAuto
}

// ToRead turns a frame into a read; a memory record gives ok false.
func ToRead(f Frame) (reader.Read, bool, error) {
	if f.Record {
		return reader.Read{}, false, nil
	}
	id, err := readers.ChipText(f.ID, form(f.Type))
	if err != nil {
		return reader.Read{}, false, fmt.Errorf("rt100: %w", err)
	}
	return reader.Read{ID: id, Protocol: protocol(f.Type)}, true, nil
}

// ReadFrame turns a well-formed frame into a read (a readers.DecodeFunc).
func ReadFrame(b []byte) (reader.Read, bool, error) {
	f, err := Decode(b)
	if err != nil {
		return reader.Read{}, false, err
	}
	return ToRead(f)
}

// FromID returns the frame the scanner sends for id.
func FromID(id chipid.ID) Frame {
	t := TypeISO
	switch id.Kind {
	case chipid.KindAVID:
		t = TypeAVID
	case chipid.KindFECAVA:
		t = TypeFDXA
	case chipid.KindTrovan:
		t = TypeTrovan
	case chipid.KindISO:
		t = TypeFDXB
	}
	return Frame{Type: t, ID: id.Code}
}
