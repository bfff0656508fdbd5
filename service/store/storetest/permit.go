package storetest

import (
	"context"
	"sync"
	"testing"

	"github.com/chipdesk/chipdesk/service"
)

// testPermits stores, updates and filters permits; an off-leash permit
// gets the next registration number of its jurisdiction and year
// (Minneapolis 64.55(b)).
func testPermits(t *testing.T, s service.Store, c *Clock) {
	ctx := context.Background()
	o, a := fixture(t, s)
	fee := int64(2500)
	kennel := &service.Permit{Kind: service.PermitKennel, Jurisdiction: "chanhassen", Class: "commercial", Holder: "Kari Berg",
		State: service.PermitPending, AppliedOn: service.MustDate("2026-03-10"), ExpiresOn: service.MustDate("2026-12-31"),
		Application: service.PermitApplication{Property: "Lot 4", References: []service.Reference{{Person: service.Person{Name: "A", Address: "B"}, County: "Carver"}}},
		Pending:     []string{"inspection (5-18(d))"}}
	must(t, "CreatePermit kennel", s.CreatePermit(ctx, kennel))
	if kennel.ID == 0 || kennel.TagNumber != 0 || kennel.CreatedAt.IsZero() {
		t.Fatalf("kennel = %+v: want an id, no tag number, stamps", kennel)
	}
	got, err := s.FindPermitByID(ctx, kennel.ID)
	must(t, "FindPermitByID", err)
	if got.Holder != "Kari Berg" || got.ExpiresOn != service.MustDate("2026-12-31") || len(got.Application.References) != 1 ||
		got.Application.References[0].County != "Carver" || len(got.Pending) != 1 || got.FeeCents != nil {
		t.Errorf("FindPermitByID = %+v", got)
	}
	got.State, got.IssuedOn, got.FeeCents, got.Pending = service.PermitGranted, service.MustDate("2026-03-12"), &fee, nil
	must(t, "UpdatePermit", s.UpdatePermit(ctx, got))
	again, err := s.FindPermitByID(ctx, kennel.ID)
	must(t, "FindPermitByID after update", err)
	if again.State != service.PermitGranted || again.FeeCents == nil || *again.FeeCents != 2500 || !again.CreatedAt.Equal(kennel.CreatedAt) {
		t.Errorf("after update = %+v", again)
	}
	wantCode(t, "UpdatePermit unknown", s.UpdatePermit(ctx, &service.Permit{ID: 9999, Kind: service.PermitKennel, Jurisdiction: "chanhassen", State: service.PermitGranted}), service.ENOTFOUND)
	wantCode(t, "CreatePermit bad kind", s.CreatePermit(ctx, &service.Permit{Kind: "boat", Jurisdiction: "chanhassen", State: service.PermitPending}), service.EINVALID)
	_, err = s.FindPermitByID(ctx, 9999)
	wantCode(t, "FindPermitByID unknown", err, service.ENOTFOUND)

	// Registration numbers, concurrently: all different, 1..n.
	const n = 6
	var wg sync.WaitGroup
	nums := make([]int, n)
	errs := make([]error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p := &service.Permit{Kind: service.PermitOffLeash, Jurisdiction: "minneapolis", Class: "resident", OwnerID: o.ID, AnimalID: a.ID,
				Holder: o.Name, State: service.PermitGranted, IssuedOn: service.MustDate("2026-04-01"), ExpiresOn: service.MustDate("2027-01-31")}
			errs[i] = s.CreatePermit(ctx, p)
			nums[i] = p.TagNumber
		}()
	}
	wg.Wait()
	seen := map[int]bool{}
	for i := range n {
		must(t, "CreatePermit off-leash", errs[i])
		if nums[i] < 1 || nums[i] > n || seen[nums[i]] {
			t.Errorf("registration numbers %v: want 1..%d once each (64.55(b))", nums, n)
			break
		}
		seen[nums[i]] = true
	}

	for _, tt := range []struct {
		name string
		f    service.PermitFilter
		want int
	}{
		{"all", service.PermitFilter{}, n + 1},
		{"kind kennel", service.PermitFilter{Kind: service.PermitKennel}, 1},
		{"kind off_leash", service.PermitFilter{Kind: service.PermitOffLeash}, n},
		{"animal", service.PermitFilter{AnimalID: a.ID}, n},
		{"owner", service.PermitFilter{OwnerID: o.ID, State: service.PermitGranted}, n},
		{"holder", service.PermitFilter{Holder: "Kari Berg"}, 1},
		{"jurisdiction", service.PermitFilter{Jurisdiction: "chanhassen"}, 1},
		{"expires before", service.PermitFilter{ExpiresBefore: service.MustDate("2027-01-01")}, 1},
		{"state pending", service.PermitFilter{State: service.PermitPending}, 0},
	} {
		list, total, err := s.FindPermits(ctx, tt.f)
		must(t, "FindPermits "+tt.name, err)
		if len(list) != tt.want || total != tt.want {
			t.Errorf("FindPermits(%s) = %d rows, total %d; want %d", tt.name, len(list), total, tt.want)
		}
	}
	list, total, err := s.FindPermits(ctx, service.PermitFilter{Kind: service.PermitOffLeash, Limit: 2, Offset: 1})
	must(t, "FindPermits page", err)
	if len(list) != 2 || total != n || list[0].ID >= list[1].ID {
		t.Errorf("page = %d rows of %d; want 2 of %d in id order", len(list), total, n)
	}
}

