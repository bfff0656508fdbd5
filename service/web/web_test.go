package web_test

import (
	"context"
	"crypto/tls"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/rules"
	"github.com/chipdesk/chipdesk/service/web"
)

// client is a browser stand-in: it keeps the session cookie and reads
// the CSRF token from the last page.
type client struct {
	t      *testing.T
	f      *fixture
	hc     *http.Client
	cookie *http.Cookie
	csrf   string
	origin string
}

func (f *fixture) client() *client {
	hc := f.srv.Client()
	hc.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	return &client{t: f.t, f: f, hc: hc, origin: f.srv.URL}
}

var csrfRE = regexp.MustCompile(`name="csrf" value="([^"]+)"`)

// do sends a request and returns the status, the Location and the body.
func (c *client) do(method, path string, form url.Values) (int, string, string) {
	c.t.Helper()
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequest(method, c.f.srv.URL+path, body)
	if err != nil {
		c.t.Fatal(err)
	}
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Origin", c.origin)
	}
	if c.cookie != nil {
		req.AddCookie(c.cookie)
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	for _, ck := range resp.Cookies() {
		if ck.Name == "chipdesk_session" {
			if ck.MaxAge < 0 {
				c.cookie = nil
			} else {
				c.cookie = ck
			}
		}
	}
	if m := csrfRE.FindSubmatch(b); m != nil {
		c.csrf = string(m[1])
	}
	return resp.StatusCode, resp.Header.Get("Location"), string(b)
}

func (c *client) get(path string) (int, string) {
	c.t.Helper()
	st, loc, body := c.do("GET", path, nil)
	if st == http.StatusSeeOther {
		return c.get(strings.TrimPrefix(loc, c.f.srv.URL))
	}
	return st, body
}

// post sends a form with the session's CSRF token and follows the
// redirect.
func (c *client) post(path string, form url.Values) (int, string) {
	c.t.Helper()
	if form == nil {
		form = url.Values{}
	}
	if form.Get("csrf") == "" {
		form.Set("csrf", c.csrf)
	}
	st, loc, body := c.do("POST", path, form)
	if st == http.StatusSeeOther {
		return c.get(loc)
	}
	return st, body
}

func (c *client) login(role service.Role) {
	c.t.Helper()
	st, loc, _ := c.do("POST", "/login", url.Values{"token": {c.f.tokens[role]}})
	if st != http.StatusSeeOther || c.cookie == nil {
		c.t.Fatalf("login as %s = %d, cookie %v, want 303 and a cookie", role, st, c.cookie)
	}
	c.get(loc)
}

func TestLogin(t *testing.T) {
	t.Parallel()
	f := newFixture(t, false)
	c := f.client()
	if st, loc, _ := c.do("GET", "/intake", nil); st != http.StatusSeeOther || !strings.HasPrefix(loc, "/login?next=") {
		t.Errorf("GET /intake signed out = %d %q, want 303 to /login", st, loc)
	}
	if st, _, body := c.do("POST", "/login", url.Values{"token": {"cdk_WRONG"}}); st != http.StatusUnauthorized || !strings.Contains(body, "not valid") {
		t.Errorf("login with a bad token = %d, want 401 with a message", st)
	}
	for _, tc := range []struct {
		name string
		role service.Role
		home string
	}{
		{"admin", service.RoleAdmin, "/admin"},
		{"intake", service.RoleIntake, "/intake"},
		{"officer", service.RoleOfficer, "/officer"},
		{"clinic", service.RoleClinic, "/clinic"},
	} {
		c := f.client()
		st, loc, _ := c.do("POST", "/login", url.Values{"token": {f.tokens[tc.role]}})
		if st != http.StatusSeeOther || loc != tc.home {
			t.Errorf("%s: login = %d %q, want 303 %q", tc.name, st, loc, tc.home)
		}
		ck := c.cookie
		if ck == nil || !ck.HttpOnly || ck.SameSite != http.SameSiteStrictMode || ck.Secure || ck.Path != "/" || len(ck.Value) < 40 {
			t.Errorf("%s: session cookie %+v, want HttpOnly, SameSite=Strict, Path /, a long random value", tc.name, ck)
		}
	}
}

