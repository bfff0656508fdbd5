package money

import (
	"context"
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
			return nil, nil, service.Invalidf("entered_cents", "Permit %d owes no fee %q on its %s (its fees: %s).", p.ID, code, event, codesOf(fees))
		case fees.Lines[i].State == rules.FeeSet:
			return nil, nil, service.Invalidf("entered_cents", "The fee %s is set by the ordinance (%s); it is not entered.", code, fees.Lines[i].Source)
		case cents < 0:
			return nil, nil, service.Invalidf("entered_cents", "The amount entered for %s cannot be negative.", code)
		}
	}
	cs := fromLines(base, cityOf(p.Jurisdiction), fees, entered)
	if len(cs) > 0 {
		if err := s.store.CreateCharges(ctx, cs); err != nil {
			return nil, nil, err
		}
	}
	return cs, open, nil
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
