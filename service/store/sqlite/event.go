package sqlite

import (
	"context"
	"database/sql"
	"time"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/store/columns"
	"github.com/chipdesk/chipdesk/service/store/filter"
)

func scanScan(r rowScanner, extra ...any) (*service.Scan, error) {
	return scanRow(r, columns.ScanDest, extra)
}

// CreateScan implements service.ScanService. A zero At is the
// transaction time.
func (db *DB) CreateScan(ctx context.Context, s *service.Scan) error {
	if err := s.Validate(); err != nil {
		return err
	}
	return db.write(ctx, func(tx *sql.Tx, now time.Time) error {
		if s.At.IsZero() {
			s.At = now
		}
		err := tx.QueryRowContext(ctx, `INSERT INTO scans (`+columns.Scan+`) VALUES (?,?,?,?,?,?,?,?) RETURNING id`,
			nullID(s.ID), formatStamp(s.At), s.Reader, s.ChipCode, s.ChipKind, s.User, s.Site, s.AnimalID).Scan(&s.ID)
		return mapErr(err, "Scan")
	})
}

// FindScans implements service.ScanService.
func (db *DB) FindScans(ctx context.Context, f service.ScanFilter) ([]*service.Scan, int, error) {
	return findPage(ctx, db.rdb, "scans", columns.Scan, "at DESC, id DESC", "Scan", filter.Scans(f), f.Offset, f.Limit, scanScan)
}

func scanAudit(r rowScanner, extra ...any) (*service.AuditEvent, error) {
	return scanRow(r, columns.AuditDest, extra)
}

// CreateAuditEvent implements service.AuditService. A zero At is the
// transaction time.
func (db *DB) CreateAuditEvent(ctx context.Context, e *service.AuditEvent) error {
	if err := e.Validate(); err != nil {
		return err
	}
	return db.writeAudit(ctx, func(tx *sql.Tx, now time.Time) error {
		if e.At.IsZero() {
			e.At = now
		}
		err := tx.QueryRowContext(ctx, `INSERT INTO audit_events (`+columns.Audit+`) VALUES (?,?,?,?,?,?,?,?,?,?) RETURNING id`,
			nullID(e.ID), formatStamp(e.At), e.Actor, e.Role, e.Action, e.Entity, e.EntityID, e.Detail, e.Site, e.TokenID).Scan(&e.ID)
		return mapErr(err, "Audit event")
	})
}

// FindAuditEvents implements service.AuditService.
// Events of changes still in the outbox are moved first.
func (db *DB) FindAuditEvents(ctx context.Context, f service.AuditFilter) ([]*service.AuditEvent, int, error) {
	if err := db.moveOutbox(ctx, db.rdb); err != nil {
		return nil, 0, err
	}
	return findPage(ctx, db.adb, "audit_events", columns.Audit, "at DESC, id DESC", "Audit event", filter.Audit(f), f.Offset, f.Limit, scanAudit)
}
