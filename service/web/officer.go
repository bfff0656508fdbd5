package web

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/rules"
)

// handleOfficer is the officer's lookup: type or scan (a keyboard-wedge
// reader types into the focused box) a chip, a tag, an owner or an
// address.
func (h *Handler) handleOfficer(w http.ResponseWriter, r *http.Request) {
	var d searchData
	if h.o.Hub != nil {
		d.Reader = r.URL.Query().Get("reader")
	}
	h.searchPage(w, r, "officer", "Officer", d, "")
}

// handleBite records a bite; lookup.RecordBite starts the quarantine the
// rules require when a person was bitten (Minneapolis 66.40, Chanhassen
// 5-39(a)), its length and place from the profile's bite rule and the
// animal's rabies status.
func (h *Handler) handleBite(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r)
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	on, err := formDate(r, "bite_date")
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	if on.IsZero() {
		p, _ := h.profile("")
		on = h.today(p)
	}
	b := &service.BiteIncident{AnimalID: id, Date: on, Victim: service.Victim(r.PostFormValue("victim")),
		SkinBroken: r.PostFormValue("skin_broken") == "on", Provoked: r.PostFormValue("provoked") == "on",
		Location: strings.TrimSpace(r.PostFormValue("location")), Notes: strings.TrimSpace(r.PostFormValue("notes"))}
	if b.Victim != service.VictimPerson && b.Victim != service.VictimAnimal {
		h.failErr(w, r, service.Errorf(service.EINVALID, "Say whether a person or an animal was bitten."))
		return
	}
	q, err := h.o.Lookup.RecordBite(r.Context(), b)
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	h.audit(r, "bite.create", "bite", b.ID, fmt.Sprintf("animal %d", id))
	msg := "Bite recorded."
	if q != nil {
		h.audit(r, "quarantine.create", "quarantine", q.ID, fmt.Sprintf("animal %d until %s at %s", id, q.End, q.Place))
		msg = fmt.Sprintf("Bite recorded. Quarantine at %s from %s to %s. %s", q.Place, q.Start, q.End, q.Notes)
	}
	seeOther(w, r, fmt.Sprintf("/animals/%d", id), msg)
}

type complianceData struct {
	R         *recordView
	Level     service.DangerLevel
	Declared  service.Date
	Deadlines []rules.Deadline
	Restrict  []rules.Cited[string]
}

// handleCompliance shows a dangerous animal's requirements, each met,
// due or missed, as the rules evaluate the record today (Minn. Stat.
// 347.51, Minneapolis 64.110, Chanhassen 5-77, 5-78).
func (h *Handler) handleCompliance(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r)
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	ctx := r.Context()
	rec, a, err := h.animalRecord(ctx, id)
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	d := complianceData{R: h.recordView(r, a)}
	if rec.Dangerous != nil {
		p, err := h.profile(rec.Dangerous.Jurisdiction)
		if err != nil {
			h.failErr(w, r, err)
			return
		}
		ev := p.Evaluate(rec, h.today(p))
		d.Level, d.Declared, d.Deadlines, d.Restrict = rec.Dangerous.Level, rec.Dangerous.DeclaredOn, ev.Deadlines, ev.Restrictions
	}
	h.render(w, r, http.StatusOK, "compliance", "Dangerous-dog compliance", &view{Data: d})
}
