package rules

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/chipdesk/chipdesk/service"
)

// FeeLine is one line of a fee breakdown.
type FeeLine struct {
	Code  string   `json:"code"`
	Label string   `json:"label"`
	State FeeState `json:"state"`
	// Quantity and UnitCents are set for per-day lines.
	Quantity  int   `json:"quantity,omitempty"`
	UnitCents int64 `json:"unitCents,omitempty"`
	// Cents is the line's amount when State is FeeSet.
	Cents    int64     `json:"cents"`
	Readings []Reading `json:"readings,omitempty"`
	Source   string    `json:"source"`
	Note     string    `json:"note,omitempty"`
}

// Breakdown is a list of fee lines. TotalCents sums the lines that are
// set; Complete is false when any line is not set or in conflict, and
// the total is then not the amount due.
type Breakdown struct {
	Lines      []FeeLine `json:"lines"`
	TotalCents int64     `json:"totalCents"`
	Complete   bool      `json:"complete"`
}

func (b *Breakdown) add(code, label string, f *Fee, qty int) {
	l := FeeLine{Code: code, Label: label, State: f.State(), Quantity: qty}
	if f != nil {
		l.Source, l.Note = f.Source, f.Note
		l.Readings = f.Readings
	}
	if l.State == FeeSet {
		l.Cents = *f.Cents
		if qty > 0 {
			l.UnitCents = *f.Cents
			l.Cents *= int64(qty)
		}
		b.TotalCents += l.Cents
	}
	b.Lines = append(b.Lines, l)
}

func (b *Breakdown) finish() *Breakdown {
	b.Complete = true
	for _, l := range b.Lines {
		if l.State != FeeSet {
			b.Complete = false
		}
	}
	return b
}

// NextAfter returns the first month/day strictly after d.
func nextAfter(d service.Date, month, day int) service.Date {
	t := service.NewDate(d.Year(), time.Month(month), day)
	if t <= d {
		t = service.NewDate(d.Year()+1, time.Month(month), day)
	}
	return t
}

// Expiry computes the expiry date of a licence or permit issued on
// issued under rule r. rabies is the latest vaccination, used by the
// "rabies-anniversary" rule (Chanhassen 5-54); ok is false when it is
// needed and missing.
func Expiry(r ExpiryRule, issued service.Date, rabies *service.RabiesVaccination) (service.Date, bool) {
	switch r.Rule {
	case "jan31-next":
		return nextAfter(issued, 1, 31), true
	case "feb1-next":
		return nextAfter(issued, 2, 1), true
	case "rabies-anniversary":
		if rabies == nil || rabies.Date.IsZero() || rabies.Date > issued {
			return 0, false
		}
		d := rabies.Date
		for n := 1; ; n++ {
			if a := d.AddYears(n); a > issued {
				return a, true
			}
		}
	}
	return 0, false
}

// QuoteOpts are the circumstances of a licence sale.
type QuoteOpts struct {
	// Issuer is who sells it; a clinic earns ClinicPayCents (64.30).
	Issuer service.Issuer
}

// Quote is what issuing a licence costs and how long it runs.
type Quote struct {
	Jurisdiction string       `json:"jurisdiction"`
	IssuedOn     service.Date `json:"issuedOn"`
	// ExpiresOn is zero when it cannot be computed (Problems says why).
	ExpiresOn service.Date `json:"expiresOn,omitzero"`
	Year      int          `json:"year"`
	// FeeCode names the fee line applied (for Licence.FeeCode).
	FeeCode        string    `json:"feeCode"`
	Fees           Breakdown `json:"fees"`
	ClinicPayCents int64     `json:"clinicPayCents,omitempty"`
	// Problems lists what stops the sale or needs a decision.
	Problems []Alert `json:"problems,omitempty"`
}

