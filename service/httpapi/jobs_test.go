package httpapi_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/chipdesk/chipdesk/drivers/printers/zpl"
	"github.com/chipdesk/chipdesk/firmware-tools/sim/zplsim"
	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/httpapi"
	"github.com/chipdesk/chipdesk/service/jobs"
	"github.com/chipdesk/chipdesk/service/lookup"
	"github.com/chipdesk/chipdesk/service/rules"
	"github.com/chipdesk/chipdesk/tags"
	"github.com/chipdesk/chipdesk/tags/check"
)

// jobsHarness is the API with a job issuer and a worker on a simulated
// ZPL printer.
type jobsHarness struct {
	*harness
	sim    *zplsim.Printer
	dev    *jobs.Device
	worker *jobs.Worker
}

func newJobsHarness(t *testing.T) *jobsHarness {
	t.Helper()
	h := newHarness(t)
	rs, err := rules.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	ds, err := tags.LoadDesigns("")
	if err != nil {
		t.Fatal(err)
	}
	is := &jobs.Orders{Store: h.store, Rules: rs, Designs: ds, Keys: check.DevelopmentKeys()}
	if err := is.ApproveAll(context.Background(), "test-admin", testNow, 2026, 2027); err != nil {
		t.Fatal(err)
	}
	sim, err := zplsim.Listen(nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sim.Close() })
	sp, err := jobs.ParseSpec("zpl:" + sim.Addr() + ",name=counter")
	if err != nil {
		t.Fatal(err)
	}
	dev, err := jobs.Open(context.Background(), sp)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { dev.Close() })
	worker, err := jobs.New([]*jobs.Device{dev}, &jobs.Opts{Orders: is})
	if err != nil {
		t.Fatal(err)
	}
	lk, err := lookup.New(&lookup.Opts{Store: h.store, Rules: rs})
	if err != nil {
		t.Fatal(err)
	}
	api, err := httpapi.New(&httpapi.Opts{Store: h.store, Lookup: lk, Jobs: is, Worker: worker})
	if err != nil {
		t.Fatal(err)
	}
	h.srv.Close()
	h.srv = httptest.NewServer(answerChecker(t, api))
	t.Cleanup(func() { api.Close() })
	return &jobsHarness{harness: h, sim: sim, dev: dev, worker: worker}
}

// licence stores a 2026 Minneapolis licence for animal, replacing
// another when replaces is not 0 (a lost tag, 64.40).
func (h *jobsHarness) licence(animal, replaces int64) *service.Licence {
	h.t.Helper()
	l := &service.Licence{AnimalID: animal, Jurisdiction: "minneapolis", IssuedOn: service.MustDate("2026-06-10"),
		ExpiresOn: service.MustDate("2027-06-30"), FeeCents: 3500, Site: "desk-clinic"} // sold by the clinic token
	if replaces != 0 {
		l.Replaces, l.ReplaceReason, l.FeeCents, l.FeeCode = replaces, service.TagLost, 500, "duplicate"
	}
	if err := h.store.CreateLicence(context.Background(), l); err != nil {
		h.t.Fatal(err)
	}
	return l
}

func (h *jobsHarness) runOnce() {
	h.t.Helper()
	if _, err := h.worker.RunOnce(context.Background(), h.dev); err != nil {
		h.t.Fatal(err)
	}
}

