package sqlite

import (
	"context"
	"database/sql"
	"time"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/store/columns"
)

func scanDesignation(r rowScanner, extra ...any) (*service.DangerousDesignation, error) {
	return scanRow(r, columns.DesignationDest, extra)
}

// CreateDesignation implements service.DangerousService.
func (db *DB) CreateDesignation(ctx context.Context, d *service.DangerousDesignation) error {
	if err := d.Validate(); err != nil {
		return err
	}
	return db.write(ctx, func(tx *sql.Tx, now time.Time) error {
		d.CreatedAt, d.UpdatedAt = now, now
		err := tx.QueryRowContext(ctx, `INSERT INTO designations (`+columns.Designation+`) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?) RETURNING id`,
			nullID(d.ID), d.AnimalID, d.Level, d.Jurisdiction, d.DeclaredOn, d.DecisionOn, d.Authority, d.Conditions,
			d.RegisteredOn, d.RegistrationNumber, d.SignOn, d.MicrochipOn, d.SterilisedOn, d.PhotoOn, d.InsuredOn,
			d.InsuranceCents, d.InsuranceExpires, d.RescindedOn, formatStamp(now), formatStamp(now)).Scan(&d.ID)
		service.Created(ctx, "designations", d.ID)
		return mapErr(err, "Designation")
	})
}

// UpdateDesignation implements service.DangerousService.
func (db *DB) UpdateDesignation(ctx context.Context, id int64, u service.DesignationUpdate) (*service.DangerousDesignation, error) {
	return updateRow(ctx, db, "designations", columns.Designation, "Designation", id, scanDesignation, func(tx *sql.Tx, now time.Time, d *service.DangerousDesignation) error {
		if err := d.Apply(u); err != nil {
			return err
		}
		d.UpdatedAt = now
		_, err := tx.ExecContext(ctx, `UPDATE designations SET decision_on=?, registered_on=?, sign_on=?, microchip_on=?,
			sterilised_on=?, photo_on=?, insured_on=?, insurance_expires=?, rescinded_on=?, registration_number=?,
			conditions=?, insurance_cents=?, updated_at=? WHERE id=?`,
			d.DecisionOn, d.RegisteredOn, d.SignOn, d.MicrochipOn, d.SterilisedOn, d.PhotoOn, d.InsuredOn,
			d.InsuranceExpires, d.RescindedOn, d.RegistrationNumber, d.Conditions, d.InsuranceCents, formatStamp(now), id)
		return mapErr(err, "Designation")
	})
}

// FindDesignations implements service.DangerousService.
func (db *DB) FindDesignations(ctx context.Context, animalID int64) ([]*service.DangerousDesignation, error) {
	out, err := collect(ctx, db.rdb, scanDesignation,
		`SELECT `+columns.Designation+` FROM designations WHERE ?1 = 0 OR animal_id = ?1 ORDER BY declared_on DESC, id DESC`, animalID)
	return out, mapErr(err, "Designation")
}

// FindDesignationsIn implements service.DangerousService.
func (db *DB) FindDesignationsIn(ctx context.Context, jurisdiction string) ([]*service.DangerousDesignation, error) {
	out, err := collect(ctx, db.rdb, scanDesignation,
		`SELECT `+columns.Designation+` FROM designations WHERE jurisdiction = ? AND rescinded_on IS NULL ORDER BY declared_on, id`, jurisdiction)
	return out, mapErr(err, "Designation")
}
