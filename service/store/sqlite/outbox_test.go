package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/chipdesk/chipdesk/service"
)

// TestOutboxRecoveredAtOpen leaves the files as a kill -9 can: one
// change's event moved to the audit log but still in the outbox (killed
// before the prune), another only in the outbox (killed before the
// move). Open stores each exactly once, empties the outbox and hands
// out no outbox id twice.
func TestOutboxRecoveredAtOpen(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "chipdesk.db")
	db, err := Open(ctx, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}

	event := func(id int64) string {
		b, err := json.Marshal(&service.AuditEvent{Actor: "counter-1", Action: "licence.create", Entity: "licence", EntityID: id})
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	raw := func(p string) *sql.DB {
		r, err := sql.Open("sqlite", p)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { r.Close() })
		return r
	}
	rec, aud := raw(path), raw(AuditPath(path))
	for _, q := range []struct {
		db   *sql.DB
		sql  string
		args []any
	}{
		{rec, `INSERT INTO audit_outbox (id, event) VALUES (1, ?), (2, ?)`, []any{event(1), event(2)}},
		{aud, `INSERT INTO audit_events (at, actor, action, entity, entity_id) VALUES ('2026-03-15T12:00:00.000000000Z', 'counter-1', 'licence.create', 'licence', 1)`, nil},
		{aud, `INSERT INTO outbox_moved (one, last) VALUES (1, 1)`, nil},
	} {
		if _, err := q.db.ExecContext(ctx, q.sql, q.args...); err != nil {
			t.Fatalf("%s: %v", q.sql, err)
		}
	}
	rec.Close()
	aud.Close()

	db, err = Open(ctx, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ent := "licence"
	evs, _, err := db.FindAuditEvents(ctx, service.AuditFilter{Entity: &ent})
	if err != nil {
		t.Fatal(err)
	}
	count := map[int64]int{}
	for _, e := range evs {
		count[e.EntityID]++
	}
	if len(evs) != 2 || count[1] != 1 || count[2] != 1 {
		t.Fatalf("audit events %+v, want licence 1 and 2 once each", evs)
	}
	// The next change's event takes an id above both, and its move
	// prunes what is left.
	cctx, ch := service.WithChange(ctx, &service.AuditEvent{Actor: "counter-1", Action: "owner.create", Entity: "owner"})
	o := &service.Owner{Name: "A"}
	if err := db.CreateOwner(cctx, o); err != nil || !ch.Stored() {
		t.Fatalf("CreateOwner = %v, stored %v", err, ch.Stored())
	}
	if got := db.outboxMoved.Load(); got != 3 {
		t.Errorf("last outbox id moved = %d, want 3", got)
	}
	if err := db.CreateOwner(ctx, &service.Owner{Name: "B"}); err != nil {
		t.Fatal(err)
	}
	var left int
	if err := db.rdb.QueryRowContext(ctx, `SELECT COUNT(*) FROM audit_outbox`).Scan(&left); err != nil || left != 0 {
		t.Errorf("outbox holds %d rows after a move and a write (%v), want 0", left, err)
	}
	ent = "owner"
	evs, _, err = db.FindAuditEvents(ctx, service.AuditFilter{Entity: &ent})
	if err != nil || len(evs) != 1 || evs[0].EntityID != o.ID {
		t.Fatalf("owner events %+v (%v), want owner.create of %d", evs, err, o.ID)
	}
}
