package rules

import (
	"slices"
	"strings"

	"github.com/chipdesk/chipdesk/service"
)

// For picks the jurisdiction whose rules apply to a record: the tag that
// was looked up, else an open impoundment, a dangerous designation, the
// newest licence, the owner's city, and last home (a profile id; the
// first profile when empty or unknown).
func (s *Set) For(rec *service.Record, home string) *Profile {
	try := func(id string) *Profile {
		if id == "" {
			return nil
		}
		return s.Profile(id)
	}
	if m := rec.MatchedLicence; m != nil {
		if p := try(m.Jurisdiction); p != nil {
			return p
		}
	}
	for i := range rec.Impounds {
		if rec.Impounds[i].Disposition == service.Held {
			if p := try(rec.Impounds[i].Jurisdiction); p != nil {
				return p
			}
		}
	}
	if d := rec.Dangerous; d != nil {
		if p := try(d.Jurisdiction); p != nil {
			return p
		}
	}
	for i := range rec.Licences {
		if p := try(rec.Licences[i].Jurisdiction); p != nil {
			return p
		}
	}
	if o := rec.Owner; o != nil && o.City != "" {
		if p, err := s.Resolve(o.City); err == nil {
			return p
		}
	}
	if p := try(home); p != nil {
		return p
	}
	if ids := s.IDs(); len(ids) > 0 {
		return s.Profile(ids[0])
	}
	return nil
}

// RequirementStatus is where one requirement of a designation stands.
type RequirementStatus string

// Requirement statuses.
const (
	RequirementMet           RequirementStatus = "met"
	RequirementDue           RequirementStatus = "due"
	RequirementOverdue       RequirementStatus = "overdue"
	RequirementNotApplicable RequirementStatus = "not_applicable"
)

// DangerCheck is one requirement of a dangerous or potentially dangerous
// designation with its status, computed from the facts on file: a chip
// on record meets the microchip requirement, an altered animal the
// sterilisation one. A met requirement stays listed, with MetOn when the
// date is known.
type DangerCheck struct {
	What    string            `json:"what"`
	Section string            `json:"section"`
	Status  RequirementStatus `json:"status"`
	Due     service.Date      `json:"due,omitzero"`
	MetOn   service.Date      `json:"met_on,omitzero"`
	// Late is true for a requirement met after its due date.
	Late bool   `json:"late,omitempty"`
	Note string `json:"note,omitempty"`
}

// appliesTo reports whether r applies to a designation of level.
func (r *DangerRequirement) appliesTo(level service.DangerLevel) bool {
	if len(r.Levels) == 0 {
		return level == service.Dangerous
	}
	return slices.Contains(r.Levels, string(level))
}

// DangerRequirements lists the requirements of rec's designation on the
// date on: those of its level with met, due or overdue, the others of
// the profile not_applicable (a requirement of the "dangerous" level on
// a "potentially dangerous" animal). Nil when rec has no designation in
// force.
func (p *Profile) DangerRequirements(rec *service.Record, on service.Date) []DangerCheck {
	d := rec.Dangerous
	if d == nil || !d.RescindedOn.IsZero() && d.RescindedOn <= on {
		return nil
	}
	out := []DangerCheck{}
	seen := map[string]bool{}
	for i := range p.Dangerous.Requirements {
		r := &p.Dangerous.Requirements[i]
		if !r.appliesTo(d.Level) {
			continue
		}
		seen[r.Name] = true
		out = append(out, p.check(rec, r, on))
	}
	for i := range p.Dangerous.Requirements {
		r := &p.Dangerous.Requirements[i]
		if r.appliesTo(d.Level) || seen[r.Name] {
			continue
		}
		seen[r.Name] = true
		out = append(out, DangerCheck{What: r.Name, Section: r.Source, Status: RequirementNotApplicable,
			Note: "applies to a " + strings.Join(levelsOf(r), " or ") + " animal, not a " + string(d.Level) + " one"})
	}
	return out
}

func levelsOf(r *DangerRequirement) []string {
	if len(r.Levels) == 0 {
		return []string{string(service.Dangerous)}
	}
	return r.Levels
}

