package rules

import (
	"fmt"

	"github.com/chipdesk/chipdesk/service"
)

// Severity ranks alerts.
type Severity string

// Severities, from least to most urgent. Danger is an officer-safety or
// public-health matter (dangerous animal, rabies quarantine, stolen tag).
const (
	Info    Severity = "info"
	Warning Severity = "warning"
	Danger  Severity = "danger"
)

// Alert is one thing the person at the reader must know.
type Alert struct {
	Code     string       `json:"code"`
	Severity Severity     `json:"severity"`
	Message  string       `json:"message"`
	Source   string       `json:"source,omitempty"`
	Until    service.Date `json:"until,omitzero"`
}

// Alert codes.
const (
	AlertDangerous           = "dangerous"
	AlertQuarantine          = "quarantine"
	AlertImpounded           = "impounded"
	AlertRecentBite          = "recent-bite"
	AlertDesignationProposed = "designation-proposed"
	AlertLicenceMissing      = "licence-missing"
	AlertLicenceExpired      = "licence-expired"
	AlertTagReplaced         = "tag-replaced"
	AlertTagRevoked          = "tag-revoked"
	AlertTagExpired          = "tag-expired"
	AlertRabiesMissing       = "rabies-missing"
	AlertRabiesExpired       = "rabies-expired"
	AlertRabiesUnknown       = "rabies-undetermined"
	AlertDeceased            = "deceased"
	AlertDeadlineMissed      = "deadline-missed"
	AlertTooManyAnimals      = "too-many-animals"
	AlertFeeNotSet           = "fee-not-set"
	AlertFeeConflict         = "fee-conflict"
	AlertNoLicenceRule       = "no-licence-rule"
	AlertExpiryUndetermined  = "expiry-undetermined"
)

// LicenceState is the computed state of an animal's licence.
type LicenceState string

// Licence states.
const (
	LicenceCurrent     LicenceState = "current"
	LicenceExpired     LicenceState = "expired"
	LicenceNone        LicenceState = "none"
	LicenceNotRequired LicenceState = "not-required" // too young, or no licence in force needed yet
	LicenceNotLicensed LicenceState = "not-licensed" // the jurisdiction does not license the species
)

// LicenceStatus is the licence part of an Evaluation.
type LicenceStatus struct {
	State    LicenceState     `json:"state"`
	Required bool             `json:"required"`
	Licence  *service.Licence `json:"licence,omitempty"`
	Source   string           `json:"source,omitempty"`
}

// RabiesState is the computed state of an animal's rabies vaccination.
type RabiesState string

// Rabies states.
const (
	RabiesCurrent      RabiesState = "current"
	RabiesExpired      RabiesState = "expired"
	RabiesNone         RabiesState = "none"
	RabiesUndetermined RabiesState = "undetermined" // the profile does not set the period for this vaccine
	RabiesNotRequired  RabiesState = "not-required"
)

// RabiesStatus is the rabies part of an Evaluation.
type RabiesStatus struct {
	State    RabiesState  `json:"state"`
	Required bool         `json:"required"`
	Date     service.Date `json:"date,omitzero"`
	// ValidUntil is the last day the vaccination counts.
	ValidUntil service.Date `json:"validUntil,omitzero"`
	Months     int          `json:"months,omitempty"`
	// Assumed lists readings applied ("vaccine type not stated: killed
	// assumed (5-37(a))").
	Assumed []string `json:"assumed,omitempty"`
	Source  string   `json:"source,omitempty"`
}

// DeadlineState is where a requirement with a deadline stands.
type DeadlineState string

// Deadline states.
const (
	DeadlineMet     DeadlineState = "met"
	DeadlineMetLate DeadlineState = "met-late"
	DeadlineDue     DeadlineState = "due"
	DeadlineMissed  DeadlineState = "missed"
	DeadlineOpen    DeadlineState = "open" // required, no deadline set by law
)

// Deadline is one requirement with its due date.
type Deadline struct {
	Name   string        `json:"name"`
	Due    service.Date  `json:"due,omitzero"`
	MetOn  service.Date  `json:"metOn,omitzero"`
	State  DeadlineState `json:"state"`
	Source string        `json:"source"`
	Note   string        `json:"note,omitempty"`
}

