package permits_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/permits"
)

// TestKennel_5_18c_SeparateLicencePerPlace: a separate licence is
// obtained for each place of business; a second licence for a place
// with one in force is refused, another place is licensed, and the same
// place is renewed for the next term.
func TestKennel_5_18c_SeparateLicencePerPlace(t *testing.T) {
	f := newFixture(t, "2026-03-10")
	ctx := context.Background()
	apply := func(property, issued string) (*service.Permit, error) {
		a := completeKennel()
		a.Property = property
		return f.svc.Apply(ctx, &permits.Request{Kind: service.PermitKennel, Jurisdiction: "chanhassen", Class: "private", Holder: "Kari Berg",
			Issued: d(issued), Inspection: passed("2026-03-09"), Application: a})
	}
	first, err := apply("10 acres, Lot 4, Pioneer Trail", "2026-03-10")
	if err != nil || first.State != service.PermitGranted {
		t.Fatalf("first licence = %+v, %v", first, err)
	}
	_, err = apply("10 ACRES,  lot 4, Pioneer Trail", "2026-04-01")
	wantErr(t, err, service.ECONFLICT, "5-18(c)")
	if service.ErrorField(err) != "application.property" {
		t.Errorf("field = %q, want application.property", service.ErrorField(err))
	}
	other, err := apply("2 acres, Lot 9, Lyman Blvd", "2026-04-01")
	if err != nil || other.State != service.PermitGranted {
		t.Errorf("another place of business = %+v, %v; want its own licence (5-18(c))", other, err)
	}
	f.at("2026-11-20")
	next, err := f.svc.Renew(ctx, first.ID, &permits.Request{Applied: d("2026-11-20"), Inspection: passed("2026-11-20")})
	if err != nil || next.State != service.PermitGranted || next.IssuedOn != d("2027-01-01") || next.ExpiresOn != d("2027-12-31") {
		t.Errorf("renewal of the same place = %+v, %v; want granted 2027-01-01 to 2027-12-31", next, err)
	}
	if _, err := apply("10 acres, Lot 4, Pioneer Trail", "2027-02-01"); service.ErrorCode(err) != service.ECONFLICT {
		t.Errorf("a new licence beside the renewal = %v, want 409 (5-18(c))", err)
	}
}

// horses is a stable application meeting every condition of 5-104.
func horses(acres float64, n int) service.PermitApplication {
	return service.PermitApplication{Property: "Lot 4", Acres: acres, Animals: n,
		Conditions: []string{"fence", "shelter", "no-nuisance", "sanitary", "no-pollution", "manure-well", "manure-removal", "wetland"}}
}

