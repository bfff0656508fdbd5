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
	m.HandleFunc("GET /permits/{id}", h.page(deskRoles, h.handlePermit))
	// The clerk's office grants and records the council's order, as in
	// the API; the desk records the rest.
	office := []service.Role{service.RoleIntake}
	for _, step := range []string{"inspection", "action", "appeal", "registration", "renew", "escape", "contacts", "restrictions"} {
		m.HandleFunc("POST /permits/{id}/"+step, h.page(deskRoles, h.handlePermitStep(step)))
	}
	for _, step := range []string{"grant", "appeal-order"} {
		m.HandleFunc("POST /permits/{id}/"+step, h.page(office, h.handlePermitStep(step)))
	}
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
	Apply, Agreement *permitForm
	// Conditions are a stable's conditions of issue to tick (5-104).
	Conditions []permitGround
}

var permitKinds = []string{"kennel", "stable", "off_leash", "multi_animal", "animal_business"}

// permitForm is a permit form shown again after a refusal or a typing
// error: the values as typed and each error beside its field. It is
// kept to these pages on purpose, small enough to be replaced by a
// shared mechanism.
type permitForm struct {
	values url.Values
	errors map[string]string
	// Message is the error no field of the form holds, shown above it.
	Message string
}

// Value is what was typed in the field name.
func (f *permitForm) Value(name string) string {
	if f == nil || f.values == nil {
		return ""
	}
	return f.values.Get(name)
}

// Checked reports whether the checkbox name was ticked.
func (f *permitForm) Checked(name string) bool { return f.Value(name) == "on" }

// Has reports whether v is among the values ticked in the field name.
func (f *permitForm) Has(name, v string) bool {
	return f != nil && slices.Contains(f.values[name], v)
}

// Selected reports whether option v of the field name was chosen.
func (f *permitForm) Selected(name, v string) bool { return f.Value(name) == v }

// Err is the error beside the field name, "" for none.
func (f *permitForm) Err(name string) string {
	if f == nil {
		return ""
	}
	return f.errors[name]
}

// Failed reports whether the form is shown again after an error.
func (f *permitForm) Failed() bool { return f != nil && (f.Message != "" || len(f.errors) > 0) }

