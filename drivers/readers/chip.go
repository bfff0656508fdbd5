package readers

import (
	"github.com/chipdesk/chipdesk/reader/chipid"
	"github.com/chipdesk/chipdesk/reader/iso11784"
)

// ChipText reads the chip number a reader printed, through
// chipid.Parse: chip numbers are read by package chipid alone. Drivers
// cut the number out of their frame first and pass the form their
// reader writes, so that a scan is never ambiguous.
func ChipText(text string, form chipid.Form) (chipid.ID, error) {
	return chipid.Parse(text, &chipid.Opts{Form: form})
}

// ChipISO returns the chip id of a code decoded with all its 64 bits
// (a binary frame, a 16-hex form).
func ChipISO(c iso11784.Code) chipid.ID { return chipid.FromISO(c) }
