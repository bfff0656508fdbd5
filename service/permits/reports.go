package permits

import (
	"context"
	"strings"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/rules"
)

// ReportRequest is a bite report (66.60) or a rabies-suspect report
// (66.70) taken in at the desk or through the API.
type ReportRequest struct {
	Kind         service.AnimalReportKind `json:"kind"`
	Jurisdiction string                   `json:"jurisdiction"`
	Reported     service.Date             `json:"reported"`
	Reporter     service.Person           `json:"reporter"`
	// ReporterRole is physician or person (66.60), veterinarian (66.70).
	ReporterRole      string           `json:"reporter_role"`
	Persons           []service.Person `json:"persons"`
	AnimalID          int64            `json:"animal_id"`
	AnimalDescription string           `json:"animal_description"`
	Incident          service.Date     `json:"incident"`
	Location          string           `json:"location"`
	Diagnosis         string           `json:"diagnosis"`
	Notes             string           `json:"notes"`
	// SkinBroken: the bite caused an abrasion or puncture (66.40(a)).
	SkinBroken bool   `json:"skin_broken"`
	Site       string `json:"-"`
}

// Report takes a report in and opens it on the officer's list. A bite
// report naming an animal on file also records the bite on the animal
// (victim a person) through Opts.Bites, which starts the quarantine of
// 66.40.
func (s *Service) Report(ctx context.Context, req *ReportRequest) (*service.AnimalReport, error) {
	pr, err := s.profile(req.Jurisdiction)
	if err != nil {
		return nil, err
	}
	if pr.Permits == nil || pr.Permits.Reports == nil {
		return nil, service.Invalidf("jurisdiction", "%s takes no bite or rabies-suspect reports here.", pr.Name)
	}
	var r *rules.ReportRule
	switch req.Kind {
	case service.ReportBite:
		r = &pr.Permits.Reports.Bite
	case service.ReportRabiesSuspect:
		r = &pr.Permits.Reports.RabiesSuspect
	default:
		return nil, service.Invalidf("kind", "Report kind must be bite or rabies_suspect.")
	}
	if !contains(r.Reporters.Value, req.ReporterRole) {
		return nil, service.Invalidf("reporter_role", "reporter_role must be one of %v (%s).", r.Reporters.Value, r.Reporters.Source)
	}
	if strings.TrimSpace(req.Reporter.Name) == "" {
		return nil, service.Invalidf("reporter.name", "reporter.name required (%s).", r.Reporters.Source)
	}
	switch req.Kind {
	case service.ReportBite:
		if len(req.Persons) == 0 {
			return nil, service.Invalidf("persons", "persons required: the names and addresses of persons treated for bites (%s).", r.Reporters.Source)
		}
		for _, p := range req.Persons {
			if strings.TrimSpace(p.Name) == "" || strings.TrimSpace(p.Address) == "" {
				return nil, service.Invalidf("persons", "persons: each person treated needs a name and an address (%s).", r.Reporters.Source)
			}
		}
	case service.ReportRabiesSuspect:
		if strings.TrimSpace(req.Diagnosis) == "" {
			return nil, service.Invalidf("diagnosis", "diagnosis required (%s).", r.Reporters.Source)
		}
		if req.AnimalID == 0 && strings.TrimSpace(req.AnimalDescription) == "" {
			return nil, service.Invalidf("animal_id", "animal_id or animal_description required (%s).", r.Reporters.Source)
		}
	}
	if req.AnimalID != 0 {
		if _, err := s.record(ctx, req.AnimalID); err != nil {
			return nil, err
		}
	}
	today := pr.Today(s.now())
	rep := &service.AnimalReport{Kind: req.Kind, Jurisdiction: pr.ID, ReportedOn: orToday(req.Reported, today), Reporter: req.Reporter,
		ReporterRole: req.ReporterRole, Persons: req.Persons, AnimalID: req.AnimalID, AnimalDescription: req.AnimalDescription,
		IncidentOn: req.Incident, Location: req.Location, Diagnosis: req.Diagnosis, Notes: req.Notes, Open: true, Site: req.Site}
	if rep.Kind == service.ReportBite && rep.AnimalID != 0 {
		b := &service.BiteIncident{AnimalID: rep.AnimalID, Date: orToday(rep.IncidentOn, rep.ReportedOn), Victim: service.VictimPerson,
			SkinBroken: req.SkinBroken, Location: rep.Location, Notes: "Reported under 66.60 by " + rep.Reporter.Name}
		if s.bites != nil {
			q, err := s.bites.RecordBiteQuarantine(ctx, b)
			if err != nil {
				return nil, err
			}
			if q != nil {
				rep.QuarantineID = q.ID
			}
		} else if err := s.store.CreateBite(ctx, b); err != nil {
			return nil, err
		}
		rep.BiteID = b.ID
	}
	if err := s.store.CreateAnimalReport(ctx, rep); err != nil {
		return nil, err
	}
	return rep, nil
}

// CloseReport closes a report on the officer's list.
func (s *Service) CloseReport(ctx context.Context, id int64, on service.Date) (*service.AnimalReport, error) {
	r, err := s.store.FindAnimalReportByID(ctx, id)
	if err != nil {
		return nil, err
	}
	if !r.Open {
		return nil, service.Errorf(service.ECONFLICT, "Report %d was closed on %s.", id, r.ClosedOn)
	}
	r.Open, r.ClosedOn = false, orToday(on, s.today(r.Jurisdiction))
	if err := s.store.UpdateAnimalReport(ctx, r); err != nil {
		return nil, err
	}
	return r, nil
}

// Reports lists reports, open ones only when open.
func (s *Service) Reports(ctx context.Context, open bool) ([]*service.AnimalReport, error) {
	return s.store.FindAnimalReports(ctx, open)
}
