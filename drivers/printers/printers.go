package printers

import (
	"context"
	"errors"
	"image"
	"strings"
)

// Artwork is a label that draws itself in the form a printer asks for.
// The service makes one per job (package tags: Renderer.Artwork) and
// each driver takes its own language at its own resolution, so nothing
// above the Printer interface needs to know which printer it is.
type Artwork interface {
	// ZPL returns a complete ^XA … ^XZ format at dpmm dots per mm.
	ZPL(dpmm int) ([]byte, error)
	// Raster returns the label as a picture at dpmm dots per mm for
	// media widthMM wide (printable), black where the printer marks.
	Raster(dpmm, widthMM float64) (image.Image, error)
}

// Label is one label to print. A driver uses what its printer language
// needs: Art when it is set; else a ZPL printer sends ZPL when it is set
// and otherwise turns Image into a ^GFA graphic field, and a raster
// printer needs Image.
type Label struct {
	// Art draws the label for the printer (see Artwork).
	Art Artwork
	// Image is the rendered label at the printer's resolution; black
	// where the printer should mark.
	Image image.Image
	// ZPL is a complete ^XA … ^XZ format, for ZPL printers.
	ZPL []byte
	// Copies is the number of copies; 0 means 1.
	Copies int
}

// Printer is a label printer.
//
// Print checks the printer before it sends anything (a printer that
// reports a Fault gets nothing) and, where the link gives a reply, after
// the job. Status asks the printer now; over a link that gives no reply
// it returns an error wrapping ErrStatusUnavailable, which also means a
// finished Print was not confirmed by the device.
type Printer interface {
	Print(ctx context.Context, l Label) error
	Status(ctx context.Context) (Status, error)
	String() string
	Close() error
}

// Confirmer is a printer that knows whether its Print is confirmed by
// the device (a status reply after the job) without asking it again.
type Confirmer interface {
	Confirms() bool
}

// Unconfirmed reports whether p cannot confirm a finished Print: its
// link gives no status back, so a job it took is "sent, not confirmed"
// and a person checks the label. A Confirmer says so itself; any other
// printer is asked for its status (ErrStatusUnavailable).
func Unconfirmed(ctx context.Context, p Printer) bool {
	if c, ok := p.(Confirmer); ok {
		return !c.Confirms()
	}
	_, err := p.Status(ctx)
	return errors.Is(err, ErrStatusUnavailable)
}

// Status is what a printer reported.
type Status struct {
	// Faults holds every condition that stops printing; 0 means ready.
	Faults Fault
	// Busy is set while the printer still holds or prints earlier work.
	Busy bool
	// Media names the loaded media when the printer reports it
	// ("62 mm continuous", "29x90 mm die-cut"); empty when unknown.
	Media string
}

// Ready reports whether the printer can take a job.
func (s Status) Ready() bool { return s.Faults == 0 }

// Err returns nil when the printer is ready, else the faults as an error.
func (s Status) Err() error {
	if s.Faults == 0 {
		return nil
	}
	return s.Faults
}

// Errors shared by the printer drivers.
var (
	// ErrStatusUnavailable: the link gives no status back (a Brother QL
	// over the network), so faults cannot be seen and a job cannot be
	// confirmed.
	ErrStatusUnavailable = errors.New("printers: status unavailable over this link")
	// ErrUnsupported: the label has nothing this printer can print
	// (no Image for a raster printer, neither Image nor ZPL for a ZPL one).
	ErrUnsupported = errors.New("printers: label has nothing this printer can print")
)

// Fault is a set of printer conditions that stop printing. A Fault is an
// error; errors.Is(err, FaultPaperOut) is true when err wraps a Fault
// that contains FaultPaperOut.
type Fault uint32

// Faults. The ZPL ~HS and the Brother status reply map onto these; the
// comments name the source bit.
const (
	FaultPaperOut      Fault = 1 << iota // ~HS b; Brother err1 bit0 no media, bit1 end of media
	FaultHeadOpen                        // ~HS o head up; Brother err2 bit4 cover open
	FaultPaused                          // ~HS c pause
	FaultRibbonOut                       // ~HS p (thermal transfer only)
	FaultHeadOverTemp                    // ~HS l; Brother cooling is a notification, not a fault
	FaultHeadUnderTemp                   // ~HS k
	FaultBufferFull                      // ~HS f; Brother err2 bit1, bit3
	FaultCorruptRAM                      // ~HS j configuration lost
	FaultCutterJam                       // Brother err1 bit2
	FaultMediaWrong                      // Brother err2 bit0 replace media; loaded media differs from the job
	FaultFeed                            // Brother err2 bit6 cannot feed
	FaultTransmission                    // Brother err2 bit2
	FaultSystem                          // Brother err1 bit4..7, err2 bit7
	FaultCancelled                       // Brother err2 bit5 cancel key
	faultEnd
)

var faultNames = [...]string{
	"paper out", "head open", "paused", "ribbon out", "head over temperature",
	"head under temperature", "receive buffer full", "configuration lost",
	"cutter jam", "wrong media", "cannot feed", "transmission error",
	"system error", "cancelled at the printer",
}

// Error lists the faults, as in "printers: paper out, head open".
func (f Fault) Error() string { return "printers: " + f.String() }

// String lists the faults by name; "ready" when there are none.
func (f Fault) String() string {
	if f == 0 {
		return "ready"
	}
	var parts []string
	for i, n := range faultNames {
		if f&(1<<i) != 0 {
			parts = append(parts, n)
		}
	}
	if f >= faultEnd {
		parts = append(parts, "unknown fault")
	}
	return strings.Join(parts, ", ")
}

// Is reports whether target is a Fault contained in f, so that
// errors.Is(err, FaultHeadOpen) works on a combined Fault.
func (f Fault) Is(target error) bool {
	t, ok := target.(Fault)
	return ok && t != 0 && f&t == t
}
