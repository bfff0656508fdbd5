package web

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/lookup"
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
	// Apply and Agreement are the two forms, empty or as typed with
	// their errors after a refusal.
	Apply, Agreement *formState
}

var permitKinds = []string{"kennel", "stable", "off_leash", "multi_animal", "animal_business"}

// formState is a permit form shown again after a refusal or a typing
// error: the values as typed and each error beside its field. It is
// kept to these pages on purpose, small enough to be replaced by a
// shared mechanism.
type formState struct {
	values url.Values
	errors map[string]string
	// Message is the error no field of the form holds, shown above it.
	Message string
}

// Value is what was typed in the field name.
func (f *formState) Value(name string) string {
	if f == nil || f.values == nil {
		return ""
	}
	return f.values.Get(name)
}

// Checked reports whether the checkbox name was ticked.
func (f *formState) Checked(name string) bool { return f.Value(name) == "on" }

// Selected reports whether option v of the field name was chosen.
func (f *formState) Selected(name, v string) bool { return f.Value(name) == v }

// Err is the error beside the field name, "" for none.
func (f *formState) Err(name string) string {
	if f == nil {
		return ""
	}
	return f.errors[name]
}

// Failed reports whether the form is shown again after an error.
func (f *formState) Failed() bool { return f != nil && (f.Message != "" || len(f.errors) > 0) }

// refusedForm is the form of r shown again with err beside the field
// it names. inputs are the form's field names; fields maps the layer's
// field names (the API's, "application.acres") to them where they
// differ.
func refusedForm(r *http.Request, err error, inputs []string, fields map[string]string) *formState {
	f := &formState{values: r.PostForm, errors: map[string]string{}}
	name := service.ErrorField(err)
	if to, ok := fields[name]; ok {
		name = to
	}
	name = strings.TrimPrefix(name, "application.")
	if slices.Contains(inputs, name) {
		f.errors[name] = service.ErrorMessage(err)
	} else {
		f.Message = service.ErrorMessage(err)
	}
	return f
}

// statusOf is the HTTP status of a layer error.
func statusOf(err error) int {
	switch service.ErrorCode(err) {
	case service.EINVALID:
		return http.StatusBadRequest
	case service.ENOTFOUND:
		return http.StatusNotFound
	case service.ECONFLICT:
		return http.StatusConflict
	case service.EFORBIDDEN:
		return http.StatusForbidden
	}
	return http.StatusInternalServerError
}

// applyInputs are the fields of the application form; agreementInputs
// those of the adoption agreement; reportInputs those of the report form.
var (
	applyInputs = []string{"kind", "jurisdiction", "class", "holder", "address", "owner_id", "animal_id", "property", "acres", "animals",
		"rabies_verified", "licence_verified", "rules_signed", "issued"}
	agreementInputs = []string{"jurisdiction", "animal_id", "adopter", "adopted", "born", "signed"}
	reportInputs    = []string{"jurisdiction", "kind", "reporter_role", "reporter_name", "reporter_address", "reporter_phone", "person_name",
		"person_address", "animal_id", "animal_description", "incident", "location", "skin_broken", "diagnosis", "notes"}
)

func (h *Handler) handlePermits(w http.ResponseWriter, r *http.Request) {
	h.showPermits(w, r, http.StatusOK, r.URL.Query().Get("kind"), &formState{}, &formState{})
}

