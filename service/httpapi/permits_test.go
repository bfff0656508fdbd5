package httpapi_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/chipdesk/chipdesk/service"
)

// TestPermitsContract: POST /api/v1/permits maps to the permits service
// and GET /api/v1/permits?kind= lists by kind; a refusal is 409 with the
// section in the message. The rules themselves are tested in
// service/permits.
func TestPermitsContract(t *testing.T) {
	onBackends(t, func(t *testing.T, h *harness) {
		s := h.seed()
		var p struct {
			ID      int64  `json:"id"`
			Kind    string `json:"kind"`
			Expires string `json:"expires"`
		}
		h.mustJSON(service.RoleIntake, "POST", "/api/v1/permits", map[string]any{"kind": "kennel", "jurisdiction": "chanhassen", "class": "private", "holder": "Kari Berg", "issued": "2026-03-10"}, http.StatusCreated, &p)
		if p.Kind != "kennel" || p.Expires != "2026-12-31" {
			t.Errorf("kennel issued 2026-03-10 = %+v, want expires 2026-12-31 (5-18(c))", p)
		}
		h.mustJSON(service.RoleIntake, "POST", "/api/v1/permits", map[string]any{"kind": "multi_animal", "jurisdiction": "Minneapolis", "holder": "Ada", "address": "1 Elm", "application": map[string]any{"animals": 4}}, http.StatusCreated, nil)
		for kind, want := range map[string]int{"kennel": 1, "multi_animal": 1, "stable": 0, "off_leash": 0} {
			var l struct {
				Items []struct {
					Kind string `json:"kind"`
				} `json:"items"`
				Total int `json:"total"`
			}
			h.mustJSON(service.RoleOfficer, "GET", "/api/v1/permits?kind="+kind, nil, http.StatusOK, &l)
			if l.Total != want || len(l.Items) != want || want > 0 && l.Items[0].Kind != kind {
				t.Errorf("GET ?kind=%s = %+v, want %d of that kind", kind, l, want)
			}
		}
		var d struct{ ID int64 }
		h.mustJSON(service.RoleOfficer, "POST", "/api/v1/designations", map[string]any{"animalId": s.animal, "level": "dangerous", "jurisdiction": "minneapolis", "declaredOn": "2026-05-01"}, http.StatusCreated, &d)
		code, b := h.do(service.RoleIntake, "POST", "/api/v1/permits", map[string]any{"kind": "off_leash", "jurisdiction": "minneapolis", "class": "resident", "animal_id": s.animal})
		var e struct {
			Error struct{ Code, Message string } `json:"error"`
		}
		_ = json.Unmarshal(b, &e)
		if code != http.StatusConflict || e.Error.Code != "conflict" || !strings.Contains(e.Error.Message, "64.55(a)") {
			t.Errorf("off-leash for a dangerous dog = %d %s, want 409 citing 64.55(a)", code, b)
		}
		code, _ = h.do(service.RoleIntake, "GET", "/api/v1/permits?kind=boat", nil)
		if code != http.StatusBadRequest {
			t.Errorf("GET ?kind=boat = %d, want 400", code)
		}
		code, _ = h.do(service.RolePublic, "GET", "/api/v1/permits", nil)
		if code != http.StatusForbidden {
			t.Errorf("GET as public = %d, want 403", code)
		}
		code, _ = h.do(service.RoleOfficer, "GET", "/api/v1/permits/due", nil)
		if code != http.StatusOK {
			t.Errorf("GET /api/v1/permits/due = %d, want 200", code)
		}
		code, _ = h.do(service.RoleClinic, "POST", "/api/v1/animal-reports", map[string]any{"kind": "rabies_suspect", "jurisdiction": "minneapolis", "reporter_role": "veterinarian",
			"reporter": map[string]any{"name": "Dr. Vet"}, "diagnosis": "ataxia", "animal_description": "raccoon"})
		if code != http.StatusCreated {
			t.Errorf("POST rabies-suspect report = %d, want 201", code)
		}
	})
}
