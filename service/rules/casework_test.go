package rules_test

import (
	"strings"
	"testing"
	"time"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/rules"
)

func TestResolveJurisdiction(t *testing.T) {
	t.Parallel()
	s, err := rules.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ name, want string }{
		{"minneapolis", "minneapolis"}, {"Minneapolis", "minneapolis"}, {"MPLS", "minneapolis"}, {"mpls", "minneapolis"},
		{"City of Minneapolis", "minneapolis"}, {" chanhassen ", "chanhassen"}, {"CHAN", "chanhassen"}, {"Chanhassen", "chanhassen"},
		{"duluth", ""}, {"", ""},
	} {
		p, err := s.Resolve(tt.name)
		switch {
		case tt.want == "" && (err == nil || service.ErrorField(err) != "jurisdiction" || !strings.Contains(service.ErrorMessage(err), "minneapolis (Minneapolis, MPLS)")):
			t.Errorf("Resolve(%q) = %v, %v; want EINVALID on jurisdiction listing the known ones", tt.name, p, err)
		case tt.want != "" && (err != nil || p.ID != tt.want):
			t.Errorf("Resolve(%q) = %v, %v; want %s", tt.name, p, err, tt.want)
		}
	}
	if p, _ := s.Resolve("mpls"); p.Display != "Minneapolis" {
		t.Errorf("Display = %q, want Minneapolis", p.Display)
	}
}

func requirements(list []rules.DangerCheck) map[string]rules.DangerCheck {
	m := map[string]rules.DangerCheck{}
	for _, c := range list {
		m[c.What] = c
	}
	return m
}

// TestMinnStat_347_515_64_110_RequirementsByLevel: the requirements of
// each level, their status from the facts on file.
func TestMinnStat_347_515_64_110_RequirementsByLevel(t *testing.T) {
	t.Parallel()
	mpls, chan_ := profiles(t)
	on := d("2026-04-01")
	chip := service.Chip{Code: "982000001088420", ImplantDate: d("2025-01-10")}
	for _, tt := range []struct {
		name    string
		p       *rules.Profile
		level   service.DangerLevel
		altered bool
		chips   []service.Chip
		want    map[string]rules.RequirementStatus
		metOn   map[string]string
	}{
		{"64.110 dangerous, unaltered, no chip", mpls, service.Dangerous, false, nil,
			map[string]rules.RequirementStatus{"microchip": rules.RequirementOverdue, "sterilisation": rules.RequirementOverdue,
				"photo": rules.RequirementDue, "registration": rules.RequirementDue, "insurance": rules.RequirementDue, "sign": rules.RequirementDue}, nil},
		{"64.110(g), (i) met by a chip before the declaration and an altered dog", mpls, service.Dangerous, true, []service.Chip{chip},
			map[string]rules.RequirementStatus{"microchip": rules.RequirementMet, "sterilisation": rules.RequirementMet},
			map[string]string{"microchip": "2025-01-10"}},
		{"347.515 potentially dangerous: the microchip only", mpls, service.PotentiallyDangerous, false, nil,
			map[string]rules.RequirementStatus{"microchip": rules.RequirementDue, "sterilisation": rules.RequirementNotApplicable,
				"photo": rules.RequirementNotApplicable, "registration": rules.RequirementNotApplicable,
				"insurance": rules.RequirementNotApplicable, "sign": rules.RequirementNotApplicable}, nil},
		{"347.515 potentially dangerous with a chip: met, listed", chan_, service.PotentiallyDangerous, false, []service.Chip{chip},
			map[string]rules.RequirementStatus{"microchip": rules.RequirementMet, "sign": rules.RequirementNotApplicable,
				"registration": rules.RequirementNotApplicable}, map[string]string{"microchip": "2025-01-10"}},
		{"5-77(4), 5-78 dangerous", chan_, service.Dangerous, false, nil,
			map[string]rules.RequirementStatus{"sign": rules.RequirementOverdue, "registration": rules.RequirementDue, "microchip": rules.RequirementDue}, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			a := dog("2020-01-01", tt.altered)
			rec := &service.Record{Animal: *a, Chips: tt.chips, Dangerous: &service.DangerousDesignation{ID: 1, AnimalID: 1, Level: tt.level,
				Jurisdiction: tt.p.ID, DeclaredOn: d("2026-03-01")}}
			got := requirements(tt.p.DangerRequirements(rec, on))
			for what, st := range tt.want {
				c, ok := got[what]
				if !ok || c.Status != st || c.Section == "" {
					t.Errorf("%s = %+v (listed %v), want %s with its section", what, c, ok, st)
				}
			}
			for what, m := range tt.metOn {
				if got[what].MetOn.String() != m {
					t.Errorf("%s met_on = %s, want %s", what, got[what].MetOn, m)
				}
			}
		})
	}
}

