package httpapi

import (
	"context"
	"net/http"
	"strconv"
	"strings"

	"github.com/chipdesk/chipdesk/service"
)

// scope refuses a clinic what its site did not issue. A clinic sells
// licences and records vaccinations: it sees and changes an owner, an
// animal, a licence or a job only when a licence of the animal (of one
// of the owner's animals) was issued at the clinic's site (Token.Site),
// or the clinic created it (the audit log says where).
// Lists of every owner, animal or job are not a clinic's; creating an
// owner, an animal, a licence or a vaccination is (the handlers stamp
// the clinic's site on what it issues). Other roles are the county's
// staff and see every site, unless the server is site-scoped (siteOf).
//
// The answer for another site's record is 404, as for one that does not
// exist, so that a clinic cannot probe which ids are taken.
func (s *Server) scope(ctx context.Context, r *http.Request, t *service.Token) error {
	if site, ok := s.siteOf(t); ok {
		return s.staffScope(ctx, r, site)
	}
	if t.Role != service.RoleClinic {
		return nil
	}
	p := r.Pattern
	_, path, _ := strings.Cut(p, " ")
	id, _ := strconv.ParseInt(r.PathValue("id"), 10, 64)
	notFound := service.Errorf(service.ENOTFOUND, "Not found.")
	switch {
	case clinicRefused(p) && p != streamRoute && path != "/api/v1/chips/{id}":
		return service.Errorf(service.EFORBIDDEN, "A clinic opens the records of its own licences by id; it cannot list every record.")
	case strings.HasPrefix(path, "/api/v1/owners/{id}"):
		ok, err := s.ownerAtSite(ctx, id, t.Site)
		if err != nil || !ok {
			return orNotFound(err, notFound)
		}
	case strings.HasPrefix(path, "/api/v1/animals/{id}"):
		ok, err := s.animalAtSite(ctx, id, t.Site)
		if err != nil || !ok {
			return orNotFound(err, notFound)
		}
	case strings.HasPrefix(path, "/api/v1/licences/{id}"):
		l, err := s.store.FindLicenceByID(ctx, id)
		if err != nil || l.Site != t.Site {
			return orNotFound(err, notFound)
		}
	case strings.HasPrefix(path, "/api/v1/jobs/{id}"):
		j, err := s.store.FindJobByID(ctx, id)
		if err != nil {
			return orNotFound(err, notFound)
		}
		l, err := s.store.FindLicenceByID(ctx, j.LicenceID)
		if err != nil || l.Site != t.Site {
			return orNotFound(err, notFound)
		}
	case path == "/api/v1/chips/{id}":
		return service.Errorf(service.EFORBIDDEN, "A clinic removes a chip through the animal's record at the office.")
	}
	return nil
}

// clinicRefused reports whether scope refuses every clinic the route
// of pattern.
func clinicRefused(pattern string) bool {
	switch pattern {
	case "GET /api/v1/owners", "GET /api/v1/animals", "GET /api/v1/jobs", "DELETE /api/v1/chips/{id}", streamRoute:
		return true
	}
	return false
}

// orNotFound is err when it is an internal error, else notFound.
func orNotFound(err, notFound error) error {
	if err != nil && service.ErrorCode(err) == service.EINTERNAL {
		return err
	}
	return notFound
}

// animalAtSite reports whether animal id was created at site or a
// licence of it was issued there.
func (s *Server) animalAtSite(ctx context.Context, id int64, site string) (bool, error) {
	if ok, err := s.createdAtSite(ctx, "animal", id, site); ok || err != nil {
		return ok, err
	}
	ls, _, err := s.store.FindLicences(ctx, service.LicenceFilter{AnimalID: &id, Site: &site, Limit: 1})
	return len(ls) > 0, err
}

// createdAtSite reports whether the audit log has the creation of
// entity id at site (the log is append-only: what it says holds).
func (s *Server) createdAtSite(ctx context.Context, entity string, id int64, site string) (bool, error) {
	evs, _, err := s.store.FindAuditEvents(ctx, service.AuditFilter{Entity: &entity, EntityID: &id, Site: &site, Limit: 100})
	for _, e := range evs {
		if e.Action == entity+".create" {
			return true, nil
		}
	}
	return false, err
}

// ownerAtSite reports whether owner id was created at site or one of
// its animals is at site.
func (s *Server) ownerAtSite(ctx context.Context, id int64, site string) (bool, error) {
	if ok, err := s.createdAtSite(ctx, "owner", id, site); ok || err != nil {
		return ok, err
	}
	as, _, err := s.store.FindAnimals(ctx, service.AnimalFilter{OwnerID: &id})
	if err != nil {
		return false, err
	}
	for _, a := range as {
		if ok, err := s.animalAtSite(ctx, a.ID, site); ok || err != nil {
			return ok, err
		}
	}
	return false, nil
}

// siteOf is the site an intake or officer token is scoped to on a
// site-scoped server (Opts.SiteScoped: a county with several shelters
// or officer stations). What a site is scoped to is what the records
// say happened at a site: an impoundment (and its notice, hold,
// redemption, disposal and charges) belongs to the shelter that took
// the animal in, a scan to the site of its reader or desk. A scoped
// token lists, reads and changes only its own site's impoundments, lists
// only its own site's scans and follows only its own site's scan stream,
// and what it impounds is its site's. The register itself (owners,
// animals, chips, licences, vaccinations, bites, quarantines and
// designations) names no site and stays county-wide: a stray taken in
// at one shelter belongs to an owner any desk must reach, and every read
// of it is audited with the reader's site. Admin tokens, and staff
// tokens without a site, see every site.
func (s *Server) siteOf(t *service.Token) (string, bool) {
	if !s.siteScoped || t == nil || t.Site == "" || (t.Role != service.RoleIntake && t.Role != service.RoleOfficer) {
		return "", false
	}
	return t.Site, true
}

// staffScope refuses a site-scoped token another site's impoundment
// (404, as for one that does not exist).
func (s *Server) staffScope(ctx context.Context, r *http.Request, site string) error {
	_, path, _ := strings.Cut(r.Pattern, " ")
	if !strings.HasPrefix(path, "/api/v1/impoundments/{id}") {
		return nil
	}
	id, _ := strconv.ParseInt(r.PathValue("id"), 10, 64)
	im, err := s.store.FindImpoundmentByID(ctx, id)
	if err != nil || im.Site != site {
		return orNotFound(err, service.Errorf(service.ENOTFOUND, "Not found."))
	}
	return nil
}
