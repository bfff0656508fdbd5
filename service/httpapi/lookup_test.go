package httpapi_test

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chipdesk/chipdesk/internal/testtime"
	"github.com/chipdesk/chipdesk/service"
)

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// answer is the part of the lookup answer the contract fixes.
type answer struct {
	Found bool
	Chip  *struct {
		Code, Kind, Manufacturer string
	}
	Animal *struct {
		ID   int64
		Name string
	}
	Owner *struct {
		Name, Phone string
	}
	Licence *struct {
		Status, Expires string
	}
	Rabies *struct {
		Status string
	}
	Dangerous *struct {
		Restrictions []string
	}
	Alerts   []string
	NextStep string `json:"next_step"`
}

func TestLookupByChip(t *testing.T) { onBackends(t, testLookupByChip) }

func testLookupByChip(t *testing.T, h *harness) {
	s := h.seed()
	tests := []struct {
		name      string
		role      service.Role
		chip      string
		wantOwner bool
	}{
		{name: "intake, 15 digits", role: service.RoleIntake, chip: s.chip, wantOwner: true},
		{name: "officer, spaced", role: service.RoleOfficer, chip: "985 121004515220", wantOwner: true},
		{name: "clinic, dotted", role: service.RoleClinic, chip: "985.121004515220", wantOwner: true},
		{name: "public gets no owner", role: service.RolePublic, chip: s.chip, wantOwner: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var a answer
			h.mustJSON(tt.role, "GET", "/api/v1/lookup?chip="+urlq(tt.chip), nil, http.StatusOK, &a)
			if !a.Found || a.Animal == nil || a.Animal.ID != s.animal || a.Animal.Name != "Biscuit" {
				t.Fatalf("lookup %q found %+v, want Biscuit (%d)", tt.chip, a.Animal, s.animal)
			}
			if a.Chip == nil || a.Chip.Code != s.chip || a.Chip.Manufacturer == "" {
				t.Errorf("chip = %+v, want code %s with its manufacturer", a.Chip, s.chip)
			}
			if (a.Owner != nil) != tt.wantOwner {
				t.Errorf("owner = %+v, want present %v", a.Owner, tt.wantOwner)
			}
			if a.Alerts == nil {
				t.Error("alerts = null, want a list")
			}
		})
	}
}

func TestLookupPublicBodyHasNoOwnerData(t *testing.T) {
	h := newHarness(t)
	s := h.seed()
	_, b := h.do(service.RolePublic, "GET", "/api/v1/lookup?chip="+s.chip, nil)
	for _, leak := range []string{"Lindqvist", "612-555-0147", "Chicago Ave", `"owner"`} {
		if strings.Contains(string(b), leak) {
			t.Errorf("public lookup body contains %q: %s", leak, b)
		}
	}
}

func TestLookupUnknownChip(t *testing.T) { onBackends(t, testLookupUnknownChip) }

func testLookupUnknownChip(t *testing.T, h *harness) {
	h.seed()
	tests := []struct {
		name, chip, wantMaker string
	}{
		{name: "Allflex ISO", chip: "982009104515220", wantMaker: "Allflex"},
		{name: "24PetWatch ISO", chip: "982000001088420", wantMaker: "24PetWatch"},
		{name: "AVID", chip: "AVID*012*345*678", wantMaker: "AVID"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var a answer
			h.mustJSON(service.RoleIntake, "GET", "/api/v1/lookup?chip="+urlq(tt.chip), nil, http.StatusOK, &a)
			if a.Found {
				t.Fatalf("unknown chip %s found", tt.chip)
			}
			if a.Chip == nil || !strings.Contains(a.Chip.Manufacturer, tt.wantMaker) {
				t.Errorf("chip = %+v, want manufacturer %q", a.Chip, tt.wantMaker)
			}
			if a.NextStep == "" {
				t.Error("next_step empty, want what to do next")
			}
		})
	}
}

