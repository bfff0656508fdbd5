package httpapi

import (
	"net/http"
	"slices"

	"github.com/chipdesk/chipdesk/service"
)

// Role sets, admin always included (see require).
var (
	anyRole   = []service.Role{service.RoleClinic, service.RoleIntake, service.RoleOfficer, service.RolePublic}
	staff     = []service.Role{service.RoleClinic, service.RoleIntake, service.RoleOfficer}
	desk      = []service.Role{service.RoleIntake, service.RoleOfficer}
	counter   = []service.Role{service.RoleClinic, service.RoleIntake}
	adminOnly = []service.Role{}
)

// routes registers every endpoint with the roles allowed to call it.
// The table is the role × endpoint matrix; the OpenAPI document lists
// the same routes and httpapi's tests check both agree.
func (s *Server) routes() {
	m := s.mux
	m.HandleFunc("GET /healthz", s.handleHealth)
	m.HandleFunc("GET /api/v1/openapi.json", s.handleOpenAPI)
	if s.web != nil {
		m.Handle("/", s.web)
	} else {
		m.HandleFunc("GET /{$}", s.handlePage)
		m.HandleFunc("GET /login", s.handleLogin)
		m.HandleFunc("POST /logout", s.handleLogout)
	}
	m.Handle("GET /metrics", s.require(s.metricsHandler().ServeHTTP, adminOnly...))

	for _, rt := range s.allRoutes() {
		m.Handle(rt.pattern, s.require(rt.h, rt.roles...))
	}
}

// allRoutes is every authenticated API endpoint.
func (s *Server) allRoutes() []route {
	return slices.Concat(s.apiRoutes(), s.jobRoutes(), s.photoRoutes(), s.permitRoutes(), s.animalReportRoutes())
}

// route is one authenticated API endpoint.
type route struct {
	pattern string
	roles   []service.Role // besides admin
	h       http.HandlerFunc
}

func (s *Server) apiRoutes() []route {
	return append([]route{
		{"GET /api/v1/lookup", anyRole, s.handleLookup},
		{"GET /api/v1/animals/{id}/record", staff, s.handleAnimalRecord},

		{"GET /api/v1/scans/stream", staff, s.handleStream},
		{"GET /api/v1/scans", desk, s.handleFindScans},
		{"POST /api/v1/scans", staff, s.handlePostScan},

		{"POST /api/v1/owners", counter, s.idempotent(s.handleCreateOwner)},
		{"GET /api/v1/owners", staff, s.handleFindOwners},
		{"GET /api/v1/owners/{id}", staff, s.handleGetOwner},
		{"PATCH /api/v1/owners/{id}", counter, s.handleUpdateOwner},

		{"POST /api/v1/animals", counter, s.idempotent(s.handleCreateAnimal)},
		{"GET /api/v1/animals", staff, s.handleFindAnimals},
		{"GET /api/v1/animals/{id}", staff, s.handleGetAnimal},
		{"PATCH /api/v1/animals/{id}", counter, s.handleUpdateAnimal},
		{"GET /api/v1/animals/{id}/chips", staff, s.handleAnimalChips},
		{"POST /api/v1/animals/{id}/chips", counter, s.handleAddChip},
		{"DELETE /api/v1/chips/{id}", counter, s.handleRemoveChip},

		{"POST /api/v1/licences", counter, s.idempotent(s.handleIssueLicence)},
		{"GET /api/v1/licences/{id}", staff, s.handleGetLicence},
		{"POST /api/v1/licences/{id}/renew", counter, s.idempotent(s.handleRenewLicence)},
		{"POST /api/v1/licences/{id}/revoke", []service.Role{service.RoleIntake}, s.handleRevokeLicence},
		{"GET /api/v1/animals/{id}/vaccinations", staff, s.handleAnimalVaccinations},
		{"POST /api/v1/vaccinations", counter, s.idempotent(s.handleCreateVaccination)},

		{"POST /api/v1/bites", desk, s.handleCreateBite},
		{"POST /api/v1/quarantines", desk, s.handleCreateQuarantine},
		{"POST /api/v1/quarantines/{id}/release", desk, s.handleReleaseQuarantine},
		{"POST /api/v1/impoundments", desk, s.handleCreateImpoundment},
		{"GET /api/v1/impoundments", desk, s.handleFindImpoundments},
		{"PATCH /api/v1/impoundments/{id}", desk, s.handleUpdateImpoundment},
		{"POST /api/v1/designations", []service.Role{service.RoleOfficer}, s.handleCreateDesignation},
		{"PATCH /api/v1/designations/{id}", []service.Role{service.RoleOfficer}, s.handleUpdateDesignation},

		{"GET /api/v1/tokens", adminOnly, s.handleFindTokens},
		{"POST /api/v1/tokens", adminOnly, s.handleCreateToken},
		{"DELETE /api/v1/tokens/{id}", adminOnly, s.handleRevokeToken},
		{"GET /api/v1/audit", adminOnly, s.handleFindAudit},
	}, s.moneyRoutes()...)
}

func (s *Server) handleHealth(w http.ResponseWriter, r *http.Request) {
	if err := s.store.Ping(r.Context()); err != nil {
		s.log.Error("httpapi: health check", "err", err)
		s.writeJSON(w, r, http.StatusServiceUnavailable, map[string]string{"status": "unavailable"})
		return
	}
	s.writeJSON(w, r, http.StatusOK, map[string]string{"status": "ok"})
}
