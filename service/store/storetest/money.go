package storetest

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/chipdesk/chipdesk/service"
)

// licenceCharges raises the charges of a licence sold to the fixture's
// owner: the fee and, for the test, a duplicate tag fee.
func licenceCharges(t *testing.T, s service.Store) (*service.Owner, *service.Licence, []*service.Charge) {
	t.Helper()
	ctx := context.Background()
	o, a := fixture(t, s)
	l := newLicence(a.ID, "minneapolis", "2026-03-15")
	must(t, "CreateLicence", s.CreateLicence(ctx, l))
	cs := []*service.Charge{
		{PayerID: o.ID, Kind: "altered", Label: "Licence fee", Section: "Minneapolis 64.30", AmountCents: 1500,
			SubjectKind: service.SubjectLicence, SubjectID: l.ID, Jurisdiction: "minneapolis", Site: "office", On: l.IssuedOn},
		{PayerID: o.ID, Kind: "duplicate", Label: "Duplicate tag", Section: "Minneapolis 64.40", AmountCents: 500,
			SubjectKind: service.SubjectLicence, SubjectID: l.ID, Jurisdiction: "minneapolis", Site: "office", On: l.IssuedOn},
	}
	must(t, "CreateCharges", s.CreateCharges(ctx, cs))
	return o, l, cs
}

func pay(ids []int64, method service.PaymentMethod, cents int64) *service.PaymentRequest {
	return &service.PaymentRequest{ChargeIDs: ids, Payment: service.Payment{Kind: service.KindPayment, Method: method,
		AmountCents: cents, Site: "office", Till: "1", TakenBy: "clerk"}}
}

// testCharges: charges are raised once per subject and kind, and list
// by subject with what was paid on them.
func testCharges(t *testing.T, s service.Store, c *Clock) {
	ctx := context.Background()
	_, l, cs := licenceCharges(t, s)
	if cs[0].ID == 0 || cs[0].PaidCents != 0 || cs[0].Section != "Minneapolis 64.30" || !cs[0].CreatedAt.Equal(c.Now()) {
		t.Fatalf("CreateCharges = %+v", cs[0])
	}
	again := []*service.Charge{{Kind: "altered", Section: "Minneapolis 64.30", AmountCents: 9999,
		SubjectKind: service.SubjectLicence, SubjectID: l.ID, On: l.IssuedOn}}
	must(t, "CreateCharges(again)", s.CreateCharges(ctx, again))
	if again[0].ID != cs[0].ID || again[0].AmountCents != 1500 {
		t.Fatalf("CreateCharges(same subject and kind) = %+v, want charge %d unchanged", again[0], cs[0].ID)
	}
	wantCode(t, "CreateCharges(no section)", s.CreateCharges(ctx, []*service.Charge{{Kind: "x", AmountCents: 1,
		SubjectKind: service.SubjectLicence, SubjectID: l.ID, On: l.IssuedOn}}), service.EINVALID)
	kind, id := service.SubjectLicence, l.ID
	list, n, err := s.FindCharges(ctx, service.ChargeFilter{SubjectKind: &kind, SubjectID: &id})
	must(t, "FindCharges", err)
	if n != 2 || list[0].ID != cs[0].ID || list[1].Kind != "duplicate" {
		t.Fatalf("FindCharges = %d %+v", n, list)
	}
	_, _, err = s.CreatePayment(ctx, pay([]int64{cs[0].ID}, service.MethodCash, 1500))
	must(t, "CreatePayment", err)
	open := true
	list, n, err = s.FindCharges(ctx, service.ChargeFilter{SubjectKind: &kind, SubjectID: &id, Open: &open})
	must(t, "FindCharges(open)", err)
	if n != 1 || list[0].ID != cs[1].ID {
		t.Fatalf("FindCharges(open) = %+v, want the duplicate fee only", list)
	}
	got, err := s.FindChargeByID(ctx, cs[0].ID)
	must(t, "FindChargeByID", err)
	if got.PaidCents != 1500 || got.OwedCents() != 0 {
		t.Fatalf("FindChargeByID = %+v, want paid 1500", got)
	}
	_, err = s.FindChargeByID(ctx, 999999)
	wantCode(t, "FindChargeByID(missing)", err, service.ENOTFOUND)
	// A shelter adoption's deposit (64.140(a)(2)) is a charge too.
	dep := []*service.Charge{{Kind: "adoption-deposit", Section: "Minneapolis 64.140(a)(2)", AmountCents: 5000,
		SubjectKind: service.SubjectAdoption, SubjectID: 1, Jurisdiction: "minneapolis", On: l.IssuedOn}}
	must(t, "CreateCharges(adoption)", s.CreateCharges(ctx, dep))
	if dep[0].ID == 0 || dep[0].SubjectKind != service.SubjectAdoption {
		t.Fatalf("CreateCharges(adoption) = %+v", dep[0])
	}
}

