package httpapi

import (
	"bytes"
	"net/http"
	"strconv"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/money"
)

// moneyRoutes are the charges, payments, deposits and reports (package
// service/money). The counter (clinic, intake) takes money; a clinic
// sees only its own site's takings and its own remittance.
func (s *Server) moneyRoutes() []route {
	office := []service.Role{service.RoleIntake}
	return []route{
		{"GET /api/v1/charges", staff, s.withMoney(s.handleFindCharges)},
		{"GET /api/v1/settlement", staff, s.withMoney(s.handleSettlement)},
		{"POST /api/v1/impoundments/{id}/charges", desk, s.withMoney(raiseCharges(s, "impoundment",
			func(r *http.Request, m *money.Service, id int64, b *redemptionCharges) ([]*service.Charge, []string, error) {
				return m.ChargeRedemptionFees(r.Context(), id, b.Entered)
			}))},
		{"POST /api/v1/permits/{id}/charges", desk, s.withMoney(raiseCharges(s, "permit",
			func(r *http.Request, m *money.Service, id int64, b *permitCharges) ([]*service.Charge, []string, error) {
				return m.ChargePermitFees(r.Context(), id, b.Registration, b.Entered)
			}))},
		{"POST /api/v1/adoption-agreements/{id}/charges", desk, s.withMoney(raiseCharges(s, "adoption_agreement",
			func(r *http.Request, m *money.Service, id int64, b *redemptionCharges) ([]*service.Charge, []string, error) {
				return m.ChargeAdoptionFees(r.Context(), id, b.Entered)
			}))},
		{"POST /api/v1/payments", counter, s.withMoney(s.handlePay)},
		{"GET /api/v1/payments/{id}", counter, s.withMoney(s.handleReceipt)},
		{"POST /api/v1/payments/{id}/refund", office, s.withMoney(s.handleRefund)},
		{"POST /api/v1/payments/{id}/void", counter, s.withMoney(s.handleVoid)},
		{"GET /api/v1/reports/cash-up", counter, s.withMoney(s.handleCashUp)},
		{"POST /api/v1/reports/cash-up/close", counter, s.withMoney(s.handleCloseDay)},
		{"GET /api/v1/reports/remittance", counter, s.withMoney(s.handleRemittance)},
		{"GET /api/v1/reports/licences", desk, s.withMoney(s.handleSalesReport)},
		{"GET /api/v1/reports/intakes", desk, s.withMoney(s.handleIntakeReport)},
		{"GET /api/v1/deposits", desk, s.withMoney(s.handleDeposits)},
		{"POST /api/v1/deposits/{id}/refund", desk, s.withMoney(s.handleRefundDeposit)},
		{"POST /api/v1/deposits/{id}/forfeit", desk, s.withMoney(s.handleForfeitDeposit)},
		{"POST /api/v1/exemptions", office, s.withMoney(s.handleCreateExemption)},
		{"GET /api/v1/animals/{id}/exemptions", staff, s.handleAnimalExemptions},
	}
}

// withMoney hands h the money service, answering 404 when the server
// keeps no payments.
func (s *Server) withMoney(h func(http.ResponseWriter, *http.Request, *money.Service)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if s.money == nil {
			s.writeError(w, r, service.Errorf(service.ENOTFOUND, "Payments are not kept on this server."))
			return
		}
		h(w, r, s.money)
	}
}

// subjectQuery reads licence_id, impoundment_id or permit_id.
func subjectQuery(r *http.Request) (string, int64, error) {
	q := r.URL.Query()
	for _, k := range []struct{ param, kind string }{
		{"licence_id", service.SubjectLicence}, {"impoundment_id", service.SubjectImpoundment}, {"permit_id", service.SubjectPermit},
		{"adoption_id", service.SubjectAdoption},
	} {
		if v := q.Get(k.param); v != "" {
			id, err := strconv.ParseInt(v, 10, 64)
			if err != nil || id <= 0 {
				return "", 0, service.Errorf(service.EINVALID, "%s must be a record id.", k.param)
			}
			return k.kind, id, nil
		}
	}
	return "", 0, service.Errorf(service.EINVALID, "licence_id, impoundment_id, permit_id or adoption_id required.")
}

