package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/chipdesk/chipdesk/service"
)

// Permits, adoption agreements and reports are kept whole as JSON in a
// body column; the other columns are what lists select on.

func scanBody[T any](r rowScanner, id *int64, v *T, extra []any) error {
	var body string
	if err := r.Scan(append([]any{id, &body}, extra...)...); err != nil {
		return err
	}
	if err := json.Unmarshal([]byte(body), v); err != nil {
		return fmt.Errorf("sqlite: bad stored body: %w", err)
	}
	return nil
}

func bodyOf(v any) (string, error) {
	b, err := json.Marshal(v)
	return string(b), err
}

func scanPermit(r rowScanner, extra ...any) (*service.Permit, error) {
	p := &service.Permit{}
	var id int64
	if err := scanBody(r, &id, p, extra); err != nil {
		return nil, err
	}
	p.ID = id
	return p, nil
}

// CreatePermit implements service.PermitService.
func (db *DB) CreatePermit(ctx context.Context, p *service.Permit) error {
	if err := p.Validate(); err != nil {
		return err
	}
	return db.write(ctx, func(tx *sql.Tx, now time.Time) error {
		p.CreatedAt, p.UpdatedAt = now, now
		year := p.IssuedOn.Year()
		if p.IssuedOn.IsZero() {
			year = p.AppliedOn.Year()
		}
		if p.Kind == service.PermitOffLeash && p.TagNumber == 0 {
			err := tx.QueryRowContext(ctx, `INSERT INTO permit_counters (jurisdiction, kind, year, last) VALUES (?, ?, ?, 1)
				ON CONFLICT (jurisdiction, kind, year) DO UPDATE SET last = last + 1 RETURNING last`, p.Jurisdiction, p.Kind, year).Scan(&p.TagNumber)
			if err != nil {
				return mapErr(err, "Permit number")
			}
		}
		body, err := bodyOf(p)
		if err != nil {
			return err
		}
		err = tx.QueryRowContext(ctx, `INSERT INTO permits (kind, jurisdiction, state, owner_id, animal_id, holder, expires_on, year, tag_number, body, created_at, updated_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`, p.Kind, p.Jurisdiction, p.State, p.OwnerID, p.AnimalID, p.Holder,
			p.ExpiresOn, year, p.TagNumber, body, formatStamp(now), formatStamp(now)).Scan(&p.ID)
		service.Created(ctx, "permits", p.ID)
		return mapErr(err, "Permit")
	})
}

// UpdatePermit implements service.PermitService.
func (db *DB) UpdatePermit(ctx context.Context, p *service.Permit) error {
	if err := p.Validate(); err != nil {
		return err
	}
	return db.write(ctx, func(tx *sql.Tx, now time.Time) error {
		old, err := scanPermit(tx.QueryRowContext(ctx, `SELECT id, body FROM permits WHERE id = ?`, p.ID))
		if err != nil {
			return notFound(err, "Permit")
		}
		p.Kind, p.CreatedAt, p.UpdatedAt = old.Kind, old.CreatedAt, now
		body, err := bodyOf(p)
		if err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `UPDATE permits SET jurisdiction=?, state=?, owner_id=?, animal_id=?, holder=?, expires_on=?, body=?, updated_at=? WHERE id=?`,
			p.Jurisdiction, p.State, p.OwnerID, p.AnimalID, p.Holder, p.ExpiresOn, body, formatStamp(now), p.ID)
		return mapErr(err, "Permit")
	})
}

// FindPermitByID implements service.PermitService.
func (db *DB) FindPermitByID(ctx context.Context, id int64) (*service.Permit, error) {
	return findByID(ctx, db, "permits", "id, body", "Permit", id, scanPermit)
}

