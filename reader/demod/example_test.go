package demod_test

import (
	"fmt"

	"github.com/chipdesk/chipdesk/reader/demod"
	"github.com/chipdesk/chipdesk/reader/demod/synth"
	"github.com/chipdesk/chipdesk/reader/iso11784"
	"github.com/chipdesk/chipdesk/reader/iso11785"
)

// A noisy, drifting, inverted FDX-B signal fed in small chunks, as a
// driver would.
func Example() {
	code, _ := iso11784.ParseDecimal("985121004515220")
	s := synth.FDXB(iso11785.EncodeFDXB(code.WithAnimal(true), 0),
		&synth.Opts{Noise: 0.4, Drift: 0.02, Invert: true, Repeats: 3, Seed: 1})
	d := demod.NewFDXB(nil)
	show := func(rs []demod.Result) {
		for _, r := range rs {
			fmt.Println(r.Protocol, r.Telegram.Code.Display(), r.Telegram.Code.Animal(), r.Offset/4096)
		}
	}
	for len(s) > 0 {
		n := min(len(s), 500)
		show(d.Write(s[:n]))
		s = s[n:]
	}
	show(d.Flush()) // the end of the stream: the last telegram completes
	// Output:
	// FDX-B 985 121004515220 true 0
	// FDX-B 985 121004515220 true 1
	// FDX-B 985 121004515220 true 2
}
