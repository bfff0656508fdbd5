package money

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/chipdesk/chipdesk/service"
)

// queuePermits adds to the outbox of cycle one reminder per holder of
// granted permits expiring from..before (from zero: any) that have no
// renewal applied for yet: a kennel licence expires on December 31 and
// its renewal application is due by December 1 (Chanhassen 5-18(c));
// an off-leash permit (64.55) or a permit for more than three dogs or
// cats (64.100(c)) expires with its term; a stable permit's annual
// registration falls due by June 1 (5-105(a)). The holder is the permit's
// owner, else its animal's owner; a permit with neither on file is
// counted in the answer's second value (nobody to write to), not
// reminded.
func (s *Service) queuePermits(ctx context.Context, cycle string, from, before service.Date) (int, int, error) {
	var due []*service.Permit
	inWindow := func(d service.Date) bool { return !d.IsZero() && d < before && (from.IsZero() || d >= from) }
	for _, f := range []service.PermitFilter{
		{State: service.PermitGranted, ExpiresBefore: before},
		// A stable permit does not expire; its annual registration is
		// due by June 1 (5-105(a)).
		{State: service.PermitGranted, Kind: service.PermitStable},
	} {
		for off := 0; ; off += 500 {
			f.Offset, f.Limit = off, 500
			ps, _, err := s.store.FindPermits(ctx, f)
			if err != nil {
				return 0, 0, err
			}
			for _, p := range ps {
				if inWindow(dueOn(p)) && (f.Kind == service.PermitStable) == (p.Kind == service.PermitStable) {
					due = append(due, p)
				}
			}
			if len(ps) < 500 {
				break
			}
		}
	}
	byOwner := map[int64][]*service.Permit{}
	unknown := 0
	for _, p := range due {
		renewed, err := s.renewed(ctx, p)
		if err != nil {
			return 0, 0, err
		}
		if renewed && p.Kind != service.PermitStable {
			continue
		}
		owner := p.OwnerID
		if owner == 0 && p.AnimalID != 0 {
			a, err := s.store.FindAnimalByID(ctx, p.AnimalID)
			if err != nil && service.ErrorCode(err) != service.ENOTFOUND {
				return 0, 0, err
			}
			if a != nil {
				owner = a.OwnerID
			}
		}
		if owner == 0 {
			unknown++
			continue
		}
		byOwner[owner] = append(byOwner[owner], p)
	}
	owners := make([]int64, 0, len(byOwner))
	for id := range byOwner {
		owners = append(owners, id)
	}
	slices.Sort(owners)
	queued := 0
	for _, id := range owners {
		o, err := s.store.FindOwnerByID(ctx, id)
		if err != nil {
			return 0, 0, err
		}
		ps := byOwner[id]
		slices.SortFunc(ps, func(a, b *service.Permit) int { return cmp.Compare(a.ID, b.ID) })
		r := &service.Reminder{Cycle: cycle, OwnerID: id, Channel: service.ChannelLetter, Name: o.Name, Email: o.Email,
			Address:   strings.TrimSpace(o.Address + "\n" + strings.TrimSpace(o.City+" "+o.State+" "+o.Postcode)),
			LicenceID: ps[0].ID, ExpiresOn: dueOn(ps[0]), Subject: service.SubjectPermit}
		if o.Email != "" {
			r.Channel = service.ChannelEmail
		}
		lines := make([]string, 0, len(ps))
		for _, p := range ps {
			lines = append(lines, s.permitLine(p))
			r.ExpiresOn = min(r.ExpiresOn, dueOn(p))
		}
		r.Tags = strings.Join(lines, "\n")
		added, err := s.store.QueueReminder(ctx, r)
		if err != nil {
			return 0, 0, err
		}
		if added {
			queued++
		}
	}
	return queued, unknown, nil
}

// renewed says whether a renewal of p has been applied for.
func (s *Service) renewed(ctx context.Context, p *service.Permit) (bool, error) {
	f := service.PermitFilter{Kind: p.Kind, Jurisdiction: p.Jurisdiction, OwnerID: p.OwnerID, AnimalID: p.AnimalID}
	if p.OwnerID == 0 && p.AnimalID == 0 {
		f.Holder = p.Holder
	}
	ps, _, err := s.store.FindPermits(ctx, f)
	if err != nil {
		return false, err
	}
	return slices.ContainsFunc(ps, func(x *service.Permit) bool {
		return x.Renews == p.ID && x.State != service.PermitDenied
	}), nil
}

// permitLine is a permit as a reminder names it: what it is, when it
// expires and, for a kennel licence, the day the renewal application is
// due (5-18(c)).
func (s *Service) permitLine(p *service.Permit) string {
	city := cityOf(p.Jurisdiction)
	if pr := s.rules.Profile(p.Jurisdiction); pr != nil {
		city = pr.Display
	}
	what := map[service.PermitKind]string{
		service.PermitKennel: "kennel licence", service.PermitOffLeash: "off-leash permit",
		service.PermitMultiAnimal: "permit for more than three dogs or cats", service.PermitBusiness: "animal-business licence",
		service.PermitStable: "stable permit",
	}[p.Kind]
	if what == "" {
		what = string(p.Kind) + " permit"
	}
	if p.Kind == service.PermitStable {
		src := "5-105(a)"
		if pr := s.rules.Profile(p.Jurisdiction); pr != nil && pr.Permits != nil && pr.Permits.Stable != nil && pr.Permits.Stable.RegistrationDue.Source != "" {
			src = pr.Permits.Stable.RegistrationDue.Source
		}
		return fmt.Sprintf("%s %s no. %d: the annual registration is due by %s (%s); a permit not registered by then is cancelled", city, what, p.ID, p.RenewalDue, src)
	}
	line := fmt.Sprintf("%s %s no. %d, expires %s", city, what, p.ID, p.ExpiresOn)
	if p.Kind == service.PermitKennel && !p.RenewalDue.IsZero() {
		src := "5-18(c)"
		if pr := s.rules.Profile(p.Jurisdiction); pr != nil && pr.Permits != nil && pr.Permits.Kennel != nil && pr.Permits.Kennel.RenewalDue.Source != "" {
			src = pr.Permits.Kennel.RenewalDue.Source
		}
		line += fmt.Sprintf("; the application to renew is due by %s (%s)", p.RenewalDue, src)
	}
	return line
}

// dueOn is the day permit p must be renewed by: its expiry, or a
// stable's registration day (it does not expire).
func dueOn(p *service.Permit) service.Date {
	if p.Kind == service.PermitStable {
		return p.RenewalDue
	}
	return p.ExpiresOn
}