// TestStable_5_87_RunningAtLarge: an escape is recorded with the city's
// recovery charge of at least $25.00 (5-87(a)); one needing recovery by
// the city suspends the permit until the stable inspector reinspects
// the premises and the inspection is paid for (5-87(b)).
func TestStable_5_87_RunningAtLarge(t *testing.T) {
	f := newFixture(t, "2026-03-10")
	ctx := context.Background()
	p, err := f.svc.Apply(ctx, &permits.Request{Kind: service.PermitStable, Jurisdiction: "chanhassen", Holder: "Kari Berg", Inspection: passed("2026-03-01"), Application: horses(3, 2)})
	if err != nil || p.State != service.PermitGranted {
		t.Fatalf("Apply = %+v, %v", p, err)
	}
	low := int64(2000)
	_, err = f.svc.Escape(ctx, p.ID, service.HorseEscape{On: d("2026-03-05"), RecoveredByCity: true, RecoveryCents: &low})
	wantErr(t, err, service.EINVALID, "5-87(a)")
	if service.ErrorField(err) != "recovery_cents" {
		t.Errorf("field = %q, want recovery_cents", service.ErrorField(err))
	}
	_, err = f.svc.Escape(ctx, p.ID, service.HorseEscape{On: d("2026-03-11")})
	wantErr(t, err, service.EINVALID, "future")

	got, err := f.svc.Escape(ctx, p.ID, service.HorseEscape{On: d("2026-03-04"), Notes: "back in its paddock by the owner"})
	if err != nil || got.State != service.PermitGranted || len(got.Escapes) != 1 {
		t.Fatalf("escape not recovered by the city = %+v, %v; want recorded, permit still granted (5-87(a))", got, err)
	}
	got, err = f.svc.Escape(ctx, p.ID, service.HorseEscape{On: d("2026-03-05"), RecoveredByCity: true})
	if err != nil || got.State != service.PermitSuspended || got.SuspendedUnder != "5-87(b)" || got.ActionOn != d("2026-03-05") {
		t.Fatalf("escape recovered by the city = %+v, %v; want suspended under 5-87(b)", got, err)
	}
	if e := got.Escapes[1]; e.RecoveryCents == nil || *e.RecoveryCents != 2500 {
		t.Errorf("recovery charge = %v, want the least of 5-87(a), $25.00", e.RecoveryCents)
	}
	due, err := f.svc.Due(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !hasItem(due, "stable-suspended", "5-87(b)") {
		t.Errorf("officer's list = %+v, want the suspended stable (5-87(b))", due)
	}
	got, err = f.svc.Inspect(ctx, p.ID, permits.Inspection{On: d("2026-03-08"), Passed: true})
	if err != nil || got.State != service.PermitSuspended || !strings.Contains(strings.Join(got.Pending, "|"), "Payment") {
		t.Errorf("reinspected, not paid = %+v, %v; want still suspended awaiting payment (5-87(b))", got, err)
	}
	got, err = f.svc.Inspect(ctx, p.ID, permits.Inspection{On: d("2026-03-09"), Passed: false, FeePaid: true})
	if err != nil || got.State != service.PermitSuspended {
		t.Errorf("failed reinspection = %+v, %v; want still suspended (5-87(b))", got, err)
	}
	got, err = f.svc.Inspect(ctx, p.ID, permits.Inspection{On: d("2026-03-10"), Passed: true, FeePaid: true})
	if err != nil || got.State != service.PermitGranted || got.SuspendedUnder != "" || len(got.Pending) != 0 || !strings.Contains(got.Reason, "5-87(b)") {
		t.Errorf("reinspected and paid = %+v, %v; want granted again (5-87(b))", got, err)
	}
}

// at sets the fixture's clock to noon on day, in the same zone.
func (f *fixture) at(day string) { f.now = d(day).Time(f.now.Location()).Add(12 * time.Hour) }

func hasItem(items []permits.Item, what, source string) bool {
	for _, it := range items {
		if it.What == what && strings.Contains(it.Source, source) {
			return true
		}
	}
	return false
}

// TestStable_5_88_ExistingStables: horses kept by April 24, 1975 are
// exempt from 5-104(a)(1), (a)(2) and (a)(4), but not beyond the number
// stabled as of April 25, 1975 nor with an enclosure enlarged; the
// exemption is void on subdivision or a break of more than a year.
func TestStable_5_88_ExistingStables(t *testing.T) {
	noShelter := func(acres float64, n int) service.PermitApplication {
		a := horses(acres, n)
		a.Conditions = []string{"fence", "no-nuisance", "sanitary", "no-pollution", "manure-well", "manure-removal", "wetland"}
		a.StabledSince, a.Horses1975 = d("1970-05-01"), 3
		return a
	}
	tests := []struct {
		name    string
		change  func(*service.PermitApplication)
		code    string
		section string
		state   service.PermitState
		note    string
	}{
		{"existing: exempt from acreage and shelter (5-88(a))", func(a *service.PermitApplication) {}, "", "", service.PermitGranted, "5-88(a)"},
		{"more horses than in 1975 (5-88(a)(2))", func(a *service.PermitApplication) { a.Animals = 4 }, service.ECONFLICT, "5-88(a)(2)", "", ""},
		{"enclosure enlarged (5-88(a)(1))", func(a *service.PermitApplication) { a.EnclosureEnlarged = true }, service.ECONFLICT, "5-88(a)(1)", "", ""},
		{"1975 count not stated: pending (5-88(a)(2))", func(a *service.PermitApplication) { a.Horses1975 = 0 }, "", "", service.PermitPending, "5-88(a)"},
		{"kept since after April 24, 1975: no exemption (5-104(a)(2))", func(a *service.PermitApplication) { a.StabledSince = d("1975-04-25") }, service.ECONFLICT, "5-104(a)(2)", "", ""},
		{"subdivided: exemption void (5-88(b)(1))", func(a *service.PermitApplication) { a.SubdividedOn = d("2001-06-01") }, service.ECONFLICT, "5-104(a)(2)", "", ""},
		{"discontinued 13 months: exemption void (5-88(b)(2))", func(a *service.PermitApplication) {
			a.DiscontinuedFrom, a.DiscontinuedTo = d("2020-01-01"), d("2021-02-01")
		}, service.ECONFLICT, "5-104(a)(2)", "", ""},
		{"discontinued 12 months: still exempt (5-88(b)(2))", func(a *service.PermitApplication) {
			a.DiscontinuedFrom, a.DiscontinuedTo = d("2020-01-01"), d("2021-01-01")
		}, "", "", service.PermitGranted, "5-88(a)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, "2026-03-10")
			a := noShelter(0.5, 3)
			tt.change(&a)
			p, err := f.svc.Apply(context.Background(), &permits.Request{Kind: service.PermitStable, Jurisdiction: "chanhassen", Holder: "Kari Berg",
				Inspection: passed("2026-03-10"), Application: a})
			if tt.code != "" {
				wantErr(t, err, tt.code, tt.section)
				return
			}
			if err != nil || p.State != tt.state || !strings.Contains(p.Exemption, tt.note) {
				t.Fatalf("Apply = %+v, %v; want %s, exemption citing %s", p, err, tt.state, tt.note)
			}
		})
	}
	t.Run("void exemption stated on the permit (5-88(b)(1))", func(t *testing.T) {
		f := newFixture(t, "2026-03-10")
		a := noShelter(3, 2)
		a.Conditions = append(a.Conditions, "shelter")
		a.SubdividedOn = d("2001-06-01")
		p, err := f.svc.Apply(context.Background(), &permits.Request{Kind: service.PermitStable, Jurisdiction: "chanhassen", Holder: "Kari Berg",
			Inspection: passed("2026-03-10"), Application: a})
		if err != nil || p.State != service.PermitGranted || !strings.Contains(p.Exemption, "5-88(b)(1)") {
			t.Fatalf("Apply = %+v, %v; want granted on the full conditions, exemption void (5-88(b)(1))", p, err)
		}
	})
}