func TestLookupErrors(t *testing.T) {
	h := newHarness(t)
	tests := []struct {
		name, query string
		want        int
	}{
		{name: "not a chip", query: "chip=hello", want: http.StatusBadRequest},
		{name: "no key", query: "", want: http.StatusBadRequest},
		{name: "bad tag", query: "tag=x&jurisdiction=minneapolis&year=2026", want: http.StatusBadRequest},
		{name: "bad year", query: "tag=12&jurisdiction=minneapolis&year=26", want: http.StatusBadRequest},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, b := h.do(service.RoleIntake, "GET", "/api/v1/lookup?"+tt.query, nil)
			if code != tt.want {
				t.Errorf("lookup?%s = %d %s, want %d", tt.query, code, b, tt.want)
			}
		})
	}
}

// A chip number with two readings is answered 422 "ambiguous" with both
// candidates, and no lookup: the person chooses.
func TestLookupAmbiguousChip(t *testing.T) {
	h := newHarness(t)
	code, b := h.do(service.RoleIntake, "GET", "/api/v1/lookup?chip=8000010000100000", nil)
	if code != http.StatusUnprocessableEntity {
		t.Fatalf("lookup = %d %s, want 422", code, b)
	}
	var e struct {
		Error struct {
			Code       string
			Candidates []struct{ Code, Kind string }
		}
	}
	if err := json.Unmarshal(b, &e); err != nil {
		t.Fatal(err)
	}
	if e.Error.Code != "ambiguous" || len(e.Error.Candidates) != 2 ||
		e.Error.Candidates[0].Code != "004000001048576" || e.Error.Candidates[1].Code != "032000008388609" {
		t.Errorf("body = %s", b)
	}
}

func TestBodyLimit(t *testing.T) {
	h := newHarness(t)
	big := `{"name":"` + strings.Repeat("x", 100<<10) + `"}`
	code, b := h.do(service.RoleAdmin, "POST", "/api/v1/owners", big)
	if code != http.StatusRequestEntityTooLarge {
		t.Errorf("100 KiB body = %d %s, want 413", code, b)
	}
}

func TestUnknownFieldRejected(t *testing.T) {
	h := newHarness(t)
	code, b := h.do(service.RoleAdmin, "POST", "/api/v1/owners", `{"name":"A","nmae":"typo"}`)
	if code != http.StatusBadRequest || !strings.Contains(string(b), "nmae") {
		t.Errorf("unknown field = %d %s, want 400 naming it", code, b)
	}
}

// TestInternalErrorNotLeaked closes the database under the server: the
// client sees "Internal error." and nothing of the driver's message.
func TestInternalErrorNotLeaked(t *testing.T) {
	h := newHarness(t)
	h.seed()
	h.mustJSON(service.RoleIntake, "GET", "/api/v1/lookup?chip=985121004515220", nil, http.StatusOK, nil)
	h.store.Close()
	code, b := h.do(service.RoleIntake, "GET", "/api/v1/owners/1", nil)
	if code != http.StatusInternalServerError {
		t.Fatalf("closed store = %d %s, want 500", code, b)
	}
	var e struct {
		Error struct{ Code, Message string }
	}
	if err := json.Unmarshal(b, &e); err != nil || e.Error.Message != "Internal error." {
		t.Errorf("body %s, want message \"Internal error.\"", b)
	}
	if strings.Contains(string(b), "sql") || strings.Contains(string(b), "sqlite") {
		t.Errorf("body %s leaks the database error", b)
	}
}

func TestAuditEveryLookupAndChange(t *testing.T) { onBackends(t, testAuditEveryLookupAndChange) }

