package web_test

import (
	"context"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chipdesk/chipdesk/service"
)

// kennelForm is a complete kennel application as the form sends it
// (5-18(b)).
func kennelForm(holder, class, property string) url.Values {
	return url.Values{"kind": {"kennel"}, "jurisdiction": {"chanhassen"}, "class": {class}, "holder": {holder}, "property": {property},
		"premises_owner_name": {holder}, "premises_owner_address": {"9000 Pioneer Trail"},
		"ref1_name": {"Ola Nord"}, "ref1_address": {"1 Main St, Chaska"}, "ref1_county": {"Carver"},
		"ref2_name": {"Eva Sund"}, "ref2_address": {"2 Elm, Minnetonka"}, "ref2_county": {"Hennepin"},
		"convictions_declared": {"on"}, "contact_name": {holder}, "contact_phone": {"952-555-0100"}, "contact_address": {"9000 Pioneer Trail"},
		"entity": {"person"}, "interest_document": {"deed"}, "sworn": {"on"}, "zoning_compliant": {"yes"}, "acres": {"10"}}
}

var permitLink = regexp.MustCompile(`href="/permits/(\d+)"`)

// lastPermit is the newest permit linked from a list page.
func lastPermit(t *testing.T, body string) string {
	t.Helper()
	m := permitLink.FindAllStringSubmatch(body, -1)
	if len(m) == 0 {
		t.Fatal("no permit listed")
	}
	best := 0
	for _, x := range m {
		n, _ := strconv.Atoi(x[1])
		best = max(best, n)
	}
	return strconv.Itoa(best)
}

// errBeside returns the error shown beside the field with id.
func errBeside(body, id string) string {
	at := strings.Index(body, `id="`+id+`"`)
	if at < 0 {
		return ""
	}
	end := strings.Index(body[at:], "</span>")
	return body[at : at+end]
}

