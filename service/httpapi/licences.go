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
	l, err := s.lic.Issue(r.Context(), &req)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if l.VaccinationID != 0 {
		s.change(r, "vaccination.create", "vaccination", l.VaccinationID, "with licence")
	}
	if l.Replaces != 0 {
		s.change(r, "licence.duplicate", "licence", l.ID, "replaces licence "+strconv.FormatInt(l.Replaces, 10))
	} else {
		s.change(r, "licence.create", "licence", l.ID, l.Jurisdiction)
	}
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
	l, err := s.lic.Renew(r.Context(), id, &req)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.change(r, "licence.renew", "licence", l.ID, "renews licence")
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
	s.logAudit(r, "licence.view", "licence", id, "", false)
	s.writeJSON(w, r, http.StatusOK, l)
}

func (s *Server) handleRevokeLicence(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if err := s.store.RevokeLicence(r.Context(), id); err != nil {
		s.writeError(w, r, err)
		return
	}
	s.change(r, "licence.revoke", "licence", id, "")
	w.WriteHeader(http.StatusNoContent)
}
