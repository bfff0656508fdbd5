package synth_test

import (
	"fmt"

	"github.com/chipdesk/chipdesk/reader/demod/synth"
	"github.com/chipdesk/chipdesk/reader/iso11784"
	"github.com/chipdesk/chipdesk/reader/iso11785"
)

// A clean FDX-B signal of one telegram: 32 samples a bit at ±Amplitude
// (ISO 11785: differential bi-phase, RF/32). The level changes at every
// bit boundary, and in the middle of a 0 bit, such as the first bit of
// the header.
func Example() {
	code, _ := iso11784.ParseDecimal("999000000112233")
	s := synth.FDXB(iso11785.EncodeFDXB(code.WithAnimal(true), 0), &synth.Opts{Repeats: 1})
	fmt.Println(len(s) >= 128*32, s[0], s[15], s[16], s[31], s[32])
	// Output:
	// true 100 100 -100 -100 100
}
