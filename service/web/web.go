package web

import (
	"bytes"
	"context"
	"embed"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/access"
	"github.com/chipdesk/chipdesk/service/custody"
	"github.com/chipdesk/chipdesk/service/events"
	"github.com/chipdesk/chipdesk/service/incidents"
	"github.com/chipdesk/chipdesk/service/jobs"
	"github.com/chipdesk/chipdesk/service/licensing"
	"github.com/chipdesk/chipdesk/service/lookup"
	"github.com/chipdesk/chipdesk/service/money"
	"github.com/chipdesk/chipdesk/service/permits"
	"github.com/chipdesk/chipdesk/service/ratelimit"
	"github.com/chipdesk/chipdesk/tags"
)

//go:embed templates/*.html
var templateFS embed.FS

//go:embed static
var staticFS embed.FS

// Device is one reader or printer as the admin page lists it.
type Device struct {
	Kind  string // "reader" or "printer"
	Name  string
	Ready bool
	State string // what the device or its driver last said
	At    time.Time
}

// Devices reports the live state of the readers and printers.
// ReaderDevices and JobDevices adapt service/hardware and service/jobs.
type Devices interface {
	Devices(ctx context.Context) []Device
}

// Opts configures a Handler. Store, Lookup, Rules and Jobs are required.
type Opts struct {
	Store service.Store
	// SiteScoped scopes the intake and officer sessions that name a site
	// to it, as the API does (httpapi.Opts.SiteScoped): the scan stream
	// leaves out other sites' scans.
	SiteScoped bool
	// Lookup answers chip and tag lookups (the scan panel, the search)
	// and names the jurisdictions.
	Lookup *lookup.Service
	// Licensing, Custody and Incidents decide every sale, impound and
	// incident the pages record, and give every fee, date and deadline
	// shown; nil makes each over Store and Lookup's rules.
	Licensing *licensing.Service
	Custody   *custody.Service
	Incidents *incidents.Service
	// Jobs finds a licence's tag and queues print and engrave jobs; its
	// Designs and Keys are also the admin page's catalogue.
	Jobs *jobs.Orders
	// Renderer draws tag previews; nil makes one.
	Renderer *tags.Renderer
	// Hub carries the scan events of the live panel; nil shows no live
	// scans.
	Hub *events.Hub
	// Photos holds the animals' photographs, named by Animal.Photo
	// ("rex.jpg"); nil shows none. JPEG, PNG, WebP and GIF files are
	// served to signed-in staff at /photos/NAME.
	Photos fs.FS
	// PhotoRoot, when set, keeps the photographs uploaded on the
	// animal forms (service.SavePhoto); nil takes none.
	PhotoRoot *os.Root
	// Devices lists readers and printers for the admin page; nil lists
	// none.
	Devices Devices
	// Money keeps charges and payments (the charges, receipt, cash-up
	// and reports pages); nil serves none of them.
	Money *money.Service
	// Wake is called after a job is queued (jobs.Worker.Wake);
	// nil does nothing.
	Wake func()
	// Permits serves the permit pages (permits.go); nil serves none.
	Permits *permits.Service
	// Jurisdiction is the profile id used when a form names none; empty
	// means the first profile.
	Jurisdiction string
	// SecureCookies marks the session cookie Secure even when the request
	// did not come over TLS (TLS ends at a proxy). Requests over TLS
	// always get Secure cookies.
	SecureCookies bool
	// SessionTTL is how long a session lasts; 0 means DefaultSessionTTL.
	SessionTTL time.Duration
	// SessionIdle ends a session without a request for this long; 0
	// means DefaultSessionIdle, negative never.
	SessionIdle time.Duration
	// Users holds the staff accounts people sign in with; nil allows
	// sign-in with a token only.
	Users service.UserService
	// Access, when set, ends the sessions and streams of tokens revoked
	// and accounts disabled by any process (service/access), within its
	// poll. Without it only this process's revocations end them.
	Access *access.Watcher
	// SignInLimit limits sign-in attempts per client address and per
	// account name; the zero Limit limits nothing, nil means
	// ratelimit.DefaultConfig's.
	SignInLimit *ratelimit.Limit
	Logger      *slog.Logger
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// DefaultSessionTTL is a working day; DefaultSessionIdle ends a session
// left alone (ASVS 3.3.2 allows up to 30 minutes at level 2).
const (
	DefaultSessionTTL  = 10 * time.Hour
	DefaultSessionIdle = 30 * time.Minute
)

// Handler serves the pages. It is an http.Handler for "/" and "/static/".
type Handler struct {
	o        Opts
	sessions *sessions
	// signIns limits sign-in attempts per address and per name.
	signIns *ratelimit.Limiter
	pages   map[string]*template.Template
	mux     *http.ServeMux
	static  http.Handler
	// field is set on the handheld's page (NewField, field.go).
	field *FieldOpts
}

// New returns the pages handler.
func New(o *Opts) (*Handler, error) {
	if o == nil || o.Store == nil || o.Lookup == nil || o.Jobs == nil {
		return nil, errors.New("web: Store, Lookup and Jobs required")
	}
	h := &Handler{o: *o}
	if err := h.base(); err != nil {
		return nil, err
	}
	if err := h.layer(); err != nil {
		return nil, err
	}
	if h.o.Renderer == nil {
		r, err := tags.NewRenderer(nil)
		if err != nil {
			return nil, err
		}
		h.o.Renderer = r
	}
	sl := ratelimit.DefaultConfig().SignIn
	if h.o.SignInLimit != nil {
		sl = *h.o.SignInLimit
	}
	h.signIns = ratelimit.New(sl, h.o.Now)
	h.mux = http.NewServeMux()
	h.routes()
	return h, nil
}

// base fills the defaults of h.o and makes what every handler has: the
// jurisdiction resolved, the pages parsed, the static files, the
// session table.
func (h *Handler) base() error {
	if h.o.Now == nil {
		h.o.Now = time.Now
	}
	if h.o.Logger == nil {
		h.o.Logger = slog.New(slog.DiscardHandler)
	}
	if h.o.SessionTTL <= 0 {
		h.o.SessionTTL = DefaultSessionTTL
	}
	id, _, err := h.o.Lookup.Resolve(h.o.Jurisdiction)
	if err != nil {
		return fmt.Errorf("web: jurisdiction: %s", service.ErrorMessage(err))
	}
	h.o.Jurisdiction = id
	if h.pages, err = parsePages(h.display, h.o.Lookup.Location("")); err != nil {
		return err
	}
	sub, err := fs.Sub(staticFS, "static")
	if err != nil {
		return err
	}
	files := http.FileServerFS(sub)
	h.static = http.StripPrefix("/static/", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "" || strings.HasSuffix(r.URL.Path, "/") {
			http.NotFound(w, r) // files only: no folder listing
			return
		}
		files.ServeHTTP(w, r)
	}))
	if h.o.SessionIdle == 0 {
		h.o.SessionIdle = DefaultSessionIdle
	}
	h.sessions = newSessions(h.o.SessionTTL, h.o.SessionIdle, h.o.Now)
	return nil
}

