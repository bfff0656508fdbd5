package money_test

import (
	"bytes"
	"context"
	"encoding/xml"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/money"
	"github.com/chipdesk/chipdesk/service/rules"
	"github.com/chipdesk/chipdesk/service/store/sqlite"
	"github.com/chipdesk/chipdesk/service/store/storetest"
)

type env struct {
	st    *sqlite.DB
	path  string
	clock *storetest.Clock
	rules *rules.Set
	m     *money.Service
}

func open(t *testing.T) *env {
	t.Helper()
	e := &env{path: filepath.Join(t.TempDir(), "chipdesk.db"), clock: storetest.NewClock(storetest.Start)}
	var err error
	if e.rules, err = rules.Embedded(); err != nil {
		t.Fatal(err)
	}
	e.reopen(t)
	return e
}

// reopen opens the database file again, as a process does after a
// crash: what was committed is all there is.
func (e *env) reopen(t *testing.T) {
	t.Helper()
	if e.st != nil {
		e.st.Close()
	}
	st, err := sqlite.Open(context.Background(), e.path, &sqlite.Opts{Now: e.clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	e.st = st
	if e.m, err = money.New(&money.Opts{Store: st, Rules: e.rules, Now: e.clock.Now}); err != nil {
		t.Fatal(err)
	}
}

func must(t *testing.T, what string, err error) {
	t.Helper()
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

func wantCode(t *testing.T, what string, err error, code string) {
	t.Helper()
	if got := service.ErrorCode(err); got != code {
		t.Fatalf("%s: error %v (code %q), want %q", what, err, got, code)
	}
}

func (e *env) animal(t *testing.T, a *service.Animal) *service.Animal {
	t.Helper()
	ctx := context.Background()
	o := &service.Owner{Name: "Ada Lund", Address: "12 Lake St", City: "Minneapolis", Email: "ada@example.org"}
	must(t, "CreateOwner", e.st.CreateOwner(ctx, o))
	a.OwnerID, a.Name = o.ID, "Rex"
	must(t, "CreateAnimal", e.st.CreateAnimal(ctx, a))
	return a
}

func day(s string) service.Date { return service.MustDate(s) }

// TestChargeLicence: a licence's fee lines become charges on the owner
// with their section, by section of the law.
func TestChargeLicence(t *testing.T) {
	t.Parallel()
	type line struct {
		kind, section string
		cents         int64
	}
	for _, tc := range []struct {
		name   string
		animal service.Animal
		clinic bool
		want   []line
	}{
		{"64.30 unaltered dog", service.Animal{Species: service.Dog, BirthDate: day("2020-01-01")}, false,
			[]line{{"unaltered", "Minneapolis 64.30", 3000}}},
		{"64.30 spayed cat", service.Animal{Species: service.Cat, Altered: true, BirthDate: day("2020-01-01")}, false,
			[]line{{"altered", "Minneapolis 64.30", 1500}}},
		{"64.30 puppy under eight months", service.Animal{Species: service.Dog, BirthDate: day("2026-01-01")}, true,
			[]line{{"young", "Minneapolis 64.30", 1500}}},
		{"64.30 service dog exempt", service.Animal{Species: service.Dog, Programme: service.ServiceDog, BirthDate: day("2020-01-01")}, false,
			nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := open(t)
			ctx := context.Background()
			a := e.animal(t, &tc.animal)
			p := e.rules.Profile("minneapolis")
			on := day("2026-03-15")
			rabies := &service.RabiesVaccination{Date: day("2026-01-10")}
			o := rules.QuoteOpts{Issuer: service.IssuerOffice}
			if tc.clinic {
				o.Issuer = service.IssuerClinic
			}
			q := p.LicenceQuote(a, rabies, on, o)
			l := &service.Licence{AnimalID: a.ID, Jurisdiction: "minneapolis", IssuedOn: on, ExpiresOn: q.ExpiresOn,
				FeeCents: q.Fees.TotalCents, FeeCode: q.FeeCode, IssuedBy: o.Issuer, ClinicPayCents: q.ClinicPayCents}
			if tc.clinic {
				l.Clinic = "Lake Vet"
			}
			must(t, "CreateLicence", e.st.CreateLicence(ctx, l))
			cs, err := money.ChargeLicence(ctx, e.st, l, &q.Fees)
			must(t, "ChargeLicence", err)
			if len(cs) != len(tc.want) {
				t.Fatalf("ChargeLicence = %d charges %+v, want %v", len(cs), cs, tc.want)
			}
			for i, w := range tc.want {
				c := cs[i]
				if c.Kind != w.kind || !strings.HasPrefix(c.Section, w.section) || c.AmountCents != w.cents || c.PayerID != a.OwnerID {
					t.Errorf("charge %d = %s %q %d payer %d, want %v payer %d", i, c.Kind, c.Section, c.AmountCents, c.PayerID, w, a.OwnerID)
				}
			}
			st, err := e.m.Settled(ctx, service.SubjectLicence, l.ID)
			must(t, "Settled", err)
			if st.Complete != (len(tc.want) == 0) {
				t.Fatalf("Settled before payment = %+v", st)
			}
			if len(cs) > 0 {
				_, _, err := e.m.Pay(ctx, &service.PaymentRequest{ChargeIDs: []int64{cs[0].ID},
					Payment: service.Payment{Method: service.MethodCash, AmountCents: cs[0].AmountCents}})
				must(t, "Pay", err)
				st, err := e.m.Settled(ctx, service.SubjectLicence, l.ID)
				must(t, "Settled", err)
				if !st.Complete || st.OwedCents != 0 {
					t.Fatalf("Settled after payment = %+v", st)
				}
			}
			// Raising them again raises nothing new.
			again, err := money.ChargeLicence(ctx, e.st, l, &q.Fees)
			must(t, "ChargeLicence(again)", err)
			for i := range again {
				if again[i].ID != cs[i].ID {
					t.Fatalf("ChargeLicence(again) made charge %d, want %d", again[i].ID, cs[i].ID)
				}
			}
		})
	}
}

// TestChargeDuplicate_64_40: a duplicate tag's fee is one charge.
func TestChargeDuplicate_64_40(t *testing.T) {
	t.Parallel()
	e := open(t)
	ctx := context.Background()
	a := e.animal(t, &service.Animal{Species: service.Dog, Altered: true})
	p := e.rules.Profile("minneapolis")
	old := &service.Licence{AnimalID: a.ID, Jurisdiction: "minneapolis", IssuedOn: day("2026-02-01"), ExpiresOn: day("2027-01-31"), FeeCents: 1500}
	must(t, "CreateLicence", e.st.CreateLicence(ctx, old))
	fees, _ := p.DuplicateQuote(service.TagLost)
	l := &service.Licence{AnimalID: a.ID, Jurisdiction: "minneapolis", IssuedOn: day("2026-03-15"), ExpiresOn: old.ExpiresOn,
		FeeCents: fees.TotalCents, FeeCode: "duplicate", Replaces: old.ID, ReplaceReason: service.TagLost}
	must(t, "CreateLicence", e.st.CreateLicence(ctx, l))
	cs, err := money.ChargeLicence(ctx, e.st, l, fees)
	must(t, "ChargeLicence", err)
	if fees.Complete {
		if len(cs) != 1 || cs[0].Kind != "duplicate-tag" || !strings.Contains(cs[0].Section, "64.40") || cs[0].AmountCents != fees.TotalCents {
			t.Fatalf("duplicate charges = %+v (fees %+v)", cs, fees)
		}
	} else if len(cs) != 0 {
		t.Fatalf("a duplicate fee not set raised %+v", cs)
	}
}

// TestChargeRedemption_62_40: releasing an unlicensed dog charges the
// impound fee, board per day, a licence and its penalty (62.40(a),
// (b)); the sterilisation deposit (62.40(c)) is set by the director,
// so it is charged only as entered.
func TestChargeRedemption_62_40(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		entered map[string]int64
		want    map[string]int64
		open    []string
	}{
		{"deposit not entered", nil,
			map[string]int64{"impound": 5000, "board": 3 * 1500, "unaltered": 3000, "licence-penalty": 1000},
			[]string{"sterilisation-deposit"}},
		{"deposit entered", map[string]int64{"sterilisation-deposit": 7500},
			map[string]int64{"impound": 5000, "board": 3 * 1500, "unaltered": 3000, "licence-penalty": 1000, "sterilisation-deposit": 7500},
			nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := open(t)
			ctx := context.Background()
			a := e.animal(t, &service.Animal{Species: service.Dog, BirthDate: day("2020-01-01")})
			im := &service.Impoundment{AnimalID: a.ID, Jurisdiction: "minneapolis", IntakeOn: day("2026-03-13"),
				DispositionOn: day("2026-03-15"), Disposition: service.Redeemed}
			must(t, "CreateImpoundment", e.st.CreateImpoundment(ctx, im))
			cs, open, err := e.m.ChargeRedemption(ctx, im, tc.entered)
			must(t, "ChargeRedemption", err)
			got := map[string]int64{}
			for _, c := range cs {
				got[c.Kind] = c.AmountCents
				if !strings.HasPrefix(c.Section, "Minneapolis ") || c.On != day("2026-03-15") || c.PayerID != a.OwnerID {
					t.Errorf("charge %+v: want a Minneapolis section, the redemption day and the owner", c)
				}
			}
			if len(got) != len(tc.want) {
				t.Fatalf("charges = %v, want %v", got, tc.want)
			}
			for k, v := range tc.want {
				if got[k] != v {
					t.Errorf("charge %s = %d, want %d", k, got[k], v)
				}
			}
			if strings.Join(open, ",") != strings.Join(tc.open, ",") {
				t.Errorf("left open %v, want %v", open, tc.open)
			}
			st, err := e.m.Settled(ctx, service.SubjectImpoundment, im.ID)
			must(t, "Settled", err)
			if st.Complete {
				t.Fatalf("redemption complete before payment: %+v", st)
			}
		})
	}
}

