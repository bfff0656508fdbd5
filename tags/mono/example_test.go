package mono_test

import (
	"fmt"
	"image"
	"image/color"
	"image/draw"

	"github.com/chipdesk/chipdesk/tags/mono"
)

func Example() {
	m := mono.New(image.Rect(0, 0, 12, 2))
	draw.Draw(m, image.Rect(0, 0, 3, 1), image.NewUniform(color.Black), image.Point{}, draw.Src)
	m.SetBit(11, 1, true)
	fmt.Printf("%08b %08b\n", m.Row(0), m.Row(1))
	// Output:
	// [11100000 00000000] [00000000 00010000]
}