// testPayments: a payment settles charges in order, part payments
// leave the rest owed, more than is owed is refused, a key makes it
// once; refunds and voids reverse without editing.
func testPayments(t *testing.T, s service.Store, c *Clock) {
	ctx := context.Background()
	_, _, cs := licenceCharges(t, s)
	ids := []int64{cs[0].ID, cs[1].ID}
	_, _, err := s.CreatePayment(ctx, pay(ids, service.MethodCash, 2001))
	wantCode(t, "CreatePayment(more than owed)", err, service.EINVALID)
	_, _, err = s.CreatePayment(ctx, pay([]int64{cs[0].ID, cs[0].ID}, service.MethodCash, 100))
	wantCode(t, "CreatePayment(same charge twice)", err, service.EINVALID)
	_, _, err = s.CreatePayment(ctx, pay([]int64{999999}, service.MethodCash, 100))
	wantCode(t, "CreatePayment(no such charge)", err, service.ENOTFOUND)
	w := pay(ids, service.MethodWaiver, 100)
	_, _, err = s.CreatePayment(ctx, w)
	wantCode(t, "CreatePayment(waiver without supervisor)", err, service.EINVALID)

	part := pay(ids, service.MethodCard, 1700)
	part.Key, part.Reference = "till1-0001", "auth 55531"
	p, created, err := s.CreatePayment(ctx, part)
	must(t, "CreatePayment(part)", err)
	if !created || p.ID == 0 || p.On != service.MustDate("2026-03-15") || len(p.Lines) != 2 ||
		p.Lines[0] != (service.PaymentLine{ChargeID: cs[0].ID, Cents: 1500}) || p.Lines[1] != (service.PaymentLine{ChargeID: cs[1].ID, Cents: 200}) {
		t.Fatalf("CreatePayment(part) = %+v, created %v", p, created)
	}
	again, created, err := s.CreatePayment(ctx, part)
	must(t, "CreatePayment(same key)", err)
	if created || again.ID != p.ID || len(again.Lines) != 2 {
		t.Fatalf("CreatePayment(same key) = %+v, created %v, want payment %d", again, created, p.ID)
	}
	_, _, err = s.CreatePayment(ctx, pay(ids, service.MethodCash, 301))
	wantCode(t, "CreatePayment(more than the rest)", err, service.EINVALID)
	w = pay([]int64{cs[1].ID}, service.MethodWaiver, 300)
	w.ApprovedBy = "Supervisor Berg"
	wp, _, err := s.CreatePayment(ctx, w)
	must(t, "CreatePayment(waiver)", err)
	dup, err := s.FindChargeByID(ctx, cs[1].ID)
	must(t, "FindChargeByID", err)
	if dup.PaidCents != 500 || dup.WaivedCents != 300 {
		t.Fatalf("charge after waiver = %+v, want paid 500 of which waived 300", dup)
	}

	// Refunds give back at most what was paid, on the payment's method.
	ref := &service.PaymentRequest{Payment: service.Payment{Kind: service.KindRefund, Method: service.MethodCash,
		AmountCents: 1800, Reverses: p.ID, Site: "office", Till: "1"}}
	_, _, err = s.CreatePayment(ctx, ref)
	wantCode(t, "refund(more than paid)", err, service.EINVALID)
	ref.AmountCents = 200
	ref.Lines = []service.PaymentLine{{ChargeID: cs[1].ID, Cents: 200}}
	rp, _, err := s.CreatePayment(ctx, ref)
	must(t, "refund", err)
	if rp.Method != service.MethodCard || len(rp.Lines) != 1 || rp.Lines[0].Cents != -200 {
		t.Fatalf("refund = %+v, want -200 on the duplicate fee by card", rp)
	}
	ref.AmountCents, ref.Lines = 1, []service.PaymentLine{{ChargeID: cs[1].ID, Cents: 1}}
	_, _, err = s.CreatePayment(ctx, ref)
	wantCode(t, "refund(charge given back already)", err, service.EINVALID)
	void := &service.PaymentRequest{Payment: service.Payment{Kind: service.KindVoid, Method: service.MethodCash,
		AmountCents: 1700, Reverses: p.ID, Site: "office", Till: "1"}}
	_, _, err = s.CreatePayment(ctx, void)
	wantCode(t, "void(after a refund)", err, service.EINVALID)
	void.AmountCents, void.Reverses = 300, wp.ID
	_, _, err = s.CreatePayment(ctx, void)
	must(t, "void(waiver)", err)
	_, _, err = s.CreatePayment(ctx, &service.PaymentRequest{Payment: service.Payment{Kind: service.KindRefund,
		Method: service.MethodCash, AmountCents: 1, Reverses: rp.ID}})
	wantCode(t, "refund(of a refund)", err, service.EINVALID)

	dup, err = s.FindChargeByID(ctx, cs[1].ID)
	must(t, "FindChargeByID", err)
	if dup.PaidCents != 0 || dup.WaivedCents != 0 {
		t.Fatalf("charge after refund and void = %+v, want nothing paid", dup)
	}
	chg := cs[1].ID
	ps, n, err := s.FindPayments(ctx, service.PaymentFilter{ChargeID: &chg})
	must(t, "FindPayments", err)
	if n != 4 || ps[0].ID != p.ID || ps[3].Kind != service.KindVoid {
		t.Fatalf("FindPayments(charge) = %d %+v, want the payment, waiver, refund and void", n, ps)
	}
	got, err := s.FindPaymentByID(ctx, p.ID)
	must(t, "FindPaymentByID", err)
	if got.Reference != "auth 55531" || got.Key != "till1-0001" || len(got.Lines) != 2 || got.AmountCents != 1700 {
		t.Fatalf("FindPaymentByID = %+v: a refund must not edit the payment", got)
	}

	// A void is for the same day only.
	c.Set(c.Now().Add(24 * time.Hour))
	p2, _, err := s.CreatePayment(ctx, pay([]int64{cs[1].ID}, service.MethodCash, 500))
	must(t, "CreatePayment(next day)", err)
	c.Set(c.Now().Add(24 * time.Hour))
	void.AmountCents, void.Reverses = 500, p2.ID
	_, _, err = s.CreatePayment(ctx, void)
	wantCode(t, "void(a day later)", err, service.EINVALID)
}

