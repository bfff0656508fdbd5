package sqlite

import (
	"context"
	"testing"

	"github.com/chipdesk/chipdesk/service"
)

// TestAuditAppendOnly: no statement changes or removes an audit entry,
// even one run on the audit log's file directly.
func TestAuditAppendOnly(t *testing.T) {
	db := openTemp(t, nil)
	ctx := context.Background()
	if err := db.CreateAuditEvent(ctx, &service.AuditEvent{Actor: "a", Action: "owner.view"}); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{`UPDATE audit_events SET actor = 'someone else'`, `DELETE FROM audit_events`} {
		if _, err := db.adb.ExecContext(ctx, q); err == nil {
			t.Errorf("%s: no error", q)
		}
	}
	evs, _, err := db.FindAuditEvents(ctx, service.AuditFilter{})
	if err != nil || len(evs) != 1 || evs[0].Actor != "a" {
		t.Errorf("after the attempts: %v %v", evs, err)
	}
}