// FindPermits implements service.PermitService.
func (db *DB) FindPermits(ctx context.Context, f service.PermitFilter) ([]*service.Permit, int, error) {
	var w where
	if f.Kind != "" {
		w.add("kind = ?", f.Kind)
	}
	if f.Jurisdiction != "" {
		w.add("jurisdiction = ?", f.Jurisdiction)
	}
	if f.State != "" {
		w.add("state = ?", f.State)
	}
	if f.OwnerID != 0 {
		w.add("owner_id = ?", f.OwnerID)
	}
	if f.AnimalID != 0 {
		w.add("animal_id = ?", f.AnimalID)
	}
	if f.Holder != "" {
		w.add("holder = ?", f.Holder)
	}
	if !f.ExpiresBefore.IsZero() {
		w.add("expires_on < ?", f.ExpiresBefore)
	}
	list, n, err := collectCounted(ctx, db.rdb, scanPermit, `SELECT id, body, COUNT(*) OVER () FROM permits`+w.String()+` ORDER BY id`+page(f.Offset, f.Limit), w.args...)
	return list, n, mapErr(err, "Permit")
}

func scanAgreement(r rowScanner, extra ...any) (*service.AdoptionAgreement, error) {
	a := &service.AdoptionAgreement{}
	var id int64
	if err := scanBody(r, &id, a, extra); err != nil {
		return nil, err
	}
	a.ID = id
	return a, nil
}

func validAgreement(a *service.AdoptionAgreement) error {
	if a.AnimalID == 0 || a.Jurisdiction == "" || a.DueOn.IsZero() || strings.TrimSpace(a.Adopter) == "" {
		return service.Errorf(service.EINVALID, "Agreement animal, jurisdiction, adopter and due date required.")
	}
	return nil
}

// CreateAdoptionAgreement implements service.PermitService.
func (db *DB) CreateAdoptionAgreement(ctx context.Context, a *service.AdoptionAgreement) error {
	if err := validAgreement(a); err != nil {
		return err
	}
	return db.write(ctx, func(tx *sql.Tx, now time.Time) error {
		a.CreatedAt, a.UpdatedAt = now, now
		body, err := bodyOf(a)
		if err != nil {
			return err
		}
		err = tx.QueryRowContext(ctx, `INSERT INTO adoption_agreements (animal_id, jurisdiction, open, due_on, body, created_at, updated_at)
			VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id`, a.AnimalID, a.Jurisdiction, a.SterilisedOn.IsZero(), a.DueOn, body,
			formatStamp(now), formatStamp(now)).Scan(&a.ID)
		service.Created(ctx, "adoption_agreements", a.ID)
		return mapErr(err, "Agreement")
	})
}

// UpdateAdoptionAgreement implements service.PermitService.
func (db *DB) UpdateAdoptionAgreement(ctx context.Context, a *service.AdoptionAgreement) error {
	if err := validAgreement(a); err != nil {
		return err
	}
	return db.write(ctx, func(tx *sql.Tx, now time.Time) error {
		old, err := scanAgreement(tx.QueryRowContext(ctx, `SELECT id, body FROM adoption_agreements WHERE id = ?`, a.ID))
		if err != nil {
			return notFound(err, "Agreement")
		}
		a.CreatedAt, a.UpdatedAt = old.CreatedAt, now
		body, err := bodyOf(a)
		if err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `UPDATE adoption_agreements SET animal_id=?, jurisdiction=?, open=?, due_on=?, body=?, updated_at=? WHERE id=?`,
			a.AnimalID, a.Jurisdiction, a.SterilisedOn.IsZero(), a.DueOn, body, formatStamp(now), a.ID)
		return mapErr(err, "Agreement")
	})
}

// FindAdoptionAgreementByID implements service.PermitService.
func (db *DB) FindAdoptionAgreementByID(ctx context.Context, id int64) (*service.AdoptionAgreement, error) {
	return findByID(ctx, db, "adoption_agreements", "id, body", "Agreement", id, scanAgreement)
}

