package reliability

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chipdesk/chipdesk/internal/testtime"
	"github.com/chipdesk/chipdesk/service"
)

// The security suite: each probe of a county's security review (OWASP
// ASVS 4.0.3 level 2 as the yardstick), done from outside as a reviewer
// would, against "chipdesk serve" over loopback. docs/promises.md lists
// the promises ("Access" rows) these tests keep.

// secServer is a served fixture with the binary's admin commands on its
// database.
type secServer struct {
	t   *testing.T
	f   *fixture
	url string
	hc  *http.Client
}

func newSecServer(t *testing.T, args ...string) *secServer {
	t.Helper()
	f := seed(t, 20, true)
	s := serve(t, f.db, args...)
	hc := &http.Client{Timeout: testtime.Scale(30 * time.Second),
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	return &secServer{t: t, f: f, url: s.URL, hc: hc}
}

// cli runs a chipdesk admin command on the fixture's database with
// stdin, failing the test when it fails.
func (s *secServer) cli(stdin string, args ...string) string {
	s.t.Helper()
	cmd := exec.Command(chipdesk, append(args, "--db", s.f.db)...)
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		s.t.Fatalf("chipdesk %v: %v\n%s", args, err, errb.String())
	}
	return strings.TrimSpace(out.String())
}

// do sends a request with a bearer token and returns status, headers
// and body.
func (s *secServer) do(method, path, token, body string) (int, http.Header, []byte) {
	return callKeyed(s.hc, method, s.url+path, token, "", body)
}

// mustJSON sends a request that must answer want, and decodes its body.
func (s *secServer) mustJSON(method, path, token, body string, want int, v any) {
	s.t.Helper()
	code, _, b := s.do(method, path, token, body)
	if code != want {
		s.t.Fatalf("%s %s = %d %s, want %d", method, path, code, b, want)
	}
	if v != nil {
		if err := json.Unmarshal(b, v); err != nil {
			s.t.Fatalf("%s %s: %v in %s", method, path, err, b)
		}
	}
}

// token creates a token with the admin command and returns its id and
// secret.
func (s *secServer) token(role service.Role, name, site string) (int64, string) {
	s.t.Helper()
	var t struct {
		ID     int64  `json:"id"`
		Secret string `json:"secret"`
	}
	body, _ := json.Marshal(map[string]string{"name": name, "role": string(role), "site": site})
	s.mustJSON("POST", "/api/v1/tokens", s.f.tokens[service.RoleAdmin], string(body), http.StatusCreated, &t)
	return t.ID, t.Secret
}

// audit returns the newest audit entries.
func (s *secServer) audit() []service.AuditEvent {
	s.t.Helper()
	var l struct {
		Items []service.AuditEvent `json:"items"`
	}
	s.mustJSON("GET", "/api/v1/audit?limit=500", s.f.tokens[service.RoleAdmin], "", http.StatusOK, &l)
	return l.Items
}

