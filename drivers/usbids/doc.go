// Package usbids names the USB devices chipdesk knows by vendor and
// product id: serial bridges that carry reader output (FTDI, Silicon Labs
// CP210x, WCH CH340/CH341, Prolific PL2303), label printers (Zebra,
// Brother QL) and keyboard-wedge scanners (HID boot keyboards), and
// writes the udev rules that give them stable /dev/chipreader-* names and
// group permissions (deploy/udev).
//
// A CDC-ACM reader (interface class 2, subclass 2, kernel cdc_acm,
// /dev/ttyACM*) is recognised by its class, not its ids; see IsCDCACM.
//
// # References
//
//   - The usb.ids database (Debian package usb.ids 2025.07.26): every
//     vendor and product name below is spelled as it is there.
//   - Brother QL-710W/720NW software developer's manual, appendix A
//     (vendor 0x04F9, printer class); QL product ids as in usb.ids.
//   - USB Class Definitions for Communication Devices 1.2, §4.2-4.3
//     (class 0x02, ACM subclass 0x02).
//   - udev(7): rule syntax, SYMLINK, GROUP, MODE, $env{} and %s{}
//     substitutions; systemd 60-serial.rules sets ID_PATH_TAG and
//     ID_USB_INTERFACE_NUM for USB ttys.
package usbids
