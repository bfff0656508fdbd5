package httpapi_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/chipdesk/chipdesk/service"
)

// A PATCH changes only the fields it sends: a field left out, or sent
// as null, stays as it was.
func TestPatchChangesOnlyFieldsSent(t *testing.T) { onBackends(t, testPatchChangesOnlyFieldsSent) }

func testPatchChangesOnlyFieldsSent(t *testing.T, h *harness) {
	s := h.seed()
	get := func(path string) map[string]any {
		t.Helper()
		var v map[string]any
		h.mustJSON(service.RoleIntake, "GET", path, nil, http.StatusOK, &v)
		delete(v, "updated_at")
		return v
	}
	owner, animal := "/api/v1/owners/"+itoa(s.owner), "/api/v1/animals/"+itoa(s.animal)
	tests := []struct {
		name, path, body string
		changed          map[string]any // the fields that change, and to what
	}{
		{"owner phone only", owner, `{"phone": "612-555-0199"}`, map[string]any{"phone": "612-555-0199"}},
		{"owner nothing", owner, `{}`, nil},
		{"owner null is no change", owner, `{"name": null, "city": null}`, nil},
		{"owner two fields", owner, `{"address": "2 Elm St", "postcode": "55317"}`, map[string]any{"address": "2 Elm St", "postcode": "55317"}},
		{"animal altered only", animal, `{"altered": false}`, map[string]any{"altered": false}},
		{"animal birth date only", animal, `{"birth_date": "2020-04-01"}`, map[string]any{"birth_date": "2020-04-01"}},
		{"animal owner removed", animal, `{"owner_id": 0}`, map[string]any{"owner_id": nil}},
		{"animal null is no change", animal, `{"name": null, "species": null, "birth_date": null}`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := get(tt.path)
			var after map[string]any
			h.mustJSON(service.RoleIntake, "PATCH", tt.path, tt.body, http.StatusOK, &after)
			delete(after, "updated_at")
			want := map[string]any{}
			for k, v := range before {
				want[k] = v
			}
			for k, v := range tt.changed {
				if v == nil {
					delete(want, k) // emptied: omitted from the answer
				} else {
					want[k] = v
				}
			}
			if !jsonEqual(after, want) {
				t.Errorf("PATCH %s %s answered\n%v\nwant\n%v", tt.path, tt.body, after, want)
			}
			if stored := get(tt.path); !jsonEqual(stored, want) {
				t.Errorf("after PATCH %s %s the record is\n%v\nwant\n%v", tt.path, tt.body, stored, want)
			}
		})
	}

	// What a PATCH may not send: server-set fields and names it does not
	// have are refused, naming the field; a change the record's rules
	// refuse leaves it as it was.
	for _, tt := range []struct{ name, path, body string }{
		{"owner id", owner, `{"id": 9}`},
		{"owner created_at", owner, `{"created_at": "2026-01-01T00:00:00Z"}`},
		{"owner empty name", owner, `{"name": ""}`},
		{"animal bad species", animal, `{"species": "horse"}`},
		{"animal camelCase", animal, `{"ownerId": 1}`},
	} {
		t.Run("refused "+tt.name, func(t *testing.T) {
			before := get(tt.path)
			code, b := h.do(service.RoleIntake, "PATCH", tt.path, tt.body)
			if code != http.StatusBadRequest {
				t.Errorf("PATCH %s %s = %d %s, want 400", tt.path, tt.body, code, b)
			}
			if after := get(tt.path); !jsonEqual(after, before) {
				t.Errorf("refused PATCH %s changed the record:\n%v\nwas\n%v", tt.body, after, before)
			}
		})
	}
}

func jsonEqual(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}
