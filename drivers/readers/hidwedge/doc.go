// Package hidwedge reads keyboard-wedge scanners: readers and barcode
// scanners that present themselves as a USB keyboard and type what they
// read, ended by Enter.
//
// Instead of letting the scanner type into whatever window has the
// focus, Open claims its boot keyboard interface through package usbport
// (the kernel's usbhid lets go of it while chipdesk holds it) and reads
// the 8-byte boot reports itself: modifier bits and key usages go
// through a Decoder and a keyboard Layout to characters, characters to
// lines, and each line to one chip number through package chipid.
//
// Encode is the inverse of the Decoder: the reports a scanner sends for
// a text. Simulators and tests play it to a device.
//
// A scanner the kernel's keyboard driver already handles (USB, or
// Bluetooth HID, which never reaches libusb) is read from the Linux
// input subsystem instead: drivers/port/evdevport opens its
// /dev/input/eventN with an exclusive grab (EVIOCGRAB), and Evdev reads
// its input_event structs. An EventDecoder keeps the keys held as a boot
// report and hands each change to the same Decoder, so both ways in
// type alike; EncodeEvents is its inverse. Boot and Evdev are
// readers.Protocol values read by the one readers.Dev; a typed line
// that is not a chip number is a rejected frame (Opts.Rejected).
//
// usbids lists the scanners known by vendor and product id; others are
// added by configuration (usbport.ParseMatch). Never configure the
// desk's own keyboard: chipdesk would take it from the desktop.
//
// # References
//
//   - Device Class Definition for HID 1.11: §4.2-4.3 (boot interface
//     subclass and keyboard protocol), §7.2.4 SET_IDLE, §7.2.6
//     SET_PROTOCOL, appendix B.1 (the boot keyboard report).
//   - HID Usage Tables 1.12, §10 Keyboard/Keypad page (0x07): usages
//     0x04-0x1D letters, 0x1E-0x27 digits, 0x28 Enter, 0x2A Backspace,
//     0x2B Tab, 0x39 Caps Lock, 0x54-0x63 keypad, 0xE0-0xE7 modifiers,
//     0x01 ErrorRollOver.
//   - DIN 2137-1:2012 (German T1 keyboard layout) for Layout "de".
//   - Linux linux/input.h (struct input_event) and
//     linux/input-event-codes.h (EV_KEY, KEY_* codes, values 0/1/2);
//     drivers/hid/hid-input.c hid_keyboard[] (HID usage to key code,
//     inverted by the key table here).
package hidwedge