// TestDeposit_62_40c: refundable on proof within 45 days of the
// redemption date, forfeited after, never both.
func TestDeposit_62_40c(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name     string
		proofOn  string
		action   string // "refund" or "forfeit"
		wantCode string
		state    string // on the officer's list that day
	}{
		{"refund on day 10", "2026-03-25", "refund", "", "held"},
		{"refund on day 45", "2026-04-29", "refund", "", "held"},
		{"refund on day 46 is refused", "2026-04-30", "refund", service.EINVALID, "overdue"},
		{"forfeit on day 45 is refused", "2026-04-29", "forfeit", service.EINVALID, "held"},
		{"forfeit on day 46", "2026-04-30", "forfeit", "", "overdue"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := open(t)
			ctx := context.Background()
			a := e.animal(t, &service.Animal{Species: service.Dog, BirthDate: day("2020-01-01")})
			im := &service.Impoundment{AnimalID: a.ID, Jurisdiction: "minneapolis", IntakeOn: day("2026-03-14"), DispositionOn: day("2026-03-15")}
			must(t, "CreateImpoundment", e.st.CreateImpoundment(ctx, im))
			cs, _, err := e.m.ChargeRedemption(ctx, im, map[string]int64{money.DepositKind: 7500})
			must(t, "ChargeRedemption", err)
			var dep *service.Charge
			for _, c := range cs {
				if c.Kind == money.DepositKind {
					dep = c
				}
			}
			_, _, err = e.m.Pay(ctx, &service.PaymentRequest{ChargeIDs: []int64{dep.ID},
				Payment: service.Payment{Method: service.MethodCard, AmountCents: 7500, Till: "1"}})
			must(t, "Pay", err)
			on := day(tc.proofOn)
			list, err := e.m.Deposits(ctx, on)
			must(t, "Deposits", err)
			if len(list) != 1 || list[0].State != tc.state || list[0].DueOn != day("2026-04-29") {
				t.Fatalf("Deposits(%s) = %+v, want one %s due 2026-04-29", on, list, tc.state)
			}
			e.clock.Set(on.Time(time.UTC).Add(12 * time.Hour))
			switch tc.action {
			case "refund":
				p, err := e.m.RefundDeposit(ctx, dep.ID, on, "officer Lind", "vet certificate 2231", "shelter", "1")
				wantCode(t, "RefundDeposit", err, tc.wantCode)
				if err == nil && (p.Method != service.MethodCard || p.AmountCents != 7500) {
					t.Fatalf("refund = %+v, want 7500 back by card", p)
				}
			case "forfeit":
				_, err := e.m.ForfeitDeposit(ctx, dep.ID, on, "officer Lind")
				wantCode(t, "ForfeitDeposit", err, tc.wantCode)
			}
			if tc.wantCode == "" {
				_, err := e.m.ForfeitDeposit(ctx, dep.ID, day("2026-06-01"), "officer Lind")
				wantCode(t, "a second outcome", err, service.ECONFLICT)
				list, err := e.m.Deposits(ctx, on)
				must(t, "Deposits", err)
				if len(list) != 0 {
					t.Fatalf("Deposits after the outcome = %+v, want none", list)
				}
			}
		})
	}
}

