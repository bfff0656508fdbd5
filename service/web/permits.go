package web

import (
	"fmt"
	"github.com/chipdesk/chipdesk/service/lookup"
	"net/http"
	"strconv"
	"strings"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/permits"
)

// permitRoutes are the permit desk pages: the permits of a kind with an
// application form, the officer's list, sterilisation agreements and the
// bite and rabies-suspect report form. service/permits decides; these
// pages parse the form, call and show.
func (h *Handler) permitRoutes() {
	if h.o.Permits == nil {
		return
	}
	m := h.mux
	m.HandleFunc("GET /permits", h.page(deskRoles, h.handlePermits))
	m.HandleFunc("POST /permits", h.page(deskRoles, h.handleApplyPermit))
	m.HandleFunc("GET /permits/due", h.page(deskRoles, h.handlePermitsDue))
	m.HandleFunc("POST /adoption-agreements", h.page(deskRoles, h.handleAgreement))
	m.HandleFunc("GET /reports/new", h.page(staffRoles, h.handleReportForm))
	m.HandleFunc("POST /reports", h.page(staffRoles, h.handleReport))
}

// permitRow is a permit with its fee ready to show.
type permitRow struct {
	*service.Permit
	FeeSet bool
	Cents  int64
}

type permitsData struct {
	Kind   string
	Kinds  []string
	Items  []permitRow
	Total  int
	Juris  []lookup.Jurisdiction
	CSRF   string
	Agreed []permits.AgreementView
}

var permitKinds = []string{"kennel", "stable", "off_leash", "multi_animal", "animal_business"}

func (h *Handler) handlePermits(w http.ResponseWriter, r *http.Request) {
	kind := r.URL.Query().Get("kind")
	if kind == "" {
		kind = "kennel"
	}
	list, total, err := h.o.Permits.List(r.Context(), service.PermitFilter{Kind: service.PermitKind(kind), Limit: 200})
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	ags, err := h.o.Permits.Agreements(r.Context(), true, 0)
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	rows := make([]permitRow, len(list))
	for i, p := range list {
		rows[i].Permit = p
		if p.FeeCents != nil {
			rows[i].FeeSet, rows[i].Cents = true, *p.FeeCents
		}
	}
	d := permitsData{Kind: kind, Kinds: permitKinds, Items: rows, Total: total, Juris: h.o.Lookup.Jurisdictions(), CSRF: sess(r).csrf, Agreed: ags}
	h.render(w, r, http.StatusOK, "permits", "Permits", &view{Data: d})
}

