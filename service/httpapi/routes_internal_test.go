package httpapi

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/chipdesk/chipdesk/service"
)

// TestRoutesDocumented checks that the OpenAPI document lists exactly
// the authenticated routes the server registers, each with the same
// roles (admin always included).
func TestRoutesDocumented(t *testing.T) {
	t.Parallel()
	var doc struct {
		Paths map[string]map[string]struct {
			Roles    []service.Role `json:"x-roles"`
			ServedBy string         `json:"x-served-by"`
		} `json:"paths"`
	}
	if err := json.Unmarshal(openAPI, &doc); err != nil {
		t.Fatal(err)
	}
	documented := map[string][]service.Role{}
	for p, ms := range doc.Paths {
		for m, op := range ms {
			if strings.HasPrefix(p, "/api/v1/") && p != "/api/v1/openapi.json" && op.ServedBy != SyncServedBy {
				documented[strings.ToUpper(m)+" "+p] = op.Roles
			}
		}
	}
	s := &Server{}
	for _, rt := range s.allRoutes() {
		want := append([]service.Role{service.RoleAdmin}, rt.roles...)
		got, ok := documented[rt.pattern]
		if !ok {
			t.Errorf("route %s is not in openapi.json", rt.pattern)
			continue
		}
		delete(documented, rt.pattern)
		slices.Sort(want)
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Errorf("%s: openapi.json x-roles %v, server allows %v", rt.pattern, got, want)
		}
	}
	for op := range documented {
		t.Errorf("openapi.json documents %s, which the server does not serve", op)
	}
}
