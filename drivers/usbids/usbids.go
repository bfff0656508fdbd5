package usbids

import (
	"fmt"
	"strconv"
)

// Kind tells what a device is to chipdesk.
type Kind string

// Kinds.
const (
	// Serial is a USB-serial bridge: the kernel makes a tty of it and
	// package serialport opens it.
	Serial Kind = "serial"
	// Printer is a label printer reached over the USB printer class.
	Printer Kind = "printer"
	// HIDScanner is a scanner that types what it reads as a USB
	// keyboard; package hidwedge reads it.
	HIDScanner Kind = "hid-scanner"
)

// Entry is one known device, or a whole vendor when PID is 0.
type Entry struct {
	VID, PID uint16
	Kind     Kind
	// Family groups entries for names and drivers: "ftdi", "cp210x",
	// "ch34x", "pl2303" for bridges; "zpl", "brother-ql" for printers;
	// "hid" for scanners.
	Family string
	// Name is the product, as usb.ids spells it.
	Name string
	// Driver is the Linux kernel driver that binds it.
	Driver string
}

// ID returns "vvvv:pppp" ("vvvv:*" for a vendor entry).
func (e Entry) ID() string {
	if e.PID == 0 {
		return fmt.Sprintf("%04x:*", e.VID)
	}
	return fmt.Sprintf("%04x:%04x", e.VID, e.PID)
}

func (e Entry) String() string { return e.ID() + " " + string(e.Kind) + " " + e.Name }

// All returns the table, sorted by kind, then vendor and product id.
// Each call returns a new slice.
func All() []Entry {
	return []Entry{
		// Serial bridges.
		{0x0403, 0x6001, Serial, "ftdi", "FT232 Serial (UART) IC", "ftdi_sio"},
		{0x0403, 0x6010, Serial, "ftdi", "FT2232C/D/H Dual UART/FIFO IC", "ftdi_sio"},
		{0x0403, 0x6011, Serial, "ftdi", "FT4232H Quad HS USB-UART/FIFO IC", "ftdi_sio"},
		{0x0403, 0x6014, Serial, "ftdi", "FT232H Single HS USB-UART/FIFO IC", "ftdi_sio"},
		{0x0403, 0x6015, Serial, "ftdi", "Bridge(I2C/SPI/UART/FIFO)", "ftdi_sio"},
		{0x067b, 0x2303, Serial, "pl2303", "PL2303 Serial Port / Mobile Phone Data Cable", "pl2303"},
		{0x10c4, 0xea60, Serial, "cp210x", "CP210x UART Bridge", "cp210x"},
		{0x10c4, 0xea61, Serial, "cp210x", "CP210x UART Bridge", "cp210x"},
		{0x10c4, 0xea63, Serial, "cp210x", "CP210x UART Bridge", "cp210x"},
		{0x10c4, 0xea70, Serial, "cp210x", "CP2105 Dual UART Bridge", "cp210x"},
		{0x10c4, 0xea71, Serial, "cp210x", "CP2108 Quad UART Bridge", "cp210x"},
		{0x1a86, 0x5523, Serial, "ch34x", "CH341 in serial mode, usb to serial port converter", "ch341"},
		{0x1a86, 0x7522, Serial, "ch34x", "CH340 serial converter", "ch341"},
		{0x1a86, 0x7523, Serial, "ch34x", "CH340 serial converter", "ch341"},

		// Label printers (printer class; usblp binds them).
		{0x04f9, 0x2015, Printer, "brother-ql", "QL-500", "usblp"},
		{0x04f9, 0x2016, Printer, "brother-ql", "QL-550", "usblp"},
		{0x04f9, 0x201b, Printer, "brother-ql", "QL-650TD", "usblp"},
		{0x04f9, 0x2020, Printer, "brother-ql", "QL-1050", "usblp"},
		{0x04f9, 0x2027, Printer, "brother-ql", "QL-560", "usblp"},
		{0x04f9, 0x2028, Printer, "brother-ql", "QL-570", "usblp"},
		{0x04f9, 0x2029, Printer, "brother-ql", "QL-580N", "usblp"},
		{0x04f9, 0x202a, Printer, "brother-ql", "QL-1060N", "usblp"},
		{0x04f9, 0x2042, Printer, "brother-ql", "QL-700", "usblp"},
		{0x04f9, 0x2043, Printer, "brother-ql", "QL-710W", "usblp"},
		{0x04f9, 0x2044, Printer, "brother-ql", "QL-720NW", "usblp"},
		{0x04f9, 0x209b, Printer, "brother-ql", "QL-800", "usblp"},
		{0x04f9, 0x209c, Printer, "brother-ql", "QL-810W", "usblp"},
		{0x04f9, 0x209d, Printer, "brother-ql", "QL-820NWB", "usblp"},
		{0x04f9, 0x20c0, Printer, "brother-ql", "QL-600", "usblp"},
		{0x0a5f, 0, Printer, "zpl", "Zebra Technologies", "usblp"},

		// Keyboard-wedge scanners (HID boot keyboards; usbhid binds them).
		{0x05f9, 0x2206, HIDScanner, "hid", "Gryphon series (keyboard emulation mode)", "usbhid"},
		{0x065a, 0x0001, HIDScanner, "hid", "Opticon OPR-2001 / NLV-1001 (keyboard mode)", "usbhid"},
		{0x067e, 0x0801, HIDScanner, "hid", "HID Keyboard, Barcode scanner", "usbhid"},
		{0x0c2e, 0x0204, HIDScanner, "hid", "Metrologic MS7120 Barcode Scanner (keyboard mode)", "usbhid"},
		{0x1243, 0xe000, HIDScanner, "hid", "Unique NFC/RFID reader (keyboard emulation)", "usbhid"},
		{0x1667, 0x0005, HIDScanner, "hid", "PCR330A RFID Reader (125 kHz, keyboard emulation)", "usbhid"},
		{0x1eab, 0x0103, HIDScanner, "hid", "HR200 Barcode scanner engine (HID keyboard)", "usbhid"},
		{0x1eab, 0x0c03, HIDScanner, "hid", "HR100/HR3260 cordless/HR3290 cordless/BS80 Barcode scanner engine (HID keyboard)", "usbhid"},
		{0x1eab, 0x0d03, HIDScanner, "hid", "EM2028 Barcode scanner engine (HID keyboard)", "usbhid"},
		{0x1eab, 0x1a03, HIDScanner, "hid", "HR3290 corded/HR22 Barcode scanner engine (HID keyboard)", "usbhid"},
	}
}

