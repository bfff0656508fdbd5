//go:build !linux

package evdevport

import "time"

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
