package columns

import (
	"fmt"
	"time"

	"github.com/chipdesk/chipdesk/service"
)

// Wrapper adapts the fields a store's driver cannot scan into directly:
// each method returns the scan destination for one field.
type Wrapper interface {
	// Stamp is an instant column, NULL as the zero time.
	Stamp(t *time.Time) any
	// Date is a date column, NULL as the zero Date.
	Date(d *service.Date) any
	// ID is a nullable reference, NULL as 0.
	ID(id *int64) any
}

// The scan destinations of a row of each column list above, in its
// order. A store scans a row with r.Scan(append(XDest(&x, w),
// extra...)...).

// OwnerDest is the destination of an Owner row.
func OwnerDest(o *service.Owner, w Wrapper) []any {
	return []any{&o.ID, &o.Name, &o.Address, &o.City, &o.State, &o.Postcode, &o.Phone, &o.Email,
		w.Stamp(&o.CreatedAt), w.Stamp(&o.UpdatedAt)}
}

// AnimalDest is the destination of an Animal row.
func AnimalDest(a *service.Animal, w Wrapper) []any {
	return []any{&a.ID, w.ID(&a.OwnerID), &a.Name, &a.Species, &a.Breed, &a.Colour, &a.Sex, &a.Altered,
		w.Date(&a.BirthDate), &a.Description, &a.Photo, &a.Programme, w.Date(&a.DiedOn), w.Stamp(&a.CreatedAt),
		w.Stamp(&a.UpdatedAt)}
}

// ChipDest is the destination of a Chip row.
func ChipDest(c *service.Chip, w Wrapper) []any {
	return []any{&c.ID, &c.AnimalID, &c.Code, &c.Kind, &c.Manufacturer, w.Date(&c.ImplantDate), w.Stamp(&c.CreatedAt)}
}

// LicenceDest is the destination of a Licence row.
func LicenceDest(l *service.Licence, w Wrapper) []any {
	return []any{&l.ID, &l.AnimalID, &l.Kind, &l.Jurisdiction, &l.Year, &l.TagNumber, w.Date(&l.IssuedOn),
		w.Date(&l.ExpiresOn), &l.Status, &l.FeeCents, &l.FeeCode, &l.IssuedBy, &l.Clinic, &l.ClinicPayCents,
		w.ID(&l.Replaces), &l.ReplaceReason, w.Stamp(&l.CreatedAt), &l.Site}
}

// VaccinationDest is the destination of a Vaccination row.
func VaccinationDest(v *service.RabiesVaccination, w Wrapper) []any {
	return []any{&v.ID, &v.AnimalID, w.Date(&v.Date), &v.Type, &v.DurationMonths, &v.ExtendedCertified,
		&v.Product, &v.Manufacturer, &v.Lot, w.Date(&v.LotExpires), &v.Veterinarian, &v.VetLicence, &v.Certificate,
		&v.RabiesTag, w.Stamp(&v.CreatedAt)}
}

// BiteDest is the destination of a Bite row.
func BiteDest(b *service.BiteIncident, w Wrapper) []any {
	return []any{&b.ID, &b.AnimalID, w.Date(&b.Date), &b.Victim, &b.SkinBroken, &b.Provoked, &b.Location,
		&b.Notes, w.Stamp(&b.CreatedAt)}
}

// QuarantineDest is the destination of a Quarantine row.
func QuarantineDest(q *service.Quarantine, w Wrapper) []any {
	return []any{&q.ID, &q.AnimalID, w.ID(&q.BiteID), &q.Kind, &q.Place, w.Date(&q.Start), w.Date(&q.End),
		w.Date(&q.ReleasedOn), &q.Notes, w.Stamp(&q.CreatedAt)}
}

// DesignationDest is the destination of a Designation row.
func DesignationDest(d *service.DangerousDesignation, w Wrapper) []any {
	return []any{&d.ID, &d.AnimalID, &d.Level, &d.Jurisdiction, w.Date(&d.DeclaredOn), w.Date(&d.DecisionOn),
		&d.Authority, &d.Conditions, w.Date(&d.RegisteredOn), &d.RegistrationNumber, w.Date(&d.SignOn),
		w.Date(&d.MicrochipOn), w.Date(&d.SterilisedOn), w.Date(&d.PhotoOn), w.Date(&d.InsuredOn), &d.InsuranceCents,
		w.Date(&d.InsuranceExpires), w.Date(&d.RescindedOn), w.Stamp(&d.CreatedAt), w.Stamp(&d.UpdatedAt)}
}

