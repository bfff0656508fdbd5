package postgres

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/store/columns"
)

var insertTokenSQL = insertSQL("tokens", columns.Token)

func scanToken(r rowScanner, extra ...any) (*service.Token, error) {
	return scanRow(r, columns.TokenDest, extra)
}

// CreateToken implements service.TokenService.
func (db *DB) CreateToken(ctx context.Context, t *service.Token) (string, error) {
	secret, err := t.Issue()
	if err != nil {
		return "", err
	}
	err = db.write(ctx, func(tx pgx.Tx, now time.Time) error {
		t.CreatedAt = now
		return insertRow(ctx, tx, "tokens", &t.ID, "Token", insertTokenSQL,
			t.Name, t.Role, t.Site, t.Hash[:], now, pstamp(t.ExpiresAt), pstamp(t.RevokedAt), pstamp(time.Time{}))
	})
	if err != nil {
		return "", err
	}
	return secret, nil
}

// Authenticate implements service.TokenService. The last-use stamp is
// written at most once a minute per token, so lookups stay reads.
func (db *DB) Authenticate(ctx context.Context, secret string) (*service.Token, error) {
	h := service.HashToken(secret)
	t, err := scanToken(db.pool.QueryRow(ctx, `SELECT `+columns.Token+` FROM tokens WHERE hash = $1`, h[:]))
	now := db.stampNow()
	if err != nil || !t.Usable(now) {
		if err != nil && !errors.Is(err, pgx.ErrNoRows) {
			return nil, mapErr(err, "Token")
		}
		return nil, service.Errorf(service.EUNAUTHORIZED, "Invalid or expired token.")
	}
	if t.LastUseDue(now) {
		if _, err := db.pool.Exec(ctx, `UPDATE tokens SET last_used_at = $1 WHERE id = $2`, now, t.ID); err != nil {
			return nil, mapErr(err, "Token")
		}
		t.LastUsedAt = now
	}
	return t, nil
}

// RevokeToken implements service.TokenService.
func (db *DB) RevokeToken(ctx context.Context, id int64) error {
	return db.write(ctx, func(tx pgx.Tx, now time.Time) error {
		tag, err := tx.Exec(ctx, `UPDATE tokens SET revoked_at = COALESCE(revoked_at, $1) WHERE id = $2`, now, id)
		if err != nil {
			return mapErr(err, "Token")
		}
		if tag.RowsAffected() == 0 {
			return service.Errorf(service.ENOTFOUND, "Token not found.")
		}
		return nil
	})
}

// FindTokens implements service.TokenService.
func (db *DB) FindTokens(ctx context.Context) ([]*service.Token, error) {
	out, err := collect(ctx, db.pool, scanToken, `SELECT `+columns.Token+` FROM tokens ORDER BY id`)
	return out, mapErr(err, "Token")
}