// LicenceQuote computes the fee and term of a licence for animal a,
// issued on on, given its latest rabies vaccination (nil for none).
func (p *Profile) LicenceQuote(a *service.Animal, rabies *service.RabiesVaccination, on service.Date, o QuoteOpts) *Quote {
	q := &Quote{Jurisdiction: p.ID, IssuedOn: on, Year: on.Year()}
	rule := p.Licences[a.Species]
	if rule == nil {
		q.Problems = append(q.Problems, Alert{Code: AlertNoLicenceRule, Severity: Warning,
			Message: fmt.Sprintf("%s does not license a %s.", p.Name, a.Species)})
		q.Fees.finish()
		q.Fees.Complete = false
		return q
	}
	exp, ok := Expiry(rule.Expiry, on, rabies)
	if ok {
		q.ExpiresOn = exp
	} else {
		q.Problems = append(q.Problems, Alert{Code: AlertExpiryUndetermined, Severity: Warning,
			Message: "The expiry is the anniversary of the rabies vaccination, and none is recorded.", Source: rule.Expiry.Source})
	}
	f := rule.Fees
	age, known := ageMonths(a.BirthDate, on)
	switch {
	case f.Exempt != nil && a.Programme != service.NoProgramme && contains(f.Exempt.Value, string(a.Programme)):
		q.FeeCode = "exempt-" + string(a.Programme)
		q.Fees.add(q.FeeCode, "Licence fee ("+string(a.Programme)+" programme, exempt)", &Fee{Cents: Cents(0), Source: f.Exempt.Source}, 0)
	case f.Young != nil && f.YoungUnderMonths != nil && known && age < f.YoungUnderMonths.Value:
		q.FeeCode = "young"
		q.Fees.add(q.FeeCode, fmt.Sprintf("Licence fee (under %d months)", f.YoungUnderMonths.Value), f.Young, 0)
	case a.Altered:
		q.FeeCode = "altered"
		q.Fees.add(q.FeeCode, "Licence fee (spayed or neutered)", f.Altered, 0)
	default:
		q.FeeCode = "unaltered"
		q.Fees.add(q.FeeCode, "Licence fee", f.Unaltered, 0)
	}
	q.Fees.finish()
	for _, l := range q.Fees.Lines {
		q.Problems = appendFeeProblem(q.Problems, l)
	}
	if rule.RabiesRequired.Value {
		if st := p.RabiesStatus(a, rabies, on); st.Required && st.State != RabiesCurrent {
			q.Problems = append(q.Problems, Alert{Code: AlertRabiesMissing, Severity: Warning,
				Message: "A licence needs a current rabies vaccination (" + string(st.State) + ").", Source: rule.RabiesRequired.Source})
		}
	}
	if o.Issuer == service.IssuerClinic && p.ClinicPay != nil && p.ClinicPay.State() == FeeSet &&
		(p.ClinicPaySpecies == nil || contains(p.ClinicPaySpecies.Value, string(a.Species))) {
		q.ClinicPayCents = *p.ClinicPay.Cents
	}
	return q
}

func appendFeeProblem(out []Alert, l FeeLine) []Alert {
	switch l.State {
	case FeeNotSet:
		return append(out, Alert{Code: AlertFeeNotSet, Severity: Warning, Message: l.Label + ": amount not set. " + l.Note, Source: l.Source})
	case FeeConflict:
		msg := l.Label + ": the text gives conflicting amounts:"
		for _, r := range l.Readings {
			msg += fmt.Sprintf(" %q = %s;", r.Text, Money(r.Cents))
		}
		return append(out, Alert{Code: AlertFeeConflict, Severity: Warning, Message: msg + " " + l.Note, Source: l.Source})
	}
	return out
}

// Money formats cents as dollars, "$25.00".
func Money(c int64) string {
	sign := ""
	if c < 0 {
		sign, c = "-", -c
	}
	return fmt.Sprintf("%s$%d.%02d", sign, c/100, c%100)
}

// ParseMoney reads a fee typed in dollars ("25", "25.00", "$25.5"), the
// inverse of Money for amounts from $0 to $10,000,000; a bad amount is
// EINVALID.
func ParseMoney(s string) (int64, error) {
	bad := service.Errorf(service.EINVALID, "The fee must be an amount in dollars, like 25.00.")
	s = strings.TrimPrefix(strings.TrimSpace(s), "$")
	whole, frac, _ := strings.Cut(s, ".")
	if whole == "" || len(frac) > 2 || strings.Trim(whole+frac, "0123456789") != "" {
		return 0, bad
	}
	d, err := strconv.ParseInt(whole, 10, 64)
	if err != nil || d < 0 || d > 1e7 {
		return 0, bad
	}
	c := int64(0)
	if frac != "" {
		for len(frac) < 2 {
			frac += "0"
		}
		if c, err = strconv.ParseInt(frac, 10, 64); err != nil || c < 0 {
			return 0, bad
		}
	}
	return d*100 + c, nil
}