// eventually polls ok until it holds or the scaled second is over.
func eventually(t *testing.T, what string, within time.Duration, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(testtime.Scale(within))
	for {
		if ok() {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within %v", what, testtime.Scale(within))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// browser is a cookie-keeping client that does not follow redirects.
type browser struct {
	s   *secServer
	jar map[string]*http.Cookie
}

func (s *secServer) browser() *browser { return &browser{s: s, jar: map[string]*http.Cookie{}} }

func (b *browser) do(method, path string, form url.Values) (int, http.Header, string) {
	var rd io.Reader
	if form != nil {
		rd = strings.NewReader(form.Encode())
	}
	req, _ := http.NewRequest(method, b.s.url+path, rd)
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	for _, c := range b.jar {
		req.AddCookie(c)
	}
	resp, err := b.s.hc.Do(req)
	if err != nil {
		return 0, nil, err.Error()
	}
	defer resp.Body.Close()
	for _, c := range resp.Cookies() {
		b.jar[c.Name] = c
	}
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, string(body)
}

// TestSecurityActorFromCaller (review finding 1): a device event posted
// with another user and site is audited with the caller's token name,
// role, site and id; the user it claimed is kept beside it.
func TestSecurityActorFromCaller(t *testing.T) {
	s := newSecServer(t)
	id, secret := s.token(service.RoleOfficer, "officer Kim", "siteA")
	at := time.Now().UTC().Format(time.RFC3339)
	events := fmt.Sprintf(`[
		{"id":"ev-bite-1","device":"hh-1","kind":"bite","at":%q,"user":"sec-admin","site":"siteB",
		 "bite":{"animalId":1,"victim":"person"}},
		{"id":"ev-scan-1","device":"hh-1","kind":"scan","at":%q,"user":"Chief Officer Jones",
		 "scan":{"reader":"hh-1","chipCode":"982000000000001","chipKind":"iso11784","user":"Chief Officer Jones"}}]`,
		at, at) // the bite's date: the event's day where the service is
	code, _, b := s.do("POST", "/api/v1/sync/events", secret, events)
	if code != http.StatusOK || strings.Count(string(b), `"applied"`) != 2 {
		t.Fatalf("push = %d %s, want both applied", code, b)
	}
	var bite *service.AuditEvent
	for _, e := range s.audit() {
		if e.Action == "bite.create" {
			bite = &e
			break
		}
	}
	if bite == nil {
		t.Fatal("no bite.create audit entry")
	}
	if bite.Actor != "officer Kim" || bite.Role != service.RoleOfficer || bite.Site != "siteA" || bite.TokenID != id {
		t.Errorf("bite audited as actor %q role %q site %q token %d, want officer Kim, officer, siteA, token %d", bite.Actor, bite.Role, bite.Site, bite.TokenID, id)
	}
	if !strings.Contains(bite.Detail, "claimed user sec-admin") {
		t.Errorf("bite audit detail %q does not keep the claimed user", bite.Detail)
	}
	var scans struct {
		Items []service.Scan `json:"items"`
	}
	s.mustJSON("GET", "/api/v1/scans", s.f.tokens[service.RoleIntake], "", http.StatusOK, &scans)
	for _, sc := range scans.Items {
		if sc.User == "Chief Officer Jones" {
			t.Errorf("scan stored with the device's user %q, want the token's", sc.User)
		}
	}
}

// TestSecurityRevocation (finding 2): whichever door revokes, the
// token's open stream closes and its sessions end within a second, in
// another process too.
func TestSecurityRevocation(t *testing.T) {
	s := newSecServer(t)
	admin := s.f.tokens[service.RoleAdmin]
	for _, door := range []string{"api", "cli"} {
		t.Run(door, func(t *testing.T) {
			id, secret := s.token(service.RoleOfficer, "revoked by "+door, "")
			// An open stream of the token.
			req, _ := http.NewRequest("GET", s.url+"/api/v1/scans/stream", nil)
			req.Header.Set("Authorization", "Bearer "+secret)
			resp, err := (&http.Client{}).Do(req)
			if err != nil || resp.StatusCode != http.StatusOK {
				t.Fatalf("stream: %v %v", err, resp)
			}
			defer resp.Body.Close()
			closed := make(chan struct{})
			go func() { io.Copy(io.Discard, resp.Body); close(closed) }()
			// A page session signed in with it.
			br := s.browser()
			if code, h, _ := br.do("GET", "/login?token="+url.QueryEscape(secret), nil); code != http.StatusSeeOther || h.Get("Location") != "/officer" {
				t.Fatalf("sign-in link = %d %v", code, h)
			}
			if code, _, _ := br.do("GET", "/officer", nil); code != http.StatusOK {
				t.Fatalf("officer page before revoke = %d", code)
			}
			if code, _, _ := s.do("GET", "/api/v1/animals/1", secret, ""); code != http.StatusOK {
				t.Fatalf("API before revoke = %d", code)
			}
			if door == "api" {
				if code, _, b := s.do("DELETE", fmt.Sprintf("/api/v1/tokens/%d", id), admin, ""); code != http.StatusNoContent {
					t.Fatalf("DELETE token = %d %s", code, b)
				}
			} else {
				s.cli("", "token", "revoke", fmt.Sprint(id))
			}
			select {
			case <-closed:
			case <-time.After(testtime.Scale(time.Second)):
				t.Errorf("stream of the revoked token still open 1 s after the revoke (%s)", door)
			}
			eventually(t, "page session ended", time.Second, func() bool {
				code, h, _ := br.do("GET", "/officer", nil)
				return code == http.StatusSeeOther && strings.HasPrefix(h.Get("Location"), "/login")
			})
			eventually(t, "API refuses the token", time.Second, func() bool {
				code, _, _ := s.do("GET", "/api/v1/animals/1", secret, "")
				return code == http.StatusUnauthorized
			})
		})
	}
}

// TestSecurityAccounts (issue 19 item 1 and finding 2): a staff account
// made with "chipdesk user create" (password on standard input) signs
// in with name and password: GET /login has the fields, POST /login
// answers 303 with a session cookie; "chipdesk user disable" ends the
// session within a second; wrong passwords are limited and audited.
func TestSecurityAccounts(t *testing.T) {
	s := newSecServer(t)
	s.cli("correct horse battery staple\n", "user", "create", "--name", "Dana Ortiz", "--role", "intake")
	br := s.browser()
	code, _, page := br.do("GET", "/login", nil)
	if code != http.StatusOK || !strings.Contains(page, `name="name"`) || !strings.Contains(page, `name="password"`) {
		t.Fatalf("GET /login = %d, want a form with name and password", code)
	}
	code, h, _ := br.do("POST", "/login", url.Values{"name": {"Dana Ortiz"}, "password": {"correct horse battery staple"}})
	if code != http.StatusSeeOther || br.jar["chipdesk_session"] == nil || br.jar["chipdesk_session"].Value == "" {
		t.Fatalf("POST /login = %d %v, want 303 with a session cookie", code, h)
	}
	if c := br.jar["chipdesk_session"]; !c.HttpOnly || c.SameSite != http.SameSiteStrictMode {
		t.Errorf("session cookie %+v, want HttpOnly SameSite=Strict", c)
	}
	if code, _, body := br.do("GET", "/intake", nil); code != http.StatusOK || !strings.Contains(body, "Dana Ortiz") {
		t.Fatalf("intake page = %d, want it signed in as Dana Ortiz", code)
	}
	s.cli("", "user", "disable", "--name", "Dana Ortiz")
	eventually(t, "session of the disabled account ended", time.Second, func() bool {
		code, h, _ := br.do("GET", "/intake", nil)
		return code == http.StatusSeeOther && strings.HasPrefix(h.Get("Location"), "/login")
	})
	if code, _, _ := s.browser().do("POST", "/login", url.Values{"name": {"Dana Ortiz"}, "password": {"correct horse battery staple"}}); code != http.StatusUnauthorized {
		t.Errorf("sign-in of a disabled account = %d, want 401", code)
	}
	// Guessing: refused 429 within the limit, each failure audited.
	limited := false
	for i := range 30 {
		code, _, _ := s.browser().do("POST", "/login", url.Values{"name": {"Dana Ortiz"}, "password": {fmt.Sprintf("guess number %d", i)}})
		if code == http.StatusTooManyRequests {
			limited = true
			break
		}
	}
	if !limited {
		t.Error("30 wrong passwords in a row were never refused 429")
	}
	failed := 0
	for _, e := range s.audit() {
		if e.Action == "session.failed" {
			failed++
		}
	}
	if failed < 5 {
		t.Errorf("%d failed sign-ins audited, want every one", failed)
	}
}

// TestSecurityOpenRedirect (finding 3): next= keeps the browser on the
// origin.
func TestSecurityOpenRedirect(t *testing.T) {
	s := newSecServer(t)
	for _, next := range []string{"//evil.example/", "%2F%09%2Fevil.example", "%2F%5Cevil.example", "https://evil.example/", "/%0D%0A//evil.example", "%2F%2F127.0.0.2%2F"} {
		code, h, _ := s.browser().do("GET", "/login?next="+next+"&token="+url.QueryEscape(s.f.tokens[service.RoleIntake]), nil)
		loc := h.Get("Location")
		u, err := url.Parse(loc)
		if code != http.StatusSeeOther || err != nil || u.Host != "" || u.Scheme != "" || !strings.HasPrefix(loc, "/") ||
			strings.HasPrefix(loc, "//") || strings.ContainsAny(loc, "\t\r\n\\") {
			t.Errorf("next=%s: %d Location %q, want a path on this origin", next, code, loc)
		}
	}
}

// TestSecurityPhoto (finding 4): a photo is an id the server issued,
// served without following links out of the photos folder.
func TestSecurityPhoto(t *testing.T) {
	photos := t.TempDir()
	const id = "0123456789abcdef0123456789abcdef.jpg"
	if err := os.Symlink("/etc/passwd", filepath.Join(photos, id)); err != nil {
		t.Skipf("symlink: %v", err)
	}
	t.Setenv("CHIPDESK_PHOTOS", photos)
	s := newSecServer(t)
	admin := s.f.tokens[service.RoleAdmin]
	for _, bad := range []string{"../login?token=x", "../../../../etc/passwd", "javascript:alert(1)", "rex.jpg", "/photos/x.jpg"} {
		body, _ := json.Marshal(map[string]string{"photo": bad})
		if code, _, b := s.do("PATCH", "/api/v1/animals/1", admin, string(body)); code != http.StatusBadRequest {
			t.Errorf("photo %q = %d %s, want 400", bad, code, b)
		}
	}
	br := s.browser()
	br.do("GET", "/login?token="+url.QueryEscape(admin), nil)
	if code, _, body := br.do("GET", "/photos/"+id, nil); code == http.StatusOK || strings.Contains(body, "root:") {
		t.Errorf("photo linked to /etc/passwd served: %d %.40q", code, body)
	}
	// An upload gets an id from the server, and is served by it.
	if code, _, b := s.do("POST", "/api/v1/animals/1/photo", admin, "<script>alert(1)</script>"); code != http.StatusBadRequest {
		t.Errorf("upload of a script = %d %s, want 400", code, b)
	}
	png := "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89"
	var a service.Animal
	s.mustJSON("POST", "/api/v1/animals/1/photo", admin, png, http.StatusCreated, &a)
	if !service.ValidPhotoID(a.Photo) {
		t.Fatalf("uploaded photo id %q is not one the server issues", a.Photo)
	}
	if code, h, _ := br.do("GET", "/photos/"+a.Photo, nil); code != http.StatusOK || h.Get("Content-Type") != "image/png" {
		t.Errorf("GET /photos/%s = %d %s, want 200 image/png", a.Photo, code, h.Get("Content-Type"))
	}
}

// TestSecurityCSVFormulas (finding 5): no exported cell starts a
// spreadsheet formula.
func TestSecurityCSVFormulas(t *testing.T) {
	s := newSecServer(t)
	for _, n := range []string{`=HYPERLINK("http://evil.example","x")`, `+cmd|' /C calc'!A0`, "-1+1", "@SUM(A1)"} {
		body, _ := json.Marshal(map[string]string{"name": n})
		s.mustJSON("POST", "/api/v1/owners", s.f.tokens[service.RoleIntake], string(body), http.StatusCreated, nil)
	}
	dir := t.TempDir()
	cmd := exec.Command(chipdesk, "export", "--db", s.f.db, "-q", dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("export: %v\n%s", err, out)
	}
	b, err := os.ReadFile(filepath.Join(dir, "owners.csv"))
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		for _, c := range strings.Split(sc.Text(), ",") {
			c = strings.TrimPrefix(c, `"`)
			if c != "" && strings.ContainsRune("=+-@\t\r", rune(c[0])) {
				t.Errorf("exported cell %q starts a formula", c)
			}
		}
	}
}

// TestSecurityClinicIsolation (finding 6): a clinic sees and changes
// only what its own site issued, on every endpoint and the stream.
func TestSecurityClinicIsolation(t *testing.T) {
	s := newSecServer(t)
	_, clinicA := s.token(service.RoleClinic, "clinic A", "siteA")
	_, clinicB := s.token(service.RoleClinic, "clinic B", "siteB")
	var o struct {
		ID int64 `json:"id"`
	}
	s.mustJSON("POST", "/api/v1/owners", clinicA, `{"name":"Owner of A","phone":"612-555-0199"}`, http.StatusCreated, &o)
	var a struct {
		ID int64 `json:"id"`
	}
	// The owner field's JSON name: snake_case, or the older camelCase.
	code, _, b := s.do("POST", "/api/v1/animals", clinicA, fmt.Sprintf(`{"owner_id":%d,"name":"Pip","species":"dog"}`, o.ID))
	if code == http.StatusBadRequest {
		code, _, b = s.do("POST", "/api/v1/animals", clinicA, fmt.Sprintf(`{"ownerId":%d,"name":"Pip","species":"dog"}`, o.ID))
	}
	if code != http.StatusCreated || json.Unmarshal(b, &a) != nil {
		t.Fatalf("clinic A creating an animal = %d %s", code, b)
	}
	if code, _, b := s.do("GET", fmt.Sprintf("/api/v1/owners/%d", o.ID), clinicA, ""); code != http.StatusOK {
		t.Errorf("clinic A reading its own owner = %d %s", code, b)
	}
	for _, p := range []struct{ method, path, body string }{
		{"GET", fmt.Sprintf("/api/v1/owners/%d", o.ID), ""},
		{"PATCH", fmt.Sprintf("/api/v1/owners/%d", o.ID), `{"phone":"000"}`},
		{"GET", fmt.Sprintf("/api/v1/animals/%d", a.ID), ""},
		{"GET", fmt.Sprintf("/api/v1/animals/%d/record", a.ID), ""},
		{"GET", "/api/v1/owners/1", ""}, // the seeded county's
		{"PATCH", "/api/v1/owners/1", `{"phone":"000"}`},
		{"GET", "/api/v1/licences/1", ""},
		{"POST", "/api/v1/licences/1/tag", `{"kind":"print"}`},
	} {
		if code, _, b := s.do(p.method, p.path, clinicB, p.body); code != http.StatusNotFound {
			t.Errorf("clinic B %s %s = %d %s, want 404", p.method, p.path, code, b)
		}
	}
	for _, p := range []string{"/api/v1/owners", "/api/v1/animals", "/api/v1/scans/stream", "/api/v1/scans"} {
		if code, _, b := s.do("GET", p, clinicB, ""); code != http.StatusForbidden {
			t.Errorf("clinic B GET %s = %d %.80s, want 403", p, code, b)
		}
	}
}

// TestSecurityAudit (finding 7): reads of owner data, bulk exports,
// failed sign-ins and refused requests are audited, updates name their
// fields, entries their token; no door changes the log.
func TestSecurityAudit(t *testing.T) {
	s := newSecServer(t)
	intake := s.f.tokens[service.RoleIntake]
	s.do("GET", "/api/v1/owners/1", intake, "")
	s.do("GET", "/api/v1/animals/1/vaccinations", intake, "")
	s.do("GET", "/api/v1/scans", intake, "")
	s.do("PATCH", "/api/v1/owners/2", intake, `{"phone":"612-555-0100"}`)
	s.do("GET", "/api/v1/owners", "cdk_NOT_A_TOKEN", "")
	s.do("GET", "/api/v1/tokens", intake, "")
	s.do("GET", "/api/v1/sync/replica", s.f.tokens[service.RoleOfficer], "")
	s.browser().do("POST", "/login", url.Values{"name": {"nobody"}, "password": {"not the password"}})
	// Reads of the tokens, the audit log and the metrics, a stream
	// subscription and a page search (finding 7).
	admin := s.f.tokens[service.RoleAdmin]
	s.do("GET", "/api/v1/tokens", admin, "")
	s.do("GET", "/metrics", admin, "")
	ctx, cancel := context.WithTimeout(context.Background(), testtime.Scale(5*time.Second))
	req, _ := http.NewRequestWithContext(ctx, "GET", s.url+"/api/v1/scans/stream", nil)
	req.Header.Set("Authorization", "Bearer "+intake)
	if resp, err := s.hc.Do(req); err == nil {
		resp.Body.Close()
	}
	cancel()
	br := s.browser()
	if code, _, _ := br.do("GET", "/login?token="+url.QueryEscape(intake), nil); code != http.StatusSeeOther {
		t.Fatalf("sign-in with the intake token = %d", code)
	}
	br.do("GET", "/search?q=Lund", nil)
	want := map[string]bool{"owner.view": false, "vaccination.view": false, "scan.search": false,
		"owner.update": false, "request.refused": false, "replica.pull": false, "session.failed": false,
		"token.search": false, "audit.search": false, "metrics.view": false, "scan.subscribe": false, "page.search": false}
	eventually(t, "audit entries", 3*time.Second, func() bool {
		for _, e := range s.audit() {
			if _, ok := want[e.Action]; ok {
				want[e.Action] = true
			}
			if e.Action == "owner.update" && !strings.Contains(e.Detail, "fields: phone") {
				t.Errorf("owner.update detail %q does not name the field", e.Detail)
			}
			if e.Action == "owner.view" && e.TokenID == 0 {
				t.Errorf("owner.view entry names no token: %+v", e)
			}
		}
		for _, seen := range want {
			if !seen {
				return false
			}
		}
		return true
	})
	for _, m := range []string{"PATCH", "PUT", "DELETE", "POST"} {
		for _, p := range []string{"/api/v1/audit", "/api/v1/audit/1"} {
			if code, _, _ := s.do(m, p, admin, `{"actor":"x"}`); code < 400 {
				t.Errorf("%s %s = %d: the audit log took a change", m, p, code)
			}
		}
	}
}

// TestSecurityDevKeys (finding 8): serve refuses the development keys
// unless --dev-keys, marks what it makes with them, and refuses key
// files others may read or that hold no key.
func TestSecurityDevKeys(t *testing.T) {
	f := seed(t, 5, false)
	run := func(env []string, args ...string) (int, string) {
		ctx, cancel := context.WithTimeout(context.Background(), testtime.Scale(30*time.Second))
		defer cancel()
		cmd := exec.CommandContext(ctx, chipdesk, append([]string{"serve", "--db", f.db, "--listen", "127.0.0.1:0"}, args...)...)
		cmd.Env = append(os.Environ(), env...)
		out, _ := cmd.CombinedOutput()
		return cmd.ProcessState.ExitCode(), string(out)
	}
	if code, out := run([]string{"CHIPDESK_TAG_KEYS="}); code == 0 || !strings.Contains(out, "--dev-keys") {
		t.Errorf("serve without keys or --dev-keys = exit %d %q, want a refusal naming --dev-keys", code, out)
	}
	dir := t.TempDir()
	open := filepath.Join(dir, "open.keys")
	os.WriteFile(open, []byte("MPLS 2026 00112233445566778899aabbccddeeff\n"), 0o644)
	os.Chmod(open, 0o644)
	if code, out := run([]string{"CHIPDESK_TAG_KEYS=" + open}); code == 0 || !strings.Contains(out, "chmod 600") {
		t.Errorf("serve with a 0644 key file = exit %d %q, want a refusal", code, out)
	}
	comments := filepath.Join(dir, "comments.keys")
	os.WriteFile(comments, []byte("# nothing here\n"), 0o600)
	if code, out := run([]string{"CHIPDESK_TAG_KEYS=" + comments}); code == 0 || !strings.Contains(out, "no key") {
		t.Errorf("serve with a key file of comments = exit %d %q, want a refusal", code, out)
	}
	s := newSecServer(t) // --dev-keys
	br := s.browser()
	br.do("GET", "/login?token="+url.QueryEscape(s.f.tokens[service.RoleAdmin]), nil)
	if _, _, body := br.do("GET", "/admin", nil); !strings.Contains(body, "DEVELOPMENT KEYS") {
		t.Error("admin page made with the development keys does not say so")
	}
	if code, h, body := br.do("GET", "/admin/designs/MPLS/2026/preview.svg", nil); code == http.StatusOK && (!strings.Contains(body, "DEVELOPMENT KEYS") || h.Get("X-Chipdesk-Keys") != "development") {
		t.Error("tag preview made with the development keys is not marked")
	}
}

// TestSecurityHardening (finding 9): limits, headers, bounds, private
// files, no listings.
func TestSecurityHardening(t *testing.T) {
	s := newSecServer(t)
	intake := s.f.tokens[service.RoleIntake]
	// Owner data is never cached or sniffed.
	code, h, _ := s.do("GET", "/api/v1/owners/1", intake, "")
	if code != http.StatusOK || h.Get("Cache-Control") != "no-store" || h.Get("X-Content-Type-Options") != "nosniff" {
		t.Errorf("GET /api/v1/owners/1 = %d Cache-Control %q nosniff %q", code, h.Get("Cache-Control"), h.Get("X-Content-Type-Options"))
	}
	// Bounds on what a person types.
	for _, body := range []string{
		`{"name":"` + strings.Repeat("x", 100_000) + `"}`,
		`{"name":"Ann\u202eeL"}`,
		`{"name":"Ann\u0007"}`,
	} {
		if code, _, b := s.do("POST", "/api/v1/owners", intake, body); code != http.StatusBadRequest {
			t.Errorf("owner %.40s… = %d %.100s, want 400", body, code, b)
		}
	}
	// Wildcards match themselves.
	var all, under struct {
		Total int `json:"total"`
	}
	s.mustJSON("GET", "/api/v1/owners", intake, "", http.StatusOK, &all)
	for _, q := range []string{"_", "%25"} {
		s.mustJSON("GET", "/api/v1/owners?name="+q, intake, "", http.StatusOK, &under)
		if under.Total == all.Total && all.Total > 0 {
			t.Errorf("q=%s matched every owner (%d)", q, all.Total)
		}
	}
	// Numbers are bounded: a fee or a tag number of 2^63-1 is refused
	// with its field named.
	for _, body := range []string{
		`{"animal_id":1,"jurisdiction":"minneapolis","fee_cents":9223372036854775807}`,
		`{"animal_id":1,"jurisdiction":"minneapolis","tag_number":9223372036854775807}`,
	} {
		if code, _, b := s.do("POST", "/api/v1/licences", intake, body); code != http.StatusBadRequest || !strings.Contains(string(b), `"field"`) {
			t.Errorf("licence %s = %d %.200s, want 400 naming the field", body, code, b)
		}
	}
	// The database files are the owner's only.
	for _, f := range []string{s.f.db, s.f.db + "-audit"} {
		if st, err := os.Stat(f); err != nil || st.Mode().Perm()&0o077 != 0 {
			t.Errorf("%s: mode %v %v, want 0600", f, st.Mode().Perm(), err)
		}
	}
	// /static/ lists nothing.
	if code, _, _ := s.do("GET", "/static/", "", ""); code != http.StatusNotFound {
		t.Errorf("GET /static/ = %d, want 404", code)
	}
	// Bad tokens and public lookups are limited.
	limited := false
	for range 200 {
		if code, _, _ := s.do("GET", "/api/v1/owners", "cdk_WRONG", ""); code == http.StatusTooManyRequests {
			limited = true
			break
		}
	}
	if !limited {
		t.Error("200 wrong tokens were never refused 429")
	}
	limited = false
	for i := range 200 {
		if code, _, _ := s.do("GET", fmt.Sprintf("/api/v1/lookup?chip=9820000000%05d", i), s.f.tokens[service.RolePublic], ""); code == http.StatusTooManyRequests {
			limited = true
			break
		}
	}
	if !limited {
		t.Error("200 public lookups were never refused 429: the registry can be walked")
	}
}

// TestSecuritySync (findings 7 and 9 on the handhelds' door): the sync
// endpoints are guarded as the API is: a missing or wrong token is
// answered 401 and a role that may not sync 403, each refusal audited
// with its token; wrong tokens are limited per address (429); the
// replica, a bulk export of owners, is not cached.
func TestSecuritySync(t *testing.T) {
	s := newSecServer(t)
	clinicID, clinic := s.token(service.RoleClinic, "sec-sync-clinic", "clinicA")
	officer := s.f.tokens[service.RoleOfficer]
	for _, c := range []struct {
		method, path, token string
		want                int
	}{
		{"POST", "/api/v1/sync/events", "", http.StatusUnauthorized},
		{"GET", "/api/v1/sync/replica", "cdk_NOT_A_TOKEN", http.StatusUnauthorized},
		{"POST", "/api/v1/sync/events", clinic, http.StatusForbidden},
		{"GET", "/api/v1/sync/replica", clinic, http.StatusForbidden},
	} {
		body := ""
		if c.method == "POST" {
			body = "[]"
		}
		if code, _, b := s.do(c.method, c.path, c.token, body); code != c.want {
			t.Errorf("%s %s = %d %.200s, want %d", c.method, c.path, code, b, c.want)
		}
	}
	code, h, _ := s.do("GET", "/api/v1/sync/replica", officer, "")
	if code != http.StatusOK || h.Get("Cache-Control") != "no-store" || h.Get("X-Content-Type-Options") != "nosniff" {
		t.Errorf("GET /api/v1/sync/replica = %d Cache-Control %q nosniff %q, want 200 no-store nosniff", code, h.Get("Cache-Control"), h.Get("X-Content-Type-Options"))
	}
	eventually(t, "the sync refusals audited", 3*time.Second, func() bool {
		anonymous, byClinic := 0, 0
		for _, e := range s.audit() {
			if e.Action != "request.refused" || !strings.Contains(e.Detail, "/api/v1/sync/") {
				continue
			}
			switch {
			case e.TokenID == clinicID && strings.HasPrefix(e.Detail, "403 "):
				byClinic++
			case e.Actor == "anonymous" && strings.HasPrefix(e.Detail, "401 "):
				anonymous++
			}
		}
		return anonymous == 2 && byClinic == 2
	})
	// Guessing tokens on the sync door is limited like on the API.
	limited := false
	for range 200 {
		if code, _, _ := s.do("GET", "/api/v1/sync/replica", "cdk_WRONG", ""); code == http.StatusTooManyRequests {
			limited = true
			break
		}
	}
	if !limited {
		t.Error("200 wrong tokens on /api/v1/sync were never refused 429")
	}
}
