package web

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/licensing"
	"github.com/chipdesk/chipdesk/service/lookup"
	"github.com/chipdesk/chipdesk/tags"
)

// handleClinic is the clinic counter's start: find the animal.
func (h *Handler) handleClinic(w http.ResponseWriter, r *http.Request) {
	h.searchPage(w, r, "clinic", "Clinic counter", searchData{}, "/animals/%d/licence")
}

type licenceFormData struct {
	R            *recordView
	Animal       *service.Animal
	Jurisdiction string
	Issuer       service.Issuer
	Clinic       string
	// Sale is the sale today as licensing.Sale gives it: a renewal of
	// the licence in force (Sale.Renews) with the term it would start,
	// the fee lines, and whether the certificate must be entered.
	Sale   *licensing.Sale
	Quote  *licensing.Quote
	Rabies *service.RabiesVaccination
	// Form is what was typed when the sale was refused; Errs the
	// refusal's message by form field (licenceFields).
	Form url.Values
	Errs map[string]string
	Err  string
}

func issuerOf(r *http.Request, role service.Role) service.Issuer {
	switch service.Issuer(r.FormValue("issued_by")) {
	case service.IssuerClinic:
		return service.IssuerClinic
	case service.IssuerOffice:
		return service.IssuerOffice
	}
	if role == service.RoleClinic {
		return service.IssuerClinic
	}
	return service.IssuerOffice
}

// handleLicenceForm shows the licence sale: the fee and term from the
// rules for today, a warning with the next term when a licence is still
// in force, and the rabies certificate to enter.
func (h *Handler) handleLicenceForm(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r)
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	d, err := h.licenceForm(r, id)
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	h.render(w, r, http.StatusOK, "licence_form", "Issue or renew a licence", &view{Data: d})
}

func (h *Handler) licenceForm(r *http.Request, id int64) (*licenceFormData, error) {
	rec, a, err := h.animalRecord(r.Context(), id)
	if err != nil {
		return nil, err
	}
	j := r.FormValue("jurisdiction")
	if j == "" && len(rec.Licences) > 0 {
		j = rec.Licences[0].Jurisdiction
	}
	jid, err := h.jurisdiction(j)
	if err != nil {
		return nil, err
	}
	ss := sess(r)
	d := &licenceFormData{R: h.recordView(r, a), Animal: &rec.Animal, Jurisdiction: jid, Issuer: issuerOf(r, ss.role),
		Clinic: ss.site, Rabies: rec.Rabies, Form: url.Values{}, Errs: map[string]string{}}
	if d.Sale, _, err = h.o.Licensing.Sale(r.Context(), id, jid, d.Issuer); err != nil {
		return nil, err
	}
	d.Quote = d.Sale.Quote
	return d, nil
}

// licenceFields maps the fields the licensing layer names in a refusal
// to the form's fields.
var licenceFields = map[string]string{
	"date": "rabies_date", "rabies_date": "rabies_date", "certificate": "rabies_certificate", "veterinarian": "rabies_vet",
	"fee_cents": "fee", "fee": "fee", "clinic": "clinic", "issued_by": "issued_by", "confirm_renewal": "confirm_renewal",
}

// refuseLicence shows the form again with what was typed and the
// refusal beside its field (400, or the refusal's status).
func (h *Handler) refuseLicence(w http.ResponseWriter, r *http.Request, id int64, cause error) {
	d, err := h.licenceForm(r, id)
	if err != nil || service.ErrorCode(cause) == service.EINTERNAL || service.ErrorCode(cause) == "" {
		h.failErr(w, r, cause)
		return
	}
	d.Form = r.PostForm
	if f, ok := licenceFields[service.ErrorField(cause)]; ok {
		d.Errs[f] = service.ErrorMessage(cause)
	} else {
		d.Err = service.ErrorMessage(cause)
	}
	status := http.StatusBadRequest
	if service.ErrorCode(cause) == service.ECONFLICT {
		status = http.StatusConflict
	}
	h.render(w, r, status, "licence_form", "Issue or renew a licence", &view{Data: d, Error: "The licence was not issued: " + service.ErrorMessage(cause)})
}

