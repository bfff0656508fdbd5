package permits_test

import (
	"context"
	"testing"
	"time"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/money"
	"github.com/chipdesk/chipdesk/service/permits"
	"github.com/chipdesk/chipdesk/service/rules"
)

// permitCharges lists the charges on permit id by fee code.
func (f *fixture) permitCharges(id int64) map[string]*service.Charge {
	f.t.Helper()
	kind := service.SubjectPermit
	cs, _, err := f.store.FindCharges(context.Background(), service.ChargeFilter{SubjectKind: &kind, SubjectID: &id})
	if err != nil {
		f.t.Fatal(err)
	}
	out := map[string]*service.Charge{}
	for _, c := range cs {
		out[c.Kind] = c
	}
	return out
}

func (f *fixture) money() *money.Service {
	f.t.Helper()
	rs, err := rules.Embedded()
	if err != nil {
		f.t.Fatal(err)
	}
	m, err := money.New(&money.Opts{Store: f.store, Rules: rs, Now: func() time.Time { return f.now }})
	if err != nil {
		f.t.Fatal(err)
	}
	return m
}

// TestPermitFees_Minneapolis_64_55b_64_100c: a permit whose fee the
// ordinance sets is charged on its holder when granted, with its
// section, and its renewal again; a pending application is charged
// nothing until it is granted.
func TestPermitFees_Minneapolis_64_55b_64_100c(t *testing.T) {
	f := newFixture(t, "2026-03-10")
	ctx := context.Background()
	o, a := f.dog("", "")
	off, err := f.svc.Apply(ctx, &permits.Request{Kind: service.PermitOffLeash, Jurisdiction: "minneapolis", Class: "resident", AnimalID: a.ID, OwnerID: o.ID,
		Application: service.PermitApplication{RulesSigned: true, RabiesVerified: true, LicenceVerified: true, DogNumber: 1}})
	if err != nil {
		t.Fatal(err)
	}
	got := f.permitCharges(off.ID)
	if c := got["off-leash"]; len(got) != 1 || c == nil || c.AmountCents != 2500 || c.Section != "Minneapolis 64.55(b)" || c.PayerID != o.ID || c.On != d("2026-03-10") {
		t.Fatalf("off-leash charges %v (%+v), want $25 (64.55(b)) on the owner, today", got, got["off-leash"])
	}
	multi, err := f.svc.Apply(ctx, &permits.Request{Kind: service.PermitMultiAnimal, Jurisdiction: "minneapolis", Holder: "Ada", OwnerID: o.ID,
		Address: "3401 Chicago Ave", Application: service.PermitApplication{Animals: 5}})
	if err != nil {
		t.Fatal(err)
	}
	if c := f.permitCharges(multi.ID)["multi-animal"]; c == nil || c.AmountCents != 2000 || c.Section != "Minneapolis 64.100(c)" {
		t.Fatalf("64.100 charge %+v, want $20 (64.100(c))", c)
	}
	r, err := f.svc.Renew(ctx, multi.ID, &permits.Request{Inspection: passed("2026-03-10")})
	if err != nil {
		t.Fatal(err)
	}
	if c := f.permitCharges(r.ID)["multi-animal"]; c == nil || c.AmountCents != 2000 || c.On != d("2026-03-10") {
		t.Fatalf("renewal charge %+v, want $20 raised today", c)
	}
	// Granting twice over (a retry) raises once.
	if _, _, err := f.money().ChargePermitFees(ctx, multi.ID, false, nil); err != nil || len(f.permitCharges(multi.ID)) != 1 {
		t.Fatalf("charging again: %v, %v", err, f.permitCharges(multi.ID))
	}
	// Chapter 68: pending, nothing; granted, the fee is set by resolution
	// and waits for the clerk.
	biz, err := f.svc.Apply(ctx, &permits.Request{Kind: service.PermitBusiness, Jurisdiction: "minneapolis", Class: "mobile_vehicle", Holder: "Suds Mobile Grooming",
		Application: service.PermitApplication{Activities: []string{"grooming"}}})
	if err != nil || len(f.permitCharges(biz.ID)) != 0 {
		t.Fatalf("pending business: %v, charges %v", err, f.permitCharges(biz.ID))
	}
	if _, err := f.svc.Update(ctx, biz.ID, service.PermitApplication{Activities: []string{"grooming"}, ApplicantResidence: "4 Lake St",
		Vehicle: "MN ABC123", HealthApproved: true, CouncilAuthorised: true}); err != nil {
		t.Fatal(err)
	}
	if got := f.permitCharges(biz.ID); len(got) != 0 {
		t.Fatalf("a fee set by resolution was invented: %v", got)
	}
	cs, open, err := f.money().ChargePermitFees(ctx, biz.ID, false, map[string]int64{"animal-business": 12000})
	if err != nil || len(cs) != 1 || cs[0].AmountCents != 12000 || cs[0].Section != "Minneapolis 68.10 (set by resolution)" || len(open) != 0 {
		t.Fatalf("entered business fee = %+v, %v, %v", cs, open, err)
	}
	_, _, err = f.money().ChargePermitFees(ctx, off.ID, false, map[string]int64{"off-leash": 100})
	wantErr(t, err, service.EINVALID, "64.55(b)")
}

