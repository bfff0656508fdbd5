package sqlite_test

import (
	"context"
	"database/sql"
	"path/filepath"
	"slices"
	"testing"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/store/sqlite"
)

// licenceIndexes lists the named indexes of the licences table, read
// through a connection of its own.
func licenceIndexes(t *testing.T, path string) []string {
	t.Helper()
	c, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	rows, err := c.Query(`SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'licences' AND sql IS NOT NULL ORDER BY name`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var names []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			t.Fatal(err)
		}
		names = append(names, n)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return names
}

// Ensure an import that drops the licences' plain indexes to build them
// at the end leaves them all in place, whether it commits or fails, and
// the imported licences are found through them.
func TestImportKeepsIndexes(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "chipdesk.db")
	db, err := sqlite.Open(ctx, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	want := licenceIndexes(t, path)
	if !slices.Contains(want, "licences_animal") {
		t.Fatalf("licences indexes = %v, want licences_animal among them", want)
	}
	for _, tt := range []struct {
		name   string
		spoil  func(b *service.Batch)
		failed bool
	}{
		{"duplicate tag", func(b *service.Batch) { b.Licences[5].TagNumber = 3 }, true},
		{"dangling animal", func(b *service.Batch) { b.Licences[7].AnimalID = 9999 }, true},
		{"clean", func(*service.Batch) {}, false},
	} {
		b := benchBatch(50)
		tt.spoil(b)
		err := db.Import(ctx, b)
		if (err != nil) != tt.failed {
			t.Fatalf("Import(%s) = %v, want failed %v", tt.name, err, tt.failed)
		}
		if got := licenceIndexes(t, path); !slices.Equal(got, want) {
			t.Errorf("Import(%s): licences indexes = %v, want %v", tt.name, got, want)
		}
	}
	id := int64(17)
	ls, n, err := db.FindLicences(ctx, service.LicenceFilter{AnimalID: &id})
	if err != nil || n != 1 || len(ls) != 1 || ls[0].TagNumber != 17 {
		t.Fatalf("FindLicences(animal 17) = %d licences, %v, want the one with tag 17", n, err)
	}
}
