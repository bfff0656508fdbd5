package web_test

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/chipdesk/chipdesk/service"
)

// TestBrowserPermitForms: in Chromium, a refused off-leash application
// (64.55(a)) comes back with what was typed and the error beside the
// dog's field; the permit's page, the officer's list and the two animal
// reports pass the accessibility check (a label for every control).
func TestBrowserPermitForms(t *testing.T) {
	f := newFixture(t, false)
	if err := f.store.CreatePermit(context.Background(), &service.Permit{Kind: service.PermitStable, Jurisdiction: "chanhassen", Holder: "Lee Lund",
		State: service.PermitGranted, IssuedOn: service.MustDate("2026-05-01"), RenewalDue: service.MustDate("2027-06-01")}); err != nil {
		t.Fatal(err)
	}
	p := newPage(t, f)
	p.login(service.RoleIntake)
	p.do("open the permits", chromedp.Navigate(p.f.srv.URL+"/permits?kind=off_leash"), chromedp.WaitVisible("#apply-form"))
	p.shot("40-permits")
	p.do("apply for a dangerous dog",
		chromedp.SetValue(`#apply-form select[name="jurisdiction"]`, "minneapolis"),
		chromedp.SendKeys(`#apply-form input[name="class"]`, "resident"),
		chromedp.SendKeys(`#apply-form input[name="holder"]`, "Jane Doe"),
		chromedp.SendKeys(`#apply-form input[name="animal_id"]`, strconv.FormatInt(f.rex, 10)),
		chromedp.Click(`#apply-form button[type="submit"]`),
		chromedp.WaitVisible("#animal_id-err"),
	)
	if s := p.text("#animal_id-err"); !strings.Contains(s, "64.55(a)") {
		t.Errorf("error beside the dog = %q, want 64.55(a)", s)
	}
	kept, err := chromedp.Run(p.ctx, chromedp.Evaluate[string](`document.querySelector('#apply-form input[name="holder"]').value`))
	if err != nil || kept != "Jane Doe" {
		t.Errorf("holder after the refusal = %q, %v; want what was typed", kept, err)
	}
	p.shot("41-permit-refused")
	p.do("open the stable", chromedp.Navigate(p.f.srv.URL+"/permits/1"), chromedp.WaitVisible("#step-escape"))
	p.shot("42-permit-stable")
	p.do("escape recovered by the city",
		chromedp.Click(`#step-escape input[name="recovered_by_city"]`),
		chromedp.Click(`#step-escape button[type="submit"]`),
		chromedp.WaitVisible("#permit-pending"),
	)
	if s := p.text("#permit-status"); s != "suspended" {
		t.Errorf("status after the escape = %q, want suspended (5-87(b))", s)
	}
	p.shot("43-permit-suspended")
	for _, pg := range []struct{ path, sel, name string }{
		{"/permits/due", "table.due", "44-officers-list"},
		{"/reports/dangerous", "#register-chart svg", "45-dangerous-register"},
		{"/reports/rabies-lapsed", "#rabies-chart svg", "46-rabies-lapsed"},
		{"/reports/new", "#report-form", "47-report-form"},
	} {
		p.do("open "+pg.path, chromedp.Navigate(p.f.srv.URL+pg.path), chromedp.WaitVisible(pg.sel))
		p.shot(pg.name)
	}
}
