package postgres

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/chipdesk/chipdesk/service"
)

// FindIdempotencyKey implements service.IdempotencyService.
func (db *DB) FindIdempotencyKey(ctx context.Context, actor, key string) (*service.IdempotencyRecord, error) {
	r := &service.IdempotencyRecord{Key: key, Actor: actor}
	var at int64
	err := db.pool.QueryRow(ctx, `SELECT method, path, body_hash, status, body, created_at FROM idempotency_keys
		WHERE actor = $1 AND idem_key = $2 AND created_at >= $3`, actor, key, db.now().Add(-service.IdempotencyTTL).UnixNano()).
		Scan(&r.Method, &r.Path, &r.BodyHash, &r.Status, &r.Body, &at)
	if err != nil {
		return nil, notFound(err, "Idempotency-Key")
	}
	r.CreatedAt = time.Unix(0, at).UTC()
	return r, nil
}

// putIdempotency keeps the Idempotency-Key ctx carries, if any, with
// the answer for the record v, in tx: the record and its key commit
// together. A concurrent request with the same key waits on the key's
// unique index and then fails with ECONFLICT, rolling back its record.
// Expired keys go in the same write.
func putIdempotency(ctx context.Context, tx pgx.Tx, now time.Time, v any) error {
	req := service.IdempotencyOf(ctx)
	if req == nil {
		return nil
	}
	rec, err := req.Answer(v)
	if err != nil {
		return err
	}
	if _, err := tx.Exec(ctx, `DELETE FROM idempotency_keys WHERE created_at < $1`, now.Add(-service.IdempotencyTTL).UnixNano()); err != nil {
		return mapErr(err, "Idempotency-Key")
	}
	_, err = tx.Exec(ctx, `INSERT INTO idempotency_keys (actor, idem_key, method, path, body_hash, status, body, created_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`, rec.Actor, rec.Key, rec.Method, rec.Path, rec.BodyHash, rec.Status, rec.Body, now.UnixNano())
	return mapErr(err, "Idempotency-Key")
}
