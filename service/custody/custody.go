package custody

import (
	"context"
	"errors"
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
	// Money raises a redemption's charges; nil makes one over Store and
	// Rules, so that every door that redeems raises the same charges.
	Money *money.Service
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// Service keeps custody.
type Service struct {
	store service.Store
	rules *rules.Set
	money *money.Service
	now   func() time.Time
}

// New returns a Service.
func New(o *Opts) (*Service, error) {
	if o == nil || o.Store == nil || o.Rules == nil {
		return nil, errors.New("custody: Store and Rules required")
	}
	s := &Service{store: o.Store, rules: o.Rules, money: o.Money, now: o.Now}
	if s.now == nil {
		s.now = time.Now
	}
	if s.money == nil {
		var err error
		if s.money, err = money.New(&money.Opts{Store: o.Store, Rules: o.Rules, Now: s.now}); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// Stay is an impoundment with what the rules say of it: the hold (when
// it ends, from which section), and what redemption costs on AsOf; once
// redeemed, the fee lines frozen at release.
type Stay struct {
	*service.Impoundment
	Hold       Hold               `json:"hold"`
	Redemption *lookup.Redemption `json:"redemption,omitempty"`
	AsOf       service.Date       `json:"as_of"`
	// Fees is the redemption as the rules break it down, for the pages.
	Fees *Breakdown `json:"-"`
	// Steps is what the stay allows on AsOf (list.go).
	Steps Steps `json:"steps"`
}

// Breakdown is a list of fee lines with their total.
type Breakdown = rules.Breakdown

// Hold is the holding period of a stay.
type Hold struct {
	Until       service.Date `json:"until"`
	Section     string       `json:"section"`
	Provisional bool         `json:"provisional,omitempty"`
	Note        string       `json:"note,omitempty"`
}

// Impound takes an animal into custody. The intake date defaults to
// today, the hold comes from the rules (the city period and Minn. Stat.
// 346.47 subd. 2). An animal in custody already is refused (ECONFLICT).
func (s *Service) Impound(ctx context.Context, im *service.Impoundment) (*Stay, error) {
	p, today, err := s.prepare(ctx, im, true)
	if err != nil {
		return nil, err
	}
	if err := s.store.CreateImpoundment(ctx, im); err != nil {
		return nil, err
	}
	return s.stay(ctx, p, im, today)
}

// prepare checks an impoundment to be made and fills in what the rules
// compute (jurisdiction, dates, hold); with refuseOpen, an animal in
// custody already is ECONFLICT.
func (s *Service) prepare(ctx context.Context, im *service.Impoundment, refuseOpen bool) (*rules.Profile, service.Date, error) {
	if im.AnimalID <= 0 {
		return nil, 0, service.Invalidf("animal_id", "animal_id required: the animal impounded.")
	}
	p, err := s.rules.Resolve(im.Jurisdiction)
	if err != nil {
		return nil, 0, err
	}
	now := s.now()
	today := p.Today(now)
	if im.IntakeAt.IsZero() {
		im.IntakeAt = now.UTC()
	} else if im.IntakeAt.After(now.Add(5 * time.Minute)) {
		return nil, 0, service.Invalidf("intake_at", "The intake time %s is in the future.", im.IntakeAt.Format(time.RFC3339))
	}
	if im.IntakeOn.IsZero() {
		im.IntakeOn = p.Today(im.IntakeAt)
	}
	if err := service.NotFuture("intake_on", im.IntakeOn, today); err != nil {
		return nil, 0, err
	}
	if err := service.NotFuture("notice_on", im.NoticeOn, today); err != nil {
		return nil, 0, err
	}
	if !im.NoticeOn.IsZero() && im.NoticeOn < im.IntakeOn {
		return nil, 0, service.Invalidf("notice_on", "Notice of impounding (%s) cannot come before the intake (%s).", im.NoticeOn, im.IntakeOn)
	}
	if refuseOpen {
		open, err := s.open(ctx, im.AnimalID)
		if err != nil {
			return nil, 0, err
		}
		if open != nil {
			return nil, 0, service.Conflictf("Animal %d is in custody already: impoundment %d since %s, held until %s. Record its release or disposition first.",
				im.AnimalID, open.ID, open.IntakeOn, open.HoldUntil)
		}
	}
	im.ID = 0
	im.Jurisdiction = p.ID
	im.Disposition, im.DispositionOn, im.FeesCents = service.Held, 0, 0
	im.HoldUntil = p.HoldFor(im).Until
	return p, today, nil
}

// ApplyDeviceEvent applies an impound event a handheld recorded in the
// field (an animal picked up): the impoundment with its hold, as Impound
// makes it, and the event's id in one store transaction, so that a
// re-push changes nothing. An animal already in custody by another
// impoundment is ECONFLICT; the one this event made, pushed again, is a
// duplicate.
func (s *Service) ApplyDeviceEvent(ctx context.Context, e *service.DeviceEvent) (applied bool, recordID int64, err error) {
	if err := e.Validate(); err != nil {
		return false, 0, err
	}
	if e.Kind != service.DeviceImpound {
		return false, 0, service.Invalidf("kind", "Custody applies impound events only, not %s.", e.Kind)
	}
	im := e.Impound
	if im.IntakeAt.IsZero() {
		im.IntakeAt = e.At
	}
	if im.Site == "" {
		im.Site = e.Site
	}
	if _, _, err := s.prepare(ctx, im, false); err != nil {
		return false, 0, err
	}
	open, err := s.open(ctx, im.AnimalID)
	if err != nil {
		return false, 0, err
	}
	if open != nil && !open.IntakeAt.Equal(im.IntakeAt.UTC().Truncate(time.Microsecond)) {
		return false, 0, service.Conflictf("Animal %d is in custody already: impoundment %d since %s. The pickup was not recorded.",
			im.AnimalID, open.ID, open.IntakeOn)
	}
	// Open and of the same time: this event's own, pushed again (the
	// store answers duplicate by the event's id).
	return s.store.ApplyDeviceEvent(ctx, e)
}

// open returns the animal's stay in custody, nil when it is not held.
func (s *Service) open(ctx context.Context, animalID int64) (*service.Impoundment, error) {
	t := true
	is, _, err := s.store.FindImpoundments(ctx, service.ImpoundFilter{AnimalID: &animalID, Open: &t, Limit: 1})
	if err != nil || len(is) == 0 {
		return nil, err
	}
	return is[0], nil
}

// stay is im with its hold and, while held, its redemption on on.
func (s *Service) stay(ctx context.Context, p *rules.Profile, im *service.Impoundment, on service.Date) (*Stay, error) {
	h := p.HoldFor(im)
	st := &Stay{Impoundment: im, AsOf: on, Hold: Hold{Until: h.Until, Section: h.Source, Provisional: h.Provisional, Note: h.Note}}
	var rec *service.Record
	if im.Disposition == service.Redeemed {
		fees, err := s.store.FindReleaseFees(ctx, im.ID)
		if err != nil {
			return nil, err
		}
		if fees != nil {
			st.Redemption = frozen(im, fees) // kept as paid, visible after release
		}
	}
	if im.Disposition == service.Held {
		var err error
		if rec, err = s.store.FindRecordByAnimal(ctx, im.AnimalID); err != nil {
			return nil, err
		}
		st.Fees = p.Redemption(withStay(rec, im), im, on)
		st.Redemption = lookup.RedemptionOf(st.Fees)
	}
	st.Steps = s.steps(p, rec, st)
	return st, nil
}

// withStay is rec with im among its impounds (a record read before im
// was stored lacks it).
func withStay(rec *service.Record, im *service.Impoundment) *service.Record {
	for i := range rec.Impounds {
		if rec.Impounds[i].ID == im.ID {
			rec.Impounds[i] = *im
			return rec
		}
	}
	rec.Impounds = append([]service.Impoundment{*im}, rec.Impounds...)
	return rec
}

// Find returns impoundment id with its hold and what redemption costs
// on on (today when zero).
func (s *Service) Find(ctx context.Context, id int64, on service.Date) (*Stay, error) {
	im, err := s.store.FindImpoundmentByID(ctx, id)
	if err != nil {
		return nil, err
	}
	p, err := s.rules.Resolve(im.Jurisdiction)
	if err != nil {
		return nil, err
	}
	if on.IsZero() {
		on = p.Today(s.now())
	}
	return s.stay(ctx, p, im, on)
}

// Update records a step of a stay (PATCH): the notice of impounding, a
// note, or its end. An end goes through Release: a redemption has its
// fees computed and frozen, any other disposition waits for the hold.
// The hold-until date and the fees are the rules', never typed in.
func (s *Service) Update(ctx context.Context, id int64, u service.ImpoundUpdate) (*Stay, error) {
	if u.HoldUntil != nil {
		return nil, service.Invalidf("hold_until", "The hold-until date comes from the ordinance (62.40, 5-73) and cannot be set.")
	}
	if u.FeesCents != nil {
		return nil, service.Invalidf("fees_cents", "The fees are computed at release (62.40, 5-74) and cannot be set.")
	}
	im, err := s.store.FindImpoundmentByID(ctx, id)
	if err != nil {
		return nil, err
	}
	p, err := s.rules.Resolve(im.Jurisdiction)
	if err != nil {
		return nil, err
	}
	today := p.Today(s.now())
	if u.NoticeOn != nil {
		if im.Disposition != service.Held {
			return nil, service.Conflictf("Impoundment %d has ended (%s); notice is given while the animal is held.", id, im.Disposition)
		}
		if err := service.NotFuture("notice_on", *u.NoticeOn, today); err != nil {
			return nil, err
		}
		if *u.NoticeOn < im.IntakeOn {
			return nil, service.Invalidf("notice_on", "Notice of impounding (%s) cannot come before the intake (%s).", *u.NoticeOn, im.IntakeOn)
		}
		c := *im
		c.NoticeOn = *u.NoticeOn
		hold := p.HoldFor(&c).Until
		u.HoldUntil = &hold // 5-73(a): the disposition date counts from the notice
	}
	if u.Disposition != nil && *u.Disposition != service.Held {
		on := today
		if u.DispositionOn != nil {
			on = *u.DispositionOn
		}
		note := ""
		if u.DispositionNote != nil {
			note = *u.DispositionNote
		}
		if u.NoticeOn != nil || u.HoldUntil != nil {
			if _, err := s.store.UpdateImpoundment(ctx, id, service.ImpoundUpdate{NoticeOn: u.NoticeOn, HoldUntil: u.HoldUntil}); err != nil {
				return nil, err
			}
		}
		return s.Release(ctx, id, &Release{Disposition: *u.Disposition, On: on, Note: note})
	}
	if u.Disposition != nil || u.DispositionOn != nil {
		return nil, service.Invalidf("disposition", "Give the disposition with its date to end a stay.")
	}
	im, err = s.store.UpdateImpoundment(ctx, id, u)
	if err != nil {
		return nil, err
	}
	return s.stay(ctx, p, im, today)
}

// Release ends a stay.
type Release struct {
	Disposition service.Disposition `json:"disposition"`
	// On is the day it ends; today when zero.
	On   service.Date `json:"on,omitzero"`
	Note string       `json:"note,omitempty"`
}

// Release ends stay id: a redemption with its fee lines computed from the
// impound's own history and frozen; adoption, sale, transfer or
// euthanasia only once the hold is over (62.50, 5-75); a death at any
// time.
func (s *Service) Release(ctx context.Context, id int64, r *Release) (*Stay, error) {
	im, err := s.store.FindImpoundmentByID(ctx, id)
	if err != nil {
		return nil, err
	}
	p, err := s.rules.Resolve(im.Jurisdiction)
	if err != nil {
		return nil, err
	}
	today := p.Today(s.now())
	on := r.On
	if on.IsZero() {
		on = today
	}
	if err := service.NotFuture("disposition_on", on, today); err != nil {
		return nil, err
	}
	if on < im.IntakeOn {
		return nil, service.Invalidf("disposition_on", "The stay cannot end (%s) before the intake (%s).", on, im.IntakeOn)
	}
	if im.Disposition != service.Held {
		return nil, service.Conflictf("Impoundment %d has ended already: %s on %s.", id, im.Disposition, im.DispositionOn)
	}
	if !r.Disposition.Valid() || r.Disposition == service.Held {
		return nil, service.Invalidf("disposition", "Disposition must be one of redeemed, adopted, transferred, euthanised or died.")
	}
	hold := p.HoldFor(im)
	u := service.ImpoundUpdate{Disposition: &r.Disposition, DispositionOn: &on}
	if strings.TrimSpace(r.Note) != "" {
		note := strings.TrimSpace(r.Note)
		u.DispositionNote = &note
	}
	var paid *lookup.Redemption
	switch r.Disposition {
	case service.Redeemed:
		rec, err := s.store.FindRecordByAnimal(ctx, im.AnimalID)
		if err != nil {
			return nil, err
		}
		paid = lookup.RedemptionOf(p.Redemption(withStay(rec, im), im, on))
		fees := paid.KnownCents
		u.FeesCents, u.Fees = &fees, releaseFees(paid)
		if !paid.Complete {
			note := "Fees not all set by the ordinance: " + notSet(paid) + " collected as set by resolution."
			if u.DispositionNote != nil {
				note = *u.DispositionNote + " " + note
			}
			u.DispositionNote = &note
		}
	case service.Died:
	default:
		if on < hold.Until {
			return nil, service.Conflictf("Impoundment %d is held until %s (%s); it cannot be %s before then, only redeemed by its owner.",
				id, hold.Until, hold.Source, r.Disposition)
		}
	}
	im, err = s.redeem(ctx, id, u, paid)
	if err != nil {
		return nil, err
	}
	st, err := s.stay(ctx, p, im, on)
	if err != nil {
		return nil, err
	}
	st.Redemption = paid
	return st, nil
}

// redeem stores the end of a stay: the one place a redemption is
// completed, with its fee lines frozen at release in the same
// transaction (u.Fees), and its charges raised on the owner (62.40,
// 5-74): the fees the rules set; those left to a resolution are raised
// when the clerk enters them (money.ChargeRedemption). Raising them
// twice raises them once, so a release whose charges a crash kept from
// being raised has them raised by the next call.
func (s *Service) redeem(ctx context.Context, id int64, u service.ImpoundUpdate, paid *lookup.Redemption) (*service.Impoundment, error) {
	im, err := s.store.UpdateImpoundment(ctx, id, u)
	if err != nil || paid == nil || im.Disposition != service.Redeemed {
		return im, err
	}
	if _, _, err := s.money.ChargeRedemption(ctx, im, nil); err != nil {
		return nil, err
	}
	return im, nil
}

// releaseFees are the lines of r as stored.
func releaseFees(r *lookup.Redemption) []service.ReleaseFee {
	out := make([]service.ReleaseFee, 0, len(r.Lines))
	for _, l := range r.Lines {
		out = append(out, service.ReleaseFee{Code: l.Code, Description: l.Description, Cents: l.Cents, Quantity: l.Quantity,
			State: l.State, Section: l.Section, Note: l.Note})
	}
	return out
}

// frozen is the redemption of a stay ended by redemption, from the fee
// lines stored at its release: what was paid, as computed that day.
func frozen(im *service.Impoundment, fees []service.ReleaseFee) *lookup.Redemption {
	r := &lookup.Redemption{Complete: true, Lines: make([]lookup.FeeLine, 0, len(fees))}
	for _, f := range fees {
		r.Lines = append(r.Lines, lookup.FeeLine{Code: f.Code, Description: f.Description, Cents: f.Cents, Quantity: f.Quantity,
			State: f.State, NotSet: f.Cents == nil, Note: f.Note, Section: f.Section})
		if f.Cents != nil {
			r.KnownCents += *f.Cents
		} else {
			r.Complete = false
		}
	}
	if r.Complete {
		total := r.KnownCents
		r.TotalCents = &total
	}
	return r
}

func notSet(r *lookup.Redemption) string {
	var out []string
	for _, l := range r.Lines {
		if l.Cents == nil {
			out = append(out, l.Description)
		}
	}
	return strings.Join(out, ", ")
}
