package web

import (
	"net/http"
	"net/url"
	"strings"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/access"
)

// Signing in: a person signs in with the name and password of a staff
// account (service.User, "chipdesk user create"); a machine's API token
// (service.Token) also signs in, as the demo's link does. The account's
// or token's name and role become the session's; the password or secret
// is checked once and not kept. Sessions live on the server
// (DefaultSessionTTL) and end at sign-out, at expiry, after
// DefaultSessionIdle without a request, and when the token is revoked or
// the account disabled (by any process: Opts.Access). Attempts are
// limited per address and per name (Opts.SignInLimit); every failed one
// is audited.

type loginData struct {
	Next string
	Name string
}

func (h *Handler) handleLoginForm(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	next := safeNext(q.Get("next"))
	if q.Has("token") {
		h.signInLink(w, r, q.Get("token"), next)
		return
	}
	h.render(w, r, http.StatusOK, "login", "Sign in", &view{Data: loginData{Next: next}})
}

// signInLink signs in from a link carrying the token, as "chipdesk demo"
// prints one: GET /login?token=SECRET[&reader=NAME]. The redirect takes
// the secret out of the address bar at once. A link followed from
// another site (Sec-Fetch-Site cross-site or same-site) is refused, so
// no other page can sign a browser in to someone else's account.
func (h *Handler) signInLink(w http.ResponseWriter, r *http.Request, secret, next string) {
	if s := r.Header.Get("Sec-Fetch-Site"); s == "cross-site" || s == "same-site" {
		h.render(w, r, http.StatusForbidden, "login", "Sign in", &view{Error: "Sign-in links work only when opened directly. Paste the token here.", Data: loginData{Next: next}})
		return
	}
	if next == "" {
		if rd := r.URL.Query().Get("reader"); rd != "" {
			next = "/intake?reader=" + url.QueryEscape(rd)
		}
	}
	h.signIn(w, r, strings.TrimSpace(secret), next)
}

// mayOpen reports whether role may open the page at path, so that a
// sign-in does not land on a 403.
func (h *Handler) mayOpen(role service.Role, path string) bool {
	top := "/" + strings.SplitN(strings.TrimPrefix(path, "/"), "/", 2)[0]
	top, _, _ = strings.Cut(top, "?")
	switch top {
	case "/intake", "/officer", "/clinic", "/admin":
		for _, n := range nav(role) {
			if n.Path == top {
				return true
			}
		}
		return false
	}
	return role != service.RolePublic
}

// safeNext keeps a redirect target on this site: an absolute path
// (RFC 3986 section 4.2 path-absolute) with no scheme or authority, no
// backslash (which browsers read as a slash) and no control character
// or space (which browsers strip: "/\t/evil.example" is
// "//evil.example" to them). Anything else is "" (OWASP ASVS 5.1.5).
func safeNext(p string) string {
	if !strings.HasPrefix(p, "/") || strings.HasPrefix(p, "//") || strings.ContainsAny(p, "\\") {
		return ""
	}
	for _, c := range p {
		if c <= ' ' || c == 0x7f {
			return ""
		}
	}
	u, err := url.Parse(p)
	if err != nil || u.Scheme != "" || u.Host != "" || u.User != nil || strings.HasPrefix(u.Path, "//") {
		return ""
	}
	return p
}

func (h *Handler) handleLogin(w http.ResponseWriter, r *http.Request) {
	next := safeNext(r.PostFormValue("next"))
	if !sameOrigin(r) {
		h.render(w, r, http.StatusForbidden, "login", "Sign in", &view{Error: "The form did not come from this site.", Data: loginData{Next: next}})
		return
	}
	if secret := strings.TrimSpace(r.PostFormValue("token")); secret != "" || !r.PostForm.Has("name") {
		h.signIn(w, r, secret, next)
		return
	}
	h.signInUser(w, r, strings.TrimSpace(r.PostFormValue("name")), r.PostFormValue("password"), next)
}

