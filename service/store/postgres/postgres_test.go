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
