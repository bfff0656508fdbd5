package web

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/events"
	"github.com/chipdesk/chipdesk/service/lookup"
)

// The field page (NewField, chipdesk serve --offline) is the officer's
// page on the handheld: the lookup and the forms of the officer's page,
// answered from the handheld's offline copy and served on loopback to
// the tablet or phone in the truck. Lookups go through lookup.Service
// over the copy, so the answer is the online page's, with the copy's
// time; a bite, a pickup and a field note are queued in the copy (the
// central service applies them through its layer at the next sync
// push); the reads of the handheld's reader come live through the
// hardware Pipeline and the hub, as on the desk's page. There is no
// sign-in: the officer's PIN opened the copy when the server started,
// and the page answers only requests addressed to a loopback name.

// FieldCopy is the handheld's offline copy as the field page uses it
// (offline.Replica).
type FieldCopy interface {
	// Stale says why the copy answers no lookup (too old, never
	// pulled); nil when it does.
	Stale(ctx context.Context) error
	// PulledAt is when the copy was last pulled.
	PulledAt(ctx context.Context) (time.Time, error)
	// Queued counts the events waiting for the next push.
	Queued(ctx context.Context) (int, error)
	// FindScans lists the reads recorded on the handheld, newest first.
	FindScans(ctx context.Context, f service.ScanFilter) ([]*service.Scan, int, error)
	RecordBite(ctx context.Context, b *service.BiteIncident) (*service.DeviceEvent, error)
	RecordImpound(ctx context.Context, im *service.Impoundment) (*service.DeviceEvent, error)
	RecordNote(ctx context.Context, animalID int64, text string) (*service.DeviceEvent, error)
}