// Role sets of the pages, admin always included (see allowed).
var (
	intakeRoles  = []service.Role{service.RoleIntake}
	officerRoles = []service.Role{service.RoleOfficer}
	deskRoles    = []service.Role{service.RoleIntake, service.RoleOfficer}
	counterRoles = []service.Role{service.RoleClinic, service.RoleIntake}
	staffRoles   = []service.Role{service.RoleClinic, service.RoleIntake, service.RoleOfficer}
	adminRoles   = []service.Role{}
)

func (h *Handler) routes() {
	m := h.mux
	m.Handle("GET /static/", h.static)
	m.HandleFunc("GET /{$}", h.handleHome)
	m.HandleFunc("GET /login", h.handleLoginForm)
	m.HandleFunc("POST /login", h.handleLogin)
	m.HandleFunc("POST /logout", h.page(nil, h.handleLogout))

	m.HandleFunc("GET /intake", h.page(deskRoles, h.handleIntake))
	m.HandleFunc("GET /intake/stream", h.page(deskRoles, h.handleStream))
	m.HandleFunc("GET /intake/recent", h.page(deskRoles, h.handleRecent))
	m.HandleFunc("GET /search", h.page(staffRoles, h.handleSearch))
	m.HandleFunc("GET /animals/{id}", h.page(staffRoles, h.handleAnimal))
	m.HandleFunc("GET /photos/{name}", h.page(staffRoles, h.handlePhoto))
	m.HandleFunc("POST /animals/{id}/impound", h.page(intakeRoles, h.handleImpound))

	m.HandleFunc("GET /officer", h.page(officerRoles, h.handleOfficer))
	m.HandleFunc("POST /animals/{id}/bites", h.page(officerRoles, h.handleBite))
	m.HandleFunc("POST /animals/{id}/requirements/{what}", h.page(officerRoles, h.handleRecordMet))
	m.HandleFunc("GET /animals/{id}/compliance", h.page(deskRoles, h.handleCompliance))

	m.HandleFunc("GET /clinic", h.page(counterRoles, h.handleClinic))
	m.HandleFunc("GET /animals/{id}/licence", h.page(counterRoles, h.handleLicenceForm))
	m.HandleFunc("POST /animals/{id}/licence", h.page(counterRoles, h.handleIssueLicence))
	m.HandleFunc("GET /licences/{id}", h.page(counterRoles, h.handleLicence))
	m.HandleFunc("GET /licences/{id}/tag.svg", h.page(staffRoles, h.handleLicenceTag))
	m.HandleFunc("GET /licences/{id}/jobs", h.page(counterRoles, h.handleLicenceJobs))
	m.HandleFunc("POST /licences/{id}/jobs", h.page(counterRoles, h.handleCreateJob))
	m.HandleFunc("POST /licences/{id}/duplicate", h.page(counterRoles, h.handleDuplicate))
	m.HandleFunc("POST /jobs/{id}/reprint", h.page(counterRoles, h.handleReprint))
	m.HandleFunc("GET /jobs/{id}", h.page(counterRoles, h.handleJob))                // jobpage.go
	m.HandleFunc("GET /jobs/{id}/label.png", h.page(counterRoles, h.handleJobLabel)) // jobpage.go
	m.HandleFunc("GET /favicon.ico", h.handleFavicon)

	h.documentRoutes(m) // documents.go
	h.custodyRoutes()   // custody.go
	h.registryRoutes()  // registry.go
	h.stationRoutes(m)
	if h.o.Money != nil {
		h.moneyRoutes(m)
	}
	h.animalReportRoutes(m) // animal_reports.go
	m.HandleFunc("GET /admin", h.page(adminRoles, h.handleAdmin))
	m.HandleFunc("GET /admin/devices", h.page(adminRoles, h.handleDevices))
	m.HandleFunc("GET /admin/designs/{j}/{year}/preview.svg", h.page(adminRoles, h.handleDesignPreview))
	m.HandleFunc("POST /admin/designs/{j}/{year}/approve", h.page(adminRoles, h.handleApproveDesign))
	m.HandleFunc("POST /admin/tokens", h.page(adminRoles, h.handleCreateToken))
	m.HandleFunc("POST /admin/tokens/{id}/revoke", h.page(adminRoles, h.handleRevokeToken))
	h.permitRoutes() // permits.go
}

