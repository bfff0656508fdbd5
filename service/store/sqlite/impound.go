package sqlite

import (
	"context"
	"database/sql"
	"time"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/store/columns"
	"github.com/chipdesk/chipdesk/service/store/filter"
)

func scanImpound(r rowScanner, extra ...any) (*service.Impoundment, error) {
	return scanRow(r, columns.ImpoundDest, extra)
}

// CreateImpoundment implements service.ImpoundService. A zero IntakeAt
// is the transaction time.
func (db *DB) CreateImpoundment(ctx context.Context, i *service.Impoundment) error {
	if err := i.Validate(); err != nil {
		return err
	}
	return db.write(ctx, func(tx *sql.Tx, now time.Time) error {
		i.CreatedAt, i.UpdatedAt = now, now
		if i.IntakeAt.IsZero() {
			i.IntakeAt = now
		}
		err := tx.QueryRowContext(ctx, `INSERT INTO impoundments (`+columns.Impound+`) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?) RETURNING id`,
			nullID(i.ID), i.AnimalID, i.Jurisdiction, formatStamp(i.IntakeAt), i.IntakeOn, i.Site, i.WhereFound, i.NoticeOn,
			i.HoldUntil, i.BiteCase, i.Disposition, i.DispositionOn, i.DispositionNote, i.FeesCents,
			formatStamp(now), formatStamp(now)).Scan(&i.ID)
		service.Created(ctx, "impoundments", i.ID)
		return mapErr(err, "Impoundment")
	})
}

// UpdateImpoundment implements service.ImpoundService.
func (db *DB) UpdateImpoundment(ctx context.Context, id int64, u service.ImpoundUpdate) (*service.Impoundment, error) {
	return updateRow(ctx, db, "impoundments", columns.Impound, "Impoundment", id, scanImpound, func(tx *sql.Tx, now time.Time, i *service.Impoundment) error {
		if err := i.Apply(u); err != nil {
			return err
		}
		i.UpdatedAt = now
		_, err := tx.ExecContext(ctx, `UPDATE impoundments SET notice_on=?, hold_until=?, disposition_on=?, disposition=?,
			disposition_note=?, fees_cents=?, updated_at=? WHERE id=?`,
			i.NoticeOn, i.HoldUntil, i.DispositionOn, i.Disposition, i.DispositionNote, i.FeesCents, formatStamp(now), id)
		return mapErr(err, "Impoundment")
	})
}

// FindImpoundmentByID implements service.ImpoundService.
func (db *DB) FindImpoundmentByID(ctx context.Context, id int64) (*service.Impoundment, error) {
	return findByID(ctx, db, "impoundments", columns.Impound, "Impoundment", id, scanImpound)
}

// FindImpoundments implements service.ImpoundService; newest intake first.
func (db *DB) FindImpoundments(ctx context.Context, f service.ImpoundFilter) ([]*service.Impoundment, int, error) {
	return findPage(ctx, db.rdb, "impoundments", columns.Impound, "intake_on DESC, id DESC", "Impoundment", filter.Impounds(f), f.Offset, f.Limit, scanImpound)
}
