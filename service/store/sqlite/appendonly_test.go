package sqlite

import (
	"context"
	"testing"
	"time"

	"github.com/chipdesk/chipdesk/service"
)

// TestAuditAppendOnly: no statement changes or removes an audit entry
// (nor a compaction's counts), not even a lookup's event that no
// compaction counted, even one run on the audit log's file directly.
func TestAuditAppendOnly(t *testing.T) {
	db := openTemp(t, nil)
	ctx := context.Background()
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
	for _, q := range []string{`UPDATE audit_events SET actor = 'someone else'`, `DELETE FROM audit_events`,
		`DELETE FROM audit_events WHERE action LIKE 'lookup.%'`, `UPDATE audit_counts SET events = 2`, `DELETE FROM audit_counts`,
		`UPDATE audit_compactions SET events = 2`, `DELETE FROM audit_compactions`} {
		if _, err := db.adb.ExecContext(ctx, q); err == nil {
			t.Errorf("%s: no error", q)
		}
	}
	evs, _, err := db.FindAuditEvents(ctx, service.AuditFilter{})
	if err != nil || len(evs) != 3 {
		t.Errorf("after the attempts: %v %v", evs, err)
	}
}
