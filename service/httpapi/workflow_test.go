package httpapi_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/chipdesk/chipdesk/service"
)

type issued struct {
	ID        int64
	TagNumber int    `json:"tag_number"`
	FeeCents  int64  `json:"fee_cents"`
	Expires   string `json:"expires"`
	Year      int
	Warnings  []string
}

type fullAnswer struct {
	answer
	Jurisdiction string
	Tag          *struct {
		Number int
		Status string
	}
	Quarantine *struct {
		Kind, Place, End string
	}
	AlertDetails []struct{ Code, Severity, Section string } `json:"alert_details"`
	HoldUntil    string                                     `json:"hold_until"`
	Redemption   *struct {
		TotalCents int64 `json:"total_cents"`
		Complete   bool
		Lines      []struct {
			Code  string
			Cents int64
		}
	}
	Impounds []struct {
		ID   int64
		Open bool
	}
	Deadlines []struct{ What, Due string }
}

func (h *harness) vaccinate(role service.Role, animal int64, date, typ string) {
	h.t.Helper()
	months := 36
	if typ == "modified-live" {
		months = 12
	}
	h.mustJSON(role, "POST", "/api/v1/vaccinations", map[string]any{
		"animal_id": animal, "date": date, "type": typ, "duration_months": months, "certificate": "MN-" + date,
		"veterinarian": "Dr. A. Hale",
	}, http.StatusCreated, nil)
}

// TestIssueLicenceMinneapolis: the fee and expiry come from the rules
// (Minneapolis 64.30: $15 for an altered dog, expiring on January 31
// next after issuance), tag numbers are handed out in turn.
func TestIssueLicenceMinneapolis(t *testing.T) { onBackends(t, testIssueLicenceMinneapolis) }

func testIssueLicenceMinneapolis(t *testing.T, h *harness) {
	s := h.seed()
	// 64.30: a licence needs a current rabies vaccination.
	code, b := h.do(service.RoleIntake, "POST", "/api/v1/licences", map[string]any{"animal_id": s.animal, "jurisdiction": "minneapolis"})
	if code != http.StatusBadRequest || !strings.Contains(string(b), "rabies") {
		t.Fatalf("licence without vaccination = %d %s, want 400 about rabies", code, b)
	}
	h.vaccinate(service.RoleClinic, s.animal, "2026-05-01", "killed")
	var l1, l2 issued
	h.mustJSON(service.RoleIntake, "POST", "/api/v1/licences", map[string]any{"animal_id": s.animal, "jurisdiction": "minneapolis"}, http.StatusCreated, &l1)
	if l1.FeeCents != 1500 || l1.Expires != "2027-01-31" || l1.Year != 2026 || l1.TagNumber <= 0 {
		t.Errorf("issued %+v, want fee 1500, expires 2027-01-31, year 2026 and a tag number (64.30)", l1)
	}
	// A clinic renews only what its site issued (scope).
	if code, b := h.do(service.RoleClinic, "POST", fmt.Sprintf("/api/v1/licences/%d/renew", l1.ID), map[string]any{}); code != http.StatusNotFound {
		t.Errorf("clinic renewing the office's licence = %d %s, want 404", code, b)
	}
	// A renewal before the term ends is the next term: from 2027-02-01
	// to 2028-01-31, tag 1 of 2027.
	h.mustJSON(service.RoleIntake, "POST", fmt.Sprintf("/api/v1/licences/%d/renew", l1.ID), map[string]any{}, http.StatusCreated, &l2)
	if l2.Year != 2027 || l2.TagNumber != 1 || l2.Expires != "2028-01-31" {
		t.Errorf("renewal = %+v, want tag 1 of 2027, expiring 2028-01-31", l2)
	}
	var a fullAnswer
	h.mustJSON(service.RolePublic, "GET", fmt.Sprintf("/api/v1/lookup?tag=%d&jurisdiction=minneapolis&year=2026", l1.TagNumber), nil, http.StatusOK, &a)
	if !a.Found || a.Animal == nil || a.Animal.ID != s.animal || a.Licence == nil || a.Licence.Status != "current" || a.Licence.Expires != "2027-01-31" {
		t.Errorf("tag lookup = %+v licence %+v, want Biscuit with a current licence", a.Animal, a.Licence)
	}
	if a.Owner != nil {
		t.Error("public tag lookup carries the owner")
	}
	if a.Rabies == nil || a.Rabies.Status != "current" {
		t.Errorf("rabies = %+v, want current", a.Rabies)
	}
}

