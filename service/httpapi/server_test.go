package httpapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"github.com/chipdesk/chipdesk/service/incidents"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/events"
	"github.com/chipdesk/chipdesk/service/hardware"
	"github.com/chipdesk/chipdesk/service/httpapi"
	"github.com/chipdesk/chipdesk/service/lookup"
	"github.com/chipdesk/chipdesk/service/money"
	"github.com/chipdesk/chipdesk/service/permits"
	"github.com/chipdesk/chipdesk/service/rules"
	"github.com/chipdesk/chipdesk/service/store/postgres/pgtest"
	"github.com/chipdesk/chipdesk/service/store/sqlite"
)

// roles lists every role, in the order the matrix test reports them.
var roles = []service.Role{service.RoleAdmin, service.RoleClinic, service.RoleIntake, service.RoleOfficer, service.RolePublic}

// testNow is the fixed clock of the tests: a weekday in June 2026.
var testNow = time.Date(2026, 6, 10, 15, 0, 0, 0, time.UTC)

// harness is the API over real HTTP on a real SQLite database.
type harness struct {
	t      *testing.T
	store  service.Store
	api    *httpapi.Server
	hub    *events.Hub
	srv    *httptest.Server
	tokens map[service.Role]string
}

func newHarness(t *testing.T) *harness {
	t.Helper()
	st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "test.db"), &sqlite.Opts{Now: func() time.Time { return testNow }, Location: chicago(t)})
	if err != nil {
		t.Fatalf("sqlite.Open: %v", err)
	}
	return newHarnessOn(t, st)
}

// newHarnessOn serves the API over st, which it closes at the end.
func newHarnessOn(t *testing.T, st service.Store) *harness {
	t.Helper()
	return newHarnessWith(t, st, nil)
}

// newHarnessWith is newHarnessOn with opt changing the server's options.
func newHarnessWith(t *testing.T, st service.Store, opt func(*httpapi.Opts)) *harness {
	t.Helper()
	ctx := context.Background()
	now := func() time.Time { return testNow }
	rs, err := rules.Embedded()
	if err != nil {
		t.Fatalf("rules.Embedded: %v", err)
	}
	lk, err := lookup.New(&lookup.Opts{Store: st, Rules: rs, Now: now})
	if err != nil {
		t.Fatalf("lookup.New: %v", err)
	}
	hub := events.New(nil)
	pl, err := hardware.NewPipeline(&hardware.PipelineOpts{Lookup: lk, Scans: st, Hub: hub, Now: now})
	if err != nil {
		t.Fatalf("hardware.NewPipeline: %v", err)
	}
	mon, err := money.New(&money.Opts{Store: st, Rules: rs, Now: now})
	if err != nil {
		t.Fatalf("money.New: %v", err)
	}
	inc, err := incidents.New(&incidents.Opts{Store: st, Rules: rs, Jurisdiction: lk.Home(), Now: now})
	if err != nil {
		t.Fatalf("incidents.New: %v", err)
	}
	pm, err := permits.New(&permits.Opts{Store: st, Rules: rs, Bites: inc, Now: now})
	if err != nil {
		t.Fatalf("permits.New: %v", err)
	}
	o := &httpapi.Opts{Store: st, Lookup: lk, Hub: hub, Scans: pl, Money: mon, Permits: pm, Now: now, MaxBodyBytes: 64 << 10}
	if opt != nil {
		opt(o)
	}
	api, err := httpapi.New(o)
	if err != nil {
		t.Fatalf("httpapi.New: %v", err)
	}
	h := &harness{t: t, store: st, api: api, hub: hub, srv: httptest.NewServer(answerChecker(t, api)), tokens: map[service.Role]string{}}
	t.Cleanup(func() {
		h.srv.CloseClientConnections()
		h.srv.Close()
		hub.Close()
		api.Close()
		st.Close()
	})
	for _, r := range roles {
		secret, err := st.CreateToken(ctx, &service.Token{Name: "test-" + string(r), Role: r, Site: "desk-" + string(r)})
		if err != nil {
			t.Fatalf("CreateToken(%s): %v", r, err)
		}
		h.tokens[r] = secret
	}
	return h
}