// Vendor names for the vendor ids in the table, as usb.ids spells them.
func Vendor(vid uint16) string {
	switch vid {
	case 0x0403:
		return "Future Technology Devices International, Ltd"
	case 0x04f9:
		return "Brother Industries, Ltd"
	case 0x05f9:
		return "PSC Scanning, Inc."
	case 0x065a:
		return "Optoelectronics Co., Ltd"
	case 0x067b:
		return "Prolific Technology, Inc."
	case 0x067e:
		return "Intermec Technologies Corp."
	case 0x0a5f:
		return "Zebra Technologies"
	case 0x0c2e:
		return "Metrologic Instruments"
	case 0x10c4:
		return "Silicon Labs"
	case 0x1243:
		return "Holtek Semiconductor, Inc."
	case 0x1667:
		return "GIGA-TMS INC."
	case 0x1a86:
		return "QinHeng Electronics"
	case 0x1eab:
		return "Fujian Newland Computer Co., Ltd"
	}
	return ""
}

// Lookup returns the entry for a device: the exact product when known,
// else the vendor's entry.
func Lookup(vid, pid uint16) (Entry, bool) {
	var vendor Entry
	found := false
	for _, e := range All() {
		if e.VID != vid {
			continue
		}
		if e.PID == pid {
			return e, true
		}
		if e.PID == 0 {
			vendor, found = e, true
		}
	}
	return vendor, found
}

// LookupHex is Lookup for ids written as hex text ("0403", "6001"), as
// serial-port enumerators give them.
func LookupHex(vid, pid string) (Entry, bool) {
	v, err1 := strconv.ParseUint(vid, 16, 16)
	p, err2 := strconv.ParseUint(pid, 16, 16)
	if err1 != nil || err2 != nil {
		return Entry{}, false
	}
	return Lookup(uint16(v), uint16(p))
}

// OfKind returns the entries of one kind.
func OfKind(k Kind) []Entry {
	var out []Entry
	for _, e := range All() {
		if e.Kind == k {
			out = append(out, e)
		}
	}
	return out
}

// IsCDCACM tells whether an interface's class triple is CDC-ACM (class
// 0x02, subclass 0x02; CDC 1.2 §4.2-4.3), whatever the ids.
func IsCDCACM(class, subclass uint8) bool { return class == 0x02 && subclass == 0x02 }
