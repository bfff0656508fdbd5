package incidents

import (
	"context"
	"fmt"
	"slices"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/rules"
)

// Watch is what an officer follows in a jurisdiction: its dangerous and
// potentially dangerous animals with each requirement's status, and the
// open quarantines ending soon.
type Watch struct {
	Jurisdiction string       `json:"jurisdiction"`
	AsOf         service.Date `json:"as_of"`
	// Dangerous lists the animals with a designation in force, those
	// with a requirement overdue first.
	Dangerous []WatchedAnimal `json:"dangerous"`
	// Quarantines lists the quarantines not yet released that end by
	// AsOf + SoonDays (or ended already), the one ending first first.
	Quarantines []WatchedQuarantine `json:"quarantines"`
	SoonDays    int                 `json:"soon_days"`
}

// WatchedAnimal is one designated animal and its compliance on AsOf.
type WatchedAnimal struct {
	Animal     *service.Animal `json:"animal"`
	Designated int64           `json:"designation_id"`
	Compliance *Compliance     `json:"compliance"`
	// Overdue and Due count the requirements in each state.
	Overdue int `json:"overdue"`
	Due     int `json:"due"`
}

// WatchedQuarantine is an open quarantine and the days left of it
// (negative once its end has passed without a release recorded).
type WatchedQuarantine struct {
	Quarantine *service.Quarantine `json:"quarantine"`
	Animal     *service.Animal     `json:"animal"`
	// Bite is the bite that started it, with where and what happened.
	Bite     *service.BiteIncident `json:"bite,omitempty"`
	DaysLeft int                   `json:"days_left"`
}

// DefaultSoonDays is how far ahead the officer's page looks for the end
// of a quarantine: the next few working days.
const DefaultSoonDays = 3

// Watch gives the watch of jurisdiction (name, id or code; the home one
// when empty) today, quarantines ending within soon days (DefaultSoonDays
// when soon <= 0). Quarantines are the jurisdiction's animals' and those
// of animals no record places elsewhere.
func (s *Service) Watch(ctx context.Context, jurisdiction string, soon int) (*Watch, error) {
	if jurisdiction == "" {
		jurisdiction = s.home
	}
	p, err := s.rules.Resolve(jurisdiction)
	if err != nil {
		return nil, err
	}
	if soon <= 0 {
		soon = DefaultSoonDays
	}
	today := p.Today(s.now())
	w := &Watch{Jurisdiction: p.ID, AsOf: today, SoonDays: soon, Dangerous: []WatchedAnimal{}, Quarantines: []WatchedQuarantine{}}
	ds, err := s.store.FindDesignationsIn(ctx, p.ID)
	if err != nil {
		return nil, err
	}
	seen := map[int64]bool{}
	for _, d := range ds {
		if seen[d.AnimalID] {
			continue
		}
		seen[d.AnimalID] = true
		c, err := s.Requirements(ctx, d.AnimalID, today)
		if err != nil {
			return nil, err
		}
		if c == nil || c.Jurisdiction != p.ID {
			continue // rescinded, or a newer designation elsewhere
		}
		a, err := s.store.FindAnimalByID(ctx, d.AnimalID)
		if err != nil {
			return nil, err
		}
		wa := WatchedAnimal{Animal: a, Designated: d.ID, Compliance: c}
		for _, r := range c.Requirements {
			switch r.Status {
			case rules.RequirementOverdue:
				wa.Overdue++
			case rules.RequirementDue:
				wa.Due++
			}
		}
		w.Dangerous = append(w.Dangerous, wa)
	}
	// Overdue first, then due, then in order of declaration.
	slices.SortStableFunc(w.Dangerous, func(a, b WatchedAnimal) int {
		if a.Overdue != b.Overdue {
			return b.Overdue - a.Overdue
		}
		return b.Due - a.Due
	})
	qs, err := s.store.FindOpenQuarantines(ctx)
	if err != nil {
		return nil, err
	}
	by := today.AddDays(soon)
	for _, q := range qs {
		if q.End > by || q.Start > today {
			continue
		}
		rec, err := s.store.FindRecordByAnimal(ctx, q.AnimalID)
		if err != nil {
			return nil, err
		}
		if s.rules.For(rec, s.home).ID != p.ID {
			continue
		}
		wq := WatchedQuarantine{Quarantine: q, Animal: &rec.Animal, DaysLeft: int(q.End - today)}
		for i := range rec.Bites {
			if rec.Bites[i].ID == q.BiteID {
				wq.Bite = &rec.Bites[i]
			}
		}
		w.Quarantines = append(w.Quarantines, wq)
	}
	return w, nil
}

