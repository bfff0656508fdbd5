package incidents_test

import (
	"context"
	"testing"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/apptest"
	"github.com/chipdesk/chipdesk/service/incidents"
	"github.com/chipdesk/chipdesk/service/rules"
)

// TestMinneapolis_64_110_OfficerWatch: the officer's watch lists the
// jurisdiction's dangerous animals with each requirement's status
// (64.110(g) microchip within 15 days), overdue first, and the open
// quarantines ending soon; a requirement recorded met reads met.
func TestMinneapolis_64_110_OfficerWatch(t *testing.T) {
	t.Parallel()
	apptest.Backends(t, func(t *testing.T, st service.Store) {
		s := newService(t, st)
		ctx := context.Background()
		late := apptest.Dog(t, st, "Minneapolis")  // declared 2026-05-01: microchip overdue by 2026-06-10
		fresh := apptest.Dog(t, st, "Minneapolis") // declared 2026-06-05: due
		elsewhere := apptest.Dog(t, st, "Chanhassen")
		for _, x := range []struct {
			id   int64
			city string
			on   string
		}{{fresh, "minneapolis", "2026-06-05"}, {late, "minneapolis", "2026-05-01"}, {elsewhere, "chanhassen", "2026-05-01"}} {
			if _, err := s.Designate(ctx, &service.DangerousDesignation{AnimalID: x.id, Level: service.Dangerous, Jurisdiction: x.city, DeclaredOn: d(x.on)}); err != nil {
				t.Fatal(err)
			}
		}
		// A bite quarantine ending in 8 days, and one ending in 2.
		for _, on := range []string{"2026-06-08", "2026-06-02"} {
			dog := apptest.Dog(t, st, "Minneapolis")
			if _, err := s.RecordBite(ctx, &service.BiteIncident{AnimalID: dog, Date: d(on), Victim: service.VictimPerson, Location: "Lake St"}); err != nil {
				t.Fatal(err)
			}
		}
		w, err := s.Watch(ctx, "Minneapolis", 0)
		if err != nil {
			t.Fatal(err)
		}
		if len(w.Dangerous) != 2 || w.Dangerous[0].Animal.ID != late || w.Dangerous[1].Animal.ID != fresh || w.Dangerous[0].Overdue == 0 {
			t.Fatalf("watch = %+v, want the overdue dog then the fresh one, no Chanhassen dog", w.Dangerous)
		}
		status := func(c *incidents.Compliance, what string) rules.RequirementStatus {
			for _, r := range c.Requirements {
				if r.What == what && r.Status != rules.RequirementNotApplicable {
					return r.Status
				}
			}
			return ""
		}
		if st := status(w.Dangerous[0].Compliance, "microchip"); st != rules.RequirementOverdue {
			t.Errorf("microchip of a dog declared 2026-05-01 = %s, want overdue (64.110(g), 15 days)", st)
		}
		if len(w.Quarantines) != 1 || w.Quarantines[0].Quarantine.End != d("2026-06-12") || w.Quarantines[0].DaysLeft != 2 ||
			w.Quarantines[0].Bite == nil || w.Quarantines[0].Bite.Location != "Lake St" {
			t.Errorf("quarantines ending soon = %+v, want the one ending 2026-06-12 (2 days left)", w.Quarantines)
		}
		c, err := s.RecordMet(ctx, late, &incidents.MetRequest{What: "microchip", On: d("2026-06-09")})
		if err != nil || status(c.Compliance, "microchip") != rules.RequirementMet || c.Still != "" {
			t.Fatalf("RecordMet(microchip) = %+v, %v; want met", c, err)
		}
		_, err = s.RecordMet(ctx, late, &incidents.MetRequest{What: "microchip", On: d("2026-06-09")})
		apptest.Refused(t, "RecordMet(met already)", err, service.ECONFLICT, "")
		_, err = s.RecordMet(ctx, late, &incidents.MetRequest{What: "photo", On: d("2026-06-11")})
		apptest.Refused(t, "RecordMet(tomorrow)", err, service.EINVALID, "on")
		_, err = s.RecordMet(ctx, late, &incidents.MetRequest{What: "muzzle", On: d("2026-06-09")})
		apptest.Refused(t, "RecordMet(no such requirement)", err, service.EINVALID, "what")
		_, err = s.RecordMet(ctx, late, &incidents.MetRequest{What: "insurance", On: d("2026-06-09")})
		apptest.Refused(t, "RecordMet(insurance without its amount)", err, service.EINVALID, "insurance_cents")
		// Minn. Stat. 347.51 subd. 2: $300,000 at least; $1,000 is
		// recorded and still due.
		low, err := s.RecordMet(ctx, late, &incidents.MetRequest{What: "insurance", On: d("2026-06-09"), InsuranceCents: 100000})
		if err != nil || low.Still == "" || status(low.Compliance, "insurance") == rules.RequirementMet {
			t.Errorf("RecordMet(insurance of $1,000) = %+v, %v; want recorded and still not met", low, err)
		}
	})
}