// TestSignInLink: "chipdesk demo" prints GET /login?token=…&reader=…;
// it signs in and lands on the reader's live panel, but not when another
// site sends the browser there.
func TestSignInLink(t *testing.T) {
	t.Parallel()
	f := newFixture(t, false)
	for _, tc := range []struct {
		name, path, fetchSite string
		role                  service.Role
		status                int
		loc                   string
	}{
		{"admin with reader", "/login?reader=desk-1&token=", "none", service.RoleAdmin, 303, "/intake?reader=desk-1"},
		{"intake, no header", "/login?token=", "", service.RoleIntake, 303, "/intake"},
		{"clinic with reader goes home", "/login?reader=desk-1&token=", "none", service.RoleClinic, 303, "/clinic"},
		{"next kept", "/login?next=%2Fsearch%3Fq%3Dx&token=", "none", service.RoleOfficer, 303, "/search?q=x"},
		{"next off site dropped", "/login?next=%2F%2Fevil.example&token=", "none", service.RoleOfficer, 303, "/officer"},
		{"from another site", "/login?token=", "cross-site", service.RoleAdmin, 403, ""},
		{"bad token", "/login?token=cdk_X", "none", "", 401, ""},
	} {
		c := f.client()
		req, _ := http.NewRequest("GET", f.srv.URL+tc.path+url.QueryEscape(f.tokens[tc.role]), nil)
		if tc.fetchSite != "" {
			req.Header.Set("Sec-Fetch-Site", tc.fetchSite)
		}
		resp, err := c.hc.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != tc.status || resp.Header.Get("Location") != tc.loc {
			t.Errorf("%s: GET %s = %d %q, want %d %q", tc.name, tc.path, resp.StatusCode, resp.Header.Get("Location"), tc.status, tc.loc)
		}
		signedIn := false
		for _, ck := range resp.Cookies() {
			signedIn = signedIn || ck.Name == "chipdesk_session" && ck.Value != ""
		}
		if signedIn != (tc.status == 303) {
			t.Errorf("%s: session cookie set %v, want %v", tc.name, signedIn, tc.status == 303)
		}
	}
}

func TestSecureCookieOverTLS(t *testing.T) {
	t.Parallel()
	f := newFixture(t, true)
	c := f.client()
	c.hc.Transport.(*http.Transport).TLSClientConfig = &tls.Config{InsecureSkipVerify: true}
	c.login(service.RoleIntake)
	if !c.cookie.Secure {
		t.Errorf("cookie over TLS %+v, want Secure", c.cookie)
	}
}

func TestSessionExpiresOnServer(t *testing.T) {
	t.Parallel()
	f := newFixture(t, false)
	c := f.client()
	c.login(service.RoleIntake)
	if st, _ := c.get("/intake"); st != http.StatusOK {
		t.Fatalf("GET /intake = %d, want 200", st)
	}
	f.clock.Add(11 * time.Hour) // past DefaultSessionTTL
	if st, loc, _ := c.do("GET", "/intake", nil); st != http.StatusSeeOther || !strings.HasPrefix(loc, "/login") {
		t.Errorf("GET /intake after expiry = %d %q, want 303 to /login", st, loc)
	}
}

func TestLogoutEndsSession(t *testing.T) {
	t.Parallel()
	f := newFixture(t, false)
	c := f.client()
	c.login(service.RoleOfficer)
	old := c.cookie
	if st, _ := c.post("/logout", nil); st != http.StatusOK {
		t.Fatalf("logout = %d", st)
	}
	c.cookie = old // a stolen copy of the cookie no longer works
	if st, _, _ := c.do("GET", "/officer", nil); st != http.StatusSeeOther {
		t.Errorf("GET /officer with the old cookie = %d, want 303 to login", st)
	}
}

// TestRoles checks the role × page matrix: each role reaches its pages
// and gets 403 elsewhere; admin reaches all.
func TestRoles(t *testing.T) {
	t.Parallel()
	f := newFixture(t, false)
	pages := []string{"/intake", "/officer", "/clinic", "/admin", fmt.Sprintf("/animals/%d/compliance", f.rex)}
	want := map[service.Role][]int{
		service.RoleAdmin:   {200, 200, 200, 200, 200},
		service.RoleIntake:  {200, 403, 200, 403, 200},
		service.RoleOfficer: {200, 200, 403, 403, 200},
		service.RoleClinic:  {403, 403, 200, 403, 403},
		service.RolePublic:  {403, 403, 403, 403, 403},
	}
	for role, codes := range want {
		c := f.client()
		c.login(role)
		for i, p := range pages {
			if st, _, _ := c.do("GET", p, nil); st != codes[i] {
				t.Errorf("%s GET %s = %d, want %d", role, p, st, codes[i])
			}
		}
	}
}

