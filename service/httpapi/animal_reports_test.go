package httpapi_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"net/http"
	"strings"
	"testing"

	"github.com/chipdesk/chipdesk/service"
)

// TestReports_DangerousRegisterAndLapsedRabies: the two reports answer
// JSON, CSV and the SVG chart for intake and officers, on both stores;
// a clinic may not read them.
func TestReports_DangerousRegisterAndLapsedRabies(t *testing.T) {
	onBackends(t, func(t *testing.T, h *harness) {
		s := h.seed()
		ctx := context.Background()
		h.mustJSON(service.RoleOfficer, "POST", "/api/v1/designations", map[string]any{"animal_id": s.animal, "level": "dangerous", "jurisdiction": "minneapolis", "declared_on": "2026-05-01"}, http.StatusCreated, nil)
		l := &service.Licence{AnimalID: s.animal, Jurisdiction: "minneapolis", Year: 2026, IssuedOn: service.MustDate("2026-02-01"), ExpiresOn: service.MustDate("2027-01-31"), FeeCents: 3500}
		if err := h.store.CreateLicence(ctx, l); err != nil {
			t.Fatal(err)
		}
		if err := h.store.CreateVaccination(ctx, &service.RabiesVaccination{AnimalID: s.animal, Date: service.MustDate("2025-03-01"), DurationMonths: 12}); err != nil {
			t.Fatal(err)
		}
		var reg struct {
			AsOf    string `json:"as_of"`
			Entries []struct {
				AnimalID     int64 `json:"animal_id"`
				Overdue      int   `json:"overdue"`
				Requirements []struct {
					What, Section, Status string
				} `json:"requirements"`
			} `json:"entries"`
		}
		h.mustJSON(service.RoleOfficer, "GET", "/api/v1/reports/dangerous-register", nil, http.StatusOK, &reg)
		if len(reg.Entries) != 1 || reg.Entries[0].AnimalID != s.animal || reg.Entries[0].Overdue != 0 {
			t.Fatalf("register = %+v; want the designated dog, chipped and altered, nothing overdue", reg)
		}
		want := map[string]string{"microchip 64.110(g)": "met", "sterilisation 64.110(i)": "met", "photo 64.110(h)": "due"}
		for _, r := range reg.Entries[0].Requirements {
			if w, ok := want[r.What+" "+r.Section]; ok && w == r.Status {
				delete(want, r.What+" "+r.Section)
			}
		}
		if len(want) > 0 {
			t.Errorf("requirements = %+v; missing %v (the chip on record meets 64.110(g), the altered dog 64.110(i))", reg.Entries[0].Requirements, want)
		}
		var rab struct {
			AsOf     string `json:"as_of"`
			Licensed int    `json:"licensed"`
			Rows     []struct {
				AnimalID   int64  `json:"animal_id"`
				State      string `json:"state"`
				ValidUntil string `json:"valid_until"`
				Section    string `json:"section"`
			} `json:"rows"`
		}
		h.mustJSON(service.RoleIntake, "GET", "/api/v1/reports/rabies-lapsed?as_of=2026-06-10", nil, http.StatusOK, &rab)
		if rab.AsOf != "2026-06-10" || rab.Licensed != 1 || len(rab.Rows) != 1 || rab.Rows[0].State != "expired" || rab.Rows[0].ValidUntil != "2026-03-01" || rab.Rows[0].Section != "66.10" {
			t.Errorf("rabies report = %+v; want the licensed dog lapsed after 2026-03-01 (66.10)", rab)
		}
		for _, path := range []string{"/api/v1/reports/dangerous-register?format=csv", "/api/v1/reports/rabies-lapsed?format=csv"} {
			code, b := h.do(service.RoleOfficer, "GET", path, nil)
			rows, err := csv.NewReader(bytes.NewReader(b)).ReadAll()
			if code != http.StatusOK || err != nil || len(rows) < 2 || rows[0][0] != "as_of" {
				t.Errorf("GET %s = %d, %q, %v; want a header and rows", path, code, rows, err)
			}
		}
		for _, path := range []string{"/api/v1/reports/dangerous-register?format=svg", "/api/v1/reports/rabies-lapsed?format=svg"} {
			if code, b := h.do(service.RoleOfficer, "GET", path, nil); code != http.StatusOK || !strings.HasPrefix(string(b), "<svg") {
				t.Errorf("GET %s = %d %.40s; want the chart", path, code, b)
			}
		}
		if code, _ := h.do(service.RoleOfficer, "GET", "/api/v1/reports/rabies-lapsed?as_of=June", nil); code != http.StatusBadRequest {
			t.Errorf("as_of=June = %d, want 400", code)
		}
		if code, _ := h.do(service.RoleClinic, "GET", "/api/v1/reports/dangerous-register", nil); code != http.StatusForbidden {
			t.Errorf("register as clinic = %d, want 403", code)
		}
	})
}
