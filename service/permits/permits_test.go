package permits_test

import (
	"context"
	"github.com/chipdesk/chipdesk/service/incidents"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/lookup"
	"github.com/chipdesk/chipdesk/service/permits"
	"github.com/chipdesk/chipdesk/service/rules"
	"github.com/chipdesk/chipdesk/service/store/sqlite"
)

type fixture struct {
	t     *testing.T
	svc   *permits.Service
	store *sqlite.DB
	now   time.Time
}

func d(s string) service.Date { return service.MustDate(s) }

// newFixture serves permits over a fresh SQLite store with the clock at
// noon in Chicago on day.
func newFixture(t *testing.T, day string) *fixture {
	t.Helper()
	loc, err := time.LoadLocation("America/Chicago")
	if err != nil {
		t.Skipf("no zoneinfo: %v", err)
	}
	f := &fixture{t: t, now: d(day).Time(loc).Add(12 * time.Hour)}
	now := func() time.Time { return f.now }
	st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "db"), &sqlite.Opts{Now: now, Location: loc})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	rs, err := rules.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	f.store = st
	f.svc, err = permits.New(&permits.Opts{Store: st, Rules: rs, Now: now})
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func (f *fixture) dog(dangerous service.DangerLevel, jurisdiction string) (*service.Owner, *service.Animal) {
	f.t.Helper()
	ctx := context.Background()
	o := &service.Owner{Name: "Ada Lindqvist", Address: "3401 Chicago Ave", City: "Minneapolis"}
	if err := f.store.CreateOwner(ctx, o); err != nil {
		f.t.Fatal(err)
	}
	a := &service.Animal{OwnerID: o.ID, Name: "Biscuit", Species: service.Dog, Altered: true, BirthDate: d("2022-01-01")}
	if err := f.store.CreateAnimal(ctx, a); err != nil {
		f.t.Fatal(err)
	}
	if dangerous != "" {
		if err := f.store.CreateDesignation(ctx, &service.DangerousDesignation{AnimalID: a.ID, Level: dangerous, Jurisdiction: jurisdiction, DeclaredOn: d("2026-01-05")}); err != nil {
			f.t.Fatal(err)
		}
	}
	return o, a
}

// completeKennel is an application with every content of 5-18(b).
func completeKennel() service.PermitApplication {
	yes := true
	return service.PermitApplication{
		Property:      "10 acres, Lot 4, Pioneer Trail",
		PremisesOwner: &service.Person{Name: "Kari Berg", Address: "9000 Pioneer Trail"},
		References: []service.Reference{
			{Person: service.Person{Name: "Ola Nord", Address: "1 Main St, Chaska"}, County: "Carver"},
			{Person: service.Person{Name: "Eva Sund", Address: "2 Elm, Minnetonka"}, County: "Hennepin"},
		},
		ConvictionsDeclared: true,
		Contacts:            []service.Person{{Name: "Kari Berg", Phone: "952-555-0100", Address: "9000 Pioneer Trail"}},
		InterestDocument:    "deed",
		Sworn:               true,
		ZoningCompliant:     &yes,
		Acres:               10,
	}
}

func passed(on string) *permits.Inspection { return &permits.Inspection{On: d(on), Passed: true} }

func wantErr(t *testing.T, err error, code, section string) {
	t.Helper()
	if service.ErrorCode(err) != code || !strings.Contains(service.ErrorMessage(err), section) {
		t.Fatalf("error %v, want %s citing %s", err, code, section)
	}
}

// TestKennel_5_18c_Expiry: a kennel licence expires on the December 31
// following its issuance, and its renewal is due by December 1.
func TestKennel_5_18c_Expiry(t *testing.T) {
	f := newFixture(t, "2026-03-10")
	for _, tt := range []struct {
		name, issued, expires, renewal string
	}{
		{"issued in March (5-18(c))", "2026-03-10", "2026-12-31", "2026-12-01"},
		{"issued on December 31: the next one (5-18(c))", "2026-12-31", "2027-12-31", "2027-12-01"},
		{"issued on December 30 (5-18(c))", "2026-12-30", "2026-12-31", "2026-12-01"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p, err := f.svc.Apply(context.Background(), &permits.Request{Kind: service.PermitKennel, Jurisdiction: "Chanhassen", Class: "private",
				Holder: "Kari Berg " + tt.issued, Issued: d(tt.issued), Inspection: passed("2026-03-09"), Application: completeKennel()})
			if err != nil {
				t.Fatal(err)
			}
			if p.State != service.PermitGranted || p.ExpiresOn != d(tt.expires) || p.RenewalDue != d(tt.renewal) || p.IssuedOn != d(tt.issued) {
				t.Errorf("permit = state %s issued %s expires %s renewal %s; want granted %s, %s, %s", p.State, p.IssuedOn, p.ExpiresOn, p.RenewalDue, tt.issued, tt.expires, tt.renewal)
			}
			if p.FeeCents != nil || p.FeeSource != "5-18(c)" || !strings.Contains(p.FeeNote, "chapter 4") {
				t.Errorf("fee = %v %q %q; want not set, 5-18(c), chapter 4", p.FeeCents, p.FeeSource, p.FeeNote)
			}
		})
	}
}