// Hold is the holding period of an impounded animal.
type Hold struct {
	ImpoundID int64 `json:"impoundId"`
	// Until is the day the hold ends: the later of City and State.
	Until  service.Date `json:"until"`
	City   service.Date `json:"city"`
	State  service.Date `json:"state,omitzero"`
	Source string       `json:"source"`
	// Provisional is true when the hold counts from a notice not yet
	// given; Until then assumes notice on the last day allowed.
	Provisional bool   `json:"provisional,omitempty"`
	Note        string `json:"note,omitempty"`
}

// Evaluation is what the engine says about a record on a date.
type Evaluation struct {
	Jurisdiction string          `json:"jurisdiction"`
	On           service.Date    `json:"on"`
	Licence      LicenceStatus   `json:"licence"`
	Rabies       RabiesStatus    `json:"rabies"`
	Alerts       []Alert         `json:"alerts"`
	Deadlines    []Deadline      `json:"deadlines"`
	Restrictions []Cited[string] `json:"restrictions,omitempty"`
	Hold         *Hold           `json:"hold,omitempty"`
	Redemption   *Breakdown      `json:"redemption,omitempty"`
}

// ageMonths returns the whole months from birth to on, and false when
// the birth date is unknown.
func ageMonths(birth, on service.Date) (int, bool) {
	if birth.IsZero() || on < birth {
		return 0, !birth.IsZero()
	}
	by, bm, bd := birth.Date()
	oy, om, od := on.Date()
	m := (oy-by)*12 + int(om-bm)
	if od < bd && on < birth.AddMonths(m) {
		m--
	}
	return m, true
}

// olderThan reports whether the animal is over months old on on; an
// unknown age counts as older (the rule applies).
func olderThan(a *service.Animal, months int, on service.Date) bool {
	if months <= 0 {
		return true
	}
	age, known := ageMonths(a.BirthDate, on)
	return !known || age >= months && on > a.BirthDate.AddMonths(months)
}

