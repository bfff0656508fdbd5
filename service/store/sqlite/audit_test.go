package sqlite

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chipdesk/chipdesk/service"
)

// TestAuditOwnFile: audit events are committed in the audit log's file,
// so the records' readers see no change (PRAGMA data_version).
func TestAuditOwnFile(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := openTemp(t, nil)
	conn, err := db.rdb.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	version := func() (v int) {
		t.Helper()
		if err := conn.QueryRowContext(ctx, `PRAGMA data_version`).Scan(&v); err != nil {
			t.Fatal(err)
		}
		return v
	}
	before := version()
	evs := []*service.AuditEvent{{Actor: "intake-1", Action: "lookup.chip", Entity: "animal", EntityID: 7}, {Actor: "intake-1", Action: "lookup.tag"}}
	if err := db.CreateAuditEvents(ctx, evs); err != nil {
		t.Fatal(err)
	}
	if err := db.CreateAuditEvent(ctx, &service.AuditEvent{Actor: "admin", Action: "token.create"}); err != nil {
		t.Fatal(err)
	}
	if after := version(); after != before {
		t.Errorf("data_version of the records' file %d -> %d after audit events: they were written there", before, after)
	}
	if err := db.CreateOwner(ctx, &service.Owner{Name: "Ada Lund"}); err != nil {
		t.Fatal(err)
	}
	if after := version(); after == before {
		t.Error("data_version did not change after a record was written: the check cannot see writes")
	}
	got, n, err := db.FindAuditEvents(ctx, service.AuditFilter{})
	if err != nil || n != 3 || len(got) != 3 {
		t.Fatalf("FindAuditEvents = %d of %d, %v; want 3", len(got), n, err)
	}
}

// TestAuditMovedFromRecordsFile opens a records' file from before the
// audit log had its own (events in main.audit_events): Open moves them,
// keeping ids, and does so again without duplicates after a crash that
// left the copy made but the old table there.
func TestAuditMovedFromRecordsFile(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "old.db")
	db, err := Open(ctx, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	// The layout of migrations 0001 and 0002, with two events in it.
	raw, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC).Format(stampLayout)
	oldLayout := `CREATE TABLE audit_events (id INTEGER PRIMARY KEY, at TEXT NOT NULL, actor TEXT NOT NULL, role TEXT NOT NULL DEFAULT '',
			action TEXT NOT NULL, entity TEXT NOT NULL DEFAULT '', entity_id INTEGER NOT NULL DEFAULT 0, detail TEXT NOT NULL DEFAULT '',
			site TEXT NOT NULL DEFAULT '');
		INSERT INTO audit_events (id, at, actor, action, entity, entity_id, site) VALUES
			(41, '` + at + `', 'officer-7', 'record.view', 'animal', 3, 'east'), (42, '` + at + `', 'admin', 'token.create', '', 0, '')`
	if _, err := raw.Exec(oldLayout); err != nil {
		t.Fatal(err)
	}
	raw.Close()
	if err := os.Remove(AuditPath(path)); err != nil {
		t.Fatal(err)
	}
	check := func(step string) {
		t.Helper()
		db, err := Open(ctx, path, nil)
		if err != nil {
			t.Fatalf("%s: Open: %v", step, err)
		}
		defer db.Close()
		got, n, err := db.FindAuditEvents(ctx, service.AuditFilter{})
		if err != nil || n != 2 || got[0].ID != 42 || got[1].ID != 41 || got[1].Site != "east" || got[1].EntityID != 3 {
			t.Fatalf("%s: FindAuditEvents = %+v (%d), %v; want events 42 and 41", step, got, n, err)
		}
		var tables int
		db.rdb.QueryRowContext(ctx, `SELECT COUNT(*) FROM sqlite_schema WHERE name = 'audit_events'`).Scan(&tables)
		if tables != 0 {
			t.Errorf("%s: the records' file still has audit_events", step)
		}
	}
	check("first open")
	// A crash between the copy and the drop: the old table is back.
	raw, _ = sql.Open("sqlite", "file:"+path)
	if _, err := raw.Exec(oldLayout); err != nil {
		t.Fatal(err)
	}
	raw.Close()
	check("open after a crash mid-move")
}
