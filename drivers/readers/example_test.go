package readers_test

import (
	"bytes"
	"fmt"

	"github.com/chipdesk/chipdesk/drivers/readers"
)

// A line protocol whose frames start with "ID ": noise before a frame
// on the same line, and lines without one, are counted as garbage.
func ExampleScanner() {
	match := func(line []byte) (int, error) { return bytes.Index(line, []byte("ID ")), nil }
	sc := readers.NewScanner(readers.LineSplit(64, match), 0)
	sc.Write([]byte("boot\r\n\x00\x7fID 42\r\nID 4"))
	for f := sc.Frame(); f != nil; f = sc.Frame() {
		fmt.Printf("%q\n", f)
	}
	sc.Write([]byte("3\r\n"))
	fmt.Printf("%q\n", sc.Frame())
	fmt.Println(sc.Stats())
	// Output:
	// "ID 42\r\n"
	// "ID 43\r\n"
	// 22 bytes, 2 frames, 0 reads, 8 garbage bytes, 0 bad frames, 0 other
}
