//go:build linux

package porttest

import (
	"errors"
	"fmt"
	"os"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"
)

// PTY is a pseudo-terminal whose master side plays a device: a driver
// opens Path with package serialport as it would a real serial port,
// and the test writes and reads the device's bytes through the PTY.
type PTY struct {
	master *os.File
	slave  *os.File // kept open so that writes before the driver opens it are kept
}

// NewPTY opens a pseudo-terminal with its terminal side in raw mode, so
// that nothing written before a driver opens it is echoed or
// translated.
func NewPTY() (*PTY, error) {
	m, t, err := pty.Open()
	if err != nil {
		return nil, fmt.Errorf("porttest: %w", err)
	}
	if err := MakeRaw(t); err != nil {
		m.Close()
		t.Close()
		return nil, fmt.Errorf("porttest: raw mode on %s: %w", t.Name(), err)
	}
	// creack/pty leaves the master in blocking mode, where Close does not
	// interrupt a Read blocked in another goroutine. A non-blocking
	// duplicate goes through the runtime poller instead. The duplicate
	// is close-on-exec (fcntl(2) F_DUPFD_CLOEXEC), as Go's own files
	// are: a child process started later must not inherit the master,
	// or a hang-up would never reach the terminal side's reader.
	fd, err := unix.FcntlInt(m.Fd(), unix.F_DUPFD_CLOEXEC, 0)
	if err == nil {
		err = unix.SetNonblock(fd, true)
	}
	m.Close()
	if err != nil {
		t.Close()
		return nil, fmt.Errorf("porttest: %w", err)
	}
	return &PTY{master: os.NewFile(uintptr(fd), "/dev/ptmx"), slave: t}, nil
}

// MakeRaw puts a terminal in raw mode, 8 bits, no echo, no line
// editing, no CR/LF translation.
func MakeRaw(f *os.File) error {
	fd := int(f.Fd())
	t, err := unix.IoctlGetTermios(fd, unix.TCGETS)
	if err != nil {
		return err
	}
	t.Iflag &^= unix.IGNBRK | unix.BRKINT | unix.PARMRK | unix.ISTRIP | unix.INLCR | unix.IGNCR | unix.ICRNL | unix.IXON
	t.Oflag &^= unix.OPOST
	t.Lflag &^= unix.ECHO | unix.ECHONL | unix.ICANON | unix.ISIG | unix.IEXTEN
	t.Cflag &^= unix.CSIZE | unix.PARENB
	t.Cflag |= unix.CS8
	t.Cc[unix.VMIN], t.Cc[unix.VTIME] = 1, 0
	return unix.IoctlSetTermios(fd, unix.TCSETS, t)
}

// Path is the terminal side's device path, "/dev/pts/3".
func (p *PTY) Path() string { return p.slave.Name() }

// Write sends bytes as the device.
func (p *PTY) Write(b []byte) (int, error) { return p.master.Write(b) }

// Read receives what the driver wrote.
func (p *PTY) Read(b []byte) (int, error) { return p.master.Read(b) }

// Hangup closes the device side: a driver reading Path sees a hang-up.
func (p *PTY) Hangup() error { return p.Close() }

// Close closes both sides.
func (p *PTY) Close() error {
	return errors.Join(p.master.Close(), p.slave.Close())
}
