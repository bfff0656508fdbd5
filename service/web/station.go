package web

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/chipdesk/chipdesk/drivers/engravers"
	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/jobs"
	"github.com/chipdesk/chipdesk/tags"
)

// jobDevices is the Devices of a jobs.Worker (JobDevices), which also
// gives the station page the worker's engravers.
type jobDevices struct{ r *jobs.Worker }

// Devices implements Devices: each printer and engraver asked now.
func (j jobDevices) Devices(ctx context.Context) []Device {
	var out []Device
	for _, st := range j.r.Statuses(ctx) {
		out = append(out, Device{Kind: st.Kind, Name: st.Name, Ready: st.Ready, State: st.State, At: st.At})
	}
	return out
}

func (j jobDevices) Engravers() []string { return j.r.Engravers() }

func (j jobDevices) Station(ctx context.Context, name string) (engravers.Station, error) {
	return j.r.Station(ctx, name)
}

func (j jobDevices) Job(name string, t *tags.Tag) (engravers.Job, error) { return j.r.Job(name, t) }

// Stations gives the counter's station page the engravers and their
// controls. The Devices of JobDevices provide it.
type Stations interface {
	Engravers() []string
	Station(ctx context.Context, name string) (engravers.Station, error)
	Job(name string, t *tags.Tag) (engravers.Job, error)
}

// stations finds the Stations among the handler's devices.
func (h *Handler) stations() Stations {
	var find func(d Devices) Stations
	find = func(d Devices) Stations {
		switch v := d.(type) {
		case Stations:
			return v
		case DeviceList:
			for _, x := range v {
				if s := find(x); s != nil {
					return s
				}
			}
		}
		return nil
	}
	return find(h.o.Devices)
}

// stationRoutes adds the laser station page: live state and position,
// home, unlock, jog, set origin, frame and time estimate for a
// licence's tag, pause, resume, abort and feed / power overrides.
func (h *Handler) stationRoutes(m *http.ServeMux) {
	m.HandleFunc("GET /station", h.page(counterRoles, h.handleStation))
	m.HandleFunc("GET /station/{name}/status", h.page(counterRoles, h.handleStationStatus))
	m.HandleFunc("POST /station/{name}/{action}", h.page(counterRoles, h.handleStationAction))
}

type stationView struct {
	CSRF      string
	Engravers []stationState
	Overrides []engravers.Override
	Actions   []string
	Estimate  string
}

// stationState is an engraver's state as the page and its JSON show it.
type stationState struct {
	Name    string  `json:"name"`
	State   string  `json:"state"`
	X       float64 `json:"x_mm"`
	Y       float64 `json:"y_mm"`
	Alarm   bool    `json:"alarm"`
	Busy    bool    `json:"busy"`
	LaserOn bool    `json:"laser_on"`
	Error   string  `json:"error,omitempty"`
}

func (h *Handler) stationState(ctx context.Context, s Stations, name string) stationState {
	out := stationState{Name: name}
	ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	st, err := s.Station(ctx, name)
	if err == nil {
		var es engravers.Status
		if es, err = st.Status(ctx); err == nil {
			out.State, out.X, out.Y, out.Alarm, out.Busy, out.LaserOn = es.State, es.Pos.X, es.Pos.Y, es.Alarm, es.Busy, es.LaserOn
		}
	}
	if err != nil {
		out.State, out.Error = "unknown", err.Error()
	}
	return out
}

func (h *Handler) handleStation(w http.ResponseWriter, r *http.Request) {
	v := &stationView{CSRF: sess(r).csrf, Overrides: engravers.Overrides, Estimate: r.URL.Query().Get("estimate"),
		Actions: []string{"home", "unlock", "origin", "pause", "resume", "abort"}}
	if s := h.stations(); s != nil {
		for _, n := range s.Engravers() {
			v.Engravers = append(v.Engravers, h.stationState(r.Context(), s, n))
		}
	}
	h.render(w, r, http.StatusOK, "station", "Laser station", &view{Data: v})
}

func (h *Handler) handleStationStatus(w http.ResponseWriter, r *http.Request) {
	s := h.stations()
	if s == nil {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	json.NewEncoder(w).Encode(h.stationState(r.Context(), s, r.PathValue("name")))
}

// handleStationAction runs one control and goes back to the page with
// what happened. A refused control (a job runs, the machine is in
// alarm) is said on the page, not an error page.
func (h *Handler) handleStationAction(w http.ResponseWriter, r *http.Request) {
	s := h.stations()
	if s == nil {
		h.fail(w, r, nil, http.StatusNotFound, "No engraver is configured.")
		return
	}
	name, action := r.PathValue("name"), r.PathValue("action")
	ctx := r.Context()
	st, err := s.Station(ctx, name)
	if err != nil {
		h.fail(w, r, nil, http.StatusNotFound, "No engraver "+name+".")
		return
	}
	num := func(k string, def float64) (float64, error) {
		v := r.PostFormValue(k)
		if v == "" {
			return def, nil
		}
		f, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return 0, fmt.Errorf("%s: %q is not a number", k, v)
		}
		return f, nil
	}
	tagJob := func() (engravers.Job, error) {
		id, err := strconv.ParseInt(r.PostFormValue("licence"), 10, 64)
		if err != nil || id <= 0 {
			return engravers.Job{}, errors.New("licence: give the licence number")
		}
		l, err := h.o.Store.FindLicenceByID(ctx, id)
		if err != nil {
			return engravers.Job{}, errors.New(service.ErrorMessage(err))
		}
		t, err := h.o.Jobs.LicenceTag(ctx, l)
		if err != nil {
			return engravers.Job{}, err
		}
		return s.Job(name, t)
	}
	done, extra := action, ""
	switch action {
	case "home":
		err = st.Home(ctx)
	case "unlock":
		err = st.Unlock(ctx)
	case "origin":
		err = st.SetOrigin(ctx)
	case "pause":
		err = st.Pause(ctx)
	case "resume":
		err = st.Resume(ctx)
	case "abort":
		err = st.Abort(ctx)
	case "jog":
		var dx, dy, feed float64
		if dx, err = num("dx", 0); err == nil {
			if dy, err = num("dy", 0); err == nil {
				if feed, err = num("feed", 1000); err == nil {
					err = st.Jog(ctx, dx, dy, feed)
				}
			}
		}
	case "override":
		err = st.Override(ctx, engravers.Override(r.PostFormValue("override")))
		done = "override " + r.PostFormValue("override")
	case "frame", "estimate":
		var j engravers.Job
		if j, err = tagJob(); err == nil {
			if action == "frame" {
				err = st.Frame(ctx, j)
			} else {
				var d time.Duration
				if d, err = st.Estimate(ctx, j); err == nil {
					extra = "&estimate=" + url.QueryEscape(fmt.Sprintf("%s: about %s", j.Name, d.Round(time.Second)))
				}
			}
		}
	default:
		h.fail(w, r, nil, http.StatusNotFound, "Unknown control "+action+".")
		return
	}
	msg := fmt.Sprintf("%s: %s done", name, done)
	if err != nil {
		msg = fmt.Sprintf("%s: %s refused: %v", name, done, err)
	}
	seeOther(w, r, "/station?x=1"+extra, msg)
}