// ServeHTTP implements http.Handler. Every response carries a strict
// Content-Security-Policy: the pages load nothing but their own files.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	hd := w.Header()
	hd.Set("Content-Security-Policy", "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
	hd.Set("X-Content-Type-Options", "nosniff")
	hd.Set("Referrer-Policy", "same-origin")
	h.mux.ServeHTTP(w, r)
}

type ctxKey struct{}

// withSession is r with session ss, as page gives it.
func withSession(r *http.Request, ss *session) *http.Request {
	return r.WithContext(context.WithValue(r.Context(), ctxKey{}, ss))
}

// sess returns the request's session (set by page).
func sess(r *http.Request) *session {
	ss, _ := r.Context().Value(ctxKey{}).(*session)
	return ss
}

// page wraps a handler with the session, role and CSRF checks: no
// session sends the browser to the login page; a role not in roles
// (admin always passes) gets 403; a POST without the session's CSRF
// token, or from another origin, gets 403. nil roles allows every
// signed-in role.
func (h *Handler) page(roles []service.Role, f http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		ss := h.current(r)
		if ss == nil {
			if r.Method == http.MethodGet && !strings.HasSuffix(r.URL.Path, "/stream") {
				http.Redirect(w, r, "/login?next="+url.QueryEscape(r.URL.RequestURI()), http.StatusSeeOther)
				return
			}
			h.fail(w, r, nil, http.StatusUnauthorized, "Please sign in again.")
			return
		}
		r = withShown(r.WithContext(context.WithValue(r.Context(), ctxKey{}, ss)), ss)
		if roles != nil && !allowed(ss.role, roles) {
			h.auditRefused(r, http.StatusForbidden)
			h.fail(w, r, ss, http.StatusForbidden, "Your role ("+string(ss.role)+") may not use this page.")
			return
		}
		if r.Method == http.MethodPost {
			if !sameOrigin(r) || !ss.checkCSRF(r) {
				h.auditRefused(r, http.StatusForbidden)
				h.fail(w, r, ss, http.StatusForbidden, "The form has expired or did not come from this site. Reload the page and try again.")
				return
			}
		}
		w.Header().Set("Cache-Control", "no-store")
		if a, ok := pageReads[r.Pattern]; ok {
			id, _ := strconv.ParseInt(r.PathValue("id"), 10, 64)
			h.audit(r, a.action, a.entity, id, r.URL.RawQuery)
		}
		f(w, r)
	}
}

