package httpapi

import (
	"context"
	"net/http"
	"strconv"

	"github.com/chipdesk/chipdesk/service"
)

// pathID reads the {id} path value.
func pathID(r *http.Request) (int64, error) {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil || id <= 0 {
		return 0, service.Errorf(service.EINVALID, "Bad id %q.", r.PathValue("id"))
	}
	return id, nil
}

// queryInt reads an optional integer query parameter.
func queryInt(r *http.Request, name string, def int) (int, error) {
	v := r.URL.Query().Get(name)
	if v == "" {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		return 0, service.Errorf(service.EINVALID, "%s must be a non-negative number.", name)
	}
	return n, nil
}

// page reads offset and limit (at most 500, default 50).
func page(r *http.Request) (offset, limit int, err error) {
	if offset, err = queryInt(r, "offset", 0); err != nil {
		return 0, 0, err
	}
	if limit, err = queryInt(r, "limit", 50); err != nil {
		return 0, 0, err
	}
	return offset, min(limit, 500), nil
}

// list is the body of every list answer.
type list[T any] struct {
	Items []T `json:"items"`
	Total int `json:"total"`
}

// changing returns r's context carrying the audit event of the change
// the handler is about to make (service.WithChange): the store writes
// the event in the change's own transaction. An id of 0 is filled in by
// the store for the record the change creates. After the change,
// changed logs the event through the audit queue only if no store wrote
// it.
func (s *Server) changing(r *http.Request, action, entity string, id int64, detail string) (context.Context, *service.Change) {
	ev := &service.AuditEvent{At: s.now().UTC(), Action: action, Entity: entity, EntityID: id, Detail: detail}
	if t := callerOf(r.Context()); t != nil {
		ev.Actor, ev.Role, ev.Site = t.Name, t.Role, t.Site
	}
	enrich(r.Context(), ev)
	s.audit.flush(r.Context())
	return service.WithChange(r.Context(), ev)
}

// changed logs ch's event, as the change of the record id, unless the
// store wrote it with the change.
func (s *Server) changed(r *http.Request, ch *service.Change, id int64) {
	for _, ev := range ch.Unstored(id) {
		s.audit.add(r.Context(), ev, true)
	}
}

// logAudit queues the audit event of a read or a refusal (a change's
// event goes with the change: changing and changed).
func (s *Server) logAudit(r *http.Request, action, entity string, id int64, detail string) {
	ev := &service.AuditEvent{At: s.now().UTC(), Action: action, Entity: entity, EntityID: id, Detail: detail}
	if t := callerOf(r.Context()); t != nil {
		ev.Actor, ev.Role, ev.Site = t.Name, t.Role, t.Site
	}
	s.audit.add(r.Context(), ev, false)
}

// --- owners ---

func (s *Server) handleCreateOwner(w http.ResponseWriter, r *http.Request) {
	var o service.Owner
	if err := decodeJSON(r, &o); err != nil {
		s.writeError(w, r, err)
		return
	}
	o.ID = 0
	ctx, ch := s.changing(r, "owner.create", "owner", 0, "")
	if err := s.store.CreateOwner(ctx, &o); err != nil {
		s.writeError(w, r, err)
		return
	}
	s.changed(r, ch, o.ID)
	s.writeJSON(w, r, http.StatusCreated, &o)
}

func (s *Server) handleGetOwner(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	o, err := s.store.FindOwnerByID(r.Context(), id)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.logAudit(r, "owner.view", "owner", id, "")
	s.writeJSON(w, r, http.StatusOK, o)
}

