package permits

import (
	"context"
	"fmt"
	"strings"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/rules"
)

// load returns a permit with its profile and today's date.
func (s *Service) load(ctx context.Context, id int64) (*service.Permit, *rules.Profile, service.Date, error) {
	p, err := s.store.FindPermitByID(ctx, id)
	if err != nil {
		return nil, nil, 0, err
	}
	pr := s.rules.Profile(p.Jurisdiction)
	if pr == nil {
		return nil, nil, 0, service.Errorf(service.EINVALID, "Permit %d is of unknown jurisdiction %q.", id, p.Jurisdiction)
	}
	return p, pr, pr.Today(s.now()), nil
}

func (s *Service) save(ctx context.Context, p *service.Permit, today service.Date) (*service.Permit, error) {
	if err := s.store.UpdatePermit(ctx, p); err != nil {
		return nil, err
	}
	s.status(p, today)
	return p, nil
}

// Inspect records the inspection of a pending permit's premises and
// decides it again: granted when nothing else is pending, denied when
// the premises failed (5-18(d), 5-103).
func (s *Service) Inspect(ctx context.Context, id int64, in Inspection) (*service.Permit, error) {
	p, pr, today, err := s.load(ctx, id)
	if err != nil {
		return nil, err
	}
	if p.State == service.PermitSuspended && p.SuspendedUnder == "5-87(b)" {
		return s.reinspected(ctx, p, in, today)
	}
	if p.State != service.PermitPending {
		return nil, service.Errorf(service.ECONFLICT, "Permit %d is %s; only a pending application or a stable suspended after an escape (5-87(b)) is inspected.", id, p.State)
	}
	if err := service.NotFuture("on", in.On, today); err != nil {
		return nil, err
	}
	passed := in.Passed
	p.InspectedOn, p.InspectionPassed = orToday(in.On, today), &passed
	return s.redecide(ctx, pr, p, today)
}

// Update replaces a pending application's contents and decides again.
func (s *Service) Update(ctx context.Context, id int64, a service.PermitApplication) (*service.Permit, error) {
	p, pr, today, err := s.load(ctx, id)
	if err != nil {
		return nil, err
	}
	if p.State != service.PermitPending {
		return nil, service.Errorf(service.ECONFLICT, "Permit %d is %s; only a pending application is changed.", id, p.State)
	}
	p.Application = a
	return s.redecide(ctx, pr, p, today)
}

// Grant grants a pending permit on the date on (today when zero), or
// answers ECONFLICT with what is still pending.
func (s *Service) Grant(ctx context.Context, id int64, on service.Date) (*service.Permit, error) {
	p, pr, today, err := s.load(ctx, id)
	if err != nil {
		return nil, err
	}
	if p.State != service.PermitPending {
		return nil, service.Errorf(service.ECONFLICT, "Permit %d is %s, not pending.", id, p.State)
	}
	if err := service.NotFuture("on", on, today); err != nil {
		return nil, err
	}
	p.IssuedOn = orToday(on, today)
	got, err := s.redecide(ctx, pr, p, today)
	if err != nil {
		return got, err
	}
	if got.State == service.PermitPending {
		return nil, service.Errorf(service.ECONFLICT, "Not granted yet: %s.", strings.Join(got.Pending, "; "))
	}
	return got, nil
}

func (s *Service) redecide(ctx context.Context, pr *rules.Profile, p *service.Permit, today service.Date) (*service.Permit, error) {
	if err := s.decide(ctx, pr, p, today); err != nil {
		if p.State == service.PermitDenied {
			if _, serr := s.save(ctx, p, today); serr != nil {
				return nil, serr
			}
			return p, err
		}
		return nil, err
	}
	if p.State == service.PermitPending {
		p.IssuedOn = 0 // issued on the day it is granted
	}
	if _, err := s.save(ctx, p, today); err != nil {
		return nil, err
	}
	if err := s.charge(ctx, p, rules.PermitIssued, 0); err != nil {
		return nil, err
	}
	return p, nil
}

// Action is a revocation, suspension or non-renewal, or the notice of
// one, with its ground.
type Action struct {
	// Action is revoke, suspend or not_renew.
	Action string `json:"action"`
	// Ground is a ground code of the profile (5-18(e), 5-106, 64.55(c)).
	Ground string       `json:"ground"`
	On     service.Date `json:"on"`
	// NoticeOn is when the notice was mailed (64.100(b), 5-106) and
	// HearingOn the hearing's date (5-106).
	NoticeOn  service.Date `json:"notice_on"`
	HearingOn service.Date `json:"hearing_on"`
	Notes     string       `json:"notes"`
}

