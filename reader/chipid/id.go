package chipid

import (
	"strings"

	"github.com/chipdesk/chipdesk/reader/iso11784"
)

// String returns the form people read and Parse reads back to the same
// kind and code: "985 121004515220" for ISO, "AVID*012*345*678" for
// AVID, "4A3D5C1B2E" for FECAVA, "00-1234-5678" for Trovan, and "" for
// the zero ID.
func (id ID) String() string {
	switch id.Kind {
	case KindISO:
		return id.ISO.Display()
	case KindAVID:
		if len(id.Code) == 9 {
			return "AVID*" + id.Code[:3] + "*" + id.Code[3:6] + "*" + id.Code[6:]
		}
	case KindTrovan:
		if len(id.Code) == 10 {
			return id.Code[:2] + "-" + id.Code[2:6] + "-" + id.Code[6:]
		}
	}
	return id.Code
}

// Animal reports the animal flag of an ISO code, and whether it is
// known: when the id came with all 64 bits (Full) or the reader stated
// it (AnimalStated). The bare 15-digit form and the non-ISO codes do not
// carry it.
func (id ID) Animal() (animal, known bool) {
	if id.Kind != KindISO || !id.Full && !id.AnimalStated {
		return false, false
	}
	return id.ISO.Animal(), true
}

// Manufacturer names who made or registers the chip, for a locale such
// as "en_US" or "en_AU", or returns "" when unknown.
//
// ISO codes are named by the manufacturer table of package iso11784
// (longest prefix: 985 HomeAgain in en_US and Lifechip in en_AU,
// 982009 Allflex, 900164 Save This Life), and codes 1–899 by their
// ISO 3166 country name. AVID codes are "AVID", Trovan codes "Trovan";
// FECAVA codes go by the prefix rules shelters use (Animal Shelter
// Manager's chip prefix list): "4…" HomeAgain, "1…A…" AVID, "0A1"/"9A1"
// 24PetWatch, "0A0"/"7E1" Microchip ID, "0D0D" Banfield, "0C0" M4S ID,
// "000" AKC Reunite in en_US and Trovan in en_AU.
func (id ID) Manufacturer(locale string) string {
	switch id.Kind {
	case KindISO:
		if name, ok := id.ISO.ID15().Manufacturer(locale); ok {
			return name
		}
		if name, ok := iso11784.CountryName(id.ISO.Country()); ok {
			return name
		}
	case KindAVID:
		return "AVID"
	case KindTrovan:
		return "Trovan"
	case KindFECAVA:
		l := iso11784.NormLocale(locale)
		for _, r := range fecavaRules() {
			if r.locale != "" && !iso11784.LocaleMatches(r.locale, l) {
				continue
			}
			if r.match(id.Code) {
				return r.name
			}
		}
	}
	return ""
}

// fecavaRule names the maker of 10-character codes by their start:
// prefix, then (when digitsThen is set) one or more digits followed by
// digitsThen. Rules are tried in order; the first that matches wins.
type fecavaRule struct {
	prefix     string
	digitsThen byte
	locale     string // "" for every locale
	name       string
}

// fecavaRules follow Animal Shelter Manager's chip prefix list
// (chipprefix/chipprefixes.txt, the 10-character rules).
func fecavaRules() [10]fecavaRule {
	return [...]fecavaRule{
		{prefix: "1", digitsThen: 'A', name: "AVID"},
		{prefix: "4", name: "HomeAgain"},
		{prefix: "0A1", name: "24PetWatch"},
		{prefix: "9A1", name: "24PetWatch"},
		{prefix: "0A0", name: "Microchip ID"},
		{prefix: "7E1", name: "Microchip ID"},
		{prefix: "0D0D", name: "Banfield"},
		{prefix: "0C0", name: "M4S ID"},
		{prefix: "000", locale: "en_US", name: "AKC Reunite"},
		{prefix: "000", locale: "en_AU", name: "Trovan"},
	}
}

func (r *fecavaRule) match(code string) bool {
	if !strings.HasPrefix(code, r.prefix) {
		return false
	}
	if r.digitsThen == 0 {
		return true
	}
	rest := code[len(r.prefix):]
	i := 0
	for i < len(rest) && rest[i] >= '0' && rest[i] <= '9' {
		i++
	}
	return i > 0 && i < len(rest) && rest[i] == r.digitsThen
}
