package rules

import (
	"fmt"
	"time"

	"github.com/chipdesk/chipdesk/service"
)

// PermitRules is the "permits" section of a profile: the licences and
// permits other than an animal's licence, and the reports and agreements
// the animal-control desk tracks. The off-leash and 64.100 fees and
// terms stay in the profile's offLeash and dwelling sections; this
// section adds their conditions.
type PermitRules struct {
	Kennel      *KennelRule      `json:"kennel,omitempty"`
	Stable      *StableRule      `json:"stable,omitempty"`
	OffLeash    *OffLeashTerms   `json:"offLeash,omitempty"`
	MultiAnimal *MultiAnimalRule `json:"multiAnimal,omitempty"`
	Adoption    *AdoptionRule    `json:"adoption,omitempty"`
	Business    *BusinessRule    `json:"animalBusiness,omitempty"`
	Reports     *ReportRules     `json:"reports,omitempty"`
}

// PermitTerm says when a permit expires: "dec31-next" (the first
// December 31 after issue), "jan31-next", "feb1-next", "none" (no
// expiry; kept by registration) or "not-set" (the text held does not
// say).
type PermitTerm struct {
	Rule   string `json:"rule"`
	Source string `json:"source"`
	Note   string `json:"note,omitempty"`
}

// MonthDay is a day of the year, "12-01", with its source.
type MonthDay struct {
	Value  string `json:"value"`
	Source string `json:"source"`
	Note   string `json:"note,omitempty"`

	month time.Month
	day   int
}

// Item is one thing an application must contain, or one condition of
// issue, or one ground for an action, named by a code.
type Item struct {
	Code   string `json:"code"`
	Text   string `json:"text"`
	Source string `json:"source"`
	Note   string `json:"note,omitempty"`
}

// KennelRule is Chanhassen 5-18, 5-18.1 and 5-18.2.
type KennelRule struct {
	Classes                Cited[[]string] `json:"classes"`
	AgriculturalCatsExempt Cited[bool]     `json:"agriculturalCatsExempt"`
	Application            []Item          `json:"application"`
	References             Cited[int]      `json:"references"`
	ReferenceCounties      Cited[[]string] `json:"referenceCounties"`
	ApplicationFee         *Fee            `json:"applicationFee"`
	InvestigationFee       *Fee            `json:"investigationFee"`
	LicenceFee             *Fee            `json:"licenceFee"`
	Expiry                 PermitTerm      `json:"expiry"`
	RenewalDue             MonthDay        `json:"renewalDue"`
	// SeparatePerPlace: a separate licence for each place of business
	// (5-18(c)).
	SeparatePerPlace      Cited[bool] `json:"separatePerPlace"`
	InspectionBeforeGrant Cited[bool] `json:"inspectionBeforeGrant"`
	// RefusalOffences are the conviction codes of 5-18.1(a).
	RefusalOffences Cited[[]string] `json:"refusalOffences"`
	// LookbackMonths is the year before the application of 5-18.1(b).
	LookbackMonths Cited[int] `json:"lookbackMonths"`
	Refusals       []Item     `json:"refusals"`
	// Grounds are those of 5-18(e) for revocation, suspension and
	// non-renewal.
	Grounds []Item `json:"grounds"`
	// AppealNoticeDays: notice of appeal within this many days of the
	// action; AppealHearingAfterDays: the council hears it on or after
	// this many days from the notice (5-18(f)).
	AppealNoticeDays       Cited[int] `json:"appealNoticeDays"`
	AppealHearingAfterDays Cited[int] `json:"appealHearingAfterDays"`
	// ContactClasses are the classes that must designate a contact
	// person (5-18.2(b)(1)).
	ContactClasses    Cited[[]string] `json:"contactClasses"`
	CommercialMinAcre Cited[float64]  `json:"commercialMinAcres"`
	Rules             []Item          `json:"rules"`
}

