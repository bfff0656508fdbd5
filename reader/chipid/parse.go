package chipid

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/chipdesk/chipdesk/reader/iso11784"
)

// Errors returned by Parse and the From functions.
var (
	// ErrInvalid reports a text that is no chip number.
	ErrInvalid = errors.New("chipid: invalid chip number")
	// ErrAmbiguous reports a text that reads as more than one chip
	// number; the error is an *AmbiguousError listing them.
	ErrAmbiguous = errors.New("chipid: ambiguous chip number")
)

// AmbiguousError is returned when a text reads as more than one chip and
// nothing in it tells which is meant. errors.Is(err, ErrAmbiguous) holds.
type AmbiguousError struct {
	Input      string
	Candidates []ID
	locale     string
}

func (e *AmbiguousError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "chipid: %q is ambiguous: ", e.Input)
	for i, c := range e.Candidates {
		if i > 0 {
			b.WriteString(" or ")
		}
		b.WriteString(c.String())
		if c.Kind == KindISO && c.Full {
			if a, _ := c.Animal(); !a {
				b.WriteString(" non-animal")
			}
		}
		if m := c.Manufacturer(e.locale); m != "" {
			fmt.Fprintf(&b, " (%s)", m)
		}
	}
	return b.String()
}

// Is makes errors.Is(err, ErrAmbiguous) true.
func (e *AmbiguousError) Is(target error) bool { return target == ErrAmbiguous }

// Hex16 says how Parse reads 16 hex digits.
type Hex16 int

// Readings of 16 hex digits.
const (
	// Hex16Auto takes whichever of the two forms gives a plausible ISO
	// 11784 code, and reports ambiguity when both do.
	Hex16Auto Hex16 = iota
	// Hex16Raw reads the air-order (bit-reversed) form that AEG/Trovan
	// ARE readers and Proxmark3 print.
	Hex16Raw
	// Hex16Value reads the 64-bit value, animal flag in the top bit.
	Hex16Value
)

// Opts tunes Parse. A nil *Opts means the zero Opts.
type Opts struct {
	// Locale names the manufacturers in error messages (see
	// ID.Manufacturer), e.g. "en_US".
	Locale string
	// Hex16 says how to read 16 hex digits; a driver that knows the
	// form its reader prints sets it.
	Hex16 Hex16
}

// hint is what a leading word says about the number after it.
type hint int

const (
	hintNone hint = iota
	hintISO
	hintAVID
	hintFECAVA
	hintTrovan
)

// prefixes are the words people and readers write before a number,
// longest first where one starts another. None is made of hex digits
// only, so none can be mistaken for the start of a FECAVA code.
func prefixes() [11]struct {
	word string
	hint hint
} {
	return [...]struct {
		word string
		hint hint
	}{
		{"FDX-B", hintISO}, {"FDXB", hintISO}, {"HDX", hintISO}, {"ISO", hintISO},
		{"LA", hintISO}, // Allflex: L = line mode, A = animal read-only tag
		{"FDX-A", hintFECAVA}, {"FDXA", hintFECAVA}, {"FECAVA", hintFECAVA}, {"DESTRON", hintFECAVA},
		{"AVID", hintAVID},
		{"TROVAN", hintTrovan},
	}
}

func isSep(c byte) bool {
	switch c {
	case ' ', '\t', '.', '-', '_', '*', ':', '/', '#':
		return true
	}
	return false
}

func hexVal(c byte) (byte, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10, true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	}
	return 0, false
}

const maxGroups = 8

// fields are the runs of letters and digits of a text, split at
// separators, without allocating.
type fields struct {
	s        string
	n        int // number of groups
	start    [maxGroups]int
	end      [maxGroups]int
	mixed    bool // different separators between groups
	sep      byte // the separator used between groups, 0 if one group
	total    int  // letters and digits in all groups
	digits   bool // every character a decimal digit
	hex      bool // every character a hex digit
	tooMany  bool
	badChars bool
}

func split(s string) fields {
	f := fields{s: s, digits: true, hex: true}
	in := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if isSep(c) {
			if in {
				f.end[f.n-1] = i
				in = false
			}
			if f.n == 0 {
				continue // before the first group: "AVID*…", "ISO: …"
			}
			if f.sep == 0 {
				f.sep = c
			} else if f.sep != c {
				f.mixed = true
			}
			continue
		}
		isAlnum := c >= '0' && c <= '9' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z'
		if !isAlnum {
			f.badChars = true
			return f
		}
		if !in {
			if f.n == maxGroups {
				f.tooMany = true
				return f
			}
			f.start[f.n] = i
			f.n++
			in = true
		}
		f.total++
		if c < '0' || c > '9' {
			f.digits = false
		}
		if _, ok := hexVal(c); !ok {
			f.hex = false
		}
	}
	if in {
		f.end[f.n-1] = len(s)
	}
	if f.n <= 1 {
		f.sep = 0
	}
	return f
}

