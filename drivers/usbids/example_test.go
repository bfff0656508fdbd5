package usbids_test

import (
	"fmt"

	"github.com/chipdesk/chipdesk/drivers/usbids"
)

func ExampleLookupHex() {
	// A serial port as go.bug.st/serial's enumerator describes it.
	if e, ok := usbids.LookupHex("1a86", "7523"); ok {
		fmt.Println(e.Kind, e.Family, e.Driver, "-", e.Name)
	}
	if e, ok := usbids.Lookup(0x0a5f, 0x0141); ok {
		fmt.Println(e.Kind, e.Family, "-", usbids.Vendor(e.VID))
	}
	// Output:
	// serial ch34x ch341 - CH340 serial converter
	// printer zpl - Zebra Technologies
}