// testPaymentsConcurrent: payments at once on one charge never settle
// more than it owes.
func testPaymentsConcurrent(t *testing.T, s service.Store, c *Clock) {
	ctx := context.Background()
	_, _, cs := licenceCharges(t, s)
	var wg sync.WaitGroup
	errs := make([]error, 6)
	for i := range errs {
		wg.Go(func() { _, _, errs[i] = s.CreatePayment(ctx, pay([]int64{cs[0].ID}, service.MethodCash, 500)) })
	}
	wg.Wait()
	ok := 0
	for _, err := range errs {
		if err == nil {
			ok++
		} else if service.ErrorCode(err) != service.EINVALID {
			t.Fatalf("concurrent payment: %v", err)
		}
	}
	got, err := s.FindChargeByID(ctx, cs[0].ID)
	must(t, "FindChargeByID", err)
	if ok != 3 || got.PaidCents != 1500 {
		t.Fatalf("%d payments of 500 on a 1500 charge went through, paid %d; want 3 and 1500", ok, got.PaidCents)
	}
}

// testCashUp: the day's takings by method and fee, refunds and voids
// netted; a closed day takes no more entries.
func testCashUp(t *testing.T, s service.Store, c *Clock) {
	ctx := context.Background()
	_, _, cs := licenceCharges(t, s)
	p, _, err := s.CreatePayment(ctx, pay([]int64{cs[0].ID}, service.MethodCash, 1500))
	must(t, "pay", err)
	_, _, err = s.CreatePayment(ctx, pay([]int64{cs[1].ID}, service.MethodCard, 500))
	must(t, "pay", err)
	_, _, err = s.CreatePayment(ctx, &service.PaymentRequest{Payment: service.Payment{Kind: service.KindRefund,
		Method: service.MethodCash, AmountCents: 400, Reverses: p.ID, Site: "office", Till: "1"}})
	must(t, "refund", err)
	other := pay([]int64{cs[0].ID}, service.MethodCash, 400)
	other.Till = "2"
	_, _, err = s.CreatePayment(ctx, other)
	must(t, "pay at till 2", err)

	day, site, till := service.MustDate("2026-03-15"), "office", "1"
	cu, err := s.CashUp(ctx, service.CashUpFilter{From: day, To: day, Site: &site, Till: &till})
	must(t, "CashUp", err)
	if cu.TotalCents != 1600 || cu.ByMethod["cash"] != 1100 || cu.ByMethod["card"] != 500 ||
		cu.ByFee["altered"] != 1100 || cu.ByFee["duplicate"] != 500 || cu.Payments != 2 || cu.Refunds != 1 || cu.RefundCents != 400 {
		t.Fatalf("CashUp(till 1) = %+v", cu)
	}
	cu, err = s.CashUp(ctx, service.CashUpFilter{From: day, To: day})
	must(t, "CashUp(all)", err)
	if cu.TotalCents != 2000 || cu.ByFee["altered"] != 1500 {
		t.Fatalf("CashUp(all tills) = %+v", cu)
	}
	must(t, "CloseDay", s.CloseDay(ctx, &service.DayClose{Site: site, Till: till, On: day, ClosedBy: "clerk"}))
	wantCode(t, "CloseDay(again)", s.CloseDay(ctx, &service.DayClose{Site: site, Till: till, On: day, ClosedBy: "clerk"}), service.ECONFLICT)
	d, err := s.FindDayClose(ctx, site, till, day)
	must(t, "FindDayClose", err)
	if d.ClosedBy != "clerk" || !d.ClosedAt.Equal(c.Now()) {
		t.Fatalf("FindDayClose = %+v", d)
	}
	_, err = s.FindDayClose(ctx, site, "2", day)
	wantCode(t, "FindDayClose(open till)", err, service.ENOTFOUND)
	_, _, err = s.CreatePayment(ctx, &service.PaymentRequest{Payment: service.Payment{Kind: service.KindRefund,
		Method: service.MethodCash, AmountCents: 100, Reverses: p.ID, Site: "office", Till: "1"}})
	wantCode(t, "refund on a closed day", err, service.ECONFLICT)
	c.Set(c.Now().Add(24 * time.Hour))
	_, _, err = s.CreatePayment(ctx, &service.PaymentRequest{Payment: service.Payment{Kind: service.KindRefund,
		Method: service.MethodCash, AmountCents: 100, Reverses: p.ID, Site: "office", Till: "1"}})
	must(t, "refund the next day", err)
	cu, err = s.CashUp(ctx, service.CashUpFilter{From: day, To: day, Site: &site, Till: &till})
	must(t, "CashUp(closed day)", err)
	if cu.TotalCents != 1600 {
		t.Fatalf("closed day's total changed to %d", cu.TotalCents)
	}
}