// DuplicateQuote is the fee for a replacement tag. Minneapolis 64.40
// grants one only for a lost or stolen tag; another reason is a problem.
func (p *Profile) DuplicateQuote(reason service.ReplaceReason) (*Breakdown, []Alert) {
	var b Breakdown
	b.add("duplicate-tag", "Duplicate tag", p.DuplicateTag.Fee, 0)
	b.finish()
	var probs []Alert
	for _, l := range b.Lines {
		probs = appendFeeProblem(probs, l)
	}
	if !contains(p.DuplicateTag.Reasons.Value, string(reason)) {
		probs = append(probs, Alert{Code: "duplicate-reason", Severity: Warning,
			Message: fmt.Sprintf("A duplicate tag is issued only when the tag was %v.", p.DuplicateTag.Reasons.Value),
			Source:  p.DuplicateTag.Reasons.Source})
	}
	return &b, probs
}

// OffLeashQuote is the fee and term of an off-leash area permit for the
// nth dog (1 for the first) of an owner (Minneapolis 64.55(b)). A
// dangerous dog is refused (64.55(a)).
func (p *Profile) OffLeashQuote(resident bool, nth int, dangerous bool, on service.Date) (*Quote, error) {
	r := p.OffLeash
	if r == nil {
		return nil, service.Errorf(service.EINVALID, "%s has no off-leash permits.", p.Name)
	}
	if dangerous && r.DangerousExcluded.Value {
		return nil, service.Errorf(service.EINVALID, "A dangerous dog may not use off-leash areas (%s).", r.DangerousExcluded.Source)
	}
	q := &Quote{Jurisdiction: p.ID, IssuedOn: on, Year: on.Year()}
	q.ExpiresOn, _ = Expiry(r.Expiry, on, nil)
	fee, code := r.ResidentFirst, "resident-first"
	switch {
	case resident && nth > 1:
		fee, code = r.ResidentAdditional, "resident-additional"
	case !resident && nth > 1:
		fee, code = r.NonResidentAdditional, "non-resident-additional"
	case !resident:
		fee, code = r.NonResidentFirst, "non-resident-first"
	}
	q.FeeCode = code
	q.Fees.add(code, "Off-leash area permit", fee, 0)
	q.Fees.finish()
	return q, nil
}

// DwellingCheck counts the dogs and cats over the age limit kept at one
// residence (Minneapolis 64.100(a)) and returns an alert when there are
// more than allowed without a permit.
func (p *Profile) DwellingCheck(animals []service.Animal, hasPermit bool, on service.Date) *Alert {
	r := p.Dwelling
	if r == nil || hasPermit {
		return nil
	}
	n := 0
	for i := range animals {
		a := &animals[i]
		if contains(r.Species.Value, string(a.Species)) && (a.DiedOn.IsZero() || a.DiedOn > on) && olderThan(a, r.MinAgeMonths.Value, on) {
			n++
		}
	}
	if n <= r.MaxAnimals.Value {
		return nil
	}
	return &Alert{Code: AlertTooManyAnimals, Severity: Warning,
		Message: fmt.Sprintf("%d dogs and cats over %d months at one residence; more than %d need a permit.", n, r.MinAgeMonths.Value, r.MaxAnimals.Value),
		Source:  r.MaxAnimals.Source}
}