// requirementDates maps a requirement of the profiles (rules
// DangerRequirement names) to the designation's date that meets it.
var requirementDates = map[string]func(u *service.DesignationUpdate, d *service.Date){
	"microchip":     func(u *service.DesignationUpdate, d *service.Date) { u.MicrochipOn = d },
	"sterilisation": func(u *service.DesignationUpdate, d *service.Date) { u.SterilisedOn = d },
	"photo":         func(u *service.DesignationUpdate, d *service.Date) { u.PhotoOn = d },
	"registration":  func(u *service.DesignationUpdate, d *service.Date) { u.RegisteredOn = d },
	"sign":          func(u *service.DesignationUpdate, d *service.Date) { u.SignOn = d },
	"insurance":     func(u *service.DesignationUpdate, d *service.Date) { u.InsuredOn = d },
}

// MetRequest records a requirement of a designation met.
type MetRequest struct {
	// What names the requirement (rules: microchip, sterilisation,
	// photo, registration, sign, insurance).
	What string       `json:"what"`
	On   service.Date `json:"on"`
	// RegistrationNumber is the county's number, for "registration".
	RegistrationNumber string `json:"registration_number,omitempty"`
	// InsuranceCents and InsuranceExpires are the cover shown, for
	// "insurance" (Minn. Stat. 347.51 subd. 2 asks for at least the
	// profile's minimum).
	InsuranceCents   int64        `json:"insurance_cents,omitempty"`
	InsuranceExpires service.Date `json:"insurance_expires,omitzero"`
}

// Met is the compliance after a requirement was recorded met. Still,
// when not empty, says why the rules do not count it met (cover below
// the minimum, or lapsed), citing the section.
type Met struct {
	*Compliance
	Still string `json:"still,omitempty"`
}

// RecordMet records requirement r.What of animal id's designation in
// force met on r.On (a day that has come), and answers the compliance
// after it. A requirement the designation's level does not have, or
// one already met, is refused (EINVALID, ECONFLICT).
func (s *Service) RecordMet(ctx context.Context, animalID int64, r *MetRequest) (*Met, error) {
	rec, err := s.store.FindRecordByAnimal(ctx, animalID)
	if err != nil {
		return nil, err
	}
	if rec.Dangerous == nil {
		return nil, service.Conflictf("This animal has no dangerous-animal designation in force.")
	}
	p, err := s.rules.Resolve(rec.Dangerous.Jurisdiction)
	if err != nil {
		return nil, err
	}
	today := p.Today(s.now())
	if r.On.IsZero() {
		return nil, service.Invalidf("on", "The date the requirement was met is required.")
	}
	if r.On > today {
		return nil, service.Invalidf("on", "The date met (%s) has not come yet: today is %s.", r.On, today)
	}
	if r.On < rec.Dangerous.DeclaredOn {
		return nil, service.Invalidf("on", "The date (%s) is before the declaration (%s).", r.On, rec.Dangerous.DeclaredOn)
	}
	var check *rules.DangerCheck
	for _, c := range p.DangerRequirements(rec, today) {
		if c.What == r.What && c.Status != rules.RequirementNotApplicable {
			check = &c
			break
		}
	}
	set := requirementDates[r.What]
	if check == nil || set == nil {
		return nil, service.Invalidf("what", "%q is not a requirement of this %s designation.", r.What, rec.Dangerous.Level)
	}
	if check.Status == rules.RequirementMet {
		return nil, service.Conflictf("The %s requirement is met already (%s).", r.What, check.MetOn)
	}
	u := service.DesignationUpdate{}
	on := r.On
	set(&u, &on)
	switch r.What {
	case "registration":
		if n := r.RegistrationNumber; n != "" {
			u.RegistrationNumber = &n
		}
	case "insurance":
		if r.InsuranceCents <= 0 {
			return nil, service.Invalidf("insurance_cents", "Give the amount of the bond or insurance shown (%s).", check.Section)
		}
		c := r.InsuranceCents
		u.InsuranceCents = &c
		if !r.InsuranceExpires.IsZero() {
			e := r.InsuranceExpires
			if e < today {
				return nil, service.Invalidf("insurance_expires", "The cover shown ended on %s.", e)
			}
			u.InsuranceExpires = &e
		}
	}
	if _, err := s.UpdateDesignation(ctx, rec.Dangerous.ID, u); err != nil {
		return nil, err
	}
	c, err := s.Requirements(ctx, animalID, today)
	if err != nil {
		return nil, err
	}
	out := &Met{Compliance: c}
	for _, x := range c.Requirements {
		if x.What == r.What && x.Status != rules.RequirementMet && x.Status != rules.RequirementNotApplicable {
			// Recorded, and still not met (insurance below the minimum).
			out.Still = fmt.Sprintf("the requirement is still %s: %s (%s)", x.Status, x.Note, x.Section)
		}
	}
	return out, nil
}
