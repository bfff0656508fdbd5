package web

import (
	"net/http"
	"net/url"
	"strings"

	"github.com/chipdesk/chipdesk/service"
)

// Signing in: a person signs in with an API token (service.Token) made
// by an admin on the admin page or with "chipdesk token create". The
// token's name and role become the session's; the secret is checked
// once and not kept. Sessions live on the server (DefaultSessionTTL) and
// end at logout, at expiry, and when the admin revokes the token.

type loginData struct {
	Next string
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

// safeNext keeps a redirect target on this site.
func safeNext(p string) string {
	if !strings.HasPrefix(p, "/") || strings.HasPrefix(p, "//") || strings.HasPrefix(p, "/\\") {
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
	h.signIn(w, r, strings.TrimSpace(r.PostFormValue("token")), next)
}

// signIn checks secret and starts a session, then goes to next, or to
// the role's first page.
func (h *Handler) signIn(w http.ResponseWriter, r *http.Request, secret, next string) {
	t, err := h.o.Store.Authenticate(r.Context(), secret)
	if err != nil || secret == "" {
		if err != nil && service.ErrorCode(err) != service.EUNAUTHORIZED {
			h.o.Logger.Error("web: login", "err", err)
		}
		h.render(w, r, http.StatusUnauthorized, "login", "Sign in", &view{Error: "That token is not valid, or it was revoked or has expired.", Data: loginData{Next: next}})
		return
	}
	if c, err := r.Cookie(cookieName); err == nil {
		h.sessions.end(c.Value) // a new sign-in gets a new session id
	}
	ss, err := h.sessions.create(t)
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	setCookie(w, h.o.SecureCookies || r.TLS != nil, ss)
	if next == "" || next != "/" && !h.mayOpen(t.Role, next) {
		next = home(t.Role)
	}
	if next == "" {
		next = "/"
	}
	http.Redirect(w, r, next, http.StatusSeeOther)
}

func (h *Handler) handleLogout(w http.ResponseWriter, r *http.Request) {
	h.sessions.end(sess(r).id)
	clearCookie(w, h.o.SecureCookies || r.TLS != nil)
	http.Redirect(w, r, "/login", http.StatusSeeOther)
}