// testAdoptionAgreements keeps the sterilisation agreements of
// Minneapolis 64.140 and lists the open ones by due date.
func testAdoptionAgreements(t *testing.T, s service.Store, c *Clock) {
	ctx := context.Background()
	_, a := fixture(t, s)
	dep := int64(5000)
	late := &service.AdoptionAgreement{AnimalID: a.ID, Jurisdiction: "minneapolis", Adopter: "Per Holm", AdoptedOn: service.MustDate("2026-03-01"),
		DueOn: service.MustDate("2026-03-31"), DueSource: "64.140(a)(1)", DepositCents: &dep}
	early := &service.AdoptionAgreement{AnimalID: a.ID, Jurisdiction: "minneapolis", Adopter: "Liv Holm", AdoptedOn: service.MustDate("2026-03-01"),
		DueOn: service.MustDate("2026-03-20"), DueSource: "64.140(a)(1)"}
	must(t, "CreateAdoptionAgreement", s.CreateAdoptionAgreement(ctx, late))
	must(t, "CreateAdoptionAgreement", s.CreateAdoptionAgreement(ctx, early))
	wantCode(t, "CreateAdoptionAgreement no due", s.CreateAdoptionAgreement(ctx, &service.AdoptionAgreement{AnimalID: a.ID, Jurisdiction: "minneapolis", Adopter: "X"}), service.EINVALID)
	open, err := s.FindAdoptionAgreements(ctx, true, 0)
	must(t, "FindAdoptionAgreements", err)
	if len(open) != 2 || open[0].ID != early.ID || open[1].DepositCents == nil || *open[1].DepositCents != 5000 {
		t.Fatalf("open agreements = %+v; want early then late with its deposit", open)
	}
	late.SterilisedOn, late.Veterinarian = service.MustDate("2026-03-25"), "Dr. Moe"
	must(t, "UpdateAdoptionAgreement", s.UpdateAdoptionAgreement(ctx, late))
	open, err = s.FindAdoptionAgreements(ctx, true, 0)
	must(t, "FindAdoptionAgreements", err)
	if len(open) != 1 || open[0].ID != early.ID {
		t.Errorf("open after sterilisation = %+v, want only the early one", open)
	}
	all, err := s.FindAdoptionAgreements(ctx, false, a.ID)
	must(t, "FindAdoptionAgreements animal", err)
	got, err := s.FindAdoptionAgreementByID(ctx, late.ID)
	must(t, "FindAdoptionAgreementByID", err)
	if len(all) != 2 || got.Veterinarian != "Dr. Moe" || got.SterilisedOn != service.MustDate("2026-03-25") {
		t.Errorf("all = %d, got = %+v", len(all), got)
	}
	_, err = s.FindAdoptionAgreementByID(ctx, 9999)
	wantCode(t, "FindAdoptionAgreementByID unknown", err, service.ENOTFOUND)
}

