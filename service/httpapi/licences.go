package httpapi

import (
	"net/http"
	"strconv"

	"github.com/chipdesk/chipdesk/service/licensing"
)

// handleIssueLicence issues a licence: the fee and the expiry come from
// the jurisdiction's rules, the tag number is the next free one.
func (s *Server) handleIssueLicence(w http.ResponseWriter, r *http.Request) {
	var req licensing.LicenceRequest
	if err := decodeJSON(r, &req); err != nil {
		s.writeError(w, r, err)
		return
	}
	req.Seller = callerOf(r.Context())
	action, detail := "licence.create", req.Jurisdiction
	if req.Replaces != 0 {
		action, detail = "licence.duplicate", "replaces licence "+strconv.FormatInt(req.Replaces, 10)
	}
	ctx, ch := s.changing(r, action, "licence", 0, detail)
	if req.Vaccination != nil { // stored in the licence's transaction
		ch.And("vaccination.create", "vaccination", 0, "with licence")
	}
	l, err := s.lic.Issue(ctx, &req)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.changed(r, ch, l.ID)
	s.writeJSON(w, r, http.StatusCreated, l)
}

func (s *Server) handleRenewLicence(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	var req licensing.RenewRequest
	if err := decodeJSON(r, &req); err != nil {
		s.writeError(w, r, err)
		return
	}
	req.Seller = callerOf(r.Context())
	ctx, ch := s.changing(r, "licence.renew", "licence", 0, "renews licence "+strconv.FormatInt(id, 10))
	l, err := s.lic.Renew(ctx, id, &req)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.changed(r, ch, l.ID)
	s.writeJSON(w, r, http.StatusCreated, l)
}

func (s *Server) handleGetLicence(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	l, err := s.store.FindLicenceByID(r.Context(), id)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.logAudit(r, "licence.view", "licence", id, "")
	s.writeJSON(w, r, http.StatusOK, l)
}

func (s *Server) handleRevokeLicence(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	ctx, ch := s.changing(r, "licence.revoke", "licence", id, "")
	if err := s.store.RevokeLicence(ctx, id); err != nil {
		s.writeError(w, r, err)
		return
	}
	s.changed(r, ch, id)
	w.WriteHeader(http.StatusNoContent)
}
