package hidwedge

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/chipdesk/chipdesk/drivers/port"
	"github.com/chipdesk/chipdesk/drivers/port/usbport"
	"github.com/chipdesk/chipdesk/drivers/usbids"
	"github.com/chipdesk/chipdesk/reader"
	"github.com/chipdesk/chipdesk/reader/chipid"
)

// Format is reader.Read.Format for reads from a wedge scanner.
const Format = "hidwedge"

// LineError is returned by Next for a typed line that is not a chip
// number: a licence-tag barcode, a misread, a scanner's own message. The
// caller may look the line up as something else; Next goes on with the
// next line.
type LineError struct {
	Line string
	Err  error
}

func (e *LineError) Error() string { return fmt.Sprintf("hidwedge: line %q: %v", e.Line, e.Err) }

func (e *LineError) Unwrap() error { return e.Err }

// Opts configures a Dev.
type Opts struct {
	// Layout is the keyboard layout the scanner types for: "us" or
	// "de". Scanners ship set to "us".
	Layout string
	// TabEnds makes Tab end a line as Enter does (scanners set to
	// "suffix: tab").
	TabEnds bool
	// Gap drops a partial line when the next key comes later than this
	// (a report lost mid-scan must not glue two scans together); 0
	// keeps partial lines however old.
	Gap time.Duration
	// MaxLine drops a line longer than this many characters.
	MaxLine int
	// Form is the form the scanner types chip numbers in; it decides a
	// text that reads as more than one chip, so a scan is never
	// ambiguous. DefaultOpts types decimal, as pet scanners ship.
	Form chipid.Form
	// Now stamps reads; nil means time.Now.
	Now func() time.Time
}

// DefaultOpts reads US-layout scanners ending lines with Enter, dropping
// partial lines older than half a second.
var DefaultOpts = Opts{Layout: "us", Gap: 500 * time.Millisecond, MaxLine: 80, Form: chipid.FormDecimal}

// Dev reads chip numbers typed by a keyboard-wedge scanner, from its
// boot keyboard reports.
type Dev struct {
	p    port.Port
	o    Opts
	dec  *Decoder
	name string

	mu      sync.Mutex // one Next at a time; guards the fields below
	line    []rune
	pending []rune
	last    time.Time
	closed  chan struct{}
	closeMu sync.Once
}

var _ reader.Reader = (*Dev)(nil)

// New reads reports from p: a port whose reads return whole 8-byte boot
// keyboard reports (as usbport.Port on a HID interrupt endpoint does).
func New(p port.Port, o *Opts) (*Dev, error) {
	if o == nil {
		o = &DefaultOpts
	}
	l, err := LayoutByName(o.Layout)
	if err != nil {
		return nil, err
	}
	oo := *o
	if oo.Now == nil {
		oo.Now = time.Now
	}
	if oo.MaxLine <= 0 {
		oo.MaxLine = DefaultOpts.MaxLine
	}
	return &Dev{p: p, o: oo, dec: NewDecoder(l), name: "hidwedge on " + p.String(), closed: make(chan struct{})}, nil
}

// Open opens the first scanner on b that m matches: it claims the boot
// keyboard interface, so the kernel's keyboard driver lets go of it and
// no scan reaches the focused window, and switches the scanner to the
// boot protocol (HID 1.11 §7.2.6 SET_PROTOCOL) with no idle repeats
// (§7.2.4 SET_IDLE). A nil o means DefaultOpts.
func Open(ctx context.Context, b usbport.Bus, m usbport.Match, o *Opts) (*Dev, error) {
	if b == nil {
		return nil, errors.New("hidwedge: nil bus")
	}
	d, err := b.Open(ctx, m)
	if err != nil {
		return nil, fmt.Errorf("hidwedge: %w", err)
	}
	if d == nil {
		return nil, fmt.Errorf("hidwedge: %s: %w", m, usbport.ErrNotFound)
	}
	p, err := usbport.NewPort(ctx, d, &usbport.Opts{
		Iface: usbport.BootKeyboardIface,
		Type:  usbport.Interrupt,
		NoOut: true,
	})
	if err != nil {
		_ = d.Close()
		return nil, fmt.Errorf("hidwedge: %w", err)
	}
	iface := uint16(p.Interface().Number)
	// Class requests to the interface: bmRequestType 0x21 (host to
	// device, class, interface). Some scanners stall SET_IDLE; a boot
	// keyboard must take SET_PROTOCOL.
	const setIdle, setProtocol = 0x0a, 0x0b
	if _, err := d.Control(ctx, 0x21, setProtocol, 0, iface, nil); err != nil {
		_ = p.Close()
		return nil, fmt.Errorf("hidwedge: %s: set boot protocol: %w", p, err)
	}
	_, _ = d.Control(ctx, 0x21, setIdle, 0, iface, nil)
	w, err := New(p, o)
	if err != nil {
		_ = p.Close()
		return nil, err
	}
	return w, nil
}

