package web_test

// Browser tests of every page at desktop and phone width, and of the
// counter and officer loops end to end, with the keyboard only for the
// counter.

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/custody"
	"github.com/chipdesk/chipdesk/service/licensing"
	"github.com/chipdesk/chipdesk/service/money"
)

// Widths the pages are checked at: a desktop and a phone (iPhone 12 to
// 15, 390 CSS px).
var widths = []struct {
	name string
	w, h int64
}{{"1280", 1280, 800}, {"390", 390, 844}}

// pageRoutes lists the GET routes the handler's source registers
// (HandleFunc("GET /path", ...)), so that a page added later is walked
// too (or named in notPages).
func pageRoutes(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(`HandleFunc\("GET (/[^" ]*)"`)
	seen := map[string]bool{}
	var out []string
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range re.FindAllSubmatch(b, -1) {
			if p := string(m[1]); !seen[p] {
				seen[p] = true
				out = append(out, p)
			}
		}
	}
	sort.Strings(out)
	if len(out) < 10 {
		t.Fatalf("found only %d page routes in the source: %v", len(out), out)
	}
	return out
}

// notPages are the GET routes that are not pages a person reads: files,
// streams and the fragments pages refresh themselves with.
var notPages = map[string]bool{
	"/favicon.ico": true, "/intake/stream": true, "/photos/{name}": true, "/licences/{id}/tag.svg": true,
	"/jobs/{id}/label.png": true, "/admin/designs/{j}/{year}/preview.svg": true, "/admin/devices": true,
	"/licences/{id}/jobs": true, "/station/{name}/status": true, "/reports/licences.csv": true,
	"/reports/dangerous.csv": true, "/reports/rabies-lapsed.csv": true,
	"/intake/recent": true, "/today/part": true, "/field/scans": true, // fragments the pages fetch
	"/{$}": true, "/static/": true,
}

// deskData makes what every page needs to show something: a licence of
// Tom with its job and a payment, Rex held, and Tom impounded and
// redeemed.
type deskData struct {
	licence, job, payment, held, redeemed, permit int64
}

