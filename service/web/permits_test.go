package web_test

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/chipdesk/chipdesk/service"
)

// TestPermitPages: the permit page lists a kind and takes an
// application; a refusal shows the section; the report form opens an
// item on the officer's list. The rules are service/permits' tests.
func TestPermitPages(t *testing.T) {
	t.Parallel()
	f := newFixture(t, false)
	c := f.client()
	c.login(service.RoleIntake)
	if st, body := c.get("/permits?kind=kennel"); st != http.StatusOK || !strings.Contains(body, "Kennel permits (0)") {
		t.Fatalf("GET /permits = %d, want the empty kennel list", st)
	}
	st, body := c.post("/permits", url.Values{"kind": {"kennel"}, "jurisdiction": {"chanhassen"}, "class": {"private"}, "holder": {"Kari Berg"}, "issued": {"2026-06-15"}})
	if st != http.StatusOK || !strings.Contains(body, "Kari Berg") || !strings.Contains(body, "2026-12-31") || !strings.Contains(body, "5-18(d)") || !strings.Contains(body, "set by resolution") {
		t.Errorf("POST /permits = %d; want the pending kennel listed to 2026-12-31, awaiting inspection (5-18(d)), fee set by resolution", st)
	}
	st, body = c.post("/permits", url.Values{"kind": {"off_leash"}, "jurisdiction": {"minneapolis"}, "class": {"resident"}, "animal_id": {strconv.FormatInt(f.rex, 10)}})
	if st != http.StatusConflict || !strings.Contains(body, "64.55(a)") {
		t.Errorf("off-leash for a dangerous dog = %d, want 409 citing 64.55(a)", st)
	}
	st, body = c.post("/reports", url.Values{"kind": {"bite"}, "jurisdiction": {"minneapolis"}, "reporter_role": {"physician"}, "reporter_name": {"Dr. Aho"},
		"person_name": {"Eli Ek"}, "person_address": {"1 Elm St"}, "animal_id": {strconv.FormatInt(f.rex, 10)}, "skin_broken": {"on"}})
	if st != http.StatusOK || !strings.Contains(body, "officer") {
		t.Errorf("POST /reports = %d, want the report taken in", st)
	}
	if st, body = c.get("/permits/due"); st != http.StatusOK || !strings.Contains(body, "report-open") || !strings.Contains(body, "66.60") || !strings.Contains(body, "inspection-pending") {
		t.Errorf("GET /permits/due = %d; want the open report (66.60) and the pending inspection", st)
	}
	pub := f.client()
	pub.login(service.RoleClinic)
	if st, _ := pub.get("/permits"); st != http.StatusForbidden {
		t.Errorf("GET /permits as clinic = %d, want 403", st)
	}
}

// TestRecordShowsOffLeashPermit: the animal's page shows its off-leash
// permit like its licence.
func TestRecordShowsOffLeashPermit(t *testing.T) {
	t.Parallel()
	f := newFixture(t, false)
	fee := int64(2500)
	if err := f.store.CreatePermit(context.Background(), &service.Permit{Kind: service.PermitOffLeash, Jurisdiction: "minneapolis", Class: "resident",
		AnimalID: f.tom, State: service.PermitGranted, IssuedOn: service.MustDate("2026-03-01"), ExpiresOn: service.MustDate("2027-01-31"), FeeCents: &fee}); err != nil {
		t.Fatal(err)
	}
	c := f.client()
	c.login(service.RoleOfficer)
	st, body := c.get("/animals/" + strconv.FormatInt(f.tom, 10))
	if st != http.StatusOK || !strings.Contains(body, `data-permit="off_leash"`) || !strings.Contains(body, "2027-01-31") {
		t.Errorf("animal page = %d; want the off-leash permit until 2027-01-31", st)
	}
}

