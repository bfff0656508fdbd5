package main

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/chipdesk/chipdesk/service/store/postgres"
	"github.com/chipdesk/chipdesk/service/store/postgres/pgtest"
	"github.com/chipdesk/chipdesk/service/store/sqlite"
)

// A postgres:// URL opens the PostgreSQL store, anything else SQLite;
// both are ready to use (migrated) when openBackend returns.
func TestOpenBackend(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, tt := range []struct {
		name   string
		target func(t *testing.T) string
		isPG   bool
	}{
		{"sqlite file", func(t *testing.T) string { return filepath.Join(t.TempDir(), "chipdesk.db") }, false},
		{"postgres url", func(t *testing.T) string { return pgtest.DSN(t) }, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			st, err := openBackend(ctx, tt.target(t), time.Now, time.UTC)
			if err != nil {
				t.Fatalf("openBackend: %v", err)
			}
			defer st.Close()
			switch st.(type) {
			case *postgres.DB:
				if !tt.isPG {
					t.Fatalf("openBackend opened %T, want *sqlite.DB", st)
				}
			case *sqlite.DB:
				if tt.isPG {
					t.Fatalf("openBackend opened %T, want *postgres.DB", st)
				}
			}
			if err := st.Ping(ctx); err != nil {
				t.Fatalf("Ping: %v", err)
			}
		})
	}
}
