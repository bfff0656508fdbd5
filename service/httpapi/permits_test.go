package httpapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers/legacy"

	"github.com/chipdesk/chipdesk/service"
)

// TestPermitsContract: POST /api/v1/permits maps to the permits service
// and GET /api/v1/permits?kind= lists by kind; a refusal is 409 with the
// section in the message. The rules themselves are tested in
// service/permits.
func TestPermitsContract(t *testing.T) {
	onBackends(t, func(t *testing.T, h *harness) {
		s := h.seed()
		var p struct {
			ID      int64  `json:"id"`
			Kind    string `json:"kind"`
			Expires string `json:"expires"`
		}
		h.mustJSON(service.RoleIntake, "POST", "/api/v1/permits", map[string]any{"kind": "kennel", "jurisdiction": "chanhassen", "class": "private", "holder": "Kari Berg", "issued": "2026-03-10"}, http.StatusCreated, &p)
		if p.Kind != "kennel" || p.Expires != "2026-12-31" {
			t.Errorf("kennel issued 2026-03-10 = %+v, want expires 2026-12-31 (5-18(c))", p)
		}
		h.mustJSON(service.RoleIntake, "POST", "/api/v1/permits", map[string]any{"kind": "multi_animal", "jurisdiction": "Minneapolis", "holder": "Ada", "address": "1 Elm", "application": map[string]any{"animals": 4}}, http.StatusCreated, nil)
		for kind, want := range map[string]int{"kennel": 1, "multi_animal": 1, "stable": 0, "off_leash": 0} {
			var l struct {
				Items []struct {
					Kind string `json:"kind"`
				} `json:"items"`
				Total int `json:"total"`
			}
			h.mustJSON(service.RoleOfficer, "GET", "/api/v1/permits?kind="+kind, nil, http.StatusOK, &l)
			if l.Total != want || len(l.Items) != want || want > 0 && l.Items[0].Kind != kind {
				t.Errorf("GET ?kind=%s = %+v, want %d of that kind", kind, l, want)
			}
		}
		var d struct{ ID int64 }
		h.mustJSON(service.RoleOfficer, "POST", "/api/v1/designations", map[string]any{"animal_id": s.animal, "level": "dangerous", "jurisdiction": "minneapolis", "declared_on": "2026-05-01"}, http.StatusCreated, &d)
		code, b := h.do(service.RoleIntake, "POST", "/api/v1/permits", map[string]any{"kind": "off_leash", "jurisdiction": "minneapolis", "class": "resident", "animal_id": s.animal})
		var e struct {
			Error struct{ Code, Message string } `json:"error"`
		}
		_ = json.Unmarshal(b, &e)
		if code != http.StatusConflict || e.Error.Code != "conflict" || !strings.Contains(e.Error.Message, "64.55(a)") {
			t.Errorf("off-leash for a dangerous dog = %d %s, want 409 citing 64.55(a)", code, b)
		}
		code, _ = h.do(service.RoleIntake, "GET", "/api/v1/permits?kind=boat", nil)
		if code != http.StatusBadRequest {
			t.Errorf("GET ?kind=boat = %d, want 400", code)
		}
		code, _ = h.do(service.RolePublic, "GET", "/api/v1/permits", nil)
		if code != http.StatusForbidden {
			t.Errorf("GET as public = %d, want 403", code)
		}
		code, _ = h.do(service.RoleOfficer, "GET", "/api/v1/permits/due", nil)
		if code != http.StatusOK {
			t.Errorf("GET /api/v1/permits/due = %d, want 200", code)
		}
		code, _ = h.do(service.RoleClinic, "POST", "/api/v1/animal-reports", map[string]any{"kind": "rabies_suspect", "jurisdiction": "minneapolis", "reporter_role": "veterinarian",
			"reporter": map[string]any{"name": "Dr. Vet"}, "diagnosis": "ataxia", "animal_description": "raccoon"})
		if code != http.StatusCreated {
			t.Errorf("POST rabies-suspect report = %d, want 201", code)
		}
	})
}

// TestPermitAnswersMatchOpenAPI validates permit requests and answers
// against the document's schemas.
func TestPermitAnswersMatchOpenAPI(t *testing.T) {
	h := newHarness(t)
	s := h.seed()
	doc := loadDoc(t)
	doc.Servers = openapi3.Servers{{URL: h.srv.URL}}
	router, err := legacy.NewRouter(doc)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name, method, path, body string
	}{
		{"apply kennel", "POST", "/api/v1/permits", `{"kind":"kennel","jurisdiction":"chanhassen","class":"private","holder":"Kari Berg","issued":"2026-03-10"}`},
		{"apply multi-animal", "POST", "/api/v1/permits", `{"kind":"multi_animal","jurisdiction":"minneapolis","holder":"Ada","address":"1 Elm","application":{"animals":4}}`},
		{"list kennels", "GET", "/api/v1/permits?kind=kennel", ""},
		{"permit", "GET", "/api/v1/permits/1", ""},
		{"officer's list", "GET", "/api/v1/permits/due", ""},
		{"refused", "POST", "/api/v1/permits", `{"kind":"kennel","jurisdiction":"chanhassen","class":"private","holder":"X","application":{"convictions":[{"offence":"cruelty-to-animals"}]}}`},
		{"report", "POST", "/api/v1/animal-reports", `{"kind":"bite","jurisdiction":"minneapolis","reporter_role":"physician","reporter":{"name":"Dr. Aho"},"persons":[{"name":"Eli","address":"1 Elm"}],"animal_id":` + itoa(s.animal) + `}`},
		{"agreement", "POST", "/api/v1/adoption-agreements", `{"animal_id":` + itoa(s.stray) + `,"jurisdiction":"minneapolis","adopter":"Per","born":"2025-01-01","signed":true}`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var body io.Reader
			if tt.body != "" {
				body = strings.NewReader(tt.body)
			}
			req, _ := http.NewRequest(tt.method, h.srv.URL+tt.path, body)
			if tt.body != "" {
				req.Header.Set("Content-Type", "application/json")
			}
			req.Header.Set("Authorization", "Bearer "+h.tokens[service.RoleIntake])
			route, params, err := router.FindRoute(req)
			if err != nil {
				t.Fatalf("FindRoute: %v", err)
			}
			in := &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route,
				Options: &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc}}
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
			out := &openapi3filter.ResponseValidationInput{RequestValidationInput: in, Status: resp.StatusCode, Header: resp.Header,
				Body: io.NopCloser(bytes.NewReader(b)), Options: &openapi3filter.Options{IncludeResponseStatus: true}}
			if err := openapi3filter.ValidateResponse(context.Background(), out); err != nil {
				t.Errorf("answer %d %s does not match the document: %v", resp.StatusCode, b, err)
			}
		})
	}
}