// Act revokes, suspends or does not renew a granted permit on its
// kind's grounds. A kennel's answer carries the appeal window of
// 5-18(f); a stable's revocation needs a hearing noticed at least ten
// days ahead (5-106); a 64.100 permit's revocation takes effect ten days
// after the notice (64.100(b)).
func (s *Service) Act(ctx context.Context, id int64, act Action) (*service.Permit, error) {
	p, pr, today, err := s.load(ctx, id)
	if err != nil {
		return nil, err
	}
	if p.State != service.PermitGranted && !(p.State == service.PermitSuspended && act.Action == "revoke") {
		return nil, service.Errorf(service.ECONFLICT, "Permit %d is %s; only a granted permit is revoked, suspended or not renewed.", id, p.State)
	}
	for _, d := range []struct {
		field string
		on    service.Date
	}{{"on", act.On}, {"notice_on", act.NoticeOn}, {"hearing_on", act.HearingOn}} {
		if err := service.NotFuture(d.field, d.on, today); err != nil {
			return nil, err
		}
	}
	on := orToday(act.On, today)
	var grounds []rules.Item
	allowed := []string{"revoke"}
	pm := pr.Permits
	switch p.Kind {
	case service.PermitKennel:
		grounds, allowed = pm.Kennel.Grounds, []string{"revoke", "suspend", "not_renew"}
	case service.PermitStable:
		grounds = pm.Stable.Grounds
		n := pm.Stable.HearingNoticeDays
		if act.NoticeOn.IsZero() || act.HearingOn.IsZero() || act.HearingOn < act.NoticeOn.AddDays(n.Value) {
			return nil, service.FieldErrorf(service.ECONFLICT, "hearing_on", "A stable permit is revoked only after a hearing, noticed by mail at least %d days before it (%s).", n.Value, n.Source)
		}
		if on < act.HearingOn {
			on = act.HearingOn
		}
		p.HearingOn = act.HearingOn
	case service.PermitOffLeash:
		grounds = pm.OffLeash.Grounds
	case service.PermitMultiAnimal:
		n := pm.MultiAnimal.NoticeDays
		if act.NoticeOn.IsZero() {
			return nil, service.Invalidf("notice_on", "notice_on required: a revocation takes effect %d days after written notice by certified mail (%s).", n.Value, n.Source)
		}
		p.EffectiveOn = act.NoticeOn.AddDays(n.Value)
		p.Reason = fmt.Sprintf("Failure to conform to the permit's restrictions; effective %s (%s).", p.EffectiveOn, n.Source)
	case service.PermitBusiness:
		return nil, service.Errorf(service.EINVALID, "The text held of chapter 68 states no revocation procedure (68.10).")
	}
	if !contains(allowed, act.Action) {
		return nil, service.Invalidf("action", "Action must be one of %v.", allowed)
	}
	if grounds != nil {
		text, src := itemText(grounds, act.Ground)
		if src == "" {
			codes := make([]string, len(grounds))
			for i, g := range grounds {
				codes[i] = g.Code
			}
			return nil, service.Invalidf("ground", "Ground must be one of %v.", codes)
		}
		p.Reason = text + " (" + src + ")"
	}
	p.State = map[string]service.PermitState{"revoke": service.PermitRevoked, "suspend": service.PermitSuspended, "not_renew": service.PermitNotRenewed}[act.Action]
	p.ActionOn = on
	if p.Kind == service.PermitKennel {
		k := pm.Kennel
		p.AppealBy = on.AddDays(k.AppealNoticeDays.Value)
		p.AppealFiledOn, p.HearingFrom = 0, 0
	}
	return s.save(ctx, p, today)
}

func contains(list []string, v string) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