// ImpoundDest is the destination of an Impound row.
func ImpoundDest(i *service.Impoundment, w Wrapper) []any {
	return []any{&i.ID, &i.AnimalID, &i.Jurisdiction, w.Stamp(&i.IntakeAt), w.Date(&i.IntakeOn), &i.Site,
		&i.WhereFound, w.Date(&i.NoticeOn), w.Date(&i.HoldUntil), &i.BiteCase, &i.Disposition, w.Date(&i.DispositionOn),
		&i.DispositionNote, &i.FeesCents, w.Stamp(&i.CreatedAt), w.Stamp(&i.UpdatedAt)}
}

// ScanDest is the destination of a Scan row.
func ScanDest(s *service.Scan, w Wrapper) []any {
	return []any{&s.ID, w.Stamp(&s.At), &s.Reader, &s.ChipCode, &s.ChipKind, &s.User, &s.Site, &s.AnimalID}
}

// AuditDest is the destination of an Audit row.
func AuditDest(e *service.AuditEvent, w Wrapper) []any {
	return []any{&e.ID, w.Stamp(&e.At), &e.Actor, &e.Role, &e.Action, &e.Entity, &e.EntityID, &e.Detail, &e.Site, &e.TokenID}
}

// AuditCountDest is the destination of an AuditCount row.
func AuditCountDest(c *service.AuditCount, w Wrapper) []any {
	return []any{&c.CompactionID, w.Date(&c.Day), &c.Actor, &c.Role, &c.Site, &c.TokenID, &c.Action, &c.Entity, &c.EntityID, &c.Detail,
		&c.Events, w.Stamp(&c.FirstAt), w.Stamp(&c.LastAt)}
}

// AuditCompactionDest is the destination of an AuditCompaction row.
func AuditCompactionDest(c *service.AuditCompaction, w Wrapper) []any {
	return []any{&c.ID, w.Stamp(&c.At), w.Date(&c.Day), w.Stamp(&c.Before), &c.ActionPrefix, &c.LastEventID, &c.Events, &c.Counts}
}

// JobDest is the destination of a Job row.
func JobDest(j *service.Job, w Wrapper) []any {
	return []any{&j.ID, &j.Kind, &j.LicenceID, &j.Reason, &j.Key, &j.Device, &j.State, &j.Error, &j.Attempts,
		w.Stamp(&j.CreatedAt), w.Stamp(&j.UpdatedAt)}
}

// TokenDest is the destination of a Token row.
func TokenDest(t *service.Token, w Wrapper) []any {
	return []any{&t.ID, &t.Name, &t.Role, &t.Site, hashDst{&t.Hash}, w.Stamp(&t.CreatedAt), w.Stamp(&t.ExpiresAt),
		w.Stamp(&t.RevokedAt), w.Stamp(&t.LastUsedAt)}
}

// TagBatchDest is the destination of a TagBatch row.
func TagBatchDest(b *service.TagBatch, w Wrapper) []any {
	return []any{&b.ID, &b.Kind, &b.Jurisdiction, &b.Year, &b.First, &b.Last, &b.Species, &b.Key, &b.Device,
		&b.State, &b.Done, &b.Error, &b.Attempts, w.Stamp(&b.CreatedAt), w.Stamp(&b.UpdatedAt)}
}

// hashDst scans a token's SHA-256 (a BLOB or bytea of 32 bytes). It is
// a database/sql Scanner, which pgx honours too.
type hashDst struct{ h *[32]byte }

// Scan implements sql.Scanner. NULL is the zero hash.
func (d hashDst) Scan(src any) error {
	switch b := src.(type) {
	case []byte:
		*d.h = [32]byte{}
		copy(d.h[:], b)
	case nil:
		*d.h = [32]byte{}
	default:
		return fmt.Errorf("columns: token hash: want bytes, have %T", src)
	}
	return nil
}
