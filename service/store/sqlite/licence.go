package sqlite

import (
	"context"
	"database/sql"
	"time"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/store/columns"
	"github.com/chipdesk/chipdesk/service/store/filter"
)

func scanLicence(r rowScanner, extra ...any) (*service.Licence, error) {
	return scanRow(r, columns.LicenceDest, extra)
}

// FindLicenceByID implements service.LicenceService.
func (db *DB) FindLicenceByID(ctx context.Context, id int64) (*service.Licence, error) {
	return findByID(ctx, db, "licences", columns.Licence, "Licence", id, scanLicence)
}

// FindLicenceByTag implements service.LicenceService.
func (db *DB) FindLicenceByTag(ctx context.Context, jurisdiction string, year, tag int) (*service.Licence, error) {
	l, err := scanLicence(db.rdb.QueryRowContext(ctx,
		`SELECT `+columns.Licence+` FROM licences WHERE jurisdiction = ? AND year = ? AND tag_number = ?`, jurisdiction, year, tag))
	if err != nil {
		return nil, notFound(err, "Licence")
	}
	return l, nil
}

// FindLicences implements service.LicenceService.
func (db *DB) FindLicences(ctx context.Context, f service.LicenceFilter) ([]*service.Licence, int, error) {
	return findPage(ctx, db.rdb, "licences", columns.Licence, "id", "Licence", filter.Licences(f), f.Offset, f.Limit, scanLicence)
}

// CreateLicence implements service.LicenceService.
func (db *DB) CreateLicence(ctx context.Context, l *service.Licence) error {
	if err := l.Prepare(); err != nil {
		return err
	}
	if v := l.Vaccination; v != nil {
		v.AnimalID = l.AnimalID
		if err := v.Validate(); err != nil {
			return err
		}
	}
	return db.write(ctx, func(tx *sql.Tx, now time.Time) error {
		if v := l.Vaccination; v != nil {
			// The certificate shown at the sale: one transaction with
			// the licence.
			v.CreatedAt = now
			if err := tx.QueryRowContext(ctx, insertVaccinationSQL, vaccinationArgs(v)...).Scan(&v.ID); err != nil {
				return mapErr(err, "Vaccination")
			}
			service.Created(ctx, "vaccinations", v.ID)
		}
		if l.Replaces != 0 {
			res, err := tx.ExecContext(ctx, `UPDATE licences SET status = ? WHERE id = ? AND status = ?`,
				service.LicenceReplaced, l.Replaces, service.LicenceActive)
			if err != nil {
				return mapErr(err, "Licence")
			}
			if n, _ := res.RowsAffected(); n == 0 {
				return service.Errorf(service.ECONFLICT, "The licence to replace does not exist or is not active.")
			}
		}
		if err := insertLicence(ctx, tx, l, now); err != nil {
			return err
		}
		return putIdempotency(ctx, tx, now, l)
	})
}

// Tag numbering: tag_counters.last is bumped in the inserting
// transaction. A given number raises the counter to at least that
// number, so later automatic numbers never collide with it.
const (
	nextTagSQL = `INSERT INTO tag_counters (jurisdiction, year, last) VALUES (?, ?, 1)
		ON CONFLICT (jurisdiction, year) DO UPDATE SET last = last + 1 RETURNING last`
	raiseTagSQL = `INSERT INTO tag_counters (jurisdiction, year, last) VALUES (?, ?, ?)
		ON CONFLICT (jurisdiction, year) DO UPDATE SET last = MAX(last, excluded.last)`
	insertLicenceSQL = `INSERT INTO licences (` + columns.Licence + `) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?) RETURNING id`
)

func insertLicence(ctx context.Context, tx *sql.Tx, l *service.Licence, now time.Time) error {
	if l.TagNumber == 0 {
		if err := tx.QueryRowContext(ctx, nextTagSQL, l.Jurisdiction, l.Year).Scan(&l.TagNumber); err != nil {
			return mapErr(err, "Tag number")
		}
	} else if _, err := tx.ExecContext(ctx, raiseTagSQL, l.Jurisdiction, l.Year, l.TagNumber); err != nil {
		return mapErr(err, "Tag number")
	}
	l.CreatedAt = now
	err := tx.QueryRowContext(ctx, insertLicenceSQL, licenceArgs(l)...).Scan(&l.ID)
	service.Created(ctx, "licences", l.ID)
	return mapErr(err, "Licence or tag number")
}

func licenceArgs(l *service.Licence) []any {
	return []any{nullID(l.ID), l.AnimalID, l.Kind, l.Jurisdiction, l.Year, l.TagNumber, l.IssuedOn, l.ExpiresOn,
		l.Status, l.FeeCents, l.FeeCode, l.IssuedBy, l.Clinic, l.ClinicPayCents, nullID(l.Replaces), l.ReplaceReason,
		formatStamp(l.CreatedAt), l.Site}
}

// RevokeLicence implements service.LicenceService.
func (db *DB) RevokeLicence(ctx context.Context, id int64) error {
	return db.write(ctx, func(tx *sql.Tx, _ time.Time) error {
		res, err := tx.ExecContext(ctx, `UPDATE licences SET status = ? WHERE id = ?`, service.LicenceRevoked, id)
		if err != nil {
			return mapErr(err, "Licence")
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return service.Errorf(service.ENOTFOUND, "Licence not found.")
		}
		return nil
	})
}