// TestMinneapolis_62_40a_PenaltyFromImpoundHistory: the $10 penalty of a
// licence bought to redeem stays due when the licence was bought during
// custody, before release.
func TestMinneapolis_62_40a_PenaltyFromImpoundHistory(t *testing.T) {
	t.Parallel()
	mpls, _ := profiles(t)
	intakeAt := time.Date(2026, 6, 1, 15, 0, 0, 0, time.UTC)
	im := service.Impoundment{ID: 7, AnimalID: 1, Jurisdiction: "minneapolis", IntakeAt: intakeAt, IntakeOn: d("2026-06-01")}
	lic := func(issued string, created time.Time) service.Licence {
		return service.Licence{ID: 3, AnimalID: 1, Kind: service.KindLicence, Jurisdiction: "minneapolis", Status: service.LicenceActive,
			IssuedOn: d(issued), ExpiresOn: d("2027-01-31"), CreatedAt: created}
	}
	for _, tt := range []struct {
		name        string
		licences    []service.Licence
		wantPenalty bool
		wantLicence bool
	}{
		{"no licence: licence and penalty", nil, true, true},
		{"bought during custody, two days before release", []service.Licence{lic("2026-06-02", intakeAt.Add(24*time.Hour))}, true, false},
		{"bought on the intake day, after intake", []service.Licence{lic("2026-06-01", intakeAt.Add(time.Hour))}, true, false},
		{"in force at intake: neither", []service.Licence{lic("2026-02-01", time.Date(2026, 2, 1, 15, 0, 0, 0, time.UTC))}, false, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rec := &service.Record{Animal: *dog("2020-01-01", true), Licences: tt.licences, Impounds: []service.Impoundment{im}}
			b := mpls.Redemption(rec, &im, d("2026-06-04"))
			var pen, fee bool
			for _, l := range b.Lines {
				pen = pen || l.Code == "licence-penalty" && l.Cents == 1000 && l.Source == "62.40(a)"
				fee = fee || l.Code == "altered"
			}
			if pen != tt.wantPenalty || fee != tt.wantLicence {
				t.Errorf("lines %+v: penalty %v licence %v, want %v %v", b.Lines, pen, fee, tt.wantPenalty, tt.wantLicence)
			}
		})
	}
}

func TestChanhassen_5_76_2_BiteProposesDesignation(t *testing.T) {
	t.Parallel()
	mpls, chan_ := profiles(t)
	rec := &service.Record{Animal: *dog("2020-01-01", true)}
	for _, tt := range []struct {
		name string
		p    *rules.Profile
		bite service.BiteIncident
		want bool
	}{
		{"unprovoked bite of a person", chan_, service.BiteIncident{Victim: service.VictimPerson, Date: d("2026-06-01")}, true},
		{"tormented: excepted", chan_, service.BiteIncident{Victim: service.VictimPerson, Provoked: true, Date: d("2026-06-01")}, false},
		{"an animal bitten", chan_, service.BiteIncident{Victim: service.VictimAnimal, Date: d("2026-06-01")}, false},
		{"Minneapolis has no such definition", mpls, service.BiteIncident{Victim: service.VictimPerson, Date: d("2026-06-01")}, false},
	} {
		got := tt.p.ProposeDesignation(rec, &tt.bite)
		if (got != nil) != tt.want || got != nil && (got.Section != "5-76(2)" || got.Level != service.Dangerous) {
			t.Errorf("%s: ProposeDesignation = %+v, want proposed %v", tt.name, got, tt.want)
		}
		// The lookup keeps saying so while no designation is made.
		r := *rec
		r.Bites = []service.BiteIncident{tt.bite}
		if e := tt.p.Evaluate(&r, d("2026-06-10")); hasAlert(e.Alerts, rules.AlertDesignationProposed) != tt.want {
			t.Errorf("%s: alerts %+v, want designation-proposed %v", tt.name, e.Alerts, tt.want)
		}
		r.Dangerous = &service.DangerousDesignation{Level: service.Dangerous, Jurisdiction: tt.p.ID, DeclaredOn: d("2026-06-05")}
		if e := tt.p.Evaluate(&r, d("2026-06-10")); hasAlert(e.Alerts, rules.AlertDesignationProposed) {
			t.Errorf("%s: proposed again once declared", tt.name)
		}
	}
}
