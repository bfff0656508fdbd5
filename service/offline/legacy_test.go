package offline

import (
	"encoding/json"
	"regexp"
	"testing"
)

func TestUpgradeJSON(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ name, in, want string }{
		{"snake kept as is", `{"animal_id":7,"chip_code":"985141000123456"}`, `{"animal_id":7,"chip_code":"985141000123456"}`},
		{"old names", `{"animalId":7,"chipCode":"985141000123456","kind":"scan"}`, `{"animal_id":7,"chip_code":"985141000123456","kind":"scan"}`},
		{"nested and in lists", `{"matchedChip":{"implantDate":"2024-01-02"},"licences":[{"tagNumber":12,"feeCents":1500}]}`,
			`{"licences":[{"fee_cents":1500,"tag_number":12}],"matched_chip":{"implant_date":"2024-01-02"}}`},
		{"values untouched", `{"createdAt":"x","notes":"saw \"bigDog\": loose","at":"2026-03-15T14:00:00Z"}`,
			`{"at":"2026-03-15T14:00:00Z","created_at":"x","notes":"saw \"bigDog\": loose"}`},
		{"numbers digit for digit", `{"recordId":9007199254740993,"cents":12.50}`, `{"cents":12.50,"record_id":9007199254740993}`},
		{"a camel name only in a value", `{"notes":"\"bigDog\": loose"}`, `{"notes":"\"bigDog\": loose"}`},
	} {
		got, err := upgradeJSON([]byte(tt.in))
		if err != nil {
			t.Errorf("%s: upgradeJSON(%s): %v", tt.name, tt.in, err)
			continue
		}
		if string(got) != tt.want {
			t.Errorf("%s: upgradeJSON(%s) = %s, want %s", tt.name, tt.in, got, tt.want)
		}
	}
	if _, err := upgradeJSON([]byte(`{"animalId":`)); err == nil {
		t.Error("upgradeJSON of broken JSON with an old name: no error")
	}
}

// FuzzUpgradeJSON: any JSON upgrades to JSON that decodes to the same
// values, with no old name left among its keys.
func FuzzUpgradeJSON(f *testing.F) {
	f.Add(`{"animalId":7,"scan":{"chipCode":"x"},"items":[{"tagNumber":1}]}`)
	f.Add(`[{"a":1},{"bC":"dE"}]`)
	f.Fuzz(func(t *testing.T, in string) {
		var before any
		if json.Unmarshal([]byte(in), &before) != nil {
			return
		}
		out, err := upgradeJSON([]byte(in))
		if err != nil {
			t.Fatalf("upgradeJSON(%q): %v", in, err)
		}
		var after any
		if err := json.Unmarshal(out, &after); err != nil {
			t.Fatalf("upgradeJSON(%q) = %q, not JSON: %v", in, out, err)
		}
		again, err := upgradeJSON(out)
		if err != nil || string(again) != string(out) {
			t.Fatalf("upgradeJSON not idempotent: %q then %q (%v)", out, again, err)
		}
		if countValues(before) != countValues(after) {
			t.Fatalf("upgradeJSON(%q) = %q: values changed", in, out)
		}
	})
}

// countValues counts the scalar values in v, keys aside.
func countValues(v any) int {
	switch x := v.(type) {
	case map[string]any:
		n := 0
		for _, e := range x {
			n += countValues(e)
		}
		return n
	case []any:
		n := 0
		for _, e := range x {
			n += countValues(e)
		}
		return n
	}
	return 1
}

// camelKeyRE is the expression hasCamelKey scans for, the test's oracle.
var camelKeyRE = regexp.MustCompile(`"[a-z][a-z0-9]*[A-Z][A-Za-z0-9]*"\s*:`)

func TestHasCamelKey(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		in   string
		want bool
	}{
		{`{"animal_id":7}`, false},
		{`{"animalId":7}`, true},
		{`{"animalId" :7}`, true},
		{"{\"animalId\"\t\r\n\f :7}", true},
		{"{\"animalId\"\v:7}", false},
		{`{"notes":"\"bigDog\": loose"}`, false},
		{`{"a":"x","b":["tagNumber"]}`, false},
		{`{"tagNumber"`, false},
		{`{"AnimalId":1}`, false},
		{`{"a1B2":1}`, true},
		{`{"ab":1,"cD":2}`, true},
		{`"`, false},
		{``, false},
	} {
		if got := hasCamelKey([]byte(tt.in)); got != tt.want || got != camelKeyRE.MatchString(tt.in) {
			t.Errorf("hasCamelKey(%q) = %v, want %v (the expression: %v)", tt.in, got, tt.want, camelKeyRE.MatchString(tt.in))
		}
	}
}

// FuzzHasCamelKey: the scan agrees with the expression on any bytes.
func FuzzHasCamelKey(f *testing.F) {
	f.Add(`{"animalId":7,"notes":"\"bigDog\": x"}`)
	f.Add(`{"a":"b"}`)
	f.Fuzz(func(t *testing.T, in string) {
		if got, want := hasCamelKey([]byte(in)), camelKeyRE.MatchString(in); got != want {
			t.Fatalf("hasCamelKey(%q) = %v, the expression says %v", in, got, want)
		}
	})
}
