package httpapi_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/chipdesk/chipdesk/service"
)

// obj is a JSON answer read loosely, for a walk through many routes.
type obj map[string]any

func (o obj) s(k string) string { v, _ := o[k].(string); return v }
func (o obj) n(k string) int64  { v, _ := o[k].(float64); return int64(v) }

// call makes one request and checks its status; a refusal's answer is
// its error object.
func (h *harness) call(t *testing.T, role service.Role, method, path string, body any, want int) obj {
	t.Helper()
	code, b := h.do(role, method, path, body)
	if code != want {
		t.Fatalf("%s %s = %d %s, want %d", method, path, code, b, want)
	}
	var o obj
	_ = json.Unmarshal(b, &o)
	if e, ok := o["error"].(map[string]any); ok {
		return obj(e)
	}
	return o
}

func cites(t *testing.T, o obj, key, section string) {
	t.Helper()
	if !strings.Contains(o.s(key), section) {
		t.Errorf("%s = %q, want it to cite %s", key, o.s(key), section)
	}
}

var fullKennel = map[string]any{
	"property":       "10 acres, Lot 4, Pioneer Trail",
	"premises_owner": map[string]any{"name": "Kari Berg", "address": "9000 Pioneer Trail"},
	"references": []any{map[string]any{"name": "Ola Nord", "address": "1 Main St, Chaska", "county": "Carver"},
		map[string]any{"name": "Eva Sund", "address": "2 Elm, Minnetonka", "county": "Hennepin"}},
	"convictions_declared": true,
	"contacts":             []any{map[string]any{"name": "Kari Berg", "phone": "952-555-0100", "address": "9000 Pioneer Trail"}},
	"interest_document":    "deed", "sworn": true, "zoning_compliant": true, "acres": 10,
}

func kennelApp(change func(map[string]any)) map[string]any {
	a := map[string]any{}
	for k, v := range fullKennel {
		a[k] = v
	}
	if change != nil {
		change(a)
	}
	return a
}

