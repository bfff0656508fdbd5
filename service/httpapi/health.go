package httpapi

import (
	"context"
	"net/http"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/incidents"
)

// create decodes a record of type T, stores it with fn (under the
// change's context, which carries its audit event) and answers it.
func create[T any](s *Server, w http.ResponseWriter, r *http.Request, action, entity string,
	prep func(*T) error, fn func(context.Context, *T) error, idOf func(*T) int64) {
	v := new(T)
	if err := decodeJSON(r, v); err != nil {
		s.writeError(w, r, err)
		return
	}
	if prep != nil {
		if err := prep(v); err != nil {
			s.writeError(w, r, err)
			return
		}
	}
	ctx, ch := s.changing(r, action, entity, 0, "")
	if err := fn(ctx, v); err != nil {
		s.writeError(w, r, err)
		return
	}
	s.changed(r, ch, idOf(v))
	s.writeJSON(w, r, http.StatusCreated, v)
}

func (s *Server) handleCreateVaccination(w http.ResponseWriter, r *http.Request) {
	create(s, w, r, "vaccination.create", "vaccination",
		func(v *service.RabiesVaccination) error { v.ID = 0; return nil },
		func(ctx context.Context, v *service.RabiesVaccination) error { return s.lic.Vaccinate(ctx, v) },
		func(v *service.RabiesVaccination) int64 { return v.ID })
}

func (s *Server) handleAnimalVaccinations(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	vs, err := s.store.FindVaccinations(r.Context(), id)
	if err == nil && len(vs) == 0 {
		err = s.animalExists(r, id)
	}
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.writeJSON(w, r, http.StatusOK, list[*service.RabiesVaccination]{Items: nonNil(vs), Total: len(vs)})
}

func (s *Server) handleCreateBite(w http.ResponseWriter, r *http.Request) {
	var b service.BiteIncident
	if err := decodeJSON(r, &b); err != nil {
		s.writeError(w, r, err)
		return
	}
	ctx, ch := s.changing(r, "bite.create", "bite", 0, "")
	out, err := s.inc.RecordBite(ctx, &b) // the quarantine it orders carries its own event
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.changed(r, ch, b.ID)
	s.writeJSON(w, r, http.StatusCreated, out)
}

func (s *Server) handleCreateQuarantine(w http.ResponseWriter, r *http.Request) {
	var req incidents.QuarantineRequest
	if err := decodeJSON(r, &req); err != nil {
		s.writeError(w, r, err)
		return
	}
	ctx, ch := s.changing(r, "quarantine.create", "quarantine", 0, req.Option)
	q, err := s.inc.Quarantine(ctx, &req)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.changed(r, ch, q.ID)
	s.writeJSON(w, r, http.StatusCreated, q.Quarantine)
}

type releaseRequest struct {
	On service.Date `json:"on"`
}

func (s *Server) handleReleaseQuarantine(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	var req releaseRequest
	if err := decodeJSON(r, &req); err != nil {
		s.writeError(w, r, err)
		return
	}
	ctx, ch := s.changing(r, "quarantine.release", "quarantine", id, req.On.String())
	if err := s.inc.ReleaseQuarantine(ctx, id, req.On); err != nil {
		s.writeError(w, r, err)
		return
	}
	s.changed(r, ch, id)
	w.WriteHeader(http.StatusNoContent)
}

func (s *Server) handleCreateImpoundment(w http.ResponseWriter, r *http.Request) {
	var i service.Impoundment
	if err := decodeJSON(r, &i); err != nil {
		s.writeError(w, r, err)
		return
	}
	if _, scoped := s.siteOf(callerOf(r.Context())); scoped || i.Site == "" {
		i.Site = callerOf(r.Context()).Site // a scoped desk impounds for its own site
	}
	ctx, ch := s.changing(r, "impoundment.create", "impoundment", 0, "")
	st, err := s.custody.Impound(ctx, &i)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.changed(r, ch, i.ID)
	s.writeJSON(w, r, http.StatusCreated, st.Impoundment)
}

func (s *Server) handleUpdateImpoundment(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	var u service.ImpoundUpdate
	if err := decodeJSON(r, &u); err != nil {
		s.writeError(w, r, err)
		return
	}
	detail := ""
	if u.Disposition != nil {
		detail = string(*u.Disposition)
	}
	ctx, ch := s.changing(r, "impoundment.update", "impoundment", id, detail)
	st, err := s.custody.Update(ctx, id, u)
	if err == nil {
		s.changed(r, ch, id)
	}
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.writeJSON(w, r, http.StatusOK, st.Impoundment)
}

func (s *Server) handleFindImpoundments(w http.ResponseWriter, r *http.Request) {
	off, lim, err := page(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	f := service.ImpoundFilter{Offset: off, Limit: lim}
	if site, ok := s.siteOf(callerOf(r.Context())); ok {
		f.Site = &site
	}
	switch r.URL.Query().Get("open") {
	case "":
	case "true":
		t := true
		f.Open = &t
	case "false":
		t := false
		f.Open = &t
	default:
		s.writeError(w, r, service.Errorf(service.EINVALID, "open must be true or false."))
		return
	}
	is, total, err := s.store.FindImpoundments(r.Context(), f)
	writeList(s, w, r, is, total, err)
}

func (s *Server) handleCreateDesignation(w http.ResponseWriter, r *http.Request) {
	var d service.DangerousDesignation
	if err := decodeJSON(r, &d); err != nil {
		s.writeError(w, r, err)
		return
	}
	ctx, ch := s.changing(r, "designation.create", "designation", 0, string(d.Level))
	if _, err := s.inc.Designate(ctx, &d); err != nil {
		s.writeError(w, r, err)
		return
	}
	s.changed(r, ch, d.ID)
	s.writeJSON(w, r, http.StatusCreated, &d)
}

func (s *Server) handleUpdateDesignation(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	var u service.DesignationUpdate
	if err := decodeJSON(r, &u); err != nil {
		s.writeError(w, r, err)
		return
	}
	ctx, ch := s.changing(r, "designation.update", "designation", id, "")
	d, err := s.inc.UpdateDesignation(ctx, id, u)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.changed(r, ch, id)
	s.writeJSON(w, r, http.StatusOK, d)
}