// TestKennel_MinimalApplication_5_18b: an application missing contents
// is pending (5-18.1(c)) but shows the term it will have.
func TestKennel_MinimalApplication_5_18b(t *testing.T) {
	f := newFixture(t, "2026-03-10")
	p, err := f.svc.Apply(context.Background(), &permits.Request{Kind: service.PermitKennel, Jurisdiction: "chanhassen", Class: "commercial", Holder: "Kari Berg", Issued: d("2026-03-10")})
	if err != nil {
		t.Fatal(err)
	}
	if p.State != service.PermitPending || p.ExpiresOn != d("2026-12-31") || !p.IssuedOn.IsZero() {
		t.Errorf("permit = %s issued %s expires %s; want pending, not issued, expires 2026-12-31", p.State, p.IssuedOn, p.ExpiresOn)
	}
	for _, sec := range []string{"5-18(b)(1)", "5-18(b)(2)", "5-18(b)(3)", "5-18(b)(4)", "5-18(b)(5)", "5-18(b)", "5-18(d)", "5-18.2(b)(3)"} {
		if !strings.Contains(strings.Join(p.Pending, "|"), sec) {
			t.Errorf("pending %q does not cite %s", p.Pending, sec)
		}
	}
	// A private kennel needs no contact person (5-18.2(b)(1) is for
	// commercial kennels).
	a := completeKennel()
	a.Contacts = nil
	q, err := f.svc.Apply(context.Background(), &permits.Request{Kind: service.PermitKennel, Jurisdiction: "chanhassen", Class: "private", Holder: "Ola Nord", Application: a, Inspection: passed("2026-03-10")})
	if err != nil || q.State != service.PermitGranted {
		t.Errorf("private kennel without contact = %+v, %v; want granted (5-18.2(b)(1))", q, err)
	}
	a.References = a.References[:1]
	q, err = f.svc.Apply(context.Background(), &permits.Request{Kind: service.PermitKennel, Jurisdiction: "chanhassen", Class: "private", Holder: "Per Nord", Application: a, Inspection: passed("2026-03-10")})
	if err != nil || q.State != service.PermitPending || !strings.Contains(strings.Join(q.Pending, "|"), "5-18(b)(3)") {
		t.Errorf("one reference = %+v, %v; want pending on 5-18(b)(3)", q, err)
	}
}

// TestKennel_Refusals_5_18_1: the refusals of 5-18.1 and 5-18.2(b)(3),
// and the agricultural-cats exception of 5-18(a).
func TestKennel_Refusals_5_18_1(t *testing.T) {
	no := false
	tests := []struct {
		name    string
		class   string
		edit    func(a *service.PermitApplication)
		code    string
		section string
	}{
		{"conviction for cruelty (5-18.1(a))", "private", func(a *service.PermitApplication) {
			a.Convictions = []service.Conviction{{Offence: "cruelty-to-animals", On: d("2019-05-01")}}
		}, service.ECONFLICT, "5-18.1(a)"},
		{"conviction for a kennel offence (5-18.1(a))", "private", func(a *service.PermitApplication) {
			a.Convictions = []service.Conviction{{Offence: "kennel-operation"}}
		}, service.ECONFLICT, "5-18.1(a)"},
		{"conviction for an animal nuisance (5-18.1(a))", "private", func(a *service.PermitApplication) {
			a.Convictions = []service.Conviction{{Offence: "animal-nuisance"}}
		}, service.ECONFLICT, "5-18.1(a)"},
		{"denied 11 months before (5-18.1(b))", "private", func(a *service.PermitApplication) { a.PriorDenialOn = d("2025-04-10") }, service.ECONFLICT, "5-18.1(b)"},
		{"revoked 12 months before to the day (5-18.1(b))", "private", func(a *service.PermitApplication) { a.PriorRevocationOn = d("2025-03-10") }, service.ECONFLICT, "5-18.1(b)"},
		{"zoning (5-18.1(d))", "private", func(a *service.PermitApplication) { a.ZoningCompliant = &no }, service.ECONFLICT, "5-18.1(d)"},
		{"commercial on less than one acre (5-18.2(b)(3))", "commercial", func(a *service.PermitApplication) { a.Acres = 0.9 }, service.ECONFLICT, "5-18.2(b)(3)"},
		{"agricultural cats need no licence (5-18(a))", "private", func(a *service.PermitApplication) {
			a.Species, a.AgriculturalLand, a.RodentControl = "cat", true, true
		}, service.EINVALID, "5-18(a)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, "2026-03-10")
			a := completeKennel()
			tt.edit(&a)
			p, err := f.svc.Apply(context.Background(), &permits.Request{Kind: service.PermitKennel, Jurisdiction: "chanhassen", Class: tt.class,
				Holder: "Kari Berg", Applied: d("2026-03-10"), Inspection: passed("2026-03-10"), Application: a})
			wantErr(t, err, tt.code, tt.section)
			if tt.code == service.ECONFLICT && (p == nil || p.State != service.PermitDenied || p.ID == 0) {
				t.Errorf("refused application = %+v; want it stored denied (5-18.1(b) counts it)", p)
			}
		})
	}
	t.Run("revoked 13 months before is no bar (5-18.1(b))", func(t *testing.T) {
		f := newFixture(t, "2026-03-10")
		a := completeKennel()
		a.PriorRevocationOn = d("2025-02-09")
		if _, err := f.svc.Apply(context.Background(), &permits.Request{Kind: service.PermitKennel, Jurisdiction: "chanhassen", Class: "private", Holder: "Kari Berg", Application: a, Inspection: passed("2026-03-10")}); err != nil {
			t.Errorf("Apply = %v, want granted", err)
		}
	})
	t.Run("a denial here bars a new application within the year (5-18.1(b))", func(t *testing.T) {
		f := newFixture(t, "2026-03-10")
		a := completeKennel()
		a.Convictions = []service.Conviction{{Offence: "cruelty-to-animals"}}
		_, err := f.svc.Apply(context.Background(), &permits.Request{Kind: service.PermitKennel, Jurisdiction: "chanhassen", Class: "private", Holder: "Kari Berg", Application: a})
		wantErr(t, err, service.ECONFLICT, "5-18.1(a)")
		f.now = f.now.AddDate(0, 6, 0)
		_, err = f.svc.Apply(context.Background(), &permits.Request{Kind: service.PermitKennel, Jurisdiction: "chanhassen", Class: "private", Holder: "Kari Berg", Application: completeKennel()})
		wantErr(t, err, service.ECONFLICT, "5-18.1(b)")
	})
}