func TestTagJobAPI(t *testing.T) {
	h := newJobsHarness(t)
	s := h.seed()
	l := h.licence(s.animal, 0)
	path := fmt.Sprintf("/api/v1/licences/%d/tag", l.ID)

	var j service.Job
	h.mustJSON(service.RoleClinic, "POST", path, map[string]string{"kind": "print"}, http.StatusCreated, &j)
	var again service.Job
	h.mustJSON(service.RoleIntake, "POST", path, map[string]string{"kind": "print"}, http.StatusOK, &again)
	if again.ID != j.ID {
		t.Fatalf("second tag request made job %d, want job %d (one tag per licence)", again.ID, j.ID)
	}
	if code, _ := h.do(service.RolePublic, "POST", path, map[string]string{}); code != http.StatusForbidden {
		t.Errorf("tag request as public = %d, want 403", code)
	}
	h.runOnce()
	h.mustJSON(service.RoleOfficer, "GET", fmt.Sprintf("/api/v1/jobs/%d", j.ID), nil, http.StatusOK, &j)
	if j.State != service.JobDone || j.Device != "counter" {
		t.Fatalf("job = %+v, want done on counter", j)
	}
	code, b := h.do(service.RoleClinic, "POST", fmt.Sprintf("/api/v1/jobs/%d/reprint", j.ID), "{}")
	if code != http.StatusConflict {
		t.Errorf("reprint of a made tag = %d %s, want 409 (a lost tag needs a duplicate, 64.40)", code, b)
	}

	// The tag is lost: the duplicate licence's tag (64.40) hits a printer
	// out of paper, then is reprinted with the same number.
	dup := h.licence(s.animal, l.ID)
	code, b = h.do(service.RoleClinic, "POST", path, "{}")
	if code != http.StatusConflict {
		t.Errorf("tag of the replaced licence = %d %s, want 409", code, b)
	}
	h.sim.SetStatus(func(st *zpl.HostStatus) { st.PaperOut = true })
	h.mustJSON(service.RoleClinic, "POST", fmt.Sprintf("/api/v1/licences/%d/tag", dup.ID), "{}", http.StatusCreated, &j)
	if j.Reason != jobs.ReasonDuplicate {
		t.Errorf("duplicate's job reason = %q, want duplicate", j.Reason)
	}
	h.runOnce()
	var failed struct {
		Items []service.Job
		Total int
	}
	h.mustJSON(service.RoleIntake, "GET", "/api/v1/jobs?state=failed", nil, http.StatusOK, &failed)
	if failed.Total != 1 || failed.Items[0].ID != j.ID || !strings.Contains(failed.Items[0].Error, "paper out") {
		t.Fatalf("failed jobs = %+v, want job %d with paper out", failed, j.ID)
	}
	h.sim.SetStatus(func(st *zpl.HostStatus) { st.PaperOut = false })
	h.mustJSON(service.RoleClinic, "POST", fmt.Sprintf("/api/v1/jobs/%d/reprint", j.ID), "{}", http.StatusOK, &j)
	if j.State != service.JobQueued {
		t.Fatalf("reprinted job = %+v, want queued", j)
	}
	h.runOnce()
	labels := h.sim.Jobs()
	if len(labels) != 2 || !strings.Contains(string(labels[1].Data), fmt.Sprintf("NO. %06d", dup.TagNumber)) {
		t.Fatalf("printer got %d labels, want the licence's and the duplicate's tag %d", len(labels), dup.TagNumber)
	}

	var devs struct {
		Items []jobs.Status
	}
	h.mustJSON(service.RoleClinic, "GET", "/api/v1/devices", nil, http.StatusOK, &devs)
	if len(devs.Items) != 1 || !devs.Items[0].Ready || devs.Items[0].Name != "counter" {
		t.Errorf("devices = %+v, want counter ready", devs)
	}
}

