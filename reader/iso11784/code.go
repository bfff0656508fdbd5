package iso11784

import (
	"errors"
	"fmt"
	"math/bits"
)

// Code is the 64-bit ISO 11784 animal identification code. Bit 0 is the
// first bit sent on air: bits 0–37 national ID, 38–47 country or
// manufacturer, 48 data-block flag, 49–62 reserved field, 63 animal flag.
//
// Within the reserved field (ISO 11784 Amd 1 and Amd 2) bit 49 is the
// RUDI (advanced transponder) flag, bits 50–54 are reserved for future
// use, bits 55–59 the user information field and bits 60–62 the
// retagging counter.
type Code uint64

// Limits of the fields, ISO 11784 clause 5 (table 1).
const (
	// MaxNational is the largest national identification code: 38 bits.
	MaxNational = 1<<38 - 1 // 274877906943
	// MaxCountry is the largest valid country or manufacturer code.
	// The 10-bit field holds up to 1023; values above 999 are invalid.
	MaxCountry = 999
	// TestCode is the country field of test transponders.
	TestCode = 999
	// FirstManufacturer and LastManufacturer bound the manufacturer
	// codes granted by ICAR; 900 is shared between manufacturers.
	FirstManufacturer = 900
	LastManufacturer  = 998
)

const (
	nationalMask = 1<<38 - 1
	countryShift = 38
	countryMask  = 1<<10 - 1
	dataBlockBit = 48
	rudiBit      = 49
	rfuShift     = 50
	userShift    = 55
	retagShift   = 60
	animalBit    = 63
	reservedMask = 1<<14 - 1
)

// Errors returned by New, ParseDecimal and Code.Valid.
var (
	// ErrRange reports a field value out of its range.
	ErrRange = errors.New("iso11784: value out of range")
	// ErrSyntax reports a text that is not a 15-digit code.
	ErrSyntax = errors.New("iso11784: not a 15-digit code")
)

// New returns the code for a country (or manufacturer) code and a
// national identification code. The data-block flag and reserved field
// are zero. It fails with ErrRange when country > 999 or national >
// MaxNational (ISO 11784 clause 5).
func New(country uint16, national uint64, animal bool) (Code, error) {
	if country > MaxCountry {
		return 0, fmt.Errorf("%w: country code %d > %d", ErrRange, country, MaxCountry)
	}
	if national > MaxNational {
		return 0, fmt.Errorf("%w: national ID %d > %d", ErrRange, national, uint64(MaxNational))
	}
	c := Code(uint64(country)<<countryShift | national)
	return c.WithAnimal(animal), nil
}

// ParseDecimal parses the 15-digit form: exactly 15 ASCII digits, three
// for the country or manufacturer code and twelve for the national ID.
// Nothing else is accepted (no separators; package chipid reads free
// text). The 15 digits do not carry the flag bits: the result has the
// animal flag, data-block flag and reserved field zero.
func ParseDecimal(s string) (Code, error) {
	if len(s) != 15 {
		return 0, fmt.Errorf("%w: %q has %d characters", ErrSyntax, s, len(s))
	}
	var country uint64
	var national uint64
	for i := 0; i < 15; i++ {
		d := s[i] - '0'
		if d > 9 {
			return 0, fmt.Errorf("%w: %q", ErrSyntax, s)
		}
		if i < 3 {
			country = country*10 + uint64(d)
		} else {
			national = national*10 + uint64(d)
		}
	}
	if national > MaxNational {
		return 0, fmt.Errorf("%w: %q: national ID > %d", ErrRange, s, uint64(MaxNational))
	}
	return Code(country<<countryShift | national), nil
}

// Valid reports whether the country field is a valid code (≤ 999). Every
// 38-bit national ID is valid.
func (c Code) Valid() error {
	if c.Country() > MaxCountry {
		return fmt.Errorf("%w: country code %d > %d", ErrRange, c.Country(), MaxCountry)
	}
	return nil
}

// National returns the 38-bit national identification code.
func (c Code) National() uint64 { return uint64(c) & nationalMask }

// Country returns the 10-bit country or manufacturer code field. It is
// above 999 only for an invalid code (see Valid).
func (c Code) Country() uint16 { return uint16(uint64(c) >> countryShift & countryMask) }

// Animal reports the animal-application flag (ISO bit 1).
func (c Code) Animal() bool { return c>>animalBit&1 == 1 }

// DataBlock reports the data-block flag (ISO bit 16): the 24-bit
// extension of the telegram carries data.
func (c Code) DataBlock() bool { return c>>dataBlockBit&1 == 1 }

// RUDI reports the RUDI (advanced transponder) flag (ISO bit 15).
func (c Code) RUDI() bool { return c>>rudiBit&1 == 1 }