// TestKennel_InspectionBeforeGrant_5_18d: no grant before the
// inspection; a failed inspection denies.
func TestKennel_InspectionBeforeGrant_5_18d(t *testing.T) {
	f := newFixture(t, "2026-03-10")
	ctx := context.Background()
	p, err := f.svc.Apply(ctx, &permits.Request{Kind: service.PermitKennel, Jurisdiction: "chanhassen", Class: "commercial", Holder: "Kari Berg", Application: completeKennel()})
	if err != nil || p.State != service.PermitPending || len(p.Pending) != 1 || !strings.Contains(p.Pending[0], "5-18(d)") {
		t.Fatalf("Apply = %+v, %v; want pending on the inspection (5-18(d))", p, err)
	}
	_, err = f.svc.Grant(ctx, p.ID, 0)
	wantErr(t, err, service.ECONFLICT, "5-18(d)")
	g, err := f.svc.Inspect(ctx, p.ID, permits.Inspection{On: d("2026-03-10"), Passed: true})
	if err != nil || g.State != service.PermitGranted || g.IssuedOn != d("2026-03-10") || g.ExpiresOn != d("2026-12-31") {
		t.Fatalf("Inspect passed = %+v, %v; want granted today until 2026-12-31", g, err)
	}
	q, err := f.svc.Apply(ctx, &permits.Request{Kind: service.PermitKennel, Jurisdiction: "chanhassen", Class: "commercial", Holder: "Eva Sund", Application: completeKennel()})
	if err != nil {
		t.Fatal(err)
	}
	_, err = f.svc.Inspect(ctx, q.ID, permits.Inspection{On: d("2026-03-10"), Passed: false})
	wantErr(t, err, service.ECONFLICT, "5-18(d)")
	if got, _ := f.svc.Get(ctx, q.ID); got.State != service.PermitDenied {
		t.Errorf("after a failed inspection state = %s, want denied", got.State)
	}
}

// TestKennel_Actions_5_18e_f: revocation, suspension and non-renewal on
// the grounds of 5-18(e); the notice of appeal within 10 days and the
// hearing on or after 15 days from it (5-18(f)).
func TestKennel_Actions_5_18e_f(t *testing.T) {
	tests := []struct {
		name, action, ground, source string
		appealOn                     string
		wantCode                     string
		hearingFrom                  string
	}{
		{"revoked for fraud, appeal on day 10 (5-18(e)(1), 5-18(f))", "revoke", "fraud", "5-18(e)(1)", "2026-06-11", "", "2026-06-26"},
		{"suspended for a nuisance, appeal on day 11 is late (5-18(e)(5), 5-18(f))", "suspend", "nuisance", "5-18(e)(5)", "2026-06-12", service.ECONFLICT, ""},
		{"not renewed for zoning, appeal the same day (5-18(e)(4))", "not_renew", "zoning", "5-18(e)(4)", "2026-06-01", "", "2026-06-16"},
		{"rules violation (5-18(e)(3))", "revoke", "rules", "5-18(e)(3)", "2026-06-05", "", "2026-06-20"},
		{"refusal grounds (5-18(e)(2))", "suspend", "refusal-grounds", "5-18(e)(2)", "2026-06-02", "", "2026-06-17"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, "2026-03-10")
			ctx := context.Background()
			p, err := f.svc.Apply(ctx, &permits.Request{Kind: service.PermitKennel, Jurisdiction: "chanhassen", Class: "private", Holder: "Kari Berg", Application: completeKennel(), Inspection: passed("2026-03-10")})
			if err != nil {
				t.Fatal(err)
			}
			_, err = f.svc.Act(ctx, p.ID, permits.Action{Action: tt.action, Ground: "barking"})
			wantErr(t, err, service.EINVALID, "fraud")
			f.now = f.now.AddDate(0, 0, 83) // 2026-06-01
			a, err := f.svc.Act(ctx, p.ID, permits.Action{Action: tt.action, Ground: tt.ground})
			if err != nil || !strings.Contains(a.Reason, tt.source) || a.AppealBy != d("2026-06-11") {
				t.Fatalf("Act = %+v, %v; want reason citing %s, appeal by 2026-06-11", a, err, tt.source)
			}
			f.at(tt.appealOn) // the notice is filed that day
			got, err := f.svc.Appeal(ctx, p.ID, d(tt.appealOn))
			if tt.wantCode != "" {
				wantErr(t, err, tt.wantCode, "5-18(f)")
				return
			}
			if err != nil || got.HearingFrom != d(tt.hearingFrom) || got.AppealFiledOn != d(tt.appealOn) {
				t.Errorf("Appeal = %+v, %v; want hearing from %s", got, err, tt.hearingFrom)
			}
		})
	}
}

// TestKennel_Renewal_5_18c: renewal applications are due by December 1;
// the renewal runs to the next December 31.
func TestKennel_Renewal_5_18c(t *testing.T) {
	f := newFixture(t, "2026-03-10")
	ctx := context.Background()
	p, err := f.svc.Apply(ctx, &permits.Request{Kind: service.PermitKennel, Jurisdiction: "chanhassen", Class: "private", Holder: "Kari Berg", Application: completeKennel(), Inspection: passed("2026-03-10")})
	if err != nil {
		t.Fatal(err)
	}
	f.now = time.Date(2026, 12, 2, 18, 0, 0, 0, time.UTC)
	_, err = f.svc.Renew(ctx, p.ID, &permits.Request{Inspection: passed("2026-12-01")})
	wantErr(t, err, service.ECONFLICT, "5-18(c)")
	f.now = time.Date(2026, 12, 1, 18, 0, 0, 0, time.UTC)
	r, err := f.svc.Renew(ctx, p.ID, &permits.Request{Inspection: passed("2026-11-20")})
	if err != nil || r.Renews != p.ID || r.IssuedOn != d("2027-01-01") || r.ExpiresOn != d("2027-12-31") {
		t.Fatalf("Renew = %+v, %v; want from 2027-01-01 to 2027-12-31", r, err)
	}
}

// TestOfficerList_LapsedKennel: a kennel whose licence lapsed without
// renewal is on the officer's list (5-18(a), (c)).
func TestOfficerList_LapsedKennel(t *testing.T) {
	f := newFixture(t, "2026-03-10")
	ctx := context.Background()
	p, err := f.svc.Apply(ctx, &permits.Request{Kind: service.PermitKennel, Jurisdiction: "chanhassen", Class: "private", Holder: "Kari Berg", Application: completeKennel(), Inspection: passed("2026-03-10")})
	if err != nil {
		t.Fatal(err)
	}
	f.now = time.Date(2026, 11, 15, 18, 0, 0, 0, time.UTC)
	items, err := f.svc.Due(ctx)
	if err != nil || len(items) != 1 || items[0].What != "renewal-due" || items[0].Due != d("2026-12-01") {
		t.Fatalf("Due in November = %+v, %v; want the renewal due 2026-12-01 (5-18(c))", items, err)
	}
	f.now = time.Date(2027, 1, 2, 18, 0, 0, 0, time.UTC)
	items, err = f.svc.Due(ctx)
	if err != nil || len(items) != 1 || items[0].What != "kennel-lapsed" || items[0].PermitID != p.ID {
		t.Fatalf("Due in January = %+v, %v; want the lapsed kennel", items, err)
	}
	if got, _ := f.svc.Get(ctx, p.ID); got.Status != "lapsed" {
		t.Errorf("status = %q, want lapsed", got.Status)
	}
}

