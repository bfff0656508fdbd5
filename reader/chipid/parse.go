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

// Form names how a reader writes chip numbers. It decides between the
// readings of a text that could be more than one chip; a text with one
// reading is read that way whatever the form.
type Form string

// Forms a reader declares (drivers, the keyboard-wedge path and the
// configured line readers pass theirs).
const (
	// FormAuto declares nothing: a text with several readings is
	// resolved only by evidence (see Parse) or reported as ambiguous.
	FormAuto Form = ""
	// FormDecimal: digits are decimal ISO 11784 codes, including 16
	// digits with a leading zero (Tru-Test and the 4-digit country).
	FormDecimal Form = "decimal"
	// FormHex64 reads 16 hex digits as the 64-bit value, animal flag in
	// the top bit.
	FormHex64 Form = "hex64"
	// FormHexAir reads 16 hex digits in air order (bit-reversed), as
	// AEG/Trovan ARE readers and Proxmark3 "Raw" print them.
	FormHexAir Form = "hex64-air"
	// FormFDXA reads 10 hex digits as an FDX-A / FECAVA code.
	FormFDXA Form = "fdxa"
	// FormTrovan reads 10 hex digits as a Trovan Unique code.
	FormTrovan Form = "trovan"
	// FormEM4102 reads 10 hex digits as an EM4102 (EM4100 family)
	// transponder number.
	FormEM4102 Form = "em4102"
)

// Forms lists every declarable form but FormAuto, for flags and config
// checks.
func Forms() []Form {
	return []Form{FormDecimal, FormHex64, FormHexAir, FormFDXA, FormTrovan, FormEM4102}
}

// ParseForm reads a form's name; "" and "auto" are FormAuto.
func ParseForm(s string) (Form, error) {
	if s == "" || strings.EqualFold(s, "auto") {
		return FormAuto, nil
	}
	for _, f := range Forms() {
		if strings.EqualFold(s, string(f)) {
			return f, nil
		}
	}
	return FormAuto, fmt.Errorf("chipid: unknown form %q (auto, decimal, hex64, hex64-air, fdxa, trovan, em4102)", s)
}

// Opts tunes Parse. A nil *Opts means the zero Opts.
type Opts struct {
	// Locale names the manufacturers in error messages (see
	// ID.Manufacturer), e.g. "en_US".
	Locale string
	// Form is the form the reader writes; a driver that knows it sets
	// it, so that its reads are never ambiguous.
	Form Form
}

// hint is what a leading word says about the number after it.
type hint int

const (
	hintNone hint = iota
	hintISO
	hintAVID
	hintFECAVA
	hintTrovan
	hintEM     // EM4102 / EM4100
	hintAnimal // Allflex LA: an ISO animal tag
	hintAir    // MULTITAG Z: 16 hex in air order
)