func testAuditEveryLookupAndChange(t *testing.T, h *harness) {
	s := h.seed()
	h.mustJSON(service.RoleOfficer, "GET", "/api/v1/lookup?chip="+s.chip, nil, http.StatusOK, nil)
	h.mustJSON(service.RoleIntake, "PATCH", "/api/v1/owners/"+itoa(s.owner), map[string]string{"phone": "612-555-0199"}, http.StatusOK, nil)
	h.api.Close() // flushes the queue
	evs, _, err := h.store.FindAuditEvents(context.Background(), service.AuditFilter{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range evs {
		got = append(got, e.Actor+" "+e.Action)
	}
	want := []string{"test-intake owner.update", "test-officer lookup.chip"} // newest first
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("audit = %q, want %q", got, want)
	}
}

func TestHealthAndMetrics(t *testing.T) {
	h := newHarness(t)
	h.mustJSON("", "GET", "/healthz", nil, http.StatusOK, nil)
	h.mustJSON(service.RoleIntake, "GET", "/api/v1/lookup?chip=985121004515220", nil, http.StatusOK, nil)
	code, b := h.do(service.RoleAdmin, "GET", "/metrics", nil)
	if code != http.StatusOK {
		t.Fatalf("/metrics = %d", code)
	}
	for _, want := range []string{
		`chipdesk_http_requests_total{code="200",route="GET /api/v1/lookup"} 1`,
		`chipdesk_lookups_total{by="chip",result="unknown"} 1`,
		"go_goroutines",
	} {
		if !strings.Contains(string(b), want) {
			t.Errorf("/metrics lacks %q", want)
		}
	}
}

// TestScanStream posts scans from two readers and reads the event
// stream of one of them.
func TestScanStream(t *testing.T) { onBackends(t, testScanStream) }

func testScanStream(t *testing.T, h *harness) {
	s := h.seed()
	ctx, cancel := context.WithTimeout(context.Background(), testtime.Scale(10*time.Second))
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", h.srv.URL+"/api/v1/scans/stream?reader=desk-2", nil)
	req.Header.Set("Authorization", "Bearer "+h.tokens[service.RoleIntake])
	resp, err := h.srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("Content-Type = %q, want text/event-stream", ct)
	}
	br := bufio.NewReader(resp.Body)
	h.mustJSON(service.RoleOfficer, "POST", "/api/v1/scans", map[string]string{"reader": "desk-1", "chip": "982000001088420"}, http.StatusCreated, nil)
	h.mustJSON(service.RoleOfficer, "POST", "/api/v1/scans", map[string]string{"reader": "desk-2", "chip": s.chip}, http.StatusCreated, nil)
	ev := readEvent(t, br)
	var data struct {
		Reader string
		At     time.Time
		Chip   struct{ Code string }
		Lookup answer
	}
	if err := json.Unmarshal([]byte(ev["data"]), &data); err != nil {
		t.Fatalf("event data %q: %v", ev["data"], err)
	}
	if ev["event"] != "scan" || data.Reader != "desk-2" || data.Chip.Code != s.chip || data.At.IsZero() {
		t.Errorf("event %v, want a scan of %s on desk-2", ev, s.chip)
	}
	if data.Lookup.Animal == nil || data.Lookup.Animal.ID != s.animal || data.Lookup.Owner == nil {
		t.Errorf("event lookup = %+v, want Biscuit with owner", data.Lookup)
	}
}

// readEvent reads one SSE event, skipping comments.
func readEvent(t *testing.T, br *bufio.Reader) map[string]string {
	t.Helper()
	ev := map[string]string{}
	for {
		line, err := br.ReadString('\n')
		if err != nil {
			t.Fatalf("reading stream: %v", err)
		}
		line = strings.TrimSuffix(line, "\n")
		switch {
		case line == "" && len(ev) > 0 && ev["data"] != "":
			return ev
		case line == "", strings.HasPrefix(line, ":"):
		default:
			k, v, _ := strings.Cut(line, ":")
			ev[k] = strings.TrimPrefix(v, " ")
		}
	}
}

func urlq(s string) string {
	r := strings.NewReplacer(" ", "%20", "*", "%2A", "+", "%2B")
	return r.Replace(s)
}