// TestStable_5_101_5_106: conditions of issue, inspection, annual
// registration by June 1, and revocation after a hearing noticed ten
// days ahead.
func TestStable_5_101_5_106(t *testing.T) {
	all := []string{"fence", "shelter", "no-nuisance", "sanitary", "no-pollution", "manure-well", "manure-removal", "wetland"}
	tests := []struct {
		name     string
		acres    float64
		horses   int
		conds    []string
		inspect  *permits.Inspection
		code     string
		section  string
		pending  string
		expected service.PermitState
	}{
		{"lot under one acre (5-104(a)(2))", 0.9, 1, all, passed("2026-03-10"), service.ECONFLICT, "5-104(a)(2)", "", ""},
		{"one horse on one acre (5-104(a)(2))", 1, 1, all, passed("2026-03-10"), "", "", "", service.PermitGranted},
		{"two horses need 1.5 acres (5-104(a)(1))", 1.4, 2, all, passed("2026-03-10"), service.ECONFLICT, "5-104(a)(1)", "", ""},
		{"three horses on two acres (5-104(a)(1))", 2, 3, all, passed("2026-03-10"), "", "", "", service.PermitGranted},
		{"four horses need 2 1/3 acres (5-104(a)(1))", 2.3, 4, all, passed("2026-03-10"), service.ECONFLICT, "5-104(a)(1)", "", ""},
		{"four horses on 2.34 acres (5-104(a)(1))", 2.34, 4, all, passed("2026-03-10"), "", "", "", service.PermitGranted},
		{"no wetland setback: pending (5-104(a)(10))", 5, 2, all[:7], passed("2026-03-10"), "", "", "5-104(a)(10)", service.PermitPending},
		{"not inspected: pending (5-103)", 5, 2, all, nil, "", "", "5-103", service.PermitPending},
		{"disapproved by the stable inspector (5-103)", 5, 2, all, &permits.Inspection{On: d("2026-03-10")}, service.ECONFLICT, "5-103", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, "2026-03-10")
			p, err := f.svc.Apply(context.Background(), &permits.Request{Kind: service.PermitStable, Jurisdiction: "chanhassen", Holder: "Kari Berg",
				Inspection: tt.inspect, Application: service.PermitApplication{Property: "Lot 4", Acres: tt.acres, Animals: tt.horses, Conditions: tt.conds}})
			if tt.code != "" {
				wantErr(t, err, tt.code, tt.section)
				return
			}
			if err != nil || p.State != tt.expected || tt.pending != "" && !strings.Contains(strings.Join(p.Pending, "|"), tt.pending) {
				t.Fatalf("Apply = %+v, %v; want %s, pending citing %q", p, err, tt.expected, tt.pending)
			}
			if p.State == service.PermitGranted && (p.RenewalDue != d("2026-06-01") || !p.ExpiresOn.IsZero() || p.FeeCents != nil || p.FeeSource != "5-102") {
				t.Errorf("granted = registration due %s expires %s fee %v %s; want 2026-06-01, none, not set (5-102)", p.RenewalDue, p.ExpiresOn, p.FeeCents, p.FeeSource)
			}
		})
	}
	t.Run("annual registration by June 1 (5-105)", func(t *testing.T) {
		f := newFixture(t, "2026-03-10")
		ctx := context.Background()
		p, err := f.svc.Apply(ctx, &permits.Request{Kind: service.PermitStable, Jurisdiction: "chanhassen", Holder: "Kari Berg", Inspection: passed("2026-03-10"),
			Application: service.PermitApplication{Property: "Lot 4", Acres: 3, Animals: 2, Conditions: all}})
		if err != nil {
			t.Fatal(err)
		}
		f.at("2027-06-03")
		r, err := f.svc.Register(ctx, p.ID, d("2026-05-20"))
		if err != nil || r.RegisteredOn != d("2026-05-20") || r.RenewalDue != d("2027-06-01") {
			t.Fatalf("Register = %+v, %v; want next due 2027-06-01 (5-105(a))", r, err)
		}
		_, err = f.svc.Register(ctx, p.ID, d("2027-06-02"))
		wantErr(t, err, service.ECONFLICT, "5-105(b)")
		if got, _ := f.svc.Get(ctx, p.ID); got.State != service.PermitCancelled {
			t.Errorf("state = %s, want cancelled (5-105(b))", got.State)
		}
	})
	t.Run("revocation after a hearing noticed 10 days ahead (5-106)", func(t *testing.T) {
		f := newFixture(t, "2026-03-10")
		ctx := context.Background()
		p, err := f.svc.Apply(ctx, &permits.Request{Kind: service.PermitStable, Jurisdiction: "chanhassen", Holder: "Kari Berg", Inspection: passed("2026-03-10"),
			Application: service.PermitApplication{Property: "Lot 4", Acres: 3, Animals: 2, Conditions: all}})
		if err != nil {
			t.Fatal(err)
		}
		f.at("2026-05-11")
		_, err = f.svc.Act(ctx, p.ID, permits.Action{Action: "revoke", Ground: "winter-manure", NoticeOn: d("2026-05-01"), HearingOn: d("2026-05-10")})
		wantErr(t, err, service.ECONFLICT, "5-106")
		r, err := f.svc.Act(ctx, p.ID, permits.Action{Action: "revoke", Ground: "winter-manure", NoticeOn: d("2026-05-01"), HearingOn: d("2026-05-11")})
		if err != nil || r.State != service.PermitRevoked || !strings.Contains(r.Reason, "5-106(2)") || r.ActionOn != d("2026-05-11") {
			t.Errorf("Act = %+v, %v; want revoked on the hearing day citing 5-106(2)", r, err)
		}
	})
}