// testDepositOutcome_62_40c: a deposit's outcome is set once.
func testDepositOutcome(t *testing.T, s service.Store, c *Clock) {
	ctx := context.Background()
	_, a := fixture(t, s)
	im := &service.Impoundment{AnimalID: a.ID, Jurisdiction: "minneapolis", IntakeOn: service.MustDate("2026-03-10")}
	must(t, "CreateImpoundment", s.CreateImpoundment(ctx, im))
	cs := []*service.Charge{{Kind: "sterilisation-deposit", Section: "Minneapolis 62.40(c)", AmountCents: 5000,
		SubjectKind: service.SubjectImpoundment, SubjectID: im.ID, On: service.MustDate("2026-03-15")}}
	must(t, "CreateCharges", s.CreateCharges(ctx, cs))
	got, err := s.SetChargeOutcome(ctx, cs[0].ID, service.DepositForfeited, service.MustDate("2026-04-30"), "officer")
	must(t, "SetChargeOutcome", err)
	if got.Outcome != service.DepositForfeited || got.OutcomeOn != service.MustDate("2026-04-30") || got.OutcomeBy != "officer" {
		t.Fatalf("SetChargeOutcome = %+v", got)
	}
	_, err = s.SetChargeOutcome(ctx, cs[0].ID, service.DepositRefunded, service.MustDate("2026-04-30"), "officer")
	wantCode(t, "SetChargeOutcome(again)", err, service.ECONFLICT)
	_, err = s.SetChargeOutcome(ctx, 999999, service.DepositRefunded, service.MustDate("2026-04-30"), "officer")
	wantCode(t, "SetChargeOutcome(missing)", err, service.ENOTFOUND)
	kind := "sterilisation-deposit"
	list, _, err := s.FindCharges(ctx, service.ChargeFilter{Kind: &kind})
	must(t, "FindCharges(kind)", err)
	if len(list) != 1 || list[0].Outcome != service.DepositForfeited {
		t.Fatalf("FindCharges(kind) = %+v", list)
	}
}

