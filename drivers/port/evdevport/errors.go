package evdevport

import "errors"

// Errors of Open.
var (
	// ErrNotFound: no such input device (unplugged, or a Bluetooth
	// scanner asleep or not connected).
	ErrNotFound = errors.New("no such input device")
	// ErrBusy: another program holds the device with its own grab.
	ErrBusy = errors.New("input device grabbed by another program")
	// ErrNotInput: the path is not an input event device.
	ErrNotInput = errors.New("not an input event device")
	// ErrReadOnly is returned by Write.
	ErrReadOnly = errors.New("input devices are read only")
	// ErrUnsupported is returned by Open on systems without the Linux
	// input subsystem.
	ErrUnsupported = errors.New("the Linux input subsystem is only on Linux")
)

// Opts configures Open.
type Opts struct {
	// NoGrab leaves the device shared: every other reader sees the keys
	// too. For looking at a device only; a scanner read with NoGrab
	// types into the focused window.
	NoGrab bool
}
