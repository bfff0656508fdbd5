package zplgf_test

import (
	"fmt"
	"image"

	"github.com/chipdesk/chipdesk/tags/mono"
	"github.com/chipdesk/chipdesk/tags/zplgf"
)

func Example() {
	m := mono.New(image.Rect(0, 0, 32, 3))
	for x := 0; x < 32; x++ {
		m.SetBit(x, 0, true) // a black row
		m.SetBit(x, 1, true) // the same again
	}
	m.SetBit(0, 2, true) // one dot, then white
	fmt.Printf("^FO10,10%s^FS\n", zplgf.Encode(m))
	// Output:
	// ^FO10,10^GFA,12,12,4,NF:8,^FS
}
