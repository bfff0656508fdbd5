package columns

import "github.com/chipdesk/chipdesk/service"

// Column lists of the money tables (service.MoneyService), for SELECT.
const (
	// Charge is the charge_totals view: a charge with what was paid and
	// waived on it.
	Charge = `id, payer_id, kind, label, section, amount_cents, paid_cents, waived_cents, subject_kind, subject_id,
	jurisdiction, site, on_day, outcome, outcome_on, outcome_by, created_at`
	// Payment is the payments table.
	Payment = `id, kind, method, amount_cents, reference, approved_by, reverses, COALESCE(pay_key, ''), site, till,
	taken_by, on_day, created_at`
	// Exemption is the exemptions table.
	Exemption = `id, animal_id, kind, section, approved_by, note, on_day, created_at`
	// Reminder is the reminders table.
	Reminder = `id, cycle, owner_id, channel, name, email, address, tags, licence_id, expires_on, state, attempts,
	error, sent_at, created_at, subject`
)

// ChargeDest is the destination of a Charge row.
func ChargeDest(c *service.Charge, w Wrapper) []any {
	return []any{&c.ID, w.ID(&c.PayerID), &c.Kind, &c.Label, &c.Section, &c.AmountCents, &c.PaidCents, &c.WaivedCents,
		&c.SubjectKind, &c.SubjectID, &c.Jurisdiction, &c.Site, w.Date(&c.On), &c.Outcome, w.Date(&c.OutcomeOn),
		&c.OutcomeBy, w.Stamp(&c.CreatedAt)}
}

// PaymentDest is the destination of a Payment row (without its lines).
func PaymentDest(p *service.Payment, w Wrapper) []any {
	return []any{&p.ID, &p.Kind, &p.Method, &p.AmountCents, &p.Reference, &p.ApprovedBy, w.ID(&p.Reverses), &p.Key,
		&p.Site, &p.Till, &p.TakenBy, w.Date(&p.On), w.Stamp(&p.CreatedAt)}
}

// ExemptionDest is the destination of an Exemption row.
func ExemptionDest(e *service.Exemption, w Wrapper) []any {
	return []any{&e.ID, &e.AnimalID, &e.Kind, &e.Section, &e.ApprovedBy, &e.Note, w.Date(&e.On), w.Stamp(&e.CreatedAt)}
}

// ReminderDest is the destination of a Reminder row.
func ReminderDest(r *service.Reminder, w Wrapper) []any {
	return []any{&r.ID, &r.Cycle, &r.OwnerID, &r.Channel, &r.Name, &r.Email, &r.Address, &r.Tags, &r.LicenceID,
		w.Date(&r.ExpiresOn), &r.State, &r.Attempts, &r.Error, w.Stamp(&r.SentAt), w.Stamp(&r.CreatedAt), &r.Subject}
}