// TestPaymentSurvivesCrash: a payment committed and the process gone
// before the receipt was printed: the receipt prints from the store
// after a restart, and the till's retry with the same key does not take
// the money twice.
func TestPaymentSurvivesCrash(t *testing.T) {
	t.Parallel()
	e := open(t)
	ctx := context.Background()
	a := e.animal(t, &service.Animal{Species: service.Dog, Altered: true})
	l := &service.Licence{AnimalID: a.ID, Jurisdiction: "minneapolis", IssuedOn: day("2026-03-15"), ExpiresOn: day("2027-01-31"), FeeCents: 1500, FeeCode: "altered"}
	must(t, "CreateLicence", e.st.CreateLicence(ctx, l))
	q := e.rules.Profile("minneapolis").LicenceQuote(a, nil, l.IssuedOn, rules.QuoteOpts{})
	cs, err := money.ChargeLicence(ctx, e.st, l, &q.Fees)
	must(t, "ChargeLicence", err)
	req := &service.PaymentRequest{ChargeIDs: []int64{cs[0].ID},
		Payment: service.Payment{Method: service.MethodCash, AmountCents: 1500, Key: "till-1/000042", Till: "1"}}
	p, _, err := e.m.Pay(ctx, req)
	must(t, "Pay", err)
	e.reopen(t) // the crash: nothing but the database survives
	r, err := e.m.Receipt(ctx, p.ID)
	must(t, "Receipt after restart", err)
	if r.Payment.AmountCents != 1500 || len(r.Charges) != 1 || r.Charges[0].OwedCents() != 0 {
		t.Fatalf("receipt after restart = %+v", r)
	}
	again, created, err := e.m.Pay(ctx, req)
	must(t, "Pay(retry)", err)
	if created || again.ID != p.ID {
		t.Fatalf("retry made payment %d (created %v), want %d again", again.ID, created, p.ID)
	}
	cu, err := e.m.CashUp(ctx, day("2026-03-15"), nil, nil)
	must(t, "CashUp", err)
	if cu.TotalCents != 1500 || cu.Payments != 1 {
		t.Fatalf("cash-up after crash and retry = %+v, want one payment of 1500", cu)
	}
}