func (s *Server) handleFindOwners(w http.ResponseWriter, r *http.Request) {
	off, lim, err := page(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	f := service.OwnerFilter{Offset: off, Limit: lim}
	if n := r.URL.Query().Get("name"); n != "" {
		f.Name = &n
	}
	os, total, err := s.store.FindOwners(r.Context(), f)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.logAudit(r, "owner.search", "owner", 0, r.URL.RawQuery)
	s.writeJSON(w, r, http.StatusOK, list[*service.Owner]{Items: nonNil(os), Total: total})
}

func (s *Server) handleUpdateOwner(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	var u service.OwnerUpdate
	if err := decodeJSON(r, &u); err != nil {
		s.writeError(w, r, err)
		return
	}
	ctx, ch := s.changing(r, "owner.update", "owner", id, "")
	o, err := s.store.UpdateOwner(ctx, id, u)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.changed(r, ch, id)
	s.writeJSON(w, r, http.StatusOK, o)
}

// --- animals and chips ---

func (s *Server) handleCreateAnimal(w http.ResponseWriter, r *http.Request) {
	var a service.Animal
	if err := decodeJSON(r, &a); err != nil {
		s.writeError(w, r, err)
		return
	}
	a.ID = 0
	ctx, ch := s.changing(r, "animal.create", "animal", 0, "")
	if err := s.store.CreateAnimal(ctx, &a); err != nil {
		s.writeError(w, r, err)
		return
	}
	s.changed(r, ch, a.ID)
	s.writeJSON(w, r, http.StatusCreated, &a)
}

func (s *Server) handleGetAnimal(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	a, err := s.store.FindAnimalByID(r.Context(), id)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.logAudit(r, "animal.view", "animal", id, "")
	s.writeJSON(w, r, http.StatusOK, a)
}

func (s *Server) handleFindAnimals(w http.ResponseWriter, r *http.Request) {
	off, lim, err := page(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	f := service.AnimalFilter{Offset: off, Limit: lim}
	q := r.URL.Query()
	if n := q.Get("name"); n != "" {
		f.Name = &n
	}
	if o := q.Get("owner"); o != "" {
		id, err := strconv.ParseInt(o, 10, 64)
		if err != nil {
			s.writeError(w, r, service.Errorf(service.EINVALID, "owner must be an id."))
			return
		}
		f.OwnerID = &id
	}
	as, total, err := s.store.FindAnimals(r.Context(), f)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.logAudit(r, "animal.search", "animal", 0, r.URL.RawQuery)
	s.writeJSON(w, r, http.StatusOK, list[*service.Animal]{Items: nonNil(as), Total: total})
}

func (s *Server) handleUpdateAnimal(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	var u service.AnimalUpdate
	if err := decodeJSON(r, &u); err != nil {
		s.writeError(w, r, err)
		return
	}
	ctx, ch := s.changing(r, "animal.update", "animal", id, "")
	a, err := s.store.UpdateAnimal(ctx, id, u)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.changed(r, ch, id)
	s.writeJSON(w, r, http.StatusOK, a)
}

// chipRequest adds a chip to an animal; the chip text goes through
// reader/chipid (in package lookup), never parsed here.
type chipRequest struct {
	Chip        string       `json:"chip"`
	ImplantDate service.Date `json:"implant_date,omitzero"`
}

func (s *Server) handleAddChip(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	var req chipRequest
	if err := decodeJSON(r, &req); err != nil {
		s.writeError(w, r, err)
		return
	}
	c, err := s.lookup.ChipRecord(req.Chip)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	c.AnimalID, c.ImplantDate = id, req.ImplantDate
	ctx, ch := s.changing(r, "chip.add", "animal", id, c.Code)
	if err := s.store.AddChip(ctx, c); err != nil {
		s.writeError(w, r, err)
		return
	}
	s.changed(r, ch, id)
	s.writeJSON(w, r, http.StatusCreated, c)
}

func (s *Server) handleRemoveChip(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	ctx, ch := s.changing(r, "chip.remove", "chip", id, "")
	if err := s.store.RemoveChip(ctx, id); err != nil {
		s.writeError(w, r, err)
		return
	}
	s.changed(r, ch, id)
	w.WriteHeader(http.StatusNoContent)
}

func (s *Server) handleAnimalChips(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	cs, err := s.store.FindChipsByAnimal(r.Context(), id)
	if err == nil && len(cs) == 0 {
		err = s.animalExists(r, id)
	}
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.writeJSON(w, r, http.StatusOK, list[*service.Chip]{Items: nonNil(cs), Total: len(cs)})
}

// animalExists is nil when animal id exists, ENOTFOUND when not: an
// animal's sub-collection is empty only for an animal that exists.
func (s *Server) animalExists(r *http.Request, id int64) error {
	_, err := s.store.FindAnimalByID(r.Context(), id)
	return err
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// writeList answers one page of items of total, or err.
func writeList[T any](s *Server, w http.ResponseWriter, r *http.Request, items []T, total int, err error) {
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.writeJSON(w, r, http.StatusOK, list[T]{Items: nonNil(items), Total: total})
}
