package httpapi

import (
	"net/http"
	"strconv"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/lookup"
)

// handleIssueLicence issues a licence: the fee and the expiry come from
// the jurisdiction's rules, the tag number is the next free one.
func (s *Server) handleIssueLicence(w http.ResponseWriter, r *http.Request) {
	var req lookup.LicenceRequest
	if err := decodeJSON(r, &req); err != nil {
		s.writeError(w, r, err)
		return
	}
	t := callerOf(r.Context())
	req.Site = t.Site
	if t.Role == service.RoleClinic {
		// A clinic sells as a clinic, in its own name (Minneapolis 64.30).
		req.IssuedBy, req.Clinic = service.IssuerClinic, clinicName(t)
	}
	ctx, ch := s.changing(r, "licence.create", "licence", 0, req.Jurisdiction)
	l, err := s.lookup.IssueLicence(ctx, &req)
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
	var req lookup.RenewRequest
	if err := decodeJSON(r, &req); err != nil {
		s.writeError(w, r, err)
		return
	}
	t := callerOf(r.Context())
	req.Site = t.Site
	if t.Role == service.RoleClinic {
		req.IssuedBy, req.Clinic = service.IssuerClinic, clinicName(t)
	}
	ctx, ch := s.changing(r, "licence.renew", "licence", 0, "renews licence "+strconv.FormatInt(id, 10))
	l, err := s.lookup.RenewLicence(ctx, id, &req)
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
	s.logAudit(r, "licence.view", "licence", id, "", false)
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

// clinicName is the clinic a clinic token sells for: its site, else its
// name.
func clinicName(t *service.Token) string {
	if t.Site != "" {
		return t.Site
	}
	return t.Name
}