// Appeal files a kennel licensee's notice of appeal on the date on: it
// must be within ten days of the action, and the council hears it on or
// after fifteen days from the notice (5-18(f)).
func (s *Service) Appeal(ctx context.Context, id int64, on service.Date) (*service.Permit, error) {
	p, pr, today, err := s.load(ctx, id)
	if err != nil {
		return nil, err
	}
	if p.Kind != service.PermitKennel {
		return nil, service.Errorf(service.EINVALID, "Only a kennel licence's appeal is provided for (5-18(f)).")
	}
	k := pr.Permits.Kennel
	switch p.State {
	case service.PermitDenied, service.PermitSuspended, service.PermitRevoked, service.PermitNotRenewed:
	default:
		return nil, service.Errorf(service.ECONFLICT, "A %s licence has nothing to appeal (%s).", p.State, k.AppealNoticeDays.Source)
	}
	if err := service.NotFuture("on", on, today); err != nil {
		return nil, err
	}
	on = orToday(on, today)
	by := p.ActionOn.AddDays(k.AppealNoticeDays.Value)
	if on > by {
		return nil, service.FieldErrorf(service.ECONFLICT, "on", "The notice of appeal was due within %d days of the action, by %s (%s).", k.AppealNoticeDays.Value, by, k.AppealNoticeDays.Source)
	}
	if !p.AppealFiledOn.IsZero() {
		return nil, service.Errorf(service.ECONFLICT, "An appeal was filed on %s.", p.AppealFiledOn)
	}
	p.AppealBy, p.AppealFiledOn = by, on
	p.HearingFrom = on.AddDays(k.AppealHearingAfterDays.Value)
	return s.save(ctx, p, today)
}

// Renew applies to renew a granted permit: a new application carrying
// the old one's contents. A kennel renewal is due by December 1
// (5-18(c)); a 64.100 renewal needs the premises inspected every other
// year (64.100(c)).
func (s *Service) Renew(ctx context.Context, id int64, req *Request) (*service.Permit, error) {
	old, pr, today, err := s.load(ctx, id)
	if err != nil {
		return nil, err
	}
	if old.State != service.PermitGranted {
		return nil, service.Errorf(service.ECONFLICT, "Permit %d is %s; only a granted permit is renewed.", id, old.State)
	}
	if old.Kind == service.PermitStable {
		return nil, service.Errorf(service.EINVALID, "A stable permit is kept by annual registration (%s), not renewed.", pr.Permits.Stable.RegistrationDue.Source)
	}
	if req == nil {
		req = &Request{}
	}
	if err := service.NotFuture("applied", req.Applied, today); err != nil {
		return nil, err
	}
	applied := orToday(req.Applied, today)
	if old.Kind == service.PermitKennel && !old.RenewalDue.IsZero() && applied > old.RenewalDue {
		k := pr.Permits.Kennel
		return nil, service.FieldErrorf(service.ECONFLICT, "applied", "Applications to renew were due by %s (%s); apply for a new licence.", old.RenewalDue, k.RenewalDue.Source)
	}
	n := &Request{Kind: old.Kind, Jurisdiction: old.Jurisdiction, Class: old.Class, OwnerID: old.OwnerID, AnimalID: old.AnimalID,
		Holder: old.Holder, Address: old.Address, Applied: applied, Issued: req.Issued, IssuedOn: req.IssuedOn,
		Inspection: req.Inspection, Application: old.Application, Site: req.Site}
	if req.Holder != "" {
		n.Holder = req.Holder
	}
	// The new term starts where the old one ends.
	if n.Issued.IsZero() && n.IssuedOn.IsZero() && !old.ExpiresOn.IsZero() && old.ExpiresOn >= today {
		n.Issued = old.ExpiresOn.AddDays(1)
	}
	if old.Kind == service.PermitMultiAnimal && n.Inspection == nil {
		m := pr.Permits.MultiAnimal
		if old.InspectedOn.IsZero() || old.InspectedOn < applied.AddYears(-m.InspectEveryYears.Value) {
			return nil, service.Errorf(service.ECONFLICT, "Animal control inspects the premises every other year before a renewal (%s): record the inspection.", m.InspectEveryYears.Source)
		}
		passed := true
		n.Inspection = &Inspection{On: old.InspectedOn, Passed: passed}
	}
	p, err := s.Apply(ctx, n)
	if p != nil {
		p.Renews = old.ID
		if uerr := s.store.UpdatePermit(ctx, p); uerr != nil && err == nil {
			err = uerr
		}
	}
	return p, err
}