// testAnimalReports keeps bite (66.60) and rabies-suspect (66.70)
// reports, open ones first on the officer's list.
func testAnimalReports(t *testing.T, s service.Store, c *Clock) {
	ctx := context.Background()
	bite := &service.AnimalReport{Kind: service.ReportBite, Jurisdiction: "minneapolis", ReportedOn: service.MustDate("2026-03-14"),
		Reporter: service.Person{Name: "Dr. Aho"}, ReporterRole: "physician", Persons: []service.Person{{Name: "Eli", Address: "1 Elm"}}, Open: true}
	rabid := &service.AnimalReport{Kind: service.ReportRabiesSuspect, Jurisdiction: "minneapolis", ReportedOn: service.MustDate("2026-03-15"),
		Reporter: service.Person{Name: "Dr. Vet"}, ReporterRole: "veterinarian", Diagnosis: "ataxia", Open: true}
	must(t, "CreateAnimalReport", s.CreateAnimalReport(ctx, bite))
	must(t, "CreateAnimalReport", s.CreateAnimalReport(ctx, rabid))
	wantCode(t, "CreateAnimalReport bad kind", s.CreateAnimalReport(ctx, &service.AnimalReport{Kind: "x", Jurisdiction: "minneapolis", ReportedOn: service.MustDate("2026-03-15")}), service.EINVALID)
	open, err := s.FindAnimalReports(ctx, true)
	must(t, "FindAnimalReports", err)
	if len(open) != 2 || open[0].ID != rabid.ID || len(open[1].Persons) != 1 {
		t.Fatalf("open = %+v, want newest first with the persons", open)
	}
	bite.Open, bite.ClosedOn = false, service.MustDate("2026-03-16")
	must(t, "UpdateAnimalReport", s.UpdateAnimalReport(ctx, bite))
	open, err = s.FindAnimalReports(ctx, true)
	must(t, "FindAnimalReports", err)
	all, err := s.FindAnimalReports(ctx, false)
	must(t, "FindAnimalReports all", err)
	if len(open) != 1 || len(all) != 2 {
		t.Errorf("open %d, all %d; want 1, 2", len(open), len(all))
	}
	got, err := s.FindAnimalReportByID(ctx, bite.ID)
	must(t, "FindAnimalReportByID", err)
	if got.Open || got.ClosedOn != service.MustDate("2026-03-16") || got.CreatedAt.IsZero() {
		t.Errorf("closed report = %+v", got)
	}
}

// testRecordPermits: an animal's record carries its permits and its open
// sterilisation agreements, by chip (the lookup row and its live parts)
// and by animal, so the lookup answer shows them like licences.
func testRecordPermits(t *testing.T, s service.Store, c *Clock) {
	ctx := context.Background()
	_, a := fixture(t, s)
	const code = "985121004515220"
	must(t, "AddChip", s.AddChip(ctx, &service.Chip{AnimalID: a.ID, Code: code, Kind: "iso11784"}))
	// A lookup first, so a lookup row exists before the permit is added.
	if _, err := s.FindRecordByChip(ctx, code); err != nil {
		t.Fatal(err)
	}
	p := &service.Permit{Kind: service.PermitOffLeash, Jurisdiction: "minneapolis", Class: "resident", AnimalID: a.ID,
		State: service.PermitGranted, IssuedOn: service.MustDate("2026-03-01"), ExpiresOn: service.MustDate("2027-01-31")}
	must(t, "CreatePermit", s.CreatePermit(ctx, p))
	ag := &service.AdoptionAgreement{AnimalID: a.ID, Jurisdiction: "minneapolis", Adopter: "Per Holm", AdoptedOn: service.MustDate("2026-03-01"),
		DueOn: service.MustDate("2026-03-31"), DueSource: "64.140(a)(1)"}
	must(t, "CreateAdoptionAgreement", s.CreateAdoptionAgreement(ctx, ag))
	for _, by := range []string{"chip", "animal"} {
		var r *service.Record
		var err error
		if by == "chip" {
			r, err = s.FindRecordByChip(ctx, code)
		} else {
			r, err = s.FindRecordByAnimal(ctx, a.ID)
		}
		must(t, "FindRecordBy"+by, err)
		if len(r.Permits) != 1 || r.Permits[0].ID != p.ID || r.Permits[0].TagNumber != 1 || r.Permits[0].ExpiresOn != p.ExpiresOn ||
			len(r.Agreements) != 1 || r.Agreements[0].ID != ag.ID || r.Agreements[0].DueOn != ag.DueOn {
			t.Errorf("record by %s: permits %+v agreements %+v; want the permit and the agreement", by, r.Permits, r.Agreements)
		}
	}
	ag.SterilisedOn = service.MustDate("2026-03-20")
	must(t, "UpdateAdoptionAgreement", s.UpdateAdoptionAgreement(ctx, ag))
	r, err := s.FindRecordByChip(ctx, code)
	must(t, "FindRecordByChip", err)
	if len(r.Agreements) != 0 {
		t.Errorf("a fulfilled agreement is still on the record: %+v", r.Agreements)
	}
}
