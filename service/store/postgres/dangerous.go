package postgres

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/store/columns"
)

var insertDesignationSQL = insertSQL("designations", columns.Designation)

func scanDesignation(r rowScanner, extra ...any) (*service.DangerousDesignation, error) {
	return scanRow(r, columns.DesignationDest, extra)
}

// CreateDesignation implements service.DangerousService.
func (db *DB) CreateDesignation(ctx context.Context, d *service.DangerousDesignation) error {
	if err := d.Validate(); err != nil {
		return err
	}
	return db.write(ctx, func(tx pgx.Tx, now time.Time) error {
		d.CreatedAt, d.UpdatedAt = now, now
		return insertRow(ctx, tx, "designations", &d.ID, "Designation", insertDesignationSQL,
			d.AnimalID, d.Level, d.Jurisdiction, pdate(d.DeclaredOn), pdate(d.DecisionOn), d.Authority, d.Conditions,
			pdate(d.RegisteredOn), d.RegistrationNumber, pdate(d.SignOn), pdate(d.MicrochipOn), pdate(d.SterilisedOn),
			pdate(d.PhotoOn), pdate(d.InsuredOn), d.InsuranceCents, pdate(d.InsuranceExpires), pdate(d.RescindedOn), now, now)
	})
}

// UpdateDesignation implements service.DangerousService.
func (db *DB) UpdateDesignation(ctx context.Context, id int64, u service.DesignationUpdate) (*service.DangerousDesignation, error) {
	return updateRow(ctx, db, "designations", columns.Designation, "Designation", id, scanDesignation, func(tx pgx.Tx, now time.Time, d *service.DangerousDesignation) error {
		if err := d.Apply(u); err != nil {
			return err
		}
		d.UpdatedAt = now
		_, err := tx.Exec(ctx, `UPDATE designations SET decision_on=$1, registered_on=$2, sign_on=$3, microchip_on=$4,
			sterilised_on=$5, photo_on=$6, insured_on=$7, insurance_expires=$8, rescinded_on=$9, registration_number=$10,
			conditions=$11, insurance_cents=$12, updated_at=$13 WHERE id=$14`,
			pdate(d.DecisionOn), pdate(d.RegisteredOn), pdate(d.SignOn), pdate(d.MicrochipOn), pdate(d.SterilisedOn),
			pdate(d.PhotoOn), pdate(d.InsuredOn), pdate(d.InsuranceExpires), pdate(d.RescindedOn), d.RegistrationNumber,
			d.Conditions, d.InsuranceCents, now, id)
		return mapErr(err, "Designation")
	})
}

// FindDesignations implements service.DangerousService.
func (db *DB) FindDesignations(ctx context.Context, animalID int64) ([]*service.DangerousDesignation, error) {
	out, err := collect(ctx, db.pool, scanDesignation,
		`SELECT `+columns.Designation+` FROM designations WHERE $1 = 0 OR animal_id = $1 ORDER BY declared_on DESC, id DESC`, animalID)
	return out, mapErr(err, "Designation")
}

// FindDesignationsIn implements service.DangerousService.
func (db *DB) FindDesignationsIn(ctx context.Context, jurisdiction string) ([]*service.DangerousDesignation, error) {
	out, err := collect(ctx, db.pool, scanDesignation,
		`SELECT `+columns.Designation+` FROM designations WHERE jurisdiction = $1 AND rescinded_on IS NULL ORDER BY declared_on, id`, jurisdiction)
	return out, mapErr(err, "Designation")
}
