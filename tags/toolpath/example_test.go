package toolpath_test

import (
	"fmt"
	"os"

	"github.com/chipdesk/chipdesk/tags/toolpath"
)

func Example() {
	// A 2 mm square mark, filled with strokes 0.5 mm apart.
	sq := toolpath.Polyline{{X: 1, Y: 1}, {X: 3, Y: 1}, {X: 3, Y: 3}, {X: 1, Y: 3}, {X: 1, Y: 1}}
	j := &toolpath.Job{Width: 4, Height: 4, Outline: []toolpath.Polyline{sq}}
	j.Hatch = toolpath.Hatch(j.Outline, 0.5)
	toolpath.OrderJob(j, toolpath.Point{})
	toolpath.WritePathData(os.Stdout, j.Hatch)
	fmt.Println()
	// Output:
	// M1 1.25L3 1.25M3 1.75L1 1.75M1 2.25L3 2.25M3 2.75L1 2.75
}
