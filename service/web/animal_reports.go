package web

import (
	"bytes"
	"html/template"
	"net/http"
	"strings"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/incidents"
	"github.com/chipdesk/chipdesk/service/money"
)

// animalReportRoutes are the report pages on animals: the
// dangerous-animal register (each requirement's state from
// service/incidents) and the licensed animals whose rabies vaccination
// lapsed (service/money), each a chart drawn on the server, the table
// below it and a CSV.
func (h *Handler) animalReportRoutes(m *http.ServeMux) {
	if h.o.Incidents != nil {
		m.HandleFunc("GET /reports/dangerous", h.page(deskRoles, h.handleRegisterPage))
		m.HandleFunc("GET /reports/dangerous.csv", h.page(deskRoles, h.handleRegisterCSV))
	}
	if h.o.Money != nil {
		m.HandleFunc("GET /reports/rabies-lapsed", h.page(deskRoles, h.handleRabiesPage))
		m.HandleFunc("GET /reports/rabies-lapsed.csv", h.page(deskRoles, h.handleRabiesCSV))
	}
}

// reportAsOf reads the optional as_of day; zero is today.
func reportAsOf(r *http.Request) (service.Date, error) {
	v := strings.TrimSpace(r.FormValue("as_of"))
	if v == "" {
		return 0, nil
	}
	return service.ParseDateField("as_of", v)
}

// registerPage is the dangerous-animal register with its chart.
type registerPage struct {
	Register *incidents.Register
	Chart    template.HTML
}

func (h *Handler) register(r *http.Request) (*incidents.Register, error) {
	on, err := reportAsOf(r)
	if err != nil {
		return nil, err
	}
	return h.o.Incidents.Register(r.Context(), on)
}

func (h *Handler) handleRegisterPage(w http.ResponseWriter, r *http.Request) {
	reg, err := h.register(r)
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	p := &registerPage{Register: reg, Chart: template.HTML(money.BarChart("Requirements of designated animals by state", reg.Bars(), money.Count))}
	h.render(w, r, http.StatusOK, "dangerous_register", "Dangerous-animal register", &view{Data: p})
}

func (h *Handler) handleRegisterCSV(w http.ResponseWriter, r *http.Request) {
	reg, err := h.register(r)
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	writeReportCSV(w, func(b *bytes.Buffer) error { return reg.WriteCSV(b) })
}

// rabiesPage is the lapsed-rabies report with its chart.
type rabiesPage struct {
	Report *money.RabiesReport
	Chart  template.HTML
}

func (h *Handler) rabies(r *http.Request) (*money.RabiesReport, error) {
	on, err := reportAsOf(r)
	if err != nil {
		return nil, err
	}
	return h.o.Money.LapsedRabies(r.Context(), on)
}

func (h *Handler) handleRabiesPage(w http.ResponseWriter, r *http.Request) {
	rep, err := h.rabies(r)
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	p := &rabiesPage{Report: rep, Chart: template.HTML(money.BarChart("Licensed animals with rabies vaccination lapsed", rep.ByJurisdiction(), money.Count))}
	h.render(w, r, http.StatusOK, "rabies_lapsed", "Rabies vaccination lapsed", &view{Data: p})
}

func (h *Handler) handleRabiesCSV(w http.ResponseWriter, r *http.Request) {
	rep, err := h.rabies(r)
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	writeReportCSV(w, func(b *bytes.Buffer) error { return rep.WriteCSV(b) })
}

// writeReportCSV answers a report's CSV.
func writeReportCSV(w http.ResponseWriter, write func(*bytes.Buffer) error) {
	var b bytes.Buffer
	if err := write(&b); err != nil {
		http.Error(w, "Internal error.", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	w.Write(b.Bytes())
}
