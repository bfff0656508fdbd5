package web

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/custody"
	"github.com/chipdesk/chipdesk/service/licensing"
)

// The custody loop: impound (intake.go), give the notice, redeem,
// release, or after the hold adopt out, transfer or euthanise; the "In
// custody" list and the "Today" page. custody.Service decides each step
// and computes every date and fee; these handlers parse and render.

func (h *Handler) custodyRoutes() {
	m := h.mux
	m.HandleFunc("GET /custody", h.page(deskRoles, h.handleCustody))
	m.HandleFunc("GET /custody/{id}", h.page(deskRoles, h.handleStay))
	m.HandleFunc("POST /custody/{id}/notice", h.page(intakeRoles, h.handleNotice))
	m.HandleFunc("POST /custody/{id}/release", h.page(intakeRoles, h.handleRelease))
	m.HandleFunc("GET /today", h.page(deskRoles, h.handleToday))
	m.HandleFunc("GET /today/part", h.page(deskRoles, h.handleTodayPart))
}

// stayRow is a stay with its animal, as the pages list it.
type stayRow struct {
	*custody.Stay
	Animal *service.Animal
	Owner  *service.Owner
}

func (h *Handler) stayRows(ctx context.Context, stays []*custody.Stay) ([]stayRow, error) {
	out := make([]stayRow, 0, len(stays))
	for _, st := range stays {
		a, err := h.o.Store.FindAnimalByID(ctx, st.AnimalID)
		if err != nil {
			return nil, err
		}
		row := stayRow{Stay: st, Animal: a}
		if a.OwnerID != 0 {
			if row.Owner, err = h.o.Store.FindOwnerByID(ctx, a.OwnerID); err != nil && service.ErrorCode(err) != service.ENOTFOUND {
				return nil, err
			}
		}
		out = append(out, row)
	}
	return out, nil
}

// handleCustody lists every animal in custody, at every site (each row
// names its own): hold-until, days held, the fees to date and what is
// due.
func (h *Handler) handleCustody(w http.ResponseWriter, r *http.Request) {
	stays, err := h.o.Custody.InCustody(r.Context(), "")
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	rows, err := h.stayRows(r.Context(), stays)
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	h.render(w, r, http.StatusOK, "custody", "In custody", &view{Data: rows})
}

type stayData struct {
	stayRow
	R    *recordView
	CSRF string
	Form *Form
	// CanAct is set for the roles that record custody steps.
	CanAct bool
	Today  service.Date
	// Ends are the dispositions the end form offers today.
	Ends []service.Disposition
}

// handleStay is one stay: the animal, the hold, the fees and the steps
// it allows today.
func (h *Handler) handleStay(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r)
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	st, err := h.o.Custody.Find(r.Context(), id, 0)
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	rows, err := h.stayRows(r.Context(), []*custody.Stay{st})
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	a, err := h.o.Lookup.ByAnimal(r.Context(), st.AnimalID)
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	a.Redemption = nil // the stay's own fee table shows it
	ss := sess(r)
	d := stayData{stayRow: rows[0], R: h.recordView(r, a), CSRF: ss.csrf, Form: formOf(r),
		CanAct: allowed(ss.role, intakeRoles), Today: st.AsOf}
	if st.Steps.MayDispose {
		d.Ends = append(d.Ends, service.Adopted, service.Transferred, service.Euthanised)
	}
	if st.Disposition == service.Held {
		d.Ends = append(d.Ends, service.Died)
	}
	h.audit(r, "page.stay", "impoundment", id, "")
	h.render(w, r, http.StatusOK, "stay", fmt.Sprintf("Impoundment %d · %s", id, animalName(rows[0].Animal)), &view{Data: d})
}

// animalName is how the pages name an animal.
func animalName(a *service.Animal) string {
	if a == nil {
		return "animal"
	}
	if a.Name != "" {
		return a.Name
	}
	return fmt.Sprintf("Animal %d", a.ID)
}

