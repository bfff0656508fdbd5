package chipid_test

import (
	"errors"
	"fmt"

	"github.com/chipdesk/chipdesk/reader/chipid"
)

func ExampleParse() {
	for _, s := range []string{
		"LA 982 000001088420\r\n", // Allflex reader line
		"985.121004515220",        // typed by a person
		"29FA76343A6F0001",        // AEG/Trovan ARE air-order hex
		"AVID*012*345*678",
		"4A3D5C1B2E",
	} {
		id, err := chipid.Parse(s, nil)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Printf("%-8s %-15s %s\n", id.Kind, id.Code, id.Manufacturer("en_US"))
	}
	// Output:
	// iso11784 982000001088420 24PetWatch
	// iso11784 985121004515220 HomeAgain
	// iso11784 985121004515220 HomeAgain
	// avid     012345678       AVID
	// fecava   4A3D5C1B2E      HomeAgain
}

func ExampleID_Manufacturer() {
	id, _ := chipid.Parse("985121004515220", nil)
	fmt.Println(id.Manufacturer("en_US"), "/", id.Manufacturer("en_AU"))
	// Output: HomeAgain / Lifechip
}

func ExampleAmbiguousError() {
	_, err := chipid.Parse("8000010000100000", &chipid.Opts{Locale: "en_US"})
	var ae *chipid.AmbiguousError
	if errors.As(err, &ae) {
		fmt.Println(len(ae.Candidates), "readings")
		fmt.Println(err)
	}
	// Output:
	// 2 readings
	// chipid: "8000010000100000" is ambiguous: 004 000001048576 (Afghanistan) or 032 000008388609 non-animal (Argentina)
}
