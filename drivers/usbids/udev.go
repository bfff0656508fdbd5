package usbids

import (
	"fmt"
	"regexp"
	"strings"
)

// DefaultGroup is the group that owns chipdesk's device nodes.
const DefaultGroup = "chipdesk"

var groupRE = regexp.MustCompile(`^[a-z_][a-z0-9_-]{0,31}$`)

// Udev writes the udev rules for the table: serial bridges get
// /dev/chipreader-<family>-<serial>-if<NN> (when the adapter has a serial
// number) and /dev/chipreader-<family>-<path tag> (always; stable for a
// given USB socket), and every known device node is owned by group, mode
// 0660, so the service need not run as root. HID scanners are also
// hidden from the desktop (LIBINPUT_IGNORE_DEVICE) so that a scan typed
// while chipdesk is not running lands nowhere, and their input event
// nodes are the group's too, for evdev readers.
func Udev(group string) (string, error) {
	if !groupRE.MatchString(group) {
		return "", fmt.Errorf("usbids: bad group name %q", group)
	}
	var b strings.Builder
	w := func(format string, a ...any) { fmt.Fprintf(&b, format, a...) }
	w("# chipdesk device rules; generated from drivers/usbids, do not edit.\n")
	w("# Install as /etc/udev/rules.d/99-chipdesk.rules (see README.md here).\n")
	w("# Runs after 60-serial.rules, which sets ID_PATH_TAG and ID_USB_INTERFACE_NUM.\n")
	w("\nACTION==\"remove\", GOTO=\"chipdesk_end\"\n")

	w("\n# Serial bridges: stable names and group access.\n")
	w("SUBSYSTEM!=\"tty\", GOTO=\"chipdesk_tty_end\"\n")
	for _, e := range OfKind(Serial) {
		m := match(e, "ATTRS")
		w("# %s %s\n", e.ID(), e.Name)
		w("%s, GROUP=\"%s\", MODE=\"0660\"\n", m, group)
		w("%s, ATTRS{serial}==\"?*\", ENV{ID_USB_INTERFACE_NUM}==\"?*\", SYMLINK+=\"chipreader-%s-%%s{serial}-if$env{ID_USB_INTERFACE_NUM}\"\n", m, e.Family)
		w("%s, ENV{ID_PATH_TAG}==\"?*\", SYMLINK+=\"chipreader-%s-$env{ID_PATH_TAG}\"\n", m, e.Family)
	}
	w("LABEL=\"chipdesk_tty_end\"\n")

	w("\n# Printers and keyboard-wedge scanners: libusb opens the USB device node.\n")
	w("SUBSYSTEM!=\"usb\", GOTO=\"chipdesk_usb_end\"\n")
	w("ENV{DEVTYPE}!=\"usb_device\", GOTO=\"chipdesk_usb_end\"\n")
	for _, e := range All() {
		if e.Kind == Serial {
			continue
		}
		w("# %s %s\n", e.ID(), e.Name)
		w("%s, GROUP=\"%s\", MODE=\"0660\"\n", match(e, "ATTR"), group)
	}
	w("LABEL=\"chipdesk_usb_end\"\n")

	w("\n# Keyboard-wedge scanners type nothing into the desktop; chipdesk reads\n")
	w("# their input event nodes (an evdev reader) with group access.\n")
	w("SUBSYSTEM!=\"input\", GOTO=\"chipdesk_end\"\n")
	for _, e := range OfKind(HIDScanner) {
		w("%s, ENV{LIBINPUT_IGNORE_DEVICE}=\"1\"\n", match(e, "ATTRS"))
		w("KERNEL==\"event*\", %s, GROUP=\"%s\", MODE=\"0660\"\n", match(e, "ATTRS"), group)
	}
	w("\nLABEL=\"chipdesk_end\"\n")
	return b.String(), nil
}

// match returns the udev keys that select e; key is ATTR on the device
// itself or ATTRS on a parent.
func match(e Entry, key string) string {
	s := fmt.Sprintf("%s{idVendor}==\"%04x\"", key, e.VID)
	if e.PID != 0 {
		s += fmt.Sprintf(", %s{idProduct}==\"%04x\"", key, e.PID)
	}
	return s
}