// StableRule is Chanhassen 5-101 to 5-106.
type StableRule struct {
	ApplicationFee  *Fee           `json:"applicationFee"`
	InspectionFee   *Fee           `json:"inspectionFee"`
	Inspection      Cited[bool]    `json:"inspection"`
	MinLotAcres     Cited[float64] `json:"minLotAcres"`
	TwoHorsesAcres  Cited[float64] `json:"twoHorsesAcres"`
	ThreeHorseAcres Cited[float64] `json:"threeHorsesAcres"`
	// AdditionalHorseAcres is a fraction [numerator, denominator].
	AdditionalHorseAcres Cited[[2]int] `json:"additionalHorseAcres"`
	Conditions           []Item        `json:"conditions"`
	Expiry               PermitTerm    `json:"expiry"`
	RegistrationDue      MonthDay      `json:"registrationDue"`
	Grounds              []Item        `json:"grounds"`
	HearingNoticeDays    Cited[int]    `json:"hearingNoticeDays"`
	// RecoveryCharge is the least the city charges to recover an
	// escaped horse (5-87(a)); EscapeSuspends: an escape needing the
	// city's recovery suspends the permit until reinspection and payment
	// (5-87(b)).
	RecoveryCharge *Fee        `json:"recoveryCharge,omitempty"`
	EscapeSuspends Cited[bool] `json:"escapeSuspends"`
	// Existing is the exemption of stables kept since 1975 (5-88).
	Existing *ExistingStable `json:"existing,omitempty"`
}

// ExistingStable is Chanhassen 5-88: who stabled horses by StabledBy is
// exempt from the conditions listed in Exempt, may not keep more horses
// than on HorsesAsOf nor enlarge a housing enclosure short of
// 5-104(a)(4), and loses the exemption on the parcel's subdivision or a
// break in the use of more than VoidAfterDiscontinuedMonths.
type ExistingStable struct {
	StabledBy                   Cited[string]   `json:"stabledBy"`
	Exempt                      Cited[[]string] `json:"exempt"`
	HorsesAsOf                  Cited[string]   `json:"horsesAsOf"`
	VoidOnSubdivision           Cited[bool]     `json:"voidOnSubdivision"`
	VoidAfterDiscontinuedMonths Cited[int]      `json:"voidAfterDiscontinuedMonths"`

	stabledBy service.Date
}

// StabledByDate is the last day of StabledBy as a date.
func (e *ExistingStable) StabledByDate() service.Date { return e.stabledBy }

// OffLeashTerms are the conditions of 64.55 beside its fees and term.
type OffLeashTerms struct {
	Classes         Cited[[]string] `json:"classes"`
	LicenceResident Cited[bool]     `json:"licenceRequiredResident"`
	RabiesRequired  Cited[bool]     `json:"rabiesRequired"`
	RulesSigned     Cited[bool]     `json:"rulesSigned"`
	Tag             Cited[bool]     `json:"tag"`
	Grounds         []Item          `json:"grounds"`
}

// MultiAnimalRule is what 64.100 says beside the limit, fee and term.
type MultiAnimalRule struct {
	InspectEveryYears Cited[int]  `json:"inspectEveryYears"`
	NoticeDays        Cited[int]  `json:"noticeDays"`
	Restrictions      Cited[bool] `json:"restrictions"`
}

// AdoptionRule is Minneapolis 64.140.
type AdoptionRule struct {
	Species         Cited[[]string] `json:"species"`
	ByAgeMonths     Cited[int]      `json:"byAgeMonths"`
	OlderWithinDays Cited[int]      `json:"olderWithinDays"`
	Deposit         *Fee            `json:"deposit"`
	AdminFee        *Fee            `json:"administrativeFee"`
	Remittance      Cited[bool]     `json:"remittance"`
}

// BusinessRule is Minneapolis chapter 68.
type BusinessRule struct {
	Classes     Cited[[]string] `json:"classes"`
	Activities  Cited[[]string] `json:"activities"`
	Application []Item          `json:"application"`
	Fee         *Fee            `json:"fee"`
	Expiry      PermitTerm      `json:"expiry"`
	Conditions  []Item          `json:"conditions"`
}

// ReportRules are the reports of 66.60 and 66.70.
type ReportRules struct {
	Bite          ReportRule `json:"bite"`
	RabiesSuspect ReportRule `json:"rabiesSuspect"`
}

