package httpapi_test

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/httpapi"
)

// operation is one method on one path of the OpenAPI document.
type operation struct {
	method, path string
	roles        []service.Role // nil: no authentication
}

// documentedOps reads every operation and its x-roles from the served
// OpenAPI document.
func documentedOps(t *testing.T) []operation {
	t.Helper()
	var doc struct {
		Paths map[string]map[string]struct {
			Security []map[string][]string `json:"security"`
			Roles    []service.Role        `json:"x-roles"`
			ServedBy string                `json:"x-served-by"`
		} `json:"paths"`
	}
	if err := json.Unmarshal(httpapi.OpenAPI(), &doc); err != nil {
		t.Fatalf("openapi.json: %v", err)
	}
	var ops []operation
	for p, methods := range doc.Paths {
		for m, op := range methods {
			if op.ServedBy == httpapi.SyncServedBy {
				continue // not this server's: the sync handler's own tests
			}
			o := operation{method: strings.ToUpper(m), path: p}
			if len(op.Security) > 0 {
				o.roles = op.Roles
				if len(o.roles) == 0 {
					t.Errorf("%s %s: secured but no x-roles", o.method, p)
				}
			}
			ops = append(ops, o)
		}
	}
	slices.SortFunc(ops, func(a, b operation) int { return strings.Compare(a.path+a.method, b.path+b.method) })
	return ops
}

// TestRoleMatrix checks every documented operation against every role:
// 401 without a token or with a bad one, 403 for a role the document
// does not list, and neither for one it lists. It also proves the
// document and the server's routes agree, since an undocumented role
// would pass where 403 is expected and vice versa.
func TestRoleMatrix(t *testing.T) {
	h := newHarness(t)
	s := h.seed()
	_ = s
	ops := documentedOps(t)
	if len(ops) < 30 {
		t.Fatalf("document lists %d operations, want the full API", len(ops))
	}
	for _, op := range ops {
		path := strings.ReplaceAll(op.path, "{id}", "999999")
		if op.method == http.MethodGet && strings.HasPrefix(path, "/api/v1/scans/stream") {
			continue // TestStreamRoles: a 200 there never ends
		}
		if op.roles == nil {
			if code, body := h.do("", op.method, path, nil); code != http.StatusOK {
				t.Errorf("%s %s without token = %d %s, want 200", op.method, path, code, body)
			}
			continue
		}
		var body any
		if op.method != http.MethodGet && op.method != http.MethodDelete {
			body = "{}"
		}
		t.Run(op.method+" "+op.path, func(t *testing.T) {
			if code, b := h.do("", op.method, path, body); code != http.StatusUnauthorized {
				t.Errorf("no token = %d %s, want 401", code, b)
			}
			for _, r := range roles {
				code, b := h.do(r, op.method, path, body)
				allowed := r == service.RoleAdmin || slices.Contains(op.roles, r)
				if r == service.RoleClinic && httpapi.ClinicRefused(op.method+" "+op.path) {
					allowed = false // scope: not a clinic's whatever the role table says
				}
				switch {
				case allowed && (code == http.StatusUnauthorized || code == http.StatusForbidden):
					t.Errorf("as %s = %d %s, want allowed", r, code, b)
				case !allowed && code != http.StatusForbidden:
					t.Errorf("as %s = %d %s, want 403", r, code, b)
				}
				if code >= 400 {
					var e struct {
						Error struct{ Code, Message string }
					}
					if err := json.Unmarshal(b, &e); err != nil || e.Error.Code == "" || e.Error.Message == "" {
						t.Errorf("as %s: error body %s is not a JSON error", r, b)
					}
				}
			}
		})
	}
}

func TestBadToken(t *testing.T) {
	h := newHarness(t)
	tests := []struct {
		name, header string
	}{
		{name: "unknown token", header: "Bearer cdk_NOTATOKEN"},
		{name: "wrong scheme", header: "Basic " + h.tokens[service.RoleAdmin]},
		{name: "empty bearer", header: "Bearer "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, _ := http.NewRequest("GET", h.srv.URL+"/api/v1/lookup?chip=985121004515220", nil)
			req.Header.Set("Authorization", tt.header)
			resp, err := h.srv.Client().Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusUnauthorized {
				t.Errorf("Authorization %q = %d, want 401", tt.header, resp.StatusCode)
			}
			if got := resp.Header.Get("WWW-Authenticate"); !strings.HasPrefix(got, "Bearer") {
				t.Errorf("WWW-Authenticate = %q, want a Bearer challenge (RFC 6750 3)", got)
			}
		})
	}
}

// TestRevokedTokenStopsAtOnce: a token revoked through the API is not
// served from the authentication cache.
func TestRevokedTokenStopsAtOnce(t *testing.T) {
	h := newHarness(t)
	var tok struct {
		ID     int64
		Secret string
	}
	h.mustJSON(service.RoleAdmin, "POST", "/api/v1/tokens", map[string]string{"name": "temp", "role": "officer"}, http.StatusCreated, &tok)
	h.tokens["temp"] = tok.Secret
	h.mustJSON("temp", "GET", "/api/v1/scans", nil, http.StatusOK, nil)
	h.mustJSON(service.RoleAdmin, "DELETE", "/api/v1/tokens/"+itoa(tok.ID), nil, http.StatusNoContent, nil)
	if code, _ := h.do("temp", "GET", "/api/v1/scans", nil); code != http.StatusUnauthorized {
		t.Errorf("revoked token = %d, want 401", code)
	}
}
