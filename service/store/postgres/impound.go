package postgres

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/store/columns"
	"github.com/chipdesk/chipdesk/service/store/filter"
)

var insertImpoundSQL = insertSQL("impoundments", columns.Impound)

func scanImpound(r rowScanner, extra ...any) (*service.Impoundment, error) {
	return scanRow(r, columns.ImpoundDest, extra)
}

// CreateImpoundment implements service.ImpoundService. A zero IntakeAt
// is the transaction time.
func (db *DB) CreateImpoundment(ctx context.Context, i *service.Impoundment) error {
	if err := i.Validate(); err != nil {
		return err
	}
	return db.write(ctx, func(tx pgx.Tx, now time.Time) error {
		i.CreatedAt, i.UpdatedAt = now, now
		if i.IntakeAt.IsZero() {
			i.IntakeAt = now
		}
		i.IntakeAt = i.IntakeAt.UTC().Truncate(time.Microsecond)
		return insertRow(ctx, tx, "impoundments", &i.ID, "Impoundment", insertImpoundSQL,
			i.AnimalID, i.Jurisdiction, i.IntakeAt, pdate(i.IntakeOn), i.Site, i.WhereFound, pdate(i.NoticeOn),
			pdate(i.HoldUntil), i.BiteCase, i.Disposition, pdate(i.DispositionOn), i.DispositionNote, i.FeesCents, now, now)
	})
}

// UpdateImpoundment implements service.ImpoundService.
func (db *DB) UpdateImpoundment(ctx context.Context, id int64, u service.ImpoundUpdate) (*service.Impoundment, error) {
	return updateRow(ctx, db, "impoundments", columns.Impound, "Impoundment", id, scanImpound, func(tx pgx.Tx, now time.Time, i *service.Impoundment) error {
		if err := i.Apply(u); err != nil {
			return err
		}
		i.UpdatedAt = now
		_, err := tx.Exec(ctx, `UPDATE impoundments SET notice_on=$1, hold_until=$2, disposition_on=$3, disposition=$4,
			disposition_note=$5, fees_cents=$6, updated_at=$7 WHERE id=$8`,
			pdate(i.NoticeOn), pdate(i.HoldUntil), pdate(i.DispositionOn), i.Disposition, i.DispositionNote, i.FeesCents, now, id)
		return mapErr(err, "Impoundment")
	})
}

// FindImpoundmentByID implements service.ImpoundService.
func (db *DB) FindImpoundmentByID(ctx context.Context, id int64) (*service.Impoundment, error) {
	return findByID(ctx, db, "impoundments", columns.Impound, "Impoundment", id, scanImpound)
}

// FindImpoundments implements service.ImpoundService; newest intake first.
func (db *DB) FindImpoundments(ctx context.Context, f service.ImpoundFilter) ([]*service.Impoundment, int, error) {
	return findPage(ctx, db, "impoundments", columns.Impound, "intake_on DESC, id DESC", "Impoundment", filter.Impounds(f), f.Offset, f.Limit, scanImpound)
}
