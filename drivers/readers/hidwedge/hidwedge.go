package hidwedge

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/chipdesk/chipdesk/drivers/port"
	"github.com/chipdesk/chipdesk/drivers/port/usbport"
	"github.com/chipdesk/chipdesk/drivers/readers"
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
	// Rejected, when set, is told of each typed line that is not a chip
	// number (err is a *LineError): a licence-tag barcode, a misread, a
	// scanner's own message. Next goes on with the next line.
	Rejected func(frame []byte, err error)
}

// DefaultOpts reads US-layout scanners ending lines with Enter, dropping
// partial lines older than half a second.
var DefaultOpts = Opts{Layout: "us", Gap: 500 * time.Millisecond, MaxLine: 80, Form: chipid.FormDecimal}

// Dev reads chip numbers typed by a keyboard-wedge scanner: the
// generic device reading Boot (HID reports) or Evdev (Linux input
// events).
type Dev = readers.Dev

// Boot returns the protocol of a scanner's 8-byte boot keyboard
// reports (as usbport.Port on a HID interrupt endpoint reads them). Its
// decoder keeps the keys held and the line typed so far, so each Dev
// needs a Protocol of its own. A nil o means DefaultOpts.
func Boot(o *Opts) (readers.Protocol, error) {
	t, err := newTypist(o)
	if err != nil {
		return readers.Protocol{}, err
	}
	return t.protocol(Format, "keyboard-wedge scanner, USB boot keyboard reports", ReportLen, NewDecoder(t.layout).Decode), nil
}

// New reads reports from p: a port whose reads return whole 8-byte boot
// keyboard reports (as usbport.Port on a HID interrupt endpoint does).
func New(p port.Port, o *Opts) (*Dev, error) {
	proto, err := Boot(o)
	if err != nil {
		return nil, err
	}
	return open(p, proto, o)
}

func open(p port.Port, proto readers.Protocol, o *Opts) (*Dev, error) {
	if o == nil {
		o = &DefaultOpts
	}
	return readers.Open(p, proto, &readers.Opts{Now: o.Now, Rejected: o.Rejected})
}

// typist makes lines of typed characters, and chip reads of lines.
type typist struct {
	o      Opts
	layout *Layout
	line   []rune
	last   time.Time
}

func newTypist(o *Opts) (*typist, error) {
	if o == nil {
		o = &DefaultOpts
	}
	l, err := LayoutByName(o.Layout)
	if err != nil {
		return nil, err
	}
	t := &typist{o: *o, layout: l}
	if t.o.MaxLine <= 0 {
		t.o.MaxLine = DefaultOpts.MaxLine
	}
	return t, nil
}

// protocol returns the readers.Protocol of frames of size bytes that
// keys turns into characters.
func (t *typist) protocol(name, summary string, size int, keys func(frame []byte) ([]rune, error)) readers.Protocol {
	return readers.Protocol{
		Name: name, Summary: summary,
		Split: func(buf []byte) (int, error) {
			if len(buf) < size {
				return 0, nil
			}
			return size, nil
		},
		DecodeAt: func(f []byte, at time.Time) (reader.Read, bool, error) {
			runes, err := keys(f)
			if err != nil {
				return reader.Read{}, false, err
			}
			line, ok := t.typed(runes, at)
			if !ok {
				return reader.Read{}, false, nil
			}
			return t.read(line)
		},
	}
}

// typed adds the characters of one frame, received at at, to the line;
// it returns the line when they end it. A frame ends one line at most
// (one key press; a boot report holding Enter twice is not typed).
func (t *typist) typed(runes []rune, at time.Time) (string, bool) {
	if len(runes) == 0 {
		return "", false
	}
	if t.o.Gap > 0 && len(t.line) > 0 && at.Sub(t.last) > t.o.Gap {
		t.line = t.line[:0]
	}
	t.last = at
	var (
		done string
		ok   bool
	)
	for _, r := range runes {
		switch {
		case r == Enter || (r == Tab && t.o.TabEnds):
			line := strings.TrimSpace(string(t.line))
			t.line = t.line[:0]
			if line != "" && !ok {
				done, ok = line, true
			}
		case r == Backspace:
			if len(t.line) > 0 {
				t.line = t.line[:len(t.line)-1]
			}
		case r == Tab:
			t.line = append(t.line, ' ')
		default:
			if len(t.line) < t.o.MaxLine {
				t.line = append(t.line, r)
			}
		}
	}
	return done, ok
}

// read parses a typed line as the scanner's form of chip number.
func (t *typist) read(line string) (reader.Read, bool, error) {
	id, err := chipid.Parse(line, &chipid.Opts{Form: t.o.Form})
	if err != nil {
		return reader.Read{}, false, &LineError{Line: line, Err: err}
	}
	return reader.Read{ID: id, Protocol: protocol(id.Kind), Raw: []byte(line)}, true, nil
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

// protocol is what the kind of number tells of the air interface: an
// ISO number came over FDX-B or HDX, which a wedge does not say.
func protocol(k chipid.Kind) reader.Air {
	switch k {
	case chipid.KindISO:
		return reader.AirISO
	case chipid.KindAVID:
		return reader.AirAVID
	case chipid.KindFECAVA:
		return reader.AirFDXA
	case chipid.KindTrovan:
		return reader.AirTrovan
	}
	return reader.AirUnknown
}