// Evaluate computes the licence and rabies status, alerts, deadlines,
// the hold and the redemption fees of rec on the date on.
func (p *Profile) Evaluate(rec *service.Record, on service.Date) *Evaluation {
	e := &Evaluation{Jurisdiction: p.ID, On: on, Alerts: make([]Alert, 0, 4), Deadlines: []Deadline{}}
	a := &rec.Animal
	e.Rabies = p.RabiesStatus(a, rec.Rabies, on)
	e.Licence = p.licenceStatus(rec, on)

	if !a.DiedOn.IsZero() && a.DiedOn <= on {
		e.Alerts = append(e.Alerts, Alert{Code: AlertDeceased, Severity: Info, Message: "Animal recorded as deceased on " + a.DiedOn.String() + "."})
	}
	if d := rec.Dangerous; d != nil && (d.RescindedOn.IsZero() || d.RescindedOn > on) {
		e.Alerts = append(e.Alerts, Alert{Code: AlertDangerous, Severity: Danger,
			Message: fmt.Sprintf("Declared %s on %s%s.", d.Level, d.DeclaredOn, by(d.Authority)), Source: p.Dangerous.LeashMaxFeet.Source})
		e.Restrictions = p.Dangerous.Restrictions
		e.Deadlines = p.dangerDeadlines(rec, on, e.Deadlines)
		for _, dl := range e.Deadlines {
			if dl.State == DeadlineMissed {
				e.Alerts = append(e.Alerts, Alert{Code: AlertDeadlineMissed, Severity: Warning,
					Message: "Dangerous animal: " + dl.Name + " was due " + dl.Due.String() + ".", Source: dl.Source})
			}
		}
	}
	for i := range rec.Quarantines {
		q := &rec.Quarantines[i]
		if q.ReleasedOn.IsZero() && q.Start <= on {
			msg := "In rabies " + string(q.Kind) + " quarantine (" + string(q.Place) + ") until " + q.End.String() + "."
			if on > q.End {
				msg = "Rabies " + string(q.Kind) + " quarantine ended " + q.End.String() + " but no release is recorded."
			}
			src := p.Bite.QuarantineDays.Source
			if q.Kind == service.QuarantineExposure {
				// Exposure to a rabid animal: 66.50, 5-40, not the bite rule.
				src = p.Exposure.Unvaccinated.Source
				if p.RabiesStatus(a, rec.Rabies, q.Start).State == RabiesCurrent {
					src = p.Exposure.Vaccinated.Source
				}
			}
			e.Alerts = append(e.Alerts, Alert{Code: AlertQuarantine, Severity: Danger, Message: msg, Source: src, Until: q.End})
		}
	}
	for i := range rec.Bites {
		b := &rec.Bites[i]
		if b.Date <= on && b.Date > on.AddMonths(-12) {
			e.Alerts = append(e.Alerts, Alert{Code: AlertRecentBite, Severity: Warning,
				Message: "Bit a " + string(b.Victim) + " on " + b.Date.String() + "."})
			break
		}
	}
	for i := range rec.Bites {
		// Chanhassen 5-76(2): an unprovoked bite of a person in the last
		// year, and no designation yet: proposed for the officer's review.
		b := &rec.Bites[i]
		if b.Date <= on && b.Date > on.AddMonths(-12) {
			if pr := p.ProposeDesignation(rec, b); pr != nil {
				e.Alerts = append(e.Alerts, Alert{Code: AlertDesignationProposed, Severity: Warning, Message: pr.Message, Source: pr.Section})
				break
			}
		}
	}
	if m := rec.MatchedLicence; m != nil {
		switch {
		case m.Status == service.LicenceReplaced:
			e.Alerts = append(e.Alerts, Alert{Code: AlertTagReplaced, Severity: Danger,
				Message: fmt.Sprintf("Tag %d/%d was reported lost or stolen and replaced.", m.Year, m.TagNumber), Source: p.DuplicateTag.Reasons.Source})
		case m.Status == service.LicenceRevoked:
			e.Alerts = append(e.Alerts, Alert{Code: AlertTagRevoked, Severity: Warning,
				Message: fmt.Sprintf("Tag %d/%d belongs to a revoked licence.", m.Year, m.TagNumber)})
		case m.ExpiresOn < on:
			e.Alerts = append(e.Alerts, Alert{Code: AlertTagExpired, Severity: Warning,
				Message: fmt.Sprintf("Tag %d/%d expired on %s.", m.Year, m.TagNumber, m.ExpiresOn)})
		}
	}
	switch {
	case e.Licence.Required && e.Licence.State == LicenceExpired:
		e.Alerts = append(e.Alerts, Alert{Code: AlertLicenceExpired, Severity: Warning,
			Message: "Licence expired on " + e.Licence.Licence.ExpiresOn.String() + ".", Source: e.Licence.Source})
	case e.Licence.Required && e.Licence.State == LicenceNone:
		e.Alerts = append(e.Alerts, Alert{Code: AlertLicenceMissing, Severity: Warning, Message: "No licence.", Source: e.Licence.Source})
	}
	if e.Rabies.Required {
		switch e.Rabies.State {
		case RabiesNone:
			e.Alerts = append(e.Alerts, Alert{Code: AlertRabiesMissing, Severity: Warning, Message: "No rabies vaccination recorded.", Source: e.Rabies.Source})
		case RabiesExpired:
			e.Alerts = append(e.Alerts, Alert{Code: AlertRabiesExpired, Severity: Warning,
				Message: "Rabies vaccination lapsed after " + e.Rabies.ValidUntil.String() + ".", Source: e.Rabies.Source})
		case RabiesUndetermined:
			e.Alerts = append(e.Alerts, Alert{Code: AlertRabiesUnknown, Severity: Info,
				Message: "The rabies vaccination's period of validity is not set for this vaccine type.", Source: e.Rabies.Source})
		}
	}
	for i := range rec.Impounds {
		im := &rec.Impounds[i]
		if im.Disposition != service.Held || im.Jurisdiction != p.ID {
			continue
		}
		h := p.HoldFor(im)
		e.Hold = &h
		if n := p.Impound.NoticeWithinHours; n != nil && im.NoticeOn.IsZero() {
			// 5-73(a): notice of impounding within 24 hours.
			dl := Deadline{Name: "impound-notice", Due: im.IntakeOn.AddDays((n.Value + 23) / 24), State: DeadlineDue, Source: n.Source}
			if on > dl.Due {
				dl.State = DeadlineMissed
			}
			e.Deadlines = append(e.Deadlines, dl)
		}
		e.Redemption = p.Redemption(rec, im, on)
		e.Alerts = append(e.Alerts, Alert{Code: AlertImpounded, Severity: Info,
			Message: "Impounded on " + im.IntakeOn.String() + "; held until " + h.Until.String() + ".", Source: h.Source, Until: h.Until})
		break
	}
	return e
}

