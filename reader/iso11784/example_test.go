package iso11784_test

import (
	"fmt"

	"github.com/chipdesk/chipdesk/reader/iso11784"
)

func ExampleNew() {
	c, err := iso11784.New(985, 121004515220, true)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(c)
	fmt.Println(c.Display())
	fmt.Printf("%016X\n", uint64(c))
	fmt.Printf("%016X\n", c.Reversed())
	fmt.Printf("% X\n", c.WireBytes())
	// Output:
	// 985121004515220
	// 985 121004515220
	// 8000F65C2C6E5F94
	// 29FA76343A6F0001
	// 94 5F 6E 2C 5C F6 00 80
}

func ExampleFromReversed() {
	// The 16-hex code of an AEG ARE reader record is in air order.
	c := iso11784.FromReversed(0x2858997D3A4F0000)
	fmt.Println(c.Display(), c.Animal())
	// Output: 969 123456789012 false
}

func ExampleManufacturer() {
	us, _ := iso11784.Manufacturer(985, "en_US")
	au, _ := iso11784.Manufacturer(985, "en_AU")
	fmt.Println(us, "/", au)
	// Output: HomeAgain / Lifechip
}

func ExampleCountryName() {
	name, _ := iso11784.CountryName(124)
	fmt.Println(name)
	// Output: Canada
}
