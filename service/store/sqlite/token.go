package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/store/columns"
)

func scanToken(r rowScanner, extra ...any) (*service.Token, error) {
	return scanRow(r, columns.TokenDest, extra)
}

// CreateToken implements service.TokenService.
func (db *DB) CreateToken(ctx context.Context, t *service.Token) (string, error) {
	secret, err := t.Issue()
	if err != nil {
		return "", err
	}
	err = db.write(ctx, func(tx *sql.Tx, now time.Time) error {
		t.CreatedAt = now
		err := tx.QueryRowContext(ctx, `INSERT INTO tokens (`+columns.Token+`) VALUES (?,?,?,?,?,?,?,?,?) RETURNING id`,
			nullID(t.ID), t.Name, t.Role, t.Site, t.Hash[:], formatStamp(now), formatStamp(t.ExpiresAt),
			formatStamp(t.RevokedAt), nil).Scan(&t.ID)
		service.Created(ctx, "tokens", t.ID)
		return mapErr(err, "Token")
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
	t, err := scanToken(db.rdb.QueryRowContext(ctx, `SELECT `+columns.Token+` FROM tokens WHERE hash = ?`, h[:]))
	now := db.now().UTC()
	if err != nil || !t.Usable(now) {
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return nil, mapErr(err, "Token")
		}
		return nil, service.Errorf(service.EUNAUTHORIZED, "Invalid or expired token.")
	}
	if t.LastUseDue(now) {
		err := db.write(ctx, func(tx *sql.Tx, now time.Time) error {
			_, err := tx.ExecContext(ctx, `UPDATE tokens SET last_used_at = ? WHERE id = ?`, formatStamp(now), t.ID)
			t.LastUsedAt = now
			return mapErr(err, "Token")
		})
		if err != nil {
			return nil, err
		}
	}
	return t, nil
}

// RevokeToken implements service.TokenService.
func (db *DB) RevokeToken(ctx context.Context, id int64) error {
	return db.write(ctx, func(tx *sql.Tx, now time.Time) error {
		res, err := tx.ExecContext(ctx, `UPDATE tokens SET revoked_at = COALESCE(revoked_at, ?) WHERE id = ?`, formatStamp(now), id)
		if err != nil {
			return mapErr(err, "Token")
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return service.Errorf(service.ENOTFOUND, "Token not found.")
		}
		return nil
	})
}

// FindTokens implements service.TokenService.
func (db *DB) FindTokens(ctx context.Context) ([]*service.Token, error) {
	out, err := collect(ctx, db.rdb, scanToken, `SELECT `+columns.Token+` FROM tokens ORDER BY id`)
	return out, mapErr(err, "Token")
}