// Known returns matches for the scanners in package usbids and for
// extra, which a configuration adds ("vvvv:pppp" through
// usbport.ParseMatch).
func Known(extra ...usbport.Match) []usbport.Match {
	var out []usbport.Match
	for _, e := range usbids.OfKind(usbids.HIDScanner) {
		out = append(out, usbport.Match{VID: e.VID, PID: e.PID})
	}
	return append(out, extra...)
}

// Find lists the devices on b that any of ms matches and that have a
// boot keyboard interface.
func Find(ctx context.Context, b usbport.Bus, ms []usbport.Match) ([]usbport.Desc, error) {
	all, err := b.Devices(ctx)
	if err != nil {
		return nil, fmt.Errorf("hidwedge: %w", err)
	}
	var out []usbport.Desc
	for _, d := range all {
		if !hasBootKeyboard(d) {
			continue
		}
		for _, m := range ms {
			if m.Matches(d) {
				out = append(out, d)
				break
			}
		}
	}
	return out, nil
}

func hasBootKeyboard(d usbport.Desc) bool {
	for _, i := range d.Interfaces {
		if usbport.BootKeyboardIface.Fits(i) {
			return true
		}
	}
	return false
}

// String names the scanner.
func (d *Dev) String() string { return d.name }

// Close closes the port; the kernel's keyboard driver takes the scanner
// back.
func (d *Dev) Close() error {
	err := port.ErrClosed
	d.closeMu.Do(func() {
		close(d.closed)
		err = d.p.Close()
	})
	if errors.Is(err, port.ErrClosed) {
		return nil
	}
	return err
}

type readContexter interface {
	ReadContext(ctx context.Context, p []byte) (int, error)
}

// Next returns the next chip number typed. A line that is not a chip
// number returns a *LineError; the following call reads on.
func (d *Dev) Next(ctx context.Context) (reader.Read, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	report := make([]byte, ReportLen)
	for {
		for len(d.pending) > 0 {
			r := d.pending[0]
			d.pending = d.pending[1:]
			switch {
			case r == Enter || (r == Tab && d.o.TabEnds):
				line := strings.TrimSpace(string(d.line))
				d.line = d.line[:0]
				if line != "" {
					return d.read(line, d.last)
				}
			case r == Backspace:
				if len(d.line) > 0 {
					d.line = d.line[:len(d.line)-1]
				}
			case r == Tab:
				d.line = append(d.line, ' ')
			default:
				if len(d.line) < d.o.MaxLine {
					d.line = append(d.line, r)
				}
			}
		}
		if err := d.readReport(ctx, report); err != nil {
			return reader.Read{}, err
		}
		runes, err := d.dec.Decode(report)
		if err != nil {
			return reader.Read{}, err
		}
		if len(runes) == 0 {
			continue
		}
		now := d.o.Now()
		if d.o.Gap > 0 && len(d.line) > 0 && now.Sub(d.last) > d.o.Gap {
			d.line = d.line[:0]
		}
		d.last = now
		d.pending = runes
	}
}

func (d *Dev) read(line string, at time.Time) (reader.Read, error) {
	id, err := chipid.Parse(line, &chipid.Opts{Form: d.o.Form})
	if err != nil {
		return reader.Read{}, &LineError{Line: line, Err: err}
	}
	return reader.Read{
		ID:       id,
		Protocol: protocol(id.Kind),
		Format:   Format,
		Source:   d.name,
		Raw:      []byte(line),
		At:       at,
	}, nil
}

// protocol is what the kind of number tells of the air interface: an
// ISO number came over FDX-B or HDX, which a wedge does not say.
func protocol(k chipid.Kind) reader.Protocol {
	switch k {
	case chipid.KindISO:
		return reader.ProtocolISO
	case chipid.KindAVID:
		return reader.ProtocolAVID
	case chipid.KindFECAVA:
		return reader.ProtocolFDXA
	case chipid.KindTrovan:
		return reader.ProtocolTrovan
	}
	return reader.ProtocolUnknown
}

// readReport reads one whole report, waiting through read timeouts
// until ctx ends.
func (d *Dev) readReport(ctx context.Context, report []byte) error {
	n := 0
	for n < len(report) {
		if err := ctx.Err(); err != nil {
			return err
		}
		var (
			k   int
			err error
		)
		if rc, ok := d.p.(readContexter); ok {
			k, err = rc.ReadContext(ctx, report[n:])
		} else {
			k, err = d.p.Read(report[n:])
		}
		n += k
		switch {
		case err == nil:
		case errors.Is(err, port.ErrTimeout):
		case errors.Is(err, port.ErrClosed):
			return reader.ErrClosed
		case ctx.Err() != nil:
			return ctx.Err()
		case errors.Is(err, io.EOF):
			return fmt.Errorf("hidwedge: %s: %w", d.p, port.ErrHangup)
		default:
			select {
			case <-d.closed:
				return reader.ErrClosed
			default:
			}
			return fmt.Errorf("hidwedge: %w", err)
		}
	}
	return nil
}
