package rfidrw

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/chipdesk/chipdesk/drivers/port"
	"github.com/chipdesk/chipdesk/drivers/readers"
	"github.com/chipdesk/chipdesk/reader"
	"github.com/chipdesk/chipdesk/reader/chipid"
	"github.com/chipdesk/chipdesk/reader/iso11784"
	"github.com/chipdesk/chipdesk/reader/iso11785"
)

// Format is the value of reader.Read.Format for this protocol.
const Format = "rfidrw"

// Mode is the reader's line: 9600 8N1.
var Mode = port.Mode{Baud: 9600, DataBits: 8, Parity: port.ParityNone, StopBits: 1}

// Tag types for SetType (SDn / STn).
const (
	TypeFDXBHDX = 2 // ISO 11784/11785 FDX-B and HDX, the default
)

// Opts configures New.
type Opts struct {
	// Mode is set on the port when it supports it; zero Baud leaves the
	// port's framing alone.
	Mode port.Mode
	// Now stamps reads; nil means time.Now.
	Now func() time.Time
	// Timeout bounds the wait for a command's reply; 0 means 1 s.
	Timeout time.Duration
}

// DefaultOpts is used when New is given nil Opts.
var DefaultOpts = Opts{Mode: Mode, Timeout: time.Second}

// Errors of the commands.
var (
	ErrNoReply = errors.New("rfidrw: no reply")
	ErrNoTag   = errors.New("rfidrw: no tag") // ?1
	ErrCRC     = errors.New("rfidrw: bad CRC")
)

// StatusError is a "?n" reply.
type StatusError struct {
	Command string
	Code    int
}

func (e *StatusError) Error() string {
	what := map[int]string{0: "not understood", 1: "no tag", 2: "read/write failure", 3: "block 0 denied", 4: "bad page"}[e.Code]
	return fmt.Sprintf("rfidrw: %s: ?%d %s", e.Command, e.Code, what)
}

// Is makes a ?1 reply match ErrNoTag.
func (e *StatusError) Is(target error) bool { return target == ErrNoTag && e.Code == 1 }

// Protocol is the RFIDRW-E's protocol as a value, read by the generic
// readers.Dev: its tag lines give reads (a RAT reply too, with its
// flags and extension), and VER is its harmless query.
var Protocol = readers.Protocol{
	Name: Format, Summary: "Priority 1 Design RFIDRW-E, CCC_NNNNNNNNNNNN lines and commands, 9600 8N1",
	Mode: Mode, Split: Split, Max: 256, Decode: ReadFrame, Encode: EncodeID,
	Query: []byte("VER\r"), Answers: answersVER,
}

// answersVER tells whether b holds a version line that is not an echo
// of the query.
func answersVER(b []byte) bool {
	for _, l := range strings.Split(string(b), "\r") {
		l = strings.Trim(l, "\n")
		if l != "" && l != "VER" && !strings.HasPrefix(l, "?") {
			return true
		}
	}
	return false
}

// EncodeID returns the tag line the reader sends when id is read.
func EncodeID(id chipid.ID) ([]byte, error) {
	f, err := FromID(id)
	if err != nil {
		return nil, err
	}
	return Encode(f)
}

// Dev is an RFIDRW-E reader on a port: the generic device reading
// Protocol, with the reader's commands.
//
// Commands must not run while Next is blocked in another goroutine;
// tag lines that arrive while a command waits for its reply are kept
// and returned by the following Next calls.
type Dev struct {
	*readers.Dev
	timeout time.Duration
	now     func() time.Time
}

var _ reader.Reader = (*Dev)(nil)

// New reads the RFIDRW-E on p. It sends nothing; call Version to check
// the reader answers.
func New(p port.Port, o *Opts) (*Dev, error) {
	if o == nil {
		o = &DefaultOpts
	}
	rd, err := readers.Open(p, Protocol, &readers.Opts{Mode: o.Mode, Now: o.Now})
	if err != nil {
		return nil, err
	}
	d := &Dev{Dev: rd, timeout: o.Timeout, now: o.Now}
	if d.now == nil {
		d.now = time.Now
	}
	if d.timeout <= 0 {
		d.timeout = time.Second
	}
	return d, nil
}

// isReply tells a command's reply from a tag line the reader sends by
// itself: every line but a plain tag line (a RAT reply is a tag line
// with flags).
func isReply(f []byte) bool {
	t, err := Decode(f)
	return err != nil || t.RAT
}

