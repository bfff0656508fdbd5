package are

import (
	"fmt"
	"strconv"
	"time"

	"github.com/chipdesk/chipdesk/drivers/port"
	"github.com/chipdesk/chipdesk/drivers/readers"
	"github.com/chipdesk/chipdesk/reader"
	"github.com/chipdesk/chipdesk/reader/chipid"
	"github.com/chipdesk/chipdesk/reader/iso11784"
)

// Format is the value of reader.Read.Format for this protocol.
const Format = "are"

// Mode is the readers' usual line: 9600 8N1.
var Mode = port.Mode{Baud: 9600, DataBits: 8, Parity: port.ParityNone, StopBits: 1}

// Opts configures New.
type Opts struct {
	// Mode is set on the port when it supports it; zero Baud leaves the
	// port's framing alone.
	Mode port.Mode
	// Records makes stored records (STX … ETX) give reads. Their CRC
	// cannot be checked (see the package documentation).
	Records bool
	// Now stamps reads; nil means time.Now.
	Now func() time.Time
}

// DefaultOpts is used when New is given nil Opts.
var DefaultOpts = Opts{Mode: Mode}

// Protocol returns the ARE protocol as a value, read by the generic
// readers.Dev; records give reads only when records is set.
func Protocol(records bool) readers.Protocol {
	return readers.Protocol{
		Name: Format, Summary: "AEG / Trovan ARE, 16-hex codes in air order, 9600 8N1",
		Mode: Mode, Split: Split, Max: 256, Encode: EncodeID,
		Decode: func(b []byte) (reader.Read, bool, error) { return readFrame(b, records) },
	}
}

// Dev is an ARE reader on a port: the generic device reading Protocol.
type Dev = readers.Dev

// New reads ARE code lines from p. It sends nothing.
func New(p port.Port, o *Opts) (*Dev, error) {
	if o == nil {
		o = &DefaultOpts
	}
	return readers.Open(p, Protocol(o.Records), &readers.Opts{Mode: o.Mode, Now: o.Now})
}

// EncodeID returns the code line the reader sends when id is read.
func EncodeID(id chipid.ID) ([]byte, error) {
	f, err := FromID(id)
	if err != nil {
		return nil, err
	}
	return Encode(f)
}

// ReadFrame turns a well-formed code line into a read (a
// readers.DecodeFunc); records give no read.
func ReadFrame(b []byte) (reader.Read, bool, error) { return readFrame(b, false) }

func readFrame(b []byte, records bool) (reader.Read, bool, error) {
	f, err := Decode(b)
	if err != nil {
		return reader.Read{}, false, err
	}
	if f.Record && !records {
		return reader.Read{}, false, nil
	}
	return ToRead(f)
}

// ToRead turns a frame into a read. A 10-hex code line is a Trovan
// Unique code (the Trovan output); a record says its transponder type:
// ISO FDX-B or HDX, Trovan, FDX-A (Destron) or EM4102 (64-bit ASK).
// Records of other types give ok false.
func ToRead(f Frame) (reader.Read, bool, error) {
	if f.Short {
		return short(f.Code, chipid.FormTrovan, reader.AirTrovan)
	}
	p := reader.AirISO
	if f.Record {
		switch f.Type {
		case TypeISOFDX:
			p = reader.AirFDXB
		case TypeISOHDX:
			p = reader.AirHDX
		case TypeTrovan:
			return short(f.Code, chipid.FormTrovan, reader.AirTrovan)
		case TypeDestron:
			return short(f.Code, chipid.FormFDXA, reader.AirFDXA)
		case TypeASK64:
			return short(f.Code, chipid.FormEM4102, reader.AirUnknown)
		default:
			return reader.Read{}, false, nil
		}
		if f.Length != CodeLen {
			return reader.Read{}, false, fmt.Errorf("%w: ISO code of %d nibbles", ErrField, f.Length)
		}
	}
	c := iso11784.FromReversed(f.Code)
	if err := c.Valid(); err != nil {
		return reader.Read{}, false, fmt.Errorf("are: %w", err)
	}
	return reader.Read{ID: readers.ChipISO(c), Protocol: p}, true, nil
}

// short reads a 40-bit code as the kind form names.
func short(code uint64, form chipid.Form, p reader.Air) (reader.Read, bool, error) {
	if code >= 1<<40 {
		return reader.Read{}, false, fmt.Errorf("%w: %X is longer than %d hex digits", ErrField, code, TrovanLen)
	}
	id, err := readers.ChipText(fmt.Sprintf("%010X", code), form)
	if err != nil {
		return reader.Read{}, false, fmt.Errorf("are: %w", err)
	}
	return reader.Read{ID: id, Protocol: p}, true, nil
}

// FromID returns the code line for an ISO or a Trovan Unique chip.
func FromID(id chipid.ID) (Frame, error) {
	switch id.Kind {
	case chipid.KindISO:
		return Frame{Code: id.ISO.Reversed()}, nil
	case chipid.KindTrovan:
		v, err := strconv.ParseUint(id.Code, 16, 64)
		if err != nil {
			return Frame{}, fmt.Errorf("%w: %q", ErrField, id.Code)
		}
		return Frame{Code: v, Short: true}, nil
	}
	return Frame{}, fmt.Errorf("%w: %s chip %s is neither ISO 11784 nor Trovan", ErrField, id.Kind, id.Code)
}
