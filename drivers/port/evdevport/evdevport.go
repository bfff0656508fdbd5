//go:build linux

package evdevport

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/chipdesk/chipdesk/drivers/port"
)

// evIOCGrab is EVIOCGRAB: _IOW('E', 0x90, int).
const evIOCGrab = 1<<30 | 4<<16 | 'E'<<8 | 0x90

// Port is an open input device.
type Port struct {
	name    string
	f       *os.File
	grabbed bool

	mu      sync.Mutex
	timeout time.Duration
	closed  atomic.Bool
}

var (
	_ port.Port      = (*Port)(nil)
	_ port.Timeouter = (*Port)(nil)
)

// Open opens the input device at path and grabs it unless o.NoGrab; a
// nil o grabs.
func Open(path string, o *Opts) (*Port, error) {
	f, err := os.OpenFile(path, os.O_RDONLY, 0)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENODEV) || errors.Is(err, syscall.ENXIO) {
			return nil, fmt.Errorf("evdevport: open %s: %w (%w)", path, ErrNotFound, err)
		}
		return nil, fmt.Errorf("evdevport: open %s: %w", path, err)
	}
	p := &Port{name: path, f: f}
	if o == nil || !o.NoGrab {
		if err := p.grab(1); err != nil {
			f.Close()
			switch {
			case errors.Is(err, syscall.EBUSY):
				err = fmt.Errorf("%w (%w)", ErrBusy, err)
			case errors.Is(err, syscall.ENOTTY), errors.Is(err, syscall.EINVAL):
				err = fmt.Errorf("%w (%w)", ErrNotInput, err)
			}
			return nil, fmt.Errorf("evdevport: grab %s: %w", path, err)
		}
		p.grabbed = true
	}
	return p, nil
}

// grab issues EVIOCGRAB with v (1 grab, 0 release).
func (p *Port) grab(v int) error {
	rc, err := p.f.SyscallConn()
	if err != nil {
		return err
	}
	var ierr error
	if err := rc.Control(func(fd uintptr) { ierr = unix.IoctlSetInt(int(fd), evIOCGrab, v) }); err != nil {
		return err
	}
	return ierr
}

// String returns the device path as opened.
func (p *Port) String() string { return p.name }

// Grabbed reports whether the port holds the device for itself.
func (p *Port) Grabbed() bool { return p.grabbed }

// Read reads whole input events (b should hold at least one; the
// kernel returns as many whole events as fit). It returns an error
// wrapping port.ErrTimeout when the read timeout passed with nothing,
// port.ErrHangup when the device went away and port.ErrClosed after
// Close.
func (p *Port) Read(b []byte) (int, error) {
	if len(b) == 0 {
		return 0, nil
	}
	p.mu.Lock()
	d := p.timeout
	p.mu.Unlock()
	if d > 0 {
		if err := p.f.SetReadDeadline(time.Now().Add(d)); err != nil {
			return 0, p.ioError(err)
		}
	}
	n, err := p.f.Read(b)
	if n > 0 {
		return n, nil
	}
	if err == nil {
		err = io.EOF
	}
	return 0, p.ioError(err)
}

func (p *Port) ioError(err error) error {
	switch {
	case p.closed.Load() || errors.Is(err, os.ErrClosed):
		return fmt.Errorf("evdevport: read %s: %w", p.name, port.ErrClosed)
	case errors.Is(err, os.ErrDeadlineExceeded):
		return fmt.Errorf("evdevport: read %s: %w", p.name, port.ErrTimeout)
	case errors.Is(err, io.EOF), errors.Is(err, syscall.ENODEV), errors.Is(err, syscall.EIO):
		// ENODEV: the device was unplugged (evdev_read after the
		// device's removal).
		return fmt.Errorf("evdevport: read %s: %w (%w)", p.name, port.ErrHangup, err)
	}
	return fmt.Errorf("evdevport: read %s: %w", p.name, err)
}

// Write refuses: the port only reads.
func (p *Port) Write(b []byte) (int, error) {
	return 0, fmt.Errorf("evdevport: write %s: %w", p.name, ErrReadOnly)
}

// SetReadTimeout sets the read timeout; 0 blocks until events arrive.
func (p *Port) SetReadTimeout(d time.Duration) error {
	if d < 0 {
		return fmt.Errorf("evdevport: negative read timeout %v", d)
	}
	p.mu.Lock()
	p.timeout = d
	p.mu.Unlock()
	if d == 0 {
		return p.f.SetReadDeadline(time.Time{})
	}
	return nil
}

// Close releases the grab and closes the device; a blocked Read
// returns port.ErrClosed. Closing twice is not an error.
func (p *Port) Close() error {
	if p.closed.Swap(true) {
		return nil
	}
	var gerr error
	if p.grabbed {
		// A device already gone cannot be released, nor needs to be.
		if err := p.grab(0); err != nil && !errors.Is(err, syscall.ENODEV) {
			gerr = fmt.Errorf("evdevport: release %s: %w", p.name, err)
		}
	}
	if err := p.f.Close(); err != nil {
		return fmt.Errorf("evdevport: close %s: %w", p.name, err)
	}
	return gerr
}
