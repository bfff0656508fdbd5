package web

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/custody"
	"github.com/chipdesk/chipdesk/service/events"
	"github.com/chipdesk/chipdesk/service/lookup"
)

// keepAlive is how often an idle scan stream gets a comment line.
const keepAlive = 15 * time.Second

// recordView is one lookup answer as the pages show it, with the
// actions the signed-in role may take on it.
type recordView struct {
	A     *lookup.Answer
	Scan  *lookup.ScanEvent // set in the live panel
	CSRF  string
	Role  service.Role
	Today service.Date
	// Jurisdictions lists the jurisdictions for the action forms: the
	// id sent, the name shown.
	Jurisdictions []lookup.Jurisdiction
	Default       string
	CanImpound    bool
	CanBite       bool
	CanLicence    bool
	CanCompliance bool
	// Photos is set when photographs are served (Opts.Photos).
	Photos bool
	// Form is a form of these actions refused and shown again.
	Form *Form
	// CanRegister: the role adds and changes animals (registry.go).
	CanRegister bool
	// Custody is the impoundment holding the animal now, 0 when none.
	Custody int64
	// Offline is set on the handheld's page (field.go): the forms queue
	// their events in the offline copy; CanNote adds a field note.
	Offline bool
	CanNote bool
}

// Danger reports whether the red banner shows: the animal is declared
// dangerous or potentially dangerous, or it is under quarantine.
func (v *recordView) Danger() bool {
	return v.A != nil && (v.A.Dangerous != nil || v.A.Quarantine != nil)
}

func (h *Handler) recordView(r *http.Request, a *lookup.Answer) *recordView {
	ss := sess(r)
	v := &recordView{A: a, CSRF: ss.csrf, Role: ss.role, Today: h.today(""),
		Jurisdictions: h.o.Lookup.Jurisdictions(), Default: h.o.Jurisdiction, Photos: h.o.Photos != nil, Form: formOf(r)}
	v.CanRegister = allowed(ss.role, deskRoles)
	if a != nil && a.Found && a.Animal != nil {
		for _, im := range a.Impounds {
			if im.Open {
				v.Custody = im.ID
			}
		}
		v.CanImpound = allowed(ss.role, intakeRoles) && v.Custody == 0
		v.CanBite = allowed(ss.role, officerRoles)
		v.CanLicence = allowed(ss.role, counterRoles)
		v.CanCompliance = a.Dangerous != nil && allowed(ss.role, deskRoles)
	}
	if h.field != nil {
		// The handheld's officer queues a bite, a pickup or a note; the
		// desk's pages are not there.
		found := a != nil && a.Found && a.Animal != nil
		v.Offline, v.CanRegister, v.CanLicence, v.CanCompliance = true, false, false, false
		v.CanBite, v.CanNote, v.CanImpound = found, found, found && v.Custody == 0
	}
	return v
}

type intakeData struct {
	Live   bool
	Reader string
	Recent []recentScan
}

// recentScan is a scan with the animal its chip resolved to (nil when
// the chip is not registered or the animal is gone).
type recentScan struct {
	*service.Scan
	Animal *service.Animal
}

// handleIntake is the intake desk: the live scan panel (filled by the
// scan stream), the search box and the latest scans.
func (h *Handler) handleIntake(w http.ResponseWriter, r *http.Request) {
	d, err := h.intakeData(r)
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	h.render(w, r, http.StatusOK, "intake", "Intake desk", &view{Data: d})
}

// handleRecent is the latest scans table alone; the intake page fetches
// it again after each scan.
func (h *Handler) handleRecent(w http.ResponseWriter, r *http.Request) {
	d, err := h.intakeData(r)
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	h.fragment(w, r, "recent", d)
}

// fragment writes the partial template name alone (a part of a page
// that the page's script fetches again).
func (h *Handler) fragment(w http.ResponseWriter, r *http.Request, name string, data any) {
	h.execute(w, http.StatusOK, h.pages["fragments"], name, name, data)
}

