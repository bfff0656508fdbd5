package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
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
		err := insertImpoundment(ctx, tx, i, now)
		service.Created(ctx, "impoundments", i.ID)
		return err
	})
}

// insertImpoundment inserts i in tx (CreateImpoundment, a handheld's
// impound event).
func insertImpoundment(ctx context.Context, tx *sql.Tx, i *service.Impoundment, now time.Time) error {
	i.CreatedAt, i.UpdatedAt = now, now
	if i.IntakeAt.IsZero() {
		i.IntakeAt = now
	}
	err := tx.QueryRowContext(ctx, `INSERT INTO impoundments (`+columns.Impound+`) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?) RETURNING id`,
		nullID(i.ID), i.AnimalID, i.Jurisdiction, formatStamp(i.IntakeAt), i.IntakeOn, i.Site, i.WhereFound, i.NoticeOn,
		i.HoldUntil, i.BiteCase, i.Disposition, i.DispositionOn, i.DispositionNote, i.FeesCents,
		formatStamp(now), formatStamp(now)).Scan(&i.ID)
	return mapErr(err, "Impoundment")
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
		if err != nil || u.Fees == nil {
			return mapErr(err, "Impoundment")
		}
		lines, err := json.Marshal(u.Fees)
		if err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO impound_release_fees (impound_id, lines, created_at) VALUES (?, ?, ?)
			ON CONFLICT (impound_id) DO UPDATE SET lines = excluded.lines, created_at = excluded.created_at`, id, string(lines), formatStamp(now))
		return mapErr(err, "Release fees")
	})
}

// FindReleaseFees implements service.ImpoundService.
func (db *DB) FindReleaseFees(ctx context.Context, id int64) ([]service.ReleaseFee, error) {
	var lines string
	err := db.rdb.QueryRowContext(ctx, `SELECT lines FROM impound_release_fees WHERE impound_id = ?`, id).Scan(&lines)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	} else if err != nil {
		return nil, mapErr(err, "Release fees")
	}
	var out []service.ReleaseFee
	if err := json.Unmarshal([]byte(lines), &out); err != nil {
		return nil, fmt.Errorf("sqlite: release fees of impoundment %d: %w", id, err)
	}
	return out, nil
}

// FindImpoundmentByID implements service.ImpoundService.
func (db *DB) FindImpoundmentByID(ctx context.Context, id int64) (*service.Impoundment, error) {
	return findByID(ctx, db, "impoundments", columns.Impound, "Impoundment", id, scanImpound)
}

// FindImpoundments implements service.ImpoundService; newest intake first.
func (db *DB) FindImpoundments(ctx context.Context, f service.ImpoundFilter) ([]*service.Impoundment, int, error) {
	return findPage(ctx, db.rdb, "impoundments", columns.Impound, "intake_on DESC, id DESC", "Impoundment", filter.Impounds(f), f.Offset, f.Limit, scanImpound)
}
