package incidents

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/lookup"
	"github.com/chipdesk/chipdesk/service/rules"
)

// Opts configures a Service. Store and Rules are required.
type Opts struct {
	Store service.Store
	Rules *rules.Set
	// Jurisdiction is the profile that applies when nothing in a record
	// names one; the first profile when empty.
	Jurisdiction string
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// Service records incidents.
type Service struct {
	store service.Store
	rules *rules.Set
	home  string
	now   func() time.Time
}

// New returns a Service.
func New(o *Opts) (*Service, error) {
	if o == nil || o.Store == nil || o.Rules == nil {
		return nil, errors.New("incidents: Store and Rules required")
	}
	s := &Service{store: o.Store, rules: o.Rules, home: o.Jurisdiction, now: o.Now}
	if s.now == nil {
		s.now = time.Now
	}
	return s, nil
}

// Bite is a recorded bite and what followed from it.
type Bite struct {
	*service.BiteIncident
	// Quarantine is the bite quarantine started for it, when a person
	// was bitten.
	Quarantine *service.Quarantine `json:"quarantine,omitempty"`
	// Proposal is a designation proposed for review (Chanhassen 5-76(2)).
	Proposal *rules.BiteProposal `json:"designation_proposal,omitempty"`
}

// RecordBite stores a bite and, when a person was bitten, the quarantine
// the rules order for the biting animal (66.40, 5-39(a)); a bite dated
// in the future is refused.
// RecordBiteQuarantine records b as RecordBite does and answers the
// quarantine it started, nil when none (a 66.60 report through
// service/permits).
func (s *Service) RecordBiteQuarantine(ctx context.Context, b *service.BiteIncident) (*service.Quarantine, error) {
	out, err := s.RecordBite(ctx, b)
	if err != nil {
		return nil, err
	}
	return out.Quarantine, nil
}

func (s *Service) RecordBite(ctx context.Context, b *service.BiteIncident) (*Bite, error) {
	if b.AnimalID <= 0 {
		return nil, service.Invalidf("animal_id", "animal_id required: the animal that bit.")
	}
	if b.Victim != service.VictimPerson && b.Victim != service.VictimAnimal {
		return nil, service.Invalidf("victim", "Say whether a person or an animal was bitten (victim person or animal).")
	}
	rec, err := s.store.FindRecordByAnimal(ctx, b.AnimalID)
	if err != nil {
		return nil, err
	}
	p := s.rules.For(rec, s.home)
	today := p.Today(s.now())
	if b.Date.IsZero() {
		b.Date = today
	}
	if err := service.NotFuture("date", b.Date, today); err != nil {
		return nil, err
	}
	b.ID = 0
	// The bite's own event: the caller's when the change is the bite,
	// else one of its own (a bite reported under a report's change).
	if err := s.store.CreateBite(service.For(ctx, "bite.create", "bite", 0, ""), b); err != nil {
		return nil, err
	}
	out := &Bite{BiteIncident: b, Proposal: p.ProposeDesignation(rec, b)}
	if b.Victim != service.VictimPerson {
		return out, nil
	}
	plan := p.BiteQuarantine(&rec.Animal, rec.Rabies, b.Date)
	q := &service.Quarantine{AnimalID: b.AnimalID, BiteID: b.ID, Kind: plan.Kind, Place: plan.Place,
		Start: plan.Start, End: plan.End, Notes: lookup.Cite("Ordered for the bite of "+b.Date.String()+".", plan.Source)}
	// The quarantine commits with its own audit event, the caller's.
	if err := s.store.CreateQuarantine(service.Also(ctx, "quarantine.create", "quarantine", 0, "ordered for bite"), q); err != nil {
		return nil, err
	}
	out.Quarantine = q
	return out, nil
}

// QuarantineRequest orders a quarantine: the quarantine's own fields
// and, for an exposure, the Option the officer chose among
// ExposureOptions. For a bite the end defaults to ten days after the
// start and is refused shorter; for an exposure the end and the place
// follow from the option unless a longer end is given.
type QuarantineRequest struct {
	service.Quarantine
	Option string `json:"option,omitempty"`
}

// Quarantine is an ordered quarantine with the section it comes from.
type Quarantine struct {
	*service.Quarantine
	Option      string       `json:"option,omitempty"`
	Section     string       `json:"section"`
	VaccinateOn service.Date `json:"vaccinate_on,omitzero"`
}

// Quarantine orders a quarantine (see QuarantineRequest).
func (s *Service) Quarantine(ctx context.Context, r *QuarantineRequest) (*Quarantine, error) {
	if r.AnimalID <= 0 {
		return nil, service.Invalidf("animal_id", "animal_id required: the animal to quarantine.")
	}
	rec, err := s.store.FindRecordByAnimal(ctx, r.AnimalID)
	if err != nil {
		return nil, err
	}
	p := s.rules.For(rec, s.home)
	today := p.Today(s.now())
	start := r.Start
	if start.IsZero() {
		start = today
	}
	q := &service.Quarantine{AnimalID: r.AnimalID, BiteID: r.BiteID, Kind: r.Kind, Place: r.Place, Start: start, End: r.End, Notes: strings.TrimSpace(r.Notes)}
	if !r.ReleasedOn.IsZero() {
		return nil, service.Invalidf("released_on", "A quarantine is released once ordered, not at its order.")
	}
	out := &Quarantine{Quarantine: q}
	switch r.Kind {
	case service.QuarantineBite:
		days := p.Bite.QuarantineDays
		min := start.AddDays(days.Value)
		if q.End.IsZero() {
			q.End = min
		} else if q.End < min {
			return nil, service.Invalidf("end", "A bite quarantine lasts not less than %d days (%s): from %s it ends on %s at the earliest, not %s.",
				days.Value, days.Source, start, min, q.End)
		}
		plan := p.BiteQuarantine(&rec.Animal, rec.Rabies, start)
		if q.Place == "" {
			q.Place = plan.Place
		} else if q.Place == service.AtHome && plan.Place != service.AtHome {
			return nil, service.Invalidf("place", "Home quarantine needs a current rabies vaccination (%s); this animal is confined at the %s.", plan.Source, plan.Place)
		}
		out.Section = days.Source
	case service.QuarantineExposure:
		opts := p.ExposureOptions(&rec.Animal, rec.Rabies, start)
		var plan *rules.QuarantinePlan
		for i := range opts {
			if opts[i].Option == r.Option {
				plan = &opts[i]
			}
		}
		if plan == nil {
			return nil, service.Invalidf("option", "Choose what is done with the exposed animal: %s.", describe(opts))
		}
		if plan.Option == rules.OptionDestroy {
			return nil, service.Invalidf("option", "An animal destroyed (%s) is not quarantined; record its death instead.", plan.Source)
		}
		if q.End.IsZero() {
			q.End = plan.End
		} else if q.End < plan.End {
			return nil, service.Invalidf("end", "The %s option (%s) ends on %s at the earliest, not %s.", plan.Option, plan.Source, plan.End, q.End)
		}
		if q.Place == "" {
			q.Place = plan.Place
		}
		if q.Notes == "" {
			q.Notes = lookup.Cite(plan.Note, plan.Source)
		}
		out.Option, out.Section, out.VaccinateOn = plan.Option, plan.Source, plan.VaccinateOn
	default:
		return nil, service.Invalidf("kind", "Quarantine kind must be bite or exposure.")
	}
	if q.Start > today.AddDays(1) {
		return nil, service.Invalidf("start", "A quarantine starts today or from the bite or exposure, not on %s.", q.Start)
	}
	if err := q.Validate(); err != nil {
		return nil, err
	}
	if err := s.store.CreateQuarantine(ctx, q); err != nil {
		return nil, err
	}
	return out, nil
}

// ReleaseQuarantine records the release of quarantine id on on: a day
// that has come (EINVALID on "on" otherwise).
func (s *Service) ReleaseQuarantine(ctx context.Context, id int64, on service.Date) error {
	if on.IsZero() {
		return service.Invalidf("on", "The release date (on) is required.")
	}
	today := s.rules.For(&service.Record{}, s.home).Today(s.now())
	if err := service.NotFuture("on", on, today); err != nil {
		return err
	}
	return s.store.ReleaseQuarantine(ctx, id, on)
}

// ExposureOptions lists what the law lets the officer choose for animal
// id, exposed on on (today when zero) to a rabid animal.
func (s *Service) ExposureOptions(ctx context.Context, id int64, on service.Date) ([]rules.QuarantinePlan, error) {
	rec, err := s.store.FindRecordByAnimal(ctx, id)
	if err != nil {
		return nil, err
	}
	p := s.rules.For(rec, s.home)
	if on.IsZero() {
		on = p.Today(s.now())
	}
	return p.ExposureOptions(&rec.Animal, rec.Rabies, on), nil
}

func describe(opts []rules.QuarantinePlan) string {
	parts := make([]string, 0, len(opts))
	for _, o := range opts {
		if o.Option == rules.OptionDestroy {
			parts = append(parts, fmt.Sprintf("%q (%s)", o.Option, o.Source))
			continue
		}
		parts = append(parts, fmt.Sprintf("%q until %s (%s)", o.Option, o.End, o.Source))
	}
	return strings.Join(parts, ", ")
}

// Designate records a dangerous or potentially dangerous designation.
// The jurisdiction is resolved by name or code (an unknown one is
// refused, listing the known ones); the declaration and every compliance
// date may not lie in the future.
func (s *Service) Designate(ctx context.Context, d *service.DangerousDesignation) (*service.DangerousDesignation, error) {
	if d.AnimalID <= 0 {
		return nil, service.Invalidf("animal_id", "animal_id required: the animal designated.")
	}
	p, err := s.rules.Resolve(d.Jurisdiction)
	if err != nil {
		return nil, err
	}
	d.Jurisdiction = p.ID
	switch d.Level {
	case service.Dangerous, service.PotentiallyDangerous:
	case "potentially_dangerous":
		d.Level = service.PotentiallyDangerous
	default:
		return nil, service.Invalidf("level", "Level must be dangerous (Minn. Stat. 347.50 subd. 2) or potentially-dangerous (subd. 3).")
	}
	today := p.Today(s.now())
	if d.DeclaredOn.IsZero() {
		return nil, service.Invalidf("declared_on", "The declaration date is required.")
	}
	if err := checkDates(d, today); err != nil {
		return nil, err
	}
	if _, err := s.store.FindAnimalByID(ctx, d.AnimalID); err != nil {
		return nil, err
	}
	d.ID = 0
	if err := s.store.CreateDesignation(ctx, d); err != nil {
		return nil, err
	}
	return d, nil
}

// UpdateDesignation records compliance steps; no date may lie in the
// future.
func (s *Service) UpdateDesignation(ctx context.Context, id int64, u service.DesignationUpdate) (*service.DangerousDesignation, error) {
	p := s.rules.For(&service.Record{}, s.home)
	today := p.Today(s.now())
	for _, f := range []struct {
		name string
		d    *service.Date
	}{{"decision_on", u.DecisionOn}, {"registered_on", u.RegisteredOn}, {"sign_on", u.SignOn}, {"microchip_on", u.MicrochipOn},
		{"sterilised_on", u.SterilisedOn}, {"photo_on", u.PhotoOn}, {"insured_on", u.InsuredOn}, {"rescinded_on", u.RescindedOn}} {
		if f.d != nil {
			if err := service.NotFuture(f.name, *f.d, today.AddDays(1)); err != nil {
				return nil, err
			}
		}
	}
	return s.store.UpdateDesignation(ctx, id, u)
}

func checkDates(d *service.DangerousDesignation, today service.Date) error {
	for _, f := range []struct {
		name string
		d    service.Date
	}{{"declared_on", d.DeclaredOn}, {"decision_on", d.DecisionOn}, {"registered_on", d.RegisteredOn}, {"sign_on", d.SignOn},
		{"microchip_on", d.MicrochipOn}, {"sterilised_on", d.SterilisedOn}, {"photo_on", d.PhotoOn}, {"insured_on", d.InsuredOn}} {
		if err := service.NotFuture(f.name, f.d, today); err != nil {
			return err
		}
	}
	if !d.DecisionOn.IsZero() && d.DecisionOn < d.DeclaredOn {
		return service.Invalidf("decision_on", "The hearing decision (%s) cannot come before the declaration (%s).", d.DecisionOn, d.DeclaredOn)
	}
	return nil
}

// Compliance is a designation's requirements with their status on AsOf,
// and the restrictions that apply.
type Compliance struct {
	Level        service.DangerLevel `json:"level"`
	Declared     service.Date        `json:"declared"`
	Jurisdiction string              `json:"jurisdiction"`
	Requirements []rules.DangerCheck `json:"requirements"`
	Restrictions []string            `json:"restrictions"`
	AsOf         service.Date        `json:"as_of"`
}

// Requirements is the compliance of animal id's designation on on (today
// when zero); nil when it has none in force.
func (s *Service) Requirements(ctx context.Context, id int64, on service.Date) (*Compliance, error) {
	rec, err := s.store.FindRecordByAnimal(ctx, id)
	if err != nil {
		return nil, err
	}
	if rec.Dangerous == nil {
		return nil, nil
	}
	p, err := s.rules.Resolve(rec.Dangerous.Jurisdiction)
	if err != nil {
		return nil, err
	}
	if on.IsZero() {
		on = p.Today(s.now())
	}
	c := &Compliance{Level: rec.Dangerous.Level, Declared: rec.Dangerous.DeclaredOn, Jurisdiction: p.ID, AsOf: on,
		Requirements: p.DangerRequirements(rec, on), Restrictions: []string{}}
	if c.Requirements == nil {
		return nil, nil
	}
	for _, r := range p.Dangerous.Restrictions {
		c.Restrictions = append(c.Restrictions, lookup.Cite(r.Value, r.Source))
	}
	return c, nil
}

// MaxClockAhead is how far ahead of the service's clock a handheld may
// stamp an event: a clock set years ahead ("2031") is refused, not
// stored as it is.
const MaxClockAhead = 10 * time.Minute

// ApplyDeviceEvent applies an event a handheld pushed (the sync door)
// through the same rules as the other doors: an event stamped in the
// future is refused (field "at"); a bite goes through the checks of
// RecordBite and starts the same quarantine as POST /api/v1/bites. The
// store records the event once (service.DeviceEventService); a repeated
// push of a bite whose quarantine is missing starts it then.
func (s *Service) ApplyDeviceEvent(ctx context.Context, e *service.DeviceEvent) (applied bool, recordID int64, err error) {
	if err := e.Validate(); err != nil {
		return false, 0, err
	}
	now := s.now()
	if e.At.After(now.Add(MaxClockAhead)) {
		return false, 0, service.Invalidf("at", "The %s's clock is ahead: the event is stamped %s, the time is now %s. Set the handheld's clock and push again.",
			e.Device, e.At.UTC().Format(time.RFC3339), now.UTC().Format(time.RFC3339))
	}
	if e.Kind == service.DeviceScan && !e.Scan.At.IsZero() && e.Scan.At.After(now.Add(MaxClockAhead)) {
		return false, 0, service.Invalidf("scan.at", "The %s's clock is ahead: the scan is stamped %s, the time is now %s.",
			e.Device, e.Scan.At.UTC().Format(time.RFC3339), now.UTC().Format(time.RFC3339))
	}
	var rec *service.Record
	var p *rules.Profile
	if e.Kind == service.DeviceBite {
		b := e.Bite
		if b.AnimalID <= 0 {
			return false, 0, service.Invalidf("bite.animal_id", "The bite names no animal.")
		}
		if b.Victim != service.VictimPerson && b.Victim != service.VictimAnimal {
			return false, 0, service.Invalidf("bite.victim", "Say whether a person or an animal was bitten (victim person or animal).")
		}
		if rec, err = s.store.FindRecordByAnimal(ctx, b.AnimalID); err != nil {
			if service.ErrorCode(err) == service.ENOTFOUND {
				return false, 0, service.Invalidf("bite.animal_id", "Animal %d is not in the register.", b.AnimalID)
			}
			return false, 0, err
		}
		p = s.rules.For(rec, s.home)
		today := p.Today(now)
		if b.Date.IsZero() {
			b.Date = p.Today(e.At)
		}
		if err := service.NotFuture("bite.date", b.Date, today); err != nil {
			return false, 0, err
		}
	}
	if e.Kind == service.DeviceNote {
		if err := e.Note.Validate(); err != nil {
			return false, 0, err
		}
		if _, err := s.store.FindRecordByAnimal(ctx, e.Note.AnimalID); err != nil {
			if service.ErrorCode(err) == service.ENOTFOUND {
				return false, 0, service.Invalidf("note.animal_id", "Animal %d is not in the register.", e.Note.AnimalID)
			}
			return false, 0, err
		}
	}
	applied, recordID, err = s.store.ApplyDeviceEvent(ctx, e)
	if err != nil || e.Kind != service.DeviceBite || e.Bite.Victim != service.VictimPerson {
		return applied, recordID, err
	}
	// The quarantine commits with its audit event, under the identity
	// the bite's event has (the pushing token's).
	ev := e.BiteAudit(recordID, now.UTC())
	ev.Action, ev.Entity, ev.EntityID, ev.Detail = "quarantine.create", "quarantine", 0, "ordered for bite "+strconv.FormatInt(recordID, 10)+"; "+ev.Detail
	qctx, _ := service.WithChange(ctx, ev)
	return applied, recordID, s.biteQuarantine(qctx, p, rec, e.Bite, recordID)
}

// biteQuarantine starts the quarantine of bite id of rec's animal unless
// one was started for it (66.40, 5-39(a)).
func (s *Service) biteQuarantine(ctx context.Context, p *rules.Profile, rec *service.Record, b *service.BiteIncident, id int64) error {
	qs, err := s.store.FindQuarantines(ctx, rec.Animal.ID)
	if err != nil {
		return err
	}
	for _, q := range qs {
		if q.BiteID == id {
			return nil
		}
	}
	plan := p.BiteQuarantine(&rec.Animal, rec.Rabies, b.Date)
	q := &service.Quarantine{AnimalID: rec.Animal.ID, BiteID: id, Kind: plan.Kind, Place: plan.Place,
		Start: plan.Start, End: plan.End, Notes: lookup.Cite("Ordered for the bite of "+b.Date.String()+".", plan.Source)}
	return s.store.CreateQuarantine(ctx, q)
}
