package sqlite

import (
	"context"
	"database/sql"
	"time"

	"github.com/chipdesk/chipdesk/service"
)

const userCols = `id, name, role, site, hash, created_at, disabled_at`

func scanUser(r rowScanner, extra ...any) (*service.User, error) {
	u := &service.User{}
	err := r.Scan(append([]any{&u.ID, &u.Name, &u.Role, &u.Site, &u.Hash, stamp{&u.CreatedAt}, stamp{&u.DisabledAt}}, extra...)...)
	return u, err
}

// CreateUser implements service.UserService.
func (db *DB) CreateUser(ctx context.Context, u *service.User) error {
	if err := u.Validate(); err != nil {
		return err
	}
	return db.write(ctx, func(tx *sql.Tx, now time.Time) error {
		u.CreatedAt = now
		err := tx.QueryRowContext(ctx, `INSERT INTO users (`+userCols+`) VALUES (?,?,?,?,?,?,?) RETURNING id`,
			nullID(u.ID), u.Name, u.Role, u.Site, u.Hash, formatStamp(now), formatStamp(u.DisabledAt)).Scan(&u.ID)
		service.Created(ctx, "users", u.ID)
		return mapErr(err, "Account")
	})
}

// FindUserByName implements service.UserService.
func (db *DB) FindUserByName(ctx context.Context, name string) (*service.User, error) {
	u, err := scanUser(db.rdb.QueryRowContext(ctx, `SELECT `+userCols+` FROM users WHERE name = ?`, name))
	if err != nil {
		return nil, notFound(err, "Account")
	}
	return u, nil
}

// SetUserPassword implements service.UserService.
func (db *DB) SetUserPassword(ctx context.Context, name, hash string) error {
	return db.updateUser(ctx, `UPDATE users SET hash = ? WHERE name = ?`, hash, name)
}

// DisableUser implements service.UserService. Disabling twice keeps
// the first time.
func (db *DB) DisableUser(ctx context.Context, name string) error {
	return db.updateUser(ctx, `UPDATE users SET disabled_at = COALESCE(disabled_at, ?) WHERE name = ?`, formatStamp(db.now()), name)
}

func (db *DB) updateUser(ctx context.Context, q string, args ...any) error {
	return db.write(ctx, func(tx *sql.Tx, _ time.Time) error {
		res, err := tx.ExecContext(ctx, q, args...)
		if err != nil {
			return mapErr(err, "Account")
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return service.Errorf(service.ENOTFOUND, "Account not found.")
		}
		return nil
	})
}

// FindUsers implements service.UserService.
func (db *DB) FindUsers(ctx context.Context) ([]*service.User, error) {
	out, err := collect(ctx, db.rdb, scanUser, `SELECT `+userCols+` FROM users ORDER BY id`)
	return out, mapErr(err, "Account")
}
