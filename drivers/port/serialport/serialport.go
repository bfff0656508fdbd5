package serialport

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"go.bug.st/serial"

	"github.com/chipdesk/chipdesk/drivers/port"
)

// Opts configures Open.
type Opts struct {
	// Mode is the line framing. A zero Baud means 9600.
	Mode port.Mode
	// ReadTimeout bounds each Read; 0 blocks until data arrives.
	ReadTimeout time.Duration
}

// DefaultOpts is used when Open is given nil Opts: 9600 8N1, blocking
// reads.
var DefaultOpts = Opts{Mode: port.Mode{Baud: 9600, DataBits: 8, Parity: port.ParityNone, StopBits: 1}}

// Port is an open serial line.
type Port struct {
	name string
	p    serial.Port

	mu      sync.Mutex
	closed  bool
	timeout time.Duration
}

var (
	_ port.Port      = (*Port)(nil)
	_ port.Timeouter = (*Port)(nil)
	_ port.Moder     = (*Port)(nil)
)

// Open opens the serial device name (for example "/dev/ttyUSB0" or a
// pseudo-terminal's "/dev/pts/3") with o, nil meaning DefaultOpts.
func Open(name string, o *Opts) (*Port, error) {
	if o == nil {
		o = &DefaultOpts
	}
	m, err := serialMode(o.Mode)
	if err != nil {
		return nil, fmt.Errorf("serialport: open %s: %w", name, err)
	}
	sp, err := serial.Open(name, m)
	if err != nil {
		err = openError(err)
		if errors.Is(err, ErrNotFound) && IsRFCOMM(name) {
			err = fmt.Errorf("%w: pair the scanner (bluetoothctl pair ADDRESS) and bind the port (rfcomm bind %s ADDRESS) (%w)",
				ErrNotPaired, strings.TrimPrefix(filepath.Base(name), "rfcomm"), err)
		}
		return nil, fmt.Errorf("serialport: open %s: %w", name, err)
	}
	p := &Port{name: name, p: sp}
	if err := p.SetReadTimeout(o.ReadTimeout); err != nil {
		sp.Close()
		return nil, err
	}
	return p, nil
}

// The errors below are wrapped with the operation and the port's name
// ("serialport: open /dev/ttyUSB0: port busy (Serial port busy)"), so
// their own text has no prefix; the library's *serial.PortError stays
// reachable with errors.As through every wrap.

// ErrBusy is returned by Open when another process holds the port.
var ErrBusy = errors.New("port busy")

// ErrNotFound is returned by Open when the device does not exist.
var ErrNotFound = errors.New("no such port")

// ErrNotPaired is returned with ErrNotFound by Open for a Bluetooth
// serial port (/dev/rfcommN) that does not exist: the scanner is not
// paired, or its port not bound. A bound port whose scanner sleeps
// opens and reads again when it wakes; the runner reopens it.
var ErrNotPaired = errors.New("Bluetooth scanner not paired or its rfcomm port not bound")

// IsRFCOMM reports whether name is a Bluetooth serial-port-profile
// device of the Linux rfcomm layer (/dev/rfcomm0, ...).
func IsRFCOMM(name string) bool { return strings.HasPrefix(filepath.Base(name), "rfcomm") }

// openError marks what the library's open error means, keeping it
// (and its *serial.PortError) wrapped.
func openError(err error) error {
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%w (%w)", ErrNotFound, err)
	}
	var pe *serial.PortError
	if errors.As(err, &pe) {
		switch pe.Code() {
		case serial.PortBusy:
			return fmt.Errorf("%w (%w)", ErrBusy, err)
		case serial.PortNotFound:
			return fmt.Errorf("%w (%w)", ErrNotFound, err)
		}
	}
	return err
}

// ErrMode is returned for a line setting the port cannot take.
var ErrMode = errors.New("bad line setting")

