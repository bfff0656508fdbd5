package postgres

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/store/columns"
	"github.com/chipdesk/chipdesk/service/store/filter"
)

var insertLicenceSQL = insertSQL("licences", columns.Licence)

func scanLicence(r rowScanner, extra ...any) (*service.Licence, error) {
	return scanRow(r, columns.LicenceDest, extra)
}

func licenceArgs(l *service.Licence) []any {
	return []any{l.AnimalID, l.Kind, l.Jurisdiction, l.Year, l.TagNumber, pdate(l.IssuedOn), pdate(l.ExpiresOn),
		l.Status, l.FeeCents, l.FeeCode, l.IssuedBy, l.Clinic, l.ClinicPayCents, nullID(l.Replaces), l.ReplaceReason,
		pstamp(l.CreatedAt), l.Site}
}

// FindLicenceByID implements service.LicenceService.
func (db *DB) FindLicenceByID(ctx context.Context, id int64) (*service.Licence, error) {
	return findByID(ctx, db, "licences", columns.Licence, "Licence", id, scanLicence)
}

// FindLicenceByTag implements service.LicenceService.
func (db *DB) FindLicenceByTag(ctx context.Context, jurisdiction string, year, tag int) (*service.Licence, error) {
	l, err := scanLicence(db.pool.QueryRow(ctx,
		`SELECT `+columns.Licence+` FROM licences WHERE jurisdiction = $1 AND year = $2 AND tag_number = $3`, jurisdiction, year, tag))
	if err != nil {
		return nil, notFound(err, "Licence")
	}
	return l, nil
}

// FindLicences implements service.LicenceService.
func (db *DB) FindLicences(ctx context.Context, f service.LicenceFilter) ([]*service.Licence, int, error) {
	return findPage(ctx, db, "licences", columns.Licence, "id", "Licence", filter.Licences(f), f.Offset, f.Limit, scanLicence)
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
	return db.write(ctx, func(tx pgx.Tx, now time.Time) error {
		if v := l.Vaccination; v != nil {
			// The certificate shown at the sale: one transaction with
			// the licence.
			v.CreatedAt = now
			if err := insertRow(ctx, tx, "vaccinations", &v.ID, "Vaccination", insertVaccinationSQL, vaccinationArgs(v)...); err != nil {
				return err
			}
		}
		if l.Replaces != 0 {
			// The row lock makes a second, concurrent replacement wait
			// and then find the licence no longer active.
			tag, err := tx.Exec(ctx, `UPDATE licences SET status = $1 WHERE id = $2 AND status = $3`,
				service.LicenceReplaced, l.Replaces, service.LicenceActive)
			if err != nil {
				return mapErr(err, "Licence")
			}
			if tag.RowsAffected() == 0 {
				return service.Errorf(service.ECONFLICT, "The licence to replace does not exist or is not active.")
			}
		}
		if err := insertLicence(ctx, tx, l, now); err != nil {
			return err
		}
		return putIdempotency(ctx, tx, now, l)
	})
}

// Tag numbering (Minneapolis 64.30: a register number per tag and year).
// tag_counters.last is bumped in the inserting transaction; the upsert
// holds the counter row's lock until commit, so issuers in any number of
// processes take numbers one after the other, and a rolled-back issue
// gives its number back. A given number raises the counter to at least
// that number, so later automatic numbers never collide with it.
const (
	nextTagSQL = `INSERT INTO tag_counters (jurisdiction, year, last) VALUES ($1, $2, 1)
		ON CONFLICT (jurisdiction, year) DO UPDATE SET last = tag_counters.last + 1 RETURNING last`
	raiseTagSQL = `INSERT INTO tag_counters (jurisdiction, year, last) VALUES ($1, $2, $3)
		ON CONFLICT (jurisdiction, year) DO UPDATE SET last = GREATEST(tag_counters.last, excluded.last)`
)

func insertLicence(ctx context.Context, tx pgx.Tx, l *service.Licence, now time.Time) error {
	if l.TagNumber == 0 {
		if err := tx.QueryRow(ctx, nextTagSQL, l.Jurisdiction, l.Year).Scan(&l.TagNumber); err != nil {
			return mapErr(err, "Tag number")
		}
	} else if _, err := tx.Exec(ctx, raiseTagSQL, l.Jurisdiction, l.Year, l.TagNumber); err != nil {
		return mapErr(err, "Tag number")
	}
	l.CreatedAt = now
	return insertRow(ctx, tx, "licences", &l.ID, "Licence or tag number", insertLicenceSQL, licenceArgs(l)...)
}

// RevokeLicence implements service.LicenceService.
func (db *DB) RevokeLicence(ctx context.Context, id int64) error {
	return db.write(ctx, func(tx pgx.Tx, _ time.Time) error {
		tag, err := tx.Exec(ctx, `UPDATE licences SET status = $1 WHERE id = $2`, service.LicenceRevoked, id)
		if err != nil {
			return mapErr(err, "Licence")
		}
		if tag.RowsAffected() == 0 {
			return service.Errorf(service.ENOTFOUND, "Licence not found.")
		}
		return nil
	})
}