// FieldOpts configures the field page. Lookup and Copy are required.
type FieldOpts struct {
	// Lookup answers over the copy (its Store is the copy).
	Lookup *lookup.Service
	Copy   FieldCopy
	// Hub carries the reads of Readers (hardware.Pipeline over the
	// copy); nil, or no Readers, shows no live panel.
	Hub     *events.Hub
	Readers []string
	// Officer names the person the copy's events are stamped with.
	Officer string
	// Jurisdiction is the default profile of the forms.
	Jurisdiction string
	Logger       *slog.Logger
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// NewField returns the field page's handler.
func NewField(o *FieldOpts) (*Handler, error) {
	if o == nil || o.Lookup == nil || o.Copy == nil {
		return nil, errors.New("web: field page needs Lookup and Copy")
	}
	fo := *o
	h := &Handler{field: &fo, o: Opts{Lookup: o.Lookup, Hub: o.Hub, Jurisdiction: o.Jurisdiction,
		Logger: o.Logger, Now: o.Now, SessionIdle: -1}}
	if len(fo.Readers) == 0 {
		h.o.Hub = nil
	}
	if err := h.base(); err != nil {
		return nil, err
	}
	h.mux = http.NewServeMux()
	m := h.mux
	m.Handle("GET /static/", h.static)
	m.HandleFunc("GET /favicon.ico", h.handleFavicon)
	m.HandleFunc("GET /{$}", h.fieldPage(h.handleField))
	m.HandleFunc("GET /animals/{id}", h.fieldPage(h.handleFieldAnimal))
	m.HandleFunc("GET /intake/stream", h.fieldPage(h.handleStream))
	m.HandleFunc("GET /field/scans", h.fieldPage(h.handleFieldScans))
	m.HandleFunc("POST /animals/{id}/bites", h.fieldPage(h.handleFieldBite))
	m.HandleFunc("POST /animals/{id}/impound", h.fieldPage(h.handleFieldImpound))
	m.HandleFunc("POST /animals/{id}/notes", h.fieldPage(h.handleFieldNote))
	return h, nil
}

// loopbackHost reports whether a request's Host names this machine
// (127.0.0.1, ::1, localhost): a page of another site that resolves its
// name to 127.0.0.1 (DNS rebinding) gets nothing.
func loopbackHost(host string) bool {
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.Trim(host, "[]")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// fieldPage wraps a field page handler: the request must be addressed
// to a loopback name; a browser without a session is given one (no
// sign-in: the PIN opened the copy); a POST needs the session's CSRF
// token and this origin, as on the signed-in pages.
func (h *Handler) fieldPage(f http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if !loopbackHost(r.Host) {
			http.Error(w, "The handheld's page answers on 127.0.0.1 only.", http.StatusMisdirectedRequest)
			return
		}
		ss := h.current(r)
		if ss == nil {
			if r.Method != http.MethodGet {
				h.fail(w, r, nil, http.StatusForbidden, "The page has expired. Reload it and try again.")
				return
			}
			ss = &session{name: h.field.Officer, role: service.RoleOfficer}
			if err := h.sessions.start(ss); err != nil {
				h.failErr(w, r, err)
				return
			}
			setCookie(w, false, ss)
		}
		r = withShown(withSession(r, ss), ss)
		if r.Method == http.MethodPost && (!sameOrigin(r) || !ss.checkCSRF(r)) {
			h.fail(w, r, ss, http.StatusForbidden, "The form has expired or did not come from this page. Reload the page and try again.")
			return
		}
		w.Header().Set("Cache-Control", "no-store")
		f(w, r)
	}
}

// fieldData is the field page: the copy's state, the lookup and its
// answer, the live panel and the reads recorded here.
type fieldData struct {
	S searchData
	// CopyAsOf is when the copy was pulled; Stale why it answers no
	// lookup ("" when it does).
	CopyAsOf time.Time
	Stale    string
	Queued   int
	// Live is set when a reader's reads show live; Readers names them.
	Live    bool
	Readers string
	// Tag, TagJ and TagYear are the tag form as typed.
	Tag, TagJ, TagYear string
	Jurisdictions      []lookup.Jurisdiction
	Scans              []*service.Scan
	Officer            string
}

// handleField is the field page: ?q= a chip in any form reader/chipid
// reads or a tag as typed ("MPLS 2026/1234", lookup.Search), or the tag
// form's ?tag=&j=&year=.
func (h *Handler) handleField(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	d := fieldData{Tag: strings.TrimSpace(q.Get("tag")), TagJ: strings.TrimSpace(q.Get("j")), TagYear: strings.TrimSpace(q.Get("year"))}
	d.S.Q = strings.TrimSpace(q.Get("q"))
	var err error
	switch {
	case d.Tag != "":
		var a *lookup.Answer
		if a, err = h.fieldTag(r.Context(), d.Tag, d.TagJ, d.TagYear); err == nil {
			d.S.Answer = h.recordView(r, a)
		}
	case d.S.Q != "":
		var res *lookup.Search
		if res, err = h.o.Lookup.Search(r.Context(), d.S.Q); err == nil {
			h.fillSearch(r, &d.S, res)
		}
	}
	h.renderField(w, r, d, "Handheld", err)
}

// fieldTag looks a tag up by the tag form's fields: the number, the
// jurisdiction by name or code, the year (this year when empty).
func (h *Handler) fieldTag(ctx context.Context, tag, j, year string) (*lookup.Answer, error) {
	n, err := strconv.Atoi(tag)
	if err != nil || n <= 0 {
		return nil, service.Invalidf("tag", "The tag number must be a number, like 1234.")
	}
	y := 0
	if year != "" {
		if y, err = strconv.Atoi(year); err != nil || y < 1900 {
			return nil, service.Invalidf("year", "The tag's year must be a year, like 2026.")
		}
	}
	return h.o.Lookup.Lookup(ctx, lookup.Query{Tag: n, Jurisdiction: j, Year: y})
}

// handleFieldScans is the list of reads recorded on the handheld alone:
// the field page fetches it again after each scan of its stream, as the
// intake page does its latest scans.
func (h *Handler) handleFieldScans(w http.ResponseWriter, r *http.Request) {
	d := fieldData{Live: h.o.Hub != nil}
	var err error
	if d.Scans, _, err = h.field.Copy.FindScans(r.Context(), service.ScanFilter{Limit: 10}); err != nil {
		h.failErr(w, r, err)
		return
	}
	h.fragment(w, r, "fieldscans", d)
}

// handleFieldAnimal is the field page with one animal's record, from
// the copy: where a queued form comes back to.
func (h *Handler) handleFieldAnimal(w http.ResponseWriter, r *http.Request) {
	var d fieldData
	id, err := pathID(r)
	if err == nil {
		var a *lookup.Answer
		if a, err = h.o.Lookup.ByAnimal(r.Context(), id); err == nil {
			d.S.Answer = h.recordView(r, a)
		}
	}
	title := "Handheld"
	if d.S.Answer != nil {
		title = recordTitle(d.S.Answer.A)
	}
	h.renderField(w, r, d, title, err)
}

// renderField renders the field page with the copy's state; err, a
// refused lookup, is shown on the page with its status (a copy too old
// is a conflict, not a failure).
func (h *Handler) renderField(w http.ResponseWriter, r *http.Request, d fieldData, title string, err error) {
	ctx := r.Context()
	c := h.field.Copy
	var ferr error
	if d.CopyAsOf, ferr = c.PulledAt(ctx); ferr == nil {
		d.Queued, ferr = c.Queued(ctx)
	}
	if ferr == nil {
		d.Scans, _, ferr = c.FindScans(ctx, service.ScanFilter{Limit: 10})
	}
	if ferr != nil {
		h.failErr(w, r, ferr)
		return
	}
	if s := c.Stale(ctx); s != nil {
		d.Stale = service.ErrorMessage(s)
	}
	d.Live, d.Readers = h.o.Hub != nil, strings.Join(h.field.Readers, ", ")
	d.Jurisdictions, d.Officer = h.o.Lookup.Jurisdictions(), h.field.Officer
	status, v := http.StatusOK, &view{Data: d}
	if err != nil {
		status = layerStatus(err)
		if status == http.StatusInternalServerError {
			h.o.Logger.Error("web: field lookup", "path", r.URL.Path, "err", err)
		}
		// A copy too old says so once, at the top.
		if service.ErrorMessage(err) != d.Stale {
			v.Error = service.ErrorMessage(err)
		}
	}
	h.render(w, r, status, "field", title, v)
}

// handleFieldBite queues a bite on the animal looked up; pushed, the
// incidents layer records it and starts the quarantine the rules order.
func (h *Handler) handleFieldBite(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r)
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	back := fmt.Sprintf("/animals/%d", id)
	again := fmt.Sprintf("%s#bite-%d", back, id) // a refused form opens at itself
	on, err := formDate(r, "bite_date")
	if err != nil {
		h.formError(w, r, again, err)
		return
	}
	b := &service.BiteIncident{AnimalID: id, Date: on, Victim: service.Victim(r.PostFormValue("victim")),
		SkinBroken: r.PostFormValue("skin_broken") == "on", Provoked: r.PostFormValue("provoked") == "on",
		Location: strings.TrimSpace(r.PostFormValue("location")), Notes: strings.TrimSpace(r.PostFormValue("notes"))}
	if _, err := h.field.Copy.RecordBite(r.Context(), b); err != nil {
		h.formError(w, r, again, biteFormError(err))
		return
	}
	seeOther(w, r, back, "Bite of "+on.String()+" queued: the central service records it, and orders the quarantine, when the handheld syncs.")
}