// TestOffLeash_64_55: fees for resident and non-resident, first and
// additional dog; expiry January 31 next; refusals.
func TestOffLeash_64_55(t *testing.T) {
	tests := []struct {
		name     string
		class    string
		nth      int
		cents    int64
		expires  string
		rabiesOK bool
		licOK    bool
		code     string
		section  string
	}{
		{"resident first dog $25 (64.55(b))", "resident", 1, 2500, "2027-01-31", true, true, "", ""},
		{"resident additional dog $15 (64.55(b))", "resident", 2, 1500, "2027-01-31", true, true, "", ""},
		{"non-resident first dog $50 (64.55(b))", "non_resident", 1, 5000, "2027-01-31", true, false, "", ""},
		{"non-resident additional dog $30 (64.55(b))", "non_resident", 3, 3000, "2027-01-31", true, false, "", ""},
		{"resident without a current licence (64.55(b))", "resident", 1, 0, "", true, false, service.ECONFLICT, "64.55(b)"},
		{"without rabies vaccination (64.55(b))", "non_resident", 1, 0, "", false, false, service.ECONFLICT, "64.55(b)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, "2026-03-10")
			_, a := f.dog("", "")
			p, err := f.svc.Apply(context.Background(), &permits.Request{Kind: service.PermitOffLeash, Jurisdiction: "minneapolis", Class: tt.class, AnimalID: a.ID,
				Application: service.PermitApplication{RulesSigned: true, RabiesVerified: tt.rabiesOK, LicenceVerified: tt.licOK, DogNumber: tt.nth}})
			if tt.code != "" {
				wantErr(t, err, tt.code, tt.section)
				return
			}
			if err != nil || p.State != service.PermitGranted || p.FeeCents == nil || *p.FeeCents != tt.cents || p.FeeSource != "64.55(b)" ||
				p.ExpiresOn != d(tt.expires) || p.TagNumber != 1 || p.Holder != "Ada Lindqvist" {
				t.Errorf("permit = %+v, %v; want granted, %d cents (64.55(b)), expires %s, registration number 1", p, err, tt.cents, tt.expires)
			}
		})
	}
	t.Run("second dog of the same owner counts as additional (64.55(b))", func(t *testing.T) {
		f := newFixture(t, "2026-03-10")
		o, a := f.dog("", "")
		b := &service.Animal{OwnerID: o.ID, Name: "Mo", Species: service.Dog}
		if err := f.store.CreateAnimal(context.Background(), b); err != nil {
			t.Fatal(err)
		}
		app := service.PermitApplication{RulesSigned: true, RabiesVerified: true, LicenceVerified: true}
		_, err := f.svc.Apply(context.Background(), &permits.Request{Kind: service.PermitOffLeash, Jurisdiction: "minneapolis", Class: "resident", AnimalID: a.ID, Application: app})
		if err != nil {
			t.Fatal(err)
		}
		p, err := f.svc.Apply(context.Background(), &permits.Request{Kind: service.PermitOffLeash, Jurisdiction: "minneapolis", Class: "resident", AnimalID: b.ID, Application: app})
		if err != nil || *p.FeeCents != 1500 || p.TagNumber != 2 {
			t.Errorf("second dog = %+v, %v; want $15, number 2", p, err)
		}
	})
	t.Run("rules not signed: pending (64.55(c))", func(t *testing.T) {
		f := newFixture(t, "2026-03-10")
		_, a := f.dog("", "")
		p, err := f.svc.Apply(context.Background(), &permits.Request{Kind: service.PermitOffLeash, Jurisdiction: "minneapolis", Class: "non_resident", AnimalID: a.ID,
			Application: service.PermitApplication{RabiesVerified: true}})
		if err != nil || p.State != service.PermitPending || !strings.Contains(strings.Join(p.Pending, ""), "64.55(c)") {
			t.Errorf("Apply = %+v, %v; want pending on 64.55(c)", p, err)
		}
	})
}

// TestOffLeash_Dangerous_64_55a: a dog designated dangerous under
// 64.110, or dangerous or potentially dangerous under Minn. Stat.
// 347.50, gets no off-leash permit.
func TestOffLeash_Dangerous_64_55a(t *testing.T) {
	for _, tt := range []struct {
		name  string
		level service.DangerLevel
		by    string
		under string
	}{
		{"dangerous under 64.110", service.Dangerous, "minneapolis", "64.110"},
		{"dangerous under Minn. Stat. 347.50", service.Dangerous, "chanhassen", "347.50 subd. 2"},
		{"potentially dangerous under Minn. Stat. 347.50", service.PotentiallyDangerous, "minneapolis", "347.50 subd. 3"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, "2026-03-10")
			_, a := f.dog(tt.level, tt.by)
			_, err := f.svc.Apply(context.Background(), &permits.Request{Kind: service.PermitOffLeash, Jurisdiction: "minneapolis", Class: "resident", AnimalID: a.ID,
				Application: service.PermitApplication{RulesSigned: true, RabiesVerified: true, LicenceVerified: true}})
			wantErr(t, err, service.ECONFLICT, "64.55(a)")
			wantErr(t, err, service.ECONFLICT, tt.under)
		})
	}
}