func TestCSRF(t *testing.T) {
	t.Parallel()
	f := newFixture(t, false)
	c := f.client()
	c.login(service.RoleIntake)
	path := fmt.Sprintf("/animals/%d/impound", f.tom)
	for _, tc := range []struct {
		name, csrf, origin string
	}{
		{"no token", "-", f.srv.URL},
		{"wrong token", "AAAA", f.srv.URL},
		{"other origin", c.csrf, "https://evil.example"},
	} {
		c.origin = tc.origin
		form := url.Values{"csrf": {tc.csrf}, "notice_on": {"2026-06-15"}}
		if tc.csrf == "-" {
			form.Del("csrf")
			form.Set("csrf", "")
		}
		if st, _, _ := c.do("POST", path, form); st != http.StatusForbidden {
			t.Errorf("%s: POST %s = %d, want 403", tc.name, path, st)
		}
	}
	open := true
	ims, _, err := f.store.FindImpoundments(context.Background(), service.ImpoundFilter{Open: &open})
	if err != nil || len(ims) != 0 {
		t.Errorf("impoundments after refused posts = %d (%v), want none", len(ims), err)
	}
	// Another session's token does not work either.
	other := f.client()
	other.login(service.RoleIntake)
	c.origin = f.srv.URL
	if st, _, _ := c.do("POST", path, url.Values{"csrf": {other.csrf}}); st != http.StatusForbidden {
		t.Errorf("POST with another session's token = %d, want 403", st)
	}
}

// TestImpound starts an impoundment and checks the page shows the hold
// and the redemption fees the rules compute (Minn. Stat. 346.47 subd. 2,
// Minneapolis 62.40).
func TestImpound(t *testing.T) {
	t.Parallel()
	f := newFixture(t, false)
	c := f.client()
	c.login(service.RoleIntake)
	form := url.Values{"csrf": {c.csrf}, "notice_on": {"2026-06-15"}, "where_found": {"Loring Park"}, "jurisdiction": {"minneapolis"}}
	st, loc, _ := c.do("POST", fmt.Sprintf("/animals/%d/impound", f.tom), form)
	if st != http.StatusSeeOther || !strings.HasPrefix(loc, "/custody/") || strings.Contains(loc, "?") {
		t.Fatalf("impound = %d %q, want 303 to the stay's page, nothing in the address", st, loc)
	}
	st, body := c.get(loc)
	if st != http.StatusOK || !strings.Contains(body, "Impoundment started.") {
		t.Fatalf("stay page = %d, want the notice\n%s", st, body)
	}
	// A reload shows the stay again, without the notice and without a
	// second impoundment.
	if st, again := c.get(loc); st != http.StatusOK || strings.Contains(again, "Impoundment started.") {
		t.Errorf("reload = %d, notice shown twice: %v", st, strings.Contains(again, "Impoundment started."))
	}
	ctx := context.Background()
	open := true
	ims, _, err := f.store.FindImpoundments(ctx, service.ImpoundFilter{Open: &open})
	if err != nil || len(ims) != 1 {
		t.Fatalf("open impoundments = %d (%v), want 1", len(ims), err)
	}
	im := ims[0]
	p := f.rules.Profile("minneapolis")
	hold := p.HoldFor(im)
	if im.HoldUntil != hold.Until || im.HoldUntil.IsZero() {
		t.Errorf("HoldUntil = %v, want the rules' %v", im.HoldUntil, hold.Until)
	}
	rec, err := f.store.FindRecordByAnimal(ctx, f.tom)
	if err != nil {
		t.Fatal(err)
	}
	red := p.Redemption(rec, im, im.IntakeOn)
	for _, want := range []string{`id="hold-until">` + hold.Until.String(), "Notice given", rules.Money(red.TotalCents), "Loring Park"} {
		if !strings.Contains(body, want) {
			t.Errorf("impound page lacks %q", want)
		}
	}
	for _, l := range red.Lines {
		if !strings.Contains(body, l.Label) {
			t.Errorf("impound page lacks fee line %q", l.Label)
		}
	}
}