// TestRemittance_64_30: a clinic's month lists its licences and what
// the city owes it.
func TestRemittance_64_30(t *testing.T) {
	t.Parallel()
	e := open(t)
	ctx := context.Background()
	for _, on := range []string{"2026-02-27", "2026-03-02", "2026-03-31", "2026-04-01"} {
		// An animal each: one active licence per animal and term (64.30).
		a := e.animal(t, &service.Animal{Species: service.Dog, Altered: true})
		l := &service.Licence{AnimalID: a.ID, Jurisdiction: "minneapolis", IssuedOn: day(on), ExpiresOn: day("2027-01-31"),
			FeeCents: 1500, IssuedBy: service.IssuerClinic, Clinic: "Lake Vet", ClinicPayCents: 200}
		must(t, "CreateLicence", e.st.CreateLicence(ctx, l))
	}
	st, err := e.m.Remittance(ctx, "Lake Vet", "2026-03")
	must(t, "Remittance", err)
	if st.Licences != 2 || st.TotalCents != 400 || st.Section != "Minneapolis 64.30" {
		t.Fatalf("Remittance = %+v", st)
	}
	other, err := e.m.Remittance(ctx, "Elm Clinic", "2026-03")
	must(t, "Remittance(other clinic)", err)
	if other.Licences != 0 {
		t.Fatalf("another clinic's statement lists %d licences", other.Licences)
	}
	_, err = e.m.Remittance(ctx, "Lake Vet", "March")
	wantCode(t, "Remittance(bad month)", err, service.EINVALID)
}

