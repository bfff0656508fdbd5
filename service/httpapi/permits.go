package httpapi

import (
	"net/http"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/permits"
)

// permitRoutes are the permit, agreement and report endpoints (package
// service/permits decides every one; these parse, call and answer).
func (s *Server) permitRoutes() []route {
	office := []service.Role{service.RoleIntake}
	officer := []service.Role{service.RoleOfficer}
	return []route{
		{"GET /api/v1/permits", staff, s.handleFindPermits},
		{"POST /api/v1/permits", desk, s.idempotent(s.handleApplyPermit)},
		{"GET /api/v1/permits/due", desk, s.handlePermitsDue},
		{"GET /api/v1/permits/{id}", staff, s.handleGetPermit},
		{"POST /api/v1/permits/{id}/application", desk, s.handlePermitApplication},
		{"POST /api/v1/permits/{id}/inspection", desk, s.handlePermitInspection},
		{"POST /api/v1/permits/{id}/grant", office, s.handleGrantPermit},
		{"POST /api/v1/permits/{id}/action", desk, s.handlePermitAction},
		{"POST /api/v1/permits/{id}/appeal", desk, s.handlePermitAppeal},
		{"POST /api/v1/permits/{id}/appeal-order", office, s.handleAppealOrder},
		{"POST /api/v1/permits/{id}/contacts", desk, s.handlePermitContacts},
		{"POST /api/v1/permits/{id}/renew", desk, s.handleRenewPermit},
		{"POST /api/v1/permits/{id}/registration", desk, s.handleRegisterPermit},
		{"POST /api/v1/permits/{id}/escape", desk, s.handlePermitEscape},

		{"POST /api/v1/adoption-agreements", desk, s.handleCreateAgreement},
		{"GET /api/v1/adoption-agreements", desk, s.handleFindAgreements},
		{"POST /api/v1/adoption-agreements/{id}/sterilised", staff, s.handleAgreementSterilised},

		{"POST /api/v1/animal-reports", staff, s.handleCreateReport},
		{"GET /api/v1/animal-reports", desk, s.handleFindReports},
		{"POST /api/v1/animal-reports/{id}/close", officer, s.handleCloseReport},
	}
}

// permitsOr404 returns the permits service, or answers 404 when the
// server has none.
func (s *Server) permitsOr404(w http.ResponseWriter, r *http.Request) *permits.Service {
	if s.permits == nil {
		s.writeError(w, r, service.Errorf(service.ENOTFOUND, "No permits on this server."))
	}
	return s.permits
}