// prefixes are the words people and readers write before a number,
// longest first where one starts another. None is made of hex digits
// only, so none can be mistaken for the start of a FECAVA code.
func prefixes() [15]struct {
	word string
	hint hint
} {
	return [...]struct {
		word string
		hint hint
	}{
		{"FDX-B", hintISO}, {"FDXB", hintISO}, {"HDX", hintISO}, {"ISO", hintISO},
		{"LA", hintAnimal}, // Allflex: L = line mode, A = animal read-only tag
		{"FDX-A", hintFECAVA}, {"FDXA", hintFECAVA}, {"FECAVA", hintFECAVA}, {"DESTRON", hintFECAVA},
		{"AVID", hintAVID},
		{"TROVAN", hintTrovan},
		{"EM4102", hintEM}, {"EM4100", hintEM}, {"EM", hintEM},
		{"Z", hintAir}, // ARE MULTITAG line: Z and the 16-hex code in air order
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
//     000001088420"; the A states an animal tag);
//   - the 4-digit country form "0999 000000123456" and the same 16
//     digits unsplit with the leading zero, as Tru-Test readers send
//     ("0826012345600001");
//   - the reserved-field forms of Allflex (TIRIS style), Datamars and
//     Digi-Star: "LA 00000 0 982 000001088420", "A 00000 0 982
//     000017383201" and "A0000000964000000123456" (A, 5 reserved
//     digits, the data-block flag, a 3- or 4-digit country, 12 digits),
//     and the 23-digit form with the animal flag as its first digit
//     ("10000000964000000123456");
//   - the hex country form CCC.NNNNNNNNNN ("3DD.003BA20748", Biomark);
//   - 16 hex digits, either the 64-bit value (animal flag in the top
//     bit) or the air-order form (bit-reversed; AEG/Trovan ARE readers,
//     Proxmark3 "Raw"), also after the Z of a MULTITAG line
//     ("Z2858997D3A4F0000", air order). A 64-bit reading counts only
//     when its country field is 1–999 and its RFU and user-information
//     bits are zero, as on every chip seen;
//   - AVID: 9 digits, plain or in three groups ("012*345*678",
//     "AVID*012*345*678");
//   - 10 hex digits: a FECAVA / FDX-A code ("4A3D5C1B2E"), a Trovan
//     Unique code when grouped as Trovan readers print them
//     ("00-1234-5678") or after the word TROVAN, an EM4102 number after
//     the word EM4102 or EM, or as the reader's declared form says.
//     Otherwise plain 10 hex digits are FECAVA, the shelter convention
//     (the code is the same text whichever it is; an EM4102 number is
//     told apart only by the reader).
//
// Some texts have more than one reading: 16 digits that are a decimal
// code with a leading zero and a 64-bit hex code, 16 hex digits in both
// bit orders. The reader's declared form (opts.Form) picks one. Without
// it, a reading is dropped only on evidence that it is no chip: a country
// code 1–899 that ISO 3166 does not assign (900–999 are all possible
// manufacturer codes). When more than one reading remains, or none,
// Parse returns an *AmbiguousError naming every candidate; it never
// picks one silently.
//
// Leading and trailing spaces and control characters (CR, LF, STX,
// ETX) are ignored; a whole reader frame with other fields is not
// accepted: drivers cut the number out of their frames. Errors are
// ErrInvalid or an *AmbiguousError (errors.Is(err, ErrAmbiguous)).
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
	if id, ok, err := parseReserved(text, s); ok {
		return id, err
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
	iso := h == hintNone || h == hintISO || h == hintAnimal
	var buf [16]byte
	switch {
	case f.digits && f.total == 15 && iso:
		code := string(f.join(buf[:0]))
		c, err := iso11784.ParseDecimal(code)
		if err != nil {
			return ID{}, fmt.Errorf("%w: %q: %w", ErrInvalid, text, err)
		}
		id := ID{Kind: KindISO, Code: code, ISO: c}
		if h == hintAnimal {
			id = id.withAnimal(true)
		}
		return id, nil

	case f.digits && f.shape(4, 12) && f.group(0)[0] == '0' && iso:
		// The 4-digit country form: split, so no hex reading.
		return decimal(text, f.join(buf[:0])[1:])

	case f.hex && f.shape(3, 10) && f.sep == '.' && iso:
		cc, _ := strconv.ParseUint(f.group(0), 16, 16)
		nat, _ := strconv.ParseUint(f.group(1), 16, 64)
		c, err := iso11784.New(uint16(cc), nat, false)
		if err != nil {
			return ID{}, fmt.Errorf("%w: %q: %w", ErrInvalid, text, err)
		}
		return ID{Kind: KindISO, Code: c.String(), ISO: c}, nil

	case f.hex && f.shape(16) && (iso || h == hintAir):
		if h == hintAir {
			o.Form = FormHexAir
		}
		return parse16(text, f.group(0), o)

	case f.digits && f.total == 9 && (f.shape(9) || f.shape(3, 3, 3) && !f.mixed) && (h == hintNone || h == hintAVID):
		return ID{Kind: KindAVID, Code: string(f.join(buf[:0]))}, nil

	case f.hex && f.total == 10 && (f.shape(10) || f.shape(2, 4, 4) && !f.mixed):
		return parse10(text, string(f.join(buf[:0])), h, f.n == 3 && f.sep == '-', o)
	}
	switch f.total {
	case 9, 10, 15, 16:
		return ID{}, invalid(text, "unknown form")
	}
	return ID{}, invalid(text, fmt.Sprintf("%d characters", f.total))
}

// decimal reads 15 digits.
func decimal(text string, digits []byte) (ID, error) {
	c, err := iso11784.ParseDecimal(string(digits))
	if err != nil {
		return ID{}, fmt.Errorf("%w: %q: %w", ErrInvalid, text, err)
	}
	return ID{Kind: KindISO, Code: c.String(), ISO: c}, nil
}

// parseReserved reads the forms that carry the reserved field and the
// data-block flag: "LA 00000 0 982 000001088420" (Allflex, TIRIS
// style), "A 00000 0 982 000017383201" and "A0000000964000000123456"
// (Datamars, Digi-Star) and the 23-digit form whose first digit is the
// animal flag. ok is false when s has none of these shapes.
func parseReserved(text, s string) (id ID, ok bool, err error) {
	animal := true
	switch {
	case len(s) >= 3 && (s[:3] == "LA " || s[:3] == "la "):
		s = s[3:]
	case len(s) >= 2 && (s[0] == 'A' || s[0] == 'a') && s[1] == ' ':
		s = s[2:]
	case len(s) == 23 && (s[0] == 'A' || s[0] == 'a') && Digits(s[1:]):
		s = s[1:]
	case len(s) == 23 && (s[0] == '0' || s[0] == '1') && Digits(s):
		animal, s = s[0] == '1', s[1:]
	default:
		return ID{}, false, nil
	}
	var res, db, cc, nat string
	switch {
	case len(s) == 22 && Digits(s):
		// 5 reserved digits, the flag, a 4-digit country, 12 digits.
		res, db, cc, nat = s[:5], s[5:6], s[6:10], s[10:]
	case len(s) == 24 && s[5] == ' ' && s[7] == ' ' && s[11] == ' ':
		res, db, cc, nat = s[:5], s[6:7], s[8:11], s[12:]
	case len(s) == 25 && s[5] == ' ' && s[7] == ' ' && s[12] == ' ':
		res, db, cc, nat = s[:5], s[6:7], s[8:12], s[13:]
	default:
		return ID{}, false, nil
	}
	if !Digits(res) || !Digits(cc) || !Digits(nat) || db != "0" && db != "1" || len(cc) == 4 && cc[0] != '0' {
		return ID{}, true, invalid(text, "bad field in a reserved-field form")
	}
	if len(cc) == 4 {
		cc = cc[1:]
	}
	id, err = decimal(text, []byte(cc+nat))
	if err != nil {
		return ID{}, true, err
	}
	id.ISO = id.ISO.WithDataBlock(db == "1")
	return id.withAnimal(animal), true, nil
}

// Digits reports whether s is all ASCII decimal digits (true for "").
func Digits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// withAnimal records the animal flag a reader stated.
func (id ID) withAnimal(on bool) ID {
	id.ISO = id.ISO.WithAnimal(on)
	id.AnimalStated = true
	return id
}

// plausible reports whether c looks like a code from a real chip: a
// country or manufacturer code 1–999, and the RFU and user-information
// bits zero (ISO 11784 Amd 1).
func plausible(c iso11784.Code) bool {
	return c.Valid() == nil && c.Country() != 0 && c.RFU() == 0 && c.UserInfo() == 0
}

// Possible reports whether c can be a real chip's code: a country code
// ISO 3166 assigns (1–899) or a manufacturer or test code (900–999).
// It is the evidence Parse uses to drop a reading.
func Possible(c iso11784.Code) bool {
	cc := c.Country()
	return c.Valid() == nil && (cc >= iso11784.FirstManufacturer && cc <= iso11784.TestCode || iso11784.IsCountryCode(cc))
}

// reading is one way of reading a text, and the form it assumes.
type reading struct {
	id   ID
	form Form
}

// parse16 reads 16 hex digits: the 64-bit value, the air order, and
// when they are all digits with a leading zero, a decimal code.
func parse16(text, g string, o Opts) (ID, error) {
	v, err := strconv.ParseUint(g, 16, 64)
	if err != nil {
		return ID{}, invalid(text, "bad hex")
	}
	val, raw := iso11784.Code(v), iso11784.FromReversed(v)
	switch o.Form {
	case FormHex64:
		if val.Valid() != nil {
			return ID{}, invalid(text, "16 hex digits that are no ISO 11784 code")
		}
		return FromISO(val), nil
	case FormHexAir:
		if raw.Valid() != nil {
			return ID{}, invalid(text, "16 hex digits in air order that are no ISO 11784 code")
		}
		return FromISO(raw), nil
	}
	var rs [3]reading
	n := 0
	add := func(r reading) {
		for _, x := range rs[:n] {
			if x.id.Code == r.id.Code {
				return // the same chip either way
			}
		}
		rs[n] = r
		n++
	}
	if g[0] == '0' && Digits(g) {
		if c, err := iso11784.ParseDecimal(g[1:]); err == nil {
			add(reading{ID{Kind: KindISO, Code: g[1:], ISO: c}, FormDecimal})
		}
	}
	if plausible(val) {
		add(reading{FromISO(val), FormHex64})
	}
	if plausible(raw) {
		add(reading{FromISO(raw), FormHexAir})
	}
	if n == 0 {
		return ID{}, invalid(text, "16 hex digits that are no ISO 11784 code in either bit order")
	}
	return resolve(text, rs[:n], o)
}

// resolve picks among the readings of one text: the only one, the one
// of the declared form, the only possible one; or reports all of them.
func resolve(text string, rs []reading, o Opts) (ID, error) {
	if len(rs) == 1 {
		return rs[0].id, nil
	}
	for _, r := range rs {
		if o.Form != FormAuto && r.form == o.Form {
			return r.id, nil
		}
	}
	var keep []ID
	for _, r := range rs {
		if r.id.Kind != KindISO || Possible(r.id.ISO) {
			keep = append(keep, r.id)
		}
	}
	if len(keep) == 1 {
		return keep[0], nil
	}
	if len(keep) == 0 {
		for _, r := range rs {
			keep = append(keep, r.id)
		}
	}
	return ID{}, &AmbiguousError{Input: text, Candidates: keep, locale: o.Locale}
}

// parse10 reads 10 hex digits by the word before them, the grouping and
// the declared form.
func parse10(text, code string, h hint, trovanGrouping bool, o Opts) (ID, error) {
	k := KindFECAVA
	switch {
	case h == hintTrovan || h == hintNone && trovanGrouping:
		k = KindTrovan
	case h == hintEM:
		k = KindEM4102
	case h == hintFECAVA:
	case h != hintNone:
		return ID{}, invalid(text, "10 hex digits after a word for another kind")
	default:
		switch o.Form {
		case FormTrovan:
			k = KindTrovan
		case FormEM4102:
			k = KindEM4102
		}
	}
	if k == KindTrovan && code[0] > '7' {
		return ID{}, invalid(text, "a Trovan Unique code has 39 bits")
	}
	return ID{Kind: k, Code: code}, nil
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
