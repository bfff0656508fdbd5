package postgres

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/store/columns"
	"github.com/chipdesk/chipdesk/service/store/filter"
)

var insertOwnerSQL = insertSQL("owners", columns.Owner)

func scanOwner(r rowScanner, extra ...any) (*service.Owner, error) {
	return scanRow(r, columns.OwnerDest, extra)
}

func ownerArgs(o *service.Owner) []any {
	return []any{o.Name, o.Address, o.City, o.State, o.Postcode, o.Phone, o.Email, pstamp(o.CreatedAt), pstamp(o.UpdatedAt)}
}

// FindOwnerByID implements service.OwnerService.
func (db *DB) FindOwnerByID(ctx context.Context, id int64) (*service.Owner, error) {
	return findByID(ctx, db, "owners", columns.Owner, "Owner", id, scanOwner)
}

// FindOwners implements service.OwnerService. The name filter is a
// case-insensitive substring (ILIKE).
func (db *DB) FindOwners(ctx context.Context, f service.OwnerFilter) ([]*service.Owner, int, error) {
	return findPage(ctx, db, "owners", columns.Owner, "id", "Owner", filter.Owners(f), f.Offset, f.Limit, scanOwner)
}

// CreateOwner implements service.OwnerService.
func (db *DB) CreateOwner(ctx context.Context, o *service.Owner) error {
	if err := o.Validate(); err != nil {
		return err
	}
	return db.createKeyed(ctx, "owners", "Owner", insertOwnerSQL, &o.ID, o, func(now time.Time) []any {
		o.CreatedAt, o.UpdatedAt = now, now
		return ownerArgs(o)
	})
}

// UpdateOwner implements service.OwnerService.
func (db *DB) UpdateOwner(ctx context.Context, id int64, u service.OwnerUpdate) (*service.Owner, error) {
	return updateRow(ctx, db, "owners", columns.Owner, "Owner", id, scanOwner, func(tx pgx.Tx, now time.Time, o *service.Owner) error {
		if err := o.Apply(u); err != nil {
			return err
		}
		o.UpdatedAt = now
		_, err := tx.Exec(ctx, `UPDATE owners SET name=$1, address=$2, city=$3, state=$4, postcode=$5, phone=$6, email=$7, updated_at=$8 WHERE id=$9`,
			o.Name, o.Address, o.City, o.State, o.Postcode, o.Phone, o.Email, now, id)
		return mapErr(err, "Owner")
	})
}