// testExemptions_64_30: an exemption is kept with who approved it.
func testExemptions(t *testing.T, s service.Store, c *Clock) {
	ctx := context.Background()
	_, a := fixture(t, s)
	wantCode(t, "CreateExemption(no approver)", s.CreateExemption(ctx, &service.Exemption{AnimalID: a.ID, Kind: "service-dog",
		Section: "Minneapolis 64.30"}), service.EINVALID)
	e := &service.Exemption{AnimalID: a.ID, Kind: "service-dog", Section: "Minneapolis 64.30", ApprovedBy: "Supervisor Berg"}
	must(t, "CreateExemption", s.CreateExemption(ctx, e))
	list, err := s.FindExemptions(ctx, a.ID)
	must(t, "FindExemptions", err)
	if len(list) != 1 || list[0].ApprovedBy != "Supervisor Berg" || list[0].On != service.MustDate("2026-03-15") {
		t.Fatalf("FindExemptions = %+v", list)
	}
}

// testMoneyReports_64_30: the clinic remittance, licence sales and
// intakes and outcomes by month.
func testMoneyReports(t *testing.T, s service.Store, c *Clock) {
	ctx := context.Background()
	_, a := fixture(t, s)
	for i, on := range []string{"2026-01-10", "2026-01-20", "2026-02-05"} {
		// An animal each: one active licence per animal and term (64.30).
		l := newLicence(another(t, s, a).ID, "minneapolis", on)
		if i < 2 {
			l.IssuedBy, l.Clinic, l.ClinicPayCents = service.IssuerClinic, "Lake Vet", 300
		}
		must(t, "CreateLicence", s.CreateLicence(ctx, l))
	}
	rem, err := s.Remittance(ctx, "Lake Vet", service.MustDate("2026-01-01"), service.MustDate("2026-01-31"))
	must(t, "Remittance", err)
	if len(rem) != 2 || rem[0].PayCents != 300 || rem[0].IssuedOn != service.MustDate("2026-01-10") || rem[1].Species != "dog" {
		t.Fatalf("Remittance = %+v", rem)
	}
	sales, err := s.LicenceSales(ctx, service.MustDate("2026-01-01"), service.MustDate("2026-12-31"))
	must(t, "LicenceSales", err)
	want := []service.SalesRow{
		{Month: "2026-01", Jurisdiction: "minneapolis", Species: "dog", FeeCode: "altered", Count: 2, Cents: 3000},
		{Month: "2026-02", Jurisdiction: "minneapolis", Species: "dog", FeeCode: "altered", Count: 1, Cents: 1500},
	}
	if len(sales) != 2 || sales[0] != want[0] || sales[1] != want[1] {
		t.Fatalf("LicenceSales = %+v, want %+v", sales, want)
	}
	for _, on := range []string{"2026-01-03", "2026-01-09", "2026-02-01"} {
		im := &service.Impoundment{AnimalID: a.ID, Jurisdiction: "minneapolis", IntakeOn: service.MustDate(on)}
		must(t, "CreateImpoundment", s.CreateImpoundment(ctx, im))
		d, end := service.Redeemed, service.MustDate(on).AddDays(3)
		if on == "2026-02-01" {
			d = service.Euthanised
		}
		_, err := s.UpdateImpoundment(ctx, im.ID, service.ImpoundUpdate{Disposition: &d, DispositionOn: &end})
		must(t, "UpdateImpoundment", err)
	}
	io, err := s.IntakeOutcomes(ctx, service.MustDate("2026-01-01"), service.MustDate("2026-12-31"))
	must(t, "IntakeOutcomes", err)
	if len(io) != 2 || io[0] != (service.IntakeRow{Month: "2026-01", Intakes: 2, Reclaimed: 2}) ||
		io[1] != (service.IntakeRow{Month: "2026-02", Intakes: 1, DisposedOf: 1}) {
		t.Fatalf("IntakeOutcomes = %+v", io)
	}
}