func chicago(t *testing.T) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation("America/Chicago")
	if err != nil {
		t.Fatalf("LoadLocation: %v", err)
	}
	return loc
}

// do sends a request as role ("" for none) and returns the status and
// body.
func (h *harness) do(role service.Role, method, path string, body any) (int, []byte) {
	h.t.Helper()
	var rd io.Reader
	if body != nil {
		switch b := body.(type) {
		case []byte:
			rd = bytes.NewReader(b)
		case string:
			rd = bytes.NewReader([]byte(b))
		default:
			j, err := json.Marshal(b)
			if err != nil {
				h.t.Fatal(err)
			}
			rd = bytes.NewReader(j)
		}
	}
	req, err := http.NewRequest(method, h.srv.URL+path, rd)
	if err != nil {
		h.t.Fatal(err)
	}
	if role != "" {
		req.Header.Set("Authorization", "Bearer "+h.tokens[role])
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := h.srv.Client().Do(req)
	if err != nil {
		h.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		h.t.Fatalf("%s %s: reading body: %v", method, path, err)
	}
	return resp.StatusCode, b
}

// mustJSON sends a request that must answer want, and decodes the body
// into v (when not nil).
func (h *harness) mustJSON(role service.Role, method, path string, body any, want int, v any) {
	h.t.Helper()
	code, b := h.do(role, method, path, body)
	if code != want {
		h.t.Fatalf("%s %s as %s = %d %s, want %d", method, path, role, code, b, want)
	}
	if v != nil {
		if err := json.Unmarshal(b, v); err != nil {
			h.t.Fatalf("%s %s: decoding %s: %v", method, path, b, err)
		}
	}
}

// seeded are the ids of the records seed makes.
type seeded struct {
	owner, animal, stray int64
	chip                 string // ISO chip of animal
}

// seed stores an owner with a dog carrying a HomeAgain chip, and an
// ownerless cat.
func (h *harness) seed() seeded {
	h.t.Helper()
	ctx := context.Background()
	o := &service.Owner{Name: "Ada Lindqvist", Address: "3401 Chicago Ave", City: "Minneapolis", State: "MN", Postcode: "55407", Phone: "612-555-0147"}
	if err := h.store.CreateOwner(ctx, o); err != nil {
		h.t.Fatalf("CreateOwner: %v", err)
	}
	a := &service.Animal{OwnerID: o.ID, Name: "Biscuit", Species: service.Dog, Breed: "Labrador mix", Colour: "yellow", Sex: service.Male, Altered: true}
	if err := h.store.CreateAnimal(ctx, a); err != nil {
		h.t.Fatalf("CreateAnimal: %v", err)
	}
	const chip = "985121004515220"
	if err := h.store.AddChip(ctx, &service.Chip{AnimalID: a.ID, Code: chip, Kind: "iso11784", Manufacturer: "HomeAgain"}); err != nil {
		h.t.Fatalf("AddChip: %v", err)
	}
	stray := &service.Animal{Species: service.Cat, Colour: "tabby"}
	if err := h.store.CreateAnimal(ctx, stray); err != nil {
		h.t.Fatalf("CreateAnimal: %v", err)
	}
	return seeded{owner: o.ID, animal: a.ID, stray: stray.ID, chip: chip}
}

// onBackends runs test on the API over SQLite and over PostgreSQL (the
// server named by CHIPDESK_TEST_POSTGRES; skipped when there is none,
// except under CI).
func onBackends(t *testing.T, test func(t *testing.T, h *harness)) {
	t.Run("sqlite", func(t *testing.T) { test(t, newHarness(t)) })
	t.Run("postgres", func(t *testing.T) {
		test(t, newHarnessOn(t, pgtest.Open(t, func() time.Time { return testNow })))
	})
}