// current returns the request's live session, or nil: none, ended,
// idle too long, or of a token revoked or an account disabled.
func (h *Handler) current(r *http.Request) *session {
	c, err := r.Cookie(cookieName)
	if err != nil {
		return nil
	}
	ss := h.sessions.get(c.Value)
	if ss != nil && h.revoked(ss) {
		h.sessions.end(ss.id)
		return nil
	}
	return ss
}

// revoked reports whether the token or account of ss is known revoked.
func (h *Handler) revoked(ss *session) bool {
	a := h.o.Access
	return a != nil && (ss.tokenID != 0 && a.TokenRevoked(ss.tokenID) || ss.userID != 0 && a.UserDisabled(ss.userID))
}

// changed is closed at the next revocation seen (never without Access).
func (h *Handler) changed() <-chan struct{} {
	if h.o.Access == nil {
		return nil
	}
	return h.o.Access.Changed()
}

// pageReads are the pages that show owner data, audited at every view
// (OWASP ASVS 7.1.3).
var pageReads = map[string]struct{ action, entity string }{
	"GET /search":                  {"page.search", "owner"},
	"GET /animals/{id}":            {"page.animal", "animal"},
	"GET /animals/{id}/licence":    {"page.licence_form", "animal"},
	"GET /animals/{id}/compliance": {"page.compliance", "animal"},
	"GET /licences/{id}":           {"page.licence", "licence"},
	"GET /intake/stream":           {"page.scan_stream", "scan"},
}

// auditRefused records a page refused to the request's person.
func (h *Handler) auditRefused(r *http.Request, status int) {
	h.audit(r, "request.refused", "", 0, strconv.Itoa(status)+" "+r.Method+" "+r.URL.Path+" from "+clientAddr(r))
}