// TestPermitPagesWalk_Chanhassen_5_18_5_87: the kennel and stable
// permits through the pages alone: the complete application of 5-18(b),
// the inspection before grant (5-18(d)), the expiry and renewal day of
// 5-18(c), one licence per place (5-18(c)), the refusal of 5-18.1(a),
// a suspension on a ground of 5-18(e) and the appeal window of 5-18(f);
// a stable's inspection (5-103), an escape suspending it (5-87(b)) and
// its reinspection; each refusal beside its field.
func TestPermitPagesWalk_Chanhassen_5_18_5_87(t *testing.T) {
	t.Parallel()
	f := newFixture(t, false)
	c := f.client()
	c.login(service.RoleIntake)

	st, body := c.post("/permits", kennelForm("Kari Berg", "commercial", "Lot 4, Pioneer Trail"))
	if st != http.StatusOK || !strings.Contains(body, "Before grant: An inspection of the premises before grant (5-18(d))") {
		t.Fatalf("complete kennel application = %d; want pending only the inspection (5-18(d))", st)
	}
	id := lastPermit(t, body)
	st, body = c.post("/permits/"+id+"/inspection", url.Values{"on": {"2026-06-09"}, "passed": {"on"}})
	if st != http.StatusOK || !strings.Contains(body, `id="permit-status">granted`) || !strings.Contains(body, "2026-12-31") || !strings.Contains(body, "2026-12-01") {
		t.Fatalf("inspected = %d; want granted to 2026-12-31, renewal due 2026-12-01 (5-18(c))", st)
	}
	st, body = c.post("/permits", kennelForm("Kari Berg", "commercial", "lot 4,  Pioneer Trail"))
	if e := errBeside(body, "property-err"); st != http.StatusConflict || !strings.Contains(e, "5-18(c)") {
		t.Errorf("a second licence for the place = %d, beside the premises %q; want 409 citing 5-18(c)", st, e)
	}
	st, body = c.post("/permits/"+id+"/renew", url.Values{"applied": {"2026-06-10"}})
	if st != http.StatusOK || !strings.Contains(body, "2027-12-31") || !strings.Contains(body, "5-18(d)") {
		t.Errorf("renewal by December 1 = %d; want the next term to 2027-12-31, awaiting its inspection (5-18(d))", st)
	}
	bad := kennelForm("Cy Carr", "private", "Lot 7")
	bad.Set("conviction_offence", "cruelty-to-animals")
	st, body = c.post("/permits", bad)
	if e := errBeside(body, "conviction_offence-err"); st != http.StatusConflict || !strings.Contains(e, "5-18.1(a)") || !strings.Contains(body, `value="Cy Carr"`) {
		t.Errorf("conviction = %d, beside it %q; want 409 citing 5-18.1(a), the form kept", st, e)
	}
	st, body = c.post("/permits/"+id+"/action", url.Values{"action": {"suspend"}, "ground": {"nuisance"}, "on": {"2026-05-20"}})
	if st != http.StatusOK || !strings.Contains(body, `id="permit-status">suspended`) || !strings.Contains(body, "5-18(e)(5)") || !strings.Contains(body, "notice by 2026-05-30") {
		t.Fatalf("suspended = %d; want 5-18(e)(5), appeal notice by 2026-05-30 (5-18(f))", st)
	}
	st, body = c.post("/permits/"+id+"/appeal", url.Values{"on": {"2026-05-31"}})
	if e := errBeside(body, "appeal-on-err"); st != http.StatusConflict || !strings.Contains(e, "5-18(f)") {
		t.Errorf("late appeal = %d, beside the day %q; want 409 citing 5-18(f)", st, e)
	}
	st, body = c.post("/permits/"+id+"/appeal", url.Values{"on": {"2026-05-29"}})
	if st != http.StatusOK || !strings.Contains(body, "heard on or after 2026-06-13") {
		t.Errorf("appeal = %d; want heard on or after 2026-06-13 (5-18(f))", st)
	}

	stable := url.Values{"kind": {"stable"}, "jurisdiction": {"chanhassen"}, "holder": {"Lee Lund"}, "property": {"Lot 2"}, "acres": {"3"}, "animals": {"2"},
		"conditions": {"fence", "shelter", "no-nuisance", "sanitary", "no-pollution", "manure-well", "manure-removal", "wetland"}}
	st, body = c.post("/permits", stable)
	if st != http.StatusOK || !strings.Contains(body, "5-103") {
		t.Fatalf("stable = %d; want pending the stable inspector (5-103)", st)
	}
	sid := lastPermit(t, body)
	if st, body = c.post("/permits/"+sid+"/inspection", url.Values{"on": {"2026-06-01"}, "passed": {"on"}}); st != http.StatusOK || !strings.Contains(body, `id="permit-status">granted`) {
		t.Fatalf("inspected stable = %d", st)
	}
	st, body = c.post("/permits/"+sid+"/escape", url.Values{"on": {"2026-06-08"}, "recovered_by_city": {"on"}, "recovery_cents": {"1000"}})
	if e := errBeside(body, "escape-recovery_cents-err"); st != http.StatusBadRequest || !strings.Contains(e, "5-87(a)") || !strings.Contains(body, `value="1000"`) {
		t.Errorf("recovery below the least = %d, beside it %q; want 400 citing 5-87(a)", st, e)
	}
	st, body = c.post("/permits/"+sid+"/escape", url.Values{"on": {"2026-06-08"}, "recovered_by_city": {"on"}})
	if st != http.StatusOK || !strings.Contains(body, `id="permit-status">suspended`) || !strings.Contains(body, "$25.00") || !strings.Contains(body, "5-87(b)") {
		t.Fatalf("escape recovered by the city = %d; want suspended (5-87(b)), charge $25.00", st)
	}
	if st, body = c.get("/permits/due"); st != http.StatusOK || !strings.Contains(body, `data-what="stable-suspended"`) {
		t.Errorf("officer's list = %d; want the suspended stable", st)
	}
	st, body = c.post("/permits/"+sid+"/inspection", url.Values{"on": {"2026-06-09"}, "passed": {"on"}, "fee_paid": {"on"}})
	if st != http.StatusOK || !strings.Contains(body, `id="permit-status">granted`) {
		t.Errorf("reinspected and paid = %d; want granted (5-87(b))", st)
	}
	if st, _ := c.post("/permits/"+sid+"/grant", nil); st != http.StatusConflict {
		t.Errorf("granting a granted permit = %d, want 409", st)
	}
	officer := f.client()
	officer.login(service.RoleOfficer)
	if st, _ := officer.post("/permits/"+sid+"/grant", nil); st != http.StatusForbidden {
		t.Errorf("grant as officer = %d, want 403 (the clerk's office grants)", st)
	}

	_, body = c.post("/permits", kennelForm("Mo Moe", "private", "Lot 8"))
	late := lastPermit(t, body)
	if st, _ := c.post("/permits/"+late+"/inspection", url.Values{"on": {"2026-06-10"}, "passed": {"on"}}); st != http.StatusOK {
		t.Fatalf("inspection = %d", st)
	}
	f.clock.Add(170 * 24 * time.Hour) // to December 2; the session has ended
	c.login(service.RoleIntake)
	st, body = c.post("/permits/"+late+"/renew", url.Values{"applied": {"2026-12-02"}})
	if e := errBeside(body, "renew-applied-err"); st != http.StatusConflict || !strings.Contains(e, "2026-12-01") || !strings.Contains(e, "5-18(c)") {
		t.Errorf("renewal applied for after December 1 = %d, beside the day %q; want 409 citing 5-18(c)", st, e)
	}
	st, body = c.post("/permits/"+late+"/renew", url.Values{"applied": {"2026-12-03"}})
	if e := errBeside(body, "renew-applied-err"); st != http.StatusBadRequest || !strings.Contains(e, "future") {
		t.Errorf("renewal applied for tomorrow = %d, beside the day %q; want 400, in the future", st, e)
	}
}

