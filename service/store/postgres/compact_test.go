package postgres_test

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/store/postgres"
	"github.com/chipdesk/chipdesk/service/store/postgres/pgtest"
	"github.com/chipdesk/chipdesk/service/store/storetest"
)

// TestCompactAuditStopped: a compaction stopped inside a day's
// transaction (a trigger refuses that day's counts) keeps the day whole,
// and run again counts every event once.
func TestCompactAuditStopped(t *testing.T) {
	dsn := pgtest.DSN(t)
	ctx := context.Background()
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
	exec := func(q string) {
		if _, err := conn.Exec(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	storetest.CompactStopped(t, db, func(day service.Date) {
		exec(`CREATE FUNCTION stop_counts() RETURNS trigger LANGUAGE plpgsql AS $$
			BEGIN IF NEW.day = '` + day.String() + `' THEN RAISE EXCEPTION 'stopped'; END IF; RETURN NEW; END $$`)
		exec(`CREATE TRIGGER stop_counts BEFORE INSERT ON audit_counts FOR EACH ROW EXECUTE FUNCTION stop_counts()`)
	}, func() {
		exec(`DROP TRIGGER stop_counts ON audit_counts`)
	})
}
