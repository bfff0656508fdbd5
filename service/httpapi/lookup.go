package httpapi

import (
	"net/http"
	"strconv"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/lookup"
)

// handleLookup answers GET /api/v1/lookup?chip=TEXT or
// ?tag=N&jurisdiction=ID&year=YYYY (year defaults to this year in the
// jurisdiction). The public role gets the answer without owner data.
// Every lookup is audited, without making the caller wait for the write.
func (s *Server) handleLookup(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	var (
		a      *lookup.Answer
		err    error
		by     string
		detail string
	)
	switch {
	case q.Has("chip"):
		by, detail = "chip", q.Get("chip")
		a, err = s.lookup.ByChip(r.Context(), q.Get("chip"))
	case q.Has("tag"):
		by = "tag"
		var tag, year int
		tag, err = strconv.Atoi(q.Get("tag"))
		if err != nil || tag <= 0 {
			s.writeError(w, r, service.Errorf(service.EINVALID, "tag must be a positive number."))
			return
		}
		if y := q.Get("year"); y != "" {
			year, err = strconv.Atoi(y)
			if err != nil || year < 1900 || year > 9999 {
				s.writeError(w, r, service.Errorf(service.EINVALID, "year must be a four-digit year."))
				return
			}
		}
		j := q.Get("jurisdiction")
		detail = j + " " + strconv.Itoa(year) + " " + strconv.Itoa(tag)
		a, err = s.lookup.ByTag(r.Context(), j, year, tag)
	default:
		s.writeError(w, r, service.Errorf(service.EINVALID, "Give chip, or tag with jurisdiction and year."))
		return
	}
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.answer(w, r, by, detail, a)
}

// handleAnimalRecord answers the lookup for an animal by id.
func (s *Server) handleAnimalRecord(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	a, err := s.lookup.ByAnimal(r.Context(), id)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.answer(w, r, "animal", "", a)
}

// lookupAction is the audit action of a lookup by by: a constant for
// each key, so that building it costs no allocation.
func lookupAction(by string) string {
	switch by {
	case "chip":
		return "lookup.chip"
	case "tag":
		return "lookup.tag"
	case "animal":
		return "lookup.animal"
	}
	return "lookup." + by
}

func (s *Server) answer(w http.ResponseWriter, r *http.Request, by, detail string, a *lookup.Answer) {
	var animal int64
	result := "unknown"
	if a.Found && a.Animal != nil {
		animal, result = a.Animal.ID, "found"
	}
	s.metrics.lookup(by, result)
	s.logAudit(r, lookupAction(by), "animal", animal, detail, false)
	if t := callerOf(r.Context()); t != nil && t.Role == service.RolePublic {
		a = a.Public()
	}
	s.writeJSON(w, r, http.StatusOK, a)
}
