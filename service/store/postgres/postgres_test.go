package postgres_test

import (
	"context"
	"testing"
	"time"

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
