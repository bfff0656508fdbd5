//go:build !(libusb && cgo)

package usbport

// NewBus returns ErrNoUSB: this build has no libusb. Build with cgo and
// -tags libusb (and libusb-1.0-0-dev installed) for the real bus.
func NewBus() (Bus, error) { return nil, ErrNoUSB }

// Supported tells whether this build can reach real USB devices.
const Supported = false
