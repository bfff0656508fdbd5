package sqlite

import (
	"context"
	"testing"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/store/storetest"
)

// TestCompactAuditStopped: a compaction stopped inside a day's
// transaction (a trigger refuses that day's counts) keeps the day whole,
// and run again counts every event once.
func TestCompactAuditStopped(t *testing.T) {
	t.Parallel()
	db := openTemp(t, nil)
	ctx := context.Background()
	storetest.CompactStopped(t, db, func(day service.Date) {
		if _, err := db.adb.ExecContext(ctx, `CREATE TRIGGER stop_counts BEFORE INSERT ON audit_counts WHEN NEW.day = '`+day.String()+`'
			BEGIN SELECT RAISE(ABORT, 'stopped'); END`); err != nil {
			t.Fatal(err)
		}
	}, func() {
		if _, err := db.adb.ExecContext(ctx, `DROP TRIGGER stop_counts`); err != nil {
			t.Fatal(err)
		}
	})
}
