package zpl

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"

	"github.com/chipdesk/chipdesk/drivers/printers"
)

// Framing bytes of the ~HS reply (ZPL II guide, ~HS): each of the three
// strings is STX … ETX followed by CR LF.
const (
	stx = 0x02
	etx = 0x03
)

// HostStatusCommand asks for the host status. It is a tilde command:
// the printer answers at once, even in the middle of a job.
const HostStatusCommand = "~HS"

// Errors from parsing a ~HS reply.
var (
	ErrFraming = errors.New("zpl: bad host status framing")
	ErrField   = errors.New("zpl: bad host status field")
)

// HostStatus is the printer's ~HS reply. Field letters follow the ZPL II
// guide (~HS): string 1 "aaa,b,c,dddd,eee,f,g,h,iii,j,k,l", string 2
// "mmm,n,o,p,q,r,s,t,uuuuuuuu,v,www", string 3 "xxxx,y".
type HostStatus struct {
	// String 1.
	Comm            int  // aaa: serial settings bit field (see Baud)
	PaperOut        bool // b
	Paused          bool // c
	LabelLength     int  // dddd: label length in dots
	FormatsInBuffer int  // eee: formats waiting in the receive buffer
	BufferFull      bool // f
	CommDiag        bool // g: communications diagnostic mode
	PartialFormat   bool // h: a format is partly received
	Unused1         int  // iii: always 000
	CorruptRAM      bool // j: configuration lost
	UnderTemp       bool // k
	OverTemp        bool // l

	// String 2.
	Function        int  // mmm: function settings bit field
	Unused2         int  // n
	HeadOpen        bool // o: head up
	RibbonOut       bool // p
	ThermalTransfer bool // q: thermal transfer mode selected
	PrintMode       int  // r: 0 rewind, 1 peel-off, 2 tear-off, 3 cutter, 4 applicator, …
	WidthMode       int  // s
	LabelWaiting    bool // t: a label waits to be taken (peel-off)
	LabelsRemaining int  // uuuuuuuu: labels remaining in the batch
	Always1         int  // v
	GraphicsStored  int  // www

	// String 3.
	Password  int  // xxxx
	StaticRAM bool // y: static RAM installed
}

// field widths in digits, in reply order; the flag fields are 1 digit.
var (
	widths1 = [...]int{3, 1, 1, 4, 3, 1, 1, 1, 3, 1, 1, 1}
	widths2 = [...]int{3, 1, 1, 1, 1, 1, 1, 1, 8, 1, 3}
	widths3 = [...]int{4, 1}
)

func (h *HostStatus) fields() (s1, s2, s3 []any) {
	return []any{&h.Comm, &h.PaperOut, &h.Paused, &h.LabelLength, &h.FormatsInBuffer,
			&h.BufferFull, &h.CommDiag, &h.PartialFormat, &h.Unused1, &h.CorruptRAM,
			&h.UnderTemp, &h.OverTemp},
		[]any{&h.Function, &h.Unused2, &h.HeadOpen, &h.RibbonOut, &h.ThermalTransfer,
			&h.PrintMode, &h.WidthMode, &h.LabelWaiting, &h.LabelsRemaining, &h.Always1,
			&h.GraphicsStored},
		[]any{&h.Password, &h.StaticRAM}
}

// ParseHostStatus decodes the three framed strings of a ~HS reply.
// Bytes outside the frames (CR, LF, spaces) are ignored. Numbers may have
// any number of digits up to 9; a flag other than 0 reads as set.
func ParseHostStatus(b []byte) (HostStatus, error) {
	var h HostStatus
	frames, rest, err := splitFrames(b)
	if err != nil {
		return h, err
	}
	if len(frames) != 3 || len(bytes.TrimSpace(rest)) != 0 {
		return h, fmt.Errorf("%w: %d strings, want 3", ErrFraming, len(frames))
	}
	s1, s2, s3 := h.fields()
	for i, dst := range [][]any{s1, s2, s3} {
		if err := parseFields(frames[i], dst); err != nil {
			return HostStatus{}, fmt.Errorf("%w in string %d", err, i+1)
		}
	}
	return h, nil
}