// TestPermitsWalk_Chanhassen_5_18: a kennel licence through the API from
// application to appeal: private and commercial, the contents of
// 5-18(b), the agricultural-cats exception, the refusals of 5-18.1(a)
// and (b), one licence per place (5-18(c)), the inspection before grant
// (5-18(d)), expiry on December 31 and renewal by December 1 (5-18(c)),
// revocation on a ground of 5-18(e), the appeal window of 5-18(f) and the
// contact persons of 5-18.2; a lapsed kennel on the officer's list.
func TestPermitsWalk_Chanhassen_5_18(t *testing.T) {
	onBackends(t, func(t *testing.T, h *harness) {
		in := service.RoleIntake
		apply := func(holder, class, issued string, app map[string]any, want int) obj {
			return h.call(t, in, "POST", "/api/v1/permits", map[string]any{"kind": "kennel", "jurisdiction": "Chanhassen", "class": class, "holder": holder, "issued": issued, "application": app}, want)
		}
		t.Run("5-18(b) contents missing: pending with each item", func(t *testing.T) {
			p := apply("Ann Aho", "commercial", "2026-06-10", map[string]any{}, http.StatusCreated)
			pend := fmt.Sprint(p["pending"])
			for _, sec := range []string{"5-18(b)(1)", "5-18(b)(2)", "5-18(b)(3)", "5-18(b)(4)", "5-18(b)(5)", "5-18(d)"} {
				if !strings.Contains(pend, sec) {
					t.Errorf("pending %s lacks %s", pend, sec)
				}
			}
			if p.s("state") != "pending" || p.s("expires") != "2026-12-31" || p["fee_cents"] != nil || p.s("fee_source") != "5-18(c)" {
				t.Errorf("pending kennel = %v; want its term to 2026-12-31 and the fee left to chapter 4 (5-18(c))", p)
			}
		})
		t.Run("5-18(a) agricultural cats need no licence", func(t *testing.T) {
			e := apply("Bo Berg", "private", "2026-06-10", map[string]any{"species": "cat", "agricultural_land": true, "rodent_control": true}, http.StatusBadRequest)
			cites(t, e, "message", "5-18(a)")
		})
		t.Run("5-18.1(a) conviction refused", func(t *testing.T) {
			e := apply("Cy Carr", "private", "2026-06-10", kennelApp(func(a map[string]any) {
				a["convictions"] = []any{map[string]any{"offence": "cruelty-to-animals", "on": "2024-02-01"}}
			}), http.StatusConflict)
			cites(t, e, "message", "5-18.1(a)")
		})
		t.Run("5-18.1(b) denied within the year refused", func(t *testing.T) {
			e := apply("Cy Carr", "private", "2026-06-10", kennelApp(nil), http.StatusConflict)
			cites(t, e, "message", "5-18.1(b)")
		})
		var id int64
		t.Run("5-18(d) inspection before grant; 5-18(c) expiry and renewal", func(t *testing.T) {
			p := apply("Kari Berg", "commercial", "2026-03-10", kennelApp(nil), http.StatusCreated)
			if p.s("state") != "pending" || !strings.Contains(fmt.Sprint(p["pending"]), "5-18(d)") {
				t.Fatalf("uninspected kennel = %v, want pending the inspection (5-18(d))", p)
			}
			id = p.n("id")
			g := h.call(t, in, "POST", fmt.Sprintf("/api/v1/permits/%d/inspection", id), map[string]any{"on": "2026-03-10", "passed": true}, http.StatusOK)
			if g.s("state") != "granted" || g.s("issued") != "2026-06-10" || g.s("expires") != "2026-12-31" || g.s("renewal_due") != "2026-12-01" {
				t.Errorf("inspected kennel = %v; want granted today, 2026-06-10, to 2026-12-31, renewal due 2026-12-01", g)
			}
		})
		t.Run("5-18(c) a second licence for the same place refused", func(t *testing.T) {
			e := apply("Kari Berg", "commercial", "2026-06-10", kennelApp(nil), http.StatusConflict)
			cites(t, e, "message", "5-18(c)")
			if e.s("field") != "application.property" {
				t.Errorf("field = %q, want application.property", e.s("field"))
			}
		})
		t.Run("5-18.2(b)(1) a commercial kennel keeps a contact person", func(t *testing.T) {
			e := h.call(t, in, "POST", fmt.Sprintf("/api/v1/permits/%d/contacts", id), map[string]any{"contacts": []any{}}, http.StatusConflict)
			cites(t, e, "message", "5-18.2(b)(1)")
			h.call(t, in, "POST", fmt.Sprintf("/api/v1/permits/%d/contacts", id), map[string]any{"contacts": []any{map[string]any{"name": "Lu Berg", "phone": "952-555-0101", "address": "9000 Pioneer Trail"}}}, http.StatusOK)
		})
		t.Run("5-18(e) revocation and the 5-18(f) appeal window", func(t *testing.T) {
			e := h.call(t, in, "POST", fmt.Sprintf("/api/v1/permits/%d/action", id), map[string]any{"action": "revoke", "ground": "weather"}, http.StatusBadRequest)
			cites(t, e, "message", "nuisance")
			p := h.call(t, in, "POST", fmt.Sprintf("/api/v1/permits/%d/action", id), map[string]any{"action": "suspend", "ground": "nuisance", "on": "2026-05-20"}, http.StatusOK)
			if p.s("state") != "suspended" || !strings.Contains(p.s("reason"), "5-18(e)(5)") || p.s("appeal_by") != "2026-05-30" {
				t.Fatalf("suspended = %v; want 5-18(e)(5), appeal by 2026-05-30 (5-18(f))", p)
			}
			e = h.call(t, in, "POST", fmt.Sprintf("/api/v1/permits/%d/appeal", id), map[string]any{"on": "2026-05-31"}, http.StatusConflict)
			cites(t, e, "message", "5-18(f)")
			a := h.call(t, in, "POST", fmt.Sprintf("/api/v1/permits/%d/appeal", id), map[string]any{"on": "2026-05-29"}, http.StatusOK)
			if a.s("appeal_filed") != "2026-05-29" || a.s("hearing_from") != "2026-06-13" {
				t.Errorf("appeal = %v; want heard on or after 2026-06-13 (15 days, 5-18(f))", a)
			}
			e = h.call(t, in, "POST", fmt.Sprintf("/api/v1/permits/%d/appeal-order", id), map[string]any{"order": "lift", "on": "2026-06-10"}, http.StatusConflict)
			cites(t, e, "message", "5-18(f)")
		})
		t.Run("5-18(a) a lapsed kennel on the officer's list", func(t *testing.T) {
			old := h.call(t, in, "POST", "/api/v1/permits", map[string]any{"kind": "kennel", "jurisdiction": "chanhassen", "class": "private", "holder": "Dag Dahl", "issued": "2025-03-01",
				"inspection": map[string]any{"on": "2025-02-20", "passed": true}, "application": kennelApp(func(a map[string]any) { a["property"] = "Lot 9, Lyman Blvd" })}, http.StatusCreated)
			if old.s("expires") != "2025-12-31" || old.s("status") != "lapsed" {
				t.Fatalf("kennel issued 2025-03-01 = %v; want lapsed after 2025-12-31", old)
			}
			var due struct {
				Items []struct {
					What     string `json:"what"`
					PermitID int64  `json:"permit_id"`
					Source   string `json:"source"`
				} `json:"items"`
			}
			h.mustJSON(service.RoleOfficer, "GET", "/api/v1/permits/due", nil, http.StatusOK, &due)
			found := false
			for _, it := range due.Items {
				found = found || it.What == "kennel-lapsed" && it.PermitID == old.n("id") && strings.Contains(it.Source, "5-18")
			}
			if !found {
				t.Errorf("officer's list = %+v; want the kennel lapsed on 2025-12-31", due.Items)
			}
		})
	})
}

