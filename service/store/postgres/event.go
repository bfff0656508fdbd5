package postgres

import (
	"context"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/store/columns"
	"github.com/chipdesk/chipdesk/service/store/filter"
)

var insertScanSQL = insertSQL("scans", columns.Scan)

func scanScan(r rowScanner, extra ...any) (*service.Scan, error) {
	return scanRow(r, columns.ScanDest, extra)
}

// CreateScan implements service.ScanService. A zero At is the
// transaction time.
func (db *DB) CreateScan(ctx context.Context, s *service.Scan) error {
	if err := s.Validate(); err != nil {
		return err
	}
	return db.write(ctx, func(tx pgx.Tx, now time.Time) error {
		if s.At.IsZero() {
			s.At = now
		}
		s.At = s.At.UTC().Truncate(time.Microsecond)
		return insertRow(ctx, tx, "scans", &s.ID, "Scan", insertScanSQL,
			s.At, s.Reader, s.ChipCode, s.ChipKind, s.User, s.Site, s.AnimalID)
	})
}

// FindScans implements service.ScanService.
func (db *DB) FindScans(ctx context.Context, f service.ScanFilter) ([]*service.Scan, int, error) {
	return findPage(ctx, db, "scans", columns.Scan, "at DESC, id DESC", "Scan", filter.Scans(f), f.Offset, f.Limit, scanScan)
}

var insertAuditSQL = insertSQL("audit_events", columns.Audit)

func scanAudit(r rowScanner, extra ...any) (*service.AuditEvent, error) {
	return scanRow(r, columns.AuditDest, extra)
}

// CreateAuditEvent implements service.AuditService. A zero At is the
// transaction time.
func (db *DB) CreateAuditEvent(ctx context.Context, e *service.AuditEvent) error {
	if err := e.Validate(); err != nil {
		return err
	}
	// An event stored on its own is not a change's (writeTx with nil).
	return db.writeTx(ctx, nil, func(tx pgx.Tx, now time.Time) error {
		return insertAudit(ctx, tx, now, e)
	})
}

// insertAudit inserts e in tx, stamping a zero At with now.
func insertAudit(ctx context.Context, tx pgx.Tx, now time.Time, e *service.AuditEvent) error {
	if err := e.Validate(); err != nil {
		return err
	}
	if e.At.IsZero() {
		e.At = now
	}
	e.At = e.At.UTC().Truncate(time.Microsecond)
	return insertRow(ctx, tx, "audit_events", &e.ID, "Audit event", insertAuditSQL,
		e.At, e.Actor, e.Role, e.Action, e.Entity, e.EntityID, e.Detail, e.Site, e.TokenID)
}

// FindAuditEvents implements service.AuditService.
func (db *DB) FindAuditEvents(ctx context.Context, f service.AuditFilter) ([]*service.AuditEvent, int, error) {
	return findPage(ctx, db, "audit_events", columns.Audit, "at DESC, id DESC", "Audit event", filter.Audit(f), f.Offset, f.Limit, scanAudit)
}

// CreateAuditEvents stores events in order in one transaction, by COPY:
// the batch form of CreateAuditEvent, which the HTTP layer's audit queue
// uses so that auditing every lookup costs one commit per batch, not one
// per lookup. Either every event is stored or none is; the events' IDs
// are not read back. Events that carry an id are inserted one by one in
// the same transaction, so that the id sequence follows them.
func (db *DB) CreateAuditEvents(ctx context.Context, evs []*service.AuditEvent) error {
	for _, e := range evs {
		if err := e.Validate(); err != nil {
			return err
		}
	}
	return db.writeTx(ctx, nil, func(tx pgx.Tx, now time.Time) error {
		rows := make([][]any, 0, len(evs))
		for _, e := range evs {
			if e.At.IsZero() {
				e.At = now
			}
			e.At = e.At.UTC().Truncate(time.Microsecond)
			if e.ID != 0 {
				if err := insertAudit(ctx, tx, now, e); err != nil {
					return err
				}
				continue
			}
			rows = append(rows, []any{e.At, e.Actor, string(e.Role), e.Action, e.Entity, e.EntityID, e.Detail, e.Site, e.TokenID})
		}
		if len(rows) == 0 {
			return nil
		}
		_, err := tx.CopyFrom(ctx, pgx.Identifier{"audit_events"}, auditCopyColumns, pgx.CopyFromRows(rows))
		return mapErr(err, "Audit event")
	})
}

// auditCopyColumns are columns.Audit without the id, which the table's
// identity gives.
var auditCopyColumns = strings.Split(strings.ReplaceAll(strings.TrimPrefix(columns.Audit, "id, "), " ", ""), ",")
