package catalog_test

import (
	"fmt"

	"github.com/chipdesk/chipdesk/drivers/readers/catalog"
	"github.com/chipdesk/chipdesk/reader/chipid"
)

// The protocols by name, and the line an Allflex reader prints for a
// chip, read back through the same protocol's framing and decoder.
func Example() {
	fmt.Println(catalog.Names())
	p, _ := catalog.Lookup("allflex")
	id, _ := chipid.Parse("982000001088420", nil)
	b, _ := p.Encode(id)
	fmt.Printf("%q\n", b)
	n, _ := p.Split(b)
	r, ok, err := p.Decode(b[:n])
	fmt.Println(r.ID, ok, err)
	// Output:
	// [wl134 allflex rfidrw rt100 are iso24631 avid datamars agrident aabb]
	// "LA 982 000001088420\r\n"
	// 982 000001088420 true <nil>
}
