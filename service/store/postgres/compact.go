package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/store/columns"
	"github.com/chipdesk/chipdesk/service/store/filter"
)

// The audit log's retention (migration/0160): a day's lookup events
// become their counts in one transaction, which the delete trigger lets
// through only as the compaction recorded in it names them.

// lookupEvents is the condition on audit_events of the lookups' events
// in [$2, $3) up to id $4, $1 the action prefix.
const lookupEvents = `starts_with(action, $1) AND at >= $2 AND at < $3 AND id <= $4`

// CompactAudit implements service.AuditService.
func (db *DB) CompactAudit(ctx context.Context, before time.Time) (*service.AuditCompaction, error) {
	var c *service.AuditCompaction
	err := db.writeTx(ctx, nil, func(tx pgx.Tx, now time.Time) error {
		// One compaction at a time: a second waits, then finds the day
		// done.
		if _, err := tx.Exec(ctx, `LOCK TABLE audit_compactions IN SHARE ROW EXCLUSIVE MODE`); err != nil {
			return fmt.Errorf("postgres: compact audit: %w", err)
		}
		prefix := service.LookupActionPrefix
		var first *time.Time
		if err := tx.QueryRow(ctx, `SELECT min(at) FROM audit_events WHERE at < $1 AND starts_with(action, $2)`,
			before, prefix).Scan(&first); err != nil {
			return fmt.Errorf("postgres: compact audit: %w", err)
		}
		if first == nil {
			return nil
		}
		var last int64
		if err := tx.QueryRow(ctx, `SELECT max(id) FROM audit_events`).Scan(&last); err != nil {
			return fmt.Errorf("postgres: compact audit: %w", err)
		}
		var start time.Time
		c, start = service.NewAuditCompaction(now, *first, before, last)
		args := []any{prefix, start, c.Before, last}
		if err := tx.QueryRow(ctx, `SELECT count(*), (SELECT count(*) FROM (SELECT 1 FROM audit_events WHERE `+lookupEvents+
			` GROUP BY `+columns.AuditCountKey+`) g) FROM audit_events WHERE `+lookupEvents,
			args...).Scan(&c.Events, &c.Counts); err != nil {
			return fmt.Errorf("postgres: compact audit: %w", err)
		}
		err := tx.QueryRow(ctx, `INSERT INTO audit_compactions (at, day, before, action_prefix, last_event_id, events, counts)
			VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`, now, c.Day, c.Before, prefix, last, c.Events, c.Counts).Scan(&c.ID)
		if err != nil {
			return mapErr(err, "Audit compaction")
		}
		tag, err := tx.Exec(ctx, `INSERT INTO audit_counts (`+columns.AuditCount+`)
			SELECT $5, $6::date, `+columns.AuditCountKey+`, count(*), min(at), max(at)
			FROM audit_events WHERE `+lookupEvents+` GROUP BY `+columns.AuditCountKey, append(args, c.ID, c.Day)...)
		if err != nil {
			return mapErr(err, "Audit count")
		}
		counts := tag.RowsAffected()
		// The compaction's own event goes in before the removal, above
		// every id removed, so that no id is ever given again.
		if err := insertAudit(ctx, tx, now, c.Event()); err != nil {
			return err
		}
		tag, err = tx.Exec(ctx, `DELETE FROM audit_events WHERE `+lookupEvents, args...)
		if err != nil {
			return mapErr(err, "Audit event")
		}
		if err := c.Check(counts, tag.RowsAffected()); err != nil {
			return fmt.Errorf("postgres: compact audit: %w", err)
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
	return findPage(ctx, db, "audit_counts", columns.AuditCount, "day DESC, last_at DESC, compaction_id DESC", "Audit count",
		filter.AuditCounts(f), f.Offset, f.Limit, scanAuditCount)
}
