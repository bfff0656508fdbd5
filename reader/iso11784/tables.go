package iso11784

import (
	"bufio"
	_ "embed"
	"fmt"
	"strconv"
	"strings"
	"sync"
)

// The tables are data files embedded in the binary and parsed once, on
// first use, into values that are never written again.

//go:embed data/countries.txt
var countriesTxt string

//go:embed data/manufacturers.txt
var manufacturersTxt string

// rule names the manufacturer of the codes whose 15-digit form starts
// with prefix, for some locales.
type rule struct {
	prefix  string
	locales []string // nil: every locale
	name    string
}

type tables struct {
	countries map[uint16]string
	rules     []rule // in file order
}

// loadTables parses the embedded files. They are part of the source, so
// a syntax error in them is caught by the package tests; at run time a
// bad line is skipped rather than crashing the caller.
var loadTables = sync.OnceValue(func() *tables {
	t, _ := parseTables(countriesTxt, manufacturersTxt)
	return t
})

// parseTables parses both files, returning every well-formed entry and
// the first error met.
func parseTables(countries, manufacturers string) (*tables, error) {
	t := &tables{countries: make(map[uint16]string, 256)}
	var first error
	note := func(err error) {
		if first == nil {
			first = err
		}
	}
	eachLine(countries, func(n int, line string) {
		code, name, ok := strings.Cut(line, "\t")
		v, err := strconv.ParseUint(code, 10, 16)
		if !ok || err != nil || len(code) != 3 || v == 0 || v >= FirstManufacturer || name == "" {
			note(fmt.Errorf("iso11784: countries line %d: %q", n, line))
			return
		}
		if _, dup := t.countries[uint16(v)]; dup {
			note(fmt.Errorf("iso11784: countries line %d: duplicate %s", n, code))
			return
		}
		t.countries[uint16(v)] = name
	})
	eachLine(manufacturers, func(n int, line string) {
		f := strings.Split(line, "\t")
		if len(f) != 3 || len(f[0]) < 3 || len(f[0]) > 15 || !allDigits(f[0]) || f[1] == "" || f[2] == "" {
			note(fmt.Errorf("iso11784: manufacturers line %d: %q", n, line))
			return
		}
		r := rule{prefix: f[0], name: f[2]}
		if f[1] != "*" {
			for _, l := range strings.Split(f[1], ",") {
				r.locales = append(r.locales, NormLocale(l))
			}
		}
		t.rules = append(t.rules, r)
	})
	return t, first
}

func eachLine(s string, f func(n int, line string)) {
	sc := bufio.NewScanner(strings.NewReader(s))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimRight(sc.Text(), " \r")
		if line == "" || line[0] == '#' {
			continue
		}
		f(n, line)
	}
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// NormLocale maps "en-us", "en_US.UTF-8" and "en" to the "en_US" style:
// the language in lower case, the region in upper case. The bare
// language "en" is taken as en_US, the default of the shelter software
// whose labels the tables follow. Package chipid uses it for its
// non-ISO prefix rules, so both name chips for the same locales.
func NormLocale(l string) string {
	l = strings.TrimSpace(l)
	if i := strings.IndexAny(l, ".@"); i >= 0 {
		l = l[:i]
	}
	lang, region, _ := strings.Cut(strings.ReplaceAll(l, "-", "_"), "_")
	lang = strings.ToLower(lang)
	region = strings.ToUpper(region)
	if lang == "en" && region == "" {
		region = "US"
	}
	if region == "" {
		return lang
	}
	return lang + "_" + region
}

// matches reports whether the rule applies to the normalised locale.
func (r *rule) matches(locale string) bool {
	if r.locales == nil {
		return true
	}
	for _, l := range r.locales {
		if LocaleMatches(l, locale) {
			return true
		}
	}
	return false
}

// LocaleMatches reports whether a rule written for ruleLocale applies to
// locale, both normalised by NormLocale: the same locale, or a bare
// language rule ("pt") for any region of that language ("pt_BR").
func LocaleMatches(ruleLocale, locale string) bool {
	if ruleLocale == locale {
		return true
	}
	return !strings.Contains(ruleLocale, "_") && strings.HasPrefix(locale, ruleLocale) &&
		len(locale) > len(ruleLocale) && locale[len(ruleLocale)] == '_'
}

// lookup returns the name of the best rule for digits: the longest
// prefix, and for equal prefixes a locale rule over a "*" rule.
func (t *tables) lookup(digits, locale string) (string, bool) {
	best, bestLen, bestLocal := "", 0, false
	for i := range t.rules {
		r := &t.rules[i]
		if len(r.prefix) > len(digits) || digits[:len(r.prefix)] != r.prefix || !r.matches(locale) {
			continue
		}
		local := r.locales != nil
		if len(r.prefix) > bestLen || (len(r.prefix) == bestLen && local && !bestLocal) {
			best, bestLen, bestLocal = r.name, len(r.prefix), local
		}
	}
	return best, bestLen > 0
}

// CountryName returns the ISO 3166-1 English short name of a numeric
// country code (1–899).
func CountryName(code uint16) (string, bool) {
	name, ok := loadTables().countries[code]
	return name, ok
}

// IsCountryCode reports whether code is an ISO 3166-1 numeric country
// code in the table.
func IsCountryCode(code uint16) bool {
	_, ok := loadTables().countries[code]
	return ok
}

// IsManufacturerCode reports whether code is in the manufacturer range
// 900–998 (ISO 11784 clause 5; codes granted by ICAR, 900 shared).
func IsManufacturerCode(code uint16) bool {
	return code >= FirstManufacturer && code <= LastManufacturer
}

// IsTestCode reports whether code is 999, the test-transponder code.
func IsTestCode(code uint16) bool { return code == TestCode }

// Manufacturer returns the name of the holder of a manufacturer code
// (900–999) for a locale such as "en_US" or "en_AU": the same code is
// known under different brands in different markets (985 is HomeAgain in
// the United States and Lifechip in Australia). Only rules for the whole
// three-digit code are used; Code.Manufacturer also reads the product
// ranges inside a code (900164 Save This Life, 982009 Allflex).
func Manufacturer(code uint16, locale string) (string, bool) {
	if code > MaxCountry {
		return "", false
	}
	var d [3]byte
	d[0], d[1], d[2] = byte('0'+code/100), byte('0'+code/10%10), byte('0'+code%10)
	return loadTables().lookup(string(d[:]), NormLocale(locale))
}

// Manufacturer returns the manufacturer or product range that c belongs
// to for a locale, using the longest matching prefix of its 15-digit
// form. It reports false for country codes and unlisted manufacturer
// codes (including codes in the shared range 900 outside a listed
// product range).
func (c Code) Manufacturer(locale string) (string, bool) {
	if c.Valid() != nil {
		return "", false
	}
	return loadTables().lookup(c.String(), NormLocale(locale))
}
