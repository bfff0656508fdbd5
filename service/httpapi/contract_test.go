package httpapi_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"testing"

	"github.com/chipdesk/chipdesk/service"
)

// The issue-18 contract, one test a line. The decisions are the
// application layer's (service/licensing, custody, incidents, whose
// tests cover every refusal by section); these check only that the API
// maps them: status, error.code and error.field. Request bodies of the
// domain types are marshalled from them, so they follow their JSON names.

// errorOf decodes an error answer.
func errorOf(t *testing.T, b []byte) (code, field string) {
	t.Helper()
	var e struct {
		Error struct{ Code, Message, Field string }
	}
	if err := json.Unmarshal(b, &e); err != nil || e.Error.Code == "" || e.Error.Message == "" {
		t.Fatalf("error answer %s: want {\"error\": {\"code\", \"message\"}}", b)
	}
	return e.Error.Code, e.Error.Field
}

// licensed seeds a vaccinated dog with a Minneapolis licence.
func (h *harness) licensed() (seeded, issued) {
	h.t.Helper()
	s := h.seed()
	h.vaccinate(service.RoleClinic, s.animal, "2026-05-01", "killed")
	var l issued
	h.mustJSON(service.RoleIntake, "POST", "/api/v1/licences", map[string]any{"animal_id": s.animal, "jurisdiction": "minneapolis"}, http.StatusCreated, &l)
	return s, l
}

// Contract: POST /api/v1/licences for an animal whose active licence in
// that jurisdiction covers issued_on answers 409 "conflict".
func TestContractLicenceTermCovered409(t *testing.T) {
	onBackends(t, func(t *testing.T, h *harness) {
		s, _ := h.licensed()
		for _, body := range []map[string]any{
			{"animal_id": s.animal, "jurisdiction": "minneapolis"},
			{"animal_id": s.animal, "jurisdiction": "MPLS", "issued_on": "2026-06-01"},
		} {
			code, b := h.do(service.RoleIntake, "POST", "/api/v1/licences", body)
			if c, _ := errorOf(t, b); code != http.StatusConflict || c != service.ECONFLICT {
				t.Errorf("POST /api/v1/licences %v = %d %s, want 409 conflict", body, code, b)
			}
		}
	})
}

// Contract: POST /api/v1/licences/{id}/renew answers the next term's
// licence (expires the end of the term after the renewed one's); on a
// replaced or revoked licence, 409.
func TestContractRenewNextTerm(t *testing.T) {
	onBackends(t, func(t *testing.T, h *harness) {
		_, l := h.licensed()
		var r issued
		h.mustJSON(service.RoleIntake, "POST", fmt.Sprintf("/api/v1/licences/%d/renew", l.ID), map[string]any{}, http.StatusCreated, &r)
		if l.Expires != "2027-01-31" || r.Expires != "2028-01-31" {
			t.Errorf("renewal of a licence to %s expires %s, want 2028-01-31 (64.30)", l.Expires, r.Expires)
		}
		// Replaced by a duplicate (64.40), then revoked: 409 each.
		var dup issued
		s2, l2 := h.licensedOther()
		h.mustJSON(service.RoleIntake, "POST", "/api/v1/licences", map[string]any{"animal_id": s2, "jurisdiction": "minneapolis",
			"replaces": l2.ID, "replace_reason": "lost"}, http.StatusCreated, &dup)
		code, b := h.do(service.RoleIntake, "POST", fmt.Sprintf("/api/v1/licences/%d/renew", l2.ID), map[string]any{})
		if c, _ := errorOf(t, b); code != http.StatusConflict || c != service.ECONFLICT {
			t.Errorf("renew a replaced licence = %d %s, want 409", code, b)
		}
		if code, b := h.do(service.RoleIntake, "POST", fmt.Sprintf("/api/v1/licences/%d/revoke", dup.ID), nil); code != http.StatusNoContent {
			t.Fatalf("revoke = %d %s", code, b)
		}
		code, b = h.do(service.RoleIntake, "POST", fmt.Sprintf("/api/v1/licences/%d/renew", dup.ID), map[string]any{})
		if c, _ := errorOf(t, b); code != http.StatusConflict || c != service.ECONFLICT {
			t.Errorf("renew a revoked licence = %d %s, want 409", code, b)
		}
	})
}

// licensedOther seeds a second vaccinated, licensed dog.
func (h *harness) licensedOther() (int64, issued) {
	h.t.Helper()
	a := map[string]any{"name": "Juno", "species": "dog", "altered": true}
	var an struct{ ID int64 }
	h.mustJSON(service.RoleIntake, "POST", "/api/v1/animals", a, http.StatusCreated, &an)
	h.vaccinate(service.RoleClinic, an.ID, "2026-05-01", "killed")
	var l issued
	h.mustJSON(service.RoleIntake, "POST", "/api/v1/licences", map[string]any{"animal_id": an.ID, "jurisdiction": "minneapolis"}, http.StatusCreated, &l)
	return an.ID, l
}

