package readers

import (
	"github.com/chipdesk/chipdesk/reader/chipid"
	"github.com/chipdesk/chipdesk/reader/iso11784"
)

// ChipText parses the chip number text of a reader line. Every driver
// goes through here, so that chip numbers are read by package chipid
// alone.
func ChipText(text string) (chipid.ID, error) {
	c, err := iso11784.ParseDecimal(text)
	if err != nil {
		return chipid.ID{}, err
	}
	return ChipISO(c), nil
}

// ChipISO returns the chip id of a code decoded from a binary frame.
func ChipISO(c iso11784.Code) chipid.ID {
	return chipid.ID{Kind: chipid.KindISO, Code: c.String(), ISO: c}
}
