package offline

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strings"
	"unicode"
)

// Until chipdesk's JSON names were all snake_case, the records and
// events a handheld stores and the sync stream carried camelCase names
// ("animalId", "chipCode", "createdAt"). A replica written then, a
// handheld not yet upgraded pushing to an upgraded central service, or
// the other way round, still works: such JSON is read with its names
// rewritten to today's, by upgradeJSON.

// camelKey finds an object key with an upper-case letter after a
// lower-case start: the mark of the old names. A quoted key inside a
// string value is escaped (\"), so it does not match.
var camelKey = regexp.MustCompile(`"[a-z][a-z0-9]*[A-Z][A-Za-z0-9]*"\s*:`)

// upgradeJSON returns b with every object key in camelCase rewritten to
// snake_case ("matchedChip" to "matched_chip"); values are kept as they
// are, numbers digit for digit. JSON without such a key is returned as
// it is.
func upgradeJSON(b []byte) ([]byte, error) {
	if !camelKey.Match(b) {
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
