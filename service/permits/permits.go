package permits

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/money"
	"github.com/chipdesk/chipdesk/service/rules"
)

// Store is what the permits need of a backend.
type Store interface {
	service.PermitService
	FindRecordByAnimal(ctx context.Context, animalID int64) (*service.Record, error)
	CreateBite(ctx context.Context, b *service.BiteIncident) error
}

// BiteRecorder records a bite and starts the quarantine the rules
// require (incidents.Service.RecordBiteQuarantine), so a reported bite makes the
// same records as one typed at the officer's page.
type BiteRecorder interface {
	RecordBiteQuarantine(ctx context.Context, b *service.BiteIncident) (*service.Quarantine, error)
}

// Opts configures a Service. Store and Rules are required.
type Opts struct {
	Store Store
	Rules *rules.Set
	// Bites records the bite of a 66.60 report on a known animal; nil
	// stores the bite alone.
	Bites BiteRecorder
	// DueWithinDays is how far ahead the officer's list shows renewals,
	// registrations and agreements falling due; 0 means 30. It is a
	// desk setting, not a rule of law.
	DueWithinDays int
	// Money raises a permit's fees as charges on its holder when it is
	// granted or renewed (and a stable's at each registration); nil
	// makes one when Store is a whole service.Store, else raises none.
	Money *money.Service
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// Service decides permits.
type Service struct {
	store  Store
	bites  BiteRecorder
	rules  *rules.Set
	money  *money.Service
	within int
	now    func() time.Time
}

// New returns a Service.
func New(o *Opts) (*Service, error) {
	if o == nil || o.Store == nil || o.Rules == nil {
		return nil, errors.New("permits: Store and Rules required")
	}
	s := &Service{store: o.Store, bites: o.Bites, rules: o.Rules, money: o.Money, within: o.DueWithinDays, now: o.Now}
	if s.within <= 0 {
		s.within = 30
	}
	if s.now == nil {
		s.now = time.Now
	}
	if st, ok := o.Store.(service.Store); ok && s.money == nil {
		var err error
		if s.money, err = money.New(&money.Opts{Store: st, Rules: o.Rules, Now: s.now}); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// charge raises the fees of p, just granted or registered, as charges
// on its holder (money.ChargePermit); fees left to a resolution wait
// for the clerk's amounts (POST /api/v1/permits/{id}/charges).
func (s *Service) charge(ctx context.Context, p *service.Permit, event string, on service.Date) error {
	if s.money == nil || p.State != service.PermitGranted {
		return nil
	}
	_, _, err := s.money.ChargePermit(ctx, p, event, on, nil)
	return err
}

// profile resolves a jurisdiction typed by id, name or code
// ("chanhassen", "City of Chanhassen", "CHAN") with the one resolver of
// the rules.
func (s *Service) profile(j string) (*rules.Profile, error) { return s.rules.Resolve(j) }

// Request applies for a permit. Issued is the day the clerk issues it;
// a permit that cannot be granted yet (an inspection, a missing item)
// is stored pending, with the expiry it will carry.
type Request struct {
	Kind         service.PermitKind `json:"kind"`
	Jurisdiction string             `json:"jurisdiction"`
	Class        string             `json:"class"`
	OwnerID      int64              `json:"owner_id"`
	AnimalID     int64              `json:"animal_id"`
	Holder       string             `json:"holder"`
	Address      string             `json:"address"`
	Applied      service.Date       `json:"applied"`
	Issued       service.Date       `json:"issued"`
	// IssuedOn is accepted for Issued.
	IssuedOn    service.Date              `json:"issued_on"`
	Inspection  *Inspection               `json:"inspection"`
	Application service.PermitApplication `json:"application"`
	Site        string                    `json:"-"`
}

// Inspection is the inspection of the premises before grant (5-18(d),
// 5-103, 64.100(c)).
type Inspection struct {
	On     service.Date `json:"on"`
	Passed bool         `json:"passed"`
	Notes  string       `json:"notes,omitempty"`
	// FeePaid records, for the reinspection after a horse's escape, that
	// the owner paid for the inspection (5-87(b)).
	FeePaid bool `json:"fee_paid,omitempty"`
}

// refused is an application refused under the law: the denied permit is
// stored (5-18.1(b) counts it for a year) and the error is ECONFLICT
// naming the field at fault.
func refused(p *service.Permit, on service.Date, field, why string) error {
	p.State, p.Reason, p.ActionOn = service.PermitDenied, why, on
	return service.FieldErrorf(service.ECONFLICT, field, "%s", why)
}

// Apply takes an application in. A refusal answers ECONFLICT citing its
// section; a kennel's refusal is stored as denied (5-18.1(b)).
func (s *Service) Apply(ctx context.Context, req *Request) (*service.Permit, error) {
	if req == nil || !req.Kind.Valid() {
		return nil, service.Invalidf("kind", "Kind must be kennel, stable, off_leash, multi_animal or animal_business.")
	}
	pr, err := s.profile(req.Jurisdiction)
	if err != nil {
		return nil, err
	}
	today := pr.Today(s.now())
	if req.Issued.IsZero() {
		req.Issued = req.IssuedOn
	}
	p := &service.Permit{Kind: req.Kind, Jurisdiction: pr.ID, Class: req.Class, OwnerID: req.OwnerID, AnimalID: req.AnimalID,
		Holder: strings.TrimSpace(req.Holder), Address: req.Address, AppliedOn: req.Applied, IssuedOn: req.Issued,
		Application: req.Application, Site: req.Site, State: service.PermitPending}
	if p.AppliedOn.IsZero() {
		p.AppliedOn = min(today, orToday(req.Issued, today))
	}
	if in := req.Inspection; in != nil {
		passed := in.Passed
		p.InspectedOn, p.InspectionPassed = orToday(in.On, today), &passed
	}
	if err := s.decide(ctx, pr, p, today); err != nil {
		if p.State == service.PermitDenied && p.Kind == service.PermitKennel {
			if serr := s.store.CreatePermit(ctx, p); serr != nil {
				return nil, serr
			}
			s.status(p, today)
			return p, err
		}
		return nil, err
	}
	if p.State == service.PermitPending {
		p.IssuedOn = 0 // issued on the day it is granted; ExpiresOn shows the term
	}
	if err := s.store.CreatePermit(ctx, p); err != nil {
		return nil, err
	}
	if err := s.charge(ctx, p, rules.PermitIssued, 0); err != nil {
		return nil, err
	}
	s.status(p, today)
	return p, nil
}

func orToday(d, today service.Date) service.Date {
	if d.IsZero() {
		return today
	}
	return d
}

// decide checks p against its kind's rules: a refusal is an error (p
// denied for a kennel), a missing step leaves p pending with the reasons,
// and otherwise p is granted with its fee and term.
func (s *Service) decide(ctx context.Context, pr *rules.Profile, p *service.Permit, today service.Date) error {
	pm := pr.Permits
	none := func(what string) error {
		return service.Invalidf("kind", "%s issues no %s.", pr.Name, what)
	}
	p.Pending = nil
	switch p.Kind {
	case service.PermitKennel:
		if pm == nil || pm.Kennel == nil {
			return none("kennel licences")
		}
		return s.kennel(ctx, pm.Kennel, p, today)
	case service.PermitStable:
		if pm == nil || pm.Stable == nil {
			return none("stable permits")
		}
		return stable(pm.Stable, p, today)
	case service.PermitOffLeash:
		if pr.OffLeash == nil || pm == nil || pm.OffLeash == nil {
			return none("off-leash permits")
		}
		return s.offLeash(ctx, pr, p, today)
	case service.PermitMultiAnimal:
		if pr.Dwelling == nil || pm == nil || pm.MultiAnimal == nil {
			return none("permits for more dogs or cats")
		}
		return multiAnimal(pr, p, today)
	case service.PermitBusiness:
		if pm == nil || pm.Business == nil {
			return none("animal-business licences")
		}
		return business(pm.Business, p, today)
	}
	return service.Errorf(service.EINVALID, "Unknown permit kind %q.", p.Kind)
}

// grant sets p granted when nothing is pending; the fee and term are
// recorded either way (a pending permit shows what it will cost and
// when it will end).
func grant(p *service.Permit, fee *rules.Fee, term rules.PermitTerm, today service.Date) {
	p.FeeCents, p.FeeSource, p.FeeNote = rules.FeeOf(fee)
	on := orToday(p.IssuedOn, today)
	p.ExpiresOn, _ = rules.PermitExpiry(term, on)
	if len(p.Pending) == 0 {
		p.State, p.IssuedOn = service.PermitGranted, on
	}
}

func itemText(items []rules.Item, code string) (string, string) {
	for _, it := range items {
		if it.Code == code {
			return it.Text, it.Source
		}
	}
	return code, ""
}

func (s *Service) kennel(ctx context.Context, k *rules.KennelRule, p *service.Permit, today service.Date) error {
	a := &p.Application
	if !slices.Contains(k.Classes.Value, p.Class) {
		return service.Invalidf("class", "Kennel class must be one of %v (%s).", k.Classes.Value, k.Classes.Source)
	}
	if k.AgriculturalCatsExempt.Value && p.Class == "private" && a.Species == string(service.Cat) && a.AgriculturalLand && a.RodentControl {
		return service.Invalidf("application.species", "No licence is required for a private kennel of cats kept for rodent control on agricultural land (%s).", k.AgriculturalCatsExempt.Source)
	}
	if p.Holder == "" {
		return service.Invalidf("holder", "Holder (the applicant) required.")
	}
	// Refusals (5-18.1).
	for _, c := range a.Convictions {
		if slices.Contains(k.RefusalOffences.Value, c.Offence) {
			return refused(p, p.AppliedOn, "application.convictions", fmt.Sprintf("No licence is issued to an applicant convicted of an offence involving cruelty to animals, the operation of kennels or animal related nuisances (%s).", k.RefusalOffences.Source))
		}
	}
	since := p.AppliedOn.AddMonths(-k.LookbackMonths.Value)
	within := func(d service.Date) bool { return !d.IsZero() && d >= since && d <= p.AppliedOn }
	prior := within(a.PriorDenialOn) || within(a.PriorRevocationOn)
	if !prior {
		past, _, err := s.store.FindPermits(ctx, service.PermitFilter{Kind: service.PermitKennel, Jurisdiction: p.Jurisdiction, Holder: p.Holder})
		if err != nil {
			return err
		}
		for _, q := range past {
			if q.ID != p.ID && (q.State == service.PermitDenied || q.State == service.PermitRevoked) && within(q.ActionOn) {
				prior = true
			}
		}
	}
	if prior {
		return refused(p, p.AppliedOn, "application.prior_denial_on", fmt.Sprintf("No licence is issued to an applicant denied licensure, or whose same or similar licence was revoked, within %d months before the application (%s).", k.LookbackMonths.Value, k.LookbackMonths.Source))
	}
	if err := s.onePerPlace(ctx, k, p, today); err != nil {
		return err
	}
	if a.ZoningCompliant != nil && !*a.ZoningCompliant {
		_, src := itemText(k.Refusals, "zoning")
		return refused(p, p.AppliedOn, "application.zoning_compliant", fmt.Sprintf("No licence is issued when the facilities or property fail a conditional use permit or other zoning restriction (%s).", src))
	}
	if p.Class == "commercial" && a.Acres > 0 && a.Acres < k.CommercialMinAcre.Value {
		return refused(p, p.AppliedOn, "application.acres", fmt.Sprintf("No commercial kennel permit is issued for a lot of less than %g acre (%s).", k.CommercialMinAcre.Value, k.CommercialMinAcre.Source))
	}
	// The application's contents (5-18(b)); without them no licence
	// (5-18.1(c)).
	need := func(code string) {
		t, src := itemText(k.Application, code)
		p.Pending = append(p.Pending, t+" ("+src+")")
	}
	if a.Property == "" {
		need("property")
	}
	if a.Operator == nil && a.PremisesOwner == nil {
		need("owner-operator")
	}
	good := 0
	for _, r := range a.References {
		if r.Name != "" && r.Address != "" && slices.ContainsFunc(k.ReferenceCounties.Value, func(c string) bool { return strings.EqualFold(c, r.County) }) {
			good++
		}
	}
	if good < k.References.Value {
		need("references")
	}
	if !a.ConvictionsDeclared {
		need("convictions")
	}
	if slices.Contains(k.ContactClasses.Value, p.Class) && len(a.Contacts) == 0 {
		need("contacts")
	}
	if a.Entity == "corporation" || a.Entity == "partnership" {
		if a.BusinessRecords == "" {
			need("business-records")
		}
	}
	if a.InterestDocument == "" {
		need("interest")
	}
	if !a.Sworn {
		need("sworn")
	}
	if p.Class == "commercial" && a.Acres == 0 {
		p.Pending = append(p.Pending, fmt.Sprintf("The lot size, at least %g acre for a commercial kennel (%s)", k.CommercialMinAcre.Value, k.CommercialMinAcre.Source))
	}
	if err := inspected(p, k.InspectionBeforeGrant, "5-18(d)"); err != nil {
		return err
	}
	grant(p, k.LicenceFee, k.Expiry, today)
	p.RenewalDue = 0
	if !p.ExpiresOn.IsZero() {
		p.RenewalDue = k.RenewalDue.Before(p.ExpiresOn)
	}
	return nil
}

// onePerPlace refuses a second kennel licence for a place of business
// that already has one in force, suspended or applied for over the same
// days: a separate licence is obtained for each place of business
// (5-18(c)), so another place is another licence and the same place is
// a renewal. The place is the property of 5-18(b)(1), compared without
// regard to case and spacing.
func (s *Service) onePerPlace(ctx context.Context, k *rules.KennelRule, p *service.Permit, today service.Date) error {
	place := samePlace(p.Application.Property)
	if !k.SeparatePerPlace.Value || place == "" {
		return nil
	}
	on := orToday(p.IssuedOn, today)
	end, ok := rules.PermitExpiry(k.Expiry, on)
	held, _, err := s.store.FindPermits(ctx, service.PermitFilter{Kind: service.PermitKennel, Jurisdiction: p.Jurisdiction, Holder: p.Holder})
	if err != nil {
		return err
	}
	for _, q := range held {
		if q.ID == p.ID || samePlace(q.Application.Property) != place {
			continue
		}
		switch q.State {
		case service.PermitGranted, service.PermitSuspended, service.PermitPending:
		default:
			continue
		}
		// Terms overlap unless q ended before this one starts or ends
		// after this one ends (a later term: a renewal applied for).
		if !q.ExpiresOn.IsZero() && (q.ExpiresOn < on || ok && q.ExpiresOn > end) {
			continue
		}
		return service.FieldErrorf(service.ECONFLICT, "application.property",
			"Kennel licence %d (%s, to %s) is held for this place of business; a separate licence is obtained for each place of business, and the same place is renewed (%s).",
			q.ID, q.State, q.ExpiresOn, k.SeparatePerPlace.Source)
	}
	return nil
}

func samePlace(property string) string {
	return strings.Join(strings.Fields(strings.ToLower(property)), " ")
}

// inspected requires a passed inspection when the rule asks one; a failed
// one denies the application.
func inspected(p *service.Permit, rule rules.Cited[bool], section string) error {
	if !rule.Value {
		return nil
	}
	switch {
	case p.InspectionPassed == nil:
		p.Pending = append(p.Pending, "An inspection of the premises before grant ("+rule.Source+")")
	case !*p.InspectionPassed:
		return refused(p, p.InspectedOn, "inspection", "The premises did not pass the inspection; the application is denied ("+section+").")
	}
	return nil
}

func stable(st *rules.StableRule, p *service.Permit, today service.Date) error {
	a := &p.Application
	if p.Holder == "" {
		return service.Invalidf("holder", "Holder (the applicant) required.")
	}
	exempt, err := existingStable(st, p, today)
	if err != nil {
		return err
	}
	if !slices.Contains(exempt, "5-104(a)(2)") && a.Acres > 0 && a.Acres < st.MinLotAcres.Value {
		return service.FieldErrorf(service.ECONFLICT, "application.acres", "No stable permit is issued for a lot of less than %g acre (%s).", st.MinLotAcres.Value, st.MinLotAcres.Source)
	}
	if need, src := st.StableAcres(a.Animals); !slices.Contains(exempt, src) && a.Acres > 0 && a.Animals > 0 && a.Acres+1e-9 < need {
		return service.FieldErrorf(service.ECONFLICT, "application.acres", "%d horses need at least %.2f acres (%s).", a.Animals, need, src)
	}
	if a.Property == "" {
		p.Pending = append(p.Pending, "A description of the premises on the city's form (5-102)")
	}
	if len(exempt) > 0 {
		if a.Animals == 0 {
			p.Pending = append(p.Pending, "The number of horses (5-88(a)(2))")
		}
	} else if a.Acres == 0 || a.Animals == 0 {
		p.Pending = append(p.Pending, "The lot size and the number of horses (5-104(a)(1), (2))")
	}
	for _, c := range st.Conditions {
		if slices.Contains(exempt, c.Source) {
			continue
		}
		if !slices.Contains(a.Conditions, c.Code) {
			p.Pending = append(p.Pending, c.Text+" ("+c.Source+")")
		}
	}
	if p.InspectionPassed != nil && !*p.InspectionPassed {
		return service.FieldErrorf(service.ECONFLICT, "inspection", "The stable inspector disapproved the application (%s).", st.Inspection.Source)
	}
	if p.InspectionPassed == nil {
		p.Pending = append(p.Pending, "The stable inspector's approval ("+st.Inspection.Source+", 5-104(a))")
	}
	grant(p, st.ApplicationFee, st.Expiry, today)
	p.RenewalDue = st.RegistrationDue.Next(orToday(p.IssuedOn, today))
	return nil
}

// existingStable applies 5-88 to a stable application that states
// horses were kept on the premises by April 24, 1975: it returns the
// conditions of 5-104 the stable is exempt from (none when the
// exemption is void or does not apply, with p.Exemption saying why) and
// refuses more horses than were stabled as of April 25, 1975
// (5-88(a)(2)) or an enclosure short of 5-104(a)(4) enlarged
// (5-88(a)(1)).
func existingStable(st *rules.StableRule, p *service.Permit, today service.Date) ([]string, error) {
	e, a := st.Existing, &p.Application
	p.Exemption = ""
	if e == nil || a.StabledSince.IsZero() {
		return nil, nil
	}
	if a.StabledSince > e.StabledByDate() {
		p.Exemption = fmt.Sprintf("Horses kept since %s, after %s: no exemption (%s).", a.StabledSince, e.StabledBy.Value, e.StabledBy.Source)
		return nil, nil
	}
	if e.VoidOnSubdivision.Value && !a.SubdividedOn.IsZero() {
		p.Exemption = fmt.Sprintf("Exemption void: the parcel was subdivided, platted or replatted on %s (%s).", a.SubdividedOn, e.VoidOnSubdivision.Source)
		return nil, nil
	}
	if from := a.DiscontinuedFrom; !from.IsZero() {
		to := a.DiscontinuedTo
		if to.IsZero() {
			to = orToday(p.AppliedOn, today)
		}
		if to > from.AddMonths(e.VoidAfterDiscontinuedMonths.Value) {
			p.Exemption = fmt.Sprintf("Exemption void: the keeping of horses was discontinued from %s to %s, more than %d months (%s).", from, to, e.VoidAfterDiscontinuedMonths.Value, e.VoidAfterDiscontinuedMonths.Source)
			return nil, nil
		}
	}
	if a.EnclosureEnlarged {
		return nil, service.FieldErrorf(service.ECONFLICT, "application.enclosure_enlarged",
			"A housing enclosure not meeting 5-104(a)(4) may not be enlarged, altered or increased in area; maintenance and nonstructural repairs only (5-88(a)(1)).")
	}
	if a.Horses1975 <= 0 {
		p.Pending = append(p.Pending, fmt.Sprintf("The number of horses stabled on the premises as of %s (%s)", e.HorsesAsOf.Value, e.HorsesAsOf.Source))
	} else if a.Animals > a.Horses1975 {
		return nil, service.FieldErrorf(service.ECONFLICT, "application.animals",
			"An existing stable may not keep more horses than the %d stabled on the premises as of %s (%s).", a.Horses1975, e.HorsesAsOf.Value, e.HorsesAsOf.Source)
	}
	p.Exemption = fmt.Sprintf("Existing stable, horses kept since %s: exempt from %s (%s).", a.StabledSince, strings.Join(e.Exempt.Value, ", "), e.Exempt.Source)
	return e.Exempt.Value, nil
}

// record is the record of the animal a request names, an error for
// the field animal_id when there is none.
func (s *Service) record(ctx context.Context, id int64) (*service.Record, error) {
	if id <= 0 {
		return nil, service.Invalidf("animal_id", "animal_id required: the animal's record number.")
	}
	rec, err := s.store.FindRecordByAnimal(ctx, id)
	if service.ErrorCode(err) == service.ENOTFOUND {
		return nil, service.FieldErrorf(service.ENOTFOUND, "animal_id", "No animal %d on file.", id)
	}
	return rec, err
}

// dangerousRefusal is the 64.55(a) refusal for a dog designated
// dangerous under 64.110 or dangerous or potentially dangerous under
// Minn. Stat. 347.50.
func dangerousRefusal(d *service.DangerousDesignation, source string) error {
	under := "Minn. Stat. 347.50 subd. 2"
	switch {
	case d.Level == service.PotentiallyDangerous:
		under = "Minn. Stat. 347.50 subd. 3"
	case d.Jurisdiction == "minneapolis":
		under = "Minneapolis 64.110"
	}
	return service.FieldErrorf(service.ECONFLICT, "animal_id", "A dog designated %s (%s) is not permitted to use off-leash areas; no permit is issued (%s).", d.Level, under, source)
}

func (s *Service) offLeash(ctx context.Context, pr *rules.Profile, p *service.Permit, today service.Date) error {
	terms, r := pr.Permits.OffLeash, pr.OffLeash
	a := &p.Application
	if p.AnimalID == 0 {
		return service.Invalidf("animal_id", "A permit is issued for each dog: animal_id required (64.55(a)).")
	}
	rec, err := s.record(ctx, p.AnimalID)
	if err != nil {
		return err
	}
	on := orToday(p.IssuedOn, today)
	if d := rec.Dangerous; d != nil && r.DangerousExcluded.Value && (d.RescindedOn.IsZero() || d.RescindedOn > on) {
		return dangerousRefusal(d, r.DangerousExcluded.Source)
	}
	if rec.Animal.Species != service.Dog {
		return service.Invalidf("animal_id", "Off-leash permits are for dogs (%s).", r.DangerousExcluded.Source)
	}
	if !slices.Contains(terms.Classes.Value, p.Class) {
		return service.Invalidf("class", "Off-leash class must be one of %v (%s).", terms.Classes.Value, terms.Classes.Source)
	}
	if p.OwnerID == 0 {
		p.OwnerID = rec.Animal.OwnerID
	}
	if p.Holder == "" && rec.Owner != nil {
		p.Holder = rec.Owner.Name
	}
	ev := pr.Evaluate(rec, on)
	resident := p.Class == "resident"
	if resident && terms.LicenceResident.Value && ev.Licence.State != rules.LicenceCurrent && !a.LicenceVerified {
		return service.FieldErrorf(service.ECONFLICT, "application.licence_verified", "A resident permit is issued only on verification of a current %s dog licence (%s).", pr.Name, terms.LicenceResident.Source)
	}
	if terms.RabiesRequired.Value && ev.Rabies.State != rules.RabiesCurrent && !a.RabiesVerified {
		return service.FieldErrorf(service.ECONFLICT, "application.rabies_verified", "A permit is issued only on verification of rabies vaccination (%s).", terms.RabiesRequired.Source)
	}
	if terms.RulesSigned.Value && !a.RulesSigned {
		p.Pending = append(p.Pending, "The applicant's signature on the off-leash rules ("+terms.RulesSigned.Source+")")
	}
	if a.DogNumber == 0 {
		a.DogNumber = 1
		if p.OwnerID != 0 {
			held, _, err := s.store.FindPermits(ctx, service.PermitFilter{Kind: service.PermitOffLeash, Jurisdiction: p.Jurisdiction, OwnerID: p.OwnerID, State: service.PermitGranted})
			if err != nil {
				return err
			}
			for _, h := range held {
				if h.AnimalID != p.AnimalID && h.ExpiresOn >= on {
					a.DogNumber++
				}
			}
		}
	}
	q, err := pr.OffLeashQuote(resident, a.DogNumber, false, on)
	if err != nil {
		return err
	}
	var fee *rules.Fee
	if len(q.Fees.Lines) > 0 {
		l := q.Fees.Lines[0]
		fee = &rules.Fee{Source: l.Source, Note: l.Note}
		if l.State == rules.FeeSet {
			fee.Cents = rules.Cents(l.Cents)
		}
	}
	grant(p, fee, rules.PermitTerm{Rule: r.Expiry.Rule, Source: r.Expiry.Source}, today)
	return nil
}

func multiAnimal(pr *rules.Profile, p *service.Permit, today service.Date) error {
	r := pr.Dwelling
	a := &p.Application
	if p.Holder == "" || p.Address == "" {
		field := "holder"
		if p.Holder != "" {
			field = "address"
		}
		return service.Invalidf(field, "Holder and address (the residential building or lot) required (%s).", r.MaxAnimals.Source)
	}
	if a.Animals > 0 && a.Animals <= r.MaxAnimals.Value {
		return service.Invalidf("application.animals", "Up to %d dogs or cats over %d months need no permit (%s).", r.MaxAnimals.Value, r.MinAgeMonths.Value, r.MaxAnimals.Source)
	}
	if a.Animals == 0 {
		p.Pending = append(p.Pending, fmt.Sprintf("The number of dogs and cats over %d months to be kept (%s)", r.MinAgeMonths.Value, r.MaxAnimals.Source))
	}
	grant(p, r.PermitFee, rules.PermitTerm{Rule: r.PermitExpiry.Rule, Source: r.PermitExpiry.Source}, today)
	return nil
}

func business(b *rules.BusinessRule, p *service.Permit, today service.Date) error {
	a := &p.Application
	if !slices.Contains(b.Classes.Value, p.Class) {
		return service.Invalidf("class", "Animal-business class must be one of %v (%s).", b.Classes.Value, b.Classes.Source)
	}
	for _, act := range a.Activities {
		if !slices.Contains(b.Activities.Value, act) {
			return service.Invalidf("application.activities", "Activity %q is not one of %v (%s).", act, b.Activities.Value, b.Activities.Source)
		}
	}
	need := func(code string) {
		t, src := itemText(b.Application, code)
		p.Pending = append(p.Pending, t+" ("+src+")")
	}
	if p.Holder == "" || a.ApplicantResidence == "" {
		need("applicant")
	}
	if p.Class == "premises" && a.PremisesOwner == nil {
		need("premises-owner")
	}
	if p.Class == "mobile_vehicle" && a.Vehicle == "" {
		_, src := itemText(b.Conditions, "vehicle-licence")
		p.Pending = append(p.Pending, "The vehicle, one licence for each ("+src+")")
	}
	if !a.HealthApproved {
		need("health")
	}
	if !a.CouncilAuthorised {
		need("council")
	}
	grant(p, b.Fee, b.Expiry, today)
	return nil
}

// status fills the computed status of p on today, and the
// restrictions in force on a 64.100 permit that was modified
// (64.100(b)).
func (s *Service) status(p *service.Permit, today service.Date) {
	p.Status = Status(p, today)
	for _, m := range p.Modifications {
		if m.EffectiveOn <= today {
			p.Application.Restrictions = m.Restrictions
		}
	}
}

// Status is p's state on today, or "lapsed" for a granted permit past
// its expiry, "cancelled" for a stable not registered by its due day
// (5-105(b)), "revocation_noticed" before a noticed revocation takes
// effect (64.100(b)).
func Status(p *service.Permit, today service.Date) string {
	switch {
	case p.State == service.PermitGranted && p.Kind == service.PermitStable && !p.RenewalDue.IsZero() && today > p.RenewalDue:
		return string(service.PermitCancelled)
	case p.State == service.PermitGranted && !p.ExpiresOn.IsZero() && today > p.ExpiresOn:
		return "lapsed"
	case p.State == service.PermitRevoked && !p.EffectiveOn.IsZero() && today < p.EffectiveOn:
		return "revocation_noticed"
	}
	return string(p.State)
}

// Get returns a permit with its status.
func (s *Service) Get(ctx context.Context, id int64) (*service.Permit, error) {
	p, err := s.store.FindPermitByID(ctx, id)
	if err != nil {
		return nil, err
	}
	s.status(p, s.today(p.Jurisdiction))
	return p, nil
}

func (s *Service) today(j string) service.Date {
	if pr := s.rules.Profile(j); pr != nil {
		return pr.Today(s.now())
	}
	return service.DateOf(s.now())
}

// List returns the permits of f, each with its status. A jurisdiction
// is resolved by name or id.
func (s *Service) List(ctx context.Context, f service.PermitFilter) ([]*service.Permit, int, error) {
	if f.Kind != "" && !f.Kind.Valid() {
		return nil, 0, service.Invalidf("kind", "Kind must be kennel, stable, off_leash, multi_animal or animal_business.")
	}
	if f.Jurisdiction != "" {
		pr, err := s.profile(f.Jurisdiction)
		if err != nil {
			return nil, 0, err
		}
		f.Jurisdiction = pr.ID
	}
	list, n, err := s.store.FindPermits(ctx, f)
	if err != nil {
		return nil, 0, err
	}
	for _, p := range list {
		s.status(p, s.today(p.Jurisdiction))
	}
	return list, n, nil
}
