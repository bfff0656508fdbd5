// Package qemutest runs usbport, hidwedge, evdevport and usbids against
// emulated USB devices in a QEMU guest (software emulation, no KVM): an
// FTDI serial adapter (usb-serial, 0403:6001) fed through a host
// socket, and a USB keyboard (usb-kbd, 0627:0001) typed through the
// QEMU monitor.
//
// The test is opt-in, behind the build tag qemu:
//
//	bash drivers/port/usbport/qemutest/prepare.sh DIR   # apt packages, kernel
//	CHIPDESK_QEMU_KERNEL=DIR go test -tags 'qemu libusb' ./drivers/port/usbport/qemutest/
//
// The host side builds the guest test (package guest) with cgo and
// libusb, packs it with busybox, the libraries it links and the USB
// kernel modules into an initramfs, boots Debian's kernel, and plays the
// devices when the guest says it is ready. In the guest the test finds
// both devices by their USB identity, reads the FTDI's bulk IN pipe
// through gousb (stripping the two FTDI status bytes of each packet)
// while ftdi_sio is detached, checks that the kernel driver comes back
// on release, and reads a chip number typed on the keyboard through
// hidwedge. Then, with usbhid holding the keyboard again, it reads a
// chip number typed on it through the Linux input subsystem
// (evdevport and hidwedge.Evdev), with a second, non-grabbing reader of
// the same device that must see no key while the grab holds (and a
// second grab refused as busy) and a key again after Close.
//
// # References
//
//   - QEMU System Emulation User's Guide: USB emulation (usb-serial,
//     usb-kbd, qemu-xhci), the HMP sendkey command, character devices.
//   - FTDI AN232B-04 "Data Throughput, Latency and Handshaking": every
//     bulk IN packet begins with two modem and line status bytes.
package qemutest
