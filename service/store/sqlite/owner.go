package sqlite

import (
	"context"
	"database/sql"
	"time"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/store/columns"
	"github.com/chipdesk/chipdesk/service/store/filter"
)

func scanOwner(r rowScanner, extra ...any) (*service.Owner, error) {
	return scanRow(r, columns.OwnerDest, extra)
}

// FindOwnerByID implements service.OwnerService.
func (db *DB) FindOwnerByID(ctx context.Context, id int64) (*service.Owner, error) {
	return findByID(ctx, db, "owners", columns.Owner, "Owner", id, scanOwner)
}

// FindOwners implements service.OwnerService.
func (db *DB) FindOwners(ctx context.Context, f service.OwnerFilter) ([]*service.Owner, int, error) {
	return findPage(ctx, db.rdb, "owners", columns.Owner, "id", "Owner", filter.Owners(f), f.Offset, f.Limit, scanOwner)
}

// CreateOwner implements service.OwnerService.
func (db *DB) CreateOwner(ctx context.Context, o *service.Owner) error {
	if err := o.Validate(); err != nil {
		return err
	}
	return db.write(ctx, func(tx *sql.Tx, now time.Time) error {
		if err := insertOwner(ctx, tx, o, now); err != nil {
			return err
		}
		return putIdempotency(ctx, tx, now, o)
	})
}

func insertOwner(ctx context.Context, tx *sql.Tx, o *service.Owner, now time.Time) error {
	o.CreatedAt, o.UpdatedAt = now, now
	var id any
	if o.ID != 0 {
		id = o.ID
	}
	err := tx.QueryRowContext(ctx, `INSERT INTO owners (`+columns.Owner+`) VALUES (?,?,?,?,?,?,?,?,?,?) RETURNING id`,
		id, o.Name, o.Address, o.City, o.State, o.Postcode, o.Phone, o.Email, formatStamp(now), formatStamp(now)).Scan(&o.ID)
	service.Created(ctx, "owners", o.ID)
	return mapErr(err, "Owner")
}

// UpdateOwner implements service.OwnerService.
func (db *DB) UpdateOwner(ctx context.Context, id int64, u service.OwnerUpdate) (*service.Owner, error) {
	return updateRow(ctx, db, "owners", columns.Owner, "Owner", id, scanOwner, func(tx *sql.Tx, now time.Time, o *service.Owner) error {
		if err := o.Apply(u); err != nil {
			return err
		}
		o.UpdatedAt = now
		_, err := tx.ExecContext(ctx, `UPDATE owners SET name=?, address=?, city=?, state=?, postcode=?, phone=?, email=?, updated_at=? WHERE id=?`,
			o.Name, o.Address, o.City, o.State, o.Postcode, o.Phone, o.Email, formatStamp(now), id)
		return mapErr(err, "Owner")
	})
}

// lowerASCII lower-cases the ASCII letters of s, as SQLite's LOWER does,
// for a LIKE pattern. The characters % and _ keep their wildcard
// meaning; a search box rarely holds them.
func lowerASCII(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}
