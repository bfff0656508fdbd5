package lookup

import (
	"context"
	"strings"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/money"
	"github.com/chipdesk/chipdesk/service/rules"
)

// LicenceRequest asks for a licence for an animal. The fee and the
// expiry come from the jurisdiction's rules; the tag number is the next
// free one for the jurisdiction and year unless TagNumber names a
// pre-numbered tag.
type LicenceRequest struct {
	AnimalID     int64          `json:"animal_id"`
	Jurisdiction string         `json:"jurisdiction"`
	IssuedBy     service.Issuer `json:"issued_by,omitempty"`
	Clinic       string         `json:"clinic,omitempty"`
	TagNumber    int            `json:"tag_number,omitempty"`
	// IssuedOn back-dates a licence sold on paper; today when empty.
	IssuedOn service.Date `json:"issued_on,omitzero"`
	// FeeCents is the fee when the ordinance leaves it to a resolution
	// the profile does not carry (the rules report the fee "not set");
	// it is refused when the rules set the fee.
	FeeCents *int64 `json:"fee_cents,omitempty"`
	// Replaces and ReplaceReason issue a duplicate tag for a licence
	// whose tag was lost or stolen (Minneapolis 64.40).
	Replaces      int64                 `json:"replaces,omitempty"`
	ReplaceReason service.ReplaceReason `json:"replace_reason,omitempty"`
	// Site is where the licence is sold.
	Site string `json:"-"`
}

// RenewRequest renews a licence: a new licence and tag from today.
type RenewRequest struct {
	IssuedBy  service.Issuer `json:"issued_by,omitempty"`
	Clinic    string         `json:"clinic,omitempty"`
	TagNumber int            `json:"tag_number,omitempty"`
	FeeCents  *int64         `json:"fee_cents,omitempty"`
	Site      string         `json:"-"`
}

// IssuedLicence is the answer to an issue or renewal.
type IssuedLicence struct {
	ID             int64                 `json:"id"`
	AnimalID       int64                 `json:"animal_id"`
	Jurisdiction   string                `json:"jurisdiction"`
	Year           int                   `json:"year"`
	TagNumber      int                   `json:"tag_number"`
	FeeCents       int64                 `json:"fee_cents"`
	FeeLines       []FeeLine             `json:"fee_lines"`
	Issued         service.Date          `json:"issued"`
	Expires        service.Date          `json:"expires"`
	Status         service.LicenceStatus `json:"status"`
	IssuedBy       service.Issuer        `json:"issued_by"`
	Clinic         string                `json:"clinic,omitempty"`
	ClinicPayCents int64                 `json:"clinic_pay_cents,omitempty"`
	Replaces       int64                 `json:"replaces,omitempty"`
	// Warnings are what the rules noted without refusing the sale.
	Warnings []string `json:"warnings"`
}

