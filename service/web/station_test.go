//go:build unix

package web_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/chipdesk/chipdesk/firmware-tools/sim/grblsim"
	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/jobs"
	"github.com/chipdesk/chipdesk/service/web"
)

// stationFixture is the fixture with its pages served over a worker
// that has one simulated engraver, started locked (homing enabled).
func stationFixture(t *testing.T) (*fixture, *grblsim.Sim) {
	t.Helper()
	f := newFixture(t, false)
	sim, err := grblsim.Start(&grblsim.Opts{LaserMode: true, Homing: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sim.Close() })
	spec, err := jobs.ParseSpec("grbl:" + sim.TTY() + ",name=laser-1,beam=0.2")
	if err != nil {
		t.Fatal(err)
	}
	dev, err := jobs.Open(context.Background(), spec)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { dev.Close() })
	worker, err := jobs.New([]*jobs.Device{dev}, &jobs.Opts{Orders: f.issuer})
	if err != nil {
		t.Fatal(err)
	}
	h, err := web.New(&web.Opts{Store: f.store, Lookup: f.lookup, Jobs: f.issuer,
		Jurisdiction: "minneapolis", Now: f.clock.Now, Devices: web.JobDevices(worker)})
	if err != nil {
		t.Fatal(err)
	}
	g := *f
	g.web = h
	g.srv = httptest.NewServer(h)
	t.Cleanup(g.srv.Close)
	return &g, sim
}

// TestStationPage: the counter sees the engraver's state and position,
// homes it out of its alarm, jogs, sets the origin there, frames a
// licence's tag with the laser off, gets a time estimate, and sends an
// override; a control the machine refuses is said on the page.
func TestStationPage(t *testing.T) {
	t.Parallel()
	f, sim := stationFixture(t)
	ctx := context.Background()
	l := &service.Licence{AnimalID: f.tom, Jurisdiction: "minneapolis", IssuedOn: service.MustDate("2026-06-15"), ExpiresOn: service.MustDate("2027-03-31")}
	if err := f.store.CreateLicence(ctx, l); err != nil {
		t.Fatal(err)
	}
	c := f.client()
	c.login(service.RoleClinic)
	st, body := c.get("/station")
	if st != http.StatusOK || !strings.Contains(body, "laser-1") || !strings.Contains(body, "Alarm") {
		t.Fatalf("GET /station = %d, want the engraver in Alarm:\n%s", st, body)
	}
	status := func() map[string]any {
		st, body := c.get("/station/laser-1/status")
		var m map[string]any
		if st != http.StatusOK || json.Unmarshal([]byte(body), &m) != nil {
			t.Fatalf("status = %d %s", st, body)
		}
		return m
	}
	if m := status(); m["alarm"] != true || m["state"] != "Alarm" {
		t.Errorf("status JSON = %v, want alarm", m)
	}
	for _, tt := range []struct {
		action string
		form   url.Values
		want   string
	}{
		{"jog", url.Values{"dx": {"5"}}, "laser-1: jog refused"}, // locked until homed
		{"home", nil, "laser-1: home done"},
		{"jog", url.Values{"dx": {"20"}, "dy": {"10"}, "feed": {"3000"}}, "laser-1: jog done"},
		{"origin", nil, "laser-1: origin done"},
		{"frame", url.Values{"licence": {strconv.FormatInt(l.ID, 10)}}, "laser-1: frame done"},
		{"estimate", url.Values{"licence": {strconv.FormatInt(l.ID, 10)}}, "about "},
		{"override", url.Values{"override": {"power-10"}}, "override power-10 done"},
		{"frame", url.Values{"licence": {"x"}}, "give the licence number"},
	} {
		st, body := c.post("/station/laser-1/"+tt.action, tt.form)
		if st != http.StatusOK || !strings.Contains(body, tt.want) {
			t.Errorf("POST %s %v = %d, want a page saying %q:\n%s", tt.action, tt.form, st, tt.want, body)
		}
	}
	if w := sim.WCO(); w != [3]float64{20, 10, 0} {
		t.Errorf("origin after jog 20,10: WCO %v", w)
	}
	if l := sim.Laser(); l.Fired != 0 {
		t.Errorf("frame fired the laser %d times, want 0", l.Fired)
	}
	if m := status(); m["state"] != "Idle" || m["x_mm"] != 0.0 {
		t.Errorf("status after frame = %v, want Idle at the new origin", m)
	}
	if st, _ := c.post("/station/laser-9/home", nil); st != http.StatusNotFound {
		t.Errorf("POST for an unknown engraver = %d, want 404", st)
	}
	officer := f.client()
	officer.login(service.RoleOfficer)
	if st, _ := officer.get("/station"); st != http.StatusForbidden {
		t.Errorf("officer GET /station = %d, want 403", st)
	}
}
