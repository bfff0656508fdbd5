package offline

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// keyLines are record lines of every shape readKeys meets: the
// service's own, old and odd spellings, and lines it must refuse.
var keyLines = []string{
	`{"animal":{"id":1,"owner_id":1,"name":"Mia","species":"dog","created_at":"0001-01-01T00:00:00Z"},"owner":{"id":1,"name":"Lena Hansen","phone":"612-555-2333"},"chips":[{"id":1,"animal_id":1,"code":"982000000000108","kind":"iso11784"}],"licences":[{"id":1,"animal_id":1,"kind":"licence","jurisdiction":"chanhassen","year":2026,"tag_number":1,"issued_on":"2026-02-17"}],"rabies":{"id":1,"date":"2025-07-02"},"quarantines":[],"impounds":[],"bites":[]}`,
	`{"animal":{"id":7},"chips":[{"code":"985141000000001"},{"code":"012345678"}],"licences":[{"jurisdiction":"minneapolis","year":2026,"tag_number":7},{"jurisdiction":"minneapolis","year":2024,"tag_number":3}]}`,
	` { "Animal" : { "ID" : 3 } , "CHIPS" : [ { "Code" : "x" } ] } `,
	`{"animal":{"id":3,"description":"white blaze,\n \"limps\" \u00e9 {[","x":[1,{"a":[]},"]"]},"chips":null,"licences":[]}`,
	`{"animal":{"id":3},"chips":[{"code":"a\u0062c"},{"code":"\u00e9t\u00e9"},null,{"code":null}]}`,
	`{"animal":{"id":3},"ch\u0069ps":[{"cod\u0065":"q"}]}`,
	`{"animal":{"id":1},"animal":{"name":"again"},"chips":[{"code":"a"},{"code":"b"}],"chips":[{"kind":"x"}]}`,
	`{"animal":{"id":2},"licences":[{"year":-0,"tag_number":12}],"rabies":true,"owner":null}`,
	`{"animal":null}`,
	`{"animal":{"id":"1"}}`,
	`{"animal":{"id":1.0}}`,
	`{"animal":{"id":1e3}}`,
	`{"animal":{"id":99999999999999999999}}`,
	`{"animal":[1]}`,
	`{"animal":{"id":1},"chips":{"code":"a"}}`,
	`{"animal":{"id":1},"chips":[5]}`,
	`{"animal":{"id":1},"chips":[{"code":5}]}`,
	`{"animal":{"id":1},"licences":[{"year":"2026"}]}`,
	`{"animal":{"id":1},"licences":[{"year":true}]}`,
	`{"animal":{"id":1}`,
	`{"animal":{"id":1}} x`,
	`[]`,
	`"animal"`,
	`null`,
	``,
	"{\"animal\":{\"id\":1},\"chips\":[{\"code\":\"\xff\xfe\"}]}",
}

// sameAsUnmarshal fails unless readKeys answers line as json.Unmarshal
// into recordKeys does: an error for the same lines, the same keys for
// the others.
func sameAsUnmarshal(t *testing.T, line []byte) {
	t.Helper()
	var want, got recordKeys
	werr := json.Unmarshal(line, &want)
	gerr := readKeys(line, &got)
	if (werr == nil) != (gerr == nil) {
		t.Fatalf("readKeys(%q) = %v, json.Unmarshal %v", line, gerr, werr)
	}
	if werr == nil && !reflect.DeepEqual(got, want) {
		t.Fatalf("readKeys(%q) = %+v, json.Unmarshal %+v", line, got, want)
	}
}

func TestReadKeys(t *testing.T) {
	for _, l := range keyLines {
		sameAsUnmarshal(t, []byte(l))
	}
	// A skipped value nested as deep as encoding/json allows, and one
	// level deeper, which it refuses.
	for _, n := range []int{9999, 10000} {
		deep := strings.Repeat("[", n) + strings.Repeat("]", n)
		sameAsUnmarshal(t, []byte(`{"animal":{"id":1},"owner":`+deep+`}`))
	}
}

// FuzzReadKeys: for any line, readKeys refuses what json.Unmarshal
// refuses and decodes the same keys from the rest.
func FuzzReadKeys(f *testing.F) {
	for _, l := range keyLines {
		f.Add([]byte(l))
	}
	f.Fuzz(func(t *testing.T, line []byte) { sameAsUnmarshal(t, line) })
}

// BenchmarkReadKeys reads the keys of a record line of the bench data
// set by readKeys (keys) and by json.Unmarshal (unmarshal), its way
// before.
func BenchmarkReadKeys(b *testing.B) {
	line := []byte(keyLines[0])
	b.Run("keys", func(b *testing.B) {
		for b.Loop() {
			var k recordKeys
			if err := readKeys(line, &k); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("unmarshal", func(b *testing.B) {
		for b.Loop() {
			var k recordKeys
			if err := json.Unmarshal(line, &k); err != nil {
				b.Fatal(err)
			}
		}
	})
}