func TestSearch(t *testing.T) {
	t.Parallel()
	f := newFixture(t, false)
	c := f.client()
	c.login(service.RoleIntake)
	for _, tc := range []struct {
		name, q string
		want    []string
	}{
		{"chip", chipRex, []string{"Rex", "DANGEROUS ANIMAL", "Jane Doe"}},
		{"chip with spaces", "982 000001088420", []string{"Rex"}},
		{"owner", "jane", []string{"Rex", "Tom"}},
		{"address", "oak street", []string{"Rex", "Tom"}},
		{"unknown chip", chipStray, []string{"Not registered here"}},
		{"nothing", "zzzz nobody", []string{"Nothing matches"}},
		// Two readings: both offered as links, no lookup of either.
		{"ambiguous chip", "8000010000100000", []string{"reads as more than one chip", `href="?q=004000001048576"`, `href="?q=032000008388609"`}},
	} {
		st, body := c.get("/search?q=" + url.QueryEscape(tc.q))
		if st != http.StatusOK {
			t.Errorf("%s: search %q = %d", tc.name, tc.q, st)
		}
		for _, w := range tc.want {
			if !strings.Contains(body, w) {
				t.Errorf("%s: search %q lacks %q", tc.name, tc.q, w)
			}
		}
	}
}

// TestBite records a bite and checks the quarantine is the rules' plan
// (Minneapolis 66.40: ten days).
func TestBite(t *testing.T) {
	t.Parallel()
	f := newFixture(t, false)
	c := f.client()
	c.login(service.RoleOfficer)
	st, body := c.post(fmt.Sprintf("/animals/%d/bites", f.tom), url.Values{"bite_date": {"2026-06-14"}, "victim": {"person"}, "skin_broken": {"on"}, "jurisdiction": {"minneapolis"}})
	if st != http.StatusOK {
		t.Fatalf("bite = %d\n%s", st, body)
	}
	ctx := context.Background()
	qs, err := f.store.FindQuarantines(ctx, f.tom)
	if err != nil || len(qs) != 1 {
		t.Fatalf("quarantines = %d (%v), want 1", len(qs), err)
	}
	rec, _ := f.store.FindRecordByAnimal(ctx, f.tom)
	plan := f.rules.Profile("minneapolis").BiteQuarantine(&rec.Animal, rec.Rabies, service.MustDate("2026-06-14"))
	if q := qs[0]; q.Start != plan.Start || q.End != plan.End || q.Place != plan.Place {
		t.Errorf("quarantine %v–%v at %s, want the rules' %v–%v at %s", q.Start, q.End, q.Place, plan.Start, plan.End, plan.Place)
	}
	if !strings.Contains(body, "QUARANTINE") {
		t.Errorf("record after a bite shows no quarantine banner")
	}
}

func TestPhotos(t *testing.T) {
	t.Parallel()
	f := newFixture(t, false)
	c := f.client()
	if st, _, _ := c.do("GET", "/photos/5e1f0c2a9b3d4e6f8a7b6c5d4e3f2a1b.png", nil); st != http.StatusSeeOther {
		t.Errorf("photo signed out = %d, want 303 to login", st)
	}
	c.login(service.RoleOfficer)
	for _, tc := range []struct {
		name, path string
		status     int
	}{
		{"photo", "/photos/5e1f0c2a9b3d4e6f8a7b6c5d4e3f2a1b.png", 200},
		{"missing", "/photos/tom.png", 404},
		{"svg refused", "/photos/notes.svg", 404},
		{"dot dot", "/photos/..%2F5e1f0c2a9b3d4e6f8a7b6c5d4e3f2a1b.png", 404},
	} {
		st, _, body := c.do("GET", tc.path, nil)
		if st != tc.status {
			t.Errorf("%s: GET %s = %d, want %d", tc.name, tc.path, st, tc.status)
		}
		if tc.status == 200 && !strings.HasPrefix(body, "\x89PNG") {
			t.Errorf("%s: body is not the PNG", tc.name)
		}
	}
	if _, body := c.get(fmt.Sprintf("/animals/%d", f.rex)); !strings.Contains(body, `<img src="/photos/5e1f0c2a9b3d4e6f8a7b6c5d4e3f2a1b.png" alt="Photo of Rex"`) {
		t.Errorf("record page lacks Rex's photo")
	}
}

// TestOfficerLive: /officer?reader= shows the reader's live panel.
func TestOfficerLive(t *testing.T) {
	t.Parallel()
	f := newFixture(t, false)
	c := f.client()
	c.login(service.RoleOfficer)
	if _, body := c.get("/officer?reader=van-2"); !strings.Contains(body, `data-stream="/intake/stream?reader=van-2"`) {
		t.Errorf("officer page with a reader has no live panel")
	}
	if _, body := c.get("/officer"); strings.Contains(body, "data-stream") {
		t.Errorf("officer page without a reader has a live panel")
	}
}

