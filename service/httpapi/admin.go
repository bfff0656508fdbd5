package httpapi

import (
	"net/http"
	"time"

	"github.com/chipdesk/chipdesk/service"
)

type tokenRequest struct {
	Name string       `json:"name"`
	Role service.Role `json:"role"`
	Site string       `json:"site,omitempty"`
	// ExpiresAt is optional.
	ExpiresAt time.Time `json:"expires_at,omitzero"`
}

type tokenAnswer struct {
	*service.Token
	// Secret is shown once.
	Secret string `json:"secret"`
}

func (s *Server) handleCreateToken(w http.ResponseWriter, r *http.Request) {
	var req tokenRequest
	if err := decodeJSON(r, &req); err != nil {
		s.writeError(w, r, err)
		return
	}
	if !req.Role.Valid() {
		s.writeError(w, r, service.Errorf(service.EINVALID, "Role must be admin, clinic, intake, officer or public."))
		return
	}
	t := &service.Token{Name: req.Name, Role: req.Role, Site: req.Site, ExpiresAt: req.ExpiresAt}
	ctx, ch := s.changing(r, "token.create", "token", 0, string(t.Role))
	secret, err := s.store.CreateToken(ctx, t)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.changed(r, ch, t.ID)
	s.writeJSON(w, r, http.StatusCreated, tokenAnswer{Token: t, Secret: secret})
}

func (s *Server) handleFindTokens(w http.ResponseWriter, r *http.Request) {
	ts, err := s.store.FindTokens(r.Context())
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.writeJSON(w, r, http.StatusOK, list[*service.Token]{Items: nonNil(ts), Total: len(ts)})
}

func (s *Server) handleRevokeToken(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	ctx, ch := s.changing(r, "token.revoke", "token", id, "")
	if err := s.store.RevokeToken(ctx, id); err != nil {
		s.writeError(w, r, err)
		return
	}
	s.forgetToken(id)
	s.access.RevokedToken(id) // this process's streams end at once
	s.changed(r, ch, id)
	w.WriteHeader(http.StatusNoContent)
}

func (s *Server) handleFindAudit(w http.ResponseWriter, r *http.Request) {
	off, lim, err := page(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	f := service.AuditFilter{Offset: off, Limit: lim}
	q := r.URL.Query()
	if v := q.Get("actor"); v != "" {
		f.Actor = &v
	}
	if v := q.Get("entity"); v != "" {
		f.Entity = &v
	}
	evs, total, err := s.store.FindAuditEvents(r.Context(), f)
	writeList(s, w, r, evs, total, err)
}

func (s *Server) handleFindScans(w http.ResponseWriter, r *http.Request) {
	off, lim, err := page(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	f := service.ScanFilter{Offset: off, Limit: lim}
	if v := r.URL.Query().Get("site"); v != "" {
		f.Site = &v
	}
	if site, ok := s.siteOf(callerOf(r.Context())); ok {
		f.Site = &site // a scoped desk sees its own site's scans
	}
	ss, total, err := s.store.FindScans(r.Context(), f)
	writeList(s, w, r, ss, total, err)
}

// scanRequest is a chip read posted by a handheld or a keyboard-wedge
// page: the reader's name and the text it produced.
type scanRequest struct {
	Reader string `json:"reader"`
	Chip   string `json:"chip"`
}

func (s *Server) handlePostScan(w http.ResponseWriter, r *http.Request) {
	if s.scans == nil {
		s.writeError(w, r, service.Errorf(service.ENOTFOUND, "Scans are not accepted on this server."))
		return
	}
	var req scanRequest
	if err := decodeJSON(r, &req); err != nil {
		s.writeError(w, r, err)
		return
	}
	if req.Reader == "" {
		s.writeError(w, r, service.Errorf(service.EINVALID, "Reader name required."))
		return
	}
	t := callerOf(r.Context())
	ev, err := s.scans.HandleText(r.Context(), req.Reader, req.Chip, t.Name, t.Site)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	var animal int64
	if ev.Lookup != nil && ev.Lookup.Animal != nil {
		animal = ev.Lookup.Animal.ID
	}
	s.logAudit(r, "lookup.scan", "animal", animal, ev.Chip.Code)
	if t.Role == service.RolePublic && ev.Lookup != nil {
		ev.Lookup = ev.Lookup.Public()
	}
	s.writeJSON(w, r, http.StatusCreated, ev)
}
