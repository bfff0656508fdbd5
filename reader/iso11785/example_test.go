package iso11785_test

import (
	"fmt"

	"github.com/chipdesk/chipdesk/reader/iso11784"
	"github.com/chipdesk/chipdesk/reader/iso11785"
)

func ExampleEncodeFDXB() {
	code, _ := iso11784.New(999, 112233, true)
	fmt.Printf("%X\n", iso11785.EncodeFDXB(code, 0))
	// Output: 0032D6DC0402079F80406253B8040201
}

func ExampleDecodeFDXB() {
	// A Bio-Thermo chip (Proxmark3 trace lf_FDXB_Bio-Thermo.pm3).
	t, err := iso11785.DecodeFDXB([16]byte{0x00, 0x32, 0xD6, 0xDC, 0x04, 0x02, 0x07, 0x9F,
		0xC0, 0x40, 0x61, 0x3A, 0x3A, 0xB6, 0x02, 0x01})
	if err != nil {
		fmt.Println(err)
		return
	}
	f, _ := t.Temperature()
	fmt.Printf("%s animal=%t CRC %04X ext %06X %.1f°F %.1f°C\n",
		t.Code.Display(), t.Code.Animal(), t.CRC, t.Ext, f, iso11785.Celsius(f))
	// Output: 999 000000112233 animal=true CRC C590 ext 00016A 95.2°F 35.1°C
}

func ExampleDecodeFDXA() {
	a, err := iso11785.DecodeFDXA([]byte{0x80, 0x80, 0x01, 0xB5, 0x31})
	fmt.Println(a, err)
	// Output: 0000013531 <nil>
}

func ExampleCRC16() {
	fmt.Printf("%04X\n", iso11785.CRC16([]byte("123456789")))
	// Output: 2189
}
