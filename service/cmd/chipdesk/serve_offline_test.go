package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chipdesk/chipdesk/firmware-tools/sim/readersim"
	"github.com/chipdesk/chipdesk/internal/testtime"
	"github.com/chipdesk/chipdesk/service"
)

// pulledReplica seeds a central database with Wren (seedOne) and her
// Minneapolis licence of this year, and pulls a handheld's copy of it
// sealed under PIN 4827. It returns the central database, the copy and
// the tag number.
func pulledReplica(t *testing.T, chip string) (db, replica string, tag int) {
	t.Helper()
	dir := t.TempDir()
	db, replica = filepath.Join(dir, "central.db"), filepath.Join(dir, "handheld.db")
	seedOne(t, db, chip)
	ctx := context.Background()
	st, err := openStore(ctx, db, time.Now)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := st.FindRecordByChip(ctx, chip)
	if err != nil {
		t.Fatal(err)
	}
	today := service.DateIn(time.Now(), time.UTC)
	l := &service.Licence{AnimalID: rec.Animal.ID, Jurisdiction: "minneapolis", IssuedOn: today, ExpiresOn: today.AddDays(300), FeeCents: 1500}
	if err := st.CreateLicence(ctx, l); err != nil {
		t.Fatal(err)
	}
	st.Close()
	if code, out, errOut := serveCLI(t, "sync", "pull", "--central", db, "--replica", replica, "--pin", "4827"); code != 0 || !strings.Contains(out, "replica: 1 records") {
		t.Fatalf("sync pull = %d\n%s%s", code, out, errOut)
	}
	return db, replica, l.TagNumber
}

// TestServeOfflineRefusals: the handheld's page listens on loopback
// only, on a replica only, opened by the right PIN; each refusal names
// what to change.
func TestServeOfflineRefusals(t *testing.T) {
	db, replica, _ := pulledReplica(t, "985121004515220")
	common := []string{"serve", "--offline", "--pin", "4827"}
	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"all addresses", []string{"--replica", replica, "--listen", "0.0.0.0:0"}, 2, "--listen 0.0.0.0:0 is not a loopback address"},
		{"no host", []string{"--replica", replica, "--listen", ":8080"}, 2, "--listen :8080 is not a loopback address"},
		{"a LAN address", []string{"--replica", replica, "--listen", "192.0.2.7:8080"}, 2, "listens on 127.0.0.1 or ::1 only"},
		{"central database as replica", []string{"--replica", db, "--listen", "127.0.0.1:0"}, 1, "is not a handheld's replica"},
		{"no replica", []string{"--replica", filepath.Join(t.TempDir(), "none.db"), "--listen", "127.0.0.1:0"}, 1, "no offline copy there; pull one first"},
		{"wrong PIN", []string{"--replica", replica, "--listen", "127.0.0.1:0", "--pin", "1111"}, 1, "Wrong PIN"},
		{"printer offline", []string{"--replica", replica, "--printer", "zpl:127.0.0.1:9100"}, 2, "--printer has no use with --offline"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, errOut := serveCLI(t, append(append([]string{}, common...), tt.args...)...)
			if code != tt.code || !strings.Contains(errOut, tt.want) {
				t.Errorf("exit %d, stderr %q; want %d and %q", code, errOut, tt.code, tt.want)
			}
		})
	}
	if code, _, errOut := serveCLI(t, "serve", "--replica", replica); code != 2 || !strings.Contains(errOut, "--replica needs --offline") {
		t.Errorf("serve --replica without --offline: exit %d, %q", code, errOut)
	}
	if code, _, errOut := serveCLI(t, "serve", "--help"); code != 0 || !strings.Contains(errOut, "chipdesk serve --offline --replica FILE") || !strings.Contains(errOut, "-offline") {
		t.Errorf("serve --help: exit %d, %q; want the handheld's page described", code, errOut)
	}
}

// fieldClient is a browser's session on the handheld's page: cookies
// kept, redirects not followed.
type fieldClient struct {
	t    *testing.T
	base string
	c    *http.Client
}

