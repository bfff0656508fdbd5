package web

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/incidents"
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
	on, err := formDate(r, "bite_date")
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	b := &service.BiteIncident{AnimalID: id, Date: on, Victim: service.Victim(r.PostFormValue("victim")),
		SkinBroken: r.PostFormValue("skin_broken") == "on", Provoked: r.PostFormValue("provoked") == "on",
		Location: strings.TrimSpace(r.PostFormValue("location")), Notes: strings.TrimSpace(r.PostFormValue("notes"))}
	ctx, ch := h.changing(r, "bite.create", "bite", 0, fmt.Sprintf("animal %d", id))
	out, err := h.o.Incidents.RecordBite(ctx, b) // the quarantine it orders carries its own event
	if err != nil {
		h.failErr(w, r, err)
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
