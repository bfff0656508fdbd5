package runner_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/chipdesk/chipdesk/drivers/readers/runner"
	"github.com/chipdesk/chipdesk/reader"
	"github.com/chipdesk/chipdesk/reader/readertest"
)

// A runner over a scripted reader: the chip held to the reader is
// reported once per window. In service code the factory is
// catalog.Protocol.Opener(path, now), which opens the serial port and
// the driver.
func Example() {
	rd := readertest.New("desk reader",
		readertest.Chip("985121004515220"),
		readertest.Chip("985121004515220"), // still in the field
		readertest.Chip("982000123456789"),
	)
	r, _ := runner.New(func(context.Context) (reader.Reader, error) { return rd, nil }, nil)
	defer r.Close()
	printed := 0
	enough := errors.New("two read")
	r.Run(context.Background(), func(_ context.Context, read reader.Read) error {
		fmt.Println(read.ID)
		if printed++; printed == 2 {
			return enough
		}
		return nil
	})
	fmt.Println(r.Stats().Suppressed, "suppressed")
	// Output:
	// 985 121004515220
	// 982 000123456789
	// 1 suppressed
}
