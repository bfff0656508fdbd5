package httpapi_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/chipdesk/chipdesk/service"
)

type chargeView struct {
	ID          int64  `json:"id"`
	Kind        string `json:"kind"`
	Section     string `json:"section"`
	AmountCents int64  `json:"amount_cents"`
	PaidCents   int64  `json:"paid_cents"`
}

type paymentView struct {
	ID      int64        `json:"id"`
	Kind    string       `json:"kind"`
	Charges []chargeView `json:"charges"`
}

// TestPayLicence: a licence issued raises its charge (64.30); a payment
// of it answers 201 with the charges it settled; more than is owed is
// 400; the cash-up of the day has it by method and fee; the licence is
// then complete.
func TestPayLicence(t *testing.T) { onBackends(t, testPayLicence) }

func testPayLicence(t *testing.T, h *harness) {
	s := h.seed()
	h.vaccinate(service.RoleClinic, s.animal, "2026-05-01", "killed")
	var l struct{ ID int64 }
	h.mustJSON(service.RoleIntake, "POST", "/api/v1/licences", map[string]any{"animal_id": s.animal, "jurisdiction": "minneapolis"}, http.StatusCreated, &l)
	var cs struct {
		Items []chargeView
		Total int
	}
	h.mustJSON(service.RoleClinic, "GET", "/api/v1/charges?licence_id="+itoa(l.ID), nil, http.StatusOK, &cs)
	if cs.Total != 1 || cs.Items[0].AmountCents != 1500 || cs.Items[0].PaidCents != 0 || cs.Items[0].Section != "Minneapolis 64.30" {
		t.Fatalf("charges of licence = %+v, want one of 1500 under Minneapolis 64.30", cs)
	}
	var st struct{ Complete bool }
	h.mustJSON(service.RoleIntake, "GET", "/api/v1/settlement?licence_id="+itoa(l.ID), nil, http.StatusOK, &st)
	if st.Complete {
		t.Fatal("licence complete before it is paid")
	}
	id := cs.Items[0].ID
	code, b := h.do(service.RoleIntake, "POST", "/api/v1/payments", map[string]any{"charge_ids": []int64{id}, "method": "cash", "amount_cents": 1501})
	if code != http.StatusBadRequest || !strings.Contains(string(b), "amount_cents") {
		t.Fatalf("overpayment = %d %s, want 400 naming amount_cents", code, b)
	}
	var p paymentView
	h.mustJSON(service.RoleIntake, "POST", "/api/v1/payments", map[string]any{"charge_ids": []int64{id}, "method": "cash", "amount_cents": 1000}, http.StatusCreated, &p)
	if p.ID == 0 || len(p.Charges) != 1 || p.Charges[0].ID != id || p.Charges[0].PaidCents != 1000 {
		t.Fatalf("part payment = %+v", p)
	}
	h.mustJSON(service.RoleIntake, "POST", "/api/v1/payments", map[string]any{"charge_ids": []int64{id}, "method": "card", "amount_cents": 500, "till": ""}, http.StatusCreated, &p)
	h.mustJSON(service.RoleIntake, "GET", "/api/v1/settlement?licence_id="+itoa(l.ID), nil, http.StatusOK, &st)
	if !st.Complete {
		t.Fatal("licence not complete once paid")
	}
	var cu struct {
		TotalCents int64            `json:"total_cents"`
		ByMethod   map[string]int64 `json:"by_method"`
		ByFee      map[string]int64 `json:"by_fee"`
	}
	h.mustJSON(service.RoleIntake, "GET", "/api/v1/reports/cash-up?date=2026-06-10", nil, http.StatusOK, &cu)
	if cu.TotalCents != 1500 || cu.ByMethod["cash"] != 1000 || cu.ByMethod["card"] != 500 || cu.ByFee["altered"] != 1500 {
		t.Fatalf("cash-up = %+v", cu)
	}
	// A clinic sees only its own site's takings: none here.
	h.mustJSON(service.RoleClinic, "GET", "/api/v1/reports/cash-up?date=2026-06-10", nil, http.StatusOK, &cu)
	if cu.TotalCents != 0 {
		t.Fatalf("clinic cash-up = %+v, want none of the intake desk's takings", cu)
	}
	code, _ = h.do(service.RoleClinic, "GET", "/api/v1/payments/"+itoa(p.ID), nil)
	if code != http.StatusNotFound {
		t.Fatalf("clinic reading another site's receipt = %d, want 404", code)
	}
	code, _ = h.do(service.RoleIntake, "GET", "/api/v1/reports/cash-up?date=June", nil)
	if code != http.StatusBadRequest {
		t.Fatalf("cash-up with a bad date = %d, want 400", code)
	}
	code, b = h.do(service.RoleIntake, "GET", "/api/v1/reports/cash-up?date=2026-06-10&format=csv", nil)
	if code != http.StatusOK || !strings.Contains(string(b), "2026-06-10,total,,1500") {
		t.Fatalf("cash-up CSV = %d %s", code, b)
	}
}