func TestCompliance(t *testing.T) {
	t.Parallel()
	f := newFixture(t, false)
	c := f.client()
	c.login(service.RoleOfficer)
	st, body := c.get(fmt.Sprintf("/animals/%d/compliance", f.rex))
	if st != http.StatusOK {
		t.Fatalf("compliance = %d", st)
	}
	ctx := context.Background()
	rec, _ := f.store.FindRecordByAnimal(ctx, f.rex)
	p := f.rules.Profile("minneapolis")
	reqs := p.DangerRequirements(rec, p.Today(f.clock.Now()))
	if len(reqs) == 0 {
		t.Fatal("the rules give no requirements for the seeded designation")
	}
	for _, r := range reqs {
		want := fmt.Sprintf(`data-deadline="%s" data-status="%s">`, r.What, r.Status)
		if !strings.Contains(body, want) {
			t.Errorf("compliance page lacks %s", want)
		}
	}
}

// TestLicence issues a licence at the counter with a rabies certificate
// and checks fee, expiry and tag number come from the rules and the
// store; then a duplicate for a lost tag (Minneapolis 64.40).
func TestLicence(t *testing.T) {
	t.Parallel()
	f := newFixture(t, false)
	c := f.client()
	c.login(service.RoleClinic)
	st, body := c.get(fmt.Sprintf("/animals/%d/licence", f.tom))
	if st != http.StatusOK {
		t.Fatalf("licence form = %d", st)
	}
	st, body = c.post(fmt.Sprintf("/animals/%d/licence", f.tom), url.Values{
		"rabies_date": {"2026-06-01"}, "rabies_months": {"12"}, "rabies_type": {"killed"}, "rabies_certificate": {"RC-2002"},
		"rabies_vet": {"Dr. Lund"}, "jurisdiction": {"minneapolis"}, "issued_by": {"clinic"}, "clinic": {"Lake Street Vet"},
	})
	if st != http.StatusOK {
		t.Fatalf("issue = %d\n%s", st, body)
	}
	ctx := context.Background()
	ls, _, err := f.store.FindLicences(ctx, service.LicenceFilter{AnimalID: &f.tom})
	if err != nil || len(ls) != 1 {
		t.Fatalf("licences = %d (%v), want 1", len(ls), err)
	}
	l := ls[0]
	rec, _ := f.store.FindRecordByAnimal(ctx, f.tom)
	p := f.rules.Profile("minneapolis")
	q := p.LicenceQuote(&rec.Animal, rec.Rabies, p.Today(f.clock.Now()), rules.QuoteOpts{Issuer: service.IssuerClinic})
	// A clinic sells in its own name (64.30): the signed-in clinic's
	// site, not a name typed in the form.
	if l.FeeCents != q.Fees.TotalCents || l.ExpiresOn != q.ExpiresOn || l.TagNumber < 1 || l.ClinicPayCents != q.ClinicPayCents || l.Clinic != "shelter" {
		t.Errorf("licence fee %d expires %v tag %d pay %d clinic %q, want the quote's %d, %v, a number, %d",
			l.FeeCents, l.ExpiresOn, l.TagNumber, l.ClinicPayCents, l.Clinic, q.Fees.TotalCents, q.ExpiresOn, q.ClinicPayCents)
	}
	if rec.Rabies == nil || rec.Rabies.Certificate != "RC-2002" {
		t.Errorf("rabies on file %+v, want certificate RC-2002", rec.Rabies)
	}
	if !strings.Contains(body, `id="tag-preview"`) {
		t.Errorf("licence page has no tag preview")
	}
	st, svg := c.get(fmt.Sprintf("/licences/%d/tag.svg", l.ID))
	if st != http.StatusOK || !strings.Contains(svg, "<svg") {
		t.Errorf("tag.svg = %d %.60q", st, svg)
	}

	// No tag is made before an admin approves the year's design.
	if !strings.Contains(body, `id="not-approved"`) {
		t.Errorf("licence page of an unapproved design lacks the notice")
	}
	if st, _ = c.post(fmt.Sprintf("/licences/%d/jobs", l.ID), url.Values{"kind": {"print"}}); st != http.StatusConflict {
		t.Errorf("print before approval = %d, want 409", st)
	}
	admin := f.client()
	admin.login(service.RoleAdmin)
	admin.get("/admin")
	if st, _ := admin.post("/admin/designs/MPLS/2026/approve", nil); st != http.StatusOK {
		t.Fatalf("approve = %d", st)
	}
	c.get(fmt.Sprintf("/licences/%d", l.ID))
	st, body = c.post(fmt.Sprintf("/licences/%d/jobs", l.ID), url.Values{"kind": {"print"}})
	if st != http.StatusOK || !strings.Contains(body, "queued") {
		t.Errorf("print = %d, page lacks the queued job", st)
	}
	select {
	case <-f.wake:
	default:
		t.Errorf("queuing a job did not wake the worker")
	}
	c.post(fmt.Sprintf("/licences/%d/jobs", l.ID), url.Values{"kind": {"print"}}) // a double click
	if jobs, n, _ := f.store.FindJobs(ctx, service.JobFilter{LicenceID: &l.ID}); n != 1 {
		t.Errorf("jobs after two clicks = %d (%v), want 1", n, jobs)
	}

	// A job the printer refused is made again with the same number.
	jobs, _, _ := f.store.FindJobs(ctx, service.JobFilter{LicenceID: &l.ID})
	failed, msg := service.JobFailed, "zpl: paper out"
	if _, err := f.store.UpdateJob(ctx, jobs[0].ID, service.JobUpdate{State: &failed, Error: &msg}); err != nil {
		t.Fatal(err)
	}
	st, body = c.get(fmt.Sprintf("/licences/%d/jobs", l.ID))
	if st != http.StatusOK || !strings.Contains(body, "paper out") || !strings.Contains(body, fmt.Sprintf(`action="/jobs/%d/reprint"`, jobs[0].ID)) {
		t.Errorf("jobs fragment = %d, want the failed job with its error and a button to make it again:\n%s", st, body)
	}
	c.get(fmt.Sprintf("/licences/%d", l.ID)) // the page's CSRF token
	if st, _ := c.post(fmt.Sprintf("/jobs/%d/reprint", jobs[0].ID), nil); st != http.StatusOK {
		t.Errorf("reprint = %d", st)
	}
	if j, _ := f.store.FindJobByID(ctx, jobs[0].ID); j.State != service.JobQueued || j.LicenceID != l.ID {
		t.Errorf("job after reprint %+v, want queued for the same licence", j)
	}

	dup, _ := p.DuplicateQuote(service.TagLost)
	st, body = c.post(fmt.Sprintf("/licences/%d/duplicate", l.ID), url.Values{"reason": {"lost"}})
	if st != http.StatusOK || !strings.Contains(body, rules.Money(dup.TotalCents)) {
		t.Fatalf("duplicate = %d, page lacks fee %s\n%s", st, rules.Money(dup.TotalCents), body)
	}
	old, _ := f.store.FindLicenceByID(ctx, l.ID)
	if old.Status != service.LicenceReplaced {
		t.Errorf("old licence status %s, want replaced", old.Status)
	}
	st, _ = c.post(fmt.Sprintf("/licences/%d/duplicate", l.ID), url.Values{"reason": {"lost"}})
	if st != http.StatusConflict {
		t.Errorf("duplicate of a replaced licence = %d, want 409", st)
	}
	st, _ = c.post(fmt.Sprintf("/licences/%d/duplicate", l.ID+1), url.Values{"reason": {"worn"}})
	if st != http.StatusBadRequest {
		t.Errorf("duplicate for a worn tag = %d, want 400 (64.40: lost or stolen only)", st)
	}
}

