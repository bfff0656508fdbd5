package licensing

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/lookup"
	"github.com/chipdesk/chipdesk/service/money"
	"github.com/chipdesk/chipdesk/service/rules"
)

// Opts configures a Service. Store and Rules are required.
type Opts struct {
	Store service.Store
	Rules *rules.Set
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// Service sells licences.
type Service struct {
	store service.Store
	rules *rules.Set
	now   func() time.Time
}

// New returns a Service.
func New(o *Opts) (*Service, error) {
	if o == nil || o.Store == nil || o.Rules == nil {
		return nil, errors.New("licensing: Store and Rules required")
	}
	s := &Service{store: o.Store, rules: o.Rules, now: o.Now}
	if s.now == nil {
		s.now = time.Now
	}
	return s, nil
}

// Seller is who sells: the caller's token. A clinic sells in its own
// name (Minneapolis 64.30); nil sells as the office.
type Seller = service.Token

// LicenceRequest asks for a licence for an animal. The fee and the
// expiry come from the jurisdiction's rules; the tag number is the next
// free one for the jurisdiction and year unless TagNumber names a
// pre-numbered tag.
type LicenceRequest struct {
	AnimalID int64 `json:"animal_id"`
	// Jurisdiction is a profile's id, name or code ("minneapolis",
	// "Minneapolis", "MPLS").
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
	// Replaces and ReplaceReason ask for a duplicate of a lost or stolen
	// tag instead (Minneapolis 64.40; see Duplicate).
	Replaces      int64                 `json:"replaces,omitempty"`
	ReplaceReason service.ReplaceReason `json:"replace_reason,omitempty"`
	// Vaccination, when given, is the rabies certificate shown at the
	// counter: stored with the licence in one transaction, so a refused
	// sale leaves no vaccination behind and the licence sees it.
	Vaccination *service.RabiesVaccination `json:"vaccination,omitempty"`
	// Seller is the caller; a clinic sells in its own name.
	Seller *Seller `json:"-"`
}

// RenewRequest renews a licence: the next term, with a new tag.
type RenewRequest struct {
	IssuedBy  service.Issuer `json:"issued_by,omitempty"`
	Clinic    string         `json:"clinic,omitempty"`
	TagNumber int            `json:"tag_number,omitempty"`
	FeeCents  *int64         `json:"fee_cents,omitempty"`
	// Vaccination is a new rabies certificate shown at the counter's
	// renewal, stored with the licence as in LicenceRequest.
	Vaccination *service.RabiesVaccination `json:"-"`
	Seller      *Seller                    `json:"-"`
}

// DuplicateRequest asks for a duplicate of a lost or stolen tag (64.40).
type DuplicateRequest struct {
	Reason service.ReplaceReason `json:"reason"`
	// FeeCents is the duplicate fee where the ordinance leaves it to a
	// resolution; refused where the ordinance sets it.
	FeeCents *int64  `json:"fee_cents,omitempty"`
	Seller   *Seller `json:"-"`
}

// IssuedLicence is the answer to an issue, a renewal or a duplicate.
type IssuedLicence struct {
	ID             int64                 `json:"id"`
	AnimalID       int64                 `json:"animal_id"`
	Jurisdiction   string                `json:"jurisdiction"`
	Year           int                   `json:"year"`
	TagNumber      int                   `json:"tag_number"`
	FeeCents       int64                 `json:"fee_cents"`
	FeeCode        string                `json:"fee_code,omitempty"`
	FeeLines       []lookup.FeeLine      `json:"fee_lines"`
	Issued         service.Date          `json:"issued"`
	Expires        service.Date          `json:"expires"`
	Status         service.LicenceStatus `json:"status"`
	IssuedBy       service.Issuer        `json:"issued_by"`
	Clinic         string                `json:"clinic,omitempty"`
	ClinicPayCents int64                 `json:"clinic_pay_cents,omitempty"`
	Replaces       int64                 `json:"replaces,omitempty"`
	// Renews is the licence whose next term this one is.
	Renews int64 `json:"renews,omitempty"`
	// DuplicateFeeCents is the fee paid for a duplicate tag (64.40); the
	// licence keeps its own fee in FeeCents.
	DuplicateFeeCents int64 `json:"duplicate_fee_cents,omitempty"`
	// VaccinationID is the certificate stored with the sale.
	VaccinationID int64 `json:"vaccination_id,omitempty"`
	// Warnings are what the rules noted without refusing the sale.
	Warnings []string `json:"warnings"`
}

// Resolve finds the jurisdiction a person names (id, name or code).
func (s *Service) Resolve(name string) (*rules.Profile, error) { return s.rules.Resolve(name) }

// seller applies the clinic rule: a clinic sells as the clinic, in its
// own name (its token's site, else its name), whatever the request says.
func seller(t *Seller, issuer service.Issuer, clinic string) (service.Issuer, string, error) {
	if t != nil && t.Role == service.RoleClinic {
		name := t.Site
		if name == "" {
			name = t.Name
		}
		return service.IssuerClinic, name, nil
	}
	switch issuer {
	case "":
		return service.IssuerOffice, "", nil
	case service.IssuerOffice:
		return issuer, "", nil
	case service.IssuerClinic:
		if strings.TrimSpace(clinic) == "" {
			return "", "", service.Invalidf("clinic", "Name the clinic that sold the licence.")
		}
		return issuer, strings.TrimSpace(clinic), nil
	}
	return "", "", service.Invalidf("issued_by", "issued_by must be office or clinic.")
}

func siteOf(t *Seller) string {
	if t == nil {
		return ""
	}
	return t.Site
}

// Issue sells a licence for the term that covers IssuedOn (today when
// empty). It refuses (ECONFLICT) a term an active licence covers already,
// and (EINVALID) what the rules refuse.
func (s *Service) Issue(ctx context.Context, r *LicenceRequest) (*IssuedLicence, error) {
	if r.AnimalID <= 0 {
		return nil, service.Invalidf("animal_id", "animal_id required: the animal to license.")
	}
	p, err := s.rules.Resolve(r.Jurisdiction)
	if err != nil {
		return nil, err
	}
	if r.Replaces != 0 {
		old, err := s.store.FindLicenceByID(ctx, r.Replaces)
		if err != nil {
			return nil, err
		}
		if old.AnimalID != r.AnimalID || old.Jurisdiction != p.ID {
			return nil, service.Invalidf("replaces", "Licence %d is not this animal's licence in %s.", old.ID, p.Display)
		}
		return s.Duplicate(ctx, old.ID, &DuplicateRequest{Reason: r.ReplaceReason, Seller: r.Seller})
	}
	today := p.Today(s.now())
	on := r.IssuedOn
	if on.IsZero() {
		on = today
	} else if on > today {
		return nil, service.Invalidf("issued_on", "A licence cannot be issued in the future (%s; today is %s).", on, today)
	}
	issuer, clinic, err := seller(r.Seller, r.IssuedBy, r.Clinic)
	if err != nil {
		return nil, err
	}
	rec, err := s.store.FindRecordByAnimal(ctx, r.AnimalID)
	if err != nil {
		return nil, err
	}
	if l := covering(rec, p.ID, on); l != nil {
		return nil, coveredErr(l, on)
	}
	rabies, err := saleVaccination(p, rec, r.Vaccination, today)
	if err != nil {
		return nil, err
	}
	l := &service.Licence{AnimalID: r.AnimalID, Kind: service.KindLicence, Jurisdiction: p.ID, TagNumber: r.TagNumber,
		IssuedOn: on, Status: service.LicenceActive, IssuedBy: issuer, Clinic: clinic, Site: siteOf(r.Seller)}
	return s.sell(ctx, p, rec, rabies, l, r.FeeCents, r.Vaccination, 0)
}

// sell prices l for its term from the rules and stores it.
func (s *Service) sell(ctx context.Context, p *rules.Profile, rec *service.Record, rabies *service.RabiesVaccination,
	l *service.Licence, fee *int64, v *service.RabiesVaccination, renews int64) (*IssuedLicence, error) {
	q := p.LicenceQuote(&rec.Animal, rabies, l.IssuedOn, rules.QuoteOpts{Issuer: l.IssuedBy})
	l.Year, l.ExpiresOn, l.FeeCode, l.ClinicPayCents = q.Year, q.ExpiresOn, q.FeeCode, q.ClinicPayCents
	out := &IssuedLicence{Warnings: []string{}, Renews: renews}
	feeOpen := false
	for _, pr := range q.Problems {
		switch pr.Code {
		case rules.AlertNoLicenceRule, rules.AlertExpiryUndetermined, rules.AlertRabiesMissing:
			return nil, service.Errorf(service.EINVALID, "%s", lookup.Cite(pr.Message, pr.Source))
		case rules.AlertFeeNotSet, rules.AlertFeeConflict:
			feeOpen = true
		}
		out.Warnings = append(out.Warnings, lookup.Cite(pr.Message, pr.Source))
	}
	l.FeeCents = q.Fees.TotalCents
	switch {
	case fee != nil && !feeOpen:
		return nil, service.Invalidf("fee_cents", "The fee is set by the ordinance (%s); fee_cents may not be given.", rules.Money(q.Fees.TotalCents))
	case fee != nil:
		if *fee < 0 {
			return nil, service.Invalidf("fee_cents", "fee_cents cannot be negative.")
		}
		l.FeeCents = *fee
		out.Warnings = append(out.Warnings, "Fee entered by the clerk: "+rules.Money(l.FeeCents)+".")
	case feeOpen:
		return nil, service.Invalidf("fee_cents", "%s does not set this fee in its ordinance: %s Give fee_cents (the fee set by resolution).",
			p.Display, strings.Join(out.Warnings, " "))
	}
	l.Vaccination = v
	if err := s.create(ctx, l, out, &q.Fees); err != nil {
		return nil, err
	}
	return out, nil
}

// create stores licence l: the one place a licence is stored, with its
// vaccination, the idempotency answer and the answer out. A store
// conflict on the term (the unique index of one active licence per
// animal, jurisdiction and term) answers with the licence in force.
func (s *Service) create(ctx context.Context, l *service.Licence, out *IssuedLicence, fees *rules.Breakdown) error {
	fill := func() *IssuedLicence {
		out.ID, out.AnimalID, out.Jurisdiction, out.Year, out.TagNumber = l.ID, l.AnimalID, l.Jurisdiction, l.Year, l.TagNumber
		out.FeeCents, out.FeeCode, out.FeeLines, out.Issued, out.Expires, out.Status = l.FeeCents, l.FeeCode, lookup.FeeLines(fees), l.IssuedOn, l.ExpiresOn, l.Status
		out.IssuedBy, out.Clinic, out.ClinicPayCents, out.Replaces = l.IssuedBy, l.Clinic, l.ClinicPayCents, l.Replaces
		if l.Vaccination != nil {
			out.VaccinationID = l.Vaccination.ID
		}
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
		if service.ErrorCode(err) == service.ECONFLICT && l.Replaces == 0 {
			if rec, ferr := s.store.FindRecordByAnimal(ctx, l.AnimalID); ferr == nil {
				if c := coveringTerm(rec, l); c != nil {
					return coveredErr(c, l.IssuedOn)
				}
			}
		}
		return err
	}
	// Every fee line becomes a charge on the owner (issue: money); a
	// licence is complete once its charges are settled or waived.
	if _, err := money.ChargeLicence(ctx, s.store, l, fees); err != nil {
		return err
	}
	fill()
	return nil
}

// covering returns the active licence of rec in jurisdiction whose term
// covers on, or nil.
func covering(rec *service.Record, jurisdiction string, on service.Date) *service.Licence {
	for i := range rec.Licences {
		l := &rec.Licences[i]
		if l.Jurisdiction == jurisdiction && isLicence(l) && l.Status == service.LicenceActive && l.IssuedOn <= on && on <= l.ExpiresOn {
			return l
		}
	}
	return nil
}

// coveringTerm returns the active licence of rec for the term of l.
func coveringTerm(rec *service.Record, l *service.Licence) *service.Licence {
	for i := range rec.Licences {
		c := &rec.Licences[i]
		if c.Jurisdiction == l.Jurisdiction && isLicence(c) && c.Status == service.LicenceActive &&
			(c.ExpiresOn == l.ExpiresOn || c.IssuedOn <= l.IssuedOn && l.IssuedOn <= c.ExpiresOn) {
			return c
		}
	}
	return nil
}

func isLicence(l *service.Licence) bool { return l.Kind == service.KindLicence || l.Kind == "" }

// coveredErr is the conflict of a sale for a term a licence covers.
func coveredErr(l *service.Licence, on service.Date) error {
	return service.Conflictf("Licence %d (tag %d/%d) already covers %s: it runs from %s to %s. Renew it for the next term, or issue a duplicate tag if the tag was lost or stolen.",
		l.ID, l.Year, l.TagNumber, on, l.IssuedOn, l.ExpiresOn)
}

// CheckVaccination checks a rabies certificate entered at a sale: the
// fields the record needs, and a date not in the future.
func CheckVaccination(v *service.RabiesVaccination, today service.Date) error {
	if err := service.NotFuture("date", v.Date, today); err != nil {
		return err
	}
	if v.Date.IsZero() {
		return service.Invalidf("date", "The vaccination date is required.")
	}
	return v.Validate()
}

// Renew sells the next term of licence id in its jurisdiction. Before
// the current term ends the new one starts the day after it ends; once
// it has ended, today. The fee is the one of the new term. A replaced or
// revoked licence is not renewed (ECONFLICT): a replaced one's duplicate
// is, and a revoked licence ends the animal's licensing (Chanhassen 5-79).
func (s *Service) Renew(ctx context.Context, id int64, r *RenewRequest) (*IssuedLicence, error) {
	old, err := s.store.FindLicenceByID(ctx, id)
	if err != nil {
		return nil, err
	}
	switch old.Status {
	case service.LicenceRevoked:
		return nil, service.Conflictf("Licence %d was revoked and cannot be renewed.", id)
	case service.LicenceReplaced:
		return nil, service.Conflictf("Licence %d was replaced by a duplicate tag (64.40); renew the duplicate's licence instead.", id)
	}
	p, err := s.rules.Resolve(old.Jurisdiction)
	if err != nil {
		return nil, err
	}
	issuer, clinic, err := seller(r.Seller, r.IssuedBy, r.Clinic)
	if err != nil {
		return nil, err
	}
	rec, err := s.store.FindRecordByAnimal(ctx, old.AnimalID)
	if err != nil {
		return nil, err
	}
	today := p.Today(s.now())
	start := today
	if old.ExpiresOn >= today {
		start = old.ExpiresOn.AddDays(1)
	}
	if l := covering(rec, p.ID, start); l != nil {
		return nil, service.Conflictf("Licence %d (tag %d/%d) already covers the next term, from %s to %s.", l.ID, l.Year, l.TagNumber, l.IssuedOn, l.ExpiresOn)
	}
	rabies, err := saleVaccination(p, rec, r.Vaccination, today)
	if err != nil {
		return nil, err
	}
	l := &service.Licence{AnimalID: old.AnimalID, Kind: service.KindLicence, Jurisdiction: p.ID, TagNumber: r.TagNumber,
		IssuedOn: start, Status: service.LicenceActive, IssuedBy: issuer, Clinic: clinic, Site: siteOf(r.Seller)}
	return s.sell(ctx, p, rec, rabies, l, r.FeeCents, r.Vaccination, old.ID)
}

// saleVaccination checks the certificate v entered with a sale (nil for
// none) and returns the vaccination the sale relies on: the newer of v
// and the one on file. Where the law asks for the veterinarian's
// certificate (the licence rule's Certificate: Chanhassen 5-37(b),
// Minneapolis 66.10-66.25) v must give its number and the veterinarian.
//
// The vaccination on file is held to the same: a sale that relies on one
// lacking its certificate number or veterinarian is refused, naming the
// field, so the clerk enters the certificate with the sale. (An import of
// historical licences stores them as they were and is not a sale.)
func saleVaccination(p *rules.Profile, rec *service.Record, v *service.RabiesVaccination, today service.Date) (*service.RabiesVaccination, error) {
	rabies := rec.Rabies
	src := certificateRule(p, rec.Animal.Species)
	if v != nil {
		v.ID, v.AnimalID = 0, rec.Animal.ID
		if err := CheckVaccination(v, today); err != nil {
			return nil, err
		}
		if err := certified(p, src, v, false); err != nil {
			return nil, err
		}
		if rabies == nil || v.Date >= rabies.Date {
			rabies = v
		}
	}
	if rabies != nil && rabies != v {
		if err := certified(p, src, rabies, true); err != nil {
			return nil, err
		}
	}
	return rabies, nil
}

// certified checks that vaccination v gives the certificate number and
// the veterinarian where section src asks for the certificate ("" for
// none); onFile says v is the vaccination on file, not one entered now.
func certified(p *rules.Profile, src string, v *service.RabiesVaccination, onFile bool) error {
	if src == "" {
		return nil
	}
	which := ""
	if onFile {
		which = fmt.Sprintf("The vaccination on file (%s) gives no certificate number; enter the certificate with the sale. ", v.Date)
	}
	if strings.TrimSpace(v.Certificate) == "" {
		return service.Invalidf("certificate", "%sThe certificate number is required: %s asks for the veterinarian's certificate of vaccination (%s).", which, p.Display, src)
	}
	if strings.TrimSpace(v.Veterinarian) == "" {
		if onFile {
			which = fmt.Sprintf("The vaccination on file (%s) names no veterinarian; enter the certificate with the sale. ", v.Date)
		}
		return service.Invalidf("veterinarian", "%sName the veterinarian who signed the certificate (%s).", which, src)
	}
	return nil
}

// certificateRule is the section asking for the veterinarian's
// certificate with a licence of species, "" where the profile asks none.
func certificateRule(p *rules.Profile, sp service.Species) string {
	if lr := p.Licences[sp]; lr != nil && lr.Certificate != nil && lr.Certificate.Value {
		return lr.Certificate.Source
	}
	return ""
}

// Sale is what the counter's form shows before a sale: the term and fee
// of the licence a sale today would make, and what it needs.
type Sale struct {
	Quote *Quote
	// Renews is the licence in force today: a sale now is its renewal,
	// whose term starts the day after it ends (Start). Nil when no
	// licence covers today.
	Renews *service.Licence
	Start  service.Date
	// Certificate is the section asking for the veterinarian's
	// certificate (number and veterinarian) with the sale, "" for none;
	// CertificateOnFile reports that the vaccination on file gives both,
	// so no new certificate need be entered.
	Certificate       string
	CertificateOnFile bool
	// FeeByResolution is true when a fee of the sale is one the
	// ordinance leaves to the city's fee resolution (or states two ways):
	// the clerk enters the amount in force.
	FeeByResolution bool
}

// Sale is the sale the counter would make today for animal id in
// jurisdiction: a renewal of the licence in force (the term Renew would
// start), else a licence for the term that covers today.
func (s *Service) Sale(ctx context.Context, animalID int64, jurisdiction string, issuer service.Issuer) (*Sale, *service.Record, error) {
	p, rec, err := s.profileRecord(ctx, animalID, jurisdiction)
	if err != nil {
		return nil, nil, err
	}
	today := p.Today(s.now())
	out := &Sale{Start: today, Certificate: certificateRule(p, rec.Animal.Species)}
	if l := covering(rec, p.ID, today); l != nil {
		out.Renews, out.Start = l, l.ExpiresOn.AddDays(1)
	}
	if v := rec.Rabies; v != nil {
		out.CertificateOnFile = strings.TrimSpace(v.Certificate) != "" && strings.TrimSpace(v.Veterinarian) != ""
	}
	out.Quote = p.LicenceQuote(&rec.Animal, rec.Rabies, out.Start, rules.QuoteOpts{Issuer: issuer})
	for _, pr := range out.Quote.Problems {
		if pr.Code == rules.AlertFeeNotSet || pr.Code == rules.AlertFeeConflict {
			out.FeeByResolution = true
		}
	}
	return out, rec, nil
}

// Duplicate issues a duplicate tag for licence id, lost or stolen
// (Minneapolis 64.40): a new licence with a new tag number for the same
// term, which keeps the licence's own fee; the duplicate fee is recorded
// as such (DuplicateFeeCents). The old licence is marked replaced in the
// same transaction.
func (s *Service) Duplicate(ctx context.Context, id int64, r *DuplicateRequest) (*IssuedLicence, error) {
	old, err := s.store.FindLicenceByID(ctx, id)
	if err != nil {
		return nil, err
	}
	if old.Status != service.LicenceActive {
		return nil, service.Conflictf("Licence %d is %s; only an active licence gets a duplicate tag.", id, old.Status)
	}
	p, err := s.rules.Resolve(old.Jurisdiction)
	if err != nil {
		return nil, err
	}
	if p.Today(s.now()) > old.ExpiresOn {
		return nil, service.Conflictf("Licence %d expired on %s; renew it instead.", id, old.ExpiresOn)
	}
	fees, probs := p.DuplicateQuote(r.Reason)
	feeOpen := false
	for _, pr := range probs {
		switch pr.Code {
		case rules.AlertFeeNotSet, rules.AlertFeeConflict:
			feeOpen = true
			continue
		case "duplicate-reason":
			return nil, service.Invalidf("reason", "No duplicate tag can be issued: %s", lookup.Cite(pr.Message, pr.Source))
		}
		return nil, service.Errorf(service.EINVALID, "No duplicate tag can be issued: %s", lookup.Cite(pr.Message, pr.Source))
	}
	dupFee := fees.TotalCents
	switch {
	case r.FeeCents != nil && !feeOpen:
		return nil, service.Invalidf("fee_cents", "The duplicate fee is set by the ordinance (%s); fee_cents may not be given.", rules.Money(dupFee))
	case r.FeeCents != nil && *r.FeeCents < 0:
		return nil, service.Invalidf("fee_cents", "fee_cents cannot be negative.")
	case r.FeeCents != nil:
		dupFee = *r.FeeCents
	case feeOpen:
		return nil, service.Invalidf("fee_cents", "%s does not set the duplicate tag fee in its ordinance: give fee_cents (the fee set by resolution).", p.Display)
	}
	issuer, clinic, err := seller(r.Seller, old.IssuedBy, old.Clinic)
	if err != nil {
		return nil, err
	}
	l := &service.Licence{AnimalID: old.AnimalID, Kind: old.Kind, Jurisdiction: p.ID, Year: old.Year, IssuedOn: old.IssuedOn,
		ExpiresOn: old.ExpiresOn, Status: service.LicenceActive, FeeCents: old.FeeCents, FeeCode: old.FeeCode,
		IssuedBy: issuer, Clinic: clinic, Replaces: old.ID, ReplaceReason: r.Reason, Site: siteOf(r.Seller)}
	out := &IssuedLicence{Warnings: []string{}, DuplicateFeeCents: dupFee}
	if err := s.create(ctx, l, out, fees); err != nil {
		return nil, err
	}
	return out, nil
}

// Quote is the fee and term a sale to animal id in jurisdiction would
// have today, for the counter's form.
func (s *Service) Quote(ctx context.Context, animalID int64, jurisdiction string, issuer service.Issuer) (*Quote, *service.Record, error) {
	p, rec, err := s.profileRecord(ctx, animalID, jurisdiction)
	if err != nil {
		return nil, nil, err
	}
	return p.LicenceQuote(&rec.Animal, rec.Rabies, p.Today(s.now()), rules.QuoteOpts{Issuer: issuer}), rec, nil
}

// profileRecord resolves jurisdiction and reads animal id's record.
func (s *Service) profileRecord(ctx context.Context, animalID int64, jurisdiction string) (*rules.Profile, *service.Record, error) {
	p, err := s.rules.Resolve(jurisdiction)
	if err != nil {
		return nil, nil, err
	}
	rec, err := s.store.FindRecordByAnimal(ctx, animalID)
	if err != nil {
		return nil, nil, err
	}
	return p, rec, nil
}

// Vaccinate records a rabies vaccination (66.10-66.25, 5-37): the
// certificate's fields and a date not in the future.
func (s *Service) Vaccinate(ctx context.Context, v *service.RabiesVaccination) error {
	if v.AnimalID <= 0 {
		return service.Invalidf("animal_id", "animal_id required: the animal vaccinated.")
	}
	rec, err := s.store.FindRecordByAnimal(ctx, v.AnimalID)
	if err != nil {
		return err
	}
	if err := CheckVaccination(v, s.rules.For(rec, "").Today(s.now())); err != nil {
		return err
	}
	v.ID = 0
	return s.store.CreateVaccination(ctx, v)
}

// Quote is the rules' quote of a sale (fee lines, term, clinic pay and
// what stops the sale), as the counter's form shows it.
type Quote = rules.Quote

// Breakdown is a list of fee lines with their total.
type Breakdown = rules.Breakdown

// Money formats cents as dollars, "$25.00".
func Money(c int64) string { return rules.Money(c) }

// ParseMoney reads a fee a clerk typed in dollars ("25", "25.00"); a bad
// amount is EINVALID for the field "fee".
func ParseMoney(s string) (int64, error) {
	c, err := rules.ParseMoney(s)
	if err != nil {
		return 0, service.Invalidf("fee", "%s", service.ErrorMessage(err))
	}
	return c, nil
}

// DuplicateQuote is the fee of a duplicate of licence l's tag for reason
// (64.40), for the licence page.
func (s *Service) DuplicateQuote(l *service.Licence, reason service.ReplaceReason) (*Breakdown, error) {
	p, err := s.rules.Resolve(l.Jurisdiction)
	if err != nil {
		return nil, err
	}
	b, _ := p.DuplicateQuote(reason)
	return b, nil
}
