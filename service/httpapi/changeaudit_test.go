package httpapi_test

import (
	"context"
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/store/postgres/pgtest"
	"github.com/chipdesk/chipdesk/service/store/sqlite"
	"github.com/chipdesk/chipdesk/service/store/storetest"
)

// TestEveryChangeAuditedInItsTransaction: every change made through the
// API (owners, animals, chips, vaccinations, licences, bites and the
// quarantines they order, releases, impoundments and redemptions,
// designations, payments, exemptions, permits, agreements, reports,
// tokens) has its audit event written by the store in the change's own
// transaction: none of them reaches the audit log afterwards, and each
// is there once, naming its record. Reads and refusals still go the
// other way.
func TestEveryChangeAuditedInItsTransaction(t *testing.T) {
	run := func(t *testing.T, st service.Store) {
		rec := &storetest.Afterwards{Store: st}
		h := newHarnessOn(t, rec)
		s := h.seed()
		var id struct {
			ID int64 `json:"id"`
		}
		want := map[string]bool{} // action → seen in the log
		post := func(role service.Role, action, method, path string, body any, status int) int64 {
			t.Helper()
			id.ID = 0
			if status == http.StatusNoContent {
				if code, b := h.do(role, method, path, body); code != status {
					t.Fatalf("%s %s = %d %s, want %d", method, path, code, b, status)
				}
			} else {
				h.mustJSON(role, method, path, body, status, &id)
			}
			want[action] = false
			return id.ID
		}
		post(service.RoleIntake, "owner.create", "POST", "/api/v1/owners", map[string]any{"name": "Noor Haddad", "city": "Chanhassen"}, http.StatusCreated)
		post(service.RoleIntake, "owner.update", "PATCH", fmt.Sprintf("/api/v1/owners/%d", s.owner), map[string]any{"phone": "612-555-0199"}, http.StatusOK)
		an := post(service.RoleIntake, "animal.create", "POST", "/api/v1/animals", map[string]any{"owner_id": s.owner, "name": "Pixel", "species": "cat"}, http.StatusCreated)
		post(service.RoleIntake, "animal.update", "PATCH", fmt.Sprintf("/api/v1/animals/%d", an), map[string]any{"colour": "grey"}, http.StatusOK)
		post(service.RoleIntake, "chip.add", "POST", fmt.Sprintf("/api/v1/animals/%d/chips", an), map[string]any{"chip": "982000001088420"}, http.StatusCreated)
		post(service.RoleIntake, "vaccination.create", "POST", "/api/v1/vaccinations", map[string]any{
			"animal_id": s.animal, "date": "2026-01-10", "type": "killed", "duration_months": 36, "certificate": "MN-1", "veterinarian": "Dr. A. Hale"}, http.StatusCreated)
		lic := post(service.RoleIntake, "licence.create", "POST", "/api/v1/licences", map[string]any{"animal_id": s.animal, "jurisdiction": "minneapolis"}, http.StatusCreated)
		post(service.RoleIntake, "licence.renew", "POST", fmt.Sprintf("/api/v1/licences/%d/renew", lic), map[string]any{}, http.StatusCreated)
		var cs struct {
			Items []struct {
				ID          int64 `json:"id"`
				AmountCents int64 `json:"amount_cents"`
			} `json:"items"`
		}
		h.mustJSON(service.RoleIntake, "GET", fmt.Sprintf("/api/v1/charges?licence_id=%d", lic), nil, http.StatusOK, &cs)
		if len(cs.Items) == 0 {
			t.Fatalf("licence %d raised no charge", lic)
		}
		post(service.RoleIntake, "payment.payment", "POST", "/api/v1/payments", map[string]any{
			"charge_ids": []int64{cs.Items[0].ID}, "method": "cash", "amount_cents": cs.Items[0].AmountCents}, http.StatusCreated)
		var bite struct {
			Quarantine *struct {
				ID int64 `json:"id"`
			} `json:"quarantine"`
		}
		h.mustJSON(service.RoleOfficer, "POST", "/api/v1/bites", map[string]any{"animal_id": s.animal, "date": "2026-06-08", "victim": "person", "skin_broken": true}, http.StatusCreated, &bite)
		want["bite.create"], want["quarantine.create"] = false, false // the quarantine ordered by the bite
		if bite.Quarantine == nil {
			t.Fatalf("the bite of a person ordered no quarantine")
		}
		qid := bite.Quarantine.ID
		post(service.RoleOfficer, "quarantine.release", "POST", fmt.Sprintf("/api/v1/quarantines/%d/release", qid), map[string]any{"on": "2026-06-10"}, http.StatusNoContent)
		d := post(service.RoleOfficer, "designation.create", "POST", "/api/v1/designations", map[string]any{
			"animal_id": s.animal, "level": "dangerous", "jurisdiction": "minneapolis", "declared_on": "2026-06-09"}, http.StatusCreated)
		post(service.RoleOfficer, "designation.update", "PATCH", fmt.Sprintf("/api/v1/designations/%d", d), map[string]any{"microchip_on": "2026-06-10"}, http.StatusOK)
		im := post(service.RoleIntake, "impoundment.create", "POST", "/api/v1/impoundments", map[string]any{
			"animal_id": s.stray, "jurisdiction": "minneapolis", "intake_on": "2026-06-08", "where_found": "Powderhorn Park"}, http.StatusCreated)
		post(service.RoleIntake, "impoundment.update", "PATCH", fmt.Sprintf("/api/v1/impoundments/%d", im), map[string]any{"disposition": "redeemed", "disposition_on": "2026-06-10"}, http.StatusOK)
		post(service.RoleIntake, "exemption.create", "POST", "/api/v1/exemptions", map[string]any{"animal_id": s.animal, "kind": "service-dog", "section": "Minneapolis 64.30", "approved_by": "clerk"}, http.StatusCreated)
		// A bite report (66.60) records the bite it reports: the report,
		// the bite and its quarantine each with their own event.
		post(service.RoleOfficer, "report.create", "POST", "/api/v1/animal-reports", map[string]any{
			"kind": "bite", "jurisdiction": "minneapolis", "reported": "2026-06-09", "reporter": map[string]any{"name": "Dr. Aho"},
			"reporter_role": "physician", "persons": []map[string]any{{"name": "Eli", "address": "1 Elm"}},
			"animal_id": an, "incident": "2026-06-08", "skin_broken": true}, http.StatusCreated)
		post(service.RoleIntake, "permit.create", "POST", "/api/v1/permits", map[string]any{"kind": "kennel", "jurisdiction": "chanhassen", "class": "private", "holder": "Kari Berg", "issued": "2026-03-10"}, http.StatusCreated)
		tok := post(service.RoleAdmin, "token.create", "POST", "/api/v1/tokens", map[string]any{"name": "counter 2", "role": "intake"}, http.StatusCreated)
		post(service.RoleAdmin, "token.revoke", "DELETE", fmt.Sprintf("/api/v1/tokens/%d", tok), nil, http.StatusNoContent)

		h.api.Close() // the audit queue written out
		for _, a := range rec.Actions() {
			if _, change := want[a]; change {
				t.Errorf("%s: audited after the change, not in its transaction", a)
			}
		}
		all, _, err := st.FindAuditEvents(context.Background(), service.AuditFilter{Limit: 1000})
		if err != nil {
			t.Fatal(err)
		}
		seen := map[string]bool{} // action and record
		for _, e := range all {
			if _, ok := want[e.Action]; !ok {
				continue
			}
			key := fmt.Sprintf("%s %d", e.Action, e.EntityID)
			if seen[key] && !strings.HasSuffix(e.Action, ".update") {
				t.Errorf("%s audited twice", key)
			}
			seen[key], want[e.Action] = true, true
			if e.EntityID == 0 || e.TokenID == 0 || e.Actor == "" {
				t.Errorf("%s: event %+v names no record, token or actor", e.Action, *e)
			}
		}
		for a, seen := range want {
			if !seen {
				t.Errorf("%s: no audit event", a)
			}
		}
	}
	t.Run("sqlite", func(t *testing.T) {
		st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "test.db"), &sqlite.Opts{Now: func() time.Time { return testNow }, Location: chicago(t)})
		if err != nil {
			t.Fatal(err)
		}
		run(t, st)
	})
	t.Run("postgres", func(t *testing.T) { run(t, pgtest.Open(t, func() time.Time { return testNow })) })
}