func by(authority string) string {
	if authority == "" {
		return ""
	}
	return " by " + authority
}

// licenceStatus finds the licence in force in this jurisdiction.
func (p *Profile) licenceStatus(rec *service.Record, on service.Date) LicenceStatus {
	a := &rec.Animal
	rule := p.Licences[a.Species]
	if rule == nil {
		return LicenceStatus{State: LicenceNotLicensed}
	}
	st := LicenceStatus{Source: rule.Required.Source,
		Required: olderThan(a, rule.Required.MinAgeMonths, on) && (a.DiedOn.IsZero() || a.DiedOn > on)}
	var current, last *service.Licence
	for i := range rec.Licences {
		l := &rec.Licences[i]
		if l.Jurisdiction != p.ID || l.Kind != service.KindLicence && l.Kind != "" || l.Status != service.LicenceActive || l.IssuedOn > on {
			continue
		}
		if l.ExpiresOn >= on && (current == nil || l.IssuedOn > current.IssuedOn) {
			current = l
		}
		if last == nil || l.ExpiresOn > last.ExpiresOn {
			last = l
		}
	}
	switch {
	case current != nil:
		st.State, st.Licence = LicenceCurrent, current
	case last != nil:
		st.State, st.Licence = LicenceExpired, last
	case st.Required:
		st.State = LicenceNone
	default:
		st.State = LicenceNotRequired
	}
	return st
}

// RabiesStatus computes whether the vaccination v (the latest; nil for
// none) protects animal a on the date on.
func (p *Profile) RabiesStatus(a *service.Animal, v *service.RabiesVaccination, on service.Date) RabiesStatus {
	rule := p.Rabies[a.Species]
	if rule == nil {
		return RabiesStatus{State: RabiesNotRequired}
	}
	st := RabiesStatus{Source: rule.Source, Required: olderThan(a, rule.RequiredOverMonths, on)}
	if v == nil || v.Date > on {
		if st.Required {
			st.State = RabiesNone
		} else {
			st.State = RabiesNotRequired
		}
		return st
	}
	st.Date = v.Date
	months, assumed, ok := rule.months(a, v)
	st.Assumed = assumed
	if !ok {
		st.State = RabiesUndetermined
		return st
	}
	st.Months = months
	st.ValidUntil = v.Date.AddMonths(months)
	if on <= st.ValidUntil {
		st.State = RabiesCurrent
	} else {
		st.State = RabiesExpired
	}
	return st
}

