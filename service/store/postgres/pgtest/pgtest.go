package pgtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/url"
	"os"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/chipdesk/chipdesk/service/store/postgres"
)

// EnvVar names the test server's URL.
const EnvVar = "CHIPDESK_TEST_POSTGRES"

// ServerURL returns the test server's URL, skipping tb when there is
// none (failing it when the environment variable CI is set).
func ServerURL(tb testing.TB) string {
	tb.Helper()
	u := os.Getenv(EnvVar)
	if u == "" {
		if os.Getenv("CI") != "" {
			tb.Fatalf("pgtest: %s is not set; CI must run the PostgreSQL tests (test.sh starts a server)", EnvVar)
		}
		tb.Skipf("pgtest: %s is not set; set it to a postgres:// URL (test.sh starts a private server) to run this test", EnvVar)
	}
	return u
}

// DSN creates an empty schema and returns the server URL with
// search_path set to it. The schema is dropped when tb ends.
func DSN(tb testing.TB) string {
	tb.Helper()
	base := ServerURL(tb)
	var b [8]byte
	rand.Read(b[:])
	schema := "chipdesk_test_" + hex.EncodeToString(b[:])
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, base)
	if err != nil {
		tb.Fatalf("pgtest: connect %s: %v", EnvVar, err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, `CREATE SCHEMA `+pgx.Identifier{schema}.Sanitize()); err != nil {
		tb.Fatalf("pgtest: create schema: %v", err)
	}
	tb.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		conn, err := pgx.Connect(ctx, base)
		if err != nil {
			tb.Errorf("pgtest: connect to drop schema: %v", err)
			return
		}
		defer conn.Close(ctx)
		if _, err := conn.Exec(ctx, `DROP SCHEMA `+pgx.Identifier{schema}.Sanitize()+` CASCADE`); err != nil {
			tb.Errorf("pgtest: drop schema: %v", err)
		}
	})
	u, err := url.Parse(base)
	if err != nil {
		tb.Fatalf("pgtest: %s: %v", EnvVar, err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}

// Open opens a store on a fresh schema with clock now (nil: time.Now),
// closed when tb ends.
func Open(tb testing.TB, now func() time.Time) *postgres.DB {
	tb.Helper()
	db, err := postgres.Open(context.Background(), DSN(tb), &postgres.Opts{Now: now, MaxConns: 4})
	if err != nil {
		tb.Fatalf("postgres.Open: %v", err)
	}
	tb.Cleanup(func() { db.Close() })
	return db
}
