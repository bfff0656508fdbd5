package postgres_test

import (
	"context"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/store/postgres"
	"github.com/chipdesk/chipdesk/service/store/postgres/pgtest"
)

// TestAuditAppendOnly: no statement changes or removes an audit entry
// (nor a compaction's counts), not even a lookup's event that no
// compaction counted, even one run on the database directly.
func TestAuditAppendOnly(t *testing.T) {
	dsn := pgtest.DSN(t)
	ctx := context.Background()
	db, err := postgres.Open(ctx, dsn, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.CreateAuditEvent(ctx, &service.AuditEvent{Actor: "a", Action: "owner.view"}); err != nil {
		t.Fatal(err)
	}
	// A compaction on file, and a lookup's event older than it that it
	// did not count.
	now := time.Now()
	if err := db.CreateAuditEvent(ctx, &service.AuditEvent{At: now.AddDate(0, 0, -20), Actor: "a", Action: "lookup.chip"}); err != nil {
		t.Fatal(err)
	}
	if cs, err := service.CompactAuditLog(ctx, db, now.AddDate(0, 0, -15), nil); err != nil || len(cs) != 1 {
		t.Fatalf("CompactAudit = %v, %v", cs, err)
	}
	if err := db.CreateAuditEvent(ctx, &service.AuditEvent{At: now.AddDate(0, 0, -30), Actor: "a", Action: "lookup.chip"}); err != nil {
		t.Fatal(err)
	}
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	for _, q := range []string{`UPDATE audit_events SET actor = 'someone else'`, `DELETE FROM audit_events`,
		`DELETE FROM audit_events WHERE action LIKE 'lookup.%'`, `UPDATE audit_counts SET events = 2`, `DELETE FROM audit_counts`,
		`UPDATE audit_compactions SET events = 2`, `DELETE FROM audit_compactions`, `TRUNCATE audit_events`, `TRUNCATE audit_counts`, `TRUNCATE audit_compactions`} {
		if _, err := conn.Exec(ctx, q); err == nil {
			t.Errorf("%s: no error", q)
		}
	}
	evs, _, err := db.FindAuditEvents(ctx, service.AuditFilter{})
	if err != nil || len(evs) != 3 {
		t.Errorf("after the attempts: %v %v", evs, err)
	}
}