func (h *Handler) intakeData(r *http.Request) (intakeData, error) {
	d := intakeData{Live: h.o.Hub != nil, Reader: r.URL.Query().Get("reader")}
	f := service.ScanFilter{Limit: 10}
	if s := sess(r).site; s != "" {
		f.Site = &s
	}
	scans, _, err := h.o.Store.FindScans(r.Context(), f)
	if err != nil {
		return d, err
	}
	d.Recent, err = h.recentScans(r.Context(), scans)
	return d, err
}

// recentScans gives each scan the animal its chip resolved to.
func (h *Handler) recentScans(ctx context.Context, scans []*service.Scan) ([]recentScan, error) {
	var out []recentScan
	animals := map[int64]*service.Animal{}
	for _, sc := range scans {
		rs := recentScan{Scan: sc}
		if sc.AnimalID != 0 {
			a, seen := animals[sc.AnimalID]
			if !seen {
				var err error
				a, err = h.o.Store.FindAnimalByID(ctx, sc.AnimalID)
				if err != nil && service.ErrorCode(err) != service.ENOTFOUND {
					return nil, err
				}
				animals[sc.AnimalID] = a
			}
			rs.Animal = a
		}
		out = append(out, rs)
	}
	return out, nil
}

// handleStream sends each scan as a Server-Sent Event (WHATWG HTML
// 9.2) whose data is the scan panel already rendered on the server, so
// the page's script only puts it in place. ?reader= limits the stream to
// one reader; Last-Event-ID replays what a reconnecting page missed.
func (h *Handler) handleStream(w http.ResponseWriter, r *http.Request) {
	if h.o.Hub == nil {
		http.Error(w, "No scan stream.", http.StatusNotFound)
		return
	}
	r = withNothingShown(r)
	readerName := r.URL.Query().Get("reader")
	var sub *events.Sub
	if last, err := strconv.ParseUint(r.Header.Get("Last-Event-ID"), 10, 64); err == nil {
		sub = h.o.Hub.SubscribeSince(readerName, last)
	} else {
		sub = h.o.Hub.Subscribe(readerName)
	}
	defer sub.Close()
	rc := http.NewResponseController(w)
	_ = rc.SetWriteDeadline(time.Time{})
	hd := w.Header()
	hd.Set("Content-Type", "text/event-stream")
	hd.Set("Cache-Control", "no-cache")
	hd.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	if _, err := fmt.Fprint(w, "retry: 2000\n: chipdesk scans\n\n"); err != nil {
		return
	}
	if rc.Flush() != nil {
		return
	}
	tick := time.NewTicker(keepAlive)
	defer tick.Stop()
	ss := sess(r)
	// The channel is taken before the session is checked, so a
	// revocation between the check and the wait is never missed.
	changed := h.changed()
	if h.revoked(ss) {
		h.sessions.end(ss.id)
		return
	}
	for {
		select {
		case <-r.Context().Done():
			return
		case <-ss.done:
			return // signed out, expired, or its token revoked
		case <-changed:
			if changed = h.changed(); h.revoked(ss) {
				h.sessions.end(ss.id)
				return
			}
			continue
		case <-tick.C:
			if _, err := fmt.Fprint(w, ": keep-alive\n\n"); err != nil {
				return
			}
		case ev, ok := <-sub.C():
			if !ok {
				return
			}
			if h.otherSite(ss, ev.Site) {
				continue
			}
			html, err := h.scanPanel(r, ev.Data)
			if err != nil {
				h.o.Logger.Error("web: scan panel", "event", ev.ID, "err", err)
				continue
			}
			var b bytes.Buffer
			fmt.Fprintf(&b, "id: %d\nevent: scan\n", ev.ID)
			for _, line := range strings.Split(strings.TrimRight(html, "\n"), "\n") {
				b.WriteString("data: ")
				b.WriteString(strings.TrimRight(line, "\r"))
				b.WriteByte('\n')
			}
			b.WriteByte('\n')
			if _, err := w.Write(b.Bytes()); err != nil {
				return
			}
		}
		if rc.Flush() != nil {
			return
		}
	}
}

