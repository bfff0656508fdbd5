package port

import (
	"errors"
	"io"
	"time"
)

// Port is an open byte transport.
//
// Read returns ErrTimeout (wrapped) when the read timeout passes with no
// data, never (0, nil). Read and Write return an error wrapping ErrHangup
// when the device went away (unplugged, Bluetooth dropped), and ErrClosed
// after the port's own Close.
type Port interface {
	io.ReadWriteCloser
	// String names the port ("/dev/ttyUSB0", "usb 0403:6001 A10K", ...).
	String() string
}

// Timeouter is implemented by ports whose read timeout can be set.
// A zero duration means block until data arrives.
type Timeouter interface {
	SetReadTimeout(d time.Duration) error
}

// Parity of a serial line.
type Parity byte

// Parities.
const (
	ParityNone  Parity = 'N'
	ParityOdd   Parity = 'O'
	ParityEven  Parity = 'E'
	ParityMark  Parity = 'M'
	ParitySpace Parity = 'S'
)

// Mode is the framing of a serial line, as in "9600 8N2".
type Mode struct {
	Baud     int
	DataBits int    // 5..8; 0 means 8
	Parity   Parity // 0 means ParityNone
	StopBits int    // 1 or 2; 0 means 1
}

// Moder is implemented by ports whose line framing can be changed, so a
// probe can try several bauds on one open port.
type Moder interface {
	SetMode(m Mode) error
}

// Errors shared by all ports.
var (
	ErrTimeout = errors.New("port: read timeout")
	ErrHangup  = errors.New("port: device hung up")
	ErrClosed  = errors.New("port: closed")
)