// TestPermitForms_ErrorBesideField: a refused or mistyped permit form
// comes back with what was typed and the error beside its field: a
// dangerous dog's off-leash permit (64.55(a)) beside animal_id, a lot
// too small for horses (5-104(a)(1)) beside acres, an unsigned adoption
// agreement (64.140) beside the signature, a bite report without the
// persons treated (66.60) beside the name.
func TestPermitForms_ErrorBesideField(t *testing.T) {
	t.Parallel()
	f := newFixture(t, false)
	c := f.client()
	c.login(service.RoleIntake)
	rex := strconv.FormatInt(f.rex, 10)
	for _, tt := range []struct {
		name, path string
		form       url.Values
		status     int
		field      string // the id of the error beside the field
		says       string
		kept       []string // what was typed, shown again
	}{
		{"off-leash for a dangerous dog (64.55(a))", "/permits", url.Values{"kind": {"off_leash"}, "jurisdiction": {"minneapolis"}, "class": {"resident"}, "animal_id": {rex}, "holder": {"Ada Lindqvist"}},
			http.StatusConflict, "animal_id-err", "64.55(a)", []string{`value="Ada Lindqvist"`, `name="animal_id" inputmode="numeric" value="` + rex + `" aria-invalid="true"`, `<option selected>off_leash</option>`}},
		{"acres mistyped", "/permits", url.Values{"kind": {"stable"}, "jurisdiction": {"chanhassen"}, "holder": {"Kari Berg"}, "acres": {"two"}, "rabies_verified": {"on"}},
			http.StatusBadRequest, "acres-err", "acres must be a number", []string{`value="two"`, `name="rabies_verified" checked`}},
		{"two horses on one acre (5-104(a)(1))", "/permits", url.Values{"kind": {"stable"}, "jurisdiction": {"chanhassen"}, "holder": {"Kari Berg"}, "acres": {"1"}, "animals": {"2"}},
			http.StatusConflict, "acres-err", "5-104(a)(1)", []string{`value="Kari Berg"`}},
		{"unsigned adoption agreement (64.140)", "/adoption-agreements", url.Values{"jurisdiction": {"minneapolis"}, "animal_id": {rex}, "adopter": {"Eli Ek"}},
			http.StatusBadRequest, "ag-signed-err", "64.140", []string{`value="Eli Ek"`}},
		{"bite report without the persons treated (66.60)", "/reports", url.Values{"kind": {"bite"}, "jurisdiction": {"minneapolis"}, "reporter_role": {"physician"}, "reporter_name": {"Dr. Aho"}, "location": {"Lake St"}},
			http.StatusBadRequest, "person_name-err", "66.60", []string{`value="Dr. Aho"`, `value="Lake St"`, `<option selected>physician</option>`}},
		{"report on an animal not on file", "/reports", url.Values{"kind": {"bite"}, "jurisdiction": {"minneapolis"}, "reporter_role": {"physician"}, "reporter_name": {"Dr. Aho"},
			"person_name": {"Eli Ek"}, "person_address": {"1 Elm St"}, "animal_id": {"999999"}}, http.StatusNotFound, "animal_id-err", "999999", []string{`value="Eli Ek"`}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			st, body := c.post(tt.path, tt.form)
			if st != tt.status {
				t.Fatalf("POST %s = %d, want %d", tt.path, st, tt.status)
			}
			at := strings.Index(body, `id="`+tt.field+`"`)
			if at < 0 {
				t.Fatalf("no error beside the field (%s) in the page", tt.field)
			}
			if end := strings.Index(body[at:], "</span>"); end < 0 || !strings.Contains(body[at:at+end], tt.says) {
				t.Errorf("error beside %s does not say %q", tt.field, tt.says)
			}
			for _, k := range tt.kept {
				if !strings.Contains(body, k) {
					t.Errorf("page lost what was typed: %s", k)
				}
			}
		})
	}
}

// TestMinneapolis_64_100b_RestrictionsForm: a granted 64.100 permit's
// page offers the modification of its restrictions; a modification
// without the notice's day is shown again with what was typed and the
// error beside the field; one with it is listed with the day it takes
// effect, ten days after the notice (64.100(b)).
func TestMinneapolis_64_100b_RestrictionsForm(t *testing.T) {
	t.Parallel()
	f := newFixture(t, false)
	c := f.client()
	c.login(service.RoleIntake)
	if st, _ := c.post("/permits", url.Values{"kind": {"multi_animal"}, "jurisdiction": {"minneapolis"}, "holder": {"Ada Lindqvist"}, "address": {"3401 Chicago Ave"}, "animals": {"5"}}); st != http.StatusOK {
		t.Fatalf("apply = %d", st)
	}
	ps, _, err := f.store.FindPermits(context.Background(), service.PermitFilter{Kind: service.PermitMultiAnimal})
	if err != nil || len(ps) != 1 || ps[0].State != service.PermitGranted {
		t.Fatalf("permits %+v, %v; want one granted 64.100 permit", ps, err)
	}
	p := ps[0]
	path := "/permits/" + strconv.FormatInt(p.ID, 10)
	if _, body := c.get(path); !strings.Contains(body, `id="step-restrictions"`) {
		t.Fatalf("the permit page offers no modification of the restrictions")
	}
	st, body := c.post(path+"/restrictions", url.Values{"restrictions": {"Dogs indoors from 9 p.m."}})
	if st != http.StatusBadRequest || !strings.Contains(body, `id="restrictions-notice_on-err"`) || !strings.Contains(body, "64.100(b)") || !strings.Contains(body, "Dogs indoors from 9 p.m.</textarea>") {
		t.Fatalf("modification without notice = %d; want 400, the error beside notice_on citing 64.100(b), the text kept", st)
	}
	st, body = c.post(path+"/restrictions", url.Values{"restrictions": {"Dogs indoors from 9 p.m."}, "notice_on": {p.IssuedOn.String()}})
	if st != http.StatusOK || !strings.Contains(body, `id="modifications"`) || !strings.Contains(body, "Dogs indoors from 9 p.m.") {
		t.Fatalf("modification = %d; want the permit page listing it", st)
	}
	got, err := f.store.FindPermitByID(context.Background(), p.ID)
	if err != nil || len(got.Modifications) != 1 || got.Modifications[0].EffectiveOn != p.IssuedOn.AddDays(10) {
		t.Errorf("stored modifications %+v, %v; want one in effect ten days after the notice", got.Modifications, err)
	}
}