// handleIssueLicence issues (or renews) a licence through
// licensing.Issue or licensing.Renew: the rabies certificate entered is
// stored with the licence in one transaction, its number and
// veterinarian required where the law asks for the certificate
// (Chanhassen 5-37(b), Minneapolis 66.10-66.25); the fee, the expiry and
// the clinic's pay come from the rules (Minneapolis 64.30, Chanhassen
// 5-51) and the store assigns the next tag number of the year. A fee the
// ordinance leaves to the city's fee resolution is typed in. A renewal
// of a licence still in force (the form's "renews") needs the clerk's
// confirmation that the owner pays now for the next term.
func (h *Handler) handleIssueLicence(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r)
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	ctx := r.Context()
	var vdate service.Date
	if s := strings.TrimSpace(r.PostFormValue("rabies_date")); s != "" {
		if vdate, err = service.ParseDate(s); err != nil {
			h.refuseLicence(w, r, id, service.Invalidf("rabies_date", "The vaccination date must be a date, like 2026-06-01."))
			return
		}
	}
	ss := sess(r)
	req := &licensing.LicenceRequest{AnimalID: id, Jurisdiction: r.PostFormValue("jurisdiction"), IssuedBy: issuerOf(r, ss.role),
		Seller: ss.seller()}
	if req.Jurisdiction == "" {
		req.Jurisdiction = h.o.Jurisdiction
	}
	if req.IssuedBy == service.IssuerClinic {
		req.Clinic = strings.TrimSpace(r.PostFormValue("clinic"))
		if req.Clinic == "" {
			req.Clinic = ss.site
		}
	}
	if !vdate.IsZero() {
		months, _ := strconv.Atoi(strings.TrimSpace(r.PostFormValue("rabies_months")))
		req.Vaccination = &service.RabiesVaccination{AnimalID: id, Date: vdate, Type: service.VaccineType(r.PostFormValue("rabies_type")),
			DurationMonths: months, Certificate: strings.TrimSpace(r.PostFormValue("rabies_certificate")),
			Veterinarian: strings.TrimSpace(r.PostFormValue("rabies_vet")), RabiesTag: strings.TrimSpace(r.PostFormValue("rabies_tag"))}
	}
	if fee := strings.TrimSpace(r.PostFormValue("fee")); fee != "" {
		c, err := licensing.ParseMoney(fee)
		if err != nil {
			h.refuseLicence(w, r, id, err)
			return
		}
		req.FeeCents = &c
	}
	var l *licensing.IssuedLicence
	renews, _ := strconv.ParseInt(r.PostFormValue("renews"), 10, 64)
	if renews > 0 && r.PostFormValue("confirm_renewal") == "" {
		h.refuseLicence(w, r, id, service.Invalidf("confirm_renewal", "The licence is still current: tick the box to confirm the owner pays now for the next term."))
		return
	}
	action, detail := "licence.create", fmt.Sprintf("animal %d %s", id, req.Jurisdiction)
	if renews > 0 {
		action, detail = "licence.renew", "renews licence "+strconv.FormatInt(renews, 10)
	}
	ctx, ch := h.changing(r, action, "licence", 0, detail)
	if v := req.Vaccination; v != nil { // stored in the licence's transaction
		ch.And("vaccination.create", "vaccination", 0, fmt.Sprintf("animal %d certificate %s", id, v.Certificate))
	}
	if renews > 0 {
		l, err = h.o.Licensing.Renew(ctx, renews, &licensing.RenewRequest{IssuedBy: req.IssuedBy, Clinic: req.Clinic, FeeCents: req.FeeCents,
			Vaccination: req.Vaccination, Seller: req.Seller})
	} else {
		l, err = h.o.Licensing.Issue(ctx, req)
	}
	if err != nil {
		h.refuseLicence(w, r, id, err)
		return
	}
	h.committed(r, ch, l.ID)
	msg := fmt.Sprintf("Licence issued: tag %d of %d, %s to %s, fee %s.", l.TagNumber, l.Year, l.Issued, l.Expires, licensing.Money(l.FeeCents))
	for _, w := range l.Warnings {
		msg += " " + w
	}
	seeOther(w, r, fmt.Sprintf("/licences/%d", l.ID), msg)
}