// TestIssueLicenceChanhassen: 5-53 leaves the fee to chapter 4, so the
// clerk gives it; 5-54 ends the licence on the vaccination's
// anniversary.
func TestIssueLicenceChanhassen(t *testing.T) { onBackends(t, testIssueLicenceChanhassen) }

func testIssueLicenceChanhassen(t *testing.T, h *harness) {
	s := h.seed()
	// 5-37(a) gives a period for modified live vaccine only.
	h.vaccinate(service.RoleAdmin, s.animal, "2025-09-15", "modified-live")
	code, b := h.do(service.RoleIntake, "POST", "/api/v1/licences", map[string]any{"animal_id": s.animal, "jurisdiction": "chanhassen"})
	if code != http.StatusBadRequest || !strings.Contains(string(b), "fee_cents") {
		t.Fatalf("Chanhassen licence without fee = %d %s, want 400 asking for fee_cents", code, b)
	}
	var l issued
	h.mustJSON(service.RoleIntake, "POST", "/api/v1/licences", map[string]any{"animal_id": s.animal, "jurisdiction": "chanhassen", "fee_cents": 2000}, http.StatusCreated, &l)
	if l.Expires != "2026-09-15" || l.FeeCents != 2000 || len(l.Warnings) == 0 {
		t.Errorf("issued %+v, want expiry 2026-09-15 (5-54), fee 2000 with a warning", l)
	}
	code, _ = h.do(service.RoleIntake, "POST", "/api/v1/licences", map[string]any{"animal_id": s.animal, "jurisdiction": "minneapolis", "fee_cents": 1})
	if code != http.StatusBadRequest {
		t.Errorf("fee_cents where 64.30 sets the fee = %d, want 400", code)
	}
}

// TestDangerousAtTop: a dangerous designation puts the handling
// restrictions (64.110) in the answer and its alert first.
func TestDangerousAtTop(t *testing.T) { onBackends(t, testDangerousAtTop) }

func testDangerousAtTop(t *testing.T, h *harness) {
	s := h.seed()
	h.vaccinate(service.RoleAdmin, s.animal, "2026-01-10", "killed")
	h.mustJSON(service.RoleIntake, "POST", "/api/v1/licences", map[string]any{"animal_id": s.animal, "jurisdiction": "minneapolis"}, http.StatusCreated, nil)
	h.mustJSON(service.RoleOfficer, "POST", "/api/v1/bites", map[string]any{"animal_id": s.animal, "date": "2026-06-08", "victim": "person", "skin_broken": true}, http.StatusCreated, nil)
	h.mustJSON(service.RoleOfficer, "POST", "/api/v1/designations", map[string]any{
		"animal_id": s.animal, "level": "dangerous", "jurisdiction": "minneapolis", "declared_on": "2026-06-09",
	}, http.StatusCreated, nil)
	var a fullAnswer
	h.mustJSON(service.RoleOfficer, "GET", "/api/v1/lookup?chip="+s.chip, nil, http.StatusOK, &a)
	if a.Dangerous == nil || len(a.Dangerous.Restrictions) == 0 || !strings.Contains(strings.Join(a.Dangerous.Restrictions, " "), "64.110") {
		t.Fatalf("dangerous = %+v, want restrictions citing 64.110", a.Dangerous)
	}
	if len(a.AlertDetails) == 0 || a.AlertDetails[0].Severity != "danger" {
		t.Errorf("alerts %+v, want a danger alert first", a.AlertDetails)
	}
	// 66.40: ten days' quarantine after biting a person; at home when vaccinated.
	if a.Quarantine == nil || a.Quarantine.Kind != "bite" || a.Quarantine.End != "2026-06-18" {
		t.Errorf("quarantine = %+v, want a bite quarantine to 2026-06-18", a.Quarantine)
	}
	if len(a.Deadlines) == 0 {
		t.Error("no open deadlines for a dog declared dangerous yesterday, want its registration steps")
	}
}