// TestPermitPagesWalk_Minneapolis_64_55_64_140: the pages show a dog's
// off-leash permit on its record (64.55), a lapsed kennel and an
// adoption agreement falling due on the officer's list and the
// agreement on the animal's record (64.140).
func TestPermitPagesWalk_Minneapolis_64_55_64_140(t *testing.T) {
	t.Parallel()
	f := newFixture(t, false)
	ctx := context.Background()
	c := f.client()
	c.login(service.RoleIntake)
	dog := &service.Animal{OwnerID: f.owner.ID, Name: "Pip", Species: service.Dog, Altered: true, BirthDate: service.MustDate("2023-01-01")}
	if err := f.store.CreateAnimal(ctx, dog); err != nil {
		t.Fatal(err)
	}
	pid := strconv.FormatInt(dog.ID, 10)
	st, body := c.post("/permits", url.Values{"kind": {"off_leash"}, "jurisdiction": {"minneapolis"}, "class": {"non_resident"}, "animal_id": {pid},
		"rabies_verified": {"on"}, "rules_signed": {"on"}})
	if st != http.StatusOK || !strings.Contains(body, "granted") {
		t.Fatalf("off-leash permit = %d", st)
	}
	if st, body = c.get("/animals/" + pid); st != http.StatusOK || !strings.Contains(body, `data-permit="off_leash"`) || !strings.Contains(body, "2027-01-31") {
		t.Errorf("Pip's record = %d; want the off-leash permit to 2027-01-31", st)
	}
	st, body = c.post("/permits", url.Values{"kind": {"multi_animal"}, "jurisdiction": {"minneapolis"}, "holder": {"Ada Lindqvist"}, "address": {"3401 Chicago Ave"},
		"animals": {"5"}, "restrictions": {"No more than two outdoors at a time"}})
	if st != http.StatusOK || !strings.Contains(body, "$20.00") || !strings.Contains(body, "2027-02-01") {
		t.Fatalf("64.100 permit = %d; want $20.00 to 2027-02-01 (64.100(c))", st)
	}
	if st, body = c.get("/permits/" + lastPermit(t, body)); !strings.Contains(body, `id="permit-restrictions">No more than two outdoors`) {
		t.Errorf("64.100 permit page = %d; want the commissioner's restrictions (64.100(b))", st)
	}
	if err := f.store.CreatePermit(ctx, &service.Permit{Kind: service.PermitKennel, Jurisdiction: "chanhassen", Class: "private", Holder: "Dag Dahl",
		State: service.PermitGranted, IssuedOn: service.MustDate("2025-03-01"), ExpiresOn: service.MustDate("2025-12-31"), RenewalDue: service.MustDate("2025-12-01")}); err != nil {
		t.Fatal(err)
	}
	kit := &service.Animal{Name: "Kit", Species: service.Cat, BirthDate: service.MustDate("2026-01-01")}
	if err := f.store.CreateAnimal(ctx, kit); err != nil {
		t.Fatal(err)
	}
	kid := strconv.FormatInt(kit.ID, 10)
	st, body = c.post("/adoption-agreements", url.Values{"jurisdiction": {"minneapolis"}, "animal_id": {kid}, "adopter": {"Eli Ek"}, "adopted": {"2026-06-05"}, "signed": {"on"}})
	if st != http.StatusOK || !strings.Contains(body, "sterilisation due 2026-07-01") {
		t.Fatalf("agreement = %d; want due at six months, 2026-07-01 (64.140(a)(1))", st)
	}
	officer := f.client()
	officer.login(service.RoleOfficer)
	st, body = officer.get("/permits/due")
	for _, want := range []string{`data-what="kennel-lapsed"`, "Dag Dahl", `data-what="agreement-due"`, "Eli Ek", "64.140"} {
		if !strings.Contains(body, want) {
			t.Errorf("officer's list (%d) lacks %s", st, want)
		}
	}
	if st, body = officer.get("/animals/" + kid); st != http.StatusOK || !strings.Contains(body, `data-agreement="due"`) || !strings.Contains(body, "2026-07-01") {
		t.Errorf("Kit's record = %d; want the agreement due 2026-07-01", st)
	}
}
