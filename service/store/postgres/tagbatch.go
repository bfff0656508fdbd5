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

func scanTagBatch(r rowScanner, extra ...any) (*service.TagBatch, error) {
	return scanRow(r, columns.TagBatchDest, extra)
}

// reserveTagsSQL moves the counter past count numbers and returns the
// new last number; the range is last-count+1..last. Like nextTagSQL it
// holds the counter row until commit.
const reserveTagsSQL = `INSERT INTO tag_counters (jurisdiction, year, last) VALUES ($1, $2, $3)
	ON CONFLICT (jurisdiction, year) DO UPDATE SET last = tag_counters.last + excluded.last RETURNING last`

// errKeyRace ends a transaction that lost a race for a batch key, giving
// back the numbers it reserved.
var errKeyRace = errors.New("postgres: tag batch key taken meanwhile")

// CreateTagBatch implements service.TagBatchService.
func (db *DB) CreateTagBatch(ctx context.Context, b *service.TagBatch, count int) (bool, error) {
	if err := b.Validate(count); err != nil {
		return false, err
	}
	for {
		created := false
		err := db.write(ctx, func(tx pgx.Tx, now time.Time) error {
			old, err := scanTagBatch(tx.QueryRow(ctx, `SELECT `+columns.TagBatch+` FROM tag_batches WHERE key = $1`, b.Key))
			if err == nil {
				*b = *old
				service.Replayed(ctx)
				return nil
			} else if !errors.Is(err, pgx.ErrNoRows) {
				return mapErr(err, "Tag batch")
			}
			var last int
			if err := tx.QueryRow(ctx, reserveTagsSQL, b.Jurisdiction, b.Year, count).Scan(&last); err != nil {
				return mapErr(err, "Tag number")
			}
			n := *b
			n.First, n.Last = last-count+1, last
			n.State, n.Done, n.Error, n.Attempts = service.JobQueued, 0, "", 0
			n.CreatedAt, n.UpdatedAt = now, now
			got, err := scanTagBatch(tx.QueryRow(ctx, `INSERT INTO tag_batches (`+columns.TagBatch+`)
				VALUES (COALESCE($1::bigint, nextval('tag_batches_id_seq')), $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)
				ON CONFLICT (key) DO NOTHING RETURNING `+columns.TagBatch,
				nullID(n.ID), n.Kind, n.Jurisdiction, n.Year, n.First, n.Last, n.Species, n.Key, n.Device, n.State, n.Done,
				n.Error, n.Attempts, now, now))
			if errors.Is(err, pgx.ErrNoRows) {
				return errKeyRace
			} else if err != nil {
				return mapErr(err, "Tag batch")
			}
			*b, created = *got, true
			service.Created(ctx, "tag_batches", b.ID)
			if n.ID != 0 {
				return mapErr(bumpSeq(ctx, tx, "tag_batches"), "Tag batch")
			}
			return nil
		})
		if errors.Is(err, errKeyRace) {
			continue // the other batch is committed now: read it
		}
		return created, err
	}
}

// FindTagBatchByID implements service.TagBatchService.
func (db *DB) FindTagBatchByID(ctx context.Context, id int64) (*service.TagBatch, error) {
	return findByID(ctx, db, "tag_batches", columns.TagBatch, "Tag batch", id, scanTagBatch)
}

// FindTagBatches implements service.TagBatchService.
func (db *DB) FindTagBatches(ctx context.Context, f service.TagBatchFilter) ([]*service.TagBatch, int, error) {
	return findPage(ctx, db, "tag_batches", columns.TagBatch, "id", "Tag batch", filter.TagBatches(f), f.Offset, f.Limit, scanTagBatch)
}

// ClaimTagBatch implements service.TagBatchService. SKIP LOCKED lets
// workers in several processes claim different batches at once.
func (db *DB) ClaimTagBatch(ctx context.Context, kind service.JobKind, device string) (*service.TagBatch, error) {
	return claimQueued(ctx, db, "tag_batches", columns.TagBatch, "Queued tag batch", kind, device, scanTagBatch)
}

// UpdateTagBatch implements service.TagBatchService.
func (db *DB) UpdateTagBatch(ctx context.Context, id int64, u service.TagBatchUpdate) (*service.TagBatch, error) {
	if err := u.Validate(); err != nil {
		return nil, err
	}
	return updateRow(ctx, db, "tag_batches", columns.TagBatch, "Tag batch", id, scanTagBatch, func(tx pgx.Tx, now time.Time, b *service.TagBatch) error {
		if err := b.Apply(u); err != nil {
			return err
		}
		b.UpdatedAt = now
		_, err := tx.Exec(ctx, `UPDATE tag_batches SET state=$1, device=$2, error=$3, done=$4, updated_at=$5 WHERE id=$6`,
			b.State, b.Device, b.Error, b.Done, now, id)
		return mapErr(err, "Tag batch")
	})
}