// testReminderOutbox: one reminder per owner per cycle, claimed once.
func testReminderOutbox(t *testing.T, s service.Store, c *Clock) {
	ctx := context.Background()
	o, a := fixture(t, s)
	must(t, "UpdateOwner", func() error {
		e := "ada@example.org"
		_, err := s.UpdateOwner(ctx, o.ID, service.OwnerUpdate{Email: &e})
		return err
	}())
	b := &service.Animal{OwnerID: o.ID, Name: "Tess", Species: service.Cat, Altered: true}
	must(t, "CreateAnimal", s.CreateAnimal(ctx, b))
	o2 := &service.Owner{Name: "Bo Berg", Address: "3 Elm St", City: "Minneapolis", State: "MN", Postcode: "55403"}
	must(t, "CreateOwner", s.CreateOwner(ctx, o2))
	d := &service.Animal{OwnerID: o2.ID, Name: "Fido", Species: service.Dog}
	must(t, "CreateAnimal", s.CreateAnimal(ctx, d))
	renewed := &service.Animal{OwnerID: o2.ID, Name: "Max", Species: service.Dog}
	must(t, "CreateAnimal", s.CreateAnimal(ctx, renewed))
	for _, id := range []int64{a.ID, b.ID, d.ID, renewed.ID} {
		must(t, "CreateLicence", s.CreateLicence(ctx, newLicence(id, "minneapolis", "2026-03-01")))
	}
	// Max is renewed already: his next licence runs past the window.
	next := newLicence(renewed.ID, "minneapolis", "2026-03-10")
	next.ExpiresOn = service.MustDate("2028-01-31")
	must(t, "CreateLicence", s.CreateLicence(ctx, next))

	before := service.MustDate("2027-02-01")
	n, err := s.QueueReminders(ctx, "2027-02-01", 0, before)
	must(t, "QueueReminders", err)
	if n != 2 {
		t.Fatalf("QueueReminders = %d, want one per owner (2)", n)
	}
	n, err = s.QueueReminders(ctx, "2027-02-01", 0, before)
	must(t, "QueueReminders(again)", err)
	if n != 0 {
		t.Fatalf("QueueReminders(again) = %d, want 0", n)
	}
	all, err := s.FindReminders(ctx, "2027-02-01", "")
	must(t, "FindReminders", err)
	if len(all) != 2 || all[0].Channel != service.ChannelEmail || all[0].Email != "ada@example.org" ||
		all[1].Channel != service.ChannelLetter || all[1].Address == "" || all[0].State != service.ReminderPending {
		t.Fatalf("FindReminders = %+v", all)
	}
	for _, r := range all {
		if r.OwnerID == o.ID && (r.Tags != "minneapolis 2026 #1\nminneapolis 2026 #2" && r.Tags != "minneapolis 2026 #2\nminneapolis 2026 #1") {
			t.Errorf("Ada's reminder tags = %q, want both her animals' tags", r.Tags)
		}
		if r.OwnerID == o2.ID && r.Tags != "minneapolis 2026 #3" {
			t.Errorf("Bo's reminder tags = %q, want Fido's only (Max is renewed)", r.Tags)
		}
	}
	got, err := s.ClaimReminders(ctx, "2027-02-01", service.ChannelEmail, 10, nil)
	must(t, "ClaimReminders", err)
	if len(got) != 1 || got[0].State != service.ReminderSending || got[0].Attempts != 1 {
		t.Fatalf("ClaimReminders = %+v", got)
	}
	again, err := s.ClaimReminders(ctx, "2027-02-01", service.ChannelEmail, 10, nil)
	must(t, "ClaimReminders(again)", err)
	if len(again) != 0 {
		t.Fatalf("ClaimReminders(again) = %+v, want none: a claimed reminder is not claimed twice", again)
	}
	// The letter is claimed, given back, claimed again; the e-mail is
	// recorded sent in the same call.
	letters, err := s.ClaimReminders(ctx, "2027-02-01", service.ChannelLetter, 10, nil)
	must(t, "ClaimReminders(letters)", err)
	must(t, "FinishReminders(pending)", s.FinishReminders(ctx, []int64{letters[0].ID}, service.ReminderPending, ""))
	letters, err = s.ClaimReminders(ctx, "2027-02-01", service.ChannelLetter, 10, []int64{got[0].ID})
	must(t, "ClaimReminders(letters again)", err)
	if len(letters) != 1 || letters[0].Attempts != 2 {
		t.Fatalf("letters claimed again = %+v", letters)
	}
	must(t, "FinishReminders(failed)", s.FinishReminders(ctx, []int64{letters[0].ID}, service.ReminderFailed, "no address"))
	wantCode(t, "FinishReminders(bad state)", s.FinishReminders(ctx, nil, "lost", ""), service.EINVALID)
	sent, err := s.FindReminders(ctx, "2027-02-01", service.ReminderSent)
	must(t, "FindReminders(sent)", err)
	if len(sent) != 1 || !sent[0].SentAt.Equal(c.Now()) || sent[0].Subject != service.SubjectLicence {
		t.Fatalf("FindReminders(sent) = %+v", sent)
	}
	// A permit's reminder, queued once per owner and cycle; a batch of
	// claims recorded sent in one call.
	pr := &service.Reminder{Cycle: "permits 2027-02-01", OwnerID: o.ID, Channel: service.ChannelEmail, Name: o.Name, Email: "ada@example.org",
		Tags: "Chanhassen kennel licence no. 7", LicenceID: 7, ExpiresOn: service.MustDate("2026-12-31"), Subject: service.SubjectPermit}
	for i, want := range []bool{true, false} {
		added, err := s.QueueReminder(ctx, pr)
		must(t, "QueueReminder", err)
		if added != want {
			t.Fatalf("QueueReminder #%d = %v, want %v", i+1, added, want)
		}
	}
	pr2 := *pr
	pr2.OwnerID = o2.ID
	_, err = s.QueueReminder(ctx, &pr2)
	must(t, "QueueReminder(Bo)", err)
	_, err = s.QueueReminder(ctx, &service.Reminder{Cycle: "permits 2027-02-01", Channel: service.ChannelEmail})
	wantCode(t, "QueueReminder(no owner)", err, service.EINVALID)
	claimed, err := s.ClaimReminders(ctx, "permits 2027-02-01", service.ChannelEmail, 10, nil)
	must(t, "ClaimReminders(permits)", err)
	if len(claimed) != 2 || claimed[0].Subject != service.SubjectPermit || claimed[0].LicenceID != 7 || claimed[0].ExpiresOn != pr.ExpiresOn {
		t.Fatalf("ClaimReminders(permits) = %+v", claimed)
	}
	_, err = s.ClaimReminders(ctx, "permits 2027-02-01", service.ChannelEmail, 0, []int64{claimed[0].ID, claimed[1].ID})
	must(t, "ClaimReminders(record both)", err)
	if sent, err := s.FindReminders(ctx, "permits 2027-02-01", service.ReminderSent); err != nil || len(sent) != 2 {
		t.Fatalf("FindReminders(permits sent) = %+v, %v; want both", sent, err)
	}
}