// months returns the validity of v in months, the readings assumed, and
// false when the profile does not set it.
func (r *RabiesRule) months(a *service.Animal, v *service.RabiesVaccination) (int, []string, bool) {
	var assumed []string
	if r.ModifiedLiveMonths != nil {
		// Chanhassen 5-37(a): by vaccine type; unstated means killed.
		typ := v.Type
		if typ == service.VaccineUnstated {
			typ = service.VaccineKilled
			assumed = append(assumed, "vaccine type not stated: killed vaccine assumed ("+r.Source+")")
		}
		if typ == service.VaccineKilled {
			if r.KilledMonths == nil {
				return 0, assumed, false
			}
			return *r.KilledMonths, assumed, true
		}
		m := *r.ModifiedLiveMonths
		if v.ExtendedCertified && r.ExtendedMaxMonths != nil && v.DurationMonths > m {
			m = min(v.DurationMonths, *r.ExtendedMaxMonths)
		}
		return m, assumed, true
	}
	m := *r.DefaultMonths
	if v.DurationMonths > 0 {
		m = v.DurationMonths
	} else {
		assumed = append(assumed, fmt.Sprintf("duration not stated: %d months assumed (%s)", m, r.Source))
	}
	if r.MinMonths != nil && m < *r.MinMonths {
		m = *r.MinMonths
	}
	if r.MaxMonths != nil && m > *r.MaxMonths {
		m = *r.MaxMonths
	}
	// The original vaccination, given young, is boosted within
	// FirstBoosterMonths (66.10, 66.20, 66.25).
	if r.FirstBoosterMonths != nil && !a.BirthDate.IsZero() && v.Date < a.BirthDate.AddMonths(12) && m > *r.FirstBoosterMonths {
		m = *r.FirstBoosterMonths
		assumed = append(assumed, "vaccinated under one year of age: treated as the original vaccination ("+r.Source+")")
	}
	return m, assumed, true
}

// HoldFor computes the hold of an impoundment: the city's period
// (62.40(a), 5-73(a)) and the state floor of five regular business days
// (Minn. Stat. 346.47 subd. 2); the later date wins.
func (p *Profile) HoldFor(im *service.Impoundment) Hold {
	h := Hold{ImpoundID: im.ID, Source: p.Impound.Hold.Source, Note: p.Impound.Hold.Note}
	var prov bool
	h.City, prov = p.holdEnd(&p.Impound.Hold, im)
	h.Provisional = prov
	h.Until = h.City
	if s := p.Impound.StateHold; s != nil {
		h.State, _ = p.holdEnd(s, im)
		if h.State > h.Until {
			h.Until = h.State
			h.Source = s.Source
		}
	}
	return h
}

func (p *Profile) holdEnd(r *HoldRule, im *service.Impoundment) (service.Date, bool) {
	base, provisional := im.IntakeOn, false
	if r.From == "notice" {
		if im.NoticeOn.IsZero() {
			// Notice not yet given: assume it on the last day allowed.
			days := 1
			if n := p.Impound.NoticeWithinHours; n != nil {
				days = (n.Value + 23) / 24
			}
			base, provisional = im.IntakeOn.AddDays(days), true
		} else {
			base = im.NoticeOn
		}
	}
	if r.Counting == "calendar" {
		return base.AddDays(r.Days), provisional
	}
	return p.Calendar.AddBusinessDays(base, r.Days), provisional
}

// AddBusinessDays returns the nth regular business day after d. With no
// business day in the calendar it returns d plus n weeks' worth of
// calendar days rather than looping forever.
func (c *Calendar) AddBusinessDays(d service.Date, n int) service.Date {
	limit := d.AddDays(n*7 + 366)
	for n > 0 && d < limit {
		d = d.AddDays(1)
		if c.IsBusinessDay(d) {
			n--
		}
	}
	return d
}

// LicenceDue returns the day by which animal a, kept since keptSince,
// must be licensed: once it is older than the minimum age and has been
// kept for more than the grace days (Minneapolis 64.10: over four months
// of age, kept more than five days; 65.10 and Chanhassen 5-51: at once).
// ok is false when the jurisdiction does not license the species.
func (p *Profile) LicenceDue(a *service.Animal, keptSince service.Date) (due service.Date, source string, ok bool) {
	rule := p.Licences[a.Species]
	if rule == nil {
		return 0, "", false
	}
	due = keptSince.AddDays(rule.Required.GraceDays)
	if rule.Required.MinAgeMonths > 0 && !a.BirthDate.IsZero() {
		// The first day the animal is over the minimum age.
		if aged := a.BirthDate.AddMonths(rule.Required.MinAgeMonths).AddDays(1); aged > due {
			due = aged
		}
	}
	return due, rule.Required.Source, true
}