// check computes one requirement of rec's designation on on.
func (p *Profile) check(rec *service.Record, r *DangerRequirement, on service.Date) DangerCheck {
	d := rec.Dangerous
	c := DangerCheck{What: r.Name, Section: r.Source, Note: r.Note}
	if r.Days != nil {
		base := d.DeclaredOn
		if r.From == "later-of-declaration-or-decision" && d.DecisionOn > base {
			base = d.DecisionOn
		}
		c.Due = base.AddDays(*r.Days)
	}
	met := false
	switch r.Name {
	case "microchip":
		// A chip on record meets it, whenever it was implanted.
		c.MetOn, met = d.MicrochipOn, !d.MicrochipOn.IsZero()
		for _, ch := range rec.Chips {
			when := ch.ImplantDate
			if when.IsZero() && !ch.CreatedAt.IsZero() {
				when = p.Today(ch.CreatedAt)
			}
			if !met || !when.IsZero() && (c.MetOn.IsZero() || when < c.MetOn) {
				c.MetOn, met = when, true
			}
		}
	case "sterilisation":
		c.MetOn, met = d.SterilisedOn, !d.SterilisedOn.IsZero()
		if rec.Animal.Altered {
			met = true // altered: met, on the date recorded if one is
		}
	case "photo":
		c.MetOn, met = d.PhotoOn, !d.PhotoOn.IsZero()
	case "registration":
		c.MetOn, met = d.RegisteredOn, !d.RegisteredOn.IsZero()
	case "sign":
		c.MetOn, met = d.SignOn, !d.SignOn.IsZero()
	case "insurance":
		c.MetOn, met = d.InsuredOn, !d.InsuredOn.IsZero()
		if met && (d.InsuranceCents < r.MinCents || !d.InsuranceExpires.IsZero() && d.InsuranceExpires < on) {
			c.MetOn, met = 0, false // too little cover, or lapsed
		}
	}
	if met && c.MetOn > on {
		c.MetOn, met = 0, false // recorded for a later day: not met yet
	}
	switch {
	case met:
		c.Status = RequirementMet
		c.Late = !c.MetOn.IsZero() && !c.Due.IsZero() && c.MetOn > c.Due
	case !c.Due.IsZero() && on > c.Due:
		c.Status = RequirementOverdue
	default:
		c.Status = RequirementDue
	}
	return c
}

// dangerDeadlines lists the requirements of rec's designation that apply
// to its level as deadlines.
func (p *Profile) dangerDeadlines(rec *service.Record, on service.Date, out []Deadline) []Deadline {
	for _, c := range p.DangerRequirements(rec, on) {
		dl := Deadline{Name: c.What, Due: c.Due, MetOn: c.MetOn, Source: c.Section, Note: c.Note}
		switch {
		case c.Status == RequirementNotApplicable:
			continue
		case c.Status == RequirementMet && c.Late:
			dl.State = DeadlineMetLate
		case c.Status == RequirementMet:
			dl.State = DeadlineMet
		case c.Status == RequirementOverdue:
			dl.State = DeadlineMissed
		case c.Due.IsZero():
			dl.State = DeadlineOpen
		default:
			dl.State = DeadlineDue
		}
		out = append(out, dl)
	}
	return out
}

// BiteProposal is a designation proposed for an officer's review after a
// bite (Chanhassen 5-76(2)).
type BiteProposal struct {
	Level        service.DangerLevel `json:"level"`
	Jurisdiction string              `json:"jurisdiction"`
	Section      string              `json:"section"`
	Message      string              `json:"message"`
}

// ProposeDesignation returns the designation the profile proposes for
// review after bite b by an animal without one in force, or nil: a bite
// of a person that the animal was not provoked to (5-76(2) excepts "a
// person that has tormented or abused it").
func (p *Profile) ProposeDesignation(rec *service.Record, b *service.BiteIncident) *BiteProposal {
	r := p.BiteDesignation
	if r == nil || b.Victim != service.VictimPerson || b.Provoked {
		return nil
	}
	if d := rec.Dangerous; d != nil && d.Level == r.Level && (d.RescindedOn.IsZero() || d.RescindedOn > b.Date) {
		return nil
	}
	return &BiteProposal{Level: r.Level, Jurisdiction: p.ID, Section: r.Source,
		Message: "Bit a person on " + b.Date.String() + ": a " + string(r.Level) + " animal as defined in " + r.Source +
			"; review and declare it if the facts bear it out."}
}
