package web

import (
	"fmt"
	"net/http"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/custody"
	"github.com/chipdesk/chipdesk/service/licensing"
	"github.com/chipdesk/chipdesk/service/lookup"
)

// The documents a person prints from the browser (the print stylesheet
// in static/app.css leaves the document alone on the page): the licence
// receipt (Chanhassen 5-55(c): a duplicate tag is issued on showing
// it), the notice of impounding to the owner (5-73(a), Minneapolis
// 62.40), the redemption receipt with its fee lines, and the kennel
// card. Every figure and date on them comes from the application layer.

func (h *Handler) documentRoutes(m *http.ServeMux) {
	m.HandleFunc("GET /licences/{id}/receipt", h.page(counterRoles, h.handleLicenceReceipt))
	m.HandleFunc("GET /impoundments/{id}/notice", h.page(deskRoles, h.handleImpoundNotice))
	m.HandleFunc("GET /impoundments/{id}/receipt", h.page(deskRoles, h.handleRedemptionReceipt))
	m.HandleFunc("GET /impoundments/{id}/kennel-card", h.page(deskRoles, h.handleKennelCard))
}

type licenceReceipt struct {
	L      *service.Licence
	A      *lookup.Answer
	Rabies *service.RabiesVaccination
	// Duplicate is the duplicate fee of a lost tag with its section,
	// which the receipt names (5-55(c), 64.40).
	Duplicate *licensing.Breakdown
	Site      string
	Printed   service.Date
}

// handleLicenceReceipt is the receipt of a licence sale.
func (h *Handler) handleLicenceReceipt(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	l, err := h.pathLicence(r)
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	a, err := h.o.Lookup.ByAnimal(ctx, l.AnimalID)
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	vs, err := h.o.Store.FindVaccinations(ctx, l.AnimalID)
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	d := &licenceReceipt{L: l, A: a, Site: sess(r).site, Printed: h.today(l.Jurisdiction)}
	for _, v := range vs { // newest first: the certificate shown at the sale
		if v.Date <= l.IssuedOn || l.IssuedOn.IsZero() {
			d.Rabies = v
			break
		}
	}
	d.Duplicate, _ = h.o.Licensing.DuplicateQuote(l, service.TagLost)
	h.audit(r, "document.licence_receipt", "licence", l.ID, "")
	h.render(w, r, http.StatusOK, "doc_licence_receipt", fmt.Sprintf("Licence receipt · tag %d of %d", l.TagNumber, l.Year), &view{Data: d, Active: "/clinic"})
}

type stayDoc struct {
	S       *custody.Stay
	A       *lookup.Answer
	Site    string
	Printed service.Date
	Photos  bool
}

func (h *Handler) stayDoc(r *http.Request) (*stayDoc, error) {
	id, err := pathID(r)
	if err != nil {
		return nil, err
	}
	st, err := h.o.Custody.Find(r.Context(), id, 0)
	if err != nil {
		return nil, err
	}
	a, err := h.o.Lookup.ByAnimal(r.Context(), st.AnimalID)
	if err != nil {
		return nil, err
	}
	return &stayDoc{S: st, A: a, Site: st.Site, Printed: st.AsOf, Photos: h.o.Photos != nil}, nil
}

// handleImpoundNotice is the written notice of impounding given to the
// owner (5-73(a): by mail or personal service; the disposition date five
// days after it) with what redemption costs today (62.40, 5-74).
func (h *Handler) handleImpoundNotice(w http.ResponseWriter, r *http.Request) {
	h.stayDocument(w, r, "doc_notice", "Notice of impounding", "document.impound_notice")
}

// handleRedemptionReceipt is the receipt of a redemption: the fee lines
// frozen when the animal was released to its owner.
func (h *Handler) handleRedemptionReceipt(w http.ResponseWriter, r *http.Request) {
	d, err := h.stayDoc(r)
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	if d.S.Disposition != service.Redeemed || d.S.Redemption == nil {
		h.failErr(w, r, service.Conflictf("Impoundment %d has not been redeemed: its receipt is made when the owner reclaims the animal.", d.S.ID))
		return
	}
	h.audit(r, "document.redemption_receipt", "impoundment", d.S.ID, "")
	h.render(w, r, http.StatusOK, "doc_redemption", "Redemption receipt", &view{Data: d, Active: "/intake"})
}

// handleKennelCard is the card on the kennel: the animal, its chip, the
// intake and hold-until dates, its photo and every warning.
func (h *Handler) handleKennelCard(w http.ResponseWriter, r *http.Request) {
	h.stayDocument(w, r, "doc_kennel", "Kennel card", "document.kennel_card")
}

func (h *Handler) stayDocument(w http.ResponseWriter, r *http.Request, page, title, action string) {
	d, err := h.stayDoc(r)
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	h.audit(r, action, "impoundment", d.S.ID, "")
	h.render(w, r, http.StatusOK, page, title, &view{Data: d, Active: "/intake"})
}
