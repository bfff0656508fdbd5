package sqlite

import (
	"strings"
	"testing"
)

// TestSearchPlans: every search statement finds its rows through an
// index (the FTS5 tables, owners_phone_digits, the chips' code key),
// never by scanning owners, animals or chips, so a search costs the same
// at a million animals as at ten.
func TestSearchPlans(t *testing.T) {
	t.Parallel()
	db := openTemp(t, nil)
	for _, tc := range []struct {
		name, query string
		args        []any
		uses        string
	}{
		{"owners", ownerSearchSQL, []any{`"ortega"*`, 25}, "VIRTUAL TABLE INDEX"},
		{"animals", animalSearchSQL, []any{`"rex"*`, 25}, "VIRTUAL TABLE INDEX"},
		{"phone", phoneSQL(2), []any{"6125550164", "16125550164", 25}, "owners_phone_digits"},
		{"chip prefix", chipPrefixSQL, []any{"98200", "98200\uffff", 25}, "SEARCH chips USING INDEX"},
	} {
		plan := queryPlan(t, db, tc.query, tc.args...)
		all := strings.Join(plan, "\n")
		if !strings.Contains(all, tc.uses) {
			t.Errorf("%s: plan does not use %s:\n%s", tc.name, tc.uses, all)
		}
		for _, d := range plan {
			for _, table := range []string{"SCAN owners", "SCAN animals", "SCAN chips"} {
				if d == table || strings.HasPrefix(d, table+" ") {
					t.Errorf("%s: plan step %q scans a table:\n%s", tc.name, d, all)
				}
			}
		}
	}
}