// clientAddr is the address a request came from.
func clientAddr(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// sameOrigin reports whether a POST came from a page of this host: an
// Origin header, when sent, must name it, and Sec-Fetch-Site must not be
// cross-site.
func sameOrigin(r *http.Request) bool {
	if s := r.Header.Get("Sec-Fetch-Site"); s == "cross-site" || s == "same-site" {
		return false
	}
	o := r.Header.Get("Origin")
	if o == "" {
		return true // older browsers; the CSRF token still guards
	}
	u, err := url.Parse(o)
	return err == nil && u.Host == r.Host
}

// view is what every page template gets.
type view struct {
	Title string
	// S is the signed-in person, nil on the login page.
	S      *who
	Nav    []navItem
	Active string
	Flash  string
	Error  string
	// Form is a form refused and shown again (form.go), nil when none.
	Form *Form
	Data any
	// DevKeys marks every page while tags are made with the public
	// development keys.
	DevKeys bool
}

// who is the signed-in person as the layout shows them.
type who struct {
	Name string
	Role service.Role
	CSRF string
}

type navItem struct {
	Path, Label string
}

// nav lists the pages a role may open.
func nav(role service.Role) []navItem {
	var n []navItem
	if allowed(role, deskRoles) {
		n = append(n, navItem{"/intake", "Intake desk"}, navItem{"/custody", "In custody"}, navItem{"/today", "Today"})
	}
	if allowed(role, officerRoles) {
		n = append(n, navItem{"/officer", "Officer"})
	}
	if allowed(role, counterRoles) {
		n = append(n, navItem{"/clinic", "Clinic counter"})
	}
	if allowed(role, deskRoles) {
		n = append(n, navItem{"/permits", "Permits"}) // permits.go
	}
	if allowed(role, adminRoles) {
		n = append(n, navItem{"/admin", "Admin"})
	}
	return n
}

// home is the first page of a role.
func home(role service.Role) string {
	switch role {
	case service.RoleAdmin:
		return "/admin"
	case service.RoleIntake:
		return "/intake"
	case service.RoleOfficer:
		return "/officer"
	case service.RoleClinic:
		return "/clinic"
	}
	return ""
}

// render writes page name with data; a template error is logged and
// answered with a plain 500.
func (h *Handler) render(w http.ResponseWriter, r *http.Request, status int, name, title string, v *view) {
	t := h.pages[name]
	if t == nil {
		h.o.Logger.Error("web: no template", "name", name)
		http.Error(w, "Internal error.", http.StatusInternalServerError)
		return
	}
	v.Title = title
	v.DevKeys = h.devKeys()
	if ss := sess(r); ss != nil && h.field == nil {
		v.S = &who{Name: ss.name, Role: ss.role, CSRF: ss.csrf}
		v.Nav = nav(ss.role)
	}
	if v.Active == "" {
		v.Active = "/" + strings.SplitN(strings.TrimPrefix(r.URL.Path, "/"), "/", 2)[0]
	}
	if sh := taken(r); v.Flash == "" {
		v.Flash = strings.Join(sh.flash, " ")
	}
	if v.Form == nil {
		v.Form = formOf(r)
	}
	h.execute(w, status, t, "layout", name, v)
}

// execute writes template def of t with data, or, when it fails, logs
// what (the page's name) and answers a plain 500: a page is written whole
// or not at all.
func (h *Handler) execute(w http.ResponseWriter, status int, t *template.Template, def, what string, data any) {
	var buf bytes.Buffer
	if err := t.ExecuteTemplate(&buf, def, data); err != nil {
		h.o.Logger.Error("web: template", "name", what, "err", err)
		http.Error(w, "Internal error.", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	buf.WriteTo(w)
}

// fail shows an error page with msg; internal details never reach it.
func (h *Handler) fail(w http.ResponseWriter, r *http.Request, ss *session, status int, msg string) {
	if ss != nil && sess(r) == nil {
		r = r.WithContext(context.WithValue(r.Context(), ctxKey{}, ss))
	}
	h.render(w, r, status, "error", http.StatusText(status), &view{Error: msg})
}

// failErr shows err: a service error's message and status, or
// "Internal error." with the details logged.
func (h *Handler) failErr(w http.ResponseWriter, r *http.Request, err error) {
	status := layerStatus(err)
	if status == http.StatusInternalServerError {
		h.o.Logger.Error("web: request", "method", r.Method, "path", r.URL.Path, "err", err)
	}
	h.fail(w, r, nil, status, service.ErrorMessage(err))
}

// audit records an action of the signed-in person (or, before sign-in,
// of "anonymous"); a failure is logged.
func (h *Handler) audit(r *http.Request, action, entity string, id int64, detail string) {
	e := &service.AuditEvent{At: h.o.Now().UTC(), Actor: "anonymous", Action: action,
		Entity: entity, EntityID: id, Detail: detail}
	if ss := sess(r); ss != nil {
		e.Actor, e.Role, e.Site, e.TokenID = ss.name, ss.role, ss.site, ss.auditTokenID()
	}
	if err := h.o.Store.CreateAuditEvent(r.Context(), e); err != nil {
		h.o.Logger.Error("web: audit", "action", action, "err", err)
	}
}

// changing returns r's context carrying the audit event of the change the
// page is about to make (service.WithChange): the store writes it in the
// change's own transaction. An id of 0 is filled in by the store for the
// record the change creates. Reads and refusals use audit.
func (h *Handler) changing(r *http.Request, action, entity string, id int64, detail string) (context.Context, *service.Change) {
	e := &service.AuditEvent{At: h.o.Now().UTC(), Actor: "anonymous", Action: action,
		Entity: entity, EntityID: id, Detail: detail}
	if ss := sess(r); ss != nil {
		e.Actor, e.Role, e.Site, e.TokenID = ss.name, ss.role, ss.site, ss.auditTokenID()
	}
	return service.WithChange(r.Context(), e)
}

// committed stores ch's events, as the change of the record id, unless
// the store wrote them with the change.
func (h *Handler) committed(r *http.Request, ch *service.Change, id int64) {
	for _, e := range ch.Unstored(id) {
		if err := h.o.Store.CreateAuditEvent(r.Context(), e); err != nil {
			h.o.Logger.Error("web: audit", "action", e.Action, "err", err)
		}
	}
}

// devKeys reports whether tags are made with the public development
// keys (tags/check.DevelopmentKeys).
func (h *Handler) devKeys() bool {
	return h.o.Jobs != nil && h.o.Jobs.Keys != nil && h.o.Jobs.Keys.Development()
}

// jurisdiction resolves the jurisdiction a form names (id, name or code,
// any case) to its id; the default one for "".
func (h *Handler) jurisdiction(name string) (string, error) {
	if strings.TrimSpace(name) == "" {
		name = h.o.Jurisdiction
	}
	id, _, err := h.o.Lookup.Resolve(name)
	return id, err
}

// display is the name a page shows for a jurisdiction id ("Minneapolis").
func (h *Handler) display(id string) string {
	if _, d, err := h.o.Lookup.Resolve(id); err == nil {
		return d
	}
	return id
}

// today is the date in jurisdiction id ("" for the default one).
func (h *Handler) today(id string) service.Date {
	if id == "" {
		id = h.o.Jurisdiction
	}
	d, err := h.o.Lookup.Today(id)
	if err != nil {
		return service.DateIn(h.o.Now(), time.UTC)
	}
	return d
}

// layer makes the application layer parts Opts did not give.
func (h *Handler) layer() (err error) {
	o := &h.o
	if o.Licensing == nil {
		if o.Licensing, err = licensing.New(&licensing.Opts{Store: o.Store, Rules: o.Lookup.Rules(), Now: o.Now}); err != nil {
			return err
		}
	}
	if o.Custody == nil {
		if o.Custody, err = custody.New(&custody.Opts{Store: o.Store, Rules: o.Lookup.Rules(), Money: o.Money, Now: o.Now}); err != nil {
			return err
		}
	}
	if o.Incidents == nil {
		o.Incidents, err = incidents.New(&incidents.Opts{Store: o.Store, Rules: o.Lookup.Rules(), Jurisdiction: o.Jurisdiction, Now: o.Now})
	}
	return err
}

func (h *Handler) handleHome(w http.ResponseWriter, r *http.Request) {
	ss := h.current(r)
	if ss == nil {
		http.Redirect(w, r, "/login", http.StatusSeeOther)
		return
	}
	if p := home(ss.role); p != "" {
		http.Redirect(w, r, p, http.StatusSeeOther)
		return
	}
	h.fail(w, r, ss, http.StatusForbidden, "The public role has no pages here; use the found-pet lookup.")
}