// Redemption is the fee breakdown for releasing the impounded animal of
// rec from impoundment im on the date on.
func (p *Profile) Redemption(rec *service.Record, im *service.Impoundment, on service.Date) *Breakdown {
	b := &Breakdown{Lines: make([]FeeLine, 0, 4)}
	r := &p.Impound
	a := &rec.Animal
	if im.BiteCase && r.BiteCaseFees != nil {
		b.add("bite-case", "Rabies hold fees", r.BiteCaseFees, 0)
	} else if len(r.ImpoundFees.Fees) > 0 {
		// The nth impoundment within the window, this one included.
		n := 0
		from := im.IntakeOn.AddMonths(-r.ImpoundFees.WindowMonths.Value)
		for i := range rec.Impounds {
			x := &rec.Impounds[i]
			if x.ID == im.ID || x.IntakeOn > from && x.IntakeOn <= im.IntakeOn {
				n++
			}
		}
		if !slices.ContainsFunc(rec.Impounds, func(x service.Impoundment) bool { return x.ID == im.ID }) {
			n++
		}
		label := fmt.Sprintf("Impound fee (%s in %d months)", ordinal(n), r.ImpoundFees.WindowMonths.Value)
		if n <= len(r.ImpoundFees.Fees) {
			b.add("impound", label, r.ImpoundFees.Fees[n-1], 0)
		} else {
			b.add("impound", label, &Fee{Source: r.ImpoundFees.WindowMonths.Source, Note: r.ImpoundFees.Note}, 0)
		}
	}
	if days := int(on-im.IntakeOn) + 1; days > 0 {
		b.add("board", "Board", r.BoardPerDay, days)
	}
	// A licence, when none was in force when the animal was taken in
	// (62.40(a), 5-74(a)). The impound's own history decides, not the
	// day of release: a licence bought during custody, whenever, is a
	// licence bought to redeem, and its penalty stays due unless the
	// purchase renews a licence in force at intake (64.30).
	atIntake := p.licenceStatus(beforeCustody(rec, im), im.IntakeOn)
	now := p.licenceStatus(rec, on)
	if (atIntake.Required && atIntake.State != LicenceCurrent) || (now.Required && now.State != LicenceCurrent) {
		if now.State != LicenceCurrent {
			q := p.LicenceQuote(a, rec.Rabies, on, QuoteOpts{})
			b.Lines = append(b.Lines, q.Fees.Lines...)
			b.TotalCents += q.Fees.TotalCents
		}
		if r.LicencePenalty != nil && atIntake.State != LicenceCurrent {
			b.add("licence-penalty", "Penalty for a licence bought at release", r.LicencePenalty, 0)
		}
		if r.LateLicenceFee != nil && atIntake.State != LicenceCurrent {
			b.add("licence-late", "Late licence fee", r.LateLicenceFee, 0)
		}
	}
	if r.SterilisationDeposit != nil && !a.Altered && (a.Species == service.Dog || a.Species == service.Cat) {
		over := 0
		if r.SterilisationDepositOverMonths != nil {
			over = r.SterilisationDepositOverMonths.Value
		}
		if olderThan(a, over, on) {
			b.add("sterilisation-deposit", "Sterilisation deposit (refundable)", r.SterilisationDeposit, 0)
		}
	}
	return b.finish()
}

// beforeCustody is rec with only the licences bought before impoundment
// im began: those issued before its intake day, or on it before the
// intake time.
func beforeCustody(rec *service.Record, im *service.Impoundment) *service.Record {
	c := *rec
	c.Licences = make([]service.Licence, 0, len(rec.Licences))
	for _, l := range rec.Licences {
		during := l.IssuedOn > im.IntakeOn ||
			l.IssuedOn == im.IntakeOn && !l.CreatedAt.IsZero() && !im.IntakeAt.IsZero() && !l.CreatedAt.Before(im.IntakeAt)
		if !during {
			c.Licences = append(c.Licences, l)
		}
	}
	return &c
}

func ordinal(n int) string {
	switch n {
	case 1:
		return "1st"
	case 2:
		return "2nd"
	case 3:
		return "3rd"
	}
	return fmt.Sprintf("%dth", n)
}

// QuarantinePlan is the confinement the law requires.
type QuarantinePlan struct {
	// Option names an exposure option (OptionDestroy, ...); empty for a
	// bite quarantine.
	Option string                  `json:"option,omitempty"`
	Kind   service.QuarantineKind  `json:"kind"`
	Place  service.QuarantinePlace `json:"place"`
	Start  service.Date            `json:"start"`
	End    service.Date            `json:"end"`
	// VaccinateOn is when the exposed animal is (re)vaccinated: at once
	// (66.50(b)(1)) or a month before release (66.50(a), (b)(2)).
	VaccinateOn service.Date `json:"vaccinate_on,omitzero"`
	Source      string       `json:"source"`
	Note        string       `json:"note,omitempty"`
}

