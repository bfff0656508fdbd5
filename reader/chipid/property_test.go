package chipid

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/chipdesk/chipdesk/reader/iso11784"
)

// writtenForm is one way a reader writes an ISO 11784 chip, and the form
// such a reader declares.
type writtenForm struct {
	name  string
	form  Form
	write func(c iso11784.Code) string
}

func d15(c iso11784.Code) string { return c.String() }

func writtenForms() []writtenForm {
	return []writtenForm{
		{"15 digits", FormDecimal, d15},
		{"display", FormDecimal, func(c iso11784.Code) string { return c.Display() }},
		{"underscore", FormDecimal, func(c iso11784.Code) string { return d15(c)[:3] + "_" + d15(c)[3:] }},
		{"Allflex LA", FormDecimal, func(c iso11784.Code) string { return "LA " + c.Display() + "\r\n" }},
		{"Allflex TIRIS", FormDecimal, func(c iso11784.Code) string { return "LA 00000 0 " + c.Display() + "\r\n" }},
		{"Datamars A", FormDecimal, func(c iso11784.Code) string { return "A 00000 0 " + c.Display() }},
		{"Digi-Star A compact", FormDecimal, func(c iso11784.Code) string { return "A000000" + "0" + d15(c) }},
		{"23 digits", FormDecimal, func(c iso11784.Code) string { return "1000000" + "0" + d15(c) }},
		{"4-digit country", FormDecimal, func(c iso11784.Code) string { return "0" + d15(c)[:3] + " " + d15(c)[3:] }},
		{"Tru-Test 16 digits", FormDecimal, func(c iso11784.Code) string { return "0" + d15(c) }},
		{"64-bit hex", FormHex64, func(c iso11784.Code) string { return fmt.Sprintf("%016X", uint64(c)) }},
		{"air-order hex", FormHexAir, func(c iso11784.Code) string { return fmt.Sprintf("%016X", c.Reversed()) }},
		{"MULTITAG Z", FormHexAir, func(c iso11784.Code) string { return fmt.Sprintf("Z%016X", c.Reversed()) }},
	}
}

// possibleCountries are every code a real chip can carry: the ISO 3166
// numeric codes and 900–999 (ISO 11784 clause 5).
func possibleCountries() []uint16 {
	var out []uint16
	for cc := uint16(1); cc <= 999; cc++ {
		if cc >= iso11784.FirstManufacturer || iso11784.IsCountryCode(cc) {
			out = append(out, cc)
		}
	}
	return out
}

// TestNoWrongChip is the promise: over every possible country and
// manufacturer code, a chip written in any form a reader uses parses to
// that chip, or to an ambiguity that names it among the candidates;
// never to another chip. With the reader's declared form it is never
// ambiguous.
func TestNoWrongChip(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(22, 11784))
	forms := writtenForms()
	var total, ambiguous int
	for _, cc := range possibleCountries() {
		nationals := []uint64{0, 1, 274877906943, 12345600001}
		for range 12 {
			nationals = append(nationals, rng.Uint64N(274877906944))
		}
		for i, nat := range nationals {
			c, err := iso11784.New(cc, nat, i%2 == 0)
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range forms {
				text := f.write(c)
				total++
				id, err := Parse(text, nil)
				var ae *AmbiguousError
				switch {
				case errors.As(err, &ae):
					ambiguous++
					found := false
					for _, cand := range ae.Candidates {
						found = found || cand.Code == c.String()
					}
					if !found {
						t.Fatalf("%s %q: ambiguous without the chip meant (%s): %v", f.name, text, c.Display(), err)
					}
				case err != nil:
					t.Fatalf("%s %q: %v", f.name, text, err)
				case id.Code != c.String():
					t.Fatalf("%s %q: read as %s, the reader meant %s", f.name, text, id, c.Display())
				}
				id, err = Parse(text, &Opts{Form: f.form})
				if err != nil || id.Code != c.String() {
					t.Fatalf("%s %q with form %s: %+v, %v, want %s", f.name, text, f.form, id, err, c.Display())
				}
				if id.Full || id.AnimalStated {
					if a, _ := id.Animal(); a != c.Animal() && f.name != "Allflex LA" && f.name != "Allflex TIRIS" &&
						f.name != "Datamars A" && f.name != "Digi-Star A compact" && f.name != "23 digits" {
						t.Fatalf("%s %q: animal %v, want %v", f.name, text, a, c.Animal())
					}
				}
			}
		}
	}
	t.Logf("%d texts, %d ambiguous (candidates named), 0 wrong", total, ambiguous)
}

// TestTruTestSweep: the case of the report, 500 random national IDs
// over 12 common manufacturer codes in the Tru-Test 16-digit form.
func TestTruTestSweep(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(826, 16))
	var ok, amb int
	for _, cc := range []uint16{900, 941, 952, 953, 956, 965, 972, 977, 981, 982, 985, 999} {
		for range 500 {
			c, _ := iso11784.New(cc, rng.Uint64N(1e12), false)
			text := "0" + c.String()
			id, err := Parse(text, nil)
			var ae *AmbiguousError
			switch {
			case err == nil && id.Code == c.String():
				ok++
			case errors.As(err, &ae):
				amb++
			default:
				t.Errorf("Parse(%q) = %v, %v, want %s", text, id, err, c.Display())
			}
		}
	}
	t.Logf("6000 Tru-Test texts: %d read right, %d ambiguous with the chip among the candidates, 0 wrong", ok, amb)
}
