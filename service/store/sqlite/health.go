package sqlite

import (
	"context"
	"database/sql"
	"time"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/store/columns"
)

func scanVaccination(r rowScanner, extra ...any) (*service.RabiesVaccination, error) {
	return scanRow(r, columns.VaccinationDest, extra)
}

const insertVaccinationSQL = `INSERT INTO vaccinations (` + columns.Vaccination + `) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?) RETURNING id`

func vaccinationArgs(v *service.RabiesVaccination) []any {
	return []any{nullID(v.ID), v.AnimalID, v.Date, v.Type, v.DurationMonths, v.ExtendedCertified, v.Product,
		v.Manufacturer, v.Lot, v.LotExpires, v.Veterinarian, v.VetLicence, v.Certificate, v.RabiesTag,
		formatStamp(v.CreatedAt)}
}

// CreateVaccination implements service.HealthService.
func (db *DB) CreateVaccination(ctx context.Context, v *service.RabiesVaccination) error {
	if err := v.Validate(); err != nil {
		return err
	}
	return db.write(ctx, func(tx *sql.Tx, now time.Time) error {
		v.CreatedAt = now
		if err := tx.QueryRowContext(ctx, insertVaccinationSQL, vaccinationArgs(v)...).Scan(&v.ID); err != nil {
			return mapErr(err, "Vaccination")
		}
		service.Created(ctx, "vaccinations", v.ID)
		return putIdempotency(ctx, tx, now, v)
	})
}

// FindVaccinations implements service.HealthService.
func (db *DB) FindVaccinations(ctx context.Context, animalID int64) ([]*service.RabiesVaccination, error) {
	out, err := collect(ctx, db.rdb, scanVaccination,
		`SELECT `+columns.Vaccination+` FROM vaccinations WHERE animal_id = ? ORDER BY date DESC, id DESC`, animalID)
	return out, mapErr(err, "Vaccination")
}

func scanBite(r rowScanner, extra ...any) (*service.BiteIncident, error) {
	return scanRow(r, columns.BiteDest, extra)
}

// CreateBite implements service.HealthService.
func (db *DB) CreateBite(ctx context.Context, b *service.BiteIncident) error {
	if err := b.Validate(); err != nil {
		return err
	}
	return db.write(ctx, func(tx *sql.Tx, now time.Time) error {
		b.CreatedAt = now
		err := tx.QueryRowContext(ctx, `INSERT INTO bites (`+columns.Bite+`) VALUES (?,?,?,?,?,?,?,?,?) RETURNING id`,
			nullID(b.ID), b.AnimalID, b.Date, b.Victim, b.SkinBroken, b.Provoked, b.Location, b.Notes, formatStamp(now)).Scan(&b.ID)
		service.Created(ctx, "bites", b.ID)
		return mapErr(err, "Bite")
	})
}

// FindBites implements service.HealthService.
func (db *DB) FindBites(ctx context.Context, animalID int64) ([]*service.BiteIncident, error) {
	out, err := collect(ctx, db.rdb, scanBite, `SELECT `+columns.Bite+` FROM bites WHERE animal_id = ? ORDER BY date DESC, id DESC`, animalID)
	return out, mapErr(err, "Bite")
}

func scanQuarantine(r rowScanner, extra ...any) (*service.Quarantine, error) {
	return scanRow(r, columns.QuarantineDest, extra)
}

// CreateQuarantine implements service.HealthService.
func (db *DB) CreateQuarantine(ctx context.Context, q *service.Quarantine) error {
	if err := q.Validate(); err != nil {
		return err
	}
	return db.write(ctx, func(tx *sql.Tx, now time.Time) error {
		q.CreatedAt = now
		err := tx.QueryRowContext(ctx, `INSERT INTO quarantines (`+columns.Quarantine+`) VALUES (?,?,?,?,?,?,?,?,?,?) RETURNING id`,
			nullID(q.ID), q.AnimalID, nullID(q.BiteID), q.Kind, q.Place, q.Start, q.End, q.ReleasedOn, q.Notes,
			formatStamp(now)).Scan(&q.ID)
		service.Created(ctx, "quarantines", q.ID)
		return mapErr(err, "Quarantine")
	})
}

// ReleaseQuarantine implements service.HealthService.
func (db *DB) ReleaseQuarantine(ctx context.Context, id int64, on service.Date) error {
	if on.IsZero() {
		return service.Errorf(service.EINVALID, "Release date required.")
	}
	return db.write(ctx, func(tx *sql.Tx, _ time.Time) error {
		res, err := tx.ExecContext(ctx, `UPDATE quarantines SET released_on = ? WHERE id = ?`, on, id)
		if err != nil {
			return mapErr(err, "Quarantine")
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return service.Errorf(service.ENOTFOUND, "Quarantine not found.")
		}
		return nil
	})
}

// FindQuarantines implements service.HealthService.
func (db *DB) FindQuarantines(ctx context.Context, animalID int64) ([]*service.Quarantine, error) {
	out, err := collect(ctx, db.rdb, scanQuarantine,
		`SELECT `+columns.Quarantine+` FROM quarantines WHERE animal_id = ? ORDER BY start_on DESC, id DESC`, animalID)
	return out, mapErr(err, "Quarantine")
}

// FindOpenQuarantines implements service.HealthService.
func (db *DB) FindOpenQuarantines(ctx context.Context) ([]*service.Quarantine, error) {
	out, err := collect(ctx, db.rdb, scanQuarantine,
		`SELECT `+columns.Quarantine+` FROM quarantines WHERE released_on IS NULL ORDER BY end_on, id`)
	return out, mapErr(err, "Quarantine")
}
