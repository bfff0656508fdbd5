package postgres_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/store/postgres"
	"github.com/chipdesk/chipdesk/service/store/postgres/pgtest"
	"github.com/chipdesk/chipdesk/service/store/storetest"
)

func TestStore(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, now func() time.Time) service.Store { return pgtest.Open(t, now) })
}

// Reopening applies no migration twice and keeps the data.
func TestReopen(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dsn := pgtest.DSN(t)
	db, err := postgres.Open(ctx, dsn, nil)
	if err != nil {
		t.Fatal(err)
	}
	o := &service.Owner{Name: "Ada"}
	if err := db.CreateOwner(ctx, o); err != nil {
		t.Fatal(err)
	}
	db.Close()
	db, err = postgres.Open(ctx, dsn, nil)
	if err != nil {
		t.Fatalf("reopen: %v", err)
	}
	defer db.Close()
	if _, err := db.FindOwnerByID(ctx, o.ID); err != nil {
		t.Fatalf("FindOwnerByID after reopen: %v", err)
	}
}

func TestIsDSN(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name, in string
		want     bool
	}{
		{"url", "postgres://u@h/db", true},
		{"long scheme", "postgresql://h/db?sslmode=disable", true},
		{"sqlite file", "chipdesk.db", false},
		{"sqlite path", "/var/lib/chipdesk/postgres.db", false},
	} {
		if got := postgres.IsDSN(tt.in); got != tt.want {
			t.Errorf("IsDSN(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

// MissingIDs answers, in the order asked, the ids a table lacks: what
// an import checks its references with, in one statement.
func TestMissingIDs(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := pgtest.Open(t, nil)
	var have []int64
	for _, name := range []string{"Ada", "Bo"} {
		o := &service.Owner{Name: name}
		if err := db.CreateOwner(ctx, o); err != nil {
			t.Fatal(err)
		}
		have = append(have, o.ID)
	}
	got, err := db.MissingIDs(ctx, "owners", []int64{have[1] + 100, have[0], have[1] + 50, have[1]})
	if err != nil || len(got) != 2 || got[0] != have[1]+100 || got[1] != have[1]+50 {
		t.Errorf("MissingIDs = %v, %v; want [%d %d]", got, err, have[1]+100, have[1]+50)
	}
	if got, err := db.MissingIDs(ctx, "animals", nil); err != nil || len(got) != 0 {
		t.Errorf("MissingIDs(no ids) = %v, %v", got, err)
	}
	if _, err := db.MissingIDs(ctx, "tokens", []int64{1}); service.ErrorCode(err) != service.EINVALID {
		t.Errorf("MissingIDs(tokens) error %v, want EINVALID", err)
	}
}

// A large import into empty tables drops their plain indexes for the
// COPY and builds them again before the commit; a failed one leaves
// them as they were.
func TestImportDefersIndexes(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dsn := pgtest.DSN(t)
	db, err := postgres.Open(ctx, dsn, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	indexes := func() (defs string) {
		t.Helper()
		if err := conn.QueryRow(ctx, `SELECT string_agg(indexdef, E'\n' ORDER BY indexname) FROM pg_indexes
			WHERE schemaname = current_schema() AND tablename IN ('animals', 'owners')`).Scan(&defs); err != nil {
			t.Fatal(err)
		}
		return defs
	}
	before := indexes()
	if !strings.Contains(before, "animals_owner") {
		t.Fatalf("no plain index on animals to defer:\n%s", before)
	}
	batch := func(n int, badLast bool) *service.Batch {
		b := &service.Batch{}
		for i := 1; i <= n; i++ {
			id := int64(i)
			b.Owners = append(b.Owners, &service.Owner{ID: id, Name: "Owner"})
			b.Animals = append(b.Animals, &service.Animal{ID: id, OwnerID: id, Name: "Rex", Species: service.Dog})
		}
		if badLast {
			b.Animals[n-1].OwnerID = int64(n + 1) // no such owner
		}
		return b
	}
	if err := db.Import(ctx, batch(12000, true)); service.ErrorCode(err) != service.EINVALID {
		t.Fatalf("Import(dangling owner) = %v, want EINVALID", err)
	}
	if got := indexes(); got != before {
		t.Fatalf("indexes after a failed import:\n%s\nwant\n%s", got, before)
	}
	if err := db.Import(ctx, batch(12000, false)); err != nil {
		t.Fatal(err)
	}
	if got := indexes(); got != before {
		t.Fatalf("indexes after an import:\n%s\nwant\n%s", got, before)
	}
	var plan string
	if err := conn.QueryRow(ctx, `EXPLAIN SELECT id FROM animals WHERE owner_id = 7`).Scan(&plan); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(plan, "animals_owner") {
		t.Errorf("after the import, animals by owner plans %q, not the rebuilt index", plan)
	}
}
