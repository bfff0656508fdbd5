package web

import (
	"net/http"
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
	h.render(w, r, http.StatusOK, "login", "Sign in", &view{Data: loginData{Next: safeNext(r.URL.Query().Get("next"))}})
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
	secret := strings.TrimSpace(r.PostFormValue("token"))
	t, err := h.o.Store.Authenticate(r.Context(), secret)
	if err != nil || secret == "" {
		if err != nil && service.ErrorCode(err) != service.EUNAUTHORIZED {
			h.o.Logger.Error("web: login", "err", err)
		}
		h.render(w, r, http.StatusUnauthorized, "login", "Sign in", &view{Error: "That token is not valid, or it was revoked or has expired.", Data: loginData{Next: next}})
		return
	}
	ss, err := h.sessions.create(t)
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	setCookie(w, h.o.SecureCookies || r.TLS != nil, ss)
	if next == "" {
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
