package httpapi

import (
	_ "embed"
	"html/template"
	"net/http"

	"github.com/chipdesk/chipdesk/service"
)

// cookieName holds a page's token after /login.
const cookieName = "chipdesk_token"

//go:embed page/index.html
var indexHTML string

var indexTmpl = template.Must(template.New("index").Parse(indexHTML))

type pageData struct {
	SignedIn bool
	Name     string
	Role     service.Role
	Reader   string
	Error    string
}

// handlePage serves the live scan page: a server-rendered page whose
// EventSource shows each scan of the chosen reader as it resolves, with
// a lookup box. The full web interface replaces it later.
func (s *Server) handlePage(w http.ResponseWriter, r *http.Request) {
	d := pageData{Reader: r.URL.Query().Get("reader")}
	if c, err := r.Cookie(cookieName); err == nil {
		if t, err := s.authenticate(r.Context(), c.Value); err == nil {
			d.SignedIn, d.Name, d.Role = true, t.Name, t.Role
		}
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Security-Policy", "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'unsafe-inline'")
	w.Header().Set("Cache-Control", "no-store")
	if err := indexTmpl.Execute(w, d); err != nil {
		s.log.Error("httpapi: page", "err", err)
	}
}

// handleLogin signs a browser in: GET /login?token=SECRET checks the
// token, keeps it in an HttpOnly SameSite=Strict cookie and redirects
// to the page, so the secret leaves the address bar at once.
func (s *Server) handleLogin(w http.ResponseWriter, r *http.Request) {
	secret := r.URL.Query().Get("token")
	t, err := s.authenticate(r.Context(), secret)
	if err != nil || secret == "" {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.WriteHeader(http.StatusUnauthorized)
		_ = indexTmpl.Execute(w, pageData{Error: "That token is not valid."})
		return
	}
	http.SetCookie(w, &http.Cookie{
		Name: cookieName, Value: secret, Path: "/",
		HttpOnly: true, SameSite: http.SameSiteStrictMode, Secure: r.TLS != nil,
	})
	s.logAudit(r.WithContext(withCaller(r.Context(), t)), "session.login", "token", t.ID, "")
	target := "/"
	if rd := r.URL.Query().Get("reader"); rd != "" {
		target = "/?reader=" + template.URLQueryEscaper(rd)
	}
	http.Redirect(w, r, target, http.StatusSeeOther)
}

// handleLogout forgets the page's token.
func (s *Server) handleLogout(w http.ResponseWriter, r *http.Request) {
	http.SetCookie(w, &http.Cookie{Name: cookieName, Value: "", Path: "/", MaxAge: -1, HttpOnly: true, SameSite: http.SameSiteStrictMode})
	http.Redirect(w, r, "/", http.StatusSeeOther)
}
