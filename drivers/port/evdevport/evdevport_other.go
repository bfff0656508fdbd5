//go:build !linux

package evdevport

import (
	"errors"
	"time"
)

// ErrNotFound, ErrBusy, ErrNotInput and ErrReadOnly are the errors of
// the Linux implementation; elsewhere Open returns ErrUnsupported.
var (
	ErrNotFound    = errors.New("evdevport: no such input device")
	ErrBusy        = errors.New("evdevport: input device grabbed by another program")
	ErrNotInput    = errors.New("evdevport: not an input event device")
	ErrReadOnly    = errors.New("evdevport: input devices are read only")
	ErrUnsupported = errors.New("evdevport: the Linux input subsystem is only on Linux")
)

// Opts configures Open.
type Opts struct{ NoGrab bool }

// Port is an open input device; on this system none can be opened.
type Port struct{}

// Open fails: there is no Linux input subsystem here.
func Open(path string, o *Opts) (*Port, error) { return nil, ErrUnsupported }

func (p *Port) String() string                     { return "" }
func (p *Port) Grabbed() bool                      { return false }
func (p *Port) Read(b []byte) (int, error)         { return 0, ErrUnsupported }
func (p *Port) Write(b []byte) (int, error)        { return 0, ErrUnsupported }
func (p *Port) SetReadTimeout(time.Duration) error { return ErrUnsupported }
func (p *Port) Close() error                       { return nil }