// Register records a stable's annual registration (5-105(a)) on the
// date on. A permit whose registration was not made by the due day is
// cancelled (5-105(b)) and must be applied for anew.
func (s *Service) Register(ctx context.Context, id int64, on service.Date) (*service.Permit, error) {
	p, pr, today, err := s.load(ctx, id)
	if err != nil {
		return nil, err
	}
	if p.Kind != service.PermitStable {
		return nil, service.Errorf(service.EINVALID, "Only a stable permit is registered annually (5-105(a)).")
	}
	st := pr.Permits.Stable
	if err := service.NotFuture("on", on, today); err != nil {
		return nil, err
	}
	on = orToday(on, today)
	if p.State != service.PermitGranted {
		return nil, service.Errorf(service.ECONFLICT, "Permit %d is %s.", id, p.State)
	}
	if on > p.RenewalDue {
		p.State, p.ActionOn = service.PermitCancelled, p.RenewalDue.AddDays(1)
		p.Reason = fmt.Sprintf("Not registered by %s (%s).", p.RenewalDue, "5-105(b)")
		if _, err := s.save(ctx, p, today); err != nil {
			return nil, err
		}
		return nil, service.FieldErrorf(service.ECONFLICT, "on", "The registration was due by %s; the permit is cancelled and a new application, inspection and the stable inspector's approval are required (5-105(b)).", p.RenewalDue)
	}
	// This year's registration made, the next is due a year on.
	p.RegisteredOn = on
	p.RenewalDue = st.RegistrationDue.Next(p.RenewalDue)
	if _, err := s.save(ctx, p, today); err != nil {
		return nil, err
	}
	if err := s.charge(ctx, p, rules.PermitRegistered, on); err != nil {
		return nil, err
	}
	return p, nil
}

// ChangeContacts records a kennel's new designated contact persons
// (5-18(b)(5)); a commercial kennel must always have one, and the
// licensee notifies the sheriff's office in writing of each change
// (5-18.2(b)(1)).
func (s *Service) ChangeContacts(ctx context.Context, id int64, contacts []service.Person) (*service.Permit, error) {
	p, pr, today, err := s.load(ctx, id)
	if err != nil {
		return nil, err
	}
	if p.Kind != service.PermitKennel {
		return nil, service.Errorf(service.EINVALID, "Contact persons are designated for kennels (5-18(b)(5)).")
	}
	k := pr.Permits.Kennel
	for _, c := range contacts {
		if strings.TrimSpace(c.Name) == "" || strings.TrimSpace(c.Phone) == "" || strings.TrimSpace(c.Address) == "" {
			return nil, service.Invalidf("contacts", "Each contact person needs a name, a phone number and an address (5-18(b)(5)).")
		}
	}
	if len(contacts) == 0 && contains(k.ContactClasses.Value, p.Class) {
		return nil, service.FieldErrorf(service.ECONFLICT, "contacts", "A commercial kennel must at all times have a designated contact person (%s).", k.ContactClasses.Source)
	}
	p.Application.Contacts = contacts
	return s.save(ctx, p, today)
}

// Modification is a change of a 64.100 permit's restrictions by the
// commissioner of health (64.100(b)): the new text and the day the
// written notice was mailed by certified mail.
type Modification struct {
	Restrictions string       `json:"restrictions"`
	NoticeOn     service.Date `json:"notice_on"`
	Notes        string       `json:"notes"`
}

// Modify records a modification of a granted 64.100 permit's
// restrictions (64.100(b): a permit "may be modified from time to
// time"), in effect from and after the profile's notice days (ten)
// following the mailing of the written notice. Until then the
// restrictions in force stay; the permit's Application.Restrictions is
// the text in force on the day it is read.
func (s *Service) Modify(ctx context.Context, id int64, m Modification) (*service.Permit, error) {
	p, pr, today, err := s.load(ctx, id)
	if err != nil {
		return nil, err
	}
	if p.Kind != service.PermitMultiAnimal || pr.Permits == nil || pr.Permits.MultiAnimal == nil {
		return nil, service.Invalidf("kind", "Restrictions are modified on a permit for more than three dogs or cats (Minneapolis 64.100(b)).")
	}
	n := pr.Permits.MultiAnimal.NoticeDays
	if st := Status(p, today); st != string(service.PermitGranted) {
		return nil, service.Conflictf("Permit %d is %s; only a granted permit in force is modified (%s).", id, statusWord(st), n.Source)
	}
	text := strings.TrimSpace(m.Restrictions)
	if text == "" {
		return nil, service.Invalidf("restrictions", "restrictions required: the restrictions, limitations, conditions or prohibitions the permit is to carry (%s).", n.Source)
	}
	if m.NoticeOn.IsZero() {
		return nil, service.Invalidf("notice_on", "notice_on required: a modification takes effect %d days after written notice by certified mail (%s).", n.Value, n.Source)
	}
	if err := service.NotFuture("notice_on", m.NoticeOn, today); err != nil {
		return nil, err
	}
	if m.NoticeOn < p.IssuedOn {
		return nil, service.Invalidf("notice_on", "The notice (%s) cannot come before the permit was issued (%s).", m.NoticeOn, p.IssuedOn)
	}
	prev := p.Application.Restrictions
	if k := len(p.Modifications); k > 0 {
		prev = p.Modifications[k-1].Restrictions // the latest, in force or noticed
	}
	if text == prev {
		return nil, service.Invalidf("restrictions", "The permit carries these restrictions already.")
	}
	p.Modifications = append(p.Modifications, service.RestrictionChange{Restrictions: text, Previous: prev, NoticeOn: m.NoticeOn,
		EffectiveOn: m.NoticeOn.AddDays(n.Value), Notes: strings.TrimSpace(m.Notes)})
	return s.save(ctx, p, today)
}