// TestMultiAnimal_64_100: more than three dogs or cats need a permit of
// $20 that expires February 1 next; a revocation takes effect ten days
// after notice; renewal needs an inspection every other year.
func TestMultiAnimal_64_100(t *testing.T) {
	f := newFixture(t, "2026-03-10")
	ctx := context.Background()
	_, err := f.svc.Apply(ctx, &permits.Request{Kind: service.PermitMultiAnimal, Jurisdiction: "minneapolis", Holder: "Ada", Address: "3401 Chicago Ave", Application: service.PermitApplication{Animals: 3}})
	wantErr(t, err, service.EINVALID, "64.100(a)")
	p, err := f.svc.Apply(ctx, &permits.Request{Kind: service.PermitMultiAnimal, Jurisdiction: "minneapolis", Holder: "Ada", Address: "3401 Chicago Ave",
		Application: service.PermitApplication{Animals: 5, Restrictions: "no outdoor runs after 22:00"}})
	if err != nil || p.State != service.PermitGranted || *p.FeeCents != 2000 || p.FeeSource != "64.100(c)" || p.ExpiresOn != d("2027-02-01") {
		t.Fatalf("Apply = %+v, %v; want $20 (64.100(c)) until 2027-02-01", p, err)
	}
	_, err = f.svc.Renew(ctx, p.ID, nil)
	wantErr(t, err, service.ECONFLICT, "64.100(c)")
	r, err := f.svc.Renew(ctx, p.ID, &permits.Request{Inspection: passed("2026-03-10")})
	if err != nil || r.IssuedOn != d("2027-02-02") || r.ExpiresOn != d("2028-02-01") {
		t.Errorf("Renew = %+v, %v; want 2027-02-02 to 2028-02-01", r, err)
	}
	_, err = f.svc.Act(ctx, p.ID, permits.Action{Action: "revoke"})
	wantErr(t, err, service.EINVALID, "64.100(b)")
	v, err := f.svc.Act(ctx, p.ID, permits.Action{Action: "revoke", NoticeOn: d("2026-03-10")})
	if err != nil || v.EffectiveOn != d("2026-03-20") || v.Status != "revocation_noticed" {
		t.Errorf("Act = %+v, %v; want effective 2026-03-20 (64.100(b))", v, err)
	}
}

// TestAnimalBusiness_68_10: the licence needs the applicant's name and
// residence, the health report and the council's authorisation; the fee
// and duration are not in the text held.
func TestAnimalBusiness_68_10(t *testing.T) {
	f := newFixture(t, "2026-03-10")
	ctx := context.Background()
	p, err := f.svc.Apply(ctx, &permits.Request{Kind: service.PermitBusiness, Jurisdiction: "minneapolis", Class: "mobile_vehicle", Holder: "Suds Mobile Grooming",
		Application: service.PermitApplication{Activities: []string{"grooming"}}})
	if err != nil || p.State != service.PermitPending {
		t.Fatalf("Apply = %+v, %v", p, err)
	}
	for _, want := range []string{"residence", "commissioner of health", "city council", "68.10(b)"} {
		if !strings.Contains(strings.Join(p.Pending, "|"), want) {
			t.Errorf("pending %q lacks %q (68.10)", p.Pending, want)
		}
	}
	_, err = f.svc.Apply(ctx, &permits.Request{Kind: service.PermitBusiness, Jurisdiction: "minneapolis", Class: "premises", Holder: "X", Application: service.PermitApplication{Activities: []string{"fighting"}}})
	wantErr(t, err, service.EINVALID, "68.10(a)")
	g, err := f.svc.Update(ctx, p.ID, service.PermitApplication{Activities: []string{"grooming"}, ApplicantResidence: "4 Lake St", Vehicle: "MN ABC123", HealthApproved: true, CouncilAuthorised: true})
	if err != nil || g.State != service.PermitGranted || !g.ExpiresOn.IsZero() || g.FeeCents != nil || g.FeeSource != "68.10" {
		t.Errorf("Update = %+v, %v; want granted, no expiry and no fee set (68.10)", g, err)
	}
	_, err = f.svc.Apply(ctx, &permits.Request{Kind: service.PermitBusiness, Jurisdiction: "chanhassen", Class: "premises", Holder: "X"})
	wantErr(t, err, service.EINVALID, "no animal-business")
}

// TestAdoption_64_140: the agreement's due date, the deposit, the
// remittance on a signed statement, and the officer's list.
func TestAdoption_64_140(t *testing.T) {
	tests := []struct {
		name, born, adopted, due, source string
	}{
		{"four months old: by six months of age (64.140(a)(1))", "2025-11-10", "2026-03-10", "2026-05-10", "64.140(a)(1)"},
		{"one year old: within 30 days (64.140(a)(1))", "2025-03-01", "2026-03-10", "2026-04-09", "64.140(a)(1)"},
		{"exactly six months: within 30 days (64.140(a)(1))", "2025-09-10", "2026-03-10", "2026-04-09", "64.140(a)(1)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, "2026-03-10")
			ctx := context.Background()
			a := &service.Animal{Species: service.Cat, BirthDate: d(tt.born)}
			if err := f.store.CreateAnimal(ctx, a); err != nil {
				t.Fatal(err)
			}
			ag, err := f.svc.Agree(ctx, &permits.AgreementRequest{AnimalID: a.ID, Jurisdiction: "Minneapolis", Adopter: "Per Holm", Adopted: d(tt.adopted), Signed: true})
			if err != nil || ag.DueOn != d(tt.due) || ag.DueSource != tt.source || ag.DepositCents != nil {
				t.Fatalf("Agree = %+v, %v; want due %s (%s), deposit not set (64.140(a)(2))", ag, err, tt.due, tt.source)
			}
		})
	}
	f := newFixture(t, "2026-03-10")
	ctx := context.Background()
	a := &service.Animal{Species: service.Dog, BirthDate: d("2025-01-01")}
	if err := f.store.CreateAnimal(ctx, a); err != nil {
		t.Fatal(err)
	}
	_, err := f.svc.Agree(ctx, &permits.AgreementRequest{AnimalID: a.ID, Jurisdiction: "minneapolis", Adopter: "Per Holm"})
	wantErr(t, err, service.EINVALID, "64.140(a)(1)")
	ag, err := f.svc.Agree(ctx, &permits.AgreementRequest{AnimalID: a.ID, Jurisdiction: "minneapolis", Adopter: "Per Holm", Signed: true})
	if err != nil {
		t.Fatal(err)
	}
	items, _ := f.svc.Due(ctx)
	if len(items) != 1 || items[0].What != "agreement-due" || items[0].Due != d("2026-04-09") {
		t.Errorf("Due = %+v, want the agreement due 2026-04-09", items)
	}
	f.now = f.now.AddDate(0, 1, 1)
	items, _ = f.svc.Due(ctx)
	if len(items) != 1 || items[0].What != "agreement-broken" {
		t.Errorf("Due after the date = %+v, want the agreement broken", items)
	}
	_, err = f.svc.Sterilised(ctx, ag.ID, permits.Statement{Veterinarian: "Dr. Moe"})
	wantErr(t, err, service.EINVALID, "64.140(b)")
	s, err := f.svc.Sterilised(ctx, ag.ID, permits.Statement{Veterinarian: "Dr. Moe", Sterilised: d("2026-04-12"), Signed: true})
	if err != nil || s.SterilisedOn != d("2026-04-12") || s.RemittedCents != nil {
		t.Errorf("Sterilised = %+v, %v; want recorded, remittance not computed (fees set by the commissioner of health)", s, err)
	}
	if items, _ = f.svc.Due(ctx); len(items) != 0 {
		t.Errorf("Due after sterilisation = %+v, want empty", items)
	}
}

