package offline

import (
	"bytes"
	"encoding/json"
	"strings"
	"unicode"
)

// Until chipdesk's JSON names were all snake_case, the records and
// events a handheld stores and the sync stream carried camelCase names
// ("animalId", "chipCode", "createdAt"). A replica written then, a
// handheld not yet upgraded pushing to an upgraded central service, or
// the other way round, still works: such JSON is read with its names
// rewritten to today's, by upgradeJSON.

// hasCamelKey reports whether b holds an object key with an upper-case
// letter after a lower-case start, "[a-z][a-z0-9]*[A-Z][A-Za-z0-9]*"
// then white space and a colon: the mark of the old names. A quoted key
// inside a string value is escaped (\"), so it does not match. A scan
// of its own, not a regular expression: it runs on every line of a pull,
// and the expression's backtracking was a tenth of a large pull's time.
func hasCamelKey(b []byte) bool {
	for i := 0; ; {
		q := bytes.IndexByte(b[i:], '"')
		if q < 0 {
			return false
		}
		i += q + 1
		if camelKeyAt(b[i:]) {
			return true
		}
	}
}

// camelKeyAt reports whether b starts with the rest of a camelCase key
// after its opening quote. The classes follow each other without
// overlap, so one pass decides.
func camelKeyAt(b []byte) bool {
	lower := func(c byte) bool { return c >= 'a' && c <= 'z' }
	upper := func(c byte) bool { return c >= 'A' && c <= 'Z' }
	digit := func(c byte) bool { return c >= '0' && c <= '9' }
	i := 0
	if i >= len(b) || !lower(b[i]) {
		return false
	}
	for i++; i < len(b) && (lower(b[i]) || digit(b[i])); i++ {
	}
	if i >= len(b) || !upper(b[i]) {
		return false
	}
	for i++; i < len(b) && (lower(b[i]) || upper(b[i]) || digit(b[i])); i++ {
	}
	if i >= len(b) || b[i] != '"' {
		return false
	}
	// RE2's \s: tab, newline, form feed, carriage return, space.
	for i++; i < len(b) && (b[i] == '\t' || b[i] == '\n' || b[i] == '\f' || b[i] == '\r' || b[i] == ' '); i++ {
	}
	return i < len(b) && b[i] == ':'
}

// upgradeJSON returns b with every object key in camelCase rewritten to
// snake_case ("matchedChip" to "matched_chip"); values are kept as they
// are, numbers digit for digit. JSON without such a key is returned as
// it is.
func upgradeJSON(b []byte) ([]byte, error) {
	if !hasCamelKey(b) {
		return b, nil
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return json.Marshal(snakeKeys(v))
}

// unmarshal decodes JSON into v, old names read as today's.
func unmarshal(b []byte, v any) error {
	b, err := upgradeJSON(b)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, v)
}

func snakeKeys(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			n := snakeCase(k)
			if _, both := x[n]; both && n != k {
				n = k // never written by chipdesk; kept rather than lost
			}
			out[n] = snakeKeys(e)
		}
		return out
	case []any:
		for i, e := range x {
			x[i] = snakeKeys(e)
		}
	}
	return v
}

// snakeCase is the snake_case of a camelCase name: "durationMonths" is
// "duration_months". A name already snake_case is kept.
func snakeCase(k string) string {
	var b strings.Builder
	for i, r := range k {
		if unicode.IsUpper(r) {
			if i > 0 {
				b.WriteByte('_')
			}
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}