// RFU returns the 5 bits reserved for future use (ISO bits 10–14).
func (c Code) RFU() uint8 { return uint8(c >> rfuShift & 0x1f) }

// UserInfo returns the 5-bit user information field (ISO bits 5–9).
func (c Code) UserInfo() uint8 { return uint8(c >> userShift & 0x1f) }

// RetagCounter returns the 3-bit retagging counter (ISO bits 2–4).
func (c Code) RetagCounter() uint8 { return uint8(c >> retagShift & 0x7) }

// Reserved returns the whole 14-bit reserved field (ISO bits 2–15):
// retagging counter, user information, RFU bits and the RUDI flag.
func (c Code) Reserved() uint16 { return uint16(c >> rudiBit & reservedMask) }

func (c Code) withBit(bit uint, on bool) Code {
	if on {
		return c | 1<<bit
	}
	return c &^ (1 << bit)
}

// WithAnimal returns c with the animal flag set to on.
func (c Code) WithAnimal(on bool) Code { return c.withBit(animalBit, on) }

// WithDataBlock returns c with the data-block flag set to on.
func (c Code) WithDataBlock(on bool) Code { return c.withBit(dataBlockBit, on) }

// WithRUDI returns c with the RUDI flag set to on.
func (c Code) WithRUDI(on bool) Code { return c.withBit(rudiBit, on) }

// WithRetagCounter returns c with the retagging counter set to n & 7.
func (c Code) WithRetagCounter(n uint8) Code {
	return c&^(0x7<<retagShift) | Code(n&0x7)<<retagShift
}

// WithUserInfo returns c with the user information field set to n & 31.
func (c Code) WithUserInfo(n uint8) Code {
	return c&^(0x1f<<userShift) | Code(n&0x1f)<<userShift
}

// WithReserved returns c with the 14-bit reserved field set to r & 0x3fff.
func (c Code) WithReserved(r uint16) Code {
	return c&^(reservedMask<<rudiBit) | Code(r&reservedMask)<<rudiBit
}

// ID15 returns the identity part of c, country and national ID, with
// every flag and the reserved field cleared: the part the 15-digit form
// carries.
func (c Code) ID15() Code { return c & (countryMask<<countryShift | nationalMask) }

// AppendDecimal appends the 15-digit form to b.
func (c Code) AppendDecimal(b []byte) []byte {
	var d [15]byte
	c.putDecimal(&d)
	return append(b, d[:]...)
}

func (c Code) putDecimal(d *[15]byte) {
	n := c.National()
	for i := 14; i >= 3; i-- {
		d[i] = byte('0' + n%10)
		n /= 10
	}
	// An invalid country field (> 999) is printed modulo 1000; Valid
	// reports it.
	cc := c.Country() % 1000
	d[2] = byte('0' + cc%10)
	d[1] = byte('0' + cc/10%10)
	d[0] = byte('0' + cc/100)
}

// String returns the 15-digit form, e.g. "985121004515220".
func (c Code) String() string {
	var d [15]byte
	c.putDecimal(&d)
	return string(d[:])
}

// Display returns the spaced form "985 121004515220".
func (c Code) Display() string {
	var d [15]byte
	c.putDecimal(&d)
	var s [16]byte
	copy(s[:3], d[:3])
	s[3] = ' '
	copy(s[4:], d[3:])
	return string(s[:])
}

// Reversed returns the 64 bits in air order packed most significant bit
// first: c bit-reversed. This is the 16-hex form Proxmark3 prints as
// "Raw" and AEG/Trovan ARE readers print as the code.
func (c Code) Reversed() uint64 { return bits.Reverse64(uint64(c)) }

// FromReversed returns the code whose Reversed form is v.
func FromReversed(v uint64) Code { return Code(bits.Reverse64(v)) }

// WireBytes returns the 8 bytes in the order they go on air: least
// significant byte first (ISO 11785 clause 6, FDX-B and HDX alike).
func (c Code) WireBytes() [8]byte {
	var b [8]byte
	for i := range b {
		b[i] = byte(c >> (8 * i))
	}
	return b
}

// FromWireBytes returns the code sent as b, least significant byte first.
func FromWireBytes(b [8]byte) Code {
	var c Code
	for i := 7; i >= 0; i-- {
		c = c<<8 | Code(b[i])
	}
	return c
}

// GoString shows every field, for test failures and debugging.
func (c Code) GoString() string {
	return fmt.Sprintf("iso11784.Code(%#016x: %s animal=%t data=%t reserved=%#04x)",
		uint64(c), c.Display(), c.Animal(), c.DataBlock(), c.Reserved())
}
