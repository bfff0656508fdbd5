// Package guest is the half of qemutest that runs inside the QEMU guest.
// Its test skips anywhere else (CHIPDESK_IN_GUEST unset).
//
// # References
//
//   - See package qemutest: QEMU USB emulation (usb-serial, usb-kbd) and
//     FTDI AN232B-04 (the two status bytes of each bulk IN packet).
//   - USB HID Usage Tables 1.12, §10 (keyboard usage IDs the wedge
//     reads).
package guest