// TestBarChart: the chart is well-formed SVG with a bar per value, its
// labels escaped, and nothing fetched from elsewhere.
func TestBarChart(t *testing.T) {
	t.Parallel()
	svg := money.BarChart(`Licences <2026> & "fees"`, []money.Bar{{"2026-01", 10}, {"2026-02", 0}, {"a<b", 5}}, money.Count)
	dec := xml.NewDecoder(bytes.NewReader(svg))
	rects := 0
	for {
		tok, err := dec.Token()
		if err != nil {
			if err.Error() == "EOF" {
				break
			}
			t.Fatalf("not well-formed: %v\n%s", err, svg)
		}
		if se, ok := tok.(xml.StartElement); ok && se.Name.Local == "rect" {
			rects++
		}
	}
	if rects != 3 {
		t.Fatalf("%d bars, want 3", rects)
	}
	for _, bad := range []string{"<script", "http://", "https://", "href"} {
		if bytes.Contains(bytes.ReplaceAll(svg, []byte(`xmlns="http://www.w3.org/2000/svg"`), nil), []byte(bad)) {
			t.Errorf("chart contains %q", bad)
		}
	}
}

// TestSettledRedemptionWithoutCharges_62_40: a redemption whose fees
// were frozen at release but whose charges were never raised (a crash
// between the two) is not complete until they are raised and paid.
func TestSettledRedemptionWithoutCharges_62_40(t *testing.T) {
	t.Parallel()
	e := open(t)
	ctx := context.Background()
	a := e.animal(t, &service.Animal{Species: service.Dog, Altered: true})
	im := &service.Impoundment{AnimalID: a.ID, Jurisdiction: "minneapolis", IntakeOn: day("2026-03-13")}
	must(t, "CreateImpoundment", e.st.CreateImpoundment(ctx, im))
	redeemed, on, fees := service.Redeemed, day("2026-03-15"), int64(9500)
	_, err := e.st.UpdateImpoundment(ctx, im.ID, service.ImpoundUpdate{Disposition: &redeemed, DispositionOn: &on, FeesCents: &fees})
	must(t, "UpdateImpoundment", err)
	st, err := e.m.Settled(ctx, service.SubjectImpoundment, im.ID)
	must(t, "Settled", err)
	if st.Complete {
		t.Fatalf("a redemption with fees and no charges is complete: %+v", st)
	}
	cs, _, err := e.m.ChargeRedemptionFees(ctx, im.ID, nil)
	must(t, "ChargeRedemptionFees", err)
	if len(cs) == 0 {
		t.Fatal("no charges raised again")
	}
}