// TestReports_66_60_66_70: what each report must name, who may make it,
// and the item it opens for the officer.
func TestReports_66_60_66_70(t *testing.T) {
	f := newFixture(t, "2026-03-10")
	ctx := context.Background()
	_, dog := f.dog("", "")
	tests := []struct {
		name    string
		req     permits.ReportRequest
		code    string
		section string
	}{
		{"bite without the persons treated (66.60)", permits.ReportRequest{Kind: service.ReportBite, ReporterRole: "physician", Reporter: service.Person{Name: "Dr. Aho"}}, service.EINVALID, "66.60"},
		{"bite person without an address (66.60)", permits.ReportRequest{Kind: service.ReportBite, ReporterRole: "person", Reporter: service.Person{Name: "Eli"}, Persons: []service.Person{{Name: "Eli"}}}, service.EINVALID, "66.60"},
		{"rabies suspect from a physician (66.70)", permits.ReportRequest{Kind: service.ReportRabiesSuspect, ReporterRole: "physician", Reporter: service.Person{Name: "Dr. Aho"}, Diagnosis: "x", AnimalDescription: "bat"}, service.EINVALID, "66.70"},
		{"rabies suspect without a diagnosis (66.70)", permits.ReportRequest{Kind: service.ReportRabiesSuspect, ReporterRole: "veterinarian", Reporter: service.Person{Name: "Dr. Vet"}, AnimalDescription: "bat"}, service.EINVALID, "66.70"},
		{"bite by a physician (66.60)", permits.ReportRequest{Kind: service.ReportBite, ReporterRole: "physician", Reporter: service.Person{Name: "Dr. Aho"}, AnimalID: dog.ID, SkinBroken: true,
			Persons: []service.Person{{Name: "Eli Ek", Address: "1 Elm St"}}, Incident: d("2026-03-09"), Location: "Lake Harriet"}, "", ""},
		{"rabies suspect by a veterinarian (66.70)", permits.ReportRequest{Kind: service.ReportRabiesSuspect, ReporterRole: "veterinarian", Reporter: service.Person{Name: "Dr. Vet"}, Diagnosis: "ataxia, hypersalivation", AnimalDescription: "stray raccoon"}, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.req.Jurisdiction = "minneapolis"
			r, err := f.svc.Report(ctx, &tt.req)
			if tt.code != "" {
				wantErr(t, err, tt.code, tt.section)
				return
			}
			if err != nil || !r.Open || r.ID == 0 {
				t.Fatalf("Report = %+v, %v", r, err)
			}
			if r.AnimalID != 0 && r.BiteID == 0 {
				t.Errorf("bite report on a known animal opened no bite incident")
			}
		})
	}
	items, err := f.svc.Due(ctx)
	if err != nil || len(items) != 2 || items[0].What != "report-open" {
		t.Fatalf("Due = %+v, %v; want two open reports", items, err)
	}
	rec, _ := f.store.FindRecordByAnimal(ctx, dog.ID)
	if len(rec.Bites) != 1 || !rec.Bites[0].SkinBroken {
		t.Errorf("record bites = %+v, want the reported bite", rec.Bites)
	}
	if _, err := f.svc.CloseReport(ctx, items[0].ReportID, 0); err != nil {
		t.Fatal(err)
	}
	if items, _ = f.svc.Due(ctx); len(items) != 1 {
		t.Errorf("after closing one = %d items, want 1", len(items))
	}
	_, err = f.svc.Report(ctx, &permits.ReportRequest{Kind: service.ReportBite, Jurisdiction: "chanhassen"})
	wantErr(t, err, service.EINVALID, "Chanhassen")
}

// TestList_ByKind lists the permits of one kind.
func TestList_ByKind(t *testing.T) {
	f := newFixture(t, "2026-03-10")
	ctx := context.Background()
	if _, err := f.svc.Apply(ctx, &permits.Request{Kind: service.PermitKennel, Jurisdiction: "chanhassen", Class: "private", Holder: "A"}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.Apply(ctx, &permits.Request{Kind: service.PermitMultiAnimal, Jurisdiction: "minneapolis", Holder: "B", Address: "x", Application: service.PermitApplication{Animals: 4}}); err != nil {
		t.Fatal(err)
	}
	for kind, want := range map[service.PermitKind]int{service.PermitKennel: 1, service.PermitMultiAnimal: 1, service.PermitStable: 0} {
		list, n, err := f.svc.List(ctx, service.PermitFilter{Kind: kind})
		if err != nil || n != want || len(list) != want || want > 0 && list[0].Kind != kind {
			t.Errorf("List(%s) = %d, %v; want %d", kind, n, err, want)
		}
	}
	if _, _, err := f.svc.List(ctx, service.PermitFilter{Kind: "boat"}); service.ErrorCode(err) != service.EINVALID {
		t.Errorf("List(boat) error %v, want EINVALID", err)
	}
}

// TestKennel_AppealOrder_5_18f: the council hears the appeal on or after
// 15 days from the notice and orders (1) the action upheld, (2) lifted or
// (3) conditions.
func TestKennel_AppealOrder_5_18f(t *testing.T) {
	for _, tt := range []struct {
		name, order, conditions, on string
		code, section               string
		state                       service.PermitState
	}{
		{"heard on day 14 is too early (5-18(f))", "lift", "", "2026-06-15", service.ECONFLICT, "5-18(f)", ""},
		{"upheld (5-18(f)(1))", "uphold", "", "2026-06-16", "", "", service.PermitRevoked},
		{"lifted (5-18(f)(2))", "lift", "", "2026-06-16", "", "", service.PermitGranted},
		{"conditions (5-18(f)(3))", "conditions", "dogs indoors from 20:00", "2026-07-01", "", "", service.PermitGranted},
		{"conditions without any (5-18(f)(3))", "conditions", "", "2026-07-01", service.EINVALID, "5-18(f)(3)", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, "2026-03-10")
			ctx := context.Background()
			p, err := f.svc.Apply(ctx, &permits.Request{Kind: service.PermitKennel, Jurisdiction: "chanhassen", Class: "private", Holder: "Kari Berg", Application: completeKennel(), Inspection: passed("2026-03-10")})
			if err != nil {
				t.Fatal(err)
			}
			f.at("2026-07-01")
			if _, err := f.svc.Act(ctx, p.ID, permits.Action{Action: "revoke", Ground: "nuisance", On: d("2026-05-30")}); err != nil {
				t.Fatal(err)
			}
			if _, err := f.svc.Appeal(ctx, p.ID, d("2026-06-01")); err != nil {
				t.Fatal(err)
			}
			got, err := f.svc.DecideAppeal(ctx, p.ID, permits.AppealOrder{Order: tt.order, On: d(tt.on), Conditions: tt.conditions})
			if tt.code != "" {
				wantErr(t, err, tt.code, tt.section)
				return
			}
			if err != nil || got.State != tt.state || !strings.Contains(got.Reason, "5-18(f)") {
				t.Errorf("DecideAppeal = %+v, %v; want %s citing 5-18(f)", got, err, tt.state)
			}
		})
	}
}

