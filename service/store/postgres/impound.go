package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
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
	return db.write(ctx, func(tx pgx.Tx, now time.Time) error { return insertImpoundment(ctx, tx, i, now) })
}

// insertImpoundment inserts i in tx (CreateImpoundment, a handheld's
// impound event).
func insertImpoundment(ctx context.Context, tx pgx.Tx, i *service.Impoundment, now time.Time) error {
	i.CreatedAt, i.UpdatedAt = now, now
	if i.IntakeAt.IsZero() {
		i.IntakeAt = now
	}
	i.IntakeAt = i.IntakeAt.UTC().Truncate(time.Microsecond)
	return insertRow(ctx, tx, "impoundments", &i.ID, "Impoundment", insertImpoundSQL,
		i.AnimalID, i.Jurisdiction, i.IntakeAt, pdate(i.IntakeOn), i.Site, i.WhereFound, pdate(i.NoticeOn),
		pdate(i.HoldUntil), i.BiteCase, i.Disposition, pdate(i.DispositionOn), i.DispositionNote, i.FeesCents, now, now)
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
		if err != nil || u.Fees == nil {
			return mapErr(err, "Impoundment")
		}
		lines, err := json.Marshal(u.Fees)
		if err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `INSERT INTO impound_release_fees (impound_id, lines, created_at) VALUES ($1, $2, $3)
			ON CONFLICT (impound_id) DO UPDATE SET lines = excluded.lines, created_at = excluded.created_at`, id, string(lines), now)
		return mapErr(err, "Release fees")
	})
}

// FindReleaseFees implements service.ImpoundService.
func (db *DB) FindReleaseFees(ctx context.Context, id int64) ([]service.ReleaseFee, error) {
	var lines string
	err := db.pool.QueryRow(ctx, `SELECT lines FROM impound_release_fees WHERE impound_id = $1`, id).Scan(&lines)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	} else if err != nil {
		return nil, mapErr(err, "Release fees")
	}
	var out []service.ReleaseFee
	if err := json.Unmarshal([]byte(lines), &out); err != nil {
		return nil, fmt.Errorf("postgres: release fees of impoundment %d: %w", id, err)
	}
	return out, nil
}

// FindImpoundmentByID implements service.ImpoundService.
func (db *DB) FindImpoundmentByID(ctx context.Context, id int64) (*service.Impoundment, error) {
	return findByID(ctx, db, "impoundments", columns.Impound, "Impoundment", id, scanImpound)
}

// FindImpoundments implements service.ImpoundService; newest intake first.
func (db *DB) FindImpoundments(ctx context.Context, f service.ImpoundFilter) ([]*service.Impoundment, int, error) {
	return findPage(ctx, db, "impoundments", columns.Impound, "intake_on DESC, id DESC", "Impoundment", filter.Impounds(f), f.Offset, f.Limit, scanImpound)
}