// ReportRule is who reports what to whom.
type ReportRule struct {
	Reporters Cited[[]string] `json:"reporters"`
	To        Cited[string]   `json:"to"`
	Contents  []Item          `json:"contents"`
}

func (p *PermitRules) init() error {
	if p == nil {
		return nil
	}
	var terms []*PermitTerm
	var days []*MonthDay
	if k := p.Kennel; k != nil {
		terms, days = append(terms, &k.Expiry), append(days, &k.RenewalDue)
	}
	if s := p.Stable; s != nil {
		terms, days = append(terms, &s.Expiry), append(days, &s.RegistrationDue)
		if s.AdditionalHorseAcres.Value[1] <= 0 {
			return fmt.Errorf("stable: additionalHorseAcres denominator must be positive")
		}
		if e := s.Existing; e != nil {
			d, err := service.ParseDate(e.StabledBy.Value)
			if err != nil {
				return fmt.Errorf("stable: existing.stabledBy %q: want YYYY-MM-DD", e.StabledBy.Value)
			}
			e.stabledBy = d
		}
	}
	if b := p.Business; b != nil {
		terms = append(terms, &b.Expiry)
	}
	for _, t := range terms {
		switch t.Rule {
		case "dec31-next", "jan31-next", "feb1-next", "none", "not-set":
		default:
			return fmt.Errorf("permit term: unknown rule %q", t.Rule)
		}
	}
	for _, d := range days {
		tm, err := time.Parse("01-02", d.Value)
		if err != nil {
			return fmt.Errorf("day %q: want MM-DD", d.Value)
		}
		d.month, d.day = tm.Month(), tm.Day()
	}
	return nil
}

// PermitExpiry returns the last day of a permit issued on. ok is false
// when the term has no end ("none") or the text does not set one
// ("not-set").
func PermitExpiry(t PermitTerm, on service.Date) (service.Date, bool) {
	switch t.Rule {
	case "dec31-next":
		return nextOn(on, time.December, 31), true
	case "jan31-next":
		return nextOn(on, time.January, 31), true
	case "feb1-next":
		return nextOn(on, time.February, 1), true
	}
	return 0, false
}

// Next returns the first occurrence of the day strictly after on.
func (d *MonthDay) Next(on service.Date) service.Date { return nextOn(on, d.month, d.day) }

// Before returns the occurrence of the day in the year of end that is
// not after end: the renewal date ahead of an expiry.
func (d *MonthDay) Before(end service.Date) service.Date {
	x := service.NewDate(end.Year(), d.month, d.day)
	if x > end {
		x = service.NewDate(end.Year()-1, d.month, d.day)
	}
	return x
}

// nextOn is the first month/day strictly after on.
func nextOn(on service.Date, m time.Month, day int) service.Date {
	d := service.NewDate(on.Year(), m, day)
	if d <= on {
		d = service.NewDate(on.Year()+1, m, day)
	}
	return d
}

// StableAcres returns the area needed for horses, in acres, with the
// section: 5-104(a)(2) for one horse (the minimum lot), (a)(1) for two
// or more.
func (s *StableRule) StableAcres(horses int) (float64, string) {
	switch {
	case horses <= 1:
		return s.MinLotAcres.Value, s.MinLotAcres.Source
	case horses == 2:
		return max(s.TwoHorsesAcres.Value, s.MinLotAcres.Value), s.TwoHorsesAcres.Source
	}
	f := s.AdditionalHorseAcres.Value
	return s.ThreeHorseAcres.Value + float64((horses-3)*f[0])/float64(f[1]), s.AdditionalHorseAcres.Source
}

// FeeOf returns a fee's cents (nil when not set or in conflict), source
// and note, for recording on a permit.
func FeeOf(f *Fee) (*int64, string, string) {
	if f == nil {
		return nil, "", "not in this profile"
	}
	var c *int64
	if f.State() == FeeSet {
		v := *f.Cents
		c = &v
	}
	note := f.Note
	if f.State() == FeeConflict {
		note = "the text states two amounts; " + note
	}
	return c, f.Source, note
}
