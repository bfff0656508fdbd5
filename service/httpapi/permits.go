package httpapi

import (
	"context"
	"net/http"
	"strconv"

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
		{"POST /api/v1/permits/{id}/restrictions", desk, s.handlePermitRestrictions},

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
	ctx, ch := s.changing(r, "permit.create", "permit", 0, string(req.Kind))
	p, err := ps.Apply(ctx, &req)
	if p != nil && p.ID != 0 {
		s.changed(r, ch, p.ID)
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
func permitStep[T any](s *Server, w http.ResponseWriter, r *http.Request, action string, fn func(ctx context.Context, ps *permits.Service, id int64, body *T) (*service.Permit, error)) {
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
	eid, detail := id, ""
	if action == "renew" { // a renewal is a new permit
		eid, detail = 0, "renews permit "+strconv.FormatInt(id, 10)
	}
	ctx, ch := s.changing(r, "permit."+action, "permit", eid, detail)
	p, err := fn(ctx, ps, id, &body)
	if p != nil && p.ID != 0 {
		s.changed(r, ch, p.ID)
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
	permitStep(s, w, r, "application", func(ctx context.Context, ps *permits.Service, id int64, a *service.PermitApplication) (*service.Permit, error) {
		return ps.Update(ctx, id, *a)
	})
}

func (s *Server) handlePermitInspection(w http.ResponseWriter, r *http.Request) {
	permitStep(s, w, r, "inspection", func(ctx context.Context, ps *permits.Service, id int64, in *permits.Inspection) (*service.Permit, error) {
		return ps.Inspect(ctx, id, *in)
	})
}

func (s *Server) handlePermitEscape(w http.ResponseWriter, r *http.Request) {
	permitStep(s, w, r, "escape", func(ctx context.Context, ps *permits.Service, id int64, e *service.HorseEscape) (*service.Permit, error) {
		return ps.Escape(ctx, id, *e)
	})
}

func (s *Server) handleGrantPermit(w http.ResponseWriter, r *http.Request) {
	permitStep(s, w, r, "grant", func(ctx context.Context, ps *permits.Service, id int64, b *dateBody) (*service.Permit, error) {
		return ps.Grant(ctx, id, b.On)
	})
}

func (s *Server) handlePermitAction(w http.ResponseWriter, r *http.Request) {
	permitStep(s, w, r, "action", func(ctx context.Context, ps *permits.Service, id int64, a *permits.Action) (*service.Permit, error) {
		return ps.Act(ctx, id, *a)
	})
}

func (s *Server) handlePermitAppeal(w http.ResponseWriter, r *http.Request) {
	permitStep(s, w, r, "appeal", func(ctx context.Context, ps *permits.Service, id int64, b *dateBody) (*service.Permit, error) {
		return ps.Appeal(ctx, id, b.On)
	})
}

func (s *Server) handleAppealOrder(w http.ResponseWriter, r *http.Request) {
	permitStep(s, w, r, "appeal-order", func(ctx context.Context, ps *permits.Service, id int64, o *permits.AppealOrder) (*service.Permit, error) {
		return ps.DecideAppeal(ctx, id, *o)
	})
}

// contactsBody is a kennel's designated contact persons (5-18.2(b)(1)).
type contactsBody struct {
	Contacts []service.Person `json:"contacts"`
}

func (s *Server) handlePermitContacts(w http.ResponseWriter, r *http.Request) {
	permitStep(s, w, r, "contacts", func(ctx context.Context, ps *permits.Service, id int64, b *contactsBody) (*service.Permit, error) {
		return ps.ChangeContacts(ctx, id, b.Contacts)
	})
}

func (s *Server) handlePermitRestrictions(w http.ResponseWriter, r *http.Request) {
	permitStep(s, w, r, "restrictions", func(ctx context.Context, ps *permits.Service, id int64, m *permits.Modification) (*service.Permit, error) {
		return ps.Modify(ctx, id, *m)
	})
}

func (s *Server) handleRenewPermit(w http.ResponseWriter, r *http.Request) {
	permitStep(s, w, r, "renew", func(ctx context.Context, ps *permits.Service, id int64, req *permits.Request) (*service.Permit, error) {
		req.Site = callerOf(r.Context()).Site
		return ps.Renew(ctx, id, req)
	})
}

func (s *Server) handleRegisterPermit(w http.ResponseWriter, r *http.Request) {
	permitStep(s, w, r, "registration", func(ctx context.Context, ps *permits.Service, id int64, b *dateBody) (*service.Permit, error) {
		return ps.Register(ctx, id, b.On)
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
	ctx, ch := s.changing(r, "agreement.create", "adoption_agreement", 0, "")
	a, err := ps.Agree(ctx, &req)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.changed(r, ch, a.ID)
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
	ctx, ch := s.changing(r, "agreement.sterilised", "adoption_agreement", id, st.Veterinarian)
	a, err := ps.Sterilised(ctx, id, st)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.changed(r, ch, a.ID)
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
	ctx, ch := s.changing(r, "report.create", "animal_report", 0, string(req.Kind))
	rep, err := ps.Report(ctx, &req)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.changed(r, ch, rep.ID)
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
	ctx, ch := s.changing(r, "report.close", "animal_report", id, "")
	rep, err := ps.CloseReport(ctx, id, b.On)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.changed(r, ch, rep.ID)
	s.writeJSON(w, r, http.StatusOK, rep)
}
