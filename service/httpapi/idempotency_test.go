package httpapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/httpapi"
)

// post sends body as role with an Idempotency-Key and returns the
// status, the replay header and the body.
func (h *harness) postKeyed(role service.Role, path, key, body string) (int, string, []byte) {
	h.t.Helper()
	req, err := http.NewRequest("POST", h.srv.URL+path, strings.NewReader(body))
	if err != nil {
		h.t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+h.tokens[role])
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set(httpapi.IdempotencyHeader, key)
	resp, err := h.srv.Client().Do(req)
	if err != nil {
		h.t.Fatalf("POST %s: %v", path, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		h.t.Fatal(err)
	}
	return resp.StatusCode, resp.Header.Get(httpapi.ReplayedHeader), b
}

// TestIdempotentLicenceIssue: a retried issue with the same
// Idempotency-Key and body gets the first answer (the same tag number)
// and no second licence; the key with another body is 409; keys are
// per token; a malformed key is 400.
func TestIdempotentLicenceIssue(t *testing.T) { onBackends(t, testIdempotentLicenceIssue) }

func testIdempotentLicenceIssue(t *testing.T, h *harness) {
	s := h.seed()
	h.vaccinate(service.RoleClinic, s.animal, "2026-05-01", "killed")
	ctx := context.Background()
	count := func() int {
		t.Helper()
		_, n, err := h.store.FindLicences(ctx, service.LicenceFilter{AnimalID: &s.animal})
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	body := fmt.Sprintf(`{"animal_id":%d,"jurisdiction":"minneapolis"}`, s.animal)
	code, replayed, first := h.postKeyed(service.RoleIntake, "/api/v1/licences", "issue-1", body)
	if code != http.StatusCreated || replayed != "" {
		t.Fatalf("first issue = %d (replayed %q) %s, want 201", code, replayed, first)
	}
	var l struct {
		ID        int64 `json:"id"`
		TagNumber int   `json:"tag_number"`
	}
	if err := json.Unmarshal(first, &l); err != nil || l.TagNumber == 0 {
		t.Fatalf("first issue answered %s, want a licence with a tag number", first)
	}
	code, replayed, again := h.postKeyed(service.RoleIntake, "/api/v1/licences", "issue-1", body)
	if code != http.StatusCreated || replayed != "true" || !bytes.Equal(again, first) {
		t.Errorf("retry = %d (replayed %q) %s, want 201 replayed %s", code, replayed, again, first)
	}
	if n := count(); n != 1 {
		t.Errorf("%d licences after a retry, want 1", n)
	}

	other := fmt.Sprintf(`{"animal_id":%d,"jurisdiction":"minneapolis"}`, s.stray)
	if code, _, b := h.postKeyed(service.RoleIntake, "/api/v1/licences", "issue-1", other); code != http.StatusConflict {
		t.Errorf("same key, another body = %d %s, want 409", code, b)
	}
	if code, _, b := h.postKeyed(service.RoleIntake, fmt.Sprintf("/api/v1/licences/%d/renew", l.ID), "issue-1", body); code != http.StatusConflict {
		t.Errorf("same key, another path = %d %s, want 409", code, b)
	}

	// Another token's key of the same name is its own: not replayed, but
	// a new sale, refused for the term the first licence covers.
	code, replayed, b := h.postKeyed(service.RoleClinic, "/api/v1/licences", "issue-1", body)
	if code != http.StatusConflict || replayed != "" || !strings.Contains(string(b), "already covers") {
		t.Errorf("same key by another token = %d (replayed %q) %s, want a new sale refused for its term", code, replayed, b)
	}
	if n := count(); n != 1 {
		t.Errorf("%d licences, want 1", n)
	}

	// Renewals honour the key too.
	renew := fmt.Sprintf("/api/v1/licences/%d/renew", l.ID)
	c1, _, r1 := h.postKeyed(service.RoleIntake, renew, "renew-1", `{}`)
	c2, rep, r2 := h.postKeyed(service.RoleIntake, renew, "renew-1", `{}`)
	if c1 != http.StatusCreated || c2 != http.StatusCreated || rep != "true" || !bytes.Equal(r1, r2) {
		t.Errorf("renewal and its retry = %d %s, %d (replayed %q) %s; want 201 twice, the same answer", c1, r1, c2, rep, r2)
	}
	if n := count(); n != 2 {
		t.Errorf("%d licences after a renewal and its retry, want 2", n)
	}

	for _, key := range []string{"has space", strings.Repeat("k", 256), "é"} {
		if code, _, b := h.postKeyed(service.RoleIntake, "/api/v1/licences", key, body); code != http.StatusBadRequest {
			t.Errorf("Idempotency-Key %q = %d %s, want 400", key, code, b)
		}
	}
}

// TestIdempotentCreates: owners, animals and vaccinations created with
// an Idempotency-Key are created once; the retry gets the same record.
func TestIdempotentCreates(t *testing.T) { onBackends(t, testIdempotentCreates) }

func testIdempotentCreates(t *testing.T, h *harness) {
	s := h.seed()
	for _, c := range []struct {
		name, path, body string
		role             service.Role
	}{
		{"owner", "/api/v1/owners", `{"name":"Ida Berg","address":"1 Elm St","city":"Minneapolis","state":"MN","postcode":"55401","phone":"612-555-0102"}`, service.RoleIntake},
		{"animal", "/api/v1/animals", fmt.Sprintf(`{"owner_id":%d,"name":"Pip","species":"cat"}`, s.owner), service.RoleIntake},
		{"vaccination", "/api/v1/vaccinations", fmt.Sprintf(`{"animal_id":%d,"date":"2026-05-01","type":"killed","duration_months":12,"certificate":"MN-9"}`, s.animal), service.RoleClinic},
	} {
		t.Run(c.name, func(t *testing.T) {
			c1, _, b1 := h.postKeyed(c.role, c.path, "create-"+c.name, c.body)
			c2, rep, b2 := h.postKeyed(c.role, c.path, "create-"+c.name, c.body)
			if c1 != http.StatusCreated || c2 != http.StatusCreated || rep != "true" || !bytes.Equal(b1, b2) {
				t.Errorf("POST %s and its retry = %d %s, %d (replayed %q) %s; want 201 twice, the same answer", c.path, c1, b1, c2, rep, b2)
			}
			c3, rep, b3 := h.postKeyed(c.role, c.path, "create-"+c.name+"-2", c.body)
			if c3 != http.StatusCreated || rep != "" || bytes.Equal(b1, b3) {
				t.Errorf("POST %s with a new key = %d (replayed %q) %s, want a new record", c.path, c3, rep, b3)
			}
		})
	}
}
