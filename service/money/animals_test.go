package money_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/incidents"
	"github.com/chipdesk/chipdesk/service/money"
	"github.com/chipdesk/chipdesk/service/rules"
	"github.com/chipdesk/chipdesk/service/store/sqlite"
)

// animalReportsEnv serves the animal reports over a fresh SQLite store
// with the clock at noon UTC on day.
func animalReportsEnv(t *testing.T, day string) (*sqlite.DB, *money.Service, *incidents.Service) {
	t.Helper()
	now := func() time.Time { return service.MustDate(day).Time(time.UTC).Add(12 * time.Hour) }
	st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "db"), &sqlite.Opts{Now: now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	rs, err := rules.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	m, err := money.New(&money.Opts{Store: st, Rules: rs, Now: now})
	if err != nil {
		t.Fatal(err)
	}
	in, err := incidents.New(&incidents.Opts{Store: st, Rules: rs, Jurisdiction: "minneapolis", Now: now})
	if err != nil {
		t.Fatal(err)
	}
	return st, m, in
}

type pet struct {
	name, born, licIssued, licExpires, vaccinated string
	months                                        int
	revoked                                       bool
}

func addPet(t *testing.T, st *sqlite.DB, p pet) int64 {
	t.Helper()
	ctx := context.Background()
	o := &service.Owner{Name: "=Owner of " + p.name}
	if err := st.CreateOwner(ctx, o); err != nil {
		t.Fatal(err)
	}
	a := &service.Animal{OwnerID: o.ID, Name: p.name, Species: service.Dog, BirthDate: service.MustDate(p.born)}
	if err := st.CreateAnimal(ctx, a); err != nil {
		t.Fatal(err)
	}
	if p.licIssued != "" {
		l := &service.Licence{AnimalID: a.ID, Jurisdiction: "minneapolis", Year: service.MustDate(p.licIssued).Year(), IssuedOn: service.MustDate(p.licIssued),
			ExpiresOn: service.MustDate(p.licExpires), FeeCents: 3500}
		if err := st.CreateLicence(ctx, l); err != nil {
			t.Fatal(err)
		}
		if p.revoked {
			if err := st.RevokeLicence(ctx, l.ID); err != nil {
				t.Fatal(err)
			}
		}
	}
	if p.vaccinated != "" {
		if err := st.CreateVaccination(ctx, &service.RabiesVaccination{AnimalID: a.ID, Date: service.MustDate(p.vaccinated), DurationMonths: p.months}); err != nil {
			t.Fatal(err)
		}
	}
	return a.ID
}

// TestReport_LapsedRabies_66_10: the licensed dogs whose rabies
// vaccination lapsed (the period of 66.10) or which have none though
// over four months old; a current vaccination, an unlicensed dog and a
// revoked licence are not listed.
func TestReport_LapsedRabies_66_10(t *testing.T) {
	st, m, _ := animalReportsEnv(t, "2026-06-15")
	lapsed := addPet(t, st, pet{name: "Lapsed", born: "2020-01-01", licIssued: "2026-02-01", licExpires: "2027-01-31", vaccinated: "2025-05-01", months: 12})
	none := addPet(t, st, pet{name: "Never", born: "2021-01-01", licIssued: "2026-02-01", licExpires: "2027-01-31"})
	addPet(t, st, pet{name: "Current", born: "2020-01-01", licIssued: "2026-02-01", licExpires: "2027-01-31", vaccinated: "2024-09-01", months: 36})
	addPet(t, st, pet{name: "Unlicensed", born: "2020-01-01", vaccinated: "2023-01-01", months: 12})
	addPet(t, st, pet{name: "Revoked", born: "2020-01-01", licIssued: "2026-02-01", licExpires: "2027-01-31", vaccinated: "2023-01-01", months: 12, revoked: true})
	addPet(t, st, pet{name: "Puppy", born: "2026-04-01", licIssued: "2026-05-01", licExpires: "2027-01-31"})

	rep, err := m.LapsedRabies(context.Background(), 0)
	if err != nil {
		t.Fatal(err)
	}
	if rep.AsOf != service.MustDate("2026-06-15") || rep.Licensed != 4 || len(rep.Rows) != 2 {
		t.Fatalf("report = as of %s, %d licensed, rows %+v; want 2026-06-15, 4 licensed, the lapsed and the never vaccinated", rep.AsOf, rep.Licensed, rep.Rows)
	}
	if r := rep.Rows[0]; r.AnimalID != none || r.State != rules.RabiesNone || r.Section != "66.10" || r.Owner != "=Owner of Never" {
		t.Errorf("first row = %+v; want the dog with none on file (66.10) first", r)
	}
	if r := rep.Rows[1]; r.AnimalID != lapsed || r.State != rules.RabiesExpired || r.ValidUntil != service.MustDate("2026-05-01") || r.DaysLapsed != 45 {
		t.Errorf("second row = %+v; want lapsed after 2026-05-01, 45 days", r)
	}
	bars := rep.ByJurisdiction()
	if len(bars) != 2 || bars[0].Label != "minneapolis expired" || bars[0].Value != 1 || bars[1].Label != "minneapolis none" {
		t.Errorf("bars = %+v", bars)
	}
	var b bytes.Buffer
	if err := rep.WriteCSV(&b); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&b).ReadAll()
	if err != nil || len(rows) != 3 || rows[0][9] != "rabies_state" || rows[1][4] != "'=Owner of Never" || rows[2][11] != "2026-05-01" {
		t.Errorf("CSV = %q, %v; want a header, two rows, the owner's formula neutralised", rows, err)
	}
	svg := string(money.BarChart("Lapsed", bars, money.Count))
	if !strings.HasPrefix(svg, "<svg") || !strings.Contains(svg, "minneapolis none") {
		t.Errorf("chart = %.80s", svg)
	}
}