func (f *fields) group(i int) string { return f.s[f.start[i]:f.end[i]] }

// shape reports whether the group lengths are exactly ls.
func (f *fields) shape(ls ...int) bool {
	if f.n != len(ls) {
		return false
	}
	for i, l := range ls {
		if f.end[i]-f.start[i] != l {
			return false
		}
	}
	return true
}

// join copies the letters and digits of all groups into buf, upper case.
func (f *fields) join(buf []byte) []byte {
	for i := 0; i < f.n; i++ {
		g := f.group(i)
		for j := 0; j < len(g); j++ {
			c := g[j]
			if c >= 'a' && c <= 'z' {
				c -= 'a' - 'A'
			}
			buf = append(buf, c)
		}
	}
	return buf
}

func trim(s string) string {
	i, j := 0, len(s)
	for i < j && (s[i] <= ' ' || s[i] == 0x7f) {
		i++
	}
	for j > i && (s[j-1] <= ' ' || s[j-1] == 0x7f) {
		j--
	}
	return s[i:j]
}

func invalid(text, why string) error {
	return fmt.Errorf("%w: %q: %s", ErrInvalid, text, why)
}

// Parse reads one chip number from text as a reader or a person writes
// it, and reports its kind and normalised code. It accepts:
//
//   - ISO 11784 codes as 15 digits, with the country/manufacturer code
//     and the national ID split by any of space, '.', '-', '_', '/',
//     ':' or not at all ("985121004515220", "985 121004515220",
//     "982.000001088420", "999_000000001008"), after an optional word
//     ISO, FDX-B, HDX or the Allflex line prefix LA ("LA 982
//     000001088420");
//   - the hex country form CCC.NNNNNNNNNN ("3DD.003BA20748", Biomark);
//   - 16 hex digits, either the 64-bit value (animal flag in the top
//     bit) or the air-order form (bit-reversed; AEG/Trovan ARE readers,
//     Proxmark3 "Raw"). A form is plausible when its country field is
//     1–999 and its RFU and user-information bits are zero, as on
//     every chip seen; when both forms are plausible and differ, Parse
//     returns an *AmbiguousError naming both (opts.Hex16 picks one);
//   - AVID: 9 digits, plain or in three groups ("012*345*678",
//     "AVID*012*345*678");
//   - 10 hex digits: a FECAVA / FDX-A / HomeAgain legacy code
//     ("4A3D5C1B2E"). Trovan Unique codes are also 10 hex digits and
//     nothing in the digits tells them apart, so Parse takes the
//     shelter convention: plain 10 hex digits are FECAVA, and Trovan
//     when grouped as Trovan readers print them ("00-1234-5678") or
//     after the word TROVAN.
//
// Leading and trailing spaces and control characters (CR, LF, STX,
// ETX) are ignored; a whole reader frame with other fields is not
// accepted: drivers cut the number out of their frames. Parse never
// guesses between readings: it returns ErrInvalid or an
// *AmbiguousError (errors.Is(err, ErrAmbiguous)).
func Parse(text string, opts *Opts) (ID, error) {
	// Fast path: the 15-digit form, as stored and as most readers send.
	if len(text) == 15 {
		if c, err := iso11784.ParseDecimal(text); err == nil {
			return ID{Kind: KindISO, Code: text, ISO: c}, nil
		}
	}
	var o Opts
	if opts != nil {
		o = *opts
	}
	s := trim(text)
	if len(s) == 15 && len(s) != len(text) {
		// A reader line: the 15 digits and CR LF, or STX/ETX.
		if c, err := iso11784.ParseDecimal(s); err == nil {
			return ID{Kind: KindISO, Code: s, ISO: c}, nil
		}
	}
	h := hintNone
	for _, p := range prefixes() {
		if len(s) >= len(p.word) && strings.EqualFold(s[:len(p.word)], p.word) {
			h, s = p.hint, s[len(p.word):]
			break
		}
	}
	f := split(s)
	switch {
	case f.badChars:
		return ID{}, invalid(text, "unexpected character")
	case f.tooMany:
		return ID{}, invalid(text, "too many groups")
	case f.total == 0:
		return ID{}, invalid(text, "no digits")
	}
	var buf [16]byte
	switch {
	case f.digits && f.total == 15 && (h == hintNone || h == hintISO):
		code := string(f.join(buf[:0]))
		c, err := iso11784.ParseDecimal(code)
		if err != nil {
			return ID{}, fmt.Errorf("%w: %q: %w", ErrInvalid, text, err)
		}
		return ID{Kind: KindISO, Code: code, ISO: c}, nil

	case f.hex && f.shape(3, 10) && f.sep == '.' && (h == hintNone || h == hintISO):
		cc, _ := strconv.ParseUint(f.group(0), 16, 16)
		nat, _ := strconv.ParseUint(f.group(1), 16, 64)
		c, err := iso11784.New(uint16(cc), nat, false)
		if err != nil {
			return ID{}, fmt.Errorf("%w: %q: %w", ErrInvalid, text, err)
		}
		return ID{Kind: KindISO, Code: c.String(), ISO: c}, nil

	case f.hex && f.shape(16) && (h == hintNone || h == hintISO):
		return parseHex16(text, f.group(0), o)

	case f.digits && f.total == 9 && (f.shape(9) || f.shape(3, 3, 3) && !f.mixed) && (h == hintNone || h == hintAVID):
		return ID{Kind: KindAVID, Code: string(f.join(buf[:0]))}, nil

	case f.hex && f.total == 10 && (f.shape(10) || f.shape(2, 4, 4) && !f.mixed):
		k := KindFECAVA
		switch {
		case h == hintTrovan || h == hintNone && f.n == 3 && f.sep == '-':
			k = KindTrovan
		case h == hintNone || h == hintFECAVA:
		default:
			return ID{}, invalid(text, "10 hex digits after a word for another kind")
		}
		code := string(f.join(buf[:0]))
		if k == KindTrovan && code[0] > '7' {
			return ID{}, invalid(text, "a Trovan Unique code has 39 bits")
		}
		return ID{Kind: k, Code: code}, nil
	}
	switch f.total {
	case 9, 10, 15, 16:
		return ID{}, invalid(text, "unknown form")
	}
	return ID{}, invalid(text, fmt.Sprintf("%d characters", f.total))
}