// handleFieldImpound queues a pickup; pushed, custody makes the
// impoundment with the hold the rules set.
func (h *Handler) handleFieldImpound(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r)
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	back := fmt.Sprintf("/animals/%d", id)
	again := fmt.Sprintf("%s#impound-%d", back, id)
	j, err := h.jurisdiction(r.PostFormValue("jurisdiction"))
	if err != nil {
		h.formError(w, r, again, err)
		return
	}
	var notice service.Date
	if strings.TrimSpace(r.PostFormValue("notice_on")) != "" {
		if notice, err = formDate(r, "notice_on"); err != nil {
			h.formError(w, r, again, err)
			return
		}
	}
	im := &service.Impoundment{AnimalID: id, Jurisdiction: j, WhereFound: strings.TrimSpace(r.PostFormValue("where_found")),
		NoticeOn: notice, BiteCase: r.PostFormValue("bite_case") == "on"}
	if _, err := h.field.Copy.RecordImpound(r.Context(), im); err != nil {
		h.formError(w, r, again, err)
		return
	}
	seeOther(w, r, back, "Pickup queued: the central service opens the impoundment, and its hold, when the handheld syncs.")
}

// handleFieldNote queues a field note on the animal's record.
func (h *Handler) handleFieldNote(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r)
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	back := fmt.Sprintf("/animals/%d", id)
	if _, err := h.field.Copy.RecordNote(r.Context(), id, strings.TrimSpace(r.PostFormValue("note.text"))); err != nil {
		h.formError(w, r, fmt.Sprintf("%s#note-form-%d", back, id), err)
		return
	}
	seeOther(w, r, back, "Note queued: it is on the animal's record once the handheld syncs.")
}