// TestPermitSteps_NoFutureDates: a step of a permit dated after today
// is refused naming its field, as every date of the layer is: an
// inspection, a grant, an action, its notice or hearing, an appeal and
// its order, a registration, a renewal application.
func TestPermitSteps_NoFutureDates(t *testing.T) {
	f := newFixture(t, "2026-03-10")
	ctx := context.Background()
	tomorrow := d("2026-03-11")
	kennel, err := f.svc.Apply(ctx, &permits.Request{Kind: service.PermitKennel, Jurisdiction: "chanhassen", Class: "private", Holder: "Kari Berg", Application: completeKennel()})
	if err != nil {
		t.Fatal(err)
	}
	stable, err := f.svc.Apply(ctx, &permits.Request{Kind: service.PermitStable, Jurisdiction: "chanhassen", Holder: "Kari Berg", Inspection: passed("2026-03-01"), Application: horses(3, 2)})
	if err != nil {
		t.Fatal(err)
	}
	granted, err := f.svc.Apply(ctx, &permits.Request{Kind: service.PermitKennel, Jurisdiction: "chanhassen", Class: "private", Holder: "Eva Sund", Inspection: passed("2026-03-01"), Application: completeKennel()})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name, field string
		step        func() error
	}{
		{"inspection (5-18(d))", "on", func() error {
			_, err := f.svc.Inspect(ctx, kennel.ID, permits.Inspection{On: tomorrow, Passed: true})
			return err
		}},
		{"grant", "on", func() error { _, err := f.svc.Grant(ctx, kennel.ID, tomorrow); return err }},
		{"revocation (5-106)", "on", func() error {
			_, err := f.svc.Act(ctx, stable.ID, permits.Action{Action: "revoke", Ground: "control", On: tomorrow})
			return err
		}},
		{"hearing not yet held (5-106)", "hearing_on", func() error {
			_, err := f.svc.Act(ctx, stable.ID, permits.Action{Action: "revoke", Ground: "control", NoticeOn: d("2026-03-01"), HearingOn: tomorrow})
			return err
		}},
		{"registration (5-105)", "on", func() error { _, err := f.svc.Register(ctx, stable.ID, tomorrow); return err }},
		{"escape (5-87)", "on", func() error { _, err := f.svc.Escape(ctx, stable.ID, service.HorseEscape{On: tomorrow}); return err }},
		{"renewal application (5-18(c))", "applied", func() error {
			_, err := f.svc.Renew(ctx, granted.ID, &permits.Request{Applied: tomorrow})
			return err
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.step()
			if service.ErrorCode(err) != service.EINVALID || service.ErrorField(err) != tt.field || !strings.Contains(service.ErrorMessage(err), "future") {
				t.Errorf("err = %v (field %q), want invalid, field %s, in the future", err, service.ErrorField(err), tt.field)
			}
		})
	}
}
