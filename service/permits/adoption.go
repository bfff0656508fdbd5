package permits

import (
	"context"
	"slices"
	"strings"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/rules"
)

// AgreementRequest records a shelter sale or adoption (64.140(a)).
type AgreementRequest struct {
	AnimalID     int64        `json:"animal_id"`
	Jurisdiction string       `json:"jurisdiction"`
	Adopter      string       `json:"adopter"`
	OwnerID      int64        `json:"owner_id"`
	Adopted      service.Date `json:"adopted"`
	// Born overrides the animal's recorded birth date.
	Born service.Date `json:"born"`
	// Signed is the adopter's signature on the written agreement.
	Signed bool   `json:"signed"`
	Site   string `json:"-"`
}

func (s *Service) adoptionRule(j string) (*rules.Profile, *rules.AdoptionRule, error) {
	pr, err := s.profile(j)
	if err != nil {
		return nil, nil, err
	}
	if pr.Permits == nil || pr.Permits.Adoption == nil {
		return nil, nil, service.Invalidf("jurisdiction", "%s has no shelter sterilisation agreements.", pr.Name)
	}
	return pr, pr.Permits.Adoption, nil
}

// SterilisationDue is the day by which an animal born on born and
// adopted on adopted must be sterilised, with its section: by the age of
// six months when younger, else within thirty days (64.140(a)(1)).
func SterilisationDue(r *rules.AdoptionRule, born, adopted service.Date) (service.Date, string) {
	sixMonths := born.AddMonths(r.ByAgeMonths.Value)
	if adopted < sixMonths {
		return sixMonths, r.ByAgeMonths.Source
	}
	return adopted.AddDays(r.OlderWithinDays.Value), r.OlderWithinDays.Source
}

// Agree records the written sterilisation agreement and the deposit of
// a dog or cat not previously sterilised that the shelter sold or
// released for adoption.
func (s *Service) Agree(ctx context.Context, req *AgreementRequest) (*service.AdoptionAgreement, error) {
	pr, r, err := s.adoptionRule(req.Jurisdiction)
	if err != nil {
		return nil, err
	}
	if !req.Signed {
		return nil, service.Invalidf("signed", "The buyer or adopting party must sign a written agreement (%s).", r.ByAgeMonths.Source)
	}
	if strings.TrimSpace(req.Adopter) == "" {
		return nil, service.Invalidf("adopter", "Adopter required (%s).", r.Species.Source)
	}
	rec, err := s.record(ctx, req.AnimalID)
	if err != nil {
		return nil, err
	}
	if !slices.Contains(r.Species.Value, string(rec.Animal.Species)) {
		return nil, service.Invalidf("animal_id", "The agreement is for dogs and cats (%s).", r.Species.Source)
	}
	if rec.Animal.Altered {
		return nil, service.FieldErrorf(service.ECONFLICT, "animal_id", "The animal is recorded as sterilised already; no agreement is needed (%s).", r.Species.Source)
	}
	born := req.Born
	if born.IsZero() {
		born = rec.Animal.BirthDate
	}
	if born.IsZero() {
		return nil, service.Invalidf("born", "born required: the age decides the due date (%s).", r.ByAgeMonths.Source)
	}
	today := pr.Today(s.now())
	a := &service.AdoptionAgreement{AnimalID: req.AnimalID, Jurisdiction: pr.ID, Adopter: strings.TrimSpace(req.Adopter), OwnerID: req.OwnerID,
		AdoptedOn: orToday(req.Adopted, today), BornOn: born, Site: req.Site}
	if a.AdoptedOn < born {
		return nil, service.Invalidf("adopted", "Adopted before born.")
	}
	a.DueOn, a.DueSource = SterilisationDue(r, born, a.AdoptedOn)
	a.DepositCents, _, _ = rules.FeeOf(r.Deposit)
	if err := s.store.CreateAdoptionAgreement(ctx, a); err != nil {
		return nil, err
	}
	if s.money != nil {
		// The deposit, as a charge on the adopter (64.140(a)(2)); set by
		// the commissioner of health, it waits for the clerk's amount.
		if _, _, err := s.money.ChargeAdoption(ctx, a, nil); err != nil {
			return nil, err
		}
	}
	return a, nil
}

// Statement is a veterinarian's signed statement that the animal was
// sterilised (64.140(b)).
type Statement struct {
	Veterinarian string       `json:"veterinarian"`
	Sterilised   service.Date `json:"sterilised"`
	On           service.Date `json:"on"`
	Signed       bool         `json:"signed"`
}

// Sterilised records the veterinarian's signed statement and the deposit
// remitted to the veterinarian, less the administrative fee (64.140(b)).
// When the deposit or the fee is not set the remittance is left for the
// city to work out (remitted_cents null).
func (s *Service) Sterilised(ctx context.Context, id int64, st Statement) (*service.AdoptionAgreement, error) {
	a, err := s.store.FindAdoptionAgreementByID(ctx, id)
	if err != nil {
		return nil, err
	}
	pr, r, err := s.adoptionRule(a.Jurisdiction)
	if err != nil {
		return nil, err
	}
	if !a.SterilisedOn.IsZero() {
		return nil, service.Errorf(service.ECONFLICT, "Sterilisation was recorded on %s.", a.SterilisedOn)
	}
	if !st.Signed || strings.TrimSpace(st.Veterinarian) == "" {
		return nil, service.Errorf(service.EINVALID, "A signed statement from a veterinarian is required (%s).", r.Remittance.Source)
	}
	today := pr.Today(s.now())
	a.SterilisedOn, a.Veterinarian, a.StatementOn = orToday(st.Sterilised, today), strings.TrimSpace(st.Veterinarian), orToday(st.On, today)
	fee, _, _ := rules.FeeOf(r.AdminFee)
	if a.DepositCents != nil && fee != nil {
		v := max(*a.DepositCents-*fee, 0)
		a.RemittedCents = &v
	}
	if err := s.store.UpdateAdoptionAgreement(ctx, a); err != nil {
		return nil, err
	}
	return a, nil
}

// AgreementStatus is fulfilled, due (open, not past DueOn) or broken
// (open past DueOn).
func AgreementStatus(a *service.AdoptionAgreement, today service.Date) string {
	switch {
	case !a.SterilisedOn.IsZero():
		return "fulfilled"
	case today > a.DueOn:
		return "broken"
	}
	return "due"
}

// Agreements lists agreements (open only when open), with their status.
func (s *Service) Agreements(ctx context.Context, open bool, animalID int64) ([]AgreementView, error) {
	list, err := s.store.FindAdoptionAgreements(ctx, open, animalID)
	if err != nil {
		return nil, err
	}
	out := make([]AgreementView, len(list))
	for i, a := range list {
		out[i] = AgreementView{AdoptionAgreement: a, Status: AgreementStatus(a, s.today(a.Jurisdiction))}
	}
	return out, nil
}

// AgreementView is an agreement with its status.
type AgreementView struct {
	*service.AdoptionAgreement
	Status string `json:"status"`
}