// TestPermitFees_Chanhassen_5_18c_5_102_5_105a: a kennel licence's
// application, investigation and licence fees (5-18(c)) and a stable's
// application fee (5-102) and annual inspection fee (5-105(a)) are set
// by resolution: granting raises none of them, the clerk's amounts
// raise each with its section, and a fee not entered stays listed.
func TestPermitFees_Chanhassen_5_18c_5_102_5_105a(t *testing.T) {
	f := newFixture(t, "2026-03-10")
	ctx := context.Background()
	k, err := f.svc.Apply(ctx, &permits.Request{Kind: service.PermitKennel, Jurisdiction: "Chanhassen", Class: "private",
		Holder: "Kari Berg", Inspection: passed("2026-03-09"), Application: completeKennel()})
	if err != nil || k.State != service.PermitGranted || len(f.permitCharges(k.ID)) != 0 {
		t.Fatalf("kennel %+v, %v, charges %v", k, err, f.permitCharges(k.ID))
	}
	cs, open, err := f.money().ChargePermitFees(ctx, k.ID, false, map[string]int64{"kennel-application": 5000, "kennel-licence": 7500})
	if err != nil || len(cs) != 2 || len(open) != 1 || open[0] != "kennel-investigation" {
		t.Fatalf("kennel fees = %+v, open %v, %v", cs, open, err)
	}
	for _, c := range cs {
		if c.Section != "Chanhassen 5-18(c) (set by resolution)" {
			t.Errorf("kennel charge %s section %q, want 5-18(c) set by resolution", c.Kind, c.Section)
		}
	}
	_, _, err = f.money().ChargePermitFees(ctx, k.ID, false, map[string]int64{"kennel-board": 100})
	wantErr(t, err, service.EINVALID, "kennel-investigation")

	all := []string{"fence", "shelter", "no-nuisance", "sanitary", "no-pollution", "manure-well", "manure-removal", "wetland"}
	st, err := f.svc.Apply(ctx, &permits.Request{Kind: service.PermitStable, Jurisdiction: "chanhassen", Holder: "Kari Berg", Inspection: passed("2026-03-10"),
		Application: service.PermitApplication{Property: "Lot 4", Acres: 3, Animals: 2, Conditions: all}})
	if err != nil {
		t.Fatal(err)
	}
	if _, open, err := f.money().ChargePermitFees(ctx, st.ID, false, nil); err != nil || len(open) != 1 || open[0] != "stable-application" {
		t.Fatalf("stable fees open %v, %v; want the application fee (5-102)", open, err)
	}
	_, _, err = f.money().ChargePermitFees(ctx, st.ID, true, nil)
	wantErr(t, err, service.EINVALID, "5-105(a)")
	f.now = f.now.AddDate(0, 0, 71) // 2026-05-20: no step is recorded before its day
	if _, err := f.svc.Register(ctx, st.ID, d("2026-05-20")); err != nil {
		t.Fatal(err)
	}
	cs, _, err = f.money().ChargePermitFees(ctx, st.ID, true, map[string]int64{"stable-inspection-2026": 4000})
	if err != nil || len(cs) != 1 || cs[0].Section != "Chanhassen 5-105(a) (set by resolution)" || cs[0].On != d("2026-05-20") {
		t.Fatalf("registration fee = %+v, %v; want 5-105(a) on the registration day", cs, err)
	}
}

