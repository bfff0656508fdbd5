// Package usbport reaches USB devices through a small interface cut at
// the libusb boundary, so that everything above it (the Port adapter, the
// printer-class opener, the hot-plug watcher, the HID wedge reader) runs
// against the fake in package usbporttest.
//
// Bus enumerates and opens devices, Device claims an interface (detaching
// a kernel driver such as usblp or usbhid first), and Interface hands out
// bulk and interrupt endpoints whose transfers take a context.
//
// The real Bus is github.com/google/gousb (libusb-1.0, cgo). It is built
// only with the build tag libusb and cgo enabled:
//
//	go build -tags libusb ./...
//
// Without them NewBus returns ErrNoUSB ("built without USB support") and
// the rest of the package still works against any other Bus. gousb's own
// surprises never reach callers: a lookup that matches nothing returns
// ErrNotFound (gousb returns a nil device and a nil error), and a libusb
// that cannot start returns ErrInit (gousb panics).
//
// USB serial adapters (FTDI, CP210x, CH340, CDC-ACM) are better served by
// the kernel's tty drivers and package serialport; package usbids names
// them by vendor and product id.
//
// # References
//
//   - Universal Serial Bus Specification 2.0, chapter 9 (descriptors,
//     standard requests) and §5.7-5.8 (interrupt and bulk transfers).
//   - USB Device Class Definition for Printing Devices 1.1, §4.2
//     (GET_DEVICE_ID, GET_PORT_STATUS, SOFT_RESET) and §4.2.1 (the IEEE
//     1284 device id string).
//   - libusb-1.0 API: libusb_set_auto_detach_kernel_driver,
//     libusb_claim_interface, asynchronous transfers and cancellation.
package usbport