func TestAdmin(t *testing.T) {
	t.Parallel()
	f := newFixture(t, false)
	c := f.client()
	c.login(service.RoleAdmin)
	st, body := c.get("/admin")
	if st != http.StatusOK {
		t.Fatalf("admin = %d", st)
	}
	for _, w := range []string{"Minneapolis 2026", "paper out", "test clinic", "Approve MPLS/2026"} {
		if !strings.Contains(body, w) {
			t.Errorf("admin page lacks %q", w)
		}
	}
	if st, svg := c.get("/admin/designs/MPLS/2027/preview.svg"); st != http.StatusOK || !strings.Contains(svg, "<svg") {
		t.Errorf("design preview = %d", st)
	}
	st, loc, _ := c.do("POST", "/admin/designs/MPLS/2027/approve", url.Values{"csrf": {c.csrf}})
	if want := "/admin#designs"; st != http.StatusSeeOther || loc != want {
		t.Errorf("approve = %d %q, want 303 %q", st, loc, want)
	}
	st, body = c.get(loc)
	if st != http.StatusOK || !strings.Contains(body, "approved</span> by test admin") || !strings.Contains(body, "Design MPLS/2027 approved.") {
		t.Errorf("approve = %d, page does not show the approval", st)
	}
	// The message travels in the session, never in the address: one
	// typed there shows nothing.
	if _, body := c.get("/admin?done=Owner+paid+in+full."); strings.Contains(body, "Owner paid in full") || strings.Contains(body, "Design MPLS/2027 approved.") {
		t.Errorf("a message in the address, or an old one, is shown")
	}
	st, body = c.post("/admin/tokens", url.Values{"name": {"Front desk 2"}, "role": {"intake"}, "days": {"30"}})
	secret := regexp.MustCompile(`id="secret" type="text" readonly value="(cdk_[A-Z0-9]+)"`)
	m := secret.FindStringSubmatch(body)
	if st != http.StatusOK || m == nil {
		t.Fatalf("create token = %d, no secret shown", st)
	}
	if _, again := c.get("/admin"); secret.MatchString(again) {
		t.Errorf("the secret is shown again on a reload")
	}
	// The new token signs in, and revoking it ends its session.
	nc := f.client()
	if st, _, _ := nc.do("POST", "/login", url.Values{"token": {m[1]}}); st != http.StatusSeeOther {
		t.Fatalf("login with the new token = %d", st)
	}
	toks, _ := f.store.FindTokens(context.Background())
	var id int64
	for _, tk := range toks {
		if tk.Name == "Front desk 2" {
			id = tk.ID
		}
	}
	if st, _ := c.post(fmt.Sprintf("/admin/tokens/%d/revoke", id), nil); st != http.StatusOK {
		t.Errorf("revoke = %d", st)
	}
	if st, _, _ := nc.do("GET", "/intake", nil); st != http.StatusSeeOther {
		t.Errorf("session of a revoked token: GET /intake = %d, want 303 to login", st)
	}
}

