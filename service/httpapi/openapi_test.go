package httpapi_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/legacy"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/httpapi"
)

func loadDoc(t *testing.T) *openapi3.T {
	t.Helper()
	doc, err := openapi3.NewLoader().LoadFromData(httpapi.OpenAPI())
	if err != nil {
		t.Fatalf("loading openapi.json: %v", err)
	}
	if err := doc.Validate(context.Background()); err != nil {
		t.Fatalf("openapi.json is not a valid OpenAPI 3 document: %v", err)
	}
	return doc
}

func TestOpenAPIValid(t *testing.T) {
	t.Parallel()
	doc := loadDoc(t)
	if !strings.HasPrefix(doc.OpenAPI, "3.") {
		t.Errorf("openapi = %q, want 3.x", doc.OpenAPI)
	}
}

// TestOpenAPIServed gets the document as a client does. With
// CHIPDESK_OPENAPI_OUT set it writes what was served there, for test.sh
// to lint (redocly lint).
func TestOpenAPIServed(t *testing.T) {
	h := newHarness(t)
	code, b := h.do("", "GET", "/api/v1/openapi.json", nil)
	if code != http.StatusOK || !bytes.Equal(b, httpapi.OpenAPI()) {
		t.Errorf("GET /api/v1/openapi.json = %d, %d bytes; want 200 and the document", code, len(b))
	}
	if out := os.Getenv("CHIPDESK_OPENAPI_OUT"); out != "" {
		if err := os.WriteFile(out, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestOperationIDs: every operation of the served document has an
// operationId, each a different one (a generator names its methods by
// them).
func TestOperationIDs(t *testing.T) {
	t.Parallel()
	doc := loadDoc(t)
	seen := map[string]string{}
	n := 0
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			n++
			where := method + " " + path
			if op.OperationID == "" {
				t.Errorf("%s has no operationId", where)
			} else if prev, dup := seen[op.OperationID]; dup {
				t.Errorf("operationId %s on %s and %s", op.OperationID, prev, where)
			}
			seen[op.OperationID] = where
		}
	}
	if n < 40 {
		t.Errorf("%d operations in the document, want every route's", n)
	}
}

// TestAnswersMatchOpenAPI sends requests through the API and validates
// each request and answer against the document's schemas.
func TestAnswersMatchOpenAPI(t *testing.T) {
	h := newHarness(t)
	s := h.seed()
	doc := loadDoc(t)
	doc.Servers = openapi3.Servers{{URL: h.srv.URL}}
	router, err := legacy.NewRouter(doc)
	if err != nil {
		t.Fatal(err)
	}
	// Impounded in each city: Minneapolis 62.40 sets every redemption
	// fee; Chanhassen 5-74(a) leaves them to a resolution (null amounts,
	// no total).
	impounded := map[string]int64{}
	for _, j := range []string{"minneapolis", "chanhassen"} {
		var an struct{ ID int64 }
		h.mustJSON(service.RoleIntake, "POST", "/api/v1/animals", map[string]any{"owner_id": s.owner, "name": "Pip", "species": "dog"}, http.StatusCreated, &an)
		h.mustJSON(service.RoleIntake, "POST", "/api/v1/impoundments", map[string]any{
			"animal_id": an.ID, "jurisdiction": j, "intake_on": "2026-06-08", "where_found": "Lake Ann Park",
		}, http.StatusCreated, nil)
		impounded[j] = an.ID
	}
	tests := []struct {
		name         string
		role         service.Role
		method, path string
		body         string
	}{
		{name: "lookup found", role: service.RoleIntake, method: "GET", path: "/api/v1/lookup?chip=" + s.chip},
		{name: "lookup public", role: service.RolePublic, method: "GET", path: "/api/v1/lookup?chip=" + s.chip},
		{name: "lookup unknown", role: service.RoleOfficer, method: "GET", path: "/api/v1/lookup?chip=982000001088420"},
		{name: "lookup tag not issued", role: service.RoleOfficer, method: "GET", path: "/api/v1/lookup?tag=77&jurisdiction=chanhassen&year=2026"},
		{name: "lookup invalid", role: service.RoleOfficer, method: "GET", path: "/api/v1/lookup?chip=nonsense"},
		{name: "animal record", role: service.RoleOfficer, method: "GET", path: "/api/v1/animals/" + itoa(s.stray) + "/record"},
		{name: "record impounded, fees set (62.40)", role: service.RoleIntake, method: "GET", path: "/api/v1/animals/" + itoa(impounded["minneapolis"]) + "/record"},
		{name: "record impounded, fees not set (5-74(a))", role: service.RoleIntake, method: "GET", path: "/api/v1/animals/" + itoa(impounded["chanhassen"]) + "/record"},
		{name: "create owner", role: service.RoleClinic, method: "POST", path: "/api/v1/owners", body: `{"name":"Bo Nyberg","city":"Chanhassen"}`},
		{name: "find animals", role: service.RoleOfficer, method: "GET", path: "/api/v1/animals?limit=5"},
		{name: "post scan", role: service.RoleOfficer, method: "POST", path: "/api/v1/scans", body: `{"reader":"van-3","chip":"` + s.chip + `"}`},
		{name: "forbidden", role: service.RolePublic, method: "GET", path: "/api/v1/animals/1"},
		{name: "healthz", method: "GET", path: "/healthz"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var body io.Reader
			if tt.body != "" {
				body = strings.NewReader(tt.body)
			}
			req, _ := http.NewRequest(tt.method, h.srv.URL+tt.path, body)
			if tt.body != "" {
				req.Header.Set("Content-Type", "application/json")
			}
			if tt.role != "" {
				req.Header.Set("Authorization", "Bearer "+h.tokens[tt.role])
			}
			route, params, err := router.FindRoute(req)
			if err != nil {
				t.Fatalf("FindRoute(%s %s): %v", tt.method, tt.path, err)
			}
			in := &openapi3filter.RequestValidationInput{
				Request: req, PathParams: params, Route: route,
				Options: &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc},
			}
			if err := openapi3filter.ValidateRequest(context.Background(), in); err != nil {
				t.Fatalf("request does not match the document: %v", err)
			}
			if tt.body != "" {
				req.Body = io.NopCloser(strings.NewReader(tt.body))
			}
			resp, err := h.srv.Client().Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			b, _ := io.ReadAll(resp.Body)
			out := &openapi3filter.ResponseValidationInput{
				RequestValidationInput: in, Status: resp.StatusCode, Header: resp.Header,
				Body:    io.NopCloser(bytes.NewReader(b)),
				Options: &openapi3filter.Options{IncludeResponseStatus: true},
			}
			if err := openapi3filter.ValidateResponse(context.Background(), out); err != nil {
				t.Errorf("answer %d %s does not match the document: %v", resp.StatusCode, b, err)
			}
		})
	}
}

var _ routers.Router