// serialMode converts a port.Mode, filling the documented zero values.
func serialMode(m port.Mode) (*serial.Mode, error) {
	sm := &serial.Mode{BaudRate: m.Baud, DataBits: m.DataBits}
	if sm.BaudRate == 0 {
		sm.BaudRate = 9600
	}
	if sm.BaudRate < 0 {
		return nil, fmt.Errorf("%w: baud rate %d", ErrMode, m.Baud)
	}
	if sm.DataBits == 0 {
		sm.DataBits = 8
	}
	if sm.DataBits < 5 || sm.DataBits > 8 {
		return nil, fmt.Errorf("%w: data bits %d", ErrMode, m.DataBits)
	}
	switch m.Parity {
	case 0, port.ParityNone:
		sm.Parity = serial.NoParity
	case port.ParityOdd:
		sm.Parity = serial.OddParity
	case port.ParityEven:
		sm.Parity = serial.EvenParity
	case port.ParityMark:
		sm.Parity = serial.MarkParity
	case port.ParitySpace:
		sm.Parity = serial.SpaceParity
	default:
		return nil, fmt.Errorf("%w: parity %q", ErrMode, rune(m.Parity))
	}
	switch m.StopBits {
	case 0, 1:
		sm.StopBits = serial.OneStopBit
	case 2:
		sm.StopBits = serial.TwoStopBits
	default:
		return nil, fmt.Errorf("%w: stop bits %d", ErrMode, m.StopBits)
	}
	return sm, nil
}

// String returns the device name.
func (p *Port) String() string { return p.name }

// Read reads what the line has received. It returns an error wrapping
// port.ErrTimeout when the read timeout passed with nothing received,
// port.ErrHangup when the device went away and port.ErrClosed after
// Close.
func (p *Port) Read(b []byte) (int, error) {
	if len(b) == 0 {
		return 0, nil
	}
	n, err := p.p.Read(b)
	if n > 0 {
		return n, nil
	}
	if err == nil {
		if p.isClosed() {
			return 0, fmt.Errorf("serialport: read %s: %w", p.name, port.ErrClosed)
		}
		return 0, fmt.Errorf("serialport: read %s: %w", p.name, port.ErrTimeout)
	}
	return 0, p.ioError("read", err)
}

// Write sends b.
func (p *Port) Write(b []byte) (int, error) {
	if p.isClosed() {
		return 0, fmt.Errorf("serialport: write %s: %w", p.name, port.ErrClosed)
	}
	n, err := p.p.Write(b)
	if err != nil {
		return n, p.ioError("write", err)
	}
	return n, nil
}

// ioError maps a library error: after our Close anything is ErrClosed;
// otherwise a "port closed" report, EOF, EIO or ENXIO means the device
// hung up.
func (p *Port) ioError(op string, err error) error {
	if p.isClosed() {
		return fmt.Errorf("serialport: %s %s: %w", op, p.name, port.ErrClosed)
	}
	var pe *serial.PortError
	if errors.As(err, &pe) && pe.Code() == serial.PortClosed ||
		errors.Is(err, io.EOF) || errors.Is(err, syscall.EIO) ||
		errors.Is(err, syscall.ENXIO) || errors.Is(err, syscall.ENODEV) {
		return fmt.Errorf("serialport: %s %s: %w (%w)", op, p.name, port.ErrHangup, err)
	}
	return fmt.Errorf("serialport: %s %s: %w", op, p.name, err)
}

// SetReadTimeout sets the read timeout; 0 blocks until data arrives.
func (p *Port) SetReadTimeout(d time.Duration) error {
	if d < 0 {
		return fmt.Errorf("serialport: set timeout %s: negative %v", p.name, d)
	}
	t := d
	if d == 0 {
		t = serial.NoTimeout
	}
	if err := p.p.SetReadTimeout(t); err != nil {
		return p.ioError("set timeout", err)
	}
	p.mu.Lock()
	p.timeout = d
	p.mu.Unlock()
	return nil
}

// SetMode changes the line framing.
func (p *Port) SetMode(m port.Mode) error {
	sm, err := serialMode(m)
	if err != nil {
		return fmt.Errorf("serialport: set mode %s: %w", p.name, err)
	}
	if err := p.p.SetMode(sm); err != nil {
		return p.ioError("set mode", err)
	}
	return nil
}

// Drain waits until everything written has been sent.
func (p *Port) Drain() error {
	if err := p.p.Drain(); err != nil {
		return p.ioError("drain", err)
	}
	return nil
}

// ResetInput discards what was received and not read yet.
func (p *Port) ResetInput() error {
	if err := p.p.ResetInputBuffer(); err != nil {
		return p.ioError("reset", err)
	}
	return nil
}

// Close closes the port. A Read blocked in another goroutine returns
// port.ErrClosed. Closing twice is not an error.
func (p *Port) Close() error {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil
	}
	p.closed = true
	p.mu.Unlock()
	if err := p.p.Close(); err != nil {
		return fmt.Errorf("serialport: close %s: %w", p.name, err)
	}
	return nil
}

func (p *Port) isClosed() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.closed
}
