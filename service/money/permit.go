package money

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/rules"
)

// ChargePermit raises the charges of permit p on event
// (rules.PermitIssued when it is granted, new or renewed;
// rules.PermitRegistered with the year for a stable's annual
// registration) on the person who holds it: each fee line of
// rules.Profile.PermitFees with its section. A fee the ordinance leaves
// to a resolution is charged when entered names an amount for its code,
// "set by resolution", and is else left out (the answer's second value
// lists the codes left). Raising them twice raises them once.
func (s *Service) ChargePermit(ctx context.Context, p *service.Permit, event string, on service.Date, entered map[string]int64) ([]*service.Charge, []string, error) {
	pr := s.rules.Profile(p.Jurisdiction)
	if pr == nil {
		return nil, nil, service.Errorf(service.EINVALID, "Unknown jurisdiction %q.", p.Jurisdiction)
	}
	if p.State != service.PermitGranted {
		return nil, nil, service.Conflictf("Permit %d is %s; its fees are charged when it is granted.", p.ID, p.State)
	}
	if on.IsZero() {
		// The day it is granted; a renewal's term may start later.
		on = min(p.IssuedOn, pr.Today(s.now()))
	}
	fees := pr.PermitFees(p, event, on.Year())
	base := service.Charge{PayerID: p.OwnerID, SubjectKind: service.SubjectPermit, SubjectID: p.ID, Jurisdiction: p.Jurisdiction,
		Site: p.Site, On: on}
	return s.raise(ctx, base, fees, entered, fmt.Sprintf("Permit %d", p.ID))
}

// raise makes base a charge of each line of fees the rules set, and of
// each line left to a resolution that entered gives an amount for; it
// answers the charges and the codes still without an amount. An
// entered code that is not a line of fees, or is a line the rules set,
// is refused naming what owes it.
func (s *Service) raise(ctx context.Context, base service.Charge, fees *rules.Breakdown, entered map[string]int64, what string) ([]*service.Charge, []string, error) {
	var open []string
	for _, l := range fees.Lines {
		if l.State != rules.FeeSet && entered[l.Code] <= 0 {
			open = append(open, l.Code)
		}
	}
	for code, cents := range entered {
		i := slices.IndexFunc(fees.Lines, func(l rules.FeeLine) bool { return l.Code == code })
		switch {
		case i < 0:
			return nil, nil, service.Invalidf("entered_cents", "%s owes no fee %q (its fees: %s).", what, code, codesOf(fees))
		case fees.Lines[i].State == rules.FeeSet:
			return nil, nil, service.Invalidf("entered_cents", "The fee %s is set by the ordinance (%s); it is not entered.", code, fees.Lines[i].Source)
		case cents < 0:
			return nil, nil, service.Invalidf("entered_cents", "The amount entered for %s cannot be negative.", code)
		}
	}
	cs := fromLines(base, cityOf(base.Jurisdiction), fees, entered)
	if len(cs) > 0 {
		if err := s.store.CreateCharges(ctx, cs); err != nil {
			return nil, nil, err
		}
	}
	return cs, open, nil
}

// ChargeAdoption raises the sterilisation deposit of adoption agreement
// a (Minneapolis 64.140(a)(2)) on the adopting owner, when the rules set
// it or entered gives the amount the commissioner of health set;
// raising it twice raises it once.
func (s *Service) ChargeAdoption(ctx context.Context, a *service.AdoptionAgreement, entered map[string]int64) ([]*service.Charge, []string, error) {
	pr := s.rules.Profile(a.Jurisdiction)
	if pr == nil {
		return nil, nil, service.Errorf(service.EINVALID, "Unknown jurisdiction %q.", a.Jurisdiction)
	}
	base := service.Charge{PayerID: a.OwnerID, SubjectKind: service.SubjectAdoption, SubjectID: a.ID, Jurisdiction: a.Jurisdiction,
		Site: a.Site, On: a.AdoptedOn}
	return s.raise(ctx, base, pr.AdoptionFees(), entered, fmt.Sprintf("Adoption agreement %d", a.ID))
}

// ChargeAdoptionFees is ChargeAdoption of agreement id.
func (s *Service) ChargeAdoptionFees(ctx context.Context, id int64, entered map[string]int64) ([]*service.Charge, []string, error) {
	a, err := s.store.FindAdoptionAgreementByID(ctx, id)
	if err != nil {
		return nil, nil, err
	}
	return s.ChargeAdoption(ctx, a, entered)
}

func codesOf(b *rules.Breakdown) string {
	var out []string
	for _, l := range b.Lines {
		out = append(out, l.Code)
	}
	if len(out) == 0 {
		return "none"
	}
	return strings.Join(out, ", ")
}

// ChargePermitFees raises the charges of permit id with the amounts the
// clerk entered for the fees left to a resolution: those of its grant,
// or with registration those of its last annual registration (a stable,
// 5-105(a)).
func (s *Service) ChargePermitFees(ctx context.Context, id int64, registration bool, entered map[string]int64) ([]*service.Charge, []string, error) {
	p, err := s.store.FindPermitByID(ctx, id)
	if err != nil {
		return nil, nil, err
	}
	event, on := rules.PermitIssued, service.Date(0)
	if registration {
		if p.RegisteredOn.IsZero() {
			return nil, nil, service.Invalidf("registration", "Permit %d has no annual registration recorded (5-105(a)).", id)
		}
		event, on = rules.PermitRegistered, p.RegisteredOn
	}
	return s.ChargePermit(ctx, p, event, on, entered)
}

// ChargeEscape raises the city's charge to recover the horse of escape
// n (counted from 1, the order of p.Escapes) of stable permit p on the
// permit holder (Chanhassen 5-87(a): "the charges to the city to recover
// the horse", at least the profile's minimum): one charge of the amount
// recorded with the escape, on the day of the escape, whatever the
// permit's state (a recovery by the city suspends it, 5-87(b)). An
// escape the city did not recover, or recorded with no amount, owes
// nothing. Raising it twice raises it once.
func (s *Service) ChargeEscape(ctx context.Context, p *service.Permit, n int) ([]*service.Charge, error) {
	if p.Kind != service.PermitStable || n < 1 || n > len(p.Escapes) {
		return nil, service.Invalidf("escape", "Permit %d has no escape %d to charge (5-87(a)).", p.ID, n)
	}
	e := p.Escapes[n-1]
	if !e.RecoveredByCity || e.RecoveryCents == nil || *e.RecoveryCents <= 0 {
		return nil, nil
	}
	pr := s.rules.Profile(p.Jurisdiction)
	if pr == nil || pr.Permits == nil || pr.Permits.Stable == nil || pr.Permits.Stable.RecoveryCharge == nil {
		return nil, service.Errorf(service.EINVALID, "The profile of %q sets no charge to recover an escaped horse.", p.Jurisdiction)
	}
	src := pr.Permits.Stable.RecoveryCharge.Source
	c := &service.Charge{PayerID: p.OwnerID, SubjectKind: service.SubjectPermit, SubjectID: p.ID, Jurisdiction: p.Jurisdiction,
		Site: p.Site, On: e.On, Kind: fmt.Sprintf("horse-recovery-%d", n), Label: fmt.Sprintf("Recovery of an escaped horse, %s", e.On),
		Section: section(cityOf(p.Jurisdiction), src), AmountCents: *e.RecoveryCents}
	if err := s.store.CreateCharges(ctx, []*service.Charge{c}); err != nil {
		return nil, err
	}
	return []*service.Charge{c}, nil
}
