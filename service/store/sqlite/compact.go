package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/store/columns"
	"github.com/chipdesk/chipdesk/service/store/filter"
)

// The audit log's retention (auditmigration/0040): a day's lookup
// events become their counts in one transaction of the audit log, which
// the delete trigger lets through only as the compaction recorded in it
// names them.

// lookupEvents is the condition on audit_events of the lookups' events
// in [from, before) up to id last (the arguments after the prefix).
const lookupEvents = `substr(action, 1, length(?1)) = ?1 AND at >= ?2 AND at < ?3 AND id <= ?4`

// CompactAudit implements service.AuditService.
func (db *DB) CompactAudit(ctx context.Context, before time.Time) (*service.AuditCompaction, error) {
	// A change's event still in the outbox belongs in the log first, so
	// that the log's ids follow the changes' order as they do unmoved.
	if err := db.moveOutbox(ctx, db.rdb); err != nil {
		return nil, err
	}
	var c *service.AuditCompaction
	err := db.writeAudit(ctx, func(tx *sql.Tx, now time.Time) error {
		prefix := service.LookupActionPrefix
		var first sql.NullString
		if err := tx.QueryRowContext(ctx, `SELECT MIN(at) FROM audit_events WHERE at < ? AND substr(action, 1, length(?2)) = ?2`,
			formatStamp(before), prefix).Scan(&first); err != nil {
			return fmt.Errorf("sqlite: compact audit: %w", err)
		}
		if !first.Valid {
			return nil
		}
		var from time.Time
		if err := (stamp{&from}).Scan(first.String); err != nil {
			return fmt.Errorf("sqlite: compact audit: %w", err)
		}
		var last int64
		if err := tx.QueryRowContext(ctx, `SELECT MAX(id) FROM audit_events`).Scan(&last); err != nil {
			return fmt.Errorf("sqlite: compact audit: %w", err)
		}
		var start time.Time
		c, start = service.NewAuditCompaction(now, from, before, last)
		args := []any{prefix, formatStamp(start), formatStamp(c.Before), last}
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*), (SELECT COUNT(*) FROM (SELECT 1 FROM audit_events WHERE `+lookupEvents+
			` GROUP BY substr(at, 1, 10), `+columns.AuditCountKey+`)) FROM audit_events WHERE `+lookupEvents,
			args...).Scan(&c.Events, &c.Counts); err != nil {
			return fmt.Errorf("sqlite: compact audit: %w", err)
		}
		err := tx.QueryRowContext(ctx, `INSERT INTO audit_compactions (`+columns.AuditCompaction+`) VALUES (NULL, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
			formatStamp(now), c.Day, formatStamp(c.Before), prefix, last, c.Events, c.Counts).Scan(&c.ID)
		if err != nil {
			return mapErr(err, "Audit compaction")
		}
		res, err := tx.ExecContext(ctx, `INSERT INTO audit_counts (`+columns.AuditCount+`)
			SELECT ?5, substr(at, 1, 10), `+columns.AuditCountKey+`, COUNT(*), MIN(at), MAX(at)
			FROM audit_events WHERE `+lookupEvents+` GROUP BY substr(at, 1, 10), `+columns.AuditCountKey,
			append(args, c.ID)...)
		if err != nil {
			return mapErr(err, "Audit count")
		}
		counts, err := res.RowsAffected()
		if err != nil {
			return fmt.Errorf("sqlite: compact audit: %w", err)
		}
		// The compaction's own event goes in before the removal, above
		// every id removed, so that no id is ever given again.
		if err := insertAuditEvents(ctx, tx, []*service.AuditEvent{c.Event()}, now); err != nil {
			return err
		}
		res, err = tx.ExecContext(ctx, `DELETE FROM audit_events WHERE `+lookupEvents, args...)
		if err != nil {
			return mapErr(err, "Audit event")
		}
		events, err := res.RowsAffected()
		if err != nil {
			return fmt.Errorf("sqlite: compact audit: %w", err)
		}
		if err := c.Check(counts, events); err != nil {
			return fmt.Errorf("sqlite: compact audit: %w", err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return c, nil
}

func scanAuditCount(r rowScanner, extra ...any) (*service.AuditCount, error) {
	return scanRow(r, columns.AuditCountDest, extra)
}

// FindAuditCounts implements service.AuditService.
func (db *DB) FindAuditCounts(ctx context.Context, f service.AuditFilter) ([]*service.AuditCount, int, error) {
	return findPage(ctx, db.adb, "audit_counts", columns.AuditCount, "day DESC, last_at DESC, compaction_id DESC", "Audit count",
		filter.AuditCounts(f), f.Offset, f.Limit, scanAuditCount)
}
