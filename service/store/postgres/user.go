package postgres

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/chipdesk/chipdesk/service"
)

const userCols = `id, name, role, site, hash, created_at, disabled_at`

var insertUserSQL = `INSERT INTO users (` + userCols + `) VALUES (COALESCE($1::bigint, nextval('users_id_seq')), $2, $3, $4, $5, $6, $7) RETURNING id`

func scanUser(r rowScanner, extra ...any) (*service.User, error) {
	u := &service.User{}
	err := r.Scan(append([]any{&u.ID, &u.Name, &u.Role, &u.Site, &u.Hash, stampDst{&u.CreatedAt}, stampDst{&u.DisabledAt}}, extra...)...)
	return u, err
}

// CreateUser implements service.UserService.
func (db *DB) CreateUser(ctx context.Context, u *service.User) error {
	if err := u.Validate(); err != nil {
		return err
	}
	return db.write(ctx, func(tx pgx.Tx, now time.Time) error {
		u.CreatedAt = now
		return insertRow(ctx, tx, "users", &u.ID, "Account", insertUserSQL,
			u.Name, u.Role, u.Site, u.Hash, now, pstamp(u.DisabledAt))
	})
}

// FindUserByName implements service.UserService.
func (db *DB) FindUserByName(ctx context.Context, name string) (*service.User, error) {
	u, err := scanUser(db.pool.QueryRow(ctx, `SELECT `+userCols+` FROM users WHERE name = $1`, name))
	if err != nil {
		return nil, notFound(err, "Account")
	}
	return u, nil
}

// SetUserPassword implements service.UserService.
func (db *DB) SetUserPassword(ctx context.Context, name, hash string) error {
	return db.updateUser(ctx, `UPDATE users SET hash = $1 WHERE name = $2`, hash, name)
}

// DisableUser implements service.UserService. Disabling twice keeps
// the first time.
func (db *DB) DisableUser(ctx context.Context, name string) error {
	return db.updateUser(ctx, `UPDATE users SET disabled_at = COALESCE(disabled_at, $1) WHERE name = $2`, db.stampNow(), name)
}

func (db *DB) updateUser(ctx context.Context, q string, args ...any) error {
	return db.write(ctx, func(tx pgx.Tx, _ time.Time) error {
		tag, err := tx.Exec(ctx, q, args...)
		if err != nil {
			return mapErr(err, "Account")
		}
		if tag.RowsAffected() == 0 {
			return service.Errorf(service.ENOTFOUND, "Account not found.")
		}
		return nil
	})
}

// FindUsers implements service.UserService.
func (db *DB) FindUsers(ctx context.Context) ([]*service.User, error) {
	out, err := collect(ctx, db.pool, scanUser, `SELECT `+userCols+` FROM users ORDER BY id`)
	return out, mapErr(err, "Account")
}