// scanPanel renders one scan event (lookup.ScanEvent JSON).
func (h *Handler) scanPanel(r *http.Request, data []byte) (string, error) {
	var ev lookup.ScanEvent
	if err := json.Unmarshal(data, &ev); err != nil {
		return "", err
	}
	v := h.recordView(r, ev.Lookup)
	v.Scan = &ev
	var b bytes.Buffer
	if err := h.pages["fragments"].ExecuteTemplate(&b, "scanpanel", v); err != nil {
		return "", err
	}
	return b.String(), nil
}

type searchData struct {
	Q string
	// Reader, on the officer page, names a reader whose scans show live.
	Reader string
	Answer *recordView // a chip or tag answer
	// Tags are the records of a tag number several cities use.
	Tags   []*recordView
	Hits   []lookup.Hit
	Owners []*service.Owner
	// Candidates are the chips a typed number could be; the page links
	// each so that the person chooses.
	Candidates []*lookup.Chip
	Note       string
	// Officer is the rest of the officer's page (officer.go).
	Officer *officerData
	Kind    string
	More    bool
}

// handleSearch finds animals the way clerks search (lookup.Search): a
// chip in any form, a phone number in any format, a tag number (every
// city's), the first digits of a chip, an owner's name or address, a
// pet's name.
func (h *Handler) handleSearch(w http.ResponseWriter, r *http.Request) {
	h.searchPage(w, r, "search", "Search", searchData{}, "/animals/%d")
}

// searchPage answers the search ?q= on page name. When the search finds
// one animal by its chip or tag and to is not empty, the browser goes to
// fmt.Sprintf(to, animal id) instead.
func (h *Handler) searchPage(w http.ResponseWriter, r *http.Request, name, title string, d searchData, to string) {
	d.Q = strings.TrimSpace(r.URL.Query().Get("q"))
	if d.Q != "" {
		res, err := h.o.Lookup.Search(r.Context(), d.Q)
		if err != nil {
			h.failErr(w, r, err)
			return
		}
		if ans := res.Answer; to != "" && ans != nil && ans.Found && ans.Animal != nil {
			http.Redirect(w, r, fmt.Sprintf(to, ans.Animal.ID), http.StatusSeeOther)
			return
		}
		h.fillSearch(r, &d, res)
	}
	h.render(w, r, http.StatusOK, name, title, &view{Data: d})
}

// fillSearch puts what a search found in d, each record with the
// actions of r's person.
func (h *Handler) fillSearch(r *http.Request, d *searchData, res *lookup.Search) {
	if res.Answer != nil {
		d.Answer = h.recordView(r, res.Answer)
	}
	for _, a := range res.Tags {
		d.Tags = append(d.Tags, h.recordView(r, a))
	}
	d.Hits, d.Owners, d.Candidates, d.Note, d.Kind, d.More = res.Hits, res.Owners, res.Candidates, res.Note, res.Kind, res.More
}

func pathID(r *http.Request) (int64, error) {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil || id <= 0 {
		return 0, service.Errorf(service.ENOTFOUND, "No such record.")
	}
	return id, nil
}

type animalData struct {
	R       *recordView
	Impound *impoundResult
	// Bites are the animal's recorded bites, where and what happened.
	Bites []*service.BiteIncident
	// Notes are the officers' field notes, newest first.
	Notes []service.AnimalNote
}