// splitFrames returns the contents of the complete STX … ETX frames in b
// and what follows the last one.
func splitFrames(b []byte) (frames [][]byte, rest []byte, err error) {
	for {
		i := bytes.IndexByte(b, stx)
		if i < 0 {
			return frames, b, nil
		}
		if len(bytes.TrimSpace(b[:i])) != 0 {
			return nil, nil, fmt.Errorf("%w: %q before STX", ErrFraming, b[:i])
		}
		j := bytes.IndexByte(b[i+1:], etx)
		if j < 0 {
			return frames, b[i:], nil
		}
		f := b[i+1 : i+1+j]
		if bytes.IndexByte(f, stx) >= 0 {
			return nil, nil, fmt.Errorf("%w: STX inside a string", ErrFraming)
		}
		frames = append(frames, f)
		b = b[i+2+j:]
	}
}

func parseFields(f []byte, dst []any) error {
	parts := bytes.Split(f, []byte{','})
	if len(parts) != len(dst) {
		return fmt.Errorf("%w: %d fields, want %d", ErrField, len(parts), len(dst))
	}
	for i, p := range parts {
		if len(p) == 0 || len(p) > 9 {
			return fmt.Errorf("%w: field %d is %q", ErrField, i+1, p)
		}
		for _, c := range p {
			if c < '0' || c > '9' {
				return fmt.Errorf("%w: field %d is %q", ErrField, i+1, p)
			}
		}
		n, _ := strconv.Atoi(string(p)) // at most 9 digits: cannot fail
		switch d := dst[i].(type) {
		case *int:
			*d = n
		case *bool:
			*d = n != 0
		}
	}
	return nil
}

// Encode writes the reply a printer sends, each field at its documented
// width. Numbers wider than their field are written in full.
func (h HostStatus) Encode() []byte {
	var b bytes.Buffer
	s1, s2, s3 := h.fields()
	for i, f := range [][]any{s1, s2, s3} {
		w := [][]int{widths1[:], widths2[:], widths3[:]}[i]
		b.WriteByte(stx)
		for k, v := range f {
			if k > 0 {
				b.WriteByte(',')
			}
			n := 0
			switch d := v.(type) {
			case *int:
				n = *d
			case *bool:
				if *d {
					n = 1
				}
			}
			fmt.Fprintf(&b, "%0*d", w[k], n)
		}
		b.WriteString("\x03\r\n")
	}
	return b.Bytes()
}

// Faults returns the conditions that stop printing. A missing ribbon
// counts only in thermal transfer mode.
func (h HostStatus) Faults() printers.Fault {
	var f printers.Fault
	set := func(c bool, x printers.Fault) {
		if c {
			f |= x
		}
	}
	set(h.PaperOut, printers.FaultPaperOut)
	set(h.Paused, printers.FaultPaused)
	set(h.BufferFull, printers.FaultBufferFull)
	set(h.CorruptRAM, printers.FaultCorruptRAM)
	set(h.UnderTemp, printers.FaultHeadUnderTemp)
	set(h.OverTemp, printers.FaultHeadOverTemp)
	set(h.HeadOpen, printers.FaultHeadOpen)
	set(h.RibbonOut && h.ThermalTransfer, printers.FaultRibbonOut)
	return f
}

// Busy reports whether earlier work is still in the printer.
func (h HostStatus) Busy() bool {
	return h.FormatsInBuffer > 0 || h.PartialFormat || h.LabelsRemaining > 0
}

// Status returns the status in the form shared by all printers.
func (h HostStatus) Status() printers.Status {
	return printers.Status{Faults: h.Faults(), Busy: h.Busy()}
}

// bauds by the 4-bit code made of Comm bits 8 and 2..0 (ZPL II guide,
// ~HS field aaa).
var bauds = [...]int{110, 300, 600, 1200, 2400, 4800, 9600, 19200, 28800, 38400, 57600, 14400}

// Baud returns the serial speed coded in Comm, or 0 for an unknown code.
func (h HostStatus) Baud() int {
	c := h.Comm&7 | (h.Comm>>8&1)<<3
	if c < len(bauds) {
		return bauds[c]
	}
	return 0
}
