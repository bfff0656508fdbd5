// Package evdevport opens a Linux input device (/dev/input/eventN) as a
// read-only port.Port whose reads return whole input_event structs, for
// keyboard-wedge scanners (USB or Bluetooth HID) that the kernel's
// keyboard driver already handles: package hidwedge turns their events
// into typed lines.
//
// Open takes the device for itself with the EVIOCGRAB ioctl, so that
// no other reader of the device (the console, the desktop's input
// stack) sees the keys: a scan never types into the focused window. The
// grab ends when the port is closed (and with the process). List names
// the devices with the stable names udev gives them under
// /dev/input/by-id, which a configuration should use: eventN numbers
// change when devices are plugged in another order. Bluetooth scanners
// have no by-id name; List gives their name as the kernel reports it.
//
// # References
//
//   - Linux kernel documentation, "Input subsystem": input.rst §1.7
//     (event interface: struct input_event, read in whole events) and
//     event-codes.rst (EV_SYN, EV_KEY with values 0 release, 1 press,
//     2 autorepeat, EV_MSC).
//   - linux/input.h: EVIOCGRAB, _IOW('E', 0x90, int); a non-zero
//     argument grabs, zero releases; EBUSY when another holds it.
//   - sysfs ABI, /sys/class/input/eventN/device/name and
//     capabilities/{ev,key} (bitmaps in hex words, most significant
//     first).
package evdevport
