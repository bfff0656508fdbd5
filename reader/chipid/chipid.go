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
	KindEM4102 Kind = "em4102"   // EM4102 / EM4100 family, 10 hex; only where a reader says so
)

// ID is one normalised chip identity.
type ID struct {
	Kind Kind
	// Code is the normalised text form: 15 digits for ISO, 9 digits for
	// AVID, 10 upper-case hex digits for FECAVA and Trovan.
	Code string
	// ISO is the decoded 64-bit code when Kind is KindISO.
	ISO iso11784.Code
	// Full reports that ISO holds all 64 bits as a chip sent them (from
	// a telegram or a 16-hex form), so its animal flag, data-block flag
	// and reserved field are known. It is false when only the 15 digits
	// were given: those bits are then zero and unknown.
	Full bool
	// AnimalStated reports that the reader stated the animal flag held
	// in ISO (the A of an Allflex "LA" line or of the Datamars form),
	// though the other bits are not known.
	AnimalStated bool
}
