package sqlite

import (
	"context"
	"database/sql"
	"time"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/store/columns"
	"github.com/chipdesk/chipdesk/service/store/filter"
)

func scanTagBatch(r rowScanner, extra ...any) (*service.TagBatch, error) {
	return scanRow(r, columns.TagBatchDest, extra)
}

// reserveTagsSQL moves the counter past count numbers and returns the
// new last number; the range is last-count+1..last.
const reserveTagsSQL = `INSERT INTO tag_counters (jurisdiction, year, last) VALUES (?, ?, ?)
	ON CONFLICT (jurisdiction, year) DO UPDATE SET last = last + excluded.last RETURNING last`

// CreateTagBatch implements service.TagBatchService.
func (db *DB) CreateTagBatch(ctx context.Context, b *service.TagBatch, count int) (bool, error) {
	if err := b.Validate(count); err != nil {
		return false, err
	}
	return createByKey(ctx, db, "tag_batches", columns.TagBatch, "Tag batch", b, b.Key, scanTagBatch, func(tx *sql.Tx, now time.Time) error {
		var last int
		if err := tx.QueryRowContext(ctx, reserveTagsSQL, b.Jurisdiction, b.Year, count).Scan(&last); err != nil {
			return mapErr(err, "Tag number")
		}
		b.First, b.Last = last-count+1, last
		b.State, b.Done, b.Error, b.Attempts = service.JobQueued, 0, "", 0
		b.CreatedAt, b.UpdatedAt = now, now
		err := tx.QueryRowContext(ctx, `INSERT INTO tag_batches (`+columns.TagBatch+`) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?) RETURNING id`,
			nullID(b.ID), b.Kind, b.Jurisdiction, b.Year, b.First, b.Last, b.Species, b.Key, b.Device, b.State, b.Done,
			b.Error, b.Attempts, formatStamp(now), formatStamp(now)).Scan(&b.ID)
		service.Created(ctx, "tag_batches", b.ID)
		return mapErr(err, "Tag batch")
	})
}

// FindTagBatchByID implements service.TagBatchService.
func (db *DB) FindTagBatchByID(ctx context.Context, id int64) (*service.TagBatch, error) {
	return findByID(ctx, db, "tag_batches", columns.TagBatch, "Tag batch", id, scanTagBatch)
}

// FindTagBatches implements service.TagBatchService.
func (db *DB) FindTagBatches(ctx context.Context, f service.TagBatchFilter) ([]*service.TagBatch, int, error) {
	return findPage(ctx, db.rdb, "tag_batches", columns.TagBatch, "id", "Tag batch", filter.TagBatches(f), f.Offset, f.Limit, scanTagBatch)
}

// ClaimTagBatch implements service.TagBatchService.
func (db *DB) ClaimTagBatch(ctx context.Context, kind service.JobKind, device string) (*service.TagBatch, error) {
	return claimQueued(ctx, db, "tag_batches", columns.TagBatch, "Tag batch", "Queued tag batch", kind, device, scanTagBatch,
		func(b *service.TagBatch, now time.Time) (int64, int) {
			b.State, b.Device, b.Attempts, b.UpdatedAt = service.JobSent, device, b.Attempts+1, now
			return b.ID, b.Attempts
		})
}

// UpdateTagBatch implements service.TagBatchService.
func (db *DB) UpdateTagBatch(ctx context.Context, id int64, u service.TagBatchUpdate) (*service.TagBatch, error) {
	if err := u.Validate(); err != nil {
		return nil, err
	}
	return updateRow(ctx, db, "tag_batches", columns.TagBatch, "Tag batch", id, scanTagBatch, func(tx *sql.Tx, now time.Time, b *service.TagBatch) error {
		if err := b.Apply(u); err != nil {
			return err
		}
		b.UpdatedAt = now
		_, err := tx.ExecContext(ctx, `UPDATE tag_batches SET state=?, device=?, error=?, done=?, updated_at=? WHERE id=?`,
			b.State, b.Device, b.Error, b.Done, formatStamp(now), id)
		return mapErr(err, "Tag batch")
	})
}
