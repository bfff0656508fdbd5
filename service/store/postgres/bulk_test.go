package postgres_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/chipdesk/chipdesk/reader/chipid"
	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/store/postgres"
	"github.com/chipdesk/chipdesk/service/store/postgres/pgtest"
)

// bigBatch is an import large enough that the store builds the plain
// indexes and foreign keys of its empty tables after the COPY: n owners,
// an animal and a chip each; the animal of badOwner (an index, -1 for
// none) refers to an owner that does not exist.
func bigBatch(n, badOwner int) *service.Batch {
	b := &service.Batch{}
	for i := 1; i <= n; i++ {
		b.Owners = append(b.Owners, &service.Owner{ID: int64(i), Name: fmt.Sprintf("Owner %d", i)})
		owner := int64(i)
		if i-1 == badOwner {
			owner = int64(n + 1000)
		}
		b.Animals = append(b.Animals, &service.Animal{ID: int64(i), OwnerID: owner, Name: "Rex", Species: service.Dog})
		b.Chips = append(b.Chips, &service.Chip{ID: int64(i), AnimalID: int64(i), Code: fmt.Sprintf("985%012d", i), Kind: chipid.KindISO})
	}
	return b
}

// TestImportBuildsChecksAfter: a large import into empty tables, whose
// indexes and foreign keys are made after the load, leaves the same
// ones in place, and a reference the load broke fails the whole import
// with nothing stored (all or nothing) and the checks still there.
func TestImportBuildsChecksAfter(t *testing.T) {
	ctx := context.Background()
	now := func() time.Time { return time.Date(2026, 3, 15, 12, 0, 0, 0, time.UTC) }
	tables := []string{"owners", "animals", "chips"}
	checks := func(db *postgres.DB) map[string][]string {
		t.Helper()
		m := map[string][]string{}
		for _, table := range tables {
			c, err := postgres.ChecksForTest(ctx, db, table)
			if err != nil {
				t.Fatalf("checks of %s: %v", table, err)
			}
			m[table] = c
		}
		return m
	}
	same := func(what string, got, want map[string][]string) {
		t.Helper()
		for _, table := range tables {
			if !slices.Equal(got[table], want[table]) {
				t.Errorf("%s: checks of %s = %q, want %q", what, table, got[table], want[table])
			}
		}
	}
	const n = 12_000

	db := pgtest.Open(t, now)
	before := checks(db)
	if len(before["animals"]) < 3 {
		t.Fatalf("animals have checks %q: want the key, the owner index and foreign key", before["animals"])
	}
	if err := db.Import(ctx, bigBatch(n, -1)); err != nil {
		t.Fatalf("Import: %v", err)
	}
	same("after an import", checks(db), before)
	r, err := db.FindRecordByChip(ctx, fmt.Sprintf("985%012d", n/2))
	if err != nil || r.Animal.ID != n/2 || r.Owner == nil || r.Owner.ID != n/2 {
		t.Fatalf("FindRecordByChip after import = %+v, %v", r, err)
	}

	bad := pgtest.Open(t, now)
	err = bad.Import(ctx, bigBatch(n, n-3))
	if err == nil {
		t.Fatal("Import with an animal of a missing owner: no error")
	}
	same("after a failed import", checks(bad), before)
	animals := 0
	if err := bad.EachAnimal(ctx, func(*service.Animal) error { animals++; return nil }); err != nil || animals != 0 {
		t.Fatalf("after a failed import: %d animals (%v), want none", animals, err)
	}
}

// TestImportMarksChanges: an import, whose sync triggers are silent,
// enters every animal it loaded, and every animal whose licences it
// loaded, in the change sequence of the handhelds' pulls: into empty
// tables (read whole) and beside other rows (read by id).
func TestImportMarksChanges(t *testing.T) {
	ctx := context.Background()
	now := func() time.Time { return time.Date(2026, 3, 15, 12, 0, 0, 0, time.UTC) }
	changed := func(db *postgres.DB, since string) []int64 {
		t.Helper()
		var ids []int64
		if err := db.ChangedAnimals(ctx, since, func(id int64) error { ids = append(ids, id); return nil }); err != nil {
			t.Fatalf("ChangedAnimals: %v", err)
		}
		slices.Sort(ids)
		return ids
	}
	licences := func(ids ...int64) *service.Batch {
		b := &service.Batch{}
		for _, id := range ids {
			b.Licences = append(b.Licences, &service.Licence{ID: id, AnimalID: id, Kind: service.KindLicence, Jurisdiction: "minneapolis",
				Year: 2026, TagNumber: int(id), IssuedOn: service.MustDate("2026-01-10"), ExpiresOn: service.MustDate("2026-12-31"),
				Status: service.LicenceActive, FeeCode: "altered", IssuedBy: "office"})
		}
		return b
	}
	for _, tc := range []struct {
		name   string
		before int // animals stored before the import
	}{
		{"empty store", 0},
		{"store holding animals", 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db := pgtest.Open(t, now)
			const n = 5
			all := bigBatch(tc.before+n, -1)
			if tc.before > 0 {
				first := &service.Batch{Owners: all.Owners[:tc.before], Animals: all.Animals[:tc.before], Chips: all.Chips[:tc.before]}
				if err := db.Import(ctx, first); err != nil {
					t.Fatalf("Import of the first animals: %v", err)
				}
			}
			cursor, err := db.ChangeCursor(ctx)
			if err != nil {
				t.Fatal(err)
			}
			rest := &service.Batch{Owners: all.Owners[tc.before:], Animals: all.Animals[tc.before:], Chips: all.Chips[tc.before:]}
			if err := db.Import(ctx, rest); err != nil {
				t.Fatalf("Import: %v", err)
			}
			var want []int64
			for _, a := range rest.Animals {
				want = append(want, a.ID)
			}
			if got := changed(db, cursor); !slices.Equal(got, want) {
				t.Errorf("changed after the animals' import = %v, want %v", got, want)
			}

			if cursor, err = db.ChangeCursor(ctx); err != nil {
				t.Fatal(err)
			}
			if err := db.Import(ctx, licences(1, int64(tc.before+2))); err != nil {
				t.Fatalf("Import of licences: %v", err)
			}
			if got, want := changed(db, cursor), []int64{1, int64(tc.before + 2)}; !slices.Equal(got, want) {
				t.Errorf("changed after the licences' import = %v, want %v", got, want)
			}
			// Licences beside others: read by id.
			if cursor, err = db.ChangeCursor(ctx); err != nil {
				t.Fatal(err)
			}
			if err := db.Import(ctx, licences(4)); err != nil {
				t.Fatalf("Import of a licence: %v", err)
			}
			if got, want := changed(db, cursor), []int64{4}; !slices.Equal(got, want) {
				t.Errorf("changed after a licence's import = %v, want %v", got, want)
			}
		})
	}
}