// TestKennel_ContactPersons_5_18_2: a commercial kennel always has a
// designated contact person; a change is recorded (5-18.2(b)(1)).
func TestKennel_ContactPersons_5_18_2(t *testing.T) {
	f := newFixture(t, "2026-03-10")
	ctx := context.Background()
	p, err := f.svc.Apply(ctx, &permits.Request{Kind: service.PermitKennel, Jurisdiction: "chanhassen", Class: "commercial", Holder: "Kari Berg", Application: completeKennel(), Inspection: passed("2026-03-10")})
	if err != nil || p.State != service.PermitGranted {
		t.Fatalf("Apply = %+v, %v", p, err)
	}
	_, err = f.svc.ChangeContacts(ctx, p.ID, nil)
	wantErr(t, err, service.ECONFLICT, "5-18.2(b)(1)")
	_, err = f.svc.ChangeContacts(ctx, p.ID, []service.Person{{Name: "Ola Nord"}})
	wantErr(t, err, service.EINVALID, "5-18(b)(5)")
	got, err := f.svc.ChangeContacts(ctx, p.ID, []service.Person{{Name: "Ola Nord", Phone: "952-555-0199", Address: "1 Main St"}})
	if err != nil || len(got.Application.Contacts) != 1 || got.Application.Contacts[0].Name != "Ola Nord" {
		t.Errorf("ChangeContacts = %+v, %v", got, err)
	}
}

// TestOffLeash_Revocation_64_55c: an off-leash permit is revoked for a
// breach of the rules or of the chapter in an off-leash area.
func TestOffLeash_Revocation_64_55c(t *testing.T) {
	for _, tt := range []struct {
		name, ground, section, code string
	}{
		{"rules broken (64.55(c))", "rules", "64.55(c)", ""},
		{"chapter violated in the area (64.55(c))", "chapter", "64.55(c)", ""},
		{"no such ground", "barking", "rules", service.EINVALID},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, "2026-03-10")
			_, a := f.dog("", "")
			ctx := context.Background()
			p, err := f.svc.Apply(ctx, &permits.Request{Kind: service.PermitOffLeash, Jurisdiction: "minneapolis", Class: "non_resident", AnimalID: a.ID,
				Application: service.PermitApplication{RulesSigned: true, RabiesVerified: true}})
			if err != nil {
				t.Fatal(err)
			}
			got, err := f.svc.Act(ctx, p.ID, permits.Action{Action: "revoke", Ground: tt.ground})
			if tt.code != "" {
				wantErr(t, err, tt.code, tt.section)
				return
			}
			if err != nil || got.State != service.PermitRevoked || !strings.Contains(got.Reason, tt.section) {
				t.Errorf("Act = %+v, %v; want revoked citing %s", got, err, tt.section)
			}
			_, err = f.svc.Act(ctx, p.ID, permits.Action{Action: "suspend", Ground: tt.ground})
			wantErr(t, err, service.ECONFLICT, "revoked")
		})
	}
}

// TestReport_BiteStartsQuarantine_66_60_66_40: a bite reported on a dog
// on file makes the same records as one typed at the officer's page: the
// bite, and the quarantine of 66.40.
func TestReport_BiteStartsQuarantine_66_60_66_40(t *testing.T) {
	f := newFixture(t, "2026-03-10")
	ctx := context.Background()
	rs, err := rules.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	now := func() time.Time { return f.now }
	lk, err := lookup.New(&lookup.Opts{Store: f.store, Rules: rs, Now: now})
	if err != nil {
		t.Fatal(err)
	}
	inc, err := incidents.New(&incidents.Opts{Store: f.store, Rules: rs, Jurisdiction: lk.Home(), Now: now})
	if err != nil {
		t.Fatal(err)
	}
	svc, err := permits.New(&permits.Opts{Store: f.store, Rules: rs, Bites: inc, Now: now})
	if err != nil {
		t.Fatal(err)
	}
	_, dog := f.dog("", "")
	r, err := svc.Report(ctx, &permits.ReportRequest{Kind: service.ReportBite, Jurisdiction: "minneapolis", ReporterRole: "physician",
		Reporter: service.Person{Name: "Dr. Aho"}, Persons: []service.Person{{Name: "Eli Ek", Address: "1 Elm St"}}, AnimalID: dog.ID,
		Incident: d("2026-03-09"), SkinBroken: true})
	if err != nil || r.BiteID == 0 || r.QuarantineID == 0 {
		t.Fatalf("Report = %+v, %v; want a bite and its quarantine (66.40)", r, err)
	}
	rec, err := f.store.FindRecordByAnimal(ctx, dog.ID)
	if err != nil || len(rec.Quarantines) != 1 || rec.Quarantines[0].ID != r.QuarantineID {
		t.Errorf("record quarantines = %+v, %v; want the one the report started", rec.Quarantines, err)
	}
}
