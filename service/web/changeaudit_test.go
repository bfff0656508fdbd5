package web_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"testing"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/store/storetest"
	"github.com/chipdesk/chipdesk/service/web"
)

// TestPagesAuditChangesInTheirTransaction: the changes the pages make
// (a licence sold with its certificate, a duplicate, an impound, a bite
// and the quarantine it orders, a token made and revoked) are each
// written with their audit event in the change's own transaction, once,
// naming the record; none reaches the log afterwards.
func TestPagesAuditChangesInTheirTransaction(t *testing.T) {
	t.Parallel()
	var rec *storetest.Afterwards
	f := newFixtureWith(t, false, func(o *web.Opts) { rec = &storetest.Afterwards{Store: o.Store}; o.Store = rec })
	clinic := f.client()
	clinic.login(service.RoleClinic)
	if st, body := clinic.post(fmt.Sprintf("/animals/%d/licence", f.tom), url.Values{
		"rabies_date": {"2026-06-01"}, "rabies_months": {"12"}, "rabies_type": {"killed"}, "rabies_certificate": {"RC-2002"}, "rabies_vet": {"Dr. A. Lund"},
		"jurisdiction": {"minneapolis"}, "issued_by": {"clinic"}, "clinic": {"Lake Street Vet"},
	}); st != http.StatusOK {
		t.Fatalf("issue = %d\n%s", st, body)
	}
	ls, _, err := f.store.FindLicences(context.Background(), service.LicenceFilter{AnimalID: &f.tom})
	if err != nil || len(ls) != 1 {
		t.Fatalf("licences = %d (%v)", len(ls), err)
	}
	if st, body := clinic.post(fmt.Sprintf("/licences/%d/duplicate", ls[0].ID), url.Values{"reason": {"lost"}}); st != http.StatusOK {
		t.Fatalf("duplicate = %d\n%s", st, body)
	}
	intake := f.client()
	intake.login(service.RoleIntake)
	if st, body := intake.post(fmt.Sprintf("/animals/%d/impound", f.tom), url.Values{"notice_date": {"2026-06-15"}, "where_found": {"Loring Park"}, "jurisdiction": {"minneapolis"}}); st != http.StatusOK { // 303 to the stay's page, followed
		t.Fatalf("impound = %d\n%s", st, body)
	}
	officer := f.client()
	officer.login(service.RoleOfficer)
	if st, body := officer.post(fmt.Sprintf("/animals/%d/bites", f.tom), url.Values{"bite_date": {"2026-06-14"}, "victim": {"person"}, "skin_broken": {"on"}, "jurisdiction": {"minneapolis"}}); st != http.StatusOK {
		t.Fatalf("bite = %d\n%s", st, body)
	}
	admin := f.client()
	admin.login(service.RoleAdmin)
	if st, body := admin.post("/admin/tokens", url.Values{"name": {"Front desk 2"}, "role": {"intake"}}); st != http.StatusOK { // 303 to /admin, followed
		t.Fatalf("token = %d\n%s", st, body)
	}
	toks, _ := f.store.FindTokens(context.Background())
	for _, tk := range toks {
		if tk.Name == "Front desk 2" {
			if st, body := admin.post(fmt.Sprintf("/admin/tokens/%d/revoke", tk.ID), nil); st != http.StatusOK {
				t.Fatalf("revoke = %d\n%s", st, body)
			}
		}
	}

	want := map[string]int{"licence.create": 0, "vaccination.create": 0, "licence.duplicate": 0, "impoundment.create": 0,
		"bite.create": 0, "quarantine.create": 0, "token.create": 0, "token.revoke": 0}
	for _, a := range rec.Actions() {
		if _, change := want[a]; change {
			t.Errorf("%s: audited after the change, not in its transaction", a)
		}
	}
	all, _, err := f.store.FindAuditEvents(context.Background(), service.AuditFilter{Limit: 1000})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range all {
		if _, ok := want[e.Action]; ok {
			want[e.Action]++
			if e.EntityID == 0 || e.Actor == "" || e.Actor == "anonymous" {
				t.Errorf("%s: event %+v names no record or actor", e.Action, e)
			}
		}
	}
	for a, n := range want {
		if n != 1 {
			t.Errorf("%s audited %d times, want once", a, n)
		}
	}
}
