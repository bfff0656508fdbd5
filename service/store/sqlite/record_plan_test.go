package sqlite

import (
	"context"
	"strings"
	"testing"
)

// TestRecordPlans checks the query plans of the record statements: every
// branch of the UNION ALL finds the animal's rows by an index search,
// never by scanning a table, so a lookup costs the same at a million
// animals as at ten.
func TestRecordPlans(t *testing.T) {
	t.Parallel()
	db := openTemp(t, nil)
	live := 0
	for _, p := range recordParts {
		if !p.inRow {
			live++
		}
	}
	// One search per branch, the owner's join, and the chip key; for the
	// lookup row, the row, the mark check and one per live part.
	for _, tc := range []struct {
		name, query string
		searches    int
		scan        string // the one scan allowed
	}{
		{"recordSQL", recordSQL(false), len(recordParts) + 1, ""},
		{"chipRecordSQL", chipRecordSQL(), len(recordParts) + 1, ""},
		{"chipRowSQL", chipRowSQL(), live + 2, ""},
		{"animalRowSQL", animalRowSQL(), live + 2, ""},
		// The rebuild: the row's animal, the owner, chips, vaccination,
		// designation, chips of the animal.
		{"lookupRebuildSQL", lookupRebuildSQL(nil, false)[1], 6, ""},
		// In code order: the chips through their code index (that it
		// adds no sort is checked below).
		{"lookupRebuildSQL ordered", lookupRebuildSQL(nil, true)[1], 5, "SCAN " + lookupRowChip + " USING INDEX sqlite_autoindex_chips_1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			plan := queryPlan(t, db, tc.query, "2025-01-01", 1, 0, nil)
			searches := 0
			for _, d := range plan {
				switch {
				case strings.HasPrefix(d, "SEARCH "):
					searches++
				case strings.HasPrefix(d, "SCAN ") && !strings.HasPrefix(d, "SCAN (subquery") && d != "SCAN k" && d != "SCAN d" && d != tc.scan:
					t.Errorf("plan step %q scans a table", d)
				}
			}
			if want := tc.searches; searches < want {
				t.Errorf("plan has %d index searches, want at least %d:\n%s", searches, want, strings.Join(plan, "\n"))
			}
		})
	}
	// The rebuild in code order sorts no more than the other (the
	// parts' own ORDER BY ... LIMIT 1 sort): the code index gives the
	// order.
	sorts := func(q string) (n int) {
		for _, d := range queryPlan(t, db, q, "2025-01-01", 1, 0, nil) {
			if strings.HasPrefix(d, "USE TEMP B-TREE") {
				n++
			}
		}
		return n
	}
	if o, u := sorts(lookupRebuildSQL(nil, true)[1]), sorts(lookupRebuildSQL(nil, false)[1]); o != u {
		t.Errorf("the rebuild in code order sorts %d times, the other %d", o, u)
	}
}

// queryPlan is the EXPLAIN QUERY PLAN of query with args, one detail
// line per step.
func queryPlan(t *testing.T, db *DB, query string, args ...any) []string {
	t.Helper()
	rows, err := db.rdb.QueryContext(context.Background(), "EXPLAIN QUERY PLAN "+query, args...)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var plan []string
	for rows.Next() {
		var id, parent, unused int
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			t.Fatal(err)
		}
		plan = append(plan, detail)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return plan
}