// BiteQuarantine is the quarantine of an animal that bit a person on
// bite: 10 days (66.40, 5-39(a)); at home when its rabies vaccination is
// current and the profile allows it, else at the shelter or a vet.
func (p *Profile) BiteQuarantine(a *service.Animal, rabies *service.RabiesVaccination, bite service.Date) QuarantinePlan {
	r := &p.Bite
	q := QuarantinePlan{Kind: service.QuarantineBite, Start: bite, End: bite.AddDays(r.QuarantineDays.Value),
		Source: r.QuarantineDays.Source, Place: service.QuarantinePlace(r.UnvaccinatedPlace.Value), Note: r.UnvaccinatedPlace.Note}
	if r.HomeIfVaccinated.Value && p.RabiesStatus(a, rabies, bite).State == RabiesCurrent {
		q.Place, q.Source, q.Note = service.AtHome, r.HomeIfVaccinated.Source, r.HomeIfVaccinated.Note
	}
	return q
}

// Exposure options: what the law lets the officer choose for an animal
// bitten by (exposed to) a rabid animal.
const (
	OptionDestroy            = "destroy"             // 66.50(a), (b)(3); 5-40
	OptionStrictIsolation    = "strict-isolation"    // 66.50(a), (b)(2); 5-40 "suitable quarantine"
	OptionRevaccinateConfine = "revaccinate-confine" // 66.50(b)(1)
	OptionBooster            = "booster"             // 5-40 proof of immunization and boosters
)

// ExposureOptions lists what the law allows for an animal bitten by a
// rabid animal on exposed (66.50, 5-40), each with its end date and
// section: destruction first (it needs no confinement), then the
// confinements the text gives for a vaccinated or an unvaccinated
// animal.
func (p *Profile) ExposureOptions(a *service.Animal, rabies *service.RabiesVaccination, exposed service.Date) []QuarantinePlan {
	vaccinated := p.RabiesStatus(a, rabies, exposed).State == RabiesCurrent
	o := p.Exposure.Unvaccinated
	if vaccinated {
		o = p.Exposure.Vaccinated
	}
	src := func(option string) string {
		if s, ok := o.Sources[option]; ok {
			return s
		}
		return o.Source
	}
	out := []QuarantinePlan{{Option: OptionDestroy, Kind: service.QuarantineExposure, Start: exposed, End: exposed,
		Source: src(OptionDestroy), Note: "destroyed at once; no confinement"}}
	if o.ConfineDays > 0 {
		out = append(out, QuarantinePlan{Option: OptionRevaccinateConfine, Kind: service.QuarantineExposure, Place: service.AtHome,
			Start: exposed, End: exposed.AddDays(o.ConfineDays), VaccinateOn: exposed, Source: src(OptionRevaccinateConfine),
			Note: fmt.Sprintf("revaccinate at once, then confine for %d days", o.ConfineDays)})
	}
	if o.Booster {
		out = append(out, QuarantinePlan{Option: OptionBooster, Kind: service.QuarantineExposure, Place: service.AtVet, Start: exposed, End: exposed,
			VaccinateOn: exposed, Source: src(OptionBooster), Note: o.Note})
	}
	if o.IsolationMonths > 0 {
		q := QuarantinePlan{Option: OptionStrictIsolation, Kind: service.QuarantineExposure, Place: service.AtVet, Start: exposed,
			End: exposed.AddMonths(o.IsolationMonths), Source: src(OptionStrictIsolation),
			Note: fmt.Sprintf("strict isolation in a kennel under a veterinarian's supervision for at least %d months", o.IsolationMonths)}
		if o.VaccinateBeforeReleaseMonths > 0 {
			q.VaccinateOn = q.End.AddMonths(-o.VaccinateBeforeReleaseMonths)
			q.Note += fmt.Sprintf("; vaccinated %d month(s) before release (by %s)", o.VaccinateBeforeReleaseMonths, q.VaccinateOn)
		}
		out = append(out, q)
	}
	return out
}

// DwellingPermitQuote is the fee and term of a permit to keep more
// animals than the dwelling limit (Minneapolis 64.100(b), (c)).
func (p *Profile) DwellingPermitQuote(on service.Date) (*Quote, error) {
	r := p.Dwelling
	if r == nil {
		return nil, service.Errorf(service.EINVALID, "%s has no multiple-animal permit.", p.Name)
	}
	q := &Quote{Jurisdiction: p.ID, IssuedOn: on, Year: on.Year(), FeeCode: "dwelling-permit"}
	q.ExpiresOn, _ = Expiry(r.PermitExpiry, on, nil)
	q.Fees.add(q.FeeCode, "Multiple-animal permit", r.PermitFee, 0)
	q.Fees.finish()
	return q, nil
}