// permitFormAgain is the form of r shown again with err beside the field
// it names. inputs are the form's field names; fields maps the layer's
// field names (the API's, "application.acres") to them where they
// differ.
func permitFormAgain(r *http.Request, err error, inputs []string, fields map[string]string) *permitForm {
	f := &permitForm{values: r.PostForm, errors: map[string]string{}}
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

// layerStatus is the HTTP status of a layer error (failErr's, and a form
// shown again's).
func layerStatus(err error) int { return service.HTTPStatus(service.ErrorCode(err)) }

// applyInputs are the fields of the application form; agreementInputs
// those of the adoption agreement; reportInputs those of the report form.
var (
	applyInputs = []string{"kind", "jurisdiction", "class", "holder", "address", "owner_id", "animal_id", "property", "acres", "animals",
		"rabies_verified", "licence_verified", "rules_signed", "issued",
		"premises_owner_name", "premises_owner_address", "lessee_name", "lessee_address", "operator_name", "operator_address",
		"ref1_name", "ref1_address", "ref1_county", "ref2_name", "ref2_address", "ref2_county", "convictions_declared", "conviction_offence",
		"conviction_on", "prior_denial_on", "prior_revocation_on", "contact_name", "contact_phone", "contact_address", "entity",
		"business_records", "interest_document", "sworn", "zoning_compliant", "species", "agricultural_land", "rodent_control",
		"conditions", "stabled_since", "horses_1975", "enclosure_enlarged", "subdivided_on", "discontinued_from", "discontinued_to",
		"activities", "vehicle", "applicant_residence", "health_approved", "council_authorised", "restrictions"}
	// applyFields names the form's field for each field of the layer
	// that the form spells differently.
	applyFields = map[string]string{"issued_on": "issued", "application.convictions": "conviction_offence",
		"application.premises_owner": "premises_owner_name", "application.references": "ref1_name", "application.contacts": "contact_name"}
	agreementInputs = []string{"jurisdiction", "animal_id", "adopter", "adopted", "born", "signed"}
	reportInputs    = []string{"jurisdiction", "kind", "reporter_role", "reporter_name", "reporter_address", "reporter_phone", "person_name",
		"person_address", "animal_id", "animal_description", "incident", "location", "skin_broken", "diagnosis", "notes"}
)

func (h *Handler) handlePermits(w http.ResponseWriter, r *http.Request) {
	h.showPermits(w, r, http.StatusOK, r.URL.Query().Get("kind"), &permitForm{}, &permitForm{})
}

// showPermits renders the permits of kind with the two forms.
func (h *Handler) showPermits(w http.ResponseWriter, r *http.Request, status int, kind string, apply, agreement *permitForm) {
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
	for _, c := range h.o.Permits.Conditions(service.PermitStable) {
		d.Conditions = append(d.Conditions, permitGround{c.Code, c.Text, c.Source})
	}
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

// permitDate reads a date from the field name; an error names it.
func permitDate(r *http.Request, name string) (service.Date, error) {
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
	if req.Issued, err = permitDate(r, "issued"); err != nil {
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
	if err := applicationContents(r, a); err != nil {
		return nil, err
	}
	return req, nil
}

// applicationContents reads what the kennel (5-18(b)), stable (5-102,
// 5-104, 5-88) and animal-business (68.10) parts of the form state.
func applicationContents(r *http.Request, a *service.PermitApplication) error {
	val := func(n string) string { return strings.TrimSpace(r.PostFormValue(n)) }
	on := func(n string) bool { return r.PostFormValue(n) == "on" }
	person := func(prefix string) *service.Person {
		if val(prefix+"_name") == "" {
			return nil
		}
		return &service.Person{Name: val(prefix + "_name"), Address: val(prefix + "_address"), Phone: val(prefix + "_phone")}
	}
	a.PremisesOwner, a.Lessee, a.Operator = person("premises_owner"), person("lessee"), person("operator")
	for _, ref := range []string{"ref1", "ref2"} {
		if p := person(ref); p != nil {
			a.References = append(a.References, service.Reference{Person: *p, County: val(ref + "_county")})
		}
	}
	if c := person("contact"); c != nil {
		a.Contacts = []service.Person{*c}
	}
	a.ConvictionsDeclared = on("convictions_declared")
	dates := map[string]*service.Date{"prior_denial_on": &a.PriorDenialOn, "prior_revocation_on": &a.PriorRevocationOn, "stabled_since": &a.StabledSince,
		"subdivided_on": &a.SubdividedOn, "discontinued_from": &a.DiscontinuedFrom, "discontinued_to": &a.DiscontinuedTo}
	for name, dst := range dates {
		d, err := permitDate(r, name)
		if err != nil {
			return err
		}
		*dst = d
	}
	if off := val("conviction_offence"); off != "" {
		when, err := permitDate(r, "conviction_on")
		if err != nil {
			return err
		}
		a.ConvictionsDeclared = true
		a.Convictions = []service.Conviction{{Offence: off, On: when}}
	}
	a.Entity, a.BusinessRecords, a.InterestDocument, a.Sworn = val("entity"), val("business_records"), val("interest_document"), on("sworn")
	switch val("zoning_compliant") {
	case "yes", "no":
		ok := val("zoning_compliant") == "yes"
		a.ZoningCompliant = &ok
	}
	a.Species, a.AgriculturalLand, a.RodentControl = val("species"), on("agricultural_land"), on("rodent_control")
	a.Conditions = r.PostForm["conditions"]
	n, err := formInt(r, "horses_1975")
	if err != nil {
		return err
	}
	a.Horses1975, a.EnclosureEnlarged = int(n), on("enclosure_enlarged")
	for _, act := range strings.Split(val("activities"), ",") {
		if act = strings.TrimSpace(act); act != "" {
			a.Activities = append(a.Activities, act)
		}
	}
	a.Vehicle, a.ApplicantResidence, a.HealthApproved, a.CouncilAuthorised = val("vehicle"), val("applicant_residence"), on("health_approved"), on("council_authorised")
	a.Restrictions = val("restrictions")
	return nil
}

// handleApplyPermit takes an application in. A refusal or a typing
// error shows the form again as typed, the error beside its field.
func (h *Handler) handleApplyPermit(w http.ResponseWriter, r *http.Request) {
	req, err := applyRequest(r)
	var p *service.Permit
	if err == nil {
		ctx, ch := h.changing(r, "permit.create", "permit", 0, string(req.Kind))
		p, err = h.o.Permits.Apply(ctx, req)
		if p != nil && p.ID != 0 {
			h.committed(r, ch, p.ID)
		}
	}
	if err != nil {
		if layerStatus(err) == http.StatusInternalServerError {
			h.failErr(w, r, err)
			return
		}
		h.showPermits(w, r, layerStatus(err), r.PostFormValue("kind"), permitFormAgain(r, err, applyInputs, applyFields), &permitForm{})
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
	ctx, ch := h.changing(r, "agreement.create", "adoption_agreement", 0, "")
	a, err := h.agree(r.WithContext(ctx))
	if err != nil {
		if layerStatus(err) == http.StatusInternalServerError {
			h.failErr(w, r, err)
			return
		}
		h.showPermits(w, r, layerStatus(err), "", &permitForm{}, permitFormAgain(r, err, agreementInputs, nil))
		return
	}
	h.committed(r, ch, a.ID)
	seeOther(w, r, "/permits", fmt.Sprintf("Agreement %d: sterilisation due %s (%s).", a.ID, a.DueOn, a.DueSource))
}

func (h *Handler) agree(r *http.Request) (*service.AdoptionAgreement, error) {
	id, err := formInt(r, "animal_id")
	if err != nil {
		return nil, err
	}
	req := &permits.AgreementRequest{AnimalID: id, Jurisdiction: r.PostFormValue("jurisdiction"), Adopter: r.PostFormValue("adopter"),
		Signed: r.PostFormValue("signed") == "on", Site: sess(r).site}
	if req.Adopted, err = permitDate(r, "adopted"); err != nil {
		return nil, err
	}
	if req.Born, err = permitDate(r, "born"); err != nil {
		return nil, err
	}
	return h.o.Permits.Agree(r.Context(), req)
}

// reportData is the report form, empty or as typed with its errors.
type reportData struct {
	CSRF  string
	Juris []lookup.Jurisdiction
	Form  *permitForm
}

func (h *Handler) handleReportForm(w http.ResponseWriter, r *http.Request) {
	h.showReportForm(w, r, http.StatusOK, &permitForm{})
}

func (h *Handler) showReportForm(w http.ResponseWriter, r *http.Request, status int, f *permitForm) {
	h.render(w, r, status, "report_form", "Bite and rabies-suspect reports", &view{Data: reportData{sess(r).csrf, h.o.Lookup.Jurisdictions(), f}})
}

// handleReport takes a 66.60 or 66.70 report in; an error shows the
// form again as typed, beside its field.
func (h *Handler) handleReport(w http.ResponseWriter, r *http.Request) {
	ctx, ch := h.changing(r, "report.create", "animal_report", 0, r.PostFormValue("kind"))
	rep, err := h.report(r.WithContext(ctx))
	if err != nil {
		if layerStatus(err) == http.StatusInternalServerError {
			h.failErr(w, r, err)
			return
		}
		h.showReportForm(w, r, layerStatus(err), permitFormAgain(r, err, reportInputs, map[string]string{"reporter.name": "reporter_name", "persons": "person_name",
			"date": "incident", "reported": "incident"}))
		return
	}
	h.committed(r, ch, rep.ID)
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
	if req.Incident, err = permitDate(r, "incident"); err != nil {
		return nil, err
	}
	if name := strings.TrimSpace(r.PostFormValue("person_name")); name != "" {
		req.Persons = []service.Person{{Name: name, Address: strings.TrimSpace(r.PostFormValue("person_address"))}}
	}
	return h.o.Permits.Report(r.Context(), req)
}

// permitPage is one permit with the forms of the steps open to it, each
// empty or, after a refusal, as typed with its error.
type permitPage struct {
	P       permitRow
	CSRF    string
	Grounds []permitGround
	Forms   map[string]*permitForm
}

// permitGround is a ground of revocation with its section.
type permitGround struct{ Code, Text, Source string }

// stepInputs are the fields of each step's form.
var stepInputs = map[string][]string{
	"inspection":   {"on", "passed", "fee_paid", "notes"},
	"grant":        {"on"},
	"action":       {"action", "ground", "on", "notice_on", "hearing_on", "notes"},
	"appeal":       {"on"},
	"appeal-order": {"order", "on", "conditions"},
	"registration": {"on"},
	"renew":        {"applied"},
	"escape":       {"on", "recovered_by_city", "recovery_cents", "notes"},
	"contacts":     {"contact_name", "contact_phone", "contact_address"},
	"restrictions": {"restrictions", "notice_on", "notes"},
}

func (h *Handler) handlePermit(w http.ResponseWriter, r *http.Request) {
	h.showPermit(w, r, http.StatusOK, "", nil)
}

// showPermit renders the permit of the path; failed, when not nil, is
// the form of step shown again.
func (h *Handler) showPermit(w http.ResponseWriter, r *http.Request, status int, step string, failed *permitForm) {
	id, err := pathID(r)
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	p, err := h.o.Permits.Get(r.Context(), id)
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	d := permitPage{P: permitRow{Permit: p}, CSRF: sess(r).csrf, Forms: map[string]*permitForm{}}
	if p.FeeCents != nil {
		d.P.FeeSet, d.P.Cents = true, *p.FeeCents
	}
	for _, g := range h.o.Permits.Grounds(p) {
		d.Grounds = append(d.Grounds, permitGround{g.Code, g.Text, g.Source})
	}
	for st := range stepInputs {
		d.Forms[st] = &permitForm{}
	}
	if failed != nil {
		d.Forms[step] = failed
	}
	h.render(w, r, status, "permit", fmt.Sprintf("Permit %d", p.ID), &view{Data: d})
}

// handlePermitStep records one step of a permit through service/permits;
// a refusal shows the permit again with the step's form as typed and the
// error beside its field.
func (h *Handler) handlePermitStep(step string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		id, err := pathID(r)
		if err != nil {
			h.failErr(w, r, err)
			return
		}
		ctx, ch := h.changing(r, "permit."+step, "permit", id, "")
		p, err := h.permitStep(r.WithContext(ctx), step, id)
		if p != nil && p.ID != 0 {
			h.committed(r, ch, p.ID)
		}
		if err != nil {
			if layerStatus(err) == http.StatusInternalServerError {
				h.failErr(w, r, err)
				return
			}
			h.showPermit(w, r, layerStatus(err), step, permitFormAgain(r, err, stepInputs[step], map[string]string{"contacts": "contact_name", "inspection": "passed"}))
			return
		}
		msg := fmt.Sprintf("Permit %d %s.", p.ID, p.Status)
		if len(p.Pending) > 0 {
			msg += " Still needed: " + strings.Join(p.Pending, "; ") + "."
		}
		seeOther(w, r, fmt.Sprintf("/permits/%d", p.ID), msg)
	}
}

func (h *Handler) permitStep(r *http.Request, step string, id int64) (*service.Permit, error) {
	ctx, ps := r.Context(), h.o.Permits
	on, err := permitDate(r, "on")
	if err != nil {
		return nil, err
	}
	notes := strings.TrimSpace(r.PostFormValue("notes"))
	switch step {
	case "inspection":
		return ps.Inspect(ctx, id, permits.Inspection{On: on, Passed: r.PostFormValue("passed") == "on", FeePaid: r.PostFormValue("fee_paid") == "on", Notes: notes})
	case "grant":
		return ps.Grant(ctx, id, on)
	case "action":
		a := permits.Action{Action: r.PostFormValue("action"), Ground: r.PostFormValue("ground"), On: on, Notes: notes}
		if a.NoticeOn, err = permitDate(r, "notice_on"); err != nil {
			return nil, err
		}
		if a.HearingOn, err = permitDate(r, "hearing_on"); err != nil {
			return nil, err
		}
		return ps.Act(ctx, id, a)
	case "appeal":
		return ps.Appeal(ctx, id, on)
	case "appeal-order":
		return ps.DecideAppeal(ctx, id, permits.AppealOrder{Order: r.PostFormValue("order"), On: on, Conditions: strings.TrimSpace(r.PostFormValue("conditions"))})
	case "registration":
		return ps.Register(ctx, id, on)
	case "renew":
		applied, err := permitDate(r, "applied")
		if err != nil {
			return nil, err
		}
		return ps.Renew(ctx, id, &permits.Request{Applied: applied, Site: sess(r).site})
	case "escape":
		e := service.HorseEscape{On: on, RecoveredByCity: r.PostFormValue("recovered_by_city") == "on", Notes: notes}
		if strings.TrimSpace(r.PostFormValue("recovery_cents")) != "" {
			c, err := formInt(r, "recovery_cents")
			if err != nil {
				return nil, err
			}
			e.RecoveryCents = &c
		}
		return ps.Escape(ctx, id, e)
	case "contacts":
		var cs []service.Person
		if name := strings.TrimSpace(r.PostFormValue("contact_name")); name != "" {
			cs = append(cs, service.Person{Name: name, Phone: strings.TrimSpace(r.PostFormValue("contact_phone")), Address: strings.TrimSpace(r.PostFormValue("contact_address"))})
		}
		return ps.ChangeContacts(ctx, id, cs)
	case "restrictions":
		noticeOn, err := permitDate(r, "notice_on")
		if err != nil {
			return nil, err
		}
		return ps.Modify(ctx, id, permits.Modification{Restrictions: r.PostFormValue("restrictions"), NoticeOn: noticeOn, Notes: notes})
	}
	return nil, service.Errorf(service.ENOTFOUND, "No such step %q.", step)
}
