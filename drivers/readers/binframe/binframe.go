package binframe

import (
	"errors"
	"fmt"

	"github.com/chipdesk/chipdesk/drivers/port"
	"github.com/chipdesk/chipdesk/drivers/readers"
	"github.com/chipdesk/chipdesk/reader"
	"github.com/chipdesk/chipdesk/reader/chipid"
	"github.com/chipdesk/chipdesk/reader/iso11784"
)

// Errors of Decode.
var (
	ErrFraming  = errors.New("binframe: bad start, length or end byte")
	ErrChecksum = errors.New("binframe: bad check byte")
	ErrField    = errors.New("binframe: bad field")
)

// Spec is one family's frame.
type Spec struct {
	Name, Summary string
	Start, End    byte
	// Typed frames carry a type byte ('F' FDX-B, 'H' HDX) first.
	Typed bool
	Mode  port.Mode
}

// Type bytes of a typed frame.
const (
	TypeFDXB = 'F'
	TypeHDX  = 'H'
)

// The two families.
var (
	AIR200 = Spec{
		Name: "agrident", Summary: "Agrident AIR200 framed binary: STX, length, type, 8 code bytes, XOR, ETX; 9600 8N1",
		Start: 0x02, End: 0x03, Typed: true,
		Mode: port.Mode{Baud: 9600, DataBits: 8, Parity: port.ParityNone, StopBits: 1},
	}
	AABB = Spec{
		Name: "aabb", Summary: "134.2 kHz modules' AA…BB binary frames: 0xAA, length, 8 code bytes, XOR, 0xBB; 9600 8N1",
		Start: 0xAA, End: 0xBB,
		Mode: port.Mode{Baud: 9600, DataBits: 8, Parity: port.ParityNone, StopBits: 1},
	}
)

// Frame is the content of one frame.
type Frame struct {
	Code   iso11784.Code
	Type   byte // 0 for an untyped Spec
	Ext    uint32
	HasExt bool
}

func (s Spec) payloadLen(ext bool) int {
	n := 8
	if s.Typed {
		n++
	}
	if ext {
		n += 3
	}
	return n
}

// Encode returns the bytes of f.
func (s Spec) Encode(f Frame) ([]byte, error) {
	if f.HasExt != f.Code.DataBlock() || f.Ext >= 1<<24 || s.Typed != (f.Type != 0) || s.Typed && f.Type != TypeFDXB && f.Type != TypeHDX {
		return nil, fmt.Errorf("%w: %+v", ErrField, f)
	}
	n := s.payloadLen(f.HasExt)
	b := make([]byte, 0, n+4)
	b = append(b, s.Start, byte(n))
	if s.Typed {
		b = append(b, f.Type)
	}
	w := f.Code.WireBytes()
	b = append(b, w[:]...)
	if f.HasExt {
		b = append(b, byte(f.Ext), byte(f.Ext>>8), byte(f.Ext>>16))
	}
	return append(b, check(b[1:]), s.End), nil
}

func check(b []byte) byte {
	var c byte
	for _, x := range b {
		c ^= x
	}
	return c
}

// size returns the frame length announced by buf's length byte, or 0
// when that length is none of the Spec's.
func (s Spec) size(buf []byte) int {
	if n := int(buf[1]); n == s.payloadLen(false) || n == s.payloadLen(true) {
		return n + 4
	}
	return 0
}

// Decode parses one whole frame.
func (s Spec) Decode(b []byte) (Frame, error) {
	if len(b) < 2 || b[0] != s.Start || s.size(b) != len(b) || b[len(b)-1] != s.End {
		return Frame{}, fmt.Errorf("%w: % X", ErrFraming, b[:min(len(b), 4)])
	}
	if c := check(b[1 : len(b)-2]); c != b[len(b)-2] {
		return Frame{}, fmt.Errorf("%w: got %02X, want %02X", ErrChecksum, b[len(b)-2], c)
	}
	p := b[2 : len(b)-2]
	var f Frame
	if s.Typed {
		f.Type, p = p[0], p[1:]
		if f.Type != TypeFDXB && f.Type != TypeHDX {
			return Frame{}, fmt.Errorf("%w: type %q", ErrField, f.Type)
		}
	}
	f.Code = iso11784.FromWireBytes([8]byte(p[:8]))
	if len(p) == 11 {
		f.Ext, f.HasExt = uint32(p[8])|uint32(p[9])<<8|uint32(p[10])<<16, true
	}
	if f.HasExt != f.Code.DataBlock() {
		return Frame{}, fmt.Errorf("%w: extension present %v, data-block flag %v", ErrField, f.HasExt, f.Code.DataBlock())
	}
	if err := f.Code.Valid(); err != nil {
		return Frame{}, fmt.Errorf("%w: %w", ErrField, err)
	}
	return f, nil
}

// Split finds frames in a byte stream (a readers.SplitFunc): bytes
// before a start byte, and a start byte whose length or end byte does
// not fit, are garbage; a frame with a wrong check is a bad frame.
func (s Spec) Split(buf []byte) (int, error) {
	i := 0
	for i < len(buf) && buf[i] != s.Start {
		i++
	}
	if i > 0 {
		return i, fmt.Errorf("%w: %d bytes before the start byte", readers.ErrGarbage, i)
	}
	if len(buf) < 2 {
		return 0, nil
	}
	n := s.size(buf)
	if n == 0 {
		return 1, fmt.Errorf("%w: length %d", readers.ErrGarbage, buf[1])
	}
	if len(buf) < n {
		return 0, nil
	}
	if buf[n-1] != s.End {
		return 1, fmt.Errorf("%w: no end byte", readers.ErrGarbage)
	}
	if _, err := s.Decode(buf[:n]); err != nil {
		return 1, err
	}
	return n, nil
}

// ToRead turns a frame into a read.
func ToRead(f Frame) reader.Read {
	r := reader.Read{ID: chipid.FromISO(f.Code), Protocol: reader.AirISO, Ext: f.Ext, HasExt: f.HasExt}
	switch f.Type {
	case TypeFDXB:
		r.Protocol = reader.AirFDXB
	case TypeHDX:
		r.Protocol = reader.AirHDX
	}
	return r
}

// ReadFrame turns a frame into a read (a readers.DecodeFunc).
func (s Spec) ReadFrame(b []byte) (reader.Read, bool, error) {
	f, err := s.Decode(b)
	if err != nil {
		return reader.Read{}, false, err
	}
	return ToRead(f), true, nil
}

// FromID returns the frame a reader sends for an ISO chip (FDX-B when
// typed).
func (s Spec) FromID(id chipid.ID) (Frame, error) {
	if id.Kind != chipid.KindISO {
		return Frame{}, fmt.Errorf("%w: %s chip %s is not ISO 11784", ErrField, id.Kind, id.Code)
	}
	f := Frame{Code: id.ISO}
	if s.Typed {
		f.Type = TypeFDXB
	}
	f.HasExt = id.ISO.DataBlock()
	return f, nil
}

// Protocol is the Spec as a readers.Protocol.
func (s Spec) Protocol() readers.Protocol {
	return readers.Protocol{
		Name: s.Name, Summary: s.Summary, Mode: s.Mode, Split: s.Split, Max: 64, Decode: s.ReadFrame,
		Encode: func(id chipid.ID) ([]byte, error) {
			f, err := s.FromID(id)
			if err != nil {
				return nil, err
			}
			return s.Encode(f)
		},
	}
}
