package permits

import (
	"context"
	"sort"
	"strings"

	"github.com/chipdesk/chipdesk/service"
)

// Item is one line of the officer's list.
type Item struct {
	// What is kennel-lapsed, renewal-due, registration-due,
	// stable-cancelled, stable-suspended, inspection-pending, appeal-hearing,
	// agreement-due, agreement-broken or report-open.
	What     string       `json:"what"`
	Due      service.Date `json:"due,omitzero"`
	Message  string       `json:"message"`
	Source   string       `json:"source,omitempty"`
	PermitID int64        `json:"permit_id,omitempty"`
	// AgreementID and ReportID name the agreement or report.
	AgreementID int64 `json:"agreement_id,omitempty"`
	ReportID    int64 `json:"report_id,omitempty"`
	AnimalID    int64 `json:"animal_id,omitempty"`
}

// Due is the officer's list on today: lapsed kennels not renewed,
// renewals and registrations falling due, cancelled stables, pending
// inspections, appeal hearings, sterilisation agreements falling due or
// broken, and open reports; soonest first.
func (s *Service) Due(ctx context.Context) ([]Item, error) {
	all, _, err := s.store.FindPermits(ctx, service.PermitFilter{})
	if err != nil {
		return nil, err
	}
	renewed := map[int64]bool{}
	for _, p := range all {
		if p.Renews != 0 && p.State != service.PermitDenied {
			renewed[p.Renews] = true
		}
	}
	out := []Item{}
	for _, p := range all {
		pr := s.rules.Profile(p.Jurisdiction)
		if pr == nil {
			continue
		}
		today := pr.Today(s.now())
		soon := today.AddDays(s.within)
		s.status(p, today)
		it := Item{PermitID: p.ID, AnimalID: p.AnimalID}
		switch {
		case p.State == service.PermitPending && p.InspectionPassed == nil:
			it.What, it.Due, it.Message = "inspection-pending", p.AppliedOn, string(p.Kind)+" application of "+p.Holder+" awaits inspection or items"
			it.Source = map[service.PermitKind]string{service.PermitKennel: "5-18(d)", service.PermitStable: "5-103", service.PermitMultiAnimal: "64.100(c)", service.PermitBusiness: "68.10"}[p.Kind]
		case p.Status == "lapsed" && !renewed[p.ID]:
			if p.Kind != service.PermitKennel && p.Kind != service.PermitStable {
				continue
			}
			it.What, it.Due, it.Message = "kennel-lapsed", p.ExpiresOn, "Kennel licence of "+p.Holder+" lapsed; kept without a licence is unlawful"
			it.Source = "5-18(a), 5-18(c)"
		case p.Status == string(service.PermitCancelled):
			it.What, it.Due, it.Message, it.Source = "stable-cancelled", p.RenewalDue, "Stable permit of "+p.Holder+" not registered by the due day; cancelled", "5-105(b)"
		case p.State == service.PermitGranted && p.Kind == service.PermitKennel && !renewed[p.ID] && p.RenewalDue <= soon && p.ExpiresOn >= today:
			it.What, it.Due, it.Message, it.Source = "renewal-due", p.RenewalDue, "Kennel renewal application of "+p.Holder+" due", "5-18(c)"
		case p.State == service.PermitGranted && p.Kind == service.PermitStable && p.RenewalDue <= soon:
			it.What, it.Due, it.Message, it.Source = "registration-due", p.RenewalDue, "Stable annual registration of "+p.Holder+" due", "5-105(a)"
		case p.State == service.PermitSuspended && p.SuspendedUnder != "":
			it.What, it.Due, it.Source = "stable-suspended", p.ActionOn, p.SuspendedUnder
			it.Message = "Stable permit of " + p.Holder + " suspended after a horse's escape; awaits " + strings.Join(p.Pending, "; ")
		case !p.AppealFiledOn.IsZero() && p.HearingFrom >= today.AddDays(-s.within):
			it.What, it.Due, it.Message, it.Source = "appeal-hearing", p.HearingFrom, "Council hears the appeal of "+p.Holder+" on or after this day", "5-18(f)"
		default:
			continue
		}
		out = append(out, it)
	}
	ags, err := s.Agreements(ctx, true, 0)
	if err != nil {
		return nil, err
	}
	for _, a := range ags {
		today := s.today(a.Jurisdiction)
		if a.Status == "broken" {
			out = append(out, Item{What: "agreement-broken", Due: a.DueOn, Message: "Sterilisation agreement of " + a.Adopter + " broken", Source: a.DueSource, AgreementID: a.ID, AnimalID: a.AnimalID})
		} else if a.DueOn <= today.AddDays(s.within) {
			out = append(out, Item{What: "agreement-due", Due: a.DueOn, Message: "Sterilisation agreement of " + a.Adopter + " falls due", Source: a.DueSource, AgreementID: a.ID, AnimalID: a.AnimalID})
		}
	}
	reps, err := s.store.FindAnimalReports(ctx, true)
	if err != nil {
		return nil, err
	}
	for _, r := range reps {
		src := "66.60"
		msg := "Bite reported by " + r.Reporter.Name
		if r.Kind == service.ReportRabiesSuspect {
			src, msg = "66.70", "Rabies suspect reported by "+r.Reporter.Name+": "+r.Diagnosis
		}
		out = append(out, Item{What: "report-open", Due: r.ReportedOn, Message: msg, Source: src, ReportID: r.ID, AnimalID: r.AnimalID})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Due < out[j].Due })
	return out, nil
}

// ForAnimal returns an animal's permits in force or pending and its open
// sterilisation agreements, for its record.
func (s *Service) ForAnimal(ctx context.Context, animalID int64) ([]*service.Permit, []AgreementView, error) {
	ps, _, err := s.List(ctx, service.PermitFilter{AnimalID: animalID})
	if err != nil {
		return nil, nil, err
	}
	ags, err := s.Agreements(ctx, false, animalID)
	if err != nil {
		return nil, nil, err
	}
	return ps, ags, nil
}