// FindAdoptionAgreements implements service.PermitService.
func (db *DB) FindAdoptionAgreements(ctx context.Context, open bool, animalID int64) ([]*service.AdoptionAgreement, error) {
	var w where
	if open {
		w.add("open = 1")
	}
	if animalID != 0 {
		w.add("animal_id = ?", animalID)
	}
	list, err := collect(ctx, db.rdb, scanAgreement, `SELECT id, body FROM adoption_agreements`+w.String()+` ORDER BY due_on, id`, w.args...)
	return list, mapErr(err, "Agreement")
}

func scanReport(r rowScanner, extra ...any) (*service.AnimalReport, error) {
	a := &service.AnimalReport{}
	var id int64
	if err := scanBody(r, &id, a, extra); err != nil {
		return nil, err
	}
	a.ID = id
	return a, nil
}

func validReport(r *service.AnimalReport) error {
	if r.Kind != service.ReportBite && r.Kind != service.ReportRabiesSuspect || r.Jurisdiction == "" || r.ReportedOn.IsZero() {
		return service.Errorf(service.EINVALID, "Report kind, jurisdiction and date required.")
	}
	return nil
}

// CreateAnimalReport implements service.PermitService.
func (db *DB) CreateAnimalReport(ctx context.Context, r *service.AnimalReport) error {
	if err := validReport(r); err != nil {
		return err
	}
	return db.write(ctx, func(tx *sql.Tx, now time.Time) error {
		r.CreatedAt = now
		body, err := bodyOf(r)
		if err != nil {
			return err
		}
		err = tx.QueryRowContext(ctx, `INSERT INTO animal_reports (kind, jurisdiction, open, reported_on, body, created_at)
			VALUES (?, ?, ?, ?, ?, ?) RETURNING id`, r.Kind, r.Jurisdiction, r.Open, r.ReportedOn, body, formatStamp(now)).Scan(&r.ID)
		service.Created(ctx, "animal_reports", r.ID)
		return mapErr(err, "Report")
	})
}

// UpdateAnimalReport implements service.PermitService.
func (db *DB) UpdateAnimalReport(ctx context.Context, r *service.AnimalReport) error {
	if err := validReport(r); err != nil {
		return err
	}
	return db.write(ctx, func(tx *sql.Tx, now time.Time) error {
		old, err := scanReport(tx.QueryRowContext(ctx, `SELECT id, body FROM animal_reports WHERE id = ?`, r.ID))
		if err != nil {
			return notFound(err, "Report")
		}
		r.CreatedAt = old.CreatedAt
		body, err := bodyOf(r)
		if err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `UPDATE animal_reports SET open=?, reported_on=?, body=? WHERE id=?`, r.Open, r.ReportedOn, body, r.ID)
		return mapErr(err, "Report")
	})
}

// FindAnimalReportByID implements service.PermitService.
func (db *DB) FindAnimalReportByID(ctx context.Context, id int64) (*service.AnimalReport, error) {
	return findByID(ctx, db, "animal_reports", "id, body", "Report", id, scanReport)
}

// FindAnimalReports implements service.PermitService.
func (db *DB) FindAnimalReports(ctx context.Context, open bool) ([]*service.AnimalReport, error) {
	q := `SELECT id, body FROM animal_reports`
	if open {
		q += ` WHERE open = 1`
	}
	list, err := collect(ctx, db.rdb, scanReport, q+` ORDER BY reported_on DESC, id DESC`)
	return list, mapErr(err, "Report")
}

// addPermitPart adds a record part of kind P (a permit) or G (an open
// sterilisation agreement): its id and body. A body that does not decode
// is left out; the record of the animal is still answered.
func addPermitPart(r *service.Record, kind string, c cols) {
	id, body := num(c[0]), str(c[1])
	if kind == "P" {
		var p service.Permit
		if json.Unmarshal([]byte(body), &p) == nil {
			p.ID = id
			r.Permits = append(r.Permits, p)
		}
		return
	}
	var a service.AdoptionAgreement
	if json.Unmarshal([]byte(body), &a) == nil {
		a.ID = id
		r.Agreements = append(r.Agreements, a)
	}
}
