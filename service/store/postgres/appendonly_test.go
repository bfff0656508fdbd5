package postgres_test

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/store/postgres"
	"github.com/chipdesk/chipdesk/service/store/postgres/pgtest"
)

// TestAuditAppendOnly: no statement changes or removes an audit entry,
// even one run on the database directly.
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
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	for _, q := range []string{`UPDATE audit_events SET actor = 'someone else'`, `DELETE FROM audit_events`, `TRUNCATE audit_events`} {
		if _, err := conn.Exec(ctx, q); err == nil {
			t.Errorf("%s: no error", q)
		}
	}
	evs, _, err := db.FindAuditEvents(ctx, service.AuditFilter{})
	if err != nil || len(evs) != 1 || evs[0].Actor != "a" {
		t.Errorf("after the attempts: %v %v", evs, err)
	}
}