// TestPermitsWalk_Chanhassen_5_87_5_101_5_106: a stable permit through
// the API: application, the inspector's approval (5-103), the
// conditions and acreage of 5-104, an existing stable (5-88), annual
// registration (5-105), an escape suspending it (5-87(b)) and revocation
// after a noticed hearing (5-106).
func TestPermitsWalk_Chanhassen_5_87_5_101_5_106(t *testing.T) {
	onBackends(t, func(t *testing.T, h *harness) {
		in := service.RoleIntake
		all := []string{"fence", "shelter", "no-nuisance", "sanitary", "no-pollution", "manure-well", "manure-removal", "wetland"}
		e := h.call(t, in, "POST", "/api/v1/permits", map[string]any{"kind": "stable", "jurisdiction": "chanhassen", "holder": "Kari Berg",
			"application": map[string]any{"property": "Lot 4", "acres": 1.4, "animals": 2, "conditions": all}}, http.StatusConflict)
		cites(t, e, "message", "5-104(a)(1)")
		ex := h.call(t, in, "POST", "/api/v1/permits", map[string]any{"kind": "stable", "jurisdiction": "chanhassen", "holder": "Old Farm",
			"inspection":  map[string]any{"on": "2026-06-01", "passed": true},
			"application": map[string]any{"property": "Lot 1", "acres": 0.8, "animals": 2, "conditions": all[:1], "stabled_since": "1970-01-01", "horses_1975": 2}}, http.StatusCreated)
		if ex.s("state") == "denied" || !strings.Contains(ex.s("exemption"), "5-88(a)") {
			t.Errorf("existing stable = %v; want the 5-88(a) exemption from 5-104(a)(1), (a)(2), (a)(4)", ex)
		}
		p := h.call(t, in, "POST", "/api/v1/permits", map[string]any{"kind": "stable", "jurisdiction": "chanhassen", "holder": "Kari Berg",
			"application": map[string]any{"property": "Lot 4", "acres": 3, "animals": 2, "conditions": all}}, http.StatusCreated)
		if p.s("state") != "pending" || !strings.Contains(fmt.Sprint(p["pending"]), "5-103") {
			t.Fatalf("stable = %v; want pending the stable inspector (5-103)", p)
		}
		id := p.n("id")
		g := h.call(t, in, "POST", fmt.Sprintf("/api/v1/permits/%d/inspection", id), map[string]any{"on": "2026-05-01", "passed": true}, http.StatusOK)
		if g.s("state") != "granted" || g.s("renewal_due") != "2027-06-01" || g.s("fee_source") != "5-102" || g["fee_cents"] != nil {
			t.Fatalf("granted stable = %v; want registration due 2027-06-01 (5-105(a)), fee by resolution (5-102)", g)
		}
		r := h.call(t, in, "POST", fmt.Sprintf("/api/v1/permits/%d/registration", id), map[string]any{"on": "2026-06-10"}, http.StatusOK)
		if r.s("registered") != "2026-06-10" || r.s("renewal_due") != "2028-06-01" {
			t.Errorf("registered = %v; want the next registration due 2028-06-01", r)
		}
		e = h.call(t, in, "POST", fmt.Sprintf("/api/v1/permits/%d/escape", id), map[string]any{"on": "2026-06-08", "recovered_by_city": true, "recovery_cents": 1000}, http.StatusBadRequest)
		cites(t, e, "message", "5-87(a)")
		s := h.call(t, in, "POST", fmt.Sprintf("/api/v1/permits/%d/escape", id), map[string]any{"on": "2026-06-08", "recovered_by_city": true}, http.StatusOK)
		if s.s("state") != "suspended" || s.s("suspended_under") != "5-87(b)" {
			t.Fatalf("after the escape = %v; want suspended under 5-87(b)", s)
		}
		g = h.call(t, in, "POST", fmt.Sprintf("/api/v1/permits/%d/inspection", id), map[string]any{"on": "2026-06-09", "passed": true, "fee_paid": true}, http.StatusOK)
		if g.s("state") != "granted" {
			t.Errorf("reinspected and paid = %v; want granted (5-87(b))", g)
		}
		e = h.call(t, in, "POST", fmt.Sprintf("/api/v1/permits/%d/action", id), map[string]any{"action": "revoke", "ground": "control", "notice_on": "2026-06-01", "hearing_on": "2026-06-05"}, http.StatusConflict)
		cites(t, e, "message", "5-106")
		v := h.call(t, in, "POST", fmt.Sprintf("/api/v1/permits/%d/action", id), map[string]any{"action": "revoke", "ground": "control", "notice_on": "2026-05-25", "hearing_on": "2026-06-04"}, http.StatusOK)
		if v.s("state") != "revoked" || !strings.Contains(v.s("reason"), "5-106(3)") {
			t.Errorf("revoked = %v; want 5-106(3)", v)
		}
	})
}

