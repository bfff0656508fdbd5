package readertest_test

import (
	"context"
	"fmt"
	"io"

	"github.com/chipdesk/chipdesk/reader/readertest"
)

func Example() {
	r := readertest.New("counter-1", readertest.Chip("LA 982 000001088420"), readertest.Chip("4A3D5C1B2E"))
	r.End = io.EOF
	for {
		rd, err := r.Next(context.Background())
		if err != nil {
			fmt.Println(err)
			break
		}
		fmt.Println(rd.Source, rd.Protocol, rd.ID.Code)
	}
	fmt.Println(r.Close())
	// Output:
	// counter-1 ISO 982000001088420
	// counter-1 FDX-A 4A3D5C1B2E
	// EOF
	// <nil>
}