// TestReport_DangerousRegister_64_110: every animal with a designation
// in force, with each requirement's state from the incidents layer
// (64.110(g) microchip within 15 days: overdue when not met; met; not
// applicable to a potentially dangerous dog), most overdue first; a
// rescinded designation is off the register.
func TestReport_DangerousRegister_64_110(t *testing.T) {
	st, _, in := animalReportsEnv(t, "2026-06-15")
	ctx := context.Background()
	late := addPet(t, st, pet{name: "Late", born: "2020-01-01"})
	kept := addPet(t, st, pet{name: "Kept", born: "2020-01-01"})
	pd := addPet(t, st, pet{name: "Maybe", born: "2020-01-01"})
	gone := addPet(t, st, pet{name: "Gone", born: "2020-01-01"})
	for _, d := range []*service.DangerousDesignation{
		{AnimalID: late, Level: service.Dangerous, Jurisdiction: "minneapolis", DeclaredOn: service.MustDate("2026-05-01")},
		{AnimalID: kept, Level: service.Dangerous, Jurisdiction: "minneapolis", DeclaredOn: service.MustDate("2026-06-10"), MicrochipOn: service.MustDate("2026-06-12")},
		{AnimalID: pd, Level: service.PotentiallyDangerous, Jurisdiction: "minneapolis", DeclaredOn: service.MustDate("2026-06-01")},
		{AnimalID: gone, Level: service.Dangerous, Jurisdiction: "minneapolis", DeclaredOn: service.MustDate("2026-01-01"), RescindedOn: service.MustDate("2026-03-01")},
	} {
		if _, err := in.Designate(ctx, d); err != nil {
			t.Fatal(err)
		}
	}
	reg, err := in.Register(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(reg.Entries) != 3 || reg.Entries[0].AnimalID != late || reg.Entries[0].Overdue == 0 {
		t.Fatalf("register = %+v; want three animals, the one with overdue requirements first", reg.Entries)
	}
	status := func(animal int64, what string) (rules.RequirementStatus, string) {
		for _, e := range reg.Entries {
			if e.AnimalID != animal {
				continue
			}
			for _, r := range e.Requirements {
				if r.What == what && r.Section == "64.110(g)" {
					return r.Status, r.Section
				}
			}
			for _, r := range e.Requirements {
				if r.What == what {
					return r.Status, r.Section
				}
			}
		}
		return "", ""
	}
	for _, tt := range []struct {
		animal  int64
		what    string
		want    rules.RequirementStatus
		section string
	}{
		{late, "microchip", rules.RequirementOverdue, "64.110(g)"},
		{kept, "microchip", rules.RequirementMet, "64.110(g)"},
		{kept, "sterilisation", rules.RequirementDue, "64.110(i)"},
		{pd, "sterilisation", rules.RequirementNotApplicable, "64.110(i)"},
	} {
		if got, sec := status(tt.animal, tt.what); got != tt.want || sec != tt.section {
			t.Errorf("animal %d %s = %s (%s), want %s (%s)", tt.animal, tt.what, got, sec, tt.want, tt.section)
		}
	}
	bars := reg.Bars()
	var total int64
	for _, b := range bars {
		total += b.Value
	}
	n := 0
	for _, e := range reg.Entries {
		n += len(e.Requirements)
	}
	if len(bars) != 4 || bars[2].Label != "overdue" || bars[2].Value == 0 || total != int64(n) {
		t.Errorf("bars = %+v; want met, due, overdue, not_applicable counting all %d requirements", bars, n)
	}
	var b bytes.Buffer
	if err := reg.WriteCSV(&b); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&b).ReadAll()
	if err != nil || len(rows) != n+1 || rows[0][10] != "status" || rows[1][5] != "minneapolis" || rows[1][4] != "'=Owner of Late" {
		t.Errorf("CSV = %q, %v; want a header and a row per requirement", rows[:min(len(rows), 2)], err)
	}
}
