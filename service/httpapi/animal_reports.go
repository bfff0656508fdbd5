package httpapi

import (
	"bytes"
	"net/http"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/money"
)

// animalReportRoutes are the reports on animals: the dangerous-animal
// register (service/incidents decides each requirement's state) and the
// licensed animals whose rabies vaccination lapsed (service/money).
// Both answer JSON, format=csv the rows as CSV and format=svg the chart.
func (s *Server) animalReportRoutes() []route {
	return []route{
		{"GET /api/v1/reports/dangerous-register", desk, s.handleDangerousRegister},
		{"GET /api/v1/reports/rabies-lapsed", desk, s.withMoney(s.handleRabiesLapsed)},
	}
}

// writeReport answers a report as JSON, CSV or the SVG chart, as
// format asks.
func (s *Server) writeReport(w http.ResponseWriter, r *http.Request, answer any, csv func(*bytes.Buffer) error, chart func() []byte) {
	switch r.URL.Query().Get("format") {
	case "csv":
		var b bytes.Buffer
		if err := csv(&b); err != nil {
			s.writeError(w, r, err)
			return
		}
		w.Header().Set("Content-Type", "text/csv; charset=utf-8")
		w.Write(b.Bytes())
	case "svg":
		w.Header().Set("Content-Type", "image/svg+xml")
		w.Write(chart())
	case "":
		s.writeJSON(w, r, http.StatusOK, answer)
	default:
		s.writeError(w, r, service.Invalidf("format", "format must be csv or svg."))
	}
}

func (s *Server) handleDangerousRegister(w http.ResponseWriter, r *http.Request) {
	on, err := s.asOf(r, r.URL.Query())
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	reg, err := s.inc.Register(r.Context(), on)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.writeReport(w, r, reg, func(b *bytes.Buffer) error { return reg.WriteCSV(b) },
		func() []byte {
			return money.BarChart("Requirements of designated animals by state", reg.Bars(), money.Count)
		})
}

func (s *Server) handleRabiesLapsed(w http.ResponseWriter, r *http.Request, m *money.Service) {
	on, err := s.asOf(r, r.URL.Query())
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	rep, err := m.LapsedRabies(r.Context(), on)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.writeReport(w, r, rep, func(b *bytes.Buffer) error { return rep.WriteCSV(b) },
		func() []byte {
			return money.BarChart("Licensed animals with rabies vaccination lapsed", rep.ByJurisdiction(), money.Count)
		})
}
