package check_test

import (
	"fmt"

	"github.com/chipdesk/chipdesk/tags/check"
)

func Example() {
	keys := check.DevelopmentKeys() // demos only: real keys come from check.LoadKeys
	p, _ := keys.Issue("MPLS", 2026, 1234)
	fmt.Println(p)
	_, err := keys.Verify(p.String())
	fmt.Println("issued:", err == nil)
	forged := check.Payload{Jurisdiction: "MPLS", Year: 2026, Number: 1235, Code: p.Code}
	_, err = keys.Verify(forged.String())
	fmt.Println("forged:", err)
	// Output:
	// MPLS26-001234-91BP3
	// issued: true
	// forged: check: check code does not match: MPLS26-001235-91BP3
}