// IssueLicence issues a licence. It refuses (EINVALID) what the rules
// refuse: a species the city does not license, an expiry that cannot be
// computed, a sale without a current rabies vaccination where one is
// required, and a fee the rules do not set unless FeeCents is given.
func (s *Service) IssueLicence(ctx context.Context, r *LicenceRequest) (*IssuedLicence, error) {
	if r.AnimalID <= 0 {
		return nil, service.Errorf(service.EINVALID, "animal_id required.")
	}
	p, err := s.profile(r.Jurisdiction)
	if err != nil {
		return nil, err
	}
	rec, err := s.store.FindRecordByAnimal(ctx, r.AnimalID)
	if err != nil {
		return nil, err
	}
	today := p.Today(s.now())
	on := r.IssuedOn
	if on.IsZero() {
		on = today
	} else if on > today {
		return nil, service.Errorf(service.EINVALID, "A licence cannot be issued in the future (%s).", on)
	}
	issuer := r.IssuedBy
	if issuer == "" {
		issuer = service.IssuerOffice
	}
	l := &service.Licence{
		AnimalID: r.AnimalID, Kind: service.KindLicence, Jurisdiction: p.ID, TagNumber: r.TagNumber,
		IssuedOn: on, Status: service.LicenceActive, IssuedBy: issuer, Clinic: r.Clinic,
		Replaces: r.Replaces, ReplaceReason: r.ReplaceReason, Site: r.Site,
	}
	var (
		fees     *rules.Breakdown
		problems []rules.Alert
	)
	if r.Replaces != 0 {
		// A duplicate tag (64.40): the replaced licence's term, the
		// duplicate fee.
		old, err := s.store.FindLicenceByID(ctx, r.Replaces)
		if err != nil {
			return nil, err
		}
		if old.AnimalID != r.AnimalID || old.Jurisdiction != p.ID {
			return nil, service.Errorf(service.EINVALID, "Licence %d is not this animal's licence in %s.", old.ID, p.Name)
		}
		fees, problems = p.DuplicateQuote(r.ReplaceReason)
		l.Year, l.ExpiresOn, l.FeeCode = old.Year, old.ExpiresOn, "duplicate"
	} else {
		q := p.LicenceQuote(&rec.Animal, rec.Rabies, on, rules.QuoteOpts{Issuer: issuer})
		fees, problems = &q.Fees, q.Problems
		l.Year, l.ExpiresOn, l.FeeCode, l.ClinicPayCents = q.Year, q.ExpiresOn, q.FeeCode, q.ClinicPayCents
	}
	out := &IssuedLicence{Warnings: []string{}}
	feeOpen := false
	for _, pr := range problems {
		switch pr.Code {
		case rules.AlertNoLicenceRule, rules.AlertExpiryUndetermined, rules.AlertRabiesMissing:
			return nil, service.Errorf(service.EINVALID, "%s", cite(pr.Message, pr.Source))
		case rules.AlertFeeNotSet, rules.AlertFeeConflict:
			feeOpen = true
			out.Warnings = append(out.Warnings, cite(pr.Message, pr.Source))
		default:
			out.Warnings = append(out.Warnings, cite(pr.Message, pr.Source))
		}
	}
	l.FeeCents = fees.TotalCents
	switch {
	case r.FeeCents != nil && !feeOpen:
		return nil, service.Errorf(service.EINVALID, "The fee is set by the ordinance (%s); fee_cents may not be given.", rules.Money(fees.TotalCents))
	case r.FeeCents != nil:
		if *r.FeeCents < 0 {
			return nil, service.Errorf(service.EINVALID, "fee_cents cannot be negative.")
		}
		l.FeeCents = *r.FeeCents
		out.Warnings = append(out.Warnings, "Fee entered by the clerk: "+rules.Money(l.FeeCents)+".")
	case feeOpen:
		return nil, service.Errorf(service.EINVALID, "%s does not set this fee in its ordinance: %s Give fee_cents (the fee set by resolution).",
			p.Name, strings.Join(out.Warnings, " "))
	}
	fill := func() *IssuedLicence {
		out.ID, out.AnimalID, out.Jurisdiction, out.Year, out.TagNumber = l.ID, l.AnimalID, l.Jurisdiction, l.Year, l.TagNumber
		out.FeeCents, out.FeeLines, out.Issued, out.Expires, out.Status = l.FeeCents, feeLines(fees), l.IssuedOn, l.ExpiresOn, l.Status
		out.IssuedBy, out.Clinic, out.ClinicPayCents, out.Replaces = l.IssuedBy, l.Clinic, l.ClinicPayCents, l.Replaces
		return out
	}
	if req := service.IdempotencyOf(ctx); req != nil {
		// The answer a retry gets is this IssuedLicence, made in the
		// store's transaction once the licence has its id and tag.
		r2, enc := *req, req.Encode
		r2.Encode = func(any) ([]byte, error) { return enc(fill()) }
		ctx = service.WithIdempotency(ctx, &r2)
	}
	if err := s.store.CreateLicence(ctx, l); err != nil {
		return nil, err
	}
	if _, err := money.ChargeLicence(ctx, s.store, l, fees); err != nil {
		return nil, err
	}
	return fill(), nil
}

// RenewLicence issues the next licence of the animal of licence id, in
// the same jurisdiction, from today.
func (s *Service) RenewLicence(ctx context.Context, id int64, r *RenewRequest) (*IssuedLicence, error) {
	old, err := s.store.FindLicenceByID(ctx, id)
	if err != nil {
		return nil, err
	}
	if old.Status == service.LicenceRevoked {
		return nil, service.Errorf(service.ECONFLICT, "Licence %d was revoked and cannot be renewed.", id)
	}
	return s.IssueLicence(ctx, &LicenceRequest{
		AnimalID: old.AnimalID, Jurisdiction: old.Jurisdiction, IssuedBy: r.IssuedBy, Clinic: r.Clinic,
		TagNumber: r.TagNumber, FeeCents: r.FeeCents, Site: r.Site,
	})
}

// RecordBite stores a bite and, when a person was bitten, the quarantine
// the rules order for the biting animal (Minneapolis 66.40, Chanhassen
// 5-39(a)), which it returns.
func (s *Service) RecordBite(ctx context.Context, b *service.BiteIncident) (*service.Quarantine, error) {
	if b.AnimalID <= 0 {
		return nil, service.Errorf(service.EINVALID, "Bite animal required.")
	}
	rec, err := s.store.FindRecordByAnimal(ctx, b.AnimalID)
	if err != nil {
		return nil, err
	}
	if err := s.store.CreateBite(ctx, b); err != nil {
		return nil, err
	}
	if b.Victim != service.VictimPerson {
		return nil, nil
	}
	p := s.profileFor(rec)
	plan := p.BiteQuarantine(&rec.Animal, rec.Rabies, b.Date)
	q := &service.Quarantine{AnimalID: b.AnimalID, BiteID: b.ID, Kind: plan.Kind, Place: plan.Place,
		Start: plan.Start, End: plan.End, Notes: cite("Ordered for the bite of "+b.Date.String()+".", plan.Source)}
	if err := s.store.CreateQuarantine(ctx, q); err != nil {
		return nil, err
	}
	return q, nil
}

// Impound stores an impoundment. The intake date defaults to today and
// the hold-until date comes from the rules (city period and Minn. Stat.
// 346.47 subd. 2).
func (s *Service) Impound(ctx context.Context, im *service.Impoundment) error {
	p, err := s.profile(im.Jurisdiction)
	if err != nil {
		return err
	}
	now := s.now()
	if im.IntakeAt.IsZero() {
		im.IntakeAt = now.UTC()
	}
	if im.IntakeOn.IsZero() {
		im.IntakeOn = p.Today(im.IntakeAt)
	}
	im.Disposition = service.Held
	im.HoldUntil = p.HoldFor(im).Until
	return s.store.CreateImpoundment(ctx, im)
}