// plausible reports whether c looks like a code from a real chip: a
// country or manufacturer code 1–999, and the RFU and user-information
// bits zero (ISO 11784 Amd 1).
func plausible(c iso11784.Code) bool {
	return c.Valid() == nil && c.Country() != 0 && c.RFU() == 0 && c.UserInfo() == 0
}

func parseHex16(text, g string, o Opts) (ID, error) {
	v, err := strconv.ParseUint(g, 16, 64)
	if err != nil {
		return ID{}, invalid(text, "bad hex")
	}
	val, raw := iso11784.Code(v), iso11784.FromReversed(v)
	switch o.Hex16 {
	case Hex16Value:
		raw = val
	case Hex16Raw:
		val = raw
	}
	pv, pr := plausible(val), plausible(raw)
	switch {
	case pv && pr && val != raw:
		return ID{}, &AmbiguousError{Input: text, Candidates: []ID{FromISO(val), FromISO(raw)}, locale: o.Locale}
	case pv:
		return FromISO(val), nil
	case pr:
		return FromISO(raw), nil
	case o.Hex16 != Hex16Auto && val.Valid() == nil:
		// The caller named the form: take it even when unusual.
		return FromISO(val), nil
	}
	return ID{}, invalid(text, "16 hex digits that are no ISO 11784 code in either bit order")
}

// FromISO returns the id of a code decoded from a telegram or a reader
// that gives all 64 bits. The code should be valid (Code.Valid); the
// decoders in package iso11785 only return valid codes.
func FromISO(c iso11784.Code) ID {
	return ID{Kind: KindISO, Code: c.String(), ISO: c, Full: true}
}

// FromFECAVA returns the id of an FDX-A / FECAVA code given as 10 hex
// digits (as package iso11785 prints it).
func FromFECAVA(code10hex string) (ID, error) {
	if len(code10hex) != 10 {
		return ID{}, invalid(code10hex, "a FECAVA code has 10 hex digits")
	}
	var buf [10]byte
	for i := 0; i < 10; i++ {
		c := code10hex[i]
		if _, ok := hexVal(c); !ok {
			return ID{}, invalid(code10hex, "a FECAVA code has 10 hex digits")
		}
		if c >= 'a' {
			c -= 'a' - 'A'
		}
		buf[i] = c
	}
	return ID{Kind: KindFECAVA, Code: string(buf[:])}, nil
}
