package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/store/columns"
	"github.com/chipdesk/chipdesk/service/store/filter"
)

func scanJob(r rowScanner, extra ...any) (*service.Job, error) {
	return scanRow(r, columns.JobDest, extra)
}

// CreateJob implements service.JobService.
func (db *DB) CreateJob(ctx context.Context, j *service.Job) (bool, error) {
	if err := j.Validate(); err != nil {
		return false, err
	}
	if j.Key == "" {
		j.Key = service.JobKey(j.LicenceID, j.Reason)
	}
	created := false
	err := db.write(ctx, func(tx *sql.Tx, now time.Time) error {
		old, err := scanJob(tx.QueryRowContext(ctx, `SELECT `+columns.Job+` FROM jobs WHERE key = ?`, j.Key))
		if err == nil {
			*j = *old
			return nil
		} else if !errors.Is(err, sql.ErrNoRows) {
			return mapErr(err, "Job")
		}
		j.State, j.Error, j.Attempts = service.JobQueued, "", 0
		j.CreatedAt, j.UpdatedAt = now, now
		err = tx.QueryRowContext(ctx, `INSERT INTO jobs (`+columns.Job+`) VALUES (?,?,?,?,?,?,?,?,?,?,?) RETURNING id`,
			nullID(j.ID), j.Kind, j.LicenceID, j.Reason, j.Key, j.Device, j.State, j.Error, j.Attempts,
			formatStamp(now), formatStamp(now)).Scan(&j.ID)
		created = err == nil
		return mapErr(err, "Job")
	})
	return created, err
}

// FindJobByID implements service.JobService.
func (db *DB) FindJobByID(ctx context.Context, id int64) (*service.Job, error) {
	j, err := scanJob(db.rdb.QueryRowContext(ctx, `SELECT `+columns.Job+` FROM jobs WHERE id = ?`, id))
	if err != nil {
		return nil, notFound(err, "Job")
	}
	return j, nil
}

// FindJobs implements service.JobService.
func (db *DB) FindJobs(ctx context.Context, f service.JobFilter) ([]*service.Job, int, error) {
	w := whereOf(filter.Jobs(f))
	out, n, err := collectCounted(ctx, db.rdb, scanJob,
		`SELECT `+columns.Job+`, COUNT(*) OVER () FROM jobs`+w.String()+` ORDER BY id`+page(f.Offset, f.Limit), w.args...)
	return out, n, mapErr(err, "Job")
}

// ClaimJob implements service.JobService.
func (db *DB) ClaimJob(ctx context.Context, kind service.JobKind, device string) (*service.Job, error) {
	var j *service.Job
	err := db.write(ctx, func(tx *sql.Tx, now time.Time) error {
		var err error
		j, err = scanJob(tx.QueryRowContext(ctx, `SELECT `+columns.Job+` FROM jobs WHERE state = ? AND kind = ? ORDER BY id LIMIT 1`,
			service.JobQueued, kind))
		if err != nil {
			return notFound(err, "Queued job")
		}
		j.State, j.Device, j.Attempts, j.UpdatedAt = service.JobSent, device, j.Attempts+1, now
		_, err = tx.ExecContext(ctx, `UPDATE jobs SET state=?, device=?, attempts=?, updated_at=? WHERE id=?`,
			j.State, j.Device, j.Attempts, formatStamp(now), j.ID)
		return mapErr(err, "Job")
	})
	if err != nil {
		return nil, err
	}
	return j, nil
}

// UpdateJob implements service.JobService.
func (db *DB) UpdateJob(ctx context.Context, id int64, u service.JobUpdate) (*service.Job, error) {
	if err := u.Validate(); err != nil {
		return nil, err
	}
	var j *service.Job
	err := db.write(ctx, func(tx *sql.Tx, now time.Time) error {
		var err error
		if j, err = scanJob(tx.QueryRowContext(ctx, `SELECT `+columns.Job+` FROM jobs WHERE id = ?`, id)); err != nil {
			return notFound(err, "Job")
		}
		j.Apply(u)
		j.UpdatedAt = now
		_, err = tx.ExecContext(ctx, `UPDATE jobs SET state=?, device=?, error=?, updated_at=? WHERE id=?`,
			j.State, j.Device, j.Error, formatStamp(now), id)
		return mapErr(err, "Job")
	})
	if err != nil {
		return nil, err
	}
	return j, nil
}
