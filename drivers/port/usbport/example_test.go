package usbport_test

import (
	"fmt"

	"github.com/chipdesk/chipdesk/drivers/port/usbport"
)

func ExampleParseDeviceID() {
	id, err := usbport.ParseDeviceID("MFG:Brother;CMD:PT-CBP;MDL:QL-700;CLS:PRINTER;")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(id.Manufacturer(), id.Model(), id.CommandSet())
	// Output: Brother QL-700 PT-CBP
}

func ExampleParseMatch() {
	m, err := usbport.ParseMatch("0403:6001:A10K")
	if err != nil {
		fmt.Println(err)
		return
	}
	d := usbport.Desc{VID: 0x0403, PID: 0x6001, Serial: "A10K"}
	fmt.Println(m, m.Matches(d))
	// Output: 0403:6001 serial "A10K" true
}
