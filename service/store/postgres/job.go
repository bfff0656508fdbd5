package postgres

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/store/columns"
	"github.com/chipdesk/chipdesk/service/store/filter"
)

func scanJob(r rowScanner, extra ...any) (*service.Job, error) {
	return scanRow(r, columns.JobDest, extra)
}

// CreateJob implements service.JobService. The insert skips a key that
// exists (ON CONFLICT DO NOTHING), so two processes creating the same
// job end with one.
func (db *DB) CreateJob(ctx context.Context, j *service.Job) (bool, error) {
	if err := j.Validate(); err != nil {
		return false, err
	}
	if j.Key == "" {
		j.Key = service.JobKey(j.LicenceID, j.Reason)
	}
	created := false
	err := db.write(ctx, func(tx pgx.Tx, now time.Time) error {
		n := *j
		n.State, n.Error, n.Attempts, n.CreatedAt, n.UpdatedAt = service.JobQueued, "", 0, now, now
		got, err := scanJob(tx.QueryRow(ctx, `INSERT INTO jobs (`+columns.Job+`)
			VALUES (COALESCE($1::bigint, nextval('jobs_id_seq')), $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
			ON CONFLICT (key) DO NOTHING RETURNING `+columns.Job,
			nullID(n.ID), n.Kind, n.LicenceID, n.Reason, n.Key, n.Device, n.State, n.Error, n.Attempts, now, now))
		if err == nil {
			*j, created = *got, true
			service.Created(ctx, "jobs", j.ID)
			if n.ID != 0 {
				return mapErr(bumpSeq(ctx, tx, "jobs"), "Job")
			}
			return nil
		} else if !errors.Is(err, pgx.ErrNoRows) {
			return mapErr(err, "Job")
		}
		old, err := scanJob(tx.QueryRow(ctx, `SELECT `+columns.Job+` FROM jobs WHERE key = $1`, j.Key))
		if err != nil {
			return mapErr(err, "Job")
		}
		*j = *old
		service.Replayed(ctx)
		return nil
	})
	return created, err
}

// FindJobByID implements service.JobService.
func (db *DB) FindJobByID(ctx context.Context, id int64) (*service.Job, error) {
	return findByID(ctx, db, "jobs", columns.Job, "Job", id, scanJob)
}

// FindJobs implements service.JobService.
func (db *DB) FindJobs(ctx context.Context, f service.JobFilter) ([]*service.Job, int, error) {
	return findPage(ctx, db, "jobs", columns.Job, "id", "Job", filter.Jobs(f), f.Offset, f.Limit, scanJob)
}

// ClaimJob implements service.JobService. SKIP LOCKED lets workers in
// several processes claim different jobs at once.
func (db *DB) ClaimJob(ctx context.Context, kind service.JobKind, device string) (*service.Job, error) {
	return claimQueued(ctx, db, "jobs", columns.Job, "Queued job", kind, device, scanJob)
}

// UpdateJob implements service.JobService.
func (db *DB) UpdateJob(ctx context.Context, id int64, u service.JobUpdate) (*service.Job, error) {
	if err := u.Validate(); err != nil {
		return nil, err
	}
	j, err := scanJob(db.pool.QueryRow(ctx, `UPDATE jobs SET state = COALESCE($1, state), device = COALESCE($2, device),
		error = COALESCE($3, error), updated_at = $4 WHERE id = $5 RETURNING `+columns.Job,
		u.State, u.Device, u.Error, db.stampNow(), id))
	if err != nil {
		return nil, notFound(err, "Job")
	}
	return j, nil
}

// claimQueued marks the oldest queued row of kind in table (columns
// cols) sent to device and returns it; one that another claim holds is
// skipped. notFoundWhat names the row when none is queued.
func claimQueued[E any](ctx context.Context, db *DB, table, cols, notFoundWhat string, kind service.JobKind, device string,
	scan func(rowScanner, ...any) (*E, error)) (*E, error) {
	v, err := scan(db.pool.QueryRow(ctx, `UPDATE `+table+` SET state = $1, device = $2, attempts = attempts + 1, updated_at = $3
		WHERE id = (SELECT id FROM `+table+` WHERE state = $4 AND kind = $5 ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED)
		RETURNING `+cols, service.JobSent, device, db.stampNow(), service.JobQueued, kind))
	if err != nil {
		return nil, notFound(err, notFoundWhat)
	}
	return v, nil
}
