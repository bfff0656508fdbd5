package web

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/incidents"
	"github.com/chipdesk/chipdesk/service/licensing"
	"github.com/chipdesk/chipdesk/service/lookup"
)

// officerData is the officer's page beyond the lookup: the watch of the
// jurisdiction (incidents.Watch) and the officer's own recent scans.
type officerData struct {
	Watch         *incidents.Watch
	Jurisdictions []lookup.Jurisdiction
	Scans         []*service.Scan
	// Animals names the animals of Scans, by id.
	Animals map[int64]*service.Animal
	// Readers are the connected readers the page can follow live.
	Readers []string
	CSRF    string
	Today   service.Date
	// Err and ErrAt are a refused "record met" form: the message and
	// the animal/requirement it belongs to ("12/microchip").
	Err, ErrAt string
}

// handleOfficer is the officer's page: the lookup (a keyboard-wedge
// reader types into the focused box) of a chip, a tag, an owner or an
// address; the dangerous animals of the jurisdiction with each
// requirement met, due or overdue and a form to record it met; the open
// quarantines ending soon; the officer's own recent scans; and the
// readers to follow live.
func (h *Handler) handleOfficer(w http.ResponseWriter, r *http.Request) {
	h.officerPage(w, r, http.StatusOK, "", "")
}

func (h *Handler) officerPage(w http.ResponseWriter, r *http.Request, status int, errMsg, errAt string) {
	var d searchData
	if h.o.Hub != nil {
		d.Reader = r.URL.Query().Get("reader")
	}
	od, err := h.officer(r)
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	od.Err, od.ErrAt = errMsg, errAt
	d.Officer = od
	if status != http.StatusOK {
		h.render(w, r, status, "officer", "Officer", &view{Data: d, Error: errMsg})
		return
	}
	h.searchPage(w, r, "officer", "Officer", d, "")
}

func (h *Handler) officer(r *http.Request) (*officerData, error) {
	ctx := r.Context()
	ss := sess(r)
	j, err := h.jurisdiction(r.URL.Query().Get("j"))
	if err != nil {
		return nil, err
	}
	od := &officerData{Jurisdictions: h.o.Lookup.Jurisdictions(), CSRF: ss.csrf, Today: h.today(j)}
	if od.Watch, err = h.o.Incidents.Watch(ctx, j, 0); err != nil {
		return nil, err
	}
	name := ss.name
	if od.Scans, _, err = h.o.Store.FindScans(ctx, service.ScanFilter{User: &name, Limit: 10}); err != nil {
		return nil, err
	}
	od.Animals = map[int64]*service.Animal{}
	for _, sc := range od.Scans {
		if _, seen := od.Animals[sc.AnimalID]; sc.AnimalID == 0 || seen {
			continue
		}
		a, err := h.o.Store.FindAnimalByID(ctx, sc.AnimalID)
		if err != nil && service.ErrorCode(err) != service.ENOTFOUND {
			return nil, err
		}
		od.Animals[sc.AnimalID] = a
	}
	if h.o.Devices != nil && h.o.Hub != nil {
		for _, dv := range h.o.Devices.Devices(ctx) {
			if dv.Kind == "reader" {
				od.Readers = append(od.Readers, dv.Name)
			}
		}
	}
	return od, nil
}