type licenceData struct {
	L      *service.Licence
	Animal *service.Animal
	CSRF   string
	TagErr string
	// NotApproved says why no job can be queued yet: the design awaits
	// approval.
	NotApproved string
	Jobs        []*service.Job
	Duplicate   map[service.ReplaceReason]*licensing.Breakdown
	Reasons     []service.ReplaceReason
}

func (h *Handler) licenceData(r *http.Request) (*licenceData, error) {
	ctx := r.Context()
	l, err := h.pathLicence(r)
	if err != nil {
		return nil, err
	}
	a, err := h.o.Store.FindAnimalByID(ctx, l.AnimalID)
	if err != nil {
		return nil, err
	}
	d := &licenceData{L: l, Animal: a, CSRF: sess(r).csrf,
		Reasons: []service.ReplaceReason{service.TagLost, service.TagStolen}, Duplicate: map[service.ReplaceReason]*licensing.Breakdown{}}
	if _, err := h.o.Jobs.LicenceTag(ctx, l); err != nil {
		d.TagErr = err.Error()
	} else if err := h.designApproved(ctx, l); service.ErrorCode(err) == service.ECONFLICT {
		d.NotApproved = service.ErrorMessage(err)
	} else if err != nil {
		return nil, err
	}
	if d.Jobs, _, err = h.o.Store.FindJobs(ctx, service.JobFilter{LicenceID: &l.ID, Limit: 20}); err != nil {
		return nil, err
	}
	for _, reason := range d.Reasons {
		if b, err := h.o.Licensing.DuplicateQuote(l, reason); err == nil {
			d.Duplicate[reason] = b
		}
	}
	return d, nil
}

// handleLicence shows an issued licence: its tag preview, the print and
// engrave buttons with the jobs' states, and the duplicate tag form.
func (h *Handler) handleLicence(w http.ResponseWriter, r *http.Request) {
	d, err := h.licenceData(r)
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	h.render(w, r, http.StatusOK, "licence", fmt.Sprintf("Licence %d/%d", d.L.Year, d.L.TagNumber), &view{Data: d})
}

// handleLicenceJobs is the jobs table alone, which the licence page
// refreshes while a job is on its way.
func (h *Handler) handleLicenceJobs(w http.ResponseWriter, r *http.Request) {
	d, err := h.licenceData(r)
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	if err := h.pages["fragments"].ExecuteTemplate(w, "jobs", d); err != nil {
		h.o.Logger.Error("web: jobs", "err", err)
	}
}

// handleLicenceTag is the tag of a licence as SVG, drawn by package tags.
func (h *Handler) handleLicenceTag(w http.ResponseWriter, r *http.Request) {
	l, err := h.pathLicence(r)
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	tag, err := h.o.Jobs.LicenceTag(r.Context(), l)
	if err != nil {
		h.failErr(w, r, service.Errorf(service.ENOTFOUND, "No tag design for this licence."))
		return
	}
	h.writeSVG(w, r, tag)
}

// writeSVG draws tag as SVG (package tags).
func (h *Handler) writeSVG(w http.ResponseWriter, r *http.Request, tag *tags.Tag) {
	var b bytes.Buffer
	if err := h.o.Renderer.SVG(&b, tag); err != nil {
		h.failErr(w, r, err)
		return
	}
	out := b.Bytes()
	if h.devKeys() {
		// Marked across the tag, so no preview made with the public keys
		// passes for a real tag.
		w.Header().Set("X-Chipdesk-Keys", "development")
		mark := `<text x="50%" y="50%" text-anchor="middle" dominant-baseline="middle" font-family="sans-serif" font-size="10" fill="#d00" stroke="#fff" stroke-width="0.3" transform-origin="center" id="dev-keys">DEVELOPMENT KEYS</text>` + "\n</svg>"
		if i := bytes.LastIndex(out, []byte("</svg>")); i >= 0 {
			out = append(out[:i:i], mark+"\n"...)
		}
	}
	w.Header().Set("Content-Type", "image/svg+xml")
	w.Header().Set("Cache-Control", "private, max-age=300")
	w.Write(out)
}