// Command sends cmd and returns its reply line (without CR). A "?n"
// reply is returned as a *StatusError.
func (d *Dev) Command(ctx context.Context, cmd string) (string, error) {
	if strings.ContainsAny(cmd, "\r\n") {
		return "", fmt.Errorf("rfidrw: command %q holds a line end", cmd)
	}
	ctx, cancel := context.WithTimeout(ctx, d.timeout)
	defer cancel()
	f, err := d.Exchange(ctx, []byte(cmd+"\r"), isReply)
	switch {
	case errors.Is(err, context.DeadlineExceeded) && ctx.Err() != nil:
		return "", fmt.Errorf("%w to %s", ErrNoReply, cmd)
	case err != nil:
		return "", fmt.Errorf("%s: %w", cmd, err)
	}
	if st, ok := ParseStatus(f); ok && !st.OK {
		return "", &StatusError{Command: cmd, Code: st.Code}
	}
	return string(readers.TrimEOL(f)), nil
}

// Version returns the reply to VER.
func (d *Dev) Version(ctx context.Context) (string, error) { return d.Command(ctx, "VER") }

// RF turns the antenna field on (SRA) or off (SRD).
func (d *Dev) RF(ctx context.Context, on bool) error {
	cmd := "SRD"
	if on {
		cmd = "SRA"
	}
	return d.ok(ctx, cmd)
}

// SetType selects the tag type n (0..4); store keeps it as the default
// (SDn), else it holds until power-off (STn, with a 5 s output
// lockout).
func (d *Dev) SetType(ctx context.Context, n int, store bool) error {
	if n < 0 || n > 4 {
		return fmt.Errorf("rfidrw: tag type %d not in 0..4", n)
	}
	cmd := fmt.Sprintf("ST%d", n)
	if store {
		cmd = fmt.Sprintf("SD%d", n)
	}
	return d.ok(ctx, cmd)
}

// Locate asks whether a tag is in the field (LTG): true on OK, false on
// ?1.
func (d *Dev) Locate(ctx context.Context) (bool, error) {
	err := d.ok(ctx, "LTG")
	if errors.Is(err, ErrNoTag) {
		return false, nil
	}
	return err == nil, err
}

// ReadAnimalTag reads the tag in the field with RAT: the code with its
// flags and extension. It returns ErrNoTag when no tag answers.
func (d *Dev) ReadAnimalTag(ctx context.Context) (reader.Read, error) {
	line, err := d.Command(ctx, "RAT")
	if err != nil {
		return reader.Read{}, err
	}
	f, err := Decode([]byte(line))
	if err != nil || !f.RAT {
		return reader.Read{}, fmt.Errorf("rfidrw: RAT reply %q: %w", line, ErrFraming)
	}
	r, err := ToRead(f)
	if err != nil {
		return reader.Read{}, err
	}
	r.Raw, r.At, r.Source, r.Format = []byte(line+"\r"), d.now(), d.String(), Format
	return r, nil
}

func (d *Dev) ok(ctx context.Context, cmd string) error {
	reply, err := d.Command(ctx, cmd)
	if err != nil {
		return err
	}
	if reply != "OK" {
		return fmt.Errorf("rfidrw: %s: unexpected reply %q", cmd, reply)
	}
	return nil
}

// ToRead turns a tag line into a read. A RAT line carries the animal
// and data-block flags, the extension and the tag's CRC, which must be
// the ISO 11785 CRC of the code (ISO 11785 §6.2); a plain line only
// the code.
func ToRead(f Frame) (reader.Read, error) {
	var id chipid.ID
	if f.RAT {
		c, err := iso11784.New(f.Country, f.National, f.Animal)
		if err != nil {
			return reader.Read{}, fmt.Errorf("rfidrw: %w", err)
		}
		c = c.WithDataBlock(f.DataBlock)
		if want := iso11785.CodeCRC(c); f.CRC != want {
			return reader.Read{}, fmt.Errorf("%w: RAT carries %04X, the code gives %04X", ErrCRC, f.CRC, want)
		}
		id = readers.ChipISO(c)
	} else {
		var err error
		id, err = readers.ChipText(fmt.Sprintf("%03d%012d", f.Country, f.National), chipid.FormDecimal)
		if err != nil {
			return reader.Read{}, fmt.Errorf("rfidrw: %w", err)
		}
	}
	r := reader.Read{ID: id, Protocol: reader.AirISO}
	if f.RAT && f.DataBlock {
		r.Ext, r.HasExt = f.Ext, true
	}
	return r, nil
}

// ReadFrame turns a well-formed frame into a read (a readers.DecodeFunc).
func ReadFrame(b []byte) (reader.Read, bool, error) {
	f, err := Decode(b)
	if err != nil {
		// Replies and other tag types: no chip.
		return reader.Read{}, false, nil
	}
	r, err := ToRead(f)
	return r, err == nil, err
}

// FromID returns the plain tag line content for an ISO chip.
func FromID(id chipid.ID) (Frame, error) {
	if id.Kind != chipid.KindISO {
		return Frame{}, fmt.Errorf("%w: %s chip %s is not ISO 11784", ErrField, id.Kind, id.Code)
	}
	return Frame{Country: id.ISO.Country(), National: id.ISO.National()}, nil
}
