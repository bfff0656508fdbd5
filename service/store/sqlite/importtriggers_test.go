package sqlite

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/chipdesk/chipdesk/reader/chipid"
	"github.com/chipdesk/chipdesk/service"
)

// TestImportSuspendsRowTriggers: an import suspends exactly the per-row
// insert triggers of the tables it writes (the lookup marks, the change
// sequence, the search indexes), not the sales count (suspendSales) nor
// any trigger of another shape.
func TestImportSuspendsRowTriggers(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := openTemp(t, nil)
	tx, err := db.wdb.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	s, err := suspendTriggers(ctx, tx)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, def := range s.defs {
		var name string
		fmt.Sscanf(def, "CREATE TRIGGER %s", &name)
		got = append(got, name)
	}
	slices.Sort(got)
	want := []string{"animals_sync_insert", "chips_lookup_insert", "chips_sync_insert", "licences_sync_insert",
		"search_animals_ai", "search_owners_ai", "vaccinations_lookup_insert", "vaccinations_sync_insert"}
	if !slices.Equal(got, want) {
		t.Errorf("suspended %v, want %v", got, want)
	}
}

// TestImportRowTriggersOnce: what the suspended triggers owe is done
// once for each imported row, and only for those: the search indexes
// agree with their tables (FTS5's integrity check against the content),
// every imported animal is in the change sequence, past the changes
// before it, and the triggers are back whether an import commits or
// fails. The second import fills gaps below the tables' last ids.
func TestImportRowTriggersOnce(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := openTemp(t, nil)
	triggers := func() []string {
		t.Helper()
		var out []string
		rows, err := db.rdb.QueryContext(ctx, `SELECT sql FROM sqlite_schema WHERE type = 'trigger' ORDER BY name`)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		for rows.Next() {
			var s string
			rows.Scan(&s)
			out = append(out, s)
		}
		return out
	}
	check := func(step string) {
		t.Helper()
		for _, fts := range []string{"search_owners", "search_animals"} {
			if _, err := db.wdb.ExecContext(ctx, `INSERT INTO `+fts+` (`+fts+`, rank) VALUES ('integrity-check', 1)`); err != nil {
				t.Errorf("%s: %s: %v", step, fts, err)
			}
		}
		var missing int
		if err := db.rdb.QueryRowContext(ctx, `SELECT COUNT(*) FROM animals a WHERE NOT EXISTS (SELECT 1 FROM sync_changes s WHERE s.animal_id = a.id)`).Scan(&missing); err != nil || missing != 0 {
			t.Errorf("%s: %d animals not in the change sequence (%v)", step, missing, err)
		}
		checkRows(t, db, step)
	}
	before := triggers()
	batch := func(ids ...int64) *service.Batch {
		b := &service.Batch{}
		for _, id := range ids {
			b.Owners = append(b.Owners, &service.Owner{ID: id, Name: fmt.Sprintf("Owner%d Hansen", id), Address: "1 Main St"})
			b.Animals = append(b.Animals, &service.Animal{ID: id, OwnerID: id, Name: fmt.Sprintf("Rex%d", id), Species: service.Dog})
			b.Chips = append(b.Chips, &service.Chip{ID: id, AnimalID: id, Code: fmt.Sprintf("985%012d", id), Kind: chipid.KindISO})
			b.Licences = append(b.Licences, &service.Licence{ID: id, AnimalID: id, Jurisdiction: "minneapolis", TagNumber: int(id),
				IssuedOn: service.MustDate("2026-02-01"), ExpiresOn: service.MustDate("2027-01-31")})
			b.Vaccinations = append(b.Vaccinations, &service.RabiesVaccination{ID: id, AnimalID: id, Date: service.MustDate("2025-06-01")})
		}
		return b
	}
	if err := db.Import(ctx, batch(10, 20, 30, 40)); err != nil {
		t.Fatal(err)
	}
	check("first import")
	var top int64
	if err := db.rdb.QueryRowContext(ctx, `SELECT MAX(seq) FROM sync_changes`).Scan(&top); err != nil {
		t.Fatal(err)
	}
	// Ids of their own below the last ones, and one without an id.
	b := batch(15, 25)
	b.Owners = append(b.Owners, &service.Owner{Name: "Nobody Olsen"})
	if err := db.Import(ctx, b); err != nil {
		t.Fatal(err)
	}
	check("second import")
	for _, id := range []int64{15, 25} {
		var seq int64
		if err := db.rdb.QueryRowContext(ctx, `SELECT seq FROM sync_changes WHERE animal_id = ?`, id).Scan(&seq); err != nil || seq <= top {
			t.Errorf("animal %d: change %d (%v), want one past %d", id, seq, err, top)
		}
	}
	for _, words := range [][]string{{"owner15"}, {"nobody"}, {"hansen", "owner4"}} {
		os, err := db.SearchOwners(ctx, words, 10)
		if err != nil || len(os) != 1 {
			t.Errorf("SearchOwners(%q) = %d owners, %v; want 1", words, len(os), err)
		}
	}
	if as, err := db.SearchAnimals(ctx, []string{"rex25"}, 10); err != nil || len(as) != 1 {
		t.Errorf("SearchAnimals(rex25) = %d animals, %v; want 1", len(as), err)
	}
	// A failed import: a dangling reference, found at commit.
	b = batch(50)
	b.Chips[0].AnimalID = 999
	if err := db.Import(ctx, b); err == nil {
		t.Fatal("Import with a chip of no animal succeeded")
	}
	check("failed import")
	if got := triggers(); !slices.Equal(got, before) {
		t.Errorf("triggers after the imports:\n%q\nwant\n%q", got, before)
	}
	// The triggers fire again for a row written one at a time.
	o := &service.Owner{Name: "Solveig Berg"}
	if err := db.CreateOwner(ctx, o); err != nil {
		t.Fatal(err)
	}
	if os, err := db.SearchOwners(ctx, []string{"solveig"}, 10); err != nil || len(os) != 1 {
		t.Errorf("SearchOwners(solveig) after CreateOwner = %d owners, %v; want 1", len(os), err)
	}
	check("an owner created")
}