// testImportCountsSales_64_30: licences that an import stores (with a
// tag number and without) count in the sales report as sold ones do,
// added to the sales already counted; a store may count an import's
// sales set-wise at its end rather than row by row.
func testImportCountsSales(t *testing.T, s service.Store, c *Clock) {
	ctx := context.Background()
	_, a := fixture(t, s)
	must(t, "CreateLicence", s.CreateLicence(ctx, newLicence(a.ID, "minneapolis", "2026-01-10")))
	var b service.Batch
	for i, on := range []string{"2026-01-10", "2026-01-10", "2026-02-05"} {
		l := newLicence(another(t, s, a).ID, "minneapolis", on)
		if i == 0 {
			l.Year, l.TagNumber = 2026, 500
		}
		b.Licences = append(b.Licences, l)
	}
	must(t, "Import", s.Import(ctx, &b))
	sales, err := s.LicenceSales(ctx, service.MustDate("2026-01-01"), service.MustDate("2026-12-31"))
	must(t, "LicenceSales", err)
	want := []service.SalesRow{
		{Month: "2026-01", Jurisdiction: "minneapolis", Species: "dog", FeeCode: "altered", Count: 3, Cents: 4500},
		{Month: "2026-02", Jurisdiction: "minneapolis", Species: "dog", FeeCode: "altered", Count: 1, Cents: 1500},
	}
	if len(sales) != 2 || sales[0] != want[0] || sales[1] != want[1] {
		t.Fatalf("LicenceSales after import = %+v, want %+v", sales, want)
	}
}