// limited reports whether failed sign-in attempts from r's address, or
// for name, are past the limit; it answers 429 when they are. Only
// failures count (failed takes them).
func (h *Handler) limited(w http.ResponseWriter, r *http.Request, name string, d loginData) bool {
	if h.signIns.RetryAfter("addr "+clientAddr(r)) == 0 && (name == "" || h.signIns.RetryAfter("name "+name) == 0) {
		return false
	}
	h.audit(r, "session.refused", "", 0, "too many sign-in attempts from "+clientAddr(r))
	w.Header().Set("Retry-After", "60")
	h.render(w, r, http.StatusTooManyRequests, "login", "Sign in", &view{Error: "Too many sign-in attempts. Wait a minute and try again.", Data: d})
	return true
}

// failed counts a failed attempt from r's address and for name.
func (h *Handler) failed(r *http.Request, name string) {
	h.signIns.Allow("addr " + clientAddr(r))
	if name != "" {
		h.signIns.Allow("name " + name)
	}
}

// signInUser checks an account's name and password and starts a
// session, then goes to next, or to the role's first page.
func (h *Handler) signInUser(w http.ResponseWriter, r *http.Request, name, password, next string) {
	d := loginData{Next: next, Name: name}
	if h.limited(w, r, name, d) {
		return
	}
	if h.o.Users == nil {
		h.render(w, r, http.StatusUnauthorized, "login", "Sign in", &view{Error: "This server has no staff accounts; sign in with a token.", Data: d})
		return
	}
	u, err := access.SignIn(r.Context(), h.o.Users, name, password)
	if err != nil {
		if service.ErrorCode(err) != service.EUNAUTHORIZED {
			h.failErr(w, r, err)
			return
		}
		h.failed(r, name)
		h.audit(r, "session.failed", "user", 0, "account "+truncate(name, 100)+" from "+clientAddr(r))
		h.render(w, r, http.StatusUnauthorized, "login", "Sign in", &view{Error: "Wrong name or password, or the account is disabled.", Data: d})
		return
	}
	h.endOld(r)
	ss, err := h.sessions.createUser(u)
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	h.started(w, r, ss, next)
}

// signIn checks a token's secret and starts a session, then goes to
// next, or to the role's first page.
func (h *Handler) signIn(w http.ResponseWriter, r *http.Request, secret, next string) {
	if h.limited(w, r, "", loginData{Next: next}) {
		return
	}
	t, err := h.o.Store.Authenticate(r.Context(), secret)
	if err == nil && h.o.Access != nil && h.o.Access.TokenRevoked(t.ID) {
		err = service.Errorf(service.EUNAUTHORIZED, "Token revoked.")
	}
	if err != nil || secret == "" {
		if err != nil && service.ErrorCode(err) != service.EUNAUTHORIZED {
			h.o.Logger.Error("web: login", "err", err)
		}
		h.failed(r, "")
		h.audit(r, "session.failed", "token", 0, "token sign-in from "+clientAddr(r))
		h.render(w, r, http.StatusUnauthorized, "login", "Sign in", &view{Error: "That token is not valid, or it was revoked or has expired.", Data: loginData{Next: next}})
		return
	}
	h.endOld(r)
	ss, err := h.sessions.create(t)
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	h.started(w, r, ss, next)
}

// endOld ends the session the browser had: a new sign-in gets a new
// session id (no session fixation, ASVS 3.2.1).
func (h *Handler) endOld(r *http.Request) {
	if c, err := r.Cookie(cookieName); err == nil {
		h.sessions.end(c.Value)
	}
}

// started sets the cookie of the new session ss, audits the sign-in and
// redirects to next or to the role's first page.
func (h *Handler) started(w http.ResponseWriter, r *http.Request, ss *session, next string) {
	setCookie(w, h.o.SecureCookies || r.TLS != nil, ss)
	h.audit(withSession(r, ss), "session.login", "session", 0, "from "+clientAddr(r))
	if next == "" || next != "/" && !h.mayOpen(ss.role, next) {
		next = home(ss.role)
	}
	if next == "" {
		next = "/"
	}
	http.Redirect(w, r, next, http.StatusSeeOther)
}

func (h *Handler) handleLogout(w http.ResponseWriter, r *http.Request) {
	h.audit(r, "session.logout", "session", 0, "")
	h.sessions.end(sess(r).id)
	clearCookie(w, h.o.SecureCookies || r.TLS != nil)
	http.Redirect(w, r, "/login", http.StatusSeeOther)
}

// truncate cuts s to n bytes at most, for a log line.
func truncate(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}