func newFieldClient(t *testing.T, base string) *fieldClient {
	jar, _ := cookiejar.New(nil)
	return &fieldClient{t: t, base: base, c: &http.Client{Jar: jar, Timeout: testtime.Scale(10 * time.Second),
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

func (c *fieldClient) get(path string) (int, string) {
	c.t.Helper()
	resp, err := c.c.Get(c.base + path)
	if err != nil {
		c.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// post sends a form as the page does (its origin); it returns the status
// and where the answer sends the browser.
func (c *fieldClient) post(path string, form url.Values) (int, string) {
	c.t.Helper()
	req, _ := http.NewRequest("POST", c.base+path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", c.base)
	resp, err := c.c.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode, resp.Header.Get("Location")
}

var (
	csrfRE   = regexp.MustCompile(`name="csrf" value="([^"]+)"`)
	biteRE   = regexp.MustCompile(`action="/animals/(\d+)/bites"`)
	queuedRE = regexp.MustCompile(`data-queued="(\d+)"`)
)

func first(t *testing.T, re *regexp.Regexp, body string) string {
	t.Helper()
	m := re.FindStringSubmatch(body)
	if m == nil {
		t.Fatalf("no %v in the page:\n%s", re, body)
	}
	return m[1]
}

// TestServeOffline is the handheld's page end to end: a copy pulled
// from a central database, "serve --offline" on it with a WL-134 on a
// pseudo-terminal; a lookup by chip, by tag and by the tag as typed,
// the same answer as the online page with the copy's time; a bite with
// a wrong date refused beside its field and kept as typed; a bite and a
// note queued; a read of the reader shown live and queued; then "sync
// push" applies the four events through the application layer.
func TestServeOffline(t *testing.T) {
	chip := "985121004515220"
	db, replica, tag := pulledReplica(t, chip)
	sim, err := readersim.Start(&readersim.Opts{Protocol: "wl134"})
	if err != nil {
		t.Fatalf("readersim: %v", err)
	}
	defer sim.Close()
	_, stderr, stop := runAsync(t, "serve", "--offline", "--replica", replica, "--pin", "4827", "--listen", "127.0.0.1:0",
		"--reader", "wl134:"+sim.Path()+",name=truck-reader", "--user", "officer-7", "--device", "truck-2")
	base := waitFor(t, stderr, urlRE, testtime.Scale(10*time.Second))
	waitFor(t, stderr, regexp.MustCompile(`(reader connected)`), testtime.Scale(10*time.Second))
	c := newFieldClient(t, base)

	year := time.Now().UTC().Year()
	lookups := []struct{ name, path string }{
		{"chip", "/?q=" + chip},
		{"chip with spaces", "/?q=" + url.QueryEscape("985 121 004 515 220")},
		{"tag form, city by code", fmt.Sprintf("/?tag=%d&j=MPLS&year=%d", tag, year)},
		{"tag form, city by name, this year", fmt.Sprintf("/?tag=%d&j=Minneapolis", tag)},
		{"tag as typed", "/?q=" + url.QueryEscape(fmt.Sprintf("MPLS %d/%d", year, tag))},
	}
	for _, l := range lookups {
		st, body := c.get(l.path)
		for _, want := range []string{"Wren", "Sam Okafor", "612-555-0100", "Offline copy as of", fmt.Sprintf("tag %d of %d", tag, year)} {
			if st != http.StatusOK || !strings.Contains(body, want) {
				t.Errorf("lookup by %s: %d, want 200 with %q:\n%s", l.name, st, want, body)
				break
			}
		}
	}
	if st, body := c.get("/?q=612-555-0100"); st != http.StatusOK || !strings.Contains(body, "by its chip or its licence tag only") {
		t.Errorf("a phone number: %d, want the note that the copy reads chips and tags:\n%s", st, body)
	}
	if st, body := c.get(fmt.Sprintf("/?tag=%d&j=Gotham", tag)); st != http.StatusBadRequest || !strings.Contains(body, "Gotham") {
		t.Errorf("an unknown city: %d, want 400 naming it:\n%s", st, body)
	}

	_, body := c.get("/?q=" + chip)
	csrf, animal := first(t, csrfRE, body), first(t, biteRE, body)
	if q := first(t, queuedRE, body); q != "0" {
		t.Fatalf("queued before anything = %s, want 0", q)
	}
	bites := "/animals/" + animal + "/bites"
	st, loc := c.post(bites, url.Values{"csrf": {csrf}, "bite_date": {"2026-02-30"}, "victim": {"animal"}, "location": {"Lake St and 4th Ave"}})
	if st != http.StatusSeeOther || loc != "/animals/"+animal+"#bite-"+animal {
		t.Fatalf("bite with a wrong date = %d to %q, want 303 back to the animal", st, loc)
	}
	_, body = c.get(loc)
	for _, want := range []string{`<p class="field-error" id="bdate-` + animal + `-err">The bite date must be a date`, `value="2026-02-30"`,
		`value="Lake St and 4th Ave"`, `value="animal" checked`, `data-queued="0"`} {
		if !strings.Contains(body, want) {
			t.Errorf("the refused bite form lacks %q:\n%s", want, body)
		}
	}
	if st, loc = c.post(bites, url.Values{"csrf": {csrf}, "bite_date": {time.Now().Format("2006-01-02")}, "victim": {"person"}, "skin_broken": {"on"}}); st != http.StatusSeeOther {
		t.Fatalf("bite = %d, want 303", st)
	}
	if _, body = c.get(loc); !strings.Contains(body, "queued: the central service records it") || first(t, queuedRE, body) != "1" {
		t.Errorf("after the bite: want its notice and 1 queued:\n%s", body)
	}
	if _, body = c.get(loc); strings.Contains(body, "queued: the central service records it") {
		t.Errorf("the bite's notice shows twice")
	}
	if st, _ = c.post("/animals/"+animal+"/notes", url.Values{"csrf": {csrf}, "note.text": {"  "}}); st != http.StatusSeeOther {
		t.Fatalf("empty note = %d, want 303", st)
	}
	if _, body = c.get(loc); !strings.Contains(body, `id="note-`+animal+`-err">The note has no text.`) {
		t.Errorf("an empty note: want the error beside its field:\n%s", body)
	}
	if st, _ = c.post("/animals/"+animal+"/notes", url.Values{"csrf": {csrf}, "note.text": {"Gate latch broken; owner told."}}); st != http.StatusSeeOther {
		t.Fatalf("note = %d, want 303", st)
	}
	if st, _ = c.post("/animals/"+animal+"/notes", url.Values{"note.text": {"no token"}}); st != http.StatusForbidden {
		t.Errorf("note without the CSRF token = %d, want 403", st)
	}
	req, _ := http.NewRequest("GET", base+"/", nil)
	req.Host = "evil.example:80"
	if resp, err := c.c.Do(req); err != nil || resp.StatusCode != http.StatusMisdirectedRequest {
		t.Errorf("a request for another host name = %v %v, want 421", resp, err)
	} else {
		resp.Body.Close()
	}

	// A read of the handheld's reader reaches the page live, and is queued.
	ctx, cancel := context.WithTimeout(context.Background(), testtime.Scale(20*time.Second))
	defer cancel()
	req, _ = http.NewRequestWithContext(ctx, "GET", base+"/intake/stream", nil)
	resp, err := c.c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("stream = %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	panel := make(chan string, 1)
	go func() {
		br := bufio.NewReader(resp.Body)
		var b strings.Builder
		for {
			line, err := br.ReadString('\n')
			if err != nil {
				return
			}
			if d, ok := strings.CutPrefix(line, "data: "); ok {
				b.WriteString(d)
			} else if line == "\n" && b.Len() > 0 {
				panel <- b.String()
				return
			}
		}
	}()
	if err := sim.SendText(ctx, chip); err != nil {
		t.Fatal(err)
	}
	select {
	case p := <-panel:
		for _, want := range []string{"reader truck-reader", "Wren", "Sam Okafor", "Record a bite", "Add a field note"} {
			if !strings.Contains(p, want) {
				t.Errorf("the live panel lacks %q:\n%s", want, p)
			}
		}
	case <-ctx.Done():
		t.Fatalf("no scan on the page's stream; serve said:\n%s", stderr)
	}
	if _, body = c.get("/"); first(t, queuedRE, body) != "3" || !strings.Contains(body, `<a class="mono" href="/?q=`+chip+`">`) {
		t.Errorf("after the read: want 3 queued and the read listed:\n%s", body)
	}
	cancel()
	if code := stop(); code != 0 {
		t.Fatalf("serve --offline exit %d; stderr:\n%s", code, stderr)
	}
	code, out, errOut := serveCLI(t, "sync", "push", "--central", db, "--replica", replica)
	if code != 0 || !strings.Contains(out, "pushed 3: 3 applied, 0 duplicates, 0 rejected; 0 still queued") {
		t.Errorf("sync push = %d\n%s%s", code, out, errOut)
	}
}

// TestServeOfflineStale: a copy older than --max-age answers no lookup;
// the page says why and how to mend it, with a 409, not a failure; a
// read of the reader is queued all the same.
func TestServeOfflineStale(t *testing.T) {
	chip := "985121004515220"
	_, replica, _ := pulledReplica(t, chip)
	sim, err := readersim.Start(&readersim.Opts{Protocol: "wl134"})
	if err != nil {
		t.Fatalf("readersim: %v", err)
	}
	defer sim.Close()
	_, stderr, stop := runAsync(t, "serve", "--offline", "--replica", replica, "--pin", "4827", "--listen", "127.0.0.1:0", "--max-age", "1ns",
		"--reader", "wl134:"+sim.Path()+",name=truck-reader")
	base := waitFor(t, stderr, urlRE, testtime.Scale(10*time.Second))
	waitFor(t, stderr, regexp.MustCompile(`(reader connected)`), testtime.Scale(10*time.Second))
	c := newFieldClient(t, base)
	st, body := c.get("/?q=" + chip)
	if st != http.StatusConflict || !strings.Contains(body, `id="stale">The offline copy is of`) || !strings.Contains(body, "sync the handheld before looking animals up") || strings.Contains(body, "Sam Okafor") {
		t.Errorf("lookup on a stale copy = %d, want 409 with the reason and no owner:\n%s", st, body)
	}
	if strings.Count(body, "sync the handheld before looking animals up") != 1 {
		t.Errorf("the reason shows more than once:\n%s", body)
	}
	// A read is still queued, though the copy cannot say whose it is.
	ctx, cancel := context.WithTimeout(context.Background(), testtime.Scale(10*time.Second))
	defer cancel()
	if err := sim.SendText(ctx, chip); err != nil {
		t.Fatal(err)
	}
	waitFor(t, stderr, regexp.MustCompile(`scan not handled.*(older than)`), testtime.Scale(10*time.Second))
	if _, body = c.get("/"); first(t, queuedRE, body) != "1" {
		t.Errorf("after a read on the stale copy: want 1 queued:\n%s", body)
	}
	if code := stop(); code != 0 {
		t.Errorf("exit %d", code)
	}
}