// TestStream reads the scan stream without a browser: a scan of the
// dangerous dog arrives as a rendered panel with the red banner.
func TestStream(t *testing.T) {
	t.Parallel()
	f := newFixture(t, false)
	c := f.client()
	c.login(service.RoleIntake)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", f.srv.URL+"/intake/stream", nil)
	req.AddCookie(c.cookie)
	resp, err := c.hc.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); resp.StatusCode != 200 || ct != "text/event-stream" {
		t.Fatalf("stream = %d %q", resp.StatusCode, ct)
	}
	for f.hub.Subscribers() == 0 {
		time.Sleep(5 * time.Millisecond)
	}
	if _, err := f.pipe.HandleText(ctx, "desk-1", chipRex, "", "shelter"); err != nil {
		t.Fatal(err)
	}
	var got strings.Builder
	buf := make([]byte, 4096)
	for !strings.Contains(got.String(), "event: scan") || !strings.HasSuffix(got.String(), "\n\n") {
		n, err := resp.Body.Read(buf)
		got.Write(buf[:n])
		if err != nil {
			break
		}
	}
	s := got.String()
	if !strings.HasSuffix(s, "data: </div>\n\n") {
		t.Errorf("event does not end with the panel's last line and a blank line: %q", s[max(0, len(s)-40):])
	}
	for _, w := range []string{"event: scan", "data: ", "DANGEROUS ANIMAL", "Rex", "Jane Doe", "reader desk-1"} {
		if !strings.Contains(s, w) {
			t.Errorf("stream lacks %q:\n%s", w, s)
		}
	}
}

// TestPageMapping: the pages map the application layer's answers: a
// jurisdiction typed by name or code is the same ("MPLS"), pages show
// "Minneapolis" and "Chanhassen", and an animal in custody is not
// impounded again (a reload of the form answers 409, one stay stored).
func TestPageMapping(t *testing.T) {
	t.Parallel()
	f := newFixture(t, false)
	c := f.client()
	c.login(service.RoleIntake)
	st, body := c.get(fmt.Sprintf("/animals/%d", f.tom))
	if st != http.StatusOK || !strings.Contains(body, `value="minneapolis"`) || !strings.Contains(body, ">Minneapolis</option>") || !strings.Contains(body, ">Chanhassen</option>") {
		t.Errorf("record page = %d, want the jurisdictions shown as Minneapolis and Chanhassen", st)
	}
	form := url.Values{"where_found": {"Loring Park"}, "jurisdiction": {"MPLS"}}
	if st, body := c.post(fmt.Sprintf("/animals/%d/impound", f.tom), form); st != http.StatusOK || !strings.Contains(body, "Impoundment started.") {
		t.Fatalf("impound with MPLS = %d\n%s", st, body)
	}
	if st, body := c.post(fmt.Sprintf("/animals/%d/impound", f.tom), form); st != http.StatusOK || !strings.Contains(body, "in custody already") {
		t.Errorf("impound again = %d, want the form shown again with the refusal and what was typed", st)
	}
	open := true
	if ims, _, err := f.store.FindImpoundments(context.Background(), service.ImpoundFilter{Open: &open}); err != nil || len(ims) != 1 || ims[0].Jurisdiction != "minneapolis" {
		t.Errorf("open impoundments %+v (%v), want one, in minneapolis", ims, err)
	}
	if st, body := c.post(fmt.Sprintf("/animals/%d/impound", f.rex), url.Values{"jurisdiction": {"duluth"}}); st != http.StatusOK || !strings.Contains(body, `class="field-error"`) {
		t.Errorf("impound in duluth = %d, want the form again with the error beside the field", st)
	}
}

