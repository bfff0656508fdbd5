package service

import (
	"unicode"
	"unicode/utf8"
)

// Bounds on what a person types (OWASP ASVS 5.1.4: structured data is
// checked against a defined range and length).
const (
	// MaxNameLen is the most characters of a name (person, animal,
	// token, account, reader).
	MaxNameLen = 200
	// MaxTextLen is the most characters of a free text (a description,
	// an address, a note).
	MaxTextLen = 4000
)

// CheckName reports whether s is fit to store as a name: valid UTF-8,
// at most max characters, no control characters and no bidirectional
// formatting characters (Unicode UAX #9: the embeddings, overrides and
// isolates U+202A-U+202E, U+2066-U+2069, and the marks U+200E, U+200F,
// U+061C), which would make a name read differently from what it holds
// ("Trojan Source", CVE-2021-42574). field names the field in the error.
func CheckName(field, s string, max int) error {
	return checkText(field, s, max, false)
}

// CheckText is CheckName for a free text: line breaks and tabs are
// allowed.
func CheckText(field, s string, max int) error {
	return checkText(field, s, max, true)
}

func checkText(field, s string, max int, lines bool) error {
	if !utf8.ValidString(s) {
		return FieldErrorf(EINVALID, field, "The %s is not valid UTF-8.", field)
	}
	if n := utf8.RuneCountInString(s); n > max {
		return FieldErrorf(EINVALID, field, "The %s is too long (%d characters; at most %d).", field, n, max)
	}
	for _, r := range s {
		if lines && (r == '\n' || r == '\r' || r == '\t') {
			continue
		}
		if unicode.IsControl(r) || IsBidiControl(r) {
			return FieldErrorf(EINVALID, field, "The %s holds a control or text-direction character (U+%04X).", field, r)
		}
	}
	return nil
}

// IsBidiControl reports whether r is a bidirectional formatting
// character (Unicode UAX #9 section 2).
func IsBidiControl(r rune) bool {
	switch {
	case r >= 0x202A && r <= 0x202E, r >= 0x2066 && r <= 0x2069, r == 0x200E, r == 0x200F, r == 0x061C:
		return true
	}
	return false
}