// handleCreateJob queues a print or engrave job for the licence's tag
// (jobs.Orders.Queue: one job per licence, so a double click or a second
// device finds the first; refused until an admin approved the year's
// design).
func (h *Handler) handleCreateJob(w http.ResponseWriter, r *http.Request) {
	l, err := h.pathLicence(r)
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	id := l.ID
	kind := service.JobKind(r.PostFormValue("kind"))
	ctx, ch := h.changing(r, "job.create", "job", 0, fmt.Sprintf("licence %d %s", id, kind))
	j, created, err := h.o.Jobs.Queue(ctx, id, kind)
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	msg := fmt.Sprintf("%s job %d is %s.", title(string(j.Kind)), j.ID, j.State)
	if created {
		h.committed(r, ch, j.ID)
		h.wake()
		msg = fmt.Sprintf("%s job %d queued.", title(string(kind)), j.ID)
	}
	seeOther(w, r, fmt.Sprintf("/licences/%d", id), msg)
}

// handleReprint queues a failed job again; it makes the same tag number
// (jobs.Orders.Reprint).
func (h *Handler) handleReprint(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r)
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	ctx, ch := h.changing(r, "job.reprint", "job", id, "")
	j, err := h.o.Jobs.Reprint(ctx, id)
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	h.committed(r, ch, j.ID)
	h.wake()
	seeOther(w, r, fmt.Sprintf("/licences/%d", j.LicenceID), fmt.Sprintf("Job %d queued again.", j.ID))
}

func (h *Handler) wake() {
	if h.o.Wake != nil {
		h.o.Wake()
	}
}

func title(s string) string { return funcs["title"].(func(string) string)(s) }

// handleDuplicate issues a duplicate tag for a lost or stolen one
// (Minneapolis 64.40) through licensing.Duplicate: a new licence with a
// new tag number, same term and licence fee, the duplicate fee recorded
// as such; the old one is marked replaced.
func (h *Handler) handleDuplicate(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r)
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	ss := sess(r)
	reason := service.ReplaceReason(r.PostFormValue("reason"))
	ctx, ch := h.changing(r, "licence.duplicate", "licence", 0, fmt.Sprintf("replaces %d (%s)", id, reason))
	l, err := h.o.Licensing.Duplicate(ctx, id, &licensing.DuplicateRequest{Reason: reason, Seller: ss.seller()})
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	h.committed(r, ch, l.ID)
	fee := licensing.Money(l.DuplicateFeeCents)
	seeOther(w, r, fmt.Sprintf("/licences/%d", l.ID),
		fmt.Sprintf("Duplicate tag %d issued for the %s tag of licence %d, fee %s.", l.TagNumber, reason, id, fee))
}

// pathLicence finds the licence whose id the path names.
func (h *Handler) pathLicence(r *http.Request) (*service.Licence, error) {
	id, err := pathID(r)
	if err != nil {
		return nil, err
	}
	return h.o.Store.FindLicenceByID(r.Context(), id)
}

// animalRecord gives the record of animal id and the lookup's answer
// for it, which the record view draws.
func (h *Handler) animalRecord(ctx context.Context, id int64) (*service.Record, *lookup.Answer, error) {
	rec, err := h.o.Store.FindRecordByAnimal(ctx, id)
	if err != nil {
		return nil, nil, err
	}
	a, err := h.o.Lookup.ByAnimal(ctx, id)
	if err != nil {
		return nil, nil, err
	}
	return rec, a, nil
}

// seller is the signed-in person as the licensing layer knows a seller:
// a clinic sells in its own name (Minneapolis 64.30).
func (ss *session) seller() *licensing.Seller {
	return &licensing.Seller{ID: ss.tokenID, Name: ss.name, Role: ss.role, Site: ss.site}
}