// Contract: POST /api/v1/impoundments for an animal in custody answers
// 409.
func TestContractImpoundInCustody409(t *testing.T) {
	onBackends(t, func(t *testing.T, h *harness) {
		s := h.seed()
		im := map[string]any{"animal_id": s.animal, "jurisdiction": "minneapolis", "intake_on": "2026-06-09"}
		h.mustJSON(service.RoleIntake, "POST", "/api/v1/impoundments", im, http.StatusCreated, nil)
		code, b := h.do(service.RoleIntake, "POST", "/api/v1/impoundments", im)
		if c, _ := errorOf(t, b); code != http.StatusConflict || c != service.ECONFLICT {
			t.Errorf("impound an animal in custody = %d %s, want 409 conflict", code, b)
		}
	})
}

// Contract: POST /api/v1/quarantines with kind "bite" and end less than
// 10 days after start answers 400 or 422 with error.field "end".
func TestContractBiteQuarantineShort(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	s := h.seed()
	q := service.Quarantine{AnimalID: s.animal, Kind: service.QuarantineBite, Place: service.AtShelter,
		Start: service.MustDate("2026-06-08"), End: service.MustDate("2026-06-10")}
	code, b := h.do(service.RoleOfficer, "POST", "/api/v1/quarantines", q)
	if c, f := errorOf(t, b); code != http.StatusBadRequest && code != http.StatusUnprocessableEntity || c != service.EINVALID || f != "end" {
		t.Errorf("bite quarantine of 2 days = %d %s, want 400 on field end (66.40)", code, b)
	}
}

// Contract: POST /api/v1/designations with an unknown jurisdiction
// answers 400 with error.field "jurisdiction".
func TestContractDesignationUnknownJurisdiction(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	s := h.seed()
	d := service.DangerousDesignation{AnimalID: s.animal, Level: service.Dangerous, Jurisdiction: "duluth", DeclaredOn: service.MustDate("2026-06-01")}
	code, b := h.do(service.RoleOfficer, "POST", "/api/v1/designations", d)
	if _, f := errorOf(t, b); code != http.StatusBadRequest || f != "jurisdiction" {
		t.Errorf("designation in duluth = %d %s, want 400 on field jurisdiction", code, b)
	}
}

// Contract: a date that is not a calendar date answers 400 with
// error.field naming it.
func TestContractNotACalendarDate(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	s := h.seed()
	for _, tt := range []struct {
		path  string
		body  string
		field string
	}{
		{"/api/v1/licences", fmt.Sprintf(`{"animal_id":%d,"jurisdiction":"minneapolis","issued_on":"2026-02-30"}`, s.animal), "issued_on"},
		{"/api/v1/lookup?chip=" + s.chip + "&as_of=2026-13-01", "", "as_of"},
	} {
		method := "POST"
		var body any = tt.body
		if tt.body == "" {
			method, body = "GET", nil
		}
		code, b := h.do(service.RoleIntake, method, tt.path, body)
		if _, f := errorOf(t, b); code != http.StatusBadRequest || f != tt.field {
			t.Errorf("%s %s = %d %s, want 400 on field %s", method, tt.path, code, b, tt.field)
		}
	}
}

// Contract: GET /api/v1/lookup?chip=C&as_of=YYYY-MM-DD answers as_of as
// given (staff; the public lookup answers for today).
func TestContractLookupAsOf(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	s := h.seed()
	var a struct {
		AsOf string `json:"as_of"`
	}
	h.mustJSON(service.RoleIntake, "GET", "/api/v1/lookup?chip="+s.chip+"&as_of=2026-06-12", nil, http.StatusOK, &a)
	if a.AsOf != "2026-06-12" {
		t.Errorf("as_of = %q, want 2026-06-12", a.AsOf)
	}
	if code, b := h.do(service.RolePublic, "GET", "/api/v1/lookup?chip="+s.chip+"&as_of=2026-06-12", nil); code != http.StatusForbidden {
		t.Errorf("public as_of = %d %s, want 403", code, b)
	}
}

// Contract: the lookup's dangerous object carries level and
// requirements, each with what, section, status, due and met_on.
func TestContractLookupDangerousRequirements(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	s := h.seed()
	d := map[string]any{"animal_id": s.animal, "level": "dangerous", "jurisdiction": "Minneapolis", "declared_on": "2026-05-01"}
	h.mustJSON(service.RoleOfficer, "POST", "/api/v1/designations", d, http.StatusCreated, nil)
	var a struct {
		Dangerous struct {
			Level        string
			Requirements []map[string]any
		}
	}
	h.mustJSON(service.RoleOfficer, "GET", "/api/v1/lookup?chip="+s.chip, nil, http.StatusOK, &a)
	if a.Dangerous.Level != "dangerous" || len(a.Dangerous.Requirements) == 0 {
		t.Fatalf("dangerous = %+v, want the level and its requirements", a.Dangerous)
	}
	status := map[string]any{}
	for _, r := range a.Dangerous.Requirements {
		for _, k := range []string{"what", "section", "status", "due", "met_on"} {
			if _, ok := r[k]; !ok {
				t.Errorf("requirement %v lacks %q", r, k)
			}
		}
		status[r["what"].(string)] = r["status"]
	}
	// 64.110(g): the chip on record meets the microchip requirement; an
	// altered dog the sterilisation one (64.110(i)).
	if status["microchip"] != "met" || status["sterilisation"] != "met" || status["photo"] != "due" {
		t.Errorf("statuses %v, want microchip and sterilisation met, photo due", status)
	}
}
