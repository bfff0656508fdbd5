package postgres

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/store/columns"
)

var insertVaccinationSQL = insertSQL("vaccinations", columns.Vaccination)

func scanVaccination(r rowScanner, extra ...any) (*service.RabiesVaccination, error) {
	return scanRow(r, columns.VaccinationDest, extra)
}

func vaccinationArgs(v *service.RabiesVaccination) []any {
	return []any{v.AnimalID, pdate(v.Date), v.Type, v.DurationMonths, v.ExtendedCertified, v.Product, v.Manufacturer,
		v.Lot, pdate(v.LotExpires), v.Veterinarian, v.VetLicence, v.Certificate, v.RabiesTag, pstamp(v.CreatedAt)}
}

// CreateVaccination implements service.HealthService.
func (db *DB) CreateVaccination(ctx context.Context, v *service.RabiesVaccination) error {
	if err := v.Validate(); err != nil {
		return err
	}
	return db.createKeyed(ctx, "vaccinations", "Vaccination", insertVaccinationSQL, &v.ID, v, func(now time.Time) []any {
		v.CreatedAt = now
		return vaccinationArgs(v)
	})
}

// FindVaccinations implements service.HealthService.
func (db *DB) FindVaccinations(ctx context.Context, animalID int64) ([]*service.RabiesVaccination, error) {
	out, err := collect(ctx, db.pool, scanVaccination,
		`SELECT `+columns.Vaccination+` FROM vaccinations WHERE animal_id = $1 ORDER BY date DESC, id DESC`, animalID)
	return out, mapErr(err, "Vaccination")
}

var insertBiteSQL = insertSQL("bites", columns.Bite)

func scanBite(r rowScanner, extra ...any) (*service.BiteIncident, error) {
	return scanRow(r, columns.BiteDest, extra)
}

// CreateBite implements service.HealthService.
func (db *DB) CreateBite(ctx context.Context, b *service.BiteIncident) error {
	if err := b.Validate(); err != nil {
		return err
	}
	return db.write(ctx, func(tx pgx.Tx, now time.Time) error {
		b.CreatedAt = now
		return insertRow(ctx, tx, "bites", &b.ID, "Bite", insertBiteSQL,
			b.AnimalID, pdate(b.Date), b.Victim, b.SkinBroken, b.Provoked, b.Location, b.Notes, now)
	})
}

// FindBites implements service.HealthService.
func (db *DB) FindBites(ctx context.Context, animalID int64) ([]*service.BiteIncident, error) {
	out, err := collect(ctx, db.pool, scanBite, `SELECT `+columns.Bite+` FROM bites WHERE animal_id = $1 ORDER BY date DESC, id DESC`, animalID)
	return out, mapErr(err, "Bite")
}

var insertQuarantineSQL = insertSQL("quarantines", columns.Quarantine)

func scanQuarantine(r rowScanner, extra ...any) (*service.Quarantine, error) {
	return scanRow(r, columns.QuarantineDest, extra)
}

// CreateQuarantine implements service.HealthService.
func (db *DB) CreateQuarantine(ctx context.Context, q *service.Quarantine) error {
	if err := q.Validate(); err != nil {
		return err
	}
	return db.write(ctx, func(tx pgx.Tx, now time.Time) error {
		q.CreatedAt = now
		return insertRow(ctx, tx, "quarantines", &q.ID, "Quarantine", insertQuarantineSQL,
			q.AnimalID, nullID(q.BiteID), q.Kind, q.Place, pdate(q.Start), pdate(q.End), pdate(q.ReleasedOn), q.Notes, now)
	})
}

// ReleaseQuarantine implements service.HealthService.
func (db *DB) ReleaseQuarantine(ctx context.Context, id int64, on service.Date) error {
	if on.IsZero() {
		return service.Errorf(service.EINVALID, "Release date required.")
	}
	return db.write(ctx, func(tx pgx.Tx, now time.Time) error {
		tag, err := tx.Exec(ctx, `UPDATE quarantines SET released_on = $1 WHERE id = $2`, pdate(on), id)
		if err != nil {
			return mapErr(err, "Quarantine")
		}
		if tag.RowsAffected() == 0 {
			return service.Errorf(service.ENOTFOUND, "Quarantine not found.")
		}
		return nil
	})
}

// FindQuarantines implements service.HealthService.
func (db *DB) FindQuarantines(ctx context.Context, animalID int64) ([]*service.Quarantine, error) {
	out, err := collect(ctx, db.pool, scanQuarantine,
		`SELECT `+columns.Quarantine+` FROM quarantines WHERE animal_id = $1 ORDER BY start_on DESC, id DESC`, animalID)
	return out, mapErr(err, "Quarantine")
}

// FindOpenQuarantines implements service.HealthService.
func (db *DB) FindOpenQuarantines(ctx context.Context) ([]*service.Quarantine, error) {
	out, err := collect(ctx, db.pool, scanQuarantine,
		`SELECT `+columns.Quarantine+` FROM quarantines WHERE released_on IS NULL ORDER BY end_on, id`)
	return out, mapErr(err, "Quarantine")
}