func TestTagBatchAPI(t *testing.T) {
	h := newJobsHarness(t)
	req := map[string]any{"kind": "print", "jurisdiction": "minneapolis", "year": 2026, "count": 3, "key": "office-2026-1"}
	if code, _ := h.do(service.RoleClinic, "POST", "/api/v1/tag-batches", req); code != http.StatusForbidden {
		t.Errorf("batch as clinic = %d, want 403 (the licensing office makes batches)", code)
	}
	var b service.TagBatch
	h.mustJSON(service.RoleIntake, "POST", "/api/v1/tag-batches", req, http.StatusCreated, &b)
	if b.First != 1 || b.Last != 3 || b.State != service.JobQueued {
		t.Fatalf("batch = %+v, want tags 1-3 queued", b)
	}
	var same service.TagBatch
	h.mustJSON(service.RoleIntake, "POST", "/api/v1/tag-batches", req, http.StatusOK, &same)
	if same.ID != b.ID || same.First != 1 {
		t.Fatalf("batch posted twice = %+v, want batch %d", same, b.ID)
	}
	bad := map[string]any{"jurisdiction": "minneapolis", "year": 2031, "count": 3}
	if code, body := h.do(service.RoleIntake, "POST", "/api/v1/tag-batches", bad); code != http.StatusBadRequest {
		t.Errorf("batch for a year without a design = %d %s, want 400 (64.30)", code, body)
	}
	h.runOnce()
	h.mustJSON(service.RoleIntake, "GET", fmt.Sprintf("/api/v1/tag-batches/%d", b.ID), nil, http.StatusOK, &b)
	if b.State != service.JobDone || b.Done != 3 || len(h.sim.Jobs()) != 3 {
		t.Fatalf("batch after run = %+v, %d labels; want done with 3", b, len(h.sim.Jobs()))
	}
	code, body := h.do(service.RoleIntake, "POST", fmt.Sprintf("/api/v1/tag-batches/%d/resume", b.ID), "{}")
	if code != http.StatusConflict {
		t.Errorf("resume of a done batch = %d %s, want 409", code, body)
	}
}

// TestJobsAPIWithoutDevices: a server without a job issuer answers the
// job endpoints 404 with a JSON error.
func TestJobsAPIWithoutDevices(t *testing.T) {
	h := newHarness(t)
	code, b := h.do(service.RoleClinic, "POST", "/api/v1/licences/1/tag", "{}")
	if code != http.StatusNotFound || !strings.Contains(string(b), `"code":"not_found"`) {
		t.Errorf("tag request without devices = %d %s, want 404", code, b)
	}
}

// TestJobRoles: every job endpoint refuses a missing token (401) and the
// roles it does not list (403), and lets the listed ones through.
func TestJobRoles(t *testing.T) {
	h := newJobsHarness(t)
	counter := []service.Role{service.RoleClinic, service.RoleIntake}
	staff := []service.Role{service.RoleClinic, service.RoleIntake, service.RoleOfficer}
	office := []service.Role{service.RoleIntake}
	for _, tt := range []struct {
		method, path string
		roles        []service.Role
	}{
		{"POST", "/api/v1/licences/999/tag", counter},
		{"GET", "/api/v1/jobs", staff},
		{"GET", "/api/v1/jobs/999", staff},
		{"POST", "/api/v1/jobs/999/reprint", counter},
		{"POST", "/api/v1/tag-batches", office},
		{"GET", "/api/v1/tag-batches", office},
		{"GET", "/api/v1/tag-batches/999", office},
		{"POST", "/api/v1/tag-batches/999/resume", office},
		{"GET", "/api/v1/devices", staff},
	} {
		var body any
		if tt.method == "POST" {
			body = "{}"
		}
		if code, b := h.do("", tt.method, tt.path, body); code != http.StatusUnauthorized {
			t.Errorf("%s %s without token = %d %s, want 401", tt.method, tt.path, code, b)
		}
		for _, r := range roles {
			code, b := h.do(r, tt.method, tt.path, body)
			allowed := r == service.RoleAdmin || slices.Contains(tt.roles, r)
			if r == service.RoleClinic && httpapi.ClinicRefused(tt.method+" "+tt.path) {
				allowed = false
			}
			if allowed && (code == http.StatusUnauthorized || code == http.StatusForbidden) || !allowed && code != http.StatusForbidden {
				t.Errorf("%s %s as %s = %d %s (allowed %v)", tt.method, tt.path, r, code, b, allowed)
			}
		}
	}
}
