package web

import (
	"bytes"
	"html/template"
	"net/http"
	"strconv"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/money"
)

// moneyRoutes are the counter's money pages: a subject's charges with
// the payment form, the receipt, the day's cash-up and the reports.
func (h *Handler) moneyRoutes(m *http.ServeMux) {
	m.HandleFunc("GET /charges", h.page(counterRoles, h.handleCharges))
	m.HandleFunc("POST /charges/pay", h.page(counterRoles, h.handlePay))
	m.HandleFunc("GET /payments/{id}/receipt", h.page(counterRoles, h.handleReceipt))
	m.HandleFunc("GET /cash-up", h.page(counterRoles, h.handleCashUp))
	m.HandleFunc("GET /reports", h.page(deskRoles, h.handleReports))
	m.HandleFunc("GET /reports/licences.csv", h.page(deskRoles, h.handleSalesCSV))
}

// chargesPage is a licence's or impoundment's charges.
type chargesPage struct {
	Kind, Param string
	ID          int64
	Settlement  *money.Settlement
}

func subjectOf(r *http.Request) (kind, param string, id int64, err error) {
	for _, k := range []struct{ param, kind string }{{"licence_id", service.SubjectLicence}, {"impoundment_id", service.SubjectImpoundment}} {
		if v := r.FormValue(k.param); v != "" {
			id, err := strconv.ParseInt(v, 10, 64)
			if err != nil || id <= 0 {
				return "", "", 0, service.Errorf(service.EINVALID, "%s must be a record id.", k.param)
			}
			return k.kind, k.param, id, nil
		}
	}
	return "", "", 0, service.Errorf(service.EINVALID, "licence_id or impoundment_id required.")
}

func (h *Handler) handleCharges(w http.ResponseWriter, r *http.Request) {
	kind, param, id, err := subjectOf(r)
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	st, err := h.o.Money.Settled(r.Context(), kind, id)
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	h.render(w, r, http.StatusOK, "charges", "Charges", &view{Data: &chargesPage{Kind: kind, Param: param, ID: id, Settlement: st}})
}

func (h *Handler) handlePay(w http.ResponseWriter, r *http.Request) {
	kind, param, id, err := subjectOf(r)
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	cents, err := strconv.ParseInt(r.FormValue("amount_cents"), 10, 64)
	if err != nil {
		h.failErr(w, r, service.Errorf(service.EINVALID, "amount_cents must be a whole number of cents."))
		return
	}
	st, err := h.o.Money.Settled(r.Context(), kind, id)
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	var ids []int64
	for _, c := range st.Charges {
		if c.OwedCents() > 0 {
			ids = append(ids, c.ID)
		}
	}
	ss := sess(r)
	req := &service.PaymentRequest{ChargeIDs: ids, Payment: service.Payment{Kind: service.KindPayment,
		Method: service.PaymentMethod(r.FormValue("method")), AmountCents: cents, Reference: r.FormValue("reference"),
		ApprovedBy: r.FormValue("approved_by"), Till: r.FormValue("till"), Site: ss.site, TakenBy: ss.name}}
	if k := r.FormValue("key"); k != "" {
		req.Key = "web/" + strconv.FormatInt(ss.tokenID, 10) + "/" + k
	}
	ctx, ch := h.changing(r, "payment."+string(req.Kind), "payment", 0, strconv.FormatInt(req.AmountCents, 10))
	p, created, err := h.o.Money.Pay(ctx, req)
	if err == nil && created {
		h.committed(r, ch, p.ID)
	}
	if err != nil {
		h.render(w, r, http.StatusBadRequest, "charges", "Charges", &view{Error: service.ErrorMessage(err),
			Data: &chargesPage{Kind: kind, Param: param, ID: id, Settlement: st}})
		return
	}
	http.Redirect(w, r, "/payments/"+strconv.FormatInt(p.ID, 10)+"/receipt", http.StatusSeeOther)
}

