package brotherql_test

import (
	"fmt"

	"github.com/chipdesk/chipdesk/drivers/printers/brotherql"
)

func ExamplePackBits() {
	line := make([]byte, 90) // a blank QL raster line
	line[10], line[11] = 0xff, 0x0f
	packed := brotherql.PackBits(line)
	fmt.Printf("% x\n", packed)
	back, err := brotherql.UnpackBits(packed, 90)
	fmt.Println(len(back), err)
	// Output:
	// f7 00 01 ff 0f b3 00
	// 90 <nil>
}

func ExampleParseStatus() {
	reply := []byte{0x80, 0x20, 'B', '0', 0x35, '0', '0', 0, 0, 0x10, 62, 0x0a,
		0, 0, 0, 0, 0, 0, 0x02, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}
	st, err := brotherql.ParseStatus(reply)
	if err != nil {
		fmt.Println(err)
		return
	}
	m, _ := st.Media()
	fmt.Println(m, st.Errors(), st.Faults().String())
	// Output: 62 mm continuous [cover open] head open
}
