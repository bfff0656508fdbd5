package httpapi_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"path/filepath"
	"testing"
	"time"

	"github.com/chipdesk/chipdesk/internal/testtime"
	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/httpapi"
	"github.com/chipdesk/chipdesk/service/store/sqlite"
)

// TestSiteScopedStaff: on a site-scoped server (a county with several
// shelters), an intake or officer token sees and changes only its own
// site's impoundments, lists only its site's scans and follows only its
// site's scan stream; what it impounds is its site's whatever the body
// says. The register stays county-wide (the lookup of a chip), and an
// admin sees every site. On a server not scoped, staff see every site.
func TestSiteScopedStaff(t *testing.T) {
	open := func(t *testing.T, scoped bool) *harness {
		st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "test.db"), &sqlite.Opts{Now: func() time.Time { return testNow }, Location: chicago(t)})
		if err != nil {
			t.Fatal(err)
		}
		h := newHarnessWith(t, st, func(o *httpapi.Opts) { o.SiteScoped = scoped })
		for _, tk := range []struct {
			key  service.Role
			role service.Role
			site string
		}{{"east", service.RoleIntake, "shelter-east"}, {"west", service.RoleIntake, "shelter-west"},
			{"west-officer", service.RoleOfficer, "shelter-west"}} {
			secret, err := st.CreateToken(context.Background(), &service.Token{Name: string(tk.key), Role: tk.role, Site: tk.site})
			if err != nil {
				t.Fatal(err)
			}
			h.tokens[tk.key] = secret
		}
		return h
	}
	var im struct {
		ID   int64  `json:"id"`
		Site string `json:"site"`
	}
	var list struct {
		Total int `json:"total"`
	}

	h := open(t, true)
	s := h.seed()
	h.mustJSON("east", "POST", "/api/v1/impoundments", map[string]any{
		"animal_id": s.stray, "jurisdiction": "minneapolis", "intake_on": "2026-06-08", "site": "shelter-west"}, http.StatusCreated, &im)
	if im.Site != "shelter-east" {
		t.Errorf("east impounded for site %q, want its own", im.Site)
	}
	path := fmt.Sprintf("/api/v1/impoundments/%d", im.ID)
	for _, who := range []service.Role{"west", "west-officer"} {
		if code, b := h.do(who, "PATCH", path, map[string]any{"notice_on": "2026-06-09"}); code != http.StatusNotFound {
			t.Errorf("%s PATCH east's impoundment = %d %s, want 404", who, code, b)
		}
		if code, b := h.do(who, "POST", path+"/charges", map[string]any{}); code != http.StatusNotFound {
			t.Errorf("%s charges east's impoundment = %d %s, want 404", who, code, b)
		}
		h.mustJSON(who, "GET", "/api/v1/impoundments", nil, http.StatusOK, &list)
		if list.Total != 0 {
			t.Errorf("%s lists %d impoundments, want none of east's", who, list.Total)
		}
	}
	h.mustJSON("east", "PATCH", path, map[string]any{"notice_on": "2026-06-09"}, http.StatusOK, nil)
	for _, who := range []service.Role{"east", service.RoleAdmin} {
		h.mustJSON(who, "GET", "/api/v1/impoundments", nil, http.StatusOK, &list)
		if list.Total != 1 {
			t.Errorf("%s lists %d impoundments, want east's", who, list.Total)
		}
	}
	// The register is county-wide: west looks up the chip of any animal.
	h.mustJSON("west", "GET", "/api/v1/lookup?chip="+s.chip, nil, http.StatusOK, nil)

	// Scans: west's stream and list leave out east's.
	ctx, cancel := context.WithTimeout(context.Background(), testtime.Scale(10*time.Second))
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", h.srv.URL+"/api/v1/scans/stream", nil)
	req.Header.Set("Authorization", "Bearer "+h.tokens["west-officer"])
	resp, err := h.srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	br := bufio.NewReader(resp.Body)
	h.mustJSON("east", "POST", "/api/v1/scans", map[string]string{"reader": "east-desk", "chip": "982000001088420"}, http.StatusCreated, nil)
	h.mustJSON("west", "POST", "/api/v1/scans", map[string]string{"reader": "west-desk", "chip": s.chip}, http.StatusCreated, nil)
	var data struct {
		Reader string `json:"reader"`
	}
	if err := json.Unmarshal([]byte(readEvent(t, br)["data"]), &data); err != nil || data.Reader != "west-desk" {
		t.Errorf("west's stream gave a scan of %q (%v), want west-desk's first: east's is not west's", data.Reader, err)
	}
	h.mustJSON("west", "GET", "/api/v1/scans", nil, http.StatusOK, &list)
	if list.Total != 1 {
		t.Errorf("west lists %d scans, want its own 1", list.Total)
	}
	h.mustJSON(service.RoleAdmin, "GET", "/api/v1/scans", nil, http.StatusOK, &list)
	if list.Total != 2 {
		t.Errorf("admin lists %d scans, want 2", list.Total)
	}

	// Not scoped: staff see every site.
	h = open(t, false)
	s = h.seed()
	h.mustJSON("east", "POST", "/api/v1/impoundments", map[string]any{
		"animal_id": s.stray, "jurisdiction": "minneapolis", "intake_on": "2026-06-08"}, http.StatusCreated, &im)
	h.mustJSON("west", "PATCH", fmt.Sprintf("/api/v1/impoundments/%d", im.ID), map[string]any{"notice_on": "2026-06-09"}, http.StatusOK, nil)
}