// handleRecordMet records a dangerous animal's requirement met through
// incidents.RecordMet (the rules say which requirements the designation
// has and whether the cover shown meets the insurance one, Minn. Stat.
// 347.51 subd. 2).
func (h *Handler) handleRecordMet(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r)
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	what := r.PathValue("what")
	at := fmt.Sprintf("%d/%s", id, what)
	req := &incidents.MetRequest{What: what, RegistrationNumber: strings.TrimSpace(r.PostFormValue("registration_number"))}
	on, err := service.ParseDate(strings.TrimSpace(r.PostFormValue("on")))
	if err != nil {
		h.officerPage(w, r, http.StatusBadRequest, "The date met must be a date, like 2026-06-01.", at)
		return
	}
	req.On = on
	if s := strings.TrimSpace(r.PostFormValue("insurance_amount")); s != "" {
		c, err := licensing.ParseMoney(s)
		if err != nil {
			h.officerPage(w, r, http.StatusBadRequest, "The amount of cover must be in dollars, like 300000.", at)
			return
		}
		req.InsuranceCents = c
	}
	if s := strings.TrimSpace(r.PostFormValue("insurance_expires")); s != "" {
		if req.InsuranceExpires, err = service.ParseDate(s); err != nil {
			h.officerPage(w, r, http.StatusBadRequest, "The cover's end must be a date, like 2027-06-01.", at)
			return
		}
	}
	ctx, ch := h.changing(r, "designation.update", "animal", id, fmt.Sprintf("%s met on %s", what, on))
	c, err := h.o.Incidents.RecordMet(ctx, id, req)
	if err != nil {
		code := service.ErrorCode(err)
		if code != service.EINVALID && code != service.ECONFLICT {
			h.failErr(w, r, err)
			return
		}
		status := http.StatusBadRequest
		if code == service.ECONFLICT {
			status = http.StatusConflict
		}
		h.officerPage(w, r, status, service.ErrorMessage(err), at)
		return
	}
	h.committed(r, ch, id)
	msg := say(what) + " recorded met on " + on.String() + "."
	if c.Still != "" {
		msg = say(what) + " recorded on " + on.String() + ", but " + c.Still + "."
	}
	seeOther(w, r, "/officer?j="+c.Jurisdiction+"#dangerous", msg)
}

// handleBite records a bite; incidents.RecordBite starts the quarantine the
// rules require when a person was bitten (Minneapolis 66.40, Chanhassen
// 5-39(a)), its length and place from the profile's bite rule and the
// animal's rabies status.
func (h *Handler) handleBite(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r)
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	back := fmt.Sprintf("/animals/%d", id)
	on, err := formDate(r, "bite_date")
	if err != nil {
		h.formError(w, r, back, err)
		return
	}
	b := &service.BiteIncident{AnimalID: id, Date: on, Victim: service.Victim(r.PostFormValue("victim")),
		SkinBroken: r.PostFormValue("skin_broken") == "on", Provoked: r.PostFormValue("provoked") == "on",
		Location: strings.TrimSpace(r.PostFormValue("location")), Notes: strings.TrimSpace(r.PostFormValue("notes"))}
	ctx, ch := h.changing(r, "bite.create", "bite", 0, fmt.Sprintf("animal %d", id))
	out, err := h.o.Incidents.RecordBite(ctx, b) // the quarantine it orders carries its own event
	if err != nil {
		h.formError(w, r, back, biteFormError(err))
		return
	}
	h.committed(r, ch, b.ID)
	msg := "Bite recorded."
	if q := out.Quarantine; q != nil {
		msg = fmt.Sprintf("Bite recorded. Quarantine at %s from %s to %s. %s", q.Place, q.Start, q.End, q.Notes)
	}
	if pr := out.Proposal; pr != nil {
		msg += " Proposed for review: " + pr.Message
	}
	seeOther(w, r, fmt.Sprintf("/animals/%d", id), msg)
}

// biteFormError names the bite form's date field in a refusal of the
// bite's "date" (a date in the future), so that the form shows it
// beside the date.
func biteFormError(err error) error {
	if service.ErrorField(err) != "date" {
		return err
	}
	return service.Invalidf("bite_date", "The bite date %s", strings.TrimPrefix(service.ErrorMessage(err), "date: "))
}

type complianceData struct {
	R *recordView
	C *incidents.Compliance
}

// handleCompliance shows a dangerous animal's requirements, each met,
// due, overdue or not applicable to its level, as the incidents layer
// evaluates the record today (Minn. Stat. 347.51, 347.515, Minneapolis
// 64.110, Chanhassen 5-77, 5-78).
func (h *Handler) handleCompliance(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r)
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	ctx := r.Context()
	_, a, err := h.animalRecord(ctx, id)
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	c, err := h.o.Incidents.Requirements(ctx, id, 0)
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	h.render(w, r, http.StatusOK, "compliance", "Dangerous-dog compliance", &view{Data: complianceData{R: h.recordView(r, a), C: c}})
}
