package chipid

import "github.com/chipdesk/chipdesk/reader/iso11784"

// Kind tells which numbering a chip id belongs to.
type Kind string

// Kinds of chip id.
const (
	KindISO    Kind = "iso11784" // 15 digits, ISO 11784 code
	KindAVID   Kind = "avid"     // AVID FriendChip / Encrypted, 9 digits
	KindFECAVA Kind = "fecava"   // FDX-A / FECAVA / Destron / HomeAgain legacy, 10 hex
	KindTrovan Kind = "trovan"   // Trovan Unique, 10 hex
)

// ID is one normalised chip identity.
type ID struct {
	Kind Kind
	// Code is the normalised text form: 15 digits for ISO, 9 digits for
	// AVID, 10 upper-case hex digits for FECAVA and Trovan.
	Code string
	// ISO is the decoded 64-bit code when Kind is KindISO.
	ISO iso11784.Code
}