func formInt(r *http.Request, name string) (int64, error) {
	v := strings.TrimSpace(r.PostFormValue(name))
	if v == "" {
		return 0, nil
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < 0 {
		return 0, service.Errorf(service.EINVALID, "The %s must be a number.", strings.ReplaceAll(name, "_", " "))
	}
	return n, nil
}

func (h *Handler) handleApplyPermit(w http.ResponseWriter, r *http.Request) {
	req := &permits.Request{Kind: service.PermitKind(r.PostFormValue("kind")), Jurisdiction: r.PostFormValue("jurisdiction"),
		Class: r.PostFormValue("class"), Holder: r.PostFormValue("holder"), Address: strings.TrimSpace(r.PostFormValue("address")), Site: sess(r).site}
	var err error
	if req.Issued, err = formDate(r, "issued"); err != nil {
		h.failErr(w, r, err)
		return
	}
	if req.AnimalID, err = formInt(r, "animal_id"); err != nil {
		h.failErr(w, r, err)
		return
	}
	if req.OwnerID, err = formInt(r, "owner_id"); err != nil {
		h.failErr(w, r, err)
		return
	}
	n, err := formInt(r, "animals")
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	a := &req.Application
	a.Animals, a.Property = int(n), strings.TrimSpace(r.PostFormValue("property"))
	a.RabiesVerified, a.LicenceVerified, a.RulesSigned = r.PostFormValue("rabies_verified") == "on", r.PostFormValue("licence_verified") == "on", r.PostFormValue("rules_signed") == "on"
	if acres := strings.TrimSpace(r.PostFormValue("acres")); acres != "" {
		if a.Acres, err = strconv.ParseFloat(acres, 64); err != nil || a.Acres < 0 {
			h.failErr(w, r, service.Errorf(service.EINVALID, "The acres must be a number."))
			return
		}
	}
	ctx, ch := h.changing(r, "permit.create", "permit", 0, string(req.Kind))
	p, err := h.o.Permits.Apply(ctx, req)
	if p != nil && p.ID != 0 {
		h.committed(r, ch, p.ID)
	}
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	msg := fmt.Sprintf("Permit %d %s.", p.ID, p.State)
	if len(p.Pending) > 0 {
		msg += " Before grant: " + strings.Join(p.Pending, "; ") + "."
	}
	seeOther(w, r, "/permits?kind="+string(p.Kind), msg)
}

func (h *Handler) handlePermitsDue(w http.ResponseWriter, r *http.Request) {
	items, err := h.o.Permits.Due(r.Context())
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	h.render(w, r, http.StatusOK, "permits_due", "Officer's list", &view{Data: items})
}

func (h *Handler) handleAgreement(w http.ResponseWriter, r *http.Request) {
	id, err := formInt(r, "animal_id")
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	req := &permits.AgreementRequest{AnimalID: id, Jurisdiction: r.PostFormValue("jurisdiction"), Adopter: r.PostFormValue("adopter"),
		Signed: r.PostFormValue("signed") == "on", Site: sess(r).site}
	if req.Adopted, err = formDate(r, "adopted"); err != nil {
		h.failErr(w, r, err)
		return
	}
	ctx, ch := h.changing(r, "agreement.create", "adoption_agreement", 0, "")
	a, err := h.o.Permits.Agree(ctx, req)
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	h.committed(r, ch, a.ID)
	seeOther(w, r, "/permits", fmt.Sprintf("Agreement %d: sterilisation due %s (%s).", a.ID, a.DueOn, a.DueSource))
}

func (h *Handler) handleReportForm(w http.ResponseWriter, r *http.Request) {
	h.render(w, r, http.StatusOK, "report_form", "Bite and rabies-suspect reports", &view{Data: struct {
		CSRF  string
		Juris []lookup.Jurisdiction
	}{sess(r).csrf, h.o.Lookup.Jurisdictions()}})
}

func (h *Handler) handleReport(w http.ResponseWriter, r *http.Request) {
	req := &permits.ReportRequest{Kind: service.AnimalReportKind(r.PostFormValue("kind")), Jurisdiction: r.PostFormValue("jurisdiction"),
		ReporterRole: r.PostFormValue("reporter_role"), AnimalDescription: strings.TrimSpace(r.PostFormValue("animal_description")),
		Location: strings.TrimSpace(r.PostFormValue("location")), Diagnosis: strings.TrimSpace(r.PostFormValue("diagnosis")),
		Notes: strings.TrimSpace(r.PostFormValue("notes")), SkinBroken: r.PostFormValue("skin_broken") == "on", Site: sess(r).site,
		Reporter: service.Person{Name: strings.TrimSpace(r.PostFormValue("reporter_name")), Address: strings.TrimSpace(r.PostFormValue("reporter_address")),
			Phone: strings.TrimSpace(r.PostFormValue("reporter_phone"))}}
	var err error
	if req.AnimalID, err = formInt(r, "animal_id"); err != nil {
		h.failErr(w, r, err)
		return
	}
	if req.Incident, err = formDate(r, "incident"); err != nil {
		h.failErr(w, r, err)
		return
	}
	if name := strings.TrimSpace(r.PostFormValue("person_name")); name != "" {
		req.Persons = []service.Person{{Name: name, Address: strings.TrimSpace(r.PostFormValue("person_address"))}}
	}
	ctx, ch := h.changing(r, "report.create", "animal_report", 0, string(req.Kind))
	rep, err := h.o.Permits.Report(ctx, req)
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	h.committed(r, ch, rep.ID)
	seeOther(w, r, "/reports/new", fmt.Sprintf("Report %d taken in; it is on the officer's list.", rep.ID))
}