func (s *Server) handleFindPermits(w http.ResponseWriter, r *http.Request) {
	ps := s.permitsOr404(w, r)
	if ps == nil {
		return
	}
	off, lim, err := page(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	q := r.URL.Query()
	f := service.PermitFilter{Kind: service.PermitKind(q.Get("kind")), Jurisdiction: q.Get("jurisdiction"), State: service.PermitState(q.Get("state")),
		Holder: q.Get("holder"), Offset: off, Limit: lim}
	for name, dst := range map[string]*int64{"owner_id": &f.OwnerID, "animal_id": &f.AnimalID} {
		n, err := queryInt(r, name, 0)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		*dst = int64(n)
	}
	list, total, err := ps.List(r.Context(), f)
	writeList(s, w, r, list, total, err)
}

func (s *Server) handleApplyPermit(w http.ResponseWriter, r *http.Request) {
	ps := s.permitsOr404(w, r)
	if ps == nil {
		return
	}
	var req permits.Request
	if err := decodeJSON(r, &req); err != nil {
		s.writeError(w, r, err)
		return
	}
	req.Site = callerOf(r.Context()).Site
	p, err := ps.Apply(r.Context(), &req)
	if p != nil && p.ID != 0 {
		s.change(r, "permit.create", "permit", p.ID, string(p.Kind)+" "+string(p.State))
	}
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.writeJSON(w, r, http.StatusCreated, p)
}

func (s *Server) handleGetPermit(w http.ResponseWriter, r *http.Request) {
	ps := s.permitsOr404(w, r)
	if ps == nil {
		return
	}
	id, err := pathID(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	p, err := ps.Get(r.Context(), id)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.writeJSON(w, r, http.StatusOK, p)
}

func (s *Server) handlePermitsDue(w http.ResponseWriter, r *http.Request) {
	ps := s.permitsOr404(w, r)
	if ps == nil {
		return
	}
	items, err := ps.Due(r.Context())
	writeList(s, w, r, items, len(items), err)
}

// permitStep decodes body into a T and runs fn on the permit of the
// path, answering the permit.
func permitStep[T any](s *Server, w http.ResponseWriter, r *http.Request, action string, fn func(ps *permits.Service, id int64, body *T) (*service.Permit, error)) {
	ps := s.permitsOr404(w, r)
	if ps == nil {
		return
	}
	id, err := pathID(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	var body T
	if err := decodeJSON(r, &body); err != nil {
		s.writeError(w, r, err)
		return
	}
	p, err := fn(ps, id, &body)
	if p != nil && p.ID != 0 {
		s.change(r, "permit."+action, "permit", p.ID, string(p.State))
	}
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.writeJSON(w, r, http.StatusOK, p)
}

// dateBody is a body naming one date.
type dateBody struct {
	On service.Date `json:"on"`
}

func (s *Server) handlePermitApplication(w http.ResponseWriter, r *http.Request) {
	permitStep(s, w, r, "application", func(ps *permits.Service, id int64, a *service.PermitApplication) (*service.Permit, error) {
		return ps.Update(r.Context(), id, *a)
	})
}

func (s *Server) handlePermitInspection(w http.ResponseWriter, r *http.Request) {
	permitStep(s, w, r, "inspection", func(ps *permits.Service, id int64, in *permits.Inspection) (*service.Permit, error) {
		return ps.Inspect(r.Context(), id, *in)
	})
}

func (s *Server) handlePermitEscape(w http.ResponseWriter, r *http.Request) {
	permitStep(s, w, r, "escape", func(ps *permits.Service, id int64, e *service.HorseEscape) (*service.Permit, error) {
		return ps.Escape(r.Context(), id, *e)
	})
}

func (s *Server) handleGrantPermit(w http.ResponseWriter, r *http.Request) {
	permitStep(s, w, r, "grant", func(ps *permits.Service, id int64, b *dateBody) (*service.Permit, error) {
		return ps.Grant(r.Context(), id, b.On)
	})
}

func (s *Server) handlePermitAction(w http.ResponseWriter, r *http.Request) {
	permitStep(s, w, r, "action", func(ps *permits.Service, id int64, a *permits.Action) (*service.Permit, error) {
		return ps.Act(r.Context(), id, *a)
	})
}

func (s *Server) handlePermitAppeal(w http.ResponseWriter, r *http.Request) {
	permitStep(s, w, r, "appeal", func(ps *permits.Service, id int64, b *dateBody) (*service.Permit, error) {
		return ps.Appeal(r.Context(), id, b.On)
	})
}

func (s *Server) handleAppealOrder(w http.ResponseWriter, r *http.Request) {
	permitStep(s, w, r, "appeal-order", func(ps *permits.Service, id int64, o *permits.AppealOrder) (*service.Permit, error) {
		return ps.DecideAppeal(r.Context(), id, *o)
	})
}

// contactsBody is a kennel's designated contact persons (5-18.2(b)(1)).
type contactsBody struct {
	Contacts []service.Person `json:"contacts"`
}

func (s *Server) handlePermitContacts(w http.ResponseWriter, r *http.Request) {
	permitStep(s, w, r, "contacts", func(ps *permits.Service, id int64, b *contactsBody) (*service.Permit, error) {
		return ps.ChangeContacts(r.Context(), id, b.Contacts)
	})
}

func (s *Server) handleRenewPermit(w http.ResponseWriter, r *http.Request) {
	permitStep(s, w, r, "renew", func(ps *permits.Service, id int64, req *permits.Request) (*service.Permit, error) {
		req.Site = callerOf(r.Context()).Site
		return ps.Renew(r.Context(), id, req)
	})
}

func (s *Server) handleRegisterPermit(w http.ResponseWriter, r *http.Request) {
	permitStep(s, w, r, "registration", func(ps *permits.Service, id int64, b *dateBody) (*service.Permit, error) {
		return ps.Register(r.Context(), id, b.On)
	})
}

func (s *Server) handleCreateAgreement(w http.ResponseWriter, r *http.Request) {
	ps := s.permitsOr404(w, r)
	if ps == nil {
		return
	}
	var req permits.AgreementRequest
	if err := decodeJSON(r, &req); err != nil {
		s.writeError(w, r, err)
		return
	}
	req.Site = callerOf(r.Context()).Site
	a, err := ps.Agree(r.Context(), &req)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.change(r, "agreement.create", "adoption_agreement", a.ID, "")
	s.writeJSON(w, r, http.StatusCreated, a)
}

func (s *Server) handleFindAgreements(w http.ResponseWriter, r *http.Request) {
	ps := s.permitsOr404(w, r)
	if ps == nil {
		return
	}
	animal, err := queryInt(r, "animal_id", 0)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	list, err := ps.Agreements(r.Context(), r.URL.Query().Get("open") == "true", int64(animal))
	writeList(s, w, r, list, len(list), err)
}

func (s *Server) handleAgreementSterilised(w http.ResponseWriter, r *http.Request) {
	ps := s.permitsOr404(w, r)
	if ps == nil {
		return
	}
	id, err := pathID(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	var st permits.Statement
	if err := decodeJSON(r, &st); err != nil {
		s.writeError(w, r, err)
		return
	}
	a, err := ps.Sterilised(r.Context(), id, st)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.change(r, "agreement.sterilised", "adoption_agreement", a.ID, a.Veterinarian)
	s.writeJSON(w, r, http.StatusOK, a)
}

func (s *Server) handleCreateReport(w http.ResponseWriter, r *http.Request) {
	ps := s.permitsOr404(w, r)
	if ps == nil {
		return
	}
	var req permits.ReportRequest
	if err := decodeJSON(r, &req); err != nil {
		s.writeError(w, r, err)
		return
	}
	req.Site = callerOf(r.Context()).Site
	rep, err := ps.Report(r.Context(), &req)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.change(r, "report.create", "animal_report", rep.ID, string(rep.Kind))
	s.writeJSON(w, r, http.StatusCreated, rep)
}

func (s *Server) handleFindReports(w http.ResponseWriter, r *http.Request) {
	ps := s.permitsOr404(w, r)
	if ps == nil {
		return
	}
	list, err := ps.Reports(r.Context(), r.URL.Query().Get("open") == "true")
	writeList(s, w, r, list, len(list), err)
}

func (s *Server) handleCloseReport(w http.ResponseWriter, r *http.Request) {
	ps := s.permitsOr404(w, r)
	if ps == nil {
		return
	}
	id, err := pathID(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	var b dateBody
	if err := decodeJSON(r, &b); err != nil {
		s.writeError(w, r, err)
		return
	}
	rep, err := ps.CloseReport(r.Context(), id, b.On)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.change(r, "report.close", "animal_report", rep.ID, "")
	s.writeJSON(w, r, http.StatusOK, rep)
}
