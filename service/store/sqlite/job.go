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
	return createByKey(ctx, db, "jobs", columns.Job, "Job", j, j.Key, scanJob, func(tx *sql.Tx, now time.Time) error {
		j.State, j.Error, j.Attempts = service.JobQueued, "", 0
		j.CreatedAt, j.UpdatedAt = now, now
		err := tx.QueryRowContext(ctx, `INSERT INTO jobs (`+columns.Job+`) VALUES (?,?,?,?,?,?,?,?,?,?,?) RETURNING id`,
			nullID(j.ID), j.Kind, j.LicenceID, j.Reason, j.Key, j.Device, j.State, j.Error, j.Attempts,
			formatStamp(now), formatStamp(now)).Scan(&j.ID)
		service.Created(ctx, "jobs", j.ID)
		return mapErr(err, "Job")
	})
}

// FindJobByID implements service.JobService.
func (db *DB) FindJobByID(ctx context.Context, id int64) (*service.Job, error) {
	return findByID(ctx, db, "jobs", columns.Job, "Job", id, scanJob)
}

// FindJobs implements service.JobService.
func (db *DB) FindJobs(ctx context.Context, f service.JobFilter) ([]*service.Job, int, error) {
	return findPage(ctx, db.rdb, "jobs", columns.Job, "id", "Job", filter.Jobs(f), f.Offset, f.Limit, scanJob)
}

// ClaimJob implements service.JobService.
func (db *DB) ClaimJob(ctx context.Context, kind service.JobKind, device string) (*service.Job, error) {
	return claimQueued(ctx, db, "jobs", columns.Job, "Job", "Queued job", kind, device, scanJob, func(j *service.Job, now time.Time) (int64, int) {
		j.State, j.Device, j.Attempts, j.UpdatedAt = service.JobSent, device, j.Attempts+1, now
		return j.ID, j.Attempts
	})
}

// UpdateJob implements service.JobService.
func (db *DB) UpdateJob(ctx context.Context, id int64, u service.JobUpdate) (*service.Job, error) {
	if err := u.Validate(); err != nil {
		return nil, err
	}
	return updateRow(ctx, db, "jobs", columns.Job, "Job", id, scanJob, func(tx *sql.Tx, now time.Time, j *service.Job) error {
		j.Apply(u)
		j.UpdatedAt = now
		_, err := tx.ExecContext(ctx, `UPDATE jobs SET state=?, device=?, error=?, updated_at=? WHERE id=?`,
			j.State, j.Device, j.Error, formatStamp(now), id)
		return mapErr(err, "Job")
	})
}

// createByKey stores v unless a row of table (columns cols) already has
// key: then v becomes that row and createByKey reports false. insert
// writes the new row, in the same transaction as the look-up.
func createByKey[E any](ctx context.Context, db *DB, table, cols, what string, v *E, key string,
	scan func(rowScanner, ...any) (*E, error), insert func(tx *sql.Tx, now time.Time) error) (bool, error) {
	created := false
	err := db.write(ctx, func(tx *sql.Tx, now time.Time) error {
		old, err := scan(tx.QueryRowContext(ctx, `SELECT `+cols+` FROM `+table+` WHERE key = ?`, key))
		if err == nil {
			*v = *old
			service.Replayed(ctx)
			return nil
		} else if !errors.Is(err, sql.ErrNoRows) {
			return mapErr(err, what)
		}
		err = insert(tx, now)
		created = err == nil
		return err
	})
	return created, err
}

// claimQueued takes the oldest queued row of kind in table (columns
// cols) and marks it sent to device: sent sets the state, device,
// attempts and time on the row read, and gives its id and attempts.
// notFoundWhat names the row when none is queued.
func claimQueued[E any](ctx context.Context, db *DB, table, cols, what, notFoundWhat string, kind service.JobKind, device string,
	scan func(rowScanner, ...any) (*E, error), sent func(v *E, now time.Time) (id int64, attempts int)) (*E, error) {
	var v *E
	err := db.write(ctx, func(tx *sql.Tx, now time.Time) error {
		var err error
		v, err = scan(tx.QueryRowContext(ctx, `SELECT `+cols+` FROM `+table+` WHERE state = ? AND kind = ? ORDER BY id LIMIT 1`,
			service.JobQueued, kind))
		if err != nil {
			return notFound(err, notFoundWhat)
		}
		id, attempts := sent(v, now)
		_, err = tx.ExecContext(ctx, `UPDATE `+table+` SET state=?, device=?, attempts=?, updated_at=? WHERE id=?`,
			service.JobSent, device, attempts, formatStamp(now), id)
		return mapErr(err, what)
	})
	if err != nil {
		return nil, err
	}
	return v, nil
}
