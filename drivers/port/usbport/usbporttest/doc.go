// Package usbporttest is a fake USB bus for tests of everything built on
// package usbport: devices are described by their descriptors, IN
// endpoints play packets the test queues, OUT endpoints keep what was
// written, and a device can be unplugged while a transfer waits.
//
// # References
//
//   - Universal Serial Bus Specification 2.0, §5.8 (bulk transfers end on
//     a short or zero-length packet) and §9.6 (descriptors).
package usbporttest
