package sqlite_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/store/sqlite"
	"github.com/chipdesk/chipdesk/service/store/storetest"
)

// MustOpen opens a fresh database in a temporary directory.
func MustOpen(tb testing.TB, now func() time.Time) *sqlite.DB {
	tb.Helper()
	db, err := sqlite.Open(context.Background(), filepath.Join(tb.TempDir(), "chipdesk.db"), &sqlite.Opts{Now: now})
	if err != nil {
		tb.Fatalf("Open: %v", err)
	}
	tb.Cleanup(func() {
		if err := db.Close(); err != nil {
			tb.Errorf("Close: %v", err)
		}
	})
	return db
}

func TestStore(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, now func() time.Time) service.Store { return MustOpen(t, now) })
}

// Ensure reopening a database applies no migration twice and keeps data.
func TestReopen(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "chipdesk.db")
	db, err := sqlite.Open(ctx, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	o := &service.Owner{Name: "Ada"}
	if err := db.CreateOwner(ctx, o); err != nil {
		t.Fatal(err)
	}
	db.Close()
	db, err = sqlite.Open(ctx, path, nil)
	if err != nil {
		t.Fatalf("reopen: %v", err)
	}
	defer db.Close()
	if _, err := db.FindOwnerByID(ctx, o.ID); err != nil {
		t.Fatalf("FindOwnerByID after reopen: %v", err)
	}
}