func (h *Handler) handleReceipt(w http.ResponseWriter, r *http.Request) {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil || id <= 0 {
		h.failErr(w, r, service.Errorf(service.EINVALID, "Bad payment id."))
		return
	}
	rc, err := h.o.Money.Receipt(r.Context(), id)
	if err == nil {
		if ss := sess(r); ss.role == service.RoleClinic && ss.site != rc.Payment.Site {
			err = service.Errorf(service.ENOTFOUND, "Payment not found.")
		}
	}
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	h.render(w, r, http.StatusOK, "receipt", "Receipt "+strconv.FormatInt(id, 10), &view{Data: rc})
}

// cashUpPage is a day's takings at the signed-in person's site.
type cashUpPage struct {
	Date, Site string
	CashUp     *service.CashUp
	Methods    []money.Bar
	Fees       []money.Bar
	MethodSVG  template.HTML
	FeeSVG     template.HTML
}

func (h *Handler) handleCashUp(w http.ResponseWriter, r *http.Request) {
	day := h.o.Money.Today(h.o.Jurisdiction)
	if v := r.FormValue("date"); v != "" {
		d, err := service.ParseDate(v)
		if err != nil {
			h.failErr(w, r, service.Errorf(service.EINVALID, "date must be YYYY-MM-DD."))
			return
		}
		day = d
	}
	ss := sess(r)
	site := ss.site
	var sp *string
	if ss.role != service.RoleAdmin || r.FormValue("site") != "" {
		if v := r.FormValue("site"); v != "" && ss.role != service.RoleClinic {
			site = v
		}
		sp = &site
	}
	cu, err := h.o.Money.CashUp(r.Context(), day, sp, nil)
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	if r.FormValue("format") == "csv" {
		var b bytes.Buffer
		money.WriteCashUpCSV(&b, day.String(), cu)
		w.Header().Set("Content-Type", "text/csv; charset=utf-8")
		w.Header().Set("Content-Disposition", `attachment; filename="cash-up-`+day.String()+`.csv"`)
		w.Write(b.Bytes())
		return
	}
	p := &cashUpPage{Date: day.String(), Site: site, CashUp: cu, Methods: money.MethodBars(cu), Fees: money.FeeBars(cu)}
	// The charts are the package's own SVG, labels escaped there.
	p.MethodSVG = template.HTML(money.BarChart("Takings by method", p.Methods, money.Dollars))
	p.FeeSVG = template.HTML(money.BarChart("Takings by fee", p.Fees, money.Dollars))
	h.render(w, r, http.StatusOK, "cashup", "Cash-up "+day.String(), &view{Data: p})
}

// reportsPage is the licences sold in a period.
type reportsPage struct {
	From, To string
	Sales    *money.SalesReport
	Chart    template.HTML
	Intakes  []service.IntakeRow
}

func (h *Handler) period(r *http.Request) (service.Date, service.Date, error) {
	today := h.o.Money.Today(h.o.Jurisdiction)
	from, to := service.NewDate(today.Year(), 1, 1), service.NewDate(today.Year(), 12, 31)
	var err error
	if v := r.FormValue("from"); v != "" {
		if from, err = service.ParseDate(v); err != nil {
			return 0, 0, service.Errorf(service.EINVALID, "from must be YYYY-MM-DD.")
		}
	}
	if v := r.FormValue("to"); v != "" {
		if to, err = service.ParseDate(v); err != nil {
			return 0, 0, service.Errorf(service.EINVALID, "to must be YYYY-MM-DD.")
		}
	}
	return from, to, nil
}

func (h *Handler) handleReports(w http.ResponseWriter, r *http.Request) {
	from, to, err := h.period(r)
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	rep, err := h.o.Money.Sales(r.Context(), from, to)
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	in, err := h.o.Money.Intakes(r.Context(), from, to)
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	p := &reportsPage{From: from.String(), To: to.String(), Sales: rep, Intakes: in,
		Chart: template.HTML(money.BarChart("Licences sold by month", rep.ByMonth(), money.Count))}
	h.render(w, r, http.StatusOK, "reports", "Reports", &view{Data: p})
}

func (h *Handler) handleSalesCSV(w http.ResponseWriter, r *http.Request) {
	from, to, err := h.period(r)
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	rep, err := h.o.Money.Sales(r.Context(), from, to)
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	var b bytes.Buffer
	rep.WriteCSV(&b)
	w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	w.Write(b.Bytes())
}