func seedDesk(t *testing.T, f *fixture) *deskData {
	t.Helper()
	ctx := context.Background()
	lic, err := licensing.New(&licensing.Opts{Store: f.store, Rules: f.rules, Now: f.clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	cus, err := custody.New(&custody.Opts{Store: f.store, Rules: f.rules, Now: f.clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	mon, err := money.New(&money.Opts{Store: f.store, Rules: f.rules, Now: f.clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	d := &deskData{}
	l, err := lic.Issue(ctx, &licensing.LicenceRequest{AnimalID: f.tom, Jurisdiction: "minneapolis",
		Vaccination: &service.RabiesVaccination{Date: service.MustDate("2026-06-01"), Type: service.VaccineKilled, DurationMonths: 12, Certificate: "RC-2002", Veterinarian: "Dr. Lund"}})
	if err != nil {
		t.Fatal(err)
	}
	d.licence = l.ID
	if err := f.issuer.ApproveAll(ctx, "test", f.clock.Now(), 2026); err != nil {
		t.Fatal(err)
	}
	j, _, err := f.issuer.Queue(ctx, l.ID, service.JobPrint)
	if err != nil {
		t.Fatal(err)
	}
	d.job = j.ID
	cs, err := mon.Charges(ctx, service.SubjectLicence, l.ID)
	if err != nil || len(cs) == 0 {
		t.Fatalf("charges of the licence: %v %v", cs, err)
	}
	p, _, err := mon.Pay(ctx, &service.PaymentRequest{Payment: service.Payment{Kind: service.KindPayment, Method: service.PaymentMethod("cash"),
		AmountCents: cs[0].AmountCents, Site: "shelter", TakenBy: "test"}, ChargeIDs: []int64{cs[0].ID}})
	if err != nil {
		t.Fatal(err)
	}
	d.payment = p.ID
	st, err := cus.Impound(ctx, &service.Impoundment{AnimalID: f.tom, Jurisdiction: "minneapolis", WhereFound: "Lake St & 5th Ave", NoticeOn: service.MustDate("2026-06-15")})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cus.Release(ctx, st.ID, &custody.Release{Disposition: service.Redeemed, Note: "owner showed the licence"}); err != nil {
		t.Fatal(err)
	}
	d.redeemed = st.ID
	st, err = cus.Impound(ctx, &service.Impoundment{AnimalID: f.rex, Jurisdiction: "minneapolis", WhereFound: "Cedar Ave"})
	if err != nil {
		t.Fatal(err)
	}
	d.held = st.ID
	fee := int64(2500)
	pm := &service.Permit{Kind: service.PermitOffLeash, Jurisdiction: "minneapolis", Class: "resident", Holder: "Jane Doe",
		AnimalID: f.tom, State: service.PermitGranted, IssuedOn: service.MustDate("2026-03-01"), ExpiresOn: service.MustDate("2027-01-31"), FeeCents: &fee}
	if err := f.store.CreatePermit(ctx, pm); err != nil {
		t.Fatal(err)
	}
	d.permit = pm.ID
	return d
}

// pagePath is the address of route with the ids of d (id 1, the
// fixture's first record, for a kind it does not know), "" when the
// route has another parameter the walk does not know.
func pagePath(route string, f *fixture, d *deskData) string {
	ids := map[string]int64{"/animals/": f.rex, "/licences/": d.licence, "/jobs/": d.job, "/payments/": d.payment, "/permits/": d.permit}
	switch {
	case strings.HasPrefix(route, "/impoundments/{id}/receipt"):
		return fmt.Sprintf("/impoundments/%d/receipt", d.redeemed)
	case strings.HasPrefix(route, "/impoundments/"):
		return strings.Replace(route, "{id}", fmt.Sprint(d.held), 1)
	case route == "/animals/{id}/licence":
		return fmt.Sprintf("/animals/%d/licence", f.tom)
	case route == "/charges":
		return fmt.Sprintf("/charges?licence_id=%d", d.licence)
	case route == "/search":
		return "/search?q=doe"
	}
	for prefix, id := range ids {
		if strings.HasPrefix(route, prefix) {
			return strings.Replace(route, "{id}", fmt.Sprint(id), 1)
		}
	}
	// A page of another record (an owner's, say): the fixture's first
	// one.
	route = strings.ReplaceAll(route, "{id}", "1")
	if strings.Contains(route, "{") {
		return ""
	}
	return route
}

// overflowJS reports how much wider than the window the page is, and
// the widest elements that stick out.
const overflowJS = `(() => {
  const w = document.documentElement.clientWidth;
  const over = document.documentElement.scrollWidth - w;
  const bad = [];
  if (over > 0) for (const e of document.querySelectorAll("body *")) {
    const r = e.getBoundingClientRect();
    if (r.right > w + 1 && bad.length < 5) bad.push(e.tagName + (e.id ? "#" + e.id : "") + (e.className ? "." + e.className : "") + " " + Math.round(r.right));
  }
  return JSON.stringify({over: over, bad: bad});
})()`

// TestBrowserEveryPage_390: every page, at 1280 and 390 px, answers
// 200 with one h1, passes the accessibility checks, and at 390 px needs
// no sideways scrolling; a screenshot of each goes to the artifacts.
func TestBrowserEveryPage_390(t *testing.T) {
	f := newFixture(t, false)
	d := seedDesk(t, f)
	p := newPage(t, f)
	routes := pageRoutes(t)
	var paths []string
	for _, r := range routes {
		if notPages[r] {
			continue
		}
		path := pagePath(r, f, d)
		if path == "" {
			t.Errorf("route %s has a parameter the walk does not know: add it to pagePath", r)
			continue
		}
		paths = append(paths, path)
	}
	p.do("login page", chromedp.Navigate(f.srv.URL+"/login"), chromedp.WaitVisible("#token"))
	for _, w := range widths {
		p.do("viewport "+w.name, chromedp.EmulateViewport(w.w, w.h))
		p.shot(fmt.Sprintf("page-%s-login", w.name))
		if w.w == 390 {
			checkNoOverflow(t, p, "/login")
		}
	}
	p.do("viewport 1280", chromedp.EmulateViewport(1280, 800))
	p.login(service.RoleAdmin)
	for _, path := range paths {
		name := strings.Trim(regexp.MustCompile(`[^a-z0-9]+`).ReplaceAllString(strings.ToLower(path), "-"), "-")
		if path == "/login" {
			continue
		}
		for _, w := range widths {
			p.do("open "+path+" at "+w.name, chromedp.EmulateViewport(w.w, w.h), chromedp.Navigate(f.srv.URL+path), chromedp.WaitReady("body"))
			if h1, err := chromedp.Run(p.ctx, chromedp.Evaluate[string](`document.querySelector("h1") ? document.querySelector("h1").textContent : ""`)); err != nil || h1 == "" || strings.Contains(h1, "Not Found") || strings.Contains(h1, "Internal") || strings.Contains(h1, "Bad Request") {
				t.Errorf("%s: heading %q (%v)", path, h1, err)
			}
			p.shot(fmt.Sprintf("page-%s-%s", w.name, name))
			if w.w == 390 {
				checkNoOverflow(t, p, path)
			}
		}
	}
	t.Logf("walked %d pages at %d widths", len(paths)+1, len(widths))
}

func checkNoOverflow(t *testing.T, p *page, path string) {
	t.Helper()
	res, err := chromedp.Run(p.ctx, chromedp.Evaluate[string](overflowJS))
	if err != nil {
		t.Errorf("%s: overflow check: %v", path, err)
		return
	}
	if !strings.HasPrefix(res, `{"over":0,`) && !strings.HasPrefix(res, `{"over":-`) {
		t.Errorf("%s at 390 px scrolls sideways: %s", path, res)
	}
}

// typeKeys types s into the focused element, key by key.
func (p *page) typeKeys(s string) {
	p.t.Helper()
	p.do("type", chromedp.KeyEvent(s))
}

func licencesOf(t *testing.T, f *fixture, id int64) []*service.Licence {
	t.Helper()
	ls, _, err := f.store.FindLicences(context.Background(), service.LicenceFilter{AnimalID: &id})
	if err != nil {
		t.Fatal(err)
	}
	return ls
}

// TestBrowserCounterKeyboard_5_37b: the counter loop with the keyboard
// alone, at phone width: sign in, find the cat, a certificate without
// its veterinarian refused beside the field with what was typed kept
// (Minneapolis 66.20), the licence issued, the page reloaded (no second
// licence), the receipt opened; then the licence form again warns that
// the licence is current and names the term a renewal would start, and
// renews only once confirmed.
func TestBrowserCounterKeyboard_5_37b(t *testing.T) {
	f := newFixture(t, false)
	p := newPage(t, f)
	p.do("phone", chromedp.EmulateViewport(390, 844))
	p.do("login page", chromedp.Navigate(f.srv.URL+"/login"), chromedp.WaitVisible("#token"))
	p.tabTo("token")
	p.typeKeys(f.tokens[service.RoleClinic] + "\r")
	p.do("signed in", chromedp.WaitVisible("nav"), chromedp.WaitVisible("#q"))
	p.tabTo("q")
	p.typeKeys("900123000000042\r") // Tom's chip, as a wedge reader types it
	p.do("licence form", chromedp.WaitVisible("#issue"))
	p.tabTo("rabies_date")
	p.typeKeys("07012026") // month, day, year: 2026-07-01, after today
	p.tabTo("rabies_certificate")
	p.typeKeys("RC-2002")
	p.tabTo("issue")
	p.typeKeys("\r")
	// The law asks for the veterinarian (66.20): the browser keeps the
	// form until it is given.
	if missing, err := chromedp.Run(p.ctx, chromedp.Evaluate[bool](`document.getElementById("rabies_vet").validity.valueMissing && !!document.getElementById("issue")`)); err != nil || !missing {
		t.Errorf("the form went without the veterinarian (%v)", err)
	}
	p.tabTo("rabies_vet")
	p.typeKeys("Dr. Lund")
	p.tabTo("issue")
	p.typeKeys("\r")
	p.do("refused", chromedp.WaitVisible(".field-error"))
	if s := p.text(".field-error"); !strings.Contains(s, "2026-07-01") {
		t.Errorf("field error %q does not name the date in the future", s)
	}
	for id, want := range map[string]string{"rabies_certificate": "RC-2002", "rabies_vet": "Dr. Lund", "rabies_date": "2026-07-01"} {
		if v, _ := chromedp.Run(p.ctx, chromedp.Value("#"+id)); v != want {
			t.Errorf("#%s = %q after the refusal, want what was typed, %q", id, v, want)
		}
	}
	if n := len(licencesOf(t, f, f.tom)); n != 0 {
		t.Fatalf("a refused sale made %d licences", n)
	}
	p.shot("counter-390-refused")
	p.tabTo("rabies_date")
	p.typeKeys("06012026")
	p.tabTo("issue")
	p.typeKeys("\r")
	p.do("issued", chromedp.WaitVisible("#tag-preview"))
	p.do("reload", chromedp.Reload(), chromedp.WaitVisible("#tag-preview"))
	ls := licencesOf(t, f, f.tom)
	if len(ls) != 1 {
		t.Fatalf("after the sale and a reload, %d licences, want 1", len(ls))
	}
	p.shot("counter-390-issued")
	p.tabTo("receipt-link")
	p.typeKeys("\r")
	p.do("receipt", chromedp.WaitVisible("#document"))
	if s := p.text("#receipt-tag"); s != fmt.Sprint(ls[0].TagNumber) {
		t.Errorf("receipt tag %q, want %d", s, ls[0].TagNumber)
	}
	p.shot("counter-390-receipt")

	// Again at the counter: the licence is current.
	p.do("licence form again", chromedp.Navigate(fmt.Sprintf("%s/animals/%d/licence", f.srv.URL, f.tom)), chromedp.WaitVisible("#renew-warning"))
	next := ls[0].ExpiresOn.AddDays(1).String()
	if s := p.text("#renew-term"); !strings.HasPrefix(s, next) {
		t.Errorf("renewal term %q, want it to start %s", s, next)
	}
	p.shot("counter-390-renew-warning")
	p.tabTo("confirm_renewal")
	p.typeKeys(" ")
	p.tabTo("issue")
	p.typeKeys("\r")
	p.do("renewed", chromedp.WaitVisible("#tag-preview"))
	ls = licencesOf(t, f, f.tom)
	if len(ls) != 2 || ls[0].IssuedOn.String() != next && ls[1].IssuedOn.String() != next {
		t.Errorf("licences after the renewal = %+v, want a second from %s", ls, next)
	}
}

// TestBrowserOfficerLoop_64_110: the officer's page: a requirement of
// the dangerous dog recorded met (a date in the future refused beside
// its form first), a bite recorded with where and what happened, shown
// on the animal's page and in the quarantines ending soon; each page
// reloaded after its form creates nothing.
func TestBrowserOfficerLoop_64_110(t *testing.T) {
	f := newFixture(t, false)
	p := newPage(t, f)
	p.login(service.RoleOfficer)
	p.do("officer", chromedp.Navigate(f.srv.URL+"/officer"), chromedp.WaitVisible("#dangerous"))
	p.shot("officer-1280-watch")
	sel := fmt.Sprintf(`#dd-%d tr[data-requirement="photo"]`, f.rex)
	p.do("future date", chromedp.SetValue(sel+` input[name="on"]`, "2026-07-01"),
		chromedp.Evaluate[chromedp.Void](`document.querySelector('`+sel+` form').noValidate = true`),
		chromedp.Click(sel+" button"), chromedp.WaitVisible(sel+" .field-error"))
	p.shot("officer-1280-refused")
	p.do("met", chromedp.SetValue(sel+` input[name="on"]`, "2026-06-14"), chromedp.Click(sel+" button"),
		chromedp.WaitVisible(sel+`[data-status="met"]`))
	p.do("reload", chromedp.Reload(), chromedp.WaitVisible(sel+`[data-status="met"]`))
	ds, _ := f.store.FindDesignations(context.Background(), f.rex)
	if ds[0].PhotoOn.String() != "2026-06-14" {
		t.Errorf("photo met on %v, want 2026-06-14", ds[0].PhotoOn)
	}
	p.do("tom", chromedp.Navigate(fmt.Sprintf("%s/animals/%d", f.srv.URL, f.tom)), chromedp.WaitVisible("details.action"))
	id := fmt.Sprint(f.tom)
	p.do("bite form", chromedp.Evaluate[chromedp.Void](`document.querySelectorAll("details.action").forEach(d => d.open = true)`),
		chromedp.SetValue("#bdate-"+id, "2026-06-06"), chromedp.Click("#skin-"+id),
		chromedp.SendKeys("#bloc-"+id, "Lake Harriet bandshell"), chromedp.SendKeys("#bnotes-"+id, "Lunged at a jogger"),
		chromedp.Click(`form[action$="/bites"] button`), chromedp.WaitVisible("#bites"))
	p.do("reload", chromedp.Reload(), chromedp.WaitVisible("#bites"))
	bites, _ := f.store.FindBites(context.Background(), f.tom)
	if len(bites) != 1 {
		t.Fatalf("bites after the form and a reload = %d, want 1", len(bites))
	}
	if s := p.text("#bites"); !strings.Contains(s, "Lake Harriet bandshell") || !strings.Contains(s, "Lunged at a jogger") {
		t.Errorf("bites section %q lacks where and what happened", s)
	}
	p.shot("officer-1280-bite")
	p.do("officer again", chromedp.EmulateViewport(390, 844), chromedp.Navigate(f.srv.URL+"/officer"), chromedp.WaitVisible("#quarantines"))
	if s := p.text("#quarantines"); !strings.Contains(s, "Lake Harriet bandshell") {
		t.Errorf("quarantines ending soon %q lack Tom's", s)
	}
	checkNoOverflow(t, p, "/officer")
	p.shot("officer-390-watch")
}

// pdfPages counts the pages of a PDF Chromium printed.
func pdfPages(b []byte) int {
	return len(regexp.MustCompile(`/Type\s*/Page[^s]`).FindAll(b, -1))
}

// TestBrowserDocumentsPrint_5_55_5_73: the documents print on one page
// each with the print stylesheet (no header, navigation, forms or
// buttons); the PDFs go to the artifacts. The licence receipt names the
// duplicate rule's section, the notice the hold's, the redemption
// receipt its fee lines, the kennel card the hold-until date and the
// warnings.
func TestBrowserDocumentsPrint_5_55_5_73(t *testing.T) {
	f := newFixture(t, false)
	d := seedDesk(t, f)
	p := newPage(t, f)
	p.login(service.RoleAdmin)
	for _, doc := range []struct {
		name, path string
		want       []string
	}{
		{"licence-receipt", fmt.Sprintf("/licences/%d/receipt", d.licence), []string{"64.40", "RC-2002", "Dr. Lund", "Tom"}},
		{"impound-notice", fmt.Sprintf("/impoundments/%d/notice", d.held), []string{"Notice of impounding", "346.47", "2026-06-22", "Jane Doe", "62.40(a)"}},
		{"redemption-receipt", fmt.Sprintf("/impoundments/%d/receipt", d.redeemed), []string{"Redemption receipt", "Impound fee", "62.40(a)", "Total paid"}},
		{"kennel-card", fmt.Sprintf("/impoundments/%d/kennel-card", d.held), []string{"Rex", "2026-06-22", "Dangerous", "982 000001088420", "Cedar Ave"}},
	} {
		p.do(doc.name, chromedp.Navigate(f.srv.URL+doc.path), chromedp.WaitVisible("#document"))
		text := p.text("#document")
		for _, w := range doc.want {
			if !strings.Contains(text, w) {
				t.Errorf("%s lacks %q:\n%s", doc.name, w, text)
			}
		}
		if strings.Contains(text, "$0.00") {
			t.Errorf("%s shows $0.00", doc.name)
		}
		pdf, err := chromedp.Run(p.ctx, chromedp.PrintToPDF())
		if err != nil {
			t.Fatalf("%s: print: %v", doc.name, err)
		}
		if err := os.WriteFile(filepath.Join(p.dir, "print-"+doc.name+".pdf"), pdf, 0o644); err != nil {
			t.Fatal(err)
		}
		if n := pdfPages(pdf); n != 1 {
			t.Errorf("%s prints on %d pages, want 1", doc.name, n)
		}
		p.shot("doc-" + doc.name)
	}
}