// statusWord is a permit status in words for a refusal.
func statusWord(st string) string { return strings.ReplaceAll(st, "_", " ") }

// AppealOrder is what the council may order at the end of the hearing
// (5-18(f)(1)-(3)): uphold the action, lift it (the licence is returned)
// or impose conditions (the licence is returned with them).
type AppealOrder struct {
	// Order is uphold, lift or conditions.
	Order      string       `json:"order"`
	On         service.Date `json:"on"`
	Conditions string       `json:"conditions"`
}

// DecideAppeal records the council's order on a kennel appeal heard on
// or after the day of 5-18(f).
func (s *Service) DecideAppeal(ctx context.Context, id int64, o AppealOrder) (*service.Permit, error) {
	p, pr, today, err := s.load(ctx, id)
	if err != nil {
		return nil, err
	}
	k := pr.Permits.Kennel
	if p.Kind != service.PermitKennel || p.AppealFiledOn.IsZero() {
		return nil, service.Errorf(service.ECONFLICT, "No appeal was filed for permit %d (%s).", id, k.AppealNoticeDays.Source)
	}
	if err := service.NotFuture("on", o.On, today); err != nil {
		return nil, err
	}
	on := orToday(o.On, today)
	if on < p.HearingFrom {
		return nil, service.FieldErrorf(service.ECONFLICT, "on", "The council hears the appeal on or after %s (%s).", p.HearingFrom, k.AppealHearingAfterDays.Source)
	}
	p.HearingOn = on
	switch o.Order {
	case "uphold":
		p.Reason += "; upheld by the council on " + on.String() + " (5-18(f)(1))"
	case "lift", "conditions":
		if o.Order == "conditions" && strings.TrimSpace(o.Conditions) == "" {
			return nil, service.Invalidf("conditions", "conditions required (5-18(f)(3)).")
		}
		if p.State == service.PermitDenied {
			// A denial lifted: the application is decided again, on its
			// merits, by the city manager.
			p.State = service.PermitPending
		} else {
			p.State = service.PermitGranted
		}
		p.Reason = fmt.Sprintf("Lifted by the council on %s (5-18(f)(2))", on)
		if o.Order == "conditions" {
			p.Application.Restrictions = o.Conditions
			p.Reason = fmt.Sprintf("Returned by the council on %s with conditions: %s (5-18(f)(3))", on, o.Conditions)
		}
	default:
		return nil, service.Invalidf("order", "Order must be uphold, lift or conditions (5-18(f)).")
	}
	return s.save(ctx, p, today)
}

