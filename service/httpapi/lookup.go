package httpapi

import (
	"net/http"
	"net/url"
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
		lq     lookup.Query
		by     string
		detail string
		err    error
	)
	if lq.AsOf, err = s.asOf(r, q); err != nil {
		s.writeError(w, r, err)
		return
	}
	switch {
	case q.Has("chip"):
		by, detail, lq.Chip = "chip", q.Get("chip"), q.Get("chip")
		if lq.Chip == "" {
			s.writeError(w, r, service.Invalidf("chip", "chip is empty: give the number read from the chip."))
			return
		}
	case q.Has("tag"):
		by = "tag"
		lq.Tag, err = strconv.Atoi(q.Get("tag"))
		if err != nil || lq.Tag <= 0 {
			s.writeError(w, r, service.Invalidf("tag", "tag must be a positive number."))
			return
		}
		if y := q.Get("year"); y != "" {
			lq.Year, err = strconv.Atoi(y)
			if err != nil || lq.Year < 1900 || lq.Year > 9999 {
				s.writeError(w, r, service.Invalidf("year", "year must be a four-digit year."))
				return
			}
		}
		lq.Jurisdiction = q.Get("jurisdiction")
		detail = lq.Jurisdiction + " " + strconv.Itoa(lq.Year) + " " + strconv.Itoa(lq.Tag)
	default:
		s.writeError(w, r, service.Errorf(service.EINVALID, "Give chip, or tag with jurisdiction and year."))
		return
	}
	a, err := s.lookup.Lookup(r.Context(), lq)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.answer(w, r, by, detail, a)
}

// asOf reads as_of=YYYY-MM-DD from q, the request's query, the day a
// staff member asks about ("what would redemption cost on Friday"); the
// public role gets today only.
func (s *Server) asOf(r *http.Request, q url.Values) (service.Date, error) {
	v := q.Get("as_of")
	if v == "" {
		return 0, nil
	}
	if t := callerOf(r.Context()); t == nil || t.Role == service.RolePublic {
		return 0, service.FieldErrorf(service.EFORBIDDEN, "as_of", "as_of is for staff; the public lookup answers for today.")
	}
	return service.ParseDateField("as_of", v)
}

// handleAnimalRecord answers the lookup for an animal by id.
func (s *Server) handleAnimalRecord(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	asOf, err := s.asOf(r, r.URL.Query())
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	a, err := s.lookup.Lookup(r.Context(), lookup.Query{AnimalID: id, AsOf: asOf})
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
	s.logAudit(r, lookupAction(by), "animal", animal, detail)
	if t := callerOf(r.Context()); t != nil && t.Role == service.RolePublic {
		a = a.Public()
	}
	s.writeJSON(w, r, http.StatusOK, a)
}
