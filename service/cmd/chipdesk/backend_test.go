package main

import (
	"context"
	"path/filepath"
	"strings"
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

// The admin commands take a postgres:// URL for --db as well as a file.
func TestTokenCommandOnPostgres(t *testing.T) {
	t.Parallel()
	dsn := pgtest.DSN(t)
	code, out, errOut := runCLI("token", "create", "--db", dsn, "--role", "officer", "--name", "officer-7", "--site", "north")
	if code != 0 || !strings.HasPrefix(strings.TrimSpace(out), "cdk_") {
		t.Fatalf("token create --db postgres://: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	code, out, errOut = runCLI("token", "list", "--db", dsn)
	if code != 0 || !strings.Contains(out, "officer-7") || !strings.Contains(out, "north") {
		t.Fatalf("token list --db postgres://: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	st, err := postgres.Open(context.Background(), dsn, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if toks, err := st.FindTokens(context.Background()); err != nil || len(toks) != 1 || toks[0].Site != "north" {
		t.Fatalf("tokens in PostgreSQL = %+v, %v", toks, err)
	}
}