// TestPermitsWalk_Minneapolis_64_55_64_100_64_140_68_66_60: the
// Minneapolis permits and papers through the API: an off-leash permit
// on the dog's lookup answer (64.55), refused for a dog designated
// dangerous under 64.110 and a potentially dangerous one under Minn.
// Stat. 347.50 subd. 3 (409 citing 64.55(a)); a 64.100 permit; a 64.140
// agreement due on the officer's list and on the lookup answer, fulfilled
// by the veterinarian's statement with the deposit remitted; a chapter
// 68 business licence; bite and rabies-suspect reports opening the
// incident.
func TestPermitsWalk_Minneapolis_64_55_64_100_64_140_68_66_60(t *testing.T) {
	onBackends(t, func(t *testing.T, h *harness) {
		s := h.seed()
		in, off := service.RoleIntake, service.RoleOfficer
		p := h.call(t, in, "POST", "/api/v1/permits", map[string]any{"kind": "off_leash", "jurisdiction": "minneapolis", "class": "non_resident", "animal_id": s.animal,
			"application": map[string]any{"rabies_verified": true, "rules_signed": true}}, http.StatusCreated)
		if p.s("state") != "granted" || p.s("expires") != "2027-01-31" || p.n("tag_number") == 0 || !strings.Contains(p.s("fee_source"), "64.55") {
			t.Fatalf("off-leash = %v; want granted to 2027-01-31 with a registration number (64.55)", p)
		}
		var ans struct {
			Permits []struct {
				Kind, Status, Expires string
			} `json:"permits"`
			Agreement *struct{ Status, Due, Source string } `json:"sterilisation_agreement"`
		}
		h.mustJSON(off, "GET", "/api/v1/lookup?chip="+s.chip, nil, http.StatusOK, &ans)
		if len(ans.Permits) != 1 || ans.Permits[0].Kind != "off_leash" || ans.Permits[0].Status != "granted" || ans.Permits[0].Expires != "2027-01-31" {
			t.Errorf("lookup permits = %+v; want the dog's off-leash permit", ans.Permits)
		}
		h.call(t, off, "POST", "/api/v1/designations", map[string]any{"animal_id": s.animal, "level": "dangerous", "jurisdiction": "minneapolis", "declared_on": "2026-05-01"}, http.StatusCreated)
		e := h.call(t, in, "POST", "/api/v1/permits", map[string]any{"kind": "off_leash", "jurisdiction": "minneapolis", "class": "resident", "animal_id": s.animal}, http.StatusConflict)
		cites(t, e, "message", "64.55(a)")
		cites(t, e, "message", "64.110")
		if e.s("field") != "animal_id" {
			t.Errorf("field = %q, want animal_id", e.s("field"))
		}
		pd := h.call(t, in, "POST", "/api/v1/animals", map[string]any{"owner_id": s.owner, "name": "Nip", "species": "dog"}, http.StatusCreated)
		h.call(t, off, "POST", "/api/v1/designations", map[string]any{"animal_id": pd.n("id"), "level": "potentially-dangerous", "jurisdiction": "minneapolis", "declared_on": "2026-05-01"}, http.StatusCreated)
		e = h.call(t, in, "POST", "/api/v1/permits", map[string]any{"kind": "off_leash", "jurisdiction": "minneapolis", "class": "resident", "animal_id": pd.n("id")}, http.StatusConflict)
		cites(t, e, "message", "64.55(a)")
		cites(t, e, "message", "347.50 subd. 3")

		m := h.call(t, in, "POST", "/api/v1/permits", map[string]any{"kind": "multi_animal", "jurisdiction": "minneapolis", "holder": "Ada", "address": "1 Elm",
			"application": map[string]any{"animals": 5}, "inspection": map[string]any{"on": "2026-06-01", "passed": true}}, http.StatusCreated)
		if m.n("fee_cents") != 2000 || m.s("expires") != "2027-02-01" || m.s("fee_source") != "64.100(c)" {
			t.Errorf("64.100 permit = %v; want $20.00 to 2027-02-01 (64.100(c))", m)
		}
		e = h.call(t, in, "POST", "/api/v1/permits", map[string]any{"kind": "multi_animal", "jurisdiction": "minneapolis", "holder": "Ada", "address": "1 Elm", "application": map[string]any{"animals": 3}}, http.StatusBadRequest)
		cites(t, e, "message", "64.100")
		// 64.100(b): modified from time to time, ten days after notice.
		mp := fmt.Sprintf("/api/v1/permits/%d/restrictions", m.n("id"))
		e = h.call(t, in, "POST", mp, map[string]any{"restrictions": "Dogs indoors from 9 p.m."}, http.StatusBadRequest)
		if e.s("field") != "notice_on" {
			t.Errorf("modification without notice: field %q, want notice_on", e.s("field"))
		}
		cites(t, e, "message", "64.100(b)")
		mod := h.call(t, in, "POST", mp, map[string]any{"restrictions": "Dogs indoors from 9 p.m.", "notice_on": "2026-06-10"}, http.StatusOK)
		if ms, _ := mod["modifications"].([]any); len(ms) != 1 || ms[0].(map[string]any)["effective"] != "2026-06-20" {
			t.Errorf("modification = %v; want one, effective 2026-06-20 (64.100(b))", mod["modifications"])
		}
		e = h.call(t, in, "POST", fmt.Sprintf("/api/v1/permits/%d/restrictions", p.n("id")), map[string]any{"restrictions": "x", "notice_on": "2026-06-10"}, http.StatusBadRequest)
		if e.s("field") != "kind" {
			t.Errorf("modifying an off-leash permit: field %q, want kind", e.s("field"))
		}

		kit := h.call(t, in, "POST", "/api/v1/animals", map[string]any{"name": "Kit", "species": "cat", "birth_date": "2026-01-01"}, http.StatusCreated)
		ag := h.call(t, in, "POST", "/api/v1/adoption-agreements", map[string]any{"animal_id": kit.n("id"), "jurisdiction": "minneapolis", "adopter": "Eli Ek", "adopted": "2026-06-05", "signed": true}, http.StatusCreated)
		if ag.s("due") != "2026-07-01" || !strings.Contains(ag.s("due_source"), "64.140") {
			t.Fatalf("agreement = %v; want due at six months, 2026-07-01 (64.140(a)(1))", ag)
		}
		var due struct {
			Items []struct {
				What        string `json:"what"`
				AgreementID int64  `json:"agreement_id"`
				ReportID    int64  `json:"report_id"`
			} `json:"items"`
		}
		h.mustJSON(off, "GET", "/api/v1/permits/due", nil, http.StatusOK, &due)
		falls := false
		for _, it := range due.Items {
			falls = falls || it.What == "agreement-due" && it.AgreementID == ag.n("id")
		}
		if !falls {
			t.Errorf("officer's list = %+v; want the agreement falling due", due.Items)
		}
		h.mustJSON(off, "GET", fmt.Sprintf("/api/v1/animals/%d/record", kit.n("id")), nil, http.StatusOK, &ans)
		if ans.Agreement == nil || ans.Agreement.Status != "due" || ans.Agreement.Due != "2026-07-01" {
			t.Errorf("Kit's record agreement = %+v; want due 2026-07-01", ans.Agreement)
		}
		old := h.call(t, in, "POST", "/api/v1/animals", map[string]any{"name": "Old", "species": "dog", "birth_date": "2024-01-01"}, http.StatusCreated)
		late := h.call(t, in, "POST", "/api/v1/adoption-agreements", map[string]any{"animal_id": old.n("id"), "jurisdiction": "minneapolis", "adopter": "Ola", "adopted": "2026-05-01", "signed": true}, http.StatusCreated)
		if late.s("due") != "2026-05-31" {
			t.Errorf("older animal's agreement due %s, want within 30 days, 2026-05-31 (64.140(a)(1))", late.s("due"))
		}
		h.mustJSON(off, "GET", "/api/v1/permits/due", nil, http.StatusOK, &due)
		broken := false
		for _, it := range due.Items {
			broken = broken || it.What == "agreement-broken" && it.AgreementID == late.n("id")
		}
		if !broken {
			t.Errorf("officer's list = %+v; want the broken agreement", due.Items)
		}
		st := h.call(t, in, "POST", fmt.Sprintf("/api/v1/adoption-agreements/%d/sterilised", ag.n("id")), map[string]any{"sterilised": "2026-06-09", "veterinarian": "Dr. Vet", "on": "2026-06-09", "signed": true}, http.StatusOK)
		if st.s("sterilised") != "2026-06-09" {
			t.Errorf("sterilised = %v", st)
		}

		b := h.call(t, in, "POST", "/api/v1/permits", map[string]any{"kind": "animal_business", "jurisdiction": "minneapolis", "class": "premises", "holder": "Pet Co",
			"application": map[string]any{"activities": []any{"sale"}}}, http.StatusCreated)
		if b.s("state") != "pending" || !strings.Contains(fmt.Sprint(b["pending"]), "68.10") {
			t.Errorf("animal business = %v; want pending what 68.10 asks", b)
		}

		rep := h.call(t, service.RoleClinic, "POST", "/api/v1/animal-reports", map[string]any{"kind": "bite", "jurisdiction": "minneapolis", "reporter_role": "physician",
			"reporter": map[string]any{"name": "Dr. Aho"}, "persons": []any{map[string]any{"name": "Eli Ek", "address": "1 Elm St"}}, "animal_id": pd.n("id"), "incident": "2026-06-09", "skin_broken": true}, http.StatusCreated)
		if rep.n("bite_id") == 0 || rep.n("quarantine_id") == 0 || rep["open"] != true {
			t.Errorf("bite report = %v; want the bite and its quarantine opened (66.60, 66.40)", rep)
		}
		e = h.call(t, service.RoleClinic, "POST", "/api/v1/animal-reports", map[string]any{"kind": "rabies_suspect", "jurisdiction": "minneapolis", "reporter_role": "veterinarian",
			"reporter": map[string]any{"name": "Dr. Vet"}, "animal_description": "raccoon"}, http.StatusBadRequest)
		cites(t, e, "message", "66.70")
		h.mustJSON(off, "GET", "/api/v1/permits/due", nil, http.StatusOK, &due)
		open := false
		for _, it := range due.Items {
			open = open || it.What == "report-open" && it.ReportID == rep.n("id")
		}
		if !open {
			t.Errorf("officer's list = %+v; want the open bite report", due.Items)
		}
	})
}