// TestPayIdempotent: the same Idempotency-Key takes the money once.
func TestPayIdempotent(t *testing.T) {
	h := newHarness(t)
	s := h.seed()
	h.vaccinate(service.RoleClinic, s.animal, "2026-05-01", "killed")
	var l struct{ ID int64 }
	h.mustJSON(service.RoleClinic, "POST", "/api/v1/licences", map[string]any{"animal_id": s.animal, "jurisdiction": "minneapolis"}, http.StatusCreated, &l)
	var cs struct{ Items []chargeView }
	h.mustJSON(service.RoleClinic, "GET", "/api/v1/charges?licence_id="+itoa(l.ID), nil, http.StatusOK, &cs)
	body := `{"charge_ids":[` + itoa(cs.Items[0].ID) + `],"method":"card","amount_cents":1500}`
	code, _, b1 := h.postKeyed(service.RoleClinic, "/api/v1/payments", "till-7-0001", body)
	code2, _, b2 := h.postKeyed(service.RoleClinic, "/api/v1/payments", "till-7-0001", body)
	if code != http.StatusCreated || code2 != http.StatusOK {
		t.Fatalf("payment and retry = %d, %d; want 201, 200\n%s\n%s", code, code2, b1, b2)
	}
	var cu struct {
		TotalCents int64 `json:"total_cents"`
	}
	h.mustJSON(service.RoleClinic, "GET", "/api/v1/reports/cash-up?date=2026-06-10", nil, http.StatusOK, &cu)
	if cu.TotalCents != 1500 {
		t.Fatalf("clinic cash-up after a retry = %d, want 1500 once", cu.TotalCents)
	}
}

// TestRedemptionCharges_62_40: recording a redemption raises its
// charges (62.40(a) impound fee, 62.40(b) board, a licence and its
// penalty); they list by impoundment.
func TestRedemptionCharges_62_40(t *testing.T) { onBackends(t, testRedemptionCharges) }

func testRedemptionCharges(t *testing.T, h *harness) {
	s := h.seed()
	var im struct{ ID int64 }
	h.mustJSON(service.RoleIntake, "POST", "/api/v1/impoundments", map[string]any{
		"animal_id": s.animal, "jurisdiction": "minneapolis", "intake_on": "2026-06-08"}, http.StatusCreated, &im)
	h.mustJSON(service.RoleIntake, "PATCH", "/api/v1/impoundments/"+itoa(im.ID), map[string]any{
		"disposition": "redeemed", "disposition_on": "2026-06-10"}, http.StatusOK, nil)
	var cs struct {
		Items []chargeView
		Total int
	}
	h.mustJSON(service.RoleOfficer, "GET", "/api/v1/charges?impoundment_id="+itoa(im.ID), nil, http.StatusOK, &cs)
	got := map[string]chargeView{}
	for _, c := range cs.Items {
		got[c.Kind] = c
	}
	if got["impound"].AmountCents != 5000 || got["board"].AmountCents != 3*1500 || got["licence-penalty"].AmountCents != 1000 ||
		!strings.Contains(got["board"].Section, "62.40(b)") {
		t.Fatalf("redemption charges = %+v", cs.Items)
	}
	var st struct{ Complete bool }
	h.mustJSON(service.RoleIntake, "GET", "/api/v1/settlement?impoundment_id="+itoa(im.ID), nil, http.StatusOK, &st)
	if st.Complete {
		t.Fatal("redemption complete before its charges are paid")
	}
	code, _ := h.do(service.RoleIntake, "GET", "/api/v1/charges", nil)
	if code != http.StatusBadRequest {
		t.Fatalf("charges without a subject = %d, want 400", code)
	}
}

// TestPermitCharges_64_100c: a permit granted through the API raises its
// fee (64.100(c)) on its holder; it lists by permit and is paid like any
// other charge. A fee the ordinance sets is not entered (400, naming
// entered_cents); a pending application has no charges to raise (409).
func TestPermitCharges_64_100c(t *testing.T) { onBackends(t, testPermitCharges) }

func testPermitCharges(t *testing.T, h *harness) {
	var p struct{ ID int64 }
	h.mustJSON(service.RoleIntake, "POST", "/api/v1/permits", map[string]any{"kind": "multi_animal", "jurisdiction": "Minneapolis",
		"holder": "Ada", "address": "1 Elm", "application": map[string]any{"animals": 4}}, http.StatusCreated, &p)
	var cs struct {
		Items []chargeView
		Total int
	}
	h.mustJSON(service.RoleIntake, "GET", "/api/v1/charges?permit_id="+itoa(p.ID), nil, http.StatusOK, &cs)
	if cs.Total != 1 || cs.Items[0].AmountCents != 2000 || cs.Items[0].Section != "Minneapolis 64.100(c)" {
		t.Fatalf("permit charges = %+v, want $20 under Minneapolis 64.100(c)", cs)
	}
	var pay paymentView
	h.mustJSON(service.RoleIntake, "POST", "/api/v1/payments", map[string]any{"charge_ids": []int64{cs.Items[0].ID}, "method": "cheque",
		"amount_cents": 2000, "reference": "cheque 1042"}, http.StatusCreated, &pay)
	if len(pay.Charges) != 1 || pay.Charges[0].PaidCents != 2000 {
		t.Fatalf("payment = %+v", pay)
	}
	code, b := h.do(service.RoleIntake, "POST", "/api/v1/permits/"+itoa(p.ID)+"/charges", map[string]any{"entered_cents": map[string]int64{"multi-animal": 100}})
	if code != http.StatusBadRequest || !strings.Contains(string(b), "entered_cents") {
		t.Fatalf("entering a fee the ordinance sets = %d %s, want 400 naming entered_cents", code, b)
	}
	var k struct{ ID int64 }
	h.mustJSON(service.RoleIntake, "POST", "/api/v1/permits", map[string]any{"kind": "kennel", "jurisdiction": "chanhassen", "class": "private",
		"holder": "Kari Berg", "issued": "2026-03-10"}, http.StatusCreated, &k)
	code, b = h.do(service.RoleIntake, "POST", "/api/v1/permits/"+itoa(k.ID)+"/charges", map[string]any{"entered_cents": map[string]int64{"kennel-licence": 7500}})
	if code != http.StatusConflict {
		t.Fatalf("charging a pending kennel application = %d %s, want 409", code, b)
	}
}
