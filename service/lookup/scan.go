package lookup

import "time"

// ScanEvent is what the scan stream carries for one scan: which reader
// read which chip when, and the lookup answer for it.
type ScanEvent struct {
	// ScanID is the stored scan's id.
	ScanID int64     `json:"scan_id"`
	Reader string    `json:"reader"`
	At     time.Time `json:"at"`
	Chip   Chip      `json:"chip"`
	Lookup *Answer   `json:"lookup"`
}
