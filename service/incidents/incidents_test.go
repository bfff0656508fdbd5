package incidents_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/apptest"
	"github.com/chipdesk/chipdesk/service/incidents"
	"github.com/chipdesk/chipdesk/service/rules"
)

func d(s string) service.Date { return service.MustDate(s) }

func newService(t *testing.T, st service.Store) *incidents.Service {
	t.Helper()
	s, err := incidents.New(&incidents.Opts{Store: st, Rules: apptest.Rules(t), Jurisdiction: "minneapolis", Now: apptest.Clock})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestBiteStartsQuarantine_66_40_5_39: a bite of a person starts the
// ten-day quarantine, at home when vaccinated; in Chanhassen it also
// proposes a 5-76(2) designation for review. A bite in the future, or
// without its victim, is refused.
func TestBiteStartsQuarantine_66_40_5_39(t *testing.T) {
	t.Parallel()
	apptest.Backends(t, func(t *testing.T, st service.Store) {
		s := newService(t, st)
		ctx := context.Background()
		for _, tt := range []struct {
			name, city string
			victim     service.Victim
			provoked   bool
			wantEnd    string
			wantSrc    string
			proposal   bool
		}{
			{"66.40(b) Minneapolis, vaccinated: home", "Minneapolis", service.VictimPerson, false, "2026-06-18", "66.40(b)", false},
			{"5-39(a) Chanhassen: home, and 5-76(2) proposed", "Chanhassen", service.VictimPerson, false, "2026-06-18", "5-39(a)", true},
			{"5-76(2) excepts a tormented animal", "Chanhassen", service.VictimPerson, true, "2026-06-18", "5-39(a)", false},
			{"an animal bitten: no bite quarantine", "Minneapolis", service.VictimAnimal, false, "", "", false},
		} {
			t.Run(tt.name, func(t *testing.T) {
				dog := apptest.Dog(t, st, tt.city)
				b, err := s.RecordBite(ctx, &service.BiteIncident{AnimalID: dog, Date: d("2026-06-08"), Victim: tt.victim, Provoked: tt.provoked})
				if err != nil {
					t.Fatal(err)
				}
				q := b.Quarantine
				switch {
				case tt.wantEnd == "" && q != nil:
					t.Errorf("quarantine %+v, want none", q)
				case tt.wantEnd != "" && (q == nil || q.End != d(tt.wantEnd) || q.Place != service.AtHome || !strings.Contains(q.Notes, tt.wantSrc)):
					t.Errorf("quarantine %+v, want at home to %s citing %s", q, tt.wantEnd, tt.wantSrc)
				}
				if (b.Proposal != nil) != tt.proposal || b.Proposal != nil && b.Proposal.Section != "5-76(2)" {
					t.Errorf("proposal %+v, want proposed %v", b.Proposal, tt.proposal)
				}
			})
		}
	})
	st := apptest.SQLite(t)
	s := newService(t, st)
	dog := apptest.Dog(t, st, "Minneapolis")
	for _, tt := range []struct {
		name  string
		b     service.BiteIncident
		field string
	}{
		{"dated 2028", service.BiteIncident{AnimalID: dog, Date: d("2028-03-01"), Victim: service.VictimPerson}, "date"},
		{"no victim", service.BiteIncident{AnimalID: dog, Date: d("2026-06-01")}, "victim"},
		{"no animal", service.BiteIncident{Date: d("2026-06-01"), Victim: service.VictimPerson}, "animal_id"},
	} {
		_, err := s.RecordBite(context.Background(), &tt.b)
		apptest.Refused(t, "RecordBite("+tt.name+")", err, service.EINVALID, tt.field)
	}
}

// TestQuarantineRefusals_66_40_66_50_5_39_5_40: a bite quarantine is
// not less than ten days; an exposure follows the option the officer
// chose among those 66.50 and 5-40 give, each with its end date.
func TestQuarantineRefusals_66_40_66_50_5_39_5_40(t *testing.T) {
	t.Parallel()
	st := apptest.SQLite(t)
	s := newService(t, st)
	ctx := context.Background()
	mpls := apptest.Dog(t, st, "Minneapolis")
	chan_ := apptest.Dog(t, st, "Chanhassen")
	unvacc := apptest.Animal(t, st, "Minneapolis", service.Animal{BirthDate: d("2020-01-01")})
	q := func(animal int64, kind service.QuarantineKind, option, start, end string) *incidents.QuarantineRequest {
		r := &incidents.QuarantineRequest{Option: option}
		r.AnimalID, r.Kind = animal, kind
		if start != "" {
			r.Start = d(start)
		}
		if end != "" {
			r.End = d(end)
		}
		return r
	}
	for _, tt := range []struct {
		name  string
		req   *incidents.QuarantineRequest
		field string
	}{
		{"66.40 bite quarantine of 2 days", q(mpls, service.QuarantineBite, "", "2026-06-08", "2026-06-10"), "end"},
		{"5-39(a) bite quarantine of 9 days", q(chan_, service.QuarantineBite, "", "2026-06-08", "2026-06-17"), "end"},
		{"66.40(a) home quarantine unvaccinated", func() *incidents.QuarantineRequest {
			r := q(unvacc, service.QuarantineBite, "", "2026-06-08", "")
			r.Place = service.AtHome
			return r
		}(), "place"},
		{"66.50 exposure without the officer's choice", q(mpls, service.QuarantineExposure, "", "2026-06-08", ""), "option"},
		{"66.50(b)(3) destroyed is no quarantine", q(mpls, service.QuarantineExposure, rules.OptionDestroy, "2026-06-08", ""), "option"},
		{"66.50(a) revaccination is for a vaccinated animal", q(unvacc, service.QuarantineExposure, rules.OptionRevaccinateConfine, "2026-06-08", ""), "option"},
		{"66.50(b)(1) 40 days cut to 20", q(mpls, service.QuarantineExposure, rules.OptionRevaccinateConfine, "2026-06-08", "2026-06-28"), "end"},
		{"5-40 six months cut to three", q(chan_, service.QuarantineExposure, rules.OptionStrictIsolation, "2026-06-08", "2026-09-08"), "end"},
		{"unknown kind", q(mpls, "observation", "", "2026-06-08", ""), "kind"},
	} {
		_, err := s.Quarantine(ctx, tt.req)
		apptest.Refused(t, "Quarantine("+tt.name+")", err, service.EINVALID, tt.field)
	}
	for _, tt := range []struct {
		name               string
		req                *incidents.QuarantineRequest
		end, section, vacc string
	}{
		{"66.40 ten days by default", q(mpls, service.QuarantineBite, "", "2026-06-08", ""), "2026-06-18", "66.40", ""},
		{"66.50(b)(1) revaccinated, 40 days", q(mpls, service.QuarantineExposure, rules.OptionRevaccinateConfine, "2026-06-08", ""), "2026-07-18", "66.50(b)(1)", "2026-06-08"},
		{"66.50(a) six months, vaccinated a month before release", q(unvacc, service.QuarantineExposure, rules.OptionStrictIsolation, "2026-06-08", ""), "2026-12-08", "66.50(a)", "2026-11-08"},
		{"5-40 boosters", q(chan_, service.QuarantineExposure, rules.OptionBooster, "2026-06-08", ""), "2026-06-08", "5-40", "2026-06-08"},
	} {
		got, err := s.Quarantine(ctx, tt.req)
		if err != nil {
			t.Errorf("Quarantine(%s): %v", tt.name, err)
			continue
		}
		if got.End != d(tt.end) || got.Section != tt.section || got.VaccinateOn.String() != tt.vacc {
			t.Errorf("Quarantine(%s) = end %s section %s vaccinate %s, want %s %s %s", tt.name, got.End, got.Section, got.VaccinateOn, tt.end, tt.section, tt.vacc)
		}
	}
}

// TestDesignationRefusals_347_50: a designation names a known
// jurisdiction (any spelling) and a level of Minn. Stat. 347.50, and no
// date of it lies in the future.
func TestDesignationRefusals_347_50(t *testing.T) {
	t.Parallel()
	st := apptest.SQLite(t)
	s := newService(t, st)
	ctx := context.Background()
	dog := apptest.Dog(t, st, "Minneapolis")
	for _, tt := range []struct {
		name  string
		d     service.DangerousDesignation
		field string
	}{
		{"duluth", service.DangerousDesignation{AnimalID: dog, Level: service.Dangerous, Jurisdiction: "duluth", DeclaredOn: d("2026-06-01")}, "jurisdiction"},
		{"declared in 2028", service.DangerousDesignation{AnimalID: dog, Level: service.Dangerous, Jurisdiction: "minneapolis", DeclaredOn: d("2028-01-01")}, "declared_on"},
		{"no declaration date", service.DangerousDesignation{AnimalID: dog, Level: service.Dangerous, Jurisdiction: "minneapolis"}, "declared_on"},
		{"vicious is no level", service.DangerousDesignation{AnimalID: dog, Level: "vicious", Jurisdiction: "minneapolis", DeclaredOn: d("2026-06-01")}, "level"},
		{"64.110(g) decision before the declaration", service.DangerousDesignation{AnimalID: dog, Level: service.Dangerous, Jurisdiction: "minneapolis",
			DeclaredOn: d("2026-06-01"), DecisionOn: d("2026-05-01")}, "decision_on"},
		{"microchip recorded tomorrow", service.DangerousDesignation{AnimalID: dog, Level: service.Dangerous, Jurisdiction: "minneapolis",
			DeclaredOn: d("2026-06-01"), MicrochipOn: d("2026-06-11")}, "microchip_on"},
	} {
		_, err := s.Designate(ctx, &tt.d)
		apptest.Refused(t, "Designate("+tt.name+")", err, service.EINVALID, tt.field)
	}
	got, err := s.Designate(ctx, &service.DangerousDesignation{AnimalID: dog, Level: service.PotentiallyDangerous, Jurisdiction: "MPLS", DeclaredOn: d("2026-06-01")})
	if err != nil || got.Jurisdiction != "minneapolis" {
		t.Fatalf("Designate(MPLS) = %+v, %v; want minneapolis", got, err)
	}
	c, err := s.Requirements(ctx, dog, 0)
	if err != nil || c == nil {
		t.Fatalf("Requirements = %+v, %v", c, err)
	}
	for _, r := range c.Requirements {
		if r.What == "microchip" && (r.Status != rules.RequirementDue || r.Section != "Minn. Stat. 347.515") ||
			r.What == "sterilisation" && r.Status != rules.RequirementNotApplicable {
			t.Errorf("potentially dangerous requirement %+v", r)
		}
	}
}

// TestSyncDoorSameQuarantine_66_40: a bite pushed from a handheld starts
// the same quarantine as the same facts recorded at the desk, once
// however often it is pushed; an event stamped years ahead (a handheld
// whose clock says 2031) and a bite dated in the future are refused.
func TestSyncDoorSameQuarantine_66_40(t *testing.T) {
	t.Parallel()
	apptest.Backends(t, func(t *testing.T, st service.Store) {
		s := newService(t, st)
		ctx := context.Background()
		desk, field := apptest.Dog(t, st, "Chanhassen"), apptest.Dog(t, st, "Chanhassen")
		b, err := s.RecordBite(ctx, &service.BiteIncident{AnimalID: desk, Date: d("2026-06-09"), Victim: service.VictimPerson, SkinBroken: true})
		if err != nil {
			t.Fatal(err)
		}
		ev := &service.DeviceEvent{ID: "ev-1", Device: "handheld-3", Kind: service.DeviceBite, At: apptest.Now.Add(-time.Hour), User: "officer-7",
			Bite: &service.BiteIncident{AnimalID: field, Date: d("2026-06-09"), Victim: service.VictimPerson, SkinBroken: true}}
		for range 2 {
			if _, _, err := s.ApplyDeviceEvent(ctx, ev); err != nil {
				t.Fatal(err)
			}
		}
		qs, err := st.FindQuarantines(ctx, field)
		if err != nil || len(qs) != 1 {
			t.Fatalf("quarantines of the pushed bite = %d (%v), want 1", len(qs), err)
		}
		got, want := qs[0], b.Quarantine
		if got.Kind != want.Kind || got.Place != want.Place || got.Start != want.Start || got.End != want.End || got.Notes != want.Notes || got.BiteID == 0 {
			t.Errorf("pushed bite's quarantine %+v, want the desk's %+v", got, want)
		}
		for _, tt := range []struct {
			name  string
			e     service.DeviceEvent
			field string
		}{
			{"scan stamped 2031", service.DeviceEvent{ID: "ev-2", Device: "handheld-3", Kind: service.DeviceScan,
				At: time.Date(2031, 3, 1, 12, 0, 0, 0, time.UTC), Scan: &service.Scan{ChipCode: "982000001088420", Reader: "wand"}}, "at"},
			{"bite dated 2028", service.DeviceEvent{ID: "ev-3", Device: "handheld-3", Kind: service.DeviceBite, At: apptest.Now,
				Bite: &service.BiteIncident{AnimalID: field, Date: d("2028-01-01"), Victim: service.VictimPerson}}, "bite.date"},
			{"bite of no one", service.DeviceEvent{ID: "ev-4", Device: "handheld-3", Kind: service.DeviceBite, At: apptest.Now,
				Bite: &service.BiteIncident{AnimalID: field, Date: d("2026-06-01")}}, "bite.victim"},
		} {
			_, _, err := s.ApplyDeviceEvent(ctx, &tt.e)
			apptest.Refused(t, "ApplyDeviceEvent("+tt.name+")", err, service.EINVALID, tt.field)
		}
	})
}

// TestQuarantineReleaseNotInTheFuture: a release is recorded for a day
// that has come.
func TestQuarantineReleaseNotInTheFuture(t *testing.T) {
	t.Parallel()
	st := apptest.SQLite(t)
	s := newService(t, st)
	ctx := context.Background()
	b, err := s.RecordBite(ctx, &service.BiteIncident{AnimalID: apptest.Dog(t, st, "Minneapolis"), Date: d("2026-05-20"), Victim: service.VictimPerson})
	if err != nil {
		t.Fatal(err)
	}
	apptest.Refused(t, "ReleaseQuarantine(2028)", s.ReleaseQuarantine(ctx, b.Quarantine.ID, d("2028-01-01")), service.EINVALID, "on")
	apptest.Refused(t, "ReleaseQuarantine(no date)", s.ReleaseQuarantine(ctx, b.Quarantine.ID, 0), service.EINVALID, "on")
	if err := s.ReleaseQuarantine(ctx, b.Quarantine.ID, d("2026-05-30")); err != nil {
		t.Errorf("ReleaseQuarantine(day 10) = %v", err)
	}
}

// TestBiteAuditsInItsTransaction_66_40: a bite and the quarantine it
// orders (66.40) each commit with their own audit event, by the caller:
// under the door's bite.create change, and under another change (a 66.60
// report that records the bite it reports), whose event stays pending
// for its own record.
func TestBiteAuditsInItsTransaction_66_40(t *testing.T) {
	t.Parallel()
	apptest.Backends(t, func(t *testing.T, st service.Store) {
		s := newService(t, st)
		bg := context.Background()
		for _, outer := range []string{"bite.create", "report.create"} {
			dog := apptest.Dog(t, st, "Minneapolis")
			ev := &service.AuditEvent{Actor: "officer-7", Role: service.RoleOfficer, Site: "north", TokenID: 7, Action: outer, Entity: "bite"}
			if outer != "bite.create" {
				ev.Entity = "animal_report"
			}
			ctx, ch := service.WithChange(bg, ev)
			b, err := s.RecordBite(ctx, &service.BiteIncident{AnimalID: dog, Date: d("2026-06-09"), Victim: service.VictimPerson, SkinBroken: true})
			if err != nil {
				t.Fatal(err)
			}
			if pending := service.PendingChange(ctx) == ch; pending != (outer != "bite.create") {
				t.Errorf("under %s: the outer change pending = %v after the bite", outer, pending)
			}
			for _, want := range []struct {
				entity string
				id     int64
			}{{"bite", b.ID}, {"quarantine", b.Quarantine.ID}} {
				ent, id := want.entity, want.id
				evs, n, err := st.FindAuditEvents(bg, service.AuditFilter{Entity: &ent, EntityID: &id})
				if err != nil {
					t.Fatal(err)
				}
				if n != 1 || evs[0].Actor != "officer-7" || evs[0].TokenID != 7 || evs[0].Action != ent+".create" {
					t.Errorf("under %s: %s %d events %+v, want one %s.create by officer-7", outer, ent, id, evs, ent)
				}
			}
		}
	})
}
