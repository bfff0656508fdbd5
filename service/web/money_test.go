package web_test

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/licensing"
)

// TestPayAtCounter: a licence sold at the counter shows its charge
// (64.30) and what is owed; paying it leads to a printable receipt, the
// day's cash-up has it, and the reports chart the sale as SVG drawn on
// the server.
func TestPayAtCounter(t *testing.T) {
	t.Parallel()
	f := newFixture(t, false)
	if err := f.store.CreateVaccination(context.Background(), &service.RabiesVaccination{AnimalID: f.tom, Date: service.MustDate("2026-01-10"),
		Type: service.VaccineKilled, DurationMonths: 36, Certificate: "RC-2001", Veterinarian: "Dr. Lund"}); err != nil {
		t.Fatal(err)
	}
	lic, err := licensing.New(&licensing.Opts{Store: f.store, Rules: f.rules, Now: f.clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	l, err := lic.Issue(context.Background(), &licensing.LicenceRequest{AnimalID: f.tom, Jurisdiction: "minneapolis",
		Seller: &service.Token{Name: "desk", Role: service.RoleIntake, Site: "shelter"}})
	if err != nil {
		t.Fatal(err)
	}
	c := f.client()
	c.login(service.RoleIntake)
	path := "/charges?licence_id=" + strconv.FormatInt(l.ID, 10)
	st, body := c.get(path)
	if st != http.StatusOK || !strings.Contains(body, "Minneapolis 64.30") || !strings.Contains(body, "Not complete: $15.00 owed") {
		t.Fatalf("GET %s = %d\n%s", path, st, body)
	}
	st, body = c.post("/charges/pay", url.Values{"licence_id": {strconv.FormatInt(l.ID, 10)}, "amount_cents": {"1600"}, "method": {"cash"}})
	if st != http.StatusBadRequest || !strings.Contains(body, "more than") {
		t.Fatalf("overpayment = %d\n%s", st, body)
	}
	st, body = c.post("/charges/pay", url.Values{"licence_id": {strconv.FormatInt(l.ID, 10)}, "amount_cents": {"1500"}, "method": {"cash"}, "till": {"2"}})
	if st != http.StatusOK || !strings.Contains(body, "Receipt") || !strings.Contains(body, "@media print") || !strings.Contains(body, `id="amount">$15.00`) {
		t.Fatalf("payment = %d\n%s", st, body)
	}
	st, body = c.get(path)
	if st != http.StatusOK || !strings.Contains(body, "Complete: every charge is paid or waived.") {
		t.Fatalf("after payment GET %s = %d\n%s", path, st, body)
	}
	st, body = c.get("/cash-up")
	if st != http.StatusOK || !strings.Contains(body, `id="total">$15.00`) || !strings.Contains(body, "<svg") {
		t.Fatalf("cash-up = %d\n%s", st, body)
	}
	st, body = c.get("/reports")
	_, chart, _ := strings.Cut(body, `<figure id="sales-chart">`)
	chart, _, _ = strings.Cut(chart, "</figure>")
	if st != http.StatusOK || !strings.HasPrefix(chart, "<svg") || strings.Contains(chart, "<script") || strings.Contains(chart, "href") {
		t.Fatalf("reports = %d, chart %q", st, chart)
	}
	// A clinic's counter sees its own site's takings only.
	cc := f.client()
	cc.login(service.RoleClinic)
	if st, _ := cc.get("/reports"); st != http.StatusForbidden {
		t.Errorf("clinic on /reports = %d, want 403", st)
	}
}