// TestImpoundHoldAndRedemption: the hold ends on the later of five days
// (62.40(a)) and five regular business days (346.47 subd. 2); redeeming
// today costs the first impound fee and board per day held.
func TestImpoundHoldAndRedemption(t *testing.T) { onBackends(t, testImpoundHoldAndRedemption) }

func testImpoundHoldAndRedemption(t *testing.T, h *harness) {
	s := h.seed()
	var im struct {
		ID        int64
		HoldUntil string `json:"hold_until"`
	}
	h.mustJSON(service.RoleIntake, "POST", "/api/v1/impoundments", map[string]any{
		"animal_id": s.animal, "jurisdiction": "minneapolis", "intake_on": "2026-06-08", "where_found": "Powderhorn Park",
	}, http.StatusCreated, &im)
	if im.HoldUntil == "" {
		t.Fatalf("impoundment %+v has no hold-until", im)
	}
	var a fullAnswer
	h.mustJSON(service.RoleIntake, "GET", "/api/v1/lookup?chip="+s.chip, nil, http.StatusOK, &a)
	if a.HoldUntil != im.HoldUntil || len(a.Impounds) != 1 || !a.Impounds[0].Open {
		t.Errorf("hold_until %q impounds %+v, want %q and one open impoundment", a.HoldUntil, a.Impounds, im.HoldUntil)
	}
	if a.Redemption == nil {
		t.Fatal("redemption = null for an impounded animal")
	}
	var impound, board int64
	for _, l := range a.Redemption.Lines {
		switch l.Code {
		case "impound":
			impound = l.Cents
		case "board":
			board = l.Cents
		}
	}
	// 62.40(a) $50 first impoundment; 62.40(b) $15 a day, June 8–10.
	if impound != 5000 || board != 3*1500 {
		t.Errorf("redemption lines %+v, want impound 5000 and board 4500", a.Redemption.Lines)
	}
	var u struct{ Disposition string }
	h.mustJSON(service.RoleIntake, "PATCH", fmt.Sprintf("/api/v1/impoundments/%d", im.ID), map[string]any{"disposition": "redeemed", "disposition_on": "2026-06-10"}, http.StatusOK, &u)
	h.mustJSON(service.RoleIntake, "GET", "/api/v1/lookup?chip="+s.chip, nil, http.StatusOK, &a)
	if a.Redemption != nil {
		t.Errorf("redemption after release = %+v, want null", a.Redemption)
	}
}

func TestCreateRecordsAndChip(t *testing.T) { onBackends(t, testCreateRecordsAndChip) }

func testCreateRecordsAndChip(t *testing.T, h *harness) {
	var o struct{ ID int64 }
	h.mustJSON(service.RoleClinic, "POST", "/api/v1/owners", map[string]any{"name": "Noor Haddad", "city": "Chanhassen"}, http.StatusCreated, &o)
	var an struct{ ID int64 }
	h.mustJSON(service.RoleClinic, "POST", "/api/v1/animals", map[string]any{"owner_id": o.ID, "name": "Pixel", "species": "cat"}, http.StatusCreated, &an)
	var c struct{ Code, Kind, Manufacturer string }
	h.mustJSON(service.RoleClinic, "POST", fmt.Sprintf("/api/v1/animals/%d/chips", an.ID), map[string]any{"chip": "LA 982 000001088420"}, http.StatusCreated, &c)
	if c.Code != "982000001088420" || c.Kind != "iso11784" {
		t.Errorf("chip = %+v, want the normalised ISO code", c)
	}
	if code, _ := h.do(service.RoleClinic, "POST", fmt.Sprintf("/api/v1/animals/%d/chips", an.ID), map[string]any{"chip": "982000001088420"}); code != http.StatusConflict {
		t.Errorf("same chip twice = %d, want 409", code)
	}
	var a fullAnswer
	h.mustJSON(service.RoleOfficer, "GET", "/api/v1/lookup?chip=982.000001088420", nil, http.StatusOK, &a)
	if !a.Found || a.Animal.Name != "Pixel" || a.Jurisdiction != "chanhassen" || a.Owner == nil || a.Owner.Name != "Noor Haddad" {
		t.Errorf("lookup = %+v, want Pixel of Noor Haddad under Chanhassen's rules", a)
	}
}