// Escape records a horse that ran outside the confines of its stable
// area (5-87(a)). The city's charge to recover it is at least the
// profile's minimum; an escape that needed recovery by the city's
// agents or employees suspends the stable permit until the stable
// inspector has reinspected the premises and the owner has paid for the
// inspection (5-87(b)); Inspect with FeePaid lifts it. The recovery
// charge is raised on the permit holder (money.ChargeEscape).
func (s *Service) Escape(ctx context.Context, id int64, e service.HorseEscape) (*service.Permit, error) {
	p, pr, today, err := s.load(ctx, id)
	if err != nil {
		return nil, err
	}
	if p.Kind != service.PermitStable {
		return nil, service.Invalidf("kind", "An escape is recorded on a stable permit (5-87).")
	}
	st := pr.Permits.Stable
	if err := service.NotFuture("on", e.On, today); err != nil {
		return nil, err
	}
	e.On = orToday(e.On, today)
	if e.RecoveryCents != nil && st.RecoveryCharge != nil && st.RecoveryCharge.State() == rules.FeeSet && *e.RecoveryCents < int64(*st.RecoveryCharge.Cents) {
		return nil, service.Invalidf("recovery_cents", "The charge to recover the horse is at least %s (%s).", dollars(int64(*st.RecoveryCharge.Cents)), st.RecoveryCharge.Source)
	}
	if e.RecoveredByCity && e.RecoveryCents == nil && st.RecoveryCharge != nil {
		e.RecoveryCents, _, _ = rules.FeeOf(st.RecoveryCharge)
	}
	p.Escapes = append(p.Escapes, e)
	if e.RecoveredByCity && st.EscapeSuspends.Value && (p.State == service.PermitGranted || p.State == service.PermitSuspended && p.SuspendedUnder == "5-87(b)") {
		p.State, p.SuspendedUnder, p.ActionOn = service.PermitSuspended, st.EscapeSuspends.Source, e.On
		p.Reason = fmt.Sprintf("A horse escaped and was recovered by the city on %s; suspended until the stable inspector reinspects the premises and the inspection is paid for (%s).", e.On, st.EscapeSuspends.Source)
		p.Pending = []string{"The stable inspector's reinspection of the premises (" + st.EscapeSuspends.Source + ")",
			"Payment for the inspection (" + st.EscapeSuspends.Source + "; fee " + feeText(st.InspectionFee) + ")"}
	}
	saved, err := s.save(ctx, p, today)
	if err != nil {
		return nil, err
	}
	// The city's charge to recover the horse is a charge on the permit
	// holder (5-87(a)).
	if s.money != nil {
		if _, err := s.money.ChargeEscape(ctx, saved, len(saved.Escapes)); err != nil {
			return nil, err
		}
	}
	return saved, nil
}

// reinspected lifts a 5-87(b) suspension once the premises passed the
// reinspection and the inspection is paid for; until then the permit
// stays suspended with what is still missing.
func (s *Service) reinspected(ctx context.Context, p *service.Permit, in Inspection, today service.Date) (*service.Permit, error) {
	on := orToday(in.On, today)
	if on < p.ActionOn {
		return nil, service.Invalidf("on", "The reinspection (%s) cannot come before the escape (%s).", on, p.ActionOn)
	}
	passed := in.Passed
	p.InspectedOn, p.InspectionPassed = on, &passed
	var left []string
	if !in.Passed {
		left = append(left, "The stable inspector's reinspection of the premises, passed ("+p.SuspendedUnder+")")
	}
	if !in.FeePaid {
		left = append(left, "Payment for the inspection ("+p.SuspendedUnder+")")
	}
	if len(left) > 0 {
		p.Pending = left
		return s.save(ctx, p, today)
	}
	p.State, p.Pending = service.PermitGranted, nil
	p.Reason = fmt.Sprintf("Reinstated on %s after the reinspection and its payment (%s).", on, p.SuspendedUnder)
	p.SuspendedUnder = ""
	return s.save(ctx, p, today)
}

func feeText(f *rules.Fee) string {
	c, src, _ := rules.FeeOf(f)
	if c == nil {
		return "set by resolution, " + src
	}
	return dollars(*c) + ", " + src
}

func dollars(c int64) string { return fmt.Sprintf("$%d.%02d", c/100, c%100) }

// Grounds are the grounds on which a permit of p's kind is revoked,
// suspended or not renewed (5-18(e), 5-106, 64.55(c)), with their
// sections; none for a kind whose text gives none.
func (s *Service) Grounds(p *service.Permit) []rules.Item {
	pr := s.rules.Profile(p.Jurisdiction)
	if pr == nil || pr.Permits == nil {
		return nil
	}
	pm := pr.Permits
	switch {
	case p.Kind == service.PermitKennel && pm.Kennel != nil:
		return pm.Kennel.Grounds
	case p.Kind == service.PermitStable && pm.Stable != nil:
		return pm.Stable.Grounds
	case p.Kind == service.PermitOffLeash && pm.OffLeash != nil:
		return pm.OffLeash.Grounds
	}
	return nil
}

// Conditions are the conditions of issue an application of kind states
// it meets (a stable's, 5-104(a)(3)-(10)), from every jurisdiction that
// issues the kind, for a form to offer; by code, first source kept.
func (s *Service) Conditions(kind service.PermitKind) []rules.Item {
	var out []rules.Item
	seen := map[string]bool{}
	for _, id := range s.rules.IDs() {
		pm := s.rules.Profile(id).Permits
		if kind != service.PermitStable || pm == nil || pm.Stable == nil {
			continue
		}
		for _, c := range pm.Stable.Conditions {
			if !seen[c.Code] {
				seen[c.Code] = true
				out = append(out, c)
			}
		}
	}
	return out
}