// TestAdoptionDeposit_Minneapolis_64_140a2: the sterilisation deposit of
// a shelter adoption is set by the commissioner of health: recording the
// agreement raises nothing, the clerk's amount raises it on the adopter,
// once, under 64.140(a)(2), and it lists by adoption.
func TestAdoptionDeposit_Minneapolis_64_140a2(t *testing.T) {
	f := newFixture(t, "2026-03-10")
	ctx := context.Background()
	o, _ := f.dog("", "")
	a := &service.Animal{Species: service.Cat, BirthDate: d("2025-03-01")}
	if err := f.store.CreateAnimal(ctx, a); err != nil {
		t.Fatal(err)
	}
	ag, err := f.svc.Agree(ctx, &permits.AgreementRequest{AnimalID: a.ID, Jurisdiction: "minneapolis", Adopter: o.Name, OwnerID: o.ID, Signed: true})
	if err != nil {
		t.Fatal(err)
	}
	m := f.money()
	kind := service.SubjectAdoption
	if cs, _, _ := f.store.FindCharges(ctx, service.ChargeFilter{SubjectKind: &kind, SubjectID: &ag.ID}); len(cs) != 0 {
		t.Fatalf("a deposit set by the commissioner of health was invented: %+v", cs)
	}
	if _, open, err := m.ChargeAdoptionFees(ctx, ag.ID, nil); err != nil || len(open) != 1 || open[0] != "adoption-deposit" {
		t.Fatalf("open = %v, %v; want the deposit", open, err)
	}
	for range 2 {
		cs, open, err := m.ChargeAdoptionFees(ctx, ag.ID, map[string]int64{"adoption-deposit": 5000})
		if err != nil || len(cs) != 1 || len(open) != 0 || cs[0].AmountCents != 5000 || cs[0].PayerID != o.ID ||
			cs[0].Section != "Minneapolis 64.140(a)(2) (set by resolution)" || cs[0].On != d("2026-03-10") {
			t.Fatalf("deposit = %+v, %v, %v", cs, open, err)
		}
	}
	got, err := m.Charges(ctx, service.SubjectAdoption, ag.ID)
	if err != nil || len(got) != 1 {
		t.Fatalf("charges of the adoption = %+v, %v; want the one deposit", got, err)
	}
	_, _, err = m.ChargeAdoptionFees(ctx, ag.ID, map[string]int64{"administrative-fee": 500})
	wantErr(t, err, service.EINVALID, "adoption-deposit")
}

// TestChanhassen_5_87a_RecoveryCharged: the city's charge to recover an
// escaped horse (at least $25.00, 5-87(a)) is a charge on the stable
// permit's holder with its section, one per escape the city recovered,
// on the escape's day, though the permit is then suspended (5-87(b));
// an escape the owner dealt with owes nothing; raising it again raises
// it once.
func TestChanhassen_5_87a_RecoveryCharged(t *testing.T) {
	f := newFixture(t, "2026-03-10")
	ctx := context.Background()
	o, _ := f.dog("", "")
	p, err := f.svc.Apply(ctx, &permits.Request{Kind: service.PermitStable, Jurisdiction: "chanhassen", Holder: "Kari Berg", OwnerID: o.ID,
		Inspection: passed("2026-03-01"), Application: horses(3, 2)})
	if err != nil || p.State != service.PermitGranted {
		t.Fatalf("Apply = %+v, %v", p, err)
	}
	before := len(f.permitCharges(p.ID))
	if _, err := f.svc.Escape(ctx, p.ID, service.HorseEscape{On: d("2026-03-04"), Notes: "back by the owner"}); err != nil {
		t.Fatal(err)
	}
	if got := f.permitCharges(p.ID); len(got) != before {
		t.Fatalf("an escape the city did not recover raised %v", got)
	}
	if _, err := f.svc.Escape(ctx, p.ID, service.HorseEscape{On: d("2026-03-05"), RecoveredByCity: true}); err != nil {
		t.Fatal(err)
	}
	more := int64(6000)
	got, err := f.svc.Escape(ctx, p.ID, service.HorseEscape{On: d("2026-03-07"), RecoveredByCity: true, RecoveryCents: &more})
	if err != nil || got.State != service.PermitSuspended {
		t.Fatalf("second recovery = %+v, %v; want recorded, still suspended (5-87(b))", got, err)
	}
	cs := f.permitCharges(p.ID)
	for _, tt := range []struct {
		kind  string
		cents int64
		on    string
	}{{"horse-recovery-2", 2500, "2026-03-05"}, {"horse-recovery-3", 6000, "2026-03-07"}} {
		c := cs[tt.kind]
		if c == nil || c.AmountCents != tt.cents || c.Section != "Chanhassen 5-87(a)" || c.PayerID != o.ID || c.On != d(tt.on) {
			t.Errorf("%s = %+v, want %d cents (Chanhassen 5-87(a)) on the holder, on %s", tt.kind, c, tt.cents, tt.on)
		}
	}
	if _, ok := cs["horse-recovery-1"]; ok || len(cs) != before+2 {
		t.Errorf("charges %v, want the two recoveries only", cs)
	}
	if _, err := f.money().ChargeEscape(ctx, got, 3); err != nil || len(f.permitCharges(p.ID)) != before+2 {
		t.Errorf("charging the recovery again = %v, %d charges; want raised once", err, len(f.permitCharges(p.ID)))
	}
	if _, err := f.money().ChargeEscape(ctx, got, 9); service.ErrorCode(err) != service.EINVALID {
		t.Errorf("charging an escape not recorded = %v, want invalid", err)
	}
}
