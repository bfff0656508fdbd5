package lookup

import (
	"cmp"
	"slices"
	"strings"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/rules"
)

// profile resolves the jurisdiction a person named (rules.Set.Resolve).
func (s *Service) profile(name string) (*rules.Profile, error) { return s.rules.Resolve(name) }

// profileFor picks the jurisdiction whose rules apply to a record
// (rules.Set.For).
func (s *Service) profileFor(rec *service.Record) *rules.Profile { return s.rules.For(rec, s.home) }

// severityRank orders the alerts: danger (and a severity the rules do
// not name) first, then warnings, then information.
func severityRank(s rules.Severity) int {
	switch s {
	case rules.Warning:
		return 1
	case rules.Info:
		return 2
	}
	return 0
}

// evaluate fills in everything the rules compute: statuses, alerts (the
// most urgent first: dangerous animal and quarantine lead), deadlines,
// hold and redemption.
func (s *Service) evaluate(rec *service.Record, a *Answer, asOf service.Date) {
	p := s.profileFor(rec)
	if p == nil {
		return
	}
	on := asOf
	if on.IsZero() {
		on = p.Today(s.now())
	}
	e := p.Evaluate(rec, on)
	a.Jurisdiction, a.AsOf = p.ID, on

	// The alerts by rank, each rank in the rules' order (a stable sort),
	// without a sorted copy: a lookup evaluates every answer.
	if n := len(e.Alerts); n > 0 {
		a.Alerts = slices.Grow(a.Alerts, n)
		a.AlertDetails = slices.Grow(a.AlertDetails, n)
		for rank := range 3 {
			for _, al := range e.Alerts {
				if severityRank(al.Severity) != rank {
					continue
				}
				a.Alerts = append(a.Alerts, al.Message)
				a.AlertDetails = append(a.AlertDetails, AlertDetail{Code: al.Code, Severity: string(al.Severity), Message: al.Message, Section: al.Source})
			}
		}
	}

	a.Licence = &Licence{Status: string(e.Licence.State), Required: e.Licence.Required}
	if l := e.Licence.Licence; l != nil {
		a.Licence.ID, a.Licence.Jurisdiction, a.Licence.Year, a.Licence.TagNumber = l.ID, l.Jurisdiction, l.Year, l.TagNumber
		a.Licence.Issued, a.Licence.Expires, a.Licence.FeeCents, a.Licence.Kind = l.IssuedOn, l.ExpiresOn, l.FeeCents, string(l.Kind)
	}
	if m := rec.MatchedLicence; m != nil && a.Tag != nil {
		a.Tag.Status = string(m.Status)
		a.Tag.Expires = m.ExpiresOn
	}

	a.Rabies = &Rabies{Status: string(e.Rabies.State), Required: e.Rabies.Required, Vaccinated: e.Rabies.Date, Expires: e.Rabies.ValidUntil}
	if v := rec.Rabies; v != nil {
		a.Rabies.Certificate, a.Rabies.RabiesTag = v.Certificate, v.RabiesTag
	}

	if d := rec.Dangerous; d != nil && (d.RescindedOn.IsZero() || d.RescindedOn > on) {
		a.Dangerous = &Dangerous{ID: d.ID, Level: d.Level, Jurisdiction: d.Jurisdiction, Declared: d.DeclaredOn,
			RegistrationNumber: d.RegistrationNumber, Conditions: d.Conditions, Restrictions: []string{}}
		for _, r := range e.Restrictions {
			a.Dangerous.Restrictions = append(a.Dangerous.Restrictions, cite(r.Value, r.Source))
		}
		a.Dangerous.Requirements = []Requirement{}
		for _, c := range p.DangerRequirements(rec, on) {
			r := Requirement{What: c.What, Section: c.Section, Status: string(c.Status), Late: c.Late, Note: c.Note}
			if !c.Due.IsZero() {
				due := c.Due
				r.Due = &due
			}
			if !c.MetOn.IsZero() {
				m := c.MetOn
				r.MetOn = &m
			}
			a.Dangerous.Requirements = append(a.Dangerous.Requirements, r)
		}
	}
	for i := range rec.Quarantines {
		q := &rec.Quarantines[i]
		if !q.ReleasedOn.IsZero() {
			continue
		}
		v := Quarantine{ID: q.ID, BiteID: q.BiteID, Kind: q.Kind, Place: q.Place, Start: q.Start, End: q.End}
		a.Quarantines = append(a.Quarantines, v)
		if a.Quarantine == nil && q.Start <= on {
			a.Quarantine = &v
		}
	}

	for i := range rec.Impounds {
		im := &rec.Impounds[i]
		v := Impound{ID: im.ID, Jurisdiction: im.Jurisdiction, IntakeAt: im.IntakeAt, IntakeOn: im.IntakeOn,
			WhereFound: im.WhereFound, HoldUntil: im.HoldUntil, Disposition: im.Disposition, Open: im.Disposition == service.Held}
		if e.Hold != nil && e.Hold.ImpoundID == im.ID {
			v.HoldUntil = e.Hold.Until
		}
		a.Impounds = append(a.Impounds, v)
	}
	if e.Hold != nil {
		a.HoldUntil = e.Hold.Until
	}
	if b := e.Redemption; b != nil {
		a.Redemption = redemption(b)
	}

	for _, d := range e.Deadlines {
		if d.State == rules.DeadlineMet || d.State == rules.DeadlineMetLate {
			continue
		}
		a.Deadlines = append(a.Deadlines, Deadline{What: d.Name, Due: d.Due, Section: d.Source, Overdue: d.State == rules.DeadlineMissed})
	}
	slices.SortStableFunc(a.Deadlines, func(x, y Deadline) int {
		switch {
		case x.Due.IsZero() && !y.Due.IsZero():
			return 1
		case y.Due.IsZero() && !x.Due.IsZero():
			return -1
		}
		return cmp.Compare(x.Due, y.Due)
	})
}