// showPermits renders the permits of kind with the two forms.
func (h *Handler) showPermits(w http.ResponseWriter, r *http.Request, status int, kind string, apply, agreement *formState) {
	if kind == "" {
		kind = "kennel"
	}
	list, total, err := h.o.Permits.List(r.Context(), service.PermitFilter{Kind: service.PermitKind(kind), Limit: 200})
	if err != nil {
		if !apply.Failed() {
			h.failErr(w, r, err)
			return
		}
		kind, list, total = "kennel", nil, 0 // an unknown kind typed: the form says so
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
	d := permitsData{Kind: kind, Kinds: permitKinds, Items: rows, Total: total, Juris: h.o.Lookup.Jurisdictions(), CSRF: sess(r).csrf, Agreed: ags,
		Apply: apply, Agreement: agreement}
	h.render(w, r, status, "permits", "Permits", &view{Data: d})
}

// formInt reads a whole number from the field name; an error names it.
func formInt(r *http.Request, name string) (int64, error) {
	v := strings.TrimSpace(r.PostFormValue(name))
	if v == "" {
		return 0, nil
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < 0 {
		return 0, service.Invalidf(name, "The %s must be a whole number.", strings.ReplaceAll(name, "_", " "))
	}
	return n, nil
}

// fieldDate reads a date from the field name; an error names it.
func fieldDate(r *http.Request, name string) (service.Date, error) {
	d, err := formDate(r, name)
	if err != nil {
		return 0, service.Invalidf(name, "%s", service.ErrorMessage(err))
	}
	return d, nil
}

// applyRequest reads the application form.
func applyRequest(r *http.Request) (*permits.Request, error) {
	req := &permits.Request{Kind: service.PermitKind(r.PostFormValue("kind")), Jurisdiction: r.PostFormValue("jurisdiction"),
		Class: strings.TrimSpace(r.PostFormValue("class")), Holder: r.PostFormValue("holder"), Address: strings.TrimSpace(r.PostFormValue("address")), Site: sess(r).site}
	var err error
	if req.Issued, err = fieldDate(r, "issued"); err != nil {
		return nil, err
	}
	if req.AnimalID, err = formInt(r, "animal_id"); err != nil {
		return nil, err
	}
	if req.OwnerID, err = formInt(r, "owner_id"); err != nil {
		return nil, err
	}
	n, err := formInt(r, "animals")
	if err != nil {
		return nil, err
	}
	a := &req.Application
	a.Animals, a.Property = int(n), strings.TrimSpace(r.PostFormValue("property"))
	a.RabiesVerified, a.LicenceVerified, a.RulesSigned = r.PostFormValue("rabies_verified") == "on", r.PostFormValue("licence_verified") == "on", r.PostFormValue("rules_signed") == "on"
	if acres := strings.TrimSpace(r.PostFormValue("acres")); acres != "" {
		if a.Acres, err = strconv.ParseFloat(acres, 64); err != nil || a.Acres < 0 {
			return nil, service.Invalidf("acres", "The acres must be a number, such as 2.5.")
		}
	}
	return req, nil
}

// handleApplyPermit takes an application in. A refusal or a typing
// error shows the form again as typed, the error beside its field.
func (h *Handler) handleApplyPermit(w http.ResponseWriter, r *http.Request) {
	req, err := applyRequest(r)
	var p *service.Permit
	if err == nil {
		p, err = h.o.Permits.Apply(r.Context(), req)
		if p != nil && p.ID != 0 {
			h.audit(r, "permit.create", "permit", p.ID, string(p.Kind)+" "+string(p.State))
		}
	}
	if err != nil {
		if statusOf(err) == http.StatusInternalServerError {
			h.failErr(w, r, err)
			return
		}
		h.showPermits(w, r, statusOf(err), r.PostFormValue("kind"), refusedForm(r, err, applyInputs, map[string]string{"issued_on": "issued"}), &formState{})
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

// handleAgreement records a shelter adoption's sterilisation agreement;
// an error shows the form again as typed, beside its field.
func (h *Handler) handleAgreement(w http.ResponseWriter, r *http.Request) {
	a, err := h.agree(r)
	if err != nil {
		if statusOf(err) == http.StatusInternalServerError {
			h.failErr(w, r, err)
			return
		}
		h.showPermits(w, r, statusOf(err), "", &formState{}, refusedForm(r, err, agreementInputs, nil))
		return
	}
	h.audit(r, "agreement.create", "adoption_agreement", a.ID, "")
	seeOther(w, r, "/permits", fmt.Sprintf("Agreement %d: sterilisation due %s (%s).", a.ID, a.DueOn, a.DueSource))
}

func (h *Handler) agree(r *http.Request) (*service.AdoptionAgreement, error) {
	id, err := formInt(r, "animal_id")
	if err != nil {
		return nil, err
	}
	req := &permits.AgreementRequest{AnimalID: id, Jurisdiction: r.PostFormValue("jurisdiction"), Adopter: r.PostFormValue("adopter"),
		Signed: r.PostFormValue("signed") == "on", Site: sess(r).site}
	if req.Adopted, err = fieldDate(r, "adopted"); err != nil {
		return nil, err
	}
	if req.Born, err = fieldDate(r, "born"); err != nil {
		return nil, err
	}
	return h.o.Permits.Agree(r.Context(), req)
}

// reportData is the report form, empty or as typed with its errors.
type reportData struct {
	CSRF  string
	Juris []lookup.Jurisdiction
	Form  *formState
}

func (h *Handler) handleReportForm(w http.ResponseWriter, r *http.Request) {
	h.showReportForm(w, r, http.StatusOK, &formState{})
}

func (h *Handler) showReportForm(w http.ResponseWriter, r *http.Request, status int, f *formState) {
	h.render(w, r, status, "report_form", "Bite and rabies-suspect reports", &view{Data: reportData{sess(r).csrf, h.o.Lookup.Jurisdictions(), f}})
}

// handleReport takes a 66.60 or 66.70 report in; an error shows the
// form again as typed, beside its field.
func (h *Handler) handleReport(w http.ResponseWriter, r *http.Request) {
	rep, err := h.report(r)
	if err != nil {
		if statusOf(err) == http.StatusInternalServerError {
			h.failErr(w, r, err)
			return
		}
		h.showReportForm(w, r, statusOf(err), refusedForm(r, err, reportInputs, map[string]string{"reporter.name": "reporter_name", "persons": "person_name",
			"date": "incident", "reported": "incident"}))
		return
	}
	h.audit(r, "report.create", "animal_report", rep.ID, string(rep.Kind))
	seeOther(w, r, "/reports/new", fmt.Sprintf("Report %d taken in; it is on the officer's list.", rep.ID))
}

func (h *Handler) report(r *http.Request) (*service.AnimalReport, error) {
	req := &permits.ReportRequest{Kind: service.AnimalReportKind(r.PostFormValue("kind")), Jurisdiction: r.PostFormValue("jurisdiction"),
		ReporterRole: r.PostFormValue("reporter_role"), AnimalDescription: strings.TrimSpace(r.PostFormValue("animal_description")),
		Location: strings.TrimSpace(r.PostFormValue("location")), Diagnosis: strings.TrimSpace(r.PostFormValue("diagnosis")),
		Notes: strings.TrimSpace(r.PostFormValue("notes")), SkinBroken: r.PostFormValue("skin_broken") == "on", Site: sess(r).site,
		Reporter: service.Person{Name: strings.TrimSpace(r.PostFormValue("reporter_name")), Address: strings.TrimSpace(r.PostFormValue("reporter_address")),
			Phone: strings.TrimSpace(r.PostFormValue("reporter_phone"))}}
	var err error
	if req.AnimalID, err = formInt(r, "animal_id"); err != nil {
		return nil, err
	}
	if req.Incident, err = fieldDate(r, "incident"); err != nil {
		return nil, err
	}
	if name := strings.TrimSpace(r.PostFormValue("person_name")); name != "" {
		req.Persons = []service.Person{{Name: name, Address: strings.TrimSpace(r.PostFormValue("person_address"))}}
	}
	return h.o.Permits.Report(r.Context(), req)
}