func (s *Server) handleFindCharges(w http.ResponseWriter, r *http.Request, m *money.Service) {
	kind, id, err := subjectQuery(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	cs, err := m.Charges(r.Context(), kind, id)
	writeList(s, w, r, cs, len(cs), err)
}

func (s *Server) handleSettlement(w http.ResponseWriter, r *http.Request, m *money.Service) {
	kind, id, err := subjectQuery(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	st, err := m.Settled(r.Context(), kind, id)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.writeJSON(w, r, http.StatusOK, st)
}

// redemptionCharges is the body of POST /api/v1/impoundments/{id}/charges:
// the amounts of fees set by resolution, by fee code.
type redemptionCharges struct {
	Entered map[string]int64 `json:"entered_cents"`
}

// permitCharges is the body of POST /api/v1/permits/{id}/charges: the
// amounts of fees set by resolution, by fee code, for the permit's grant
// or (registration) its last annual registration.
type permitCharges struct {
	Entered      map[string]int64 `json:"entered_cents"`
	Registration bool             `json:"registration,omitempty"`
}

// raiseCharges answers POST .../{id}/charges of subject: raise raises
// the charges of the record id with the body b, and the answer is them
// with the fee codes still left to a resolution.
func raiseCharges[B any](s *Server, subject string, raise func(r *http.Request, m *money.Service, id int64, b *B) ([]*service.Charge, []string, error)) func(http.ResponseWriter, *http.Request, *money.Service) {
	return func(w http.ResponseWriter, r *http.Request, m *money.Service) {
		id, err := pathID(r)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		var b B
		if err := decodeJSON(r, &b); err != nil {
			s.writeError(w, r, err)
			return
		}
		ctx, ch := s.changing(r, "charges.create", subject, id, "")
		cs, open, err := raise(r.WithContext(ctx), m, id, &b)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		s.changed(r, ch, id)
		if cs == nil {
			cs = []*service.Charge{}
		}
		if open == nil {
			open = []string{}
		}
		s.writeJSON(w, r, http.StatusCreated, redemptionAnswer{Charges: cs, NotSet: open})
	}
}

// redemptionAnswer is the charges raised on a redemption and the fee
// codes still left to a resolution (not_set).
type redemptionAnswer struct {
	Charges []*service.Charge `json:"charges"`
	NotSet  []string          `json:"not_set"`
}

// paymentBody is the body of POST /api/v1/payments and of a refund or
// void.
type paymentBody struct {
	ChargeIDs   []int64               `json:"charge_ids"`
	Method      service.PaymentMethod `json:"method"`
	AmountCents int64                 `json:"amount_cents"`
	Reference   string                `json:"reference"`
	ApprovedBy  string                `json:"approved_by"`
	Till        string                `json:"till"`
	Lines       []service.PaymentLine `json:"lines"`
}

// paymentAnswer is a payment with the charges it settled (or gave back
// on), each as it stands after it.
type paymentAnswer struct {
	*service.Payment
	Charges []*service.Charge `json:"charges"`
}

func (s *Server) record(w http.ResponseWriter, r *http.Request, m *money.Service, req *service.PaymentRequest) {
	c := callerOf(r.Context())
	req.Site, req.TakenBy = c.Site, c.Name
	if k := r.Header.Get(IdempotencyHeader); k != "" {
		// The key is the till's: the same key from another token is
		// another payment.
		req.Key = strconv.FormatInt(c.ID, 10) + "/" + k
	}
	ctx, ch := s.changing(r, "payment."+string(req.Kind), "payment", 0, strconv.FormatInt(req.AmountCents, 10))
	p, created, err := m.Pay(ctx, req)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	rc, err := m.Receipt(r.Context(), p.ID)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	status := http.StatusOK
	if created {
		status = http.StatusCreated
		s.changed(r, ch, p.ID)
	}
	s.writeJSON(w, r, status, paymentAnswer{Payment: rc.Payment, Charges: rc.Charges})
}

func (s *Server) handlePay(w http.ResponseWriter, r *http.Request, m *money.Service) {
	var b paymentBody
	if err := decodeJSON(r, &b); err != nil {
		s.writeError(w, r, err)
		return
	}
	s.record(w, r, m, &service.PaymentRequest{ChargeIDs: b.ChargeIDs, Payment: service.Payment{Kind: service.KindPayment,
		Method: b.Method, AmountCents: b.AmountCents, Reference: b.Reference, ApprovedBy: b.ApprovedBy, Till: b.Till}})
}

func (s *Server) reverse(w http.ResponseWriter, r *http.Request, m *money.Service, kind service.PaymentKind) {
	id, err := pathID(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	var b paymentBody
	if err := decodeJSON(r, &b); err != nil {
		s.writeError(w, r, err)
		return
	}
	if kind == service.KindVoid && b.AmountCents == 0 {
		if p, err := s.store.FindPaymentByID(r.Context(), id); err == nil {
			b.AmountCents = p.AmountCents
		}
	}
	method := b.Method
	if method == "" {
		method = service.MethodCash // the store gives back by the payment's own method
	}
	s.record(w, r, m, &service.PaymentRequest{Payment: service.Payment{Kind: kind, Method: method, AmountCents: b.AmountCents,
		Reference: b.Reference, ApprovedBy: b.ApprovedBy, Till: b.Till, Reverses: id, Lines: b.Lines}})
}

func (s *Server) handleRefund(w http.ResponseWriter, r *http.Request, m *money.Service) {
	s.reverse(w, r, m, service.KindRefund)
}
func (s *Server) handleVoid(w http.ResponseWriter, r *http.Request, m *money.Service) {
	s.reverse(w, r, m, service.KindVoid)
}

func (s *Server) handleReceipt(w http.ResponseWriter, r *http.Request, m *money.Service) {
	id, err := pathID(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	rc, err := m.Receipt(r.Context(), id)
	if err == nil && !ownSite(r, rc.Payment.Site) {
		err = service.Errorf(service.ENOTFOUND, "Payment not found.")
	}
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.writeJSON(w, r, http.StatusOK, paymentAnswer{Payment: rc.Payment, Charges: rc.Charges})
}

// ownSite reports whether the caller may see what was taken at site: a
// clinic sees only its own.
func ownSite(r *http.Request, site string) bool {
	c := callerOf(r.Context())
	return c.Role != service.RoleClinic || c.Site == site
}

// siteScope is the site a clinic is limited to, else the site query
// parameter (nil: all sites).
func siteScope(r *http.Request) *string {
	c := callerOf(r.Context())
	if c.Role == service.RoleClinic {
		return &c.Site
	}
	if v, ok := r.URL.Query()["site"]; ok {
		return &v[0]
	}
	return nil
}

// dateQuery reads a YYYY-MM-DD query parameter.
func dateQuery(r *http.Request, name string) (service.Date, error) {
	d, err := service.ParseDate(r.URL.Query().Get(name))
	if err != nil || d.IsZero() {
		return 0, service.Errorf(service.EINVALID, "%s must be a date (YYYY-MM-DD).", name)
	}
	return d, nil
}

// cashUpAnswer is a cash-up with its day and scope.
type cashUpAnswer struct {
	Date string  `json:"date"`
	Site *string `json:"site"`
	Till *string `json:"till"`
	*service.CashUp
	Closed bool `json:"closed"`
}

func (s *Server) handleCashUp(w http.ResponseWriter, r *http.Request, m *money.Service) {
	day, err := dateQuery(r, "date")
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	site := siteScope(r)
	var till *string
	if v, ok := r.URL.Query()["till"]; ok {
		till = &v[0]
	}
	cu, err := m.CashUp(r.Context(), day, site, till)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if r.URL.Query().Get("format") == "csv" {
		var b bytes.Buffer
		money.WriteCashUpCSV(&b, day.String(), cu)
		w.Header().Set("Content-Type", "text/csv; charset=utf-8")
		w.Header().Set("Content-Disposition", `attachment; filename="cash-up-`+day.String()+`.csv"`)
		w.Write(b.Bytes())
		return
	}
	a := cashUpAnswer{Date: day.String(), Site: site, Till: till, CashUp: cu}
	if site != nil && till != nil {
		_, err := s.store.FindDayClose(r.Context(), *site, *till, day)
		a.Closed = err == nil
	}
	s.writeJSON(w, r, http.StatusOK, a)
}

// closeBody is the body of POST /api/v1/reports/cash-up/close.
type closeBody struct {
	Date service.Date `json:"date"`
	Till string       `json:"till"`
}

func (s *Server) handleCloseDay(w http.ResponseWriter, r *http.Request, m *money.Service) {
	var b closeBody
	if err := decodeJSON(r, &b); err != nil {
		s.writeError(w, r, err)
		return
	}
	c := callerOf(r.Context())
	d := &service.DayClose{Site: c.Site, Till: b.Till, On: b.Date, ClosedBy: c.Name}
	ctx, ch := s.changing(r, "cash-up.close", "till", 0, c.Site+"/"+b.Till+" "+b.Date.String())
	if err := m.CloseDay(ctx, d); err != nil {
		s.writeError(w, r, err)
		return
	}
	s.changed(r, ch, 0)
	s.writeJSON(w, r, http.StatusCreated, d)
}

func (s *Server) handleRemittance(w http.ResponseWriter, r *http.Request, m *money.Service) {
	clinic := r.URL.Query().Get("clinic")
	if c := callerOf(r.Context()); c.Role == service.RoleClinic {
		if clinic != "" && clinic != c.Site {
			s.writeError(w, r, service.Errorf(service.EFORBIDDEN, "A clinic sees only its own remittance."))
			return
		}
		clinic = c.Site
	}
	st, err := m.Remittance(r.Context(), clinic, r.URL.Query().Get("month"))
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.writeJSON(w, r, http.StatusOK, st)
}

// period reads from and to.
func period(r *http.Request) (service.Date, service.Date, error) {
	from, err := dateQuery(r, "from")
	if err != nil {
		return 0, 0, err
	}
	to, err := dateQuery(r, "to")
	return from, to, err
}

func (s *Server) handleSalesReport(w http.ResponseWriter, r *http.Request, m *money.Service) {
	from, to, err := period(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	rep, err := m.Sales(r.Context(), from, to)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	switch r.URL.Query().Get("format") {
	case "csv":
		var b bytes.Buffer
		rep.WriteCSV(&b)
		w.Header().Set("Content-Type", "text/csv; charset=utf-8")
		w.Write(b.Bytes())
	case "svg":
		w.Header().Set("Content-Type", "image/svg+xml")
		w.Write(money.BarChart("Licences sold by month", rep.ByMonth(), money.Count))
	default:
		s.writeJSON(w, r, http.StatusOK, salesAnswer{From: from, To: to, Count: rep.Count, Cents: rep.Cents, Rows: rep.Rows})
	}
}

// salesAnswer is the licence sales report of a period.
type salesAnswer struct {
	From  service.Date       `json:"from"`
	To    service.Date       `json:"to"`
	Count int                `json:"count"`
	Cents int64              `json:"cents"`
	Rows  []service.SalesRow `json:"rows"`
}

func (s *Server) handleIntakeReport(w http.ResponseWriter, r *http.Request, m *money.Service) {
	from, to, err := period(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	rows, err := m.Intakes(r.Context(), from, to)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if r.URL.Query().Get("format") == "csv" {
		var b bytes.Buffer
		money.WriteIntakesCSV(&b, rows)
		w.Header().Set("Content-Type", "text/csv; charset=utf-8")
		w.Write(b.Bytes())
		return
	}
	s.writeJSON(w, r, http.StatusOK, intakesAnswer{From: from, To: to, Rows: rows})
}

// intakesAnswer is the intake report of a period, a row a month.
type intakesAnswer struct {
	From service.Date        `json:"from"`
	To   service.Date        `json:"to"`
	Rows []service.IntakeRow `json:"rows"`
}

func (s *Server) handleDeposits(w http.ResponseWriter, r *http.Request, m *money.Service) {
	ds, err := m.Deposits(r.Context(), m.Today(""))
	writeList(s, w, r, ds, len(ds), err)
}

// depositBody is the body of a deposit refund or forfeit.
type depositBody struct {
	Proof string `json:"proof"`
	Till  string `json:"till"`
}

func (s *Server) handleRefundDeposit(w http.ResponseWriter, r *http.Request, m *money.Service) {
	id, err := pathID(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	var b depositBody
	if err := decodeJSON(r, &b); err != nil {
		s.writeError(w, r, err)
		return
	}
	c := callerOf(r.Context())
	ctx, ch := s.changing(r, "deposit.refund", "charge", id, b.Proof)
	p, err := m.RefundDeposit(ctx, id, m.Today(""), c.Name, b.Proof, c.Site, b.Till)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.changed(r, ch, id)
	s.writeJSON(w, r, http.StatusCreated, p)
}

func (s *Server) handleForfeitDeposit(w http.ResponseWriter, r *http.Request, m *money.Service) {
	id, err := pathID(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	ctx, ch := s.changing(r, "deposit.forfeit", "charge", id, "")
	c, err := m.ForfeitDeposit(ctx, id, m.Today(""), callerOf(r.Context()).Name)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.changed(r, ch, id)
	s.writeJSON(w, r, http.StatusOK, c)
}

func (s *Server) handleCreateExemption(w http.ResponseWriter, r *http.Request, m *money.Service) {
	var e service.Exemption
	if err := decodeJSON(r, &e); err != nil {
		s.writeError(w, r, err)
		return
	}
	e.ID = 0
	ctx, ch := s.changing(r, "exemption.create", "exemption", 0, e.Kind)
	if err := m.Exempt(ctx, &e); err != nil {
		s.writeError(w, r, err)
		return
	}
	s.changed(r, ch, e.ID)
	s.writeJSON(w, r, http.StatusCreated, &e)
}

func (s *Server) handleAnimalExemptions(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	es, err := s.store.FindExemptions(r.Context(), id)
	writeList(s, w, r, es, len(es), err)
}