// TestStreamSiteScoped: on site-scoped pages an intake session of one
// shelter follows only its own site's scans (as the API's stream does).
func TestStreamSiteScoped(t *testing.T) {
	t.Parallel()
	f := newFixtureWith(t, false, func(o *web.Opts) { o.SiteScoped = true })
	secret, err := f.store.CreateToken(context.Background(), &service.Token{Name: "West desk", Role: service.RoleIntake, Site: "shelter-west"})
	if err != nil {
		t.Fatal(err)
	}
	f.tokens["west"] = secret
	c := f.client()
	c.login("west")
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", f.srv.URL+"/intake/stream", nil)
	req.AddCookie(c.cookie)
	resp, err := c.hc.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	for f.hub.Subscribers() == 0 {
		time.Sleep(5 * time.Millisecond)
	}
	if _, err := f.pipe.HandleText(ctx, "east-desk", chipRex, "", "shelter-east"); err != nil {
		t.Fatal(err)
	}
	if _, err := f.pipe.HandleText(ctx, "west-desk", chipRex, "", "shelter-west"); err != nil {
		t.Fatal(err)
	}
	var got strings.Builder
	buf := make([]byte, 4096)
	for !strings.Contains(got.String(), "event: scan") || !strings.HasSuffix(got.String(), "\n\n") {
		n, err := resp.Body.Read(buf)
		got.Write(buf[:n])
		if err != nil {
			break
		}
	}
	if s := got.String(); !strings.Contains(s, "reader west-desk") || strings.Contains(s, "east-desk") {
		t.Errorf("west's stream, first scan:\n%s\nwant west-desk's, never east-desk's", s)
	}
}

// TestMinneapolis_66_20_CounterAsksForCertificate: when the cat's
// vaccination on file lacks its veterinarian (the law asks for the
// certificate, 66.20) the counter's form says so and requires the certificate; a sale
// without it is refused beside the field, and nothing is sold.
func TestMinneapolis_66_20_CounterAsksForCertificate(t *testing.T) {
	t.Parallel()
	f := newFixture(t, false)
	ctx := context.Background()
	if err := f.store.CreateVaccination(ctx, &service.RabiesVaccination{AnimalID: f.tom, Date: service.MustDate("2026-01-10"),
		Type: service.VaccineKilled, DurationMonths: 36, Certificate: "RC-2003"}); err != nil {
		t.Fatal(err)
	}
	c := f.client()
	c.login(service.RoleClinic)
	path := fmt.Sprintf("/animals/%d/licence", f.tom)
	_, body := c.get(path)
	if !strings.Contains(body, "lacks its number or veterinarian") || !regexp.MustCompile(`id="rabies_vet"[^>]*required`).MatchString(body) {
		t.Fatalf("the form does not ask for a new certificate:\n%s", body)
	}
	st, body := c.post(path, url.Values{"jurisdiction": {"minneapolis"}, "issued_by": {"clinic"}, "clinic": {"Lake Street Vet"}})
	if st != http.StatusBadRequest || !regexp.MustCompile(`id="rabies_vet"[^>]*aria-invalid="true"><p class="field-error"[^<]*66.20`).MatchString(body) {
		t.Fatalf("sale without the certificate = %d, want 400 and the error beside the veterinarian citing 66.20:\n%s", st, body)
	}
	if _, n, _ := f.store.FindLicences(ctx, service.LicenceFilter{AnimalID: &f.tom}); n != 0 {
		t.Errorf("%d licences sold without the certificate", n)
	}
}