// handleNotice records the notice of impounding given to the owner
// (5-73(a), 62.40(b)); the hold is computed again from it.
func (h *Handler) handleNotice(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r)
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	back := fmt.Sprintf("/custody/%d", id)
	on, err := formDate(r, "notice_on")
	if err != nil {
		h.formError(w, r, back, err)
		return
	}
	ctx, ch := h.changing(r, "impoundment.update", "impoundment", id, "notice "+on.String())
	st, err := h.o.Custody.Update(ctx, id, service.ImpoundUpdate{NoticeOn: &on})
	if err != nil {
		h.formError(w, r, back, err)
		return
	}
	h.committed(r, ch, id)
	seeOther(w, r, back, fmt.Sprintf("Notice of impounding recorded (%s). Held until %s.", on, st.Hold.Until))
}

// handleRelease ends a stay: redeemed by the owner with the fee lines
// custody computes and freezes, or, after the hold, adopted out,
// transferred or euthanised (62.50, 5-75); custody refuses what the law
// does not allow yet.
func (h *Handler) handleRelease(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r)
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	back := fmt.Sprintf("/custody/%d", id)
	rel := &custody.Release{Disposition: service.Disposition(strings.TrimSpace(r.PostFormValue("disposition"))),
		Note: strings.TrimSpace(r.PostFormValue("note"))}
	if strings.TrimSpace(r.PostFormValue("disposition_on")) != "" {
		if rel.On, err = formDate(r, "disposition_on"); err != nil {
			h.formError(w, r, back, err)
			return
		}
	}
	ctx, ch := h.changing(r, "impoundment.update", "impoundment", id, string(rel.Disposition))
	st, err := h.o.Custody.Release(ctx, id, rel)
	if err != nil {
		h.formError(w, r, back, err)
		return
	}
	h.committed(r, ch, id)
	msg := fmt.Sprintf("Impoundment %d ended: %s on %s.", id, strings.ToLower(say(st.Disposition)), st.DispositionOn)
	if st.Redemption != nil && st.Redemption.TotalCents != nil {
		msg += " Fees " + moneyText(*st.Redemption.TotalCents) + "."
	}
	seeOther(w, r, back, msg)
}

// todayData is the Today page: the day's scans, intakes, releases and
// licences.
type todayData struct {
	Day      *custody.Day
	Scans    []recentScan
	Intake   []stayRow
	Ended    []stayRow
	Licences []todayLicence
	Live     bool
}

type todayLicence struct {
	*service.Licence
	Animal *service.Animal
}

// maxToday bounds each list of the Today page.
const maxToday = 200

func (h *Handler) todayData(r *http.Request) (*todayData, error) {
	ctx := r.Context()
	site := "" // the whole service's day; each row names its site
	day, err := h.o.Custody.OnDay(ctx, h.o.Jurisdiction, site, 0)
	if err != nil {
		return nil, err
	}
	d := &todayData{Day: day, Live: h.o.Hub != nil}
	f := service.ScanFilter{Since: &day.Since, Limit: maxToday}
	if site != "" {
		f.Site = &site
	}
	scans, _, err := h.o.Store.FindScans(ctx, f)
	if err != nil {
		return nil, err
	}
	if d.Scans, err = h.recentScans(ctx, scans); err != nil {
		return nil, err
	}
	if d.Intake, err = h.stayRows(ctx, day.Intake); err != nil {
		return nil, err
	}
	if d.Ended, err = h.stayRows(ctx, day.Ended); err != nil {
		return nil, err
	}
	lf := service.LicenceFilter{IssuedSince: &day.On, Limit: maxToday}
	if site != "" {
		lf.Site = &site
	}
	ls, _, err := h.o.Store.FindLicences(ctx, lf)
	if err != nil {
		return nil, err
	}
	for _, l := range ls {
		a, err := h.o.Store.FindAnimalByID(ctx, l.AnimalID)
		if err != nil && service.ErrorCode(err) != service.ENOTFOUND {
			return nil, err
		}
		d.Licences = append(d.Licences, todayLicence{Licence: l, Animal: a})
	}
	return d, nil
}

// handleToday is the day at the desk; the page follows the scan stream
// and fetches its lists again after each scan.
func (h *Handler) handleToday(w http.ResponseWriter, r *http.Request) {
	d, err := h.todayData(r)
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	h.render(w, r, http.StatusOK, "today", "Today, "+d.Day.On.String(), &view{Data: d})
}

func (h *Handler) handleTodayPart(w http.ResponseWriter, r *http.Request) {
	d, err := h.todayData(r)
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	h.fragment(w, r, "todaypart", d)
}

// moneyText is cents as the pages show money.
func moneyText(c int64) string { return licensing.Money(c) }