// RedemptionOf converts a rules breakdown for an answer.
func RedemptionOf(b *rules.Breakdown) *Redemption { return redemption(b) }

// redemption converts a rules breakdown: the total only when every line
// is set (rules.Breakdown.TotalCents leaves the others out).
func redemption(b *rules.Breakdown) *Redemption {
	r := &Redemption{KnownCents: b.TotalCents, Complete: b.Complete, Lines: feeLines(b)}
	if b.Complete {
		total := b.TotalCents
		r.TotalCents = &total
	}
	return r
}

// feeLines converts a rules breakdown. A line that is not set, or reads
// two ways, has no amount: never zero.
// FeeLines converts a rules breakdown for an answer.
func FeeLines(b *rules.Breakdown) []FeeLine { return feeLines(b) }

func feeLines(b *rules.Breakdown) []FeeLine {
	out := make([]FeeLine, 0, len(b.Lines))
	for _, l := range b.Lines {
		f := FeeLine{Code: l.Code, Description: l.Label, Quantity: l.Quantity, State: string(l.State), Section: l.Source, Note: l.Note}
		switch l.State {
		case rules.FeeSet:
			c := l.Cents
			f.Cents = &c
		case rules.FeeConflict:
			rs := make([]string, 0, len(l.Readings))
			for _, r := range l.Readings {
				rs = append(rs, rules.Money(r.Cents)+" ("+r.Text+")")
			}
			f.Note = strings.TrimSpace("the text reads " + strings.Join(rs, " or ") + ". " + l.Note)
		default:
			f.NotSet = true
			if f.Note == "" {
				f.Note = cite("not set", l.Source)
			}
		}
		out = append(out, f)
	}
	return out
}

// Cite appends the section a rule comes from: "text (66.40)".
func Cite(text, source string) string { return cite(text, source) }

// cite appends the section a rule comes from.
func cite(text, source string) string {
	if source == "" {
		return text
	}
	return text + " (" + source + ")"
}