// handleAnimal shows an animal's record with the actions of the role.
func (h *Handler) handleAnimal(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r)
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	a, err := h.o.Lookup.ByAnimal(r.Context(), id)
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	bites, err := h.o.Store.FindBites(r.Context(), id)
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	h.audit(r, "record.view", "animal", id, "web")
	h.render(w, r, http.StatusOK, "animal", recordTitle(a), &view{Data: animalData{R: h.recordView(r, a), Bites: bites, Notes: a.Notes}})
}

func recordTitle(a *lookup.Answer) string {
	if a.Animal == nil {
		return "Record"
	}
	if a.Animal.Name != "" {
		return a.Animal.Name
	}
	return "Animal " + strconv.FormatInt(a.Animal.ID, 10)
}

// impoundResult is what the intake desk tells after an impoundment:
// the notice date, the hold and the redemption fees, all from the
// custody layer.
type impoundResult struct {
	Impound    *service.Impoundment
	Hold       custody.Hold
	Redemption *custody.Breakdown
}

func formDate(r *http.Request, name string) (service.Date, error) {
	d, err := service.ParseDate(strings.TrimSpace(r.PostFormValue(name)))
	if err != nil {
		label := strings.ReplaceAll(strings.TrimSuffix(name, "_on"), "_", " ")
		if !strings.HasSuffix(label, "date") {
			label += " date"
		}
		return 0, service.Invalidf(name, "The %s must be a date, as year-month-day (2026-06-15).", label)
	}
	return d, nil
}

// handleImpound starts an impoundment through custody.Impound, which
// refuses an animal in custody already and takes the hold from the
// jurisdiction's rules (Minn. Stat. 346.47 subd. 2, 62.40, 5-73); the
// browser then goes to the stay's page: the notice date, the hold-until
// date and what redemption costs today.
func (h *Handler) handleImpound(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r)
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	back := backTo(r, fmt.Sprintf("/animals/%d", id))
	j, err := h.jurisdiction(r.PostFormValue("jurisdiction"))
	if err != nil {
		h.formError(w, r, back, err)
		return
	}
	var notice service.Date
	if strings.TrimSpace(r.PostFormValue("notice_on")) != "" {
		if notice, err = formDate(r, "notice_on"); err != nil {
			h.formError(w, r, back, err)
			return
		}
	}
	im := &service.Impoundment{AnimalID: id, Jurisdiction: j, Site: sess(r).site,
		WhereFound: strings.TrimSpace(r.PostFormValue("where_found")), NoticeOn: notice,
		BiteCase: r.PostFormValue("bite_case") == "on"}
	ctx, ch := h.changing(r, "impoundment.create", "impoundment", 0, fmt.Sprintf("animal %d", id))
	if _, err := h.o.Custody.Impound(ctx, im); err != nil {
		h.formError(w, r, back, err)
		return
	}
	h.committed(r, ch, im.ID)
	seeOther(w, r, fmt.Sprintf("/custody/%d", im.ID), "Impoundment started.")
}

// photoTypes are the picture files served; nothing a browser would run
// (SVG, HTML) is.
var photoTypes = map[string]bool{".jpg": true, ".jpeg": true, ".png": true, ".webp": true, ".gif": true}

// handlePhoto serves an animal's photograph from Opts.Photos.
func (h *Handler) handlePhoto(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("name")
	// Only ids the server issued (service.ValidPhotoID): never a path.
	if h.o.Photos == nil || !service.ValidPhotoID(name) || !fs.ValidPath(name) || !photoTypes[strings.ToLower(path.Ext(name))] {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Cache-Control", "private, max-age=3600")
	http.ServeFileFS(w, r, h.o.Photos, name)
}

// otherSite reports whether a scan at site is another site's than the
// scoped session ss's (Opts.SiteScoped: intake and officer sessions that
// name a site see their own site's scans).
func (h *Handler) otherSite(ss *session, site string) bool {
	return h.o.SiteScoped && ss.site != "" && site != "" && site != ss.site &&
		(ss.role == service.RoleIntake || ss.role == service.RoleOfficer)
}
