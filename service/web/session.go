package web

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"net/http"
	"sync"
	"time"

	"github.com/chipdesk/chipdesk/service"
)

// cookieName is the session cookie. It holds only the random session id.
const cookieName = "chipdesk_session"

// session is one signed-in browser. It is kept on the server; the
// browser holds only its id.
type session struct {
	id      string
	csrf    string // synchroniser token for the session's forms
	tokenID int64  // the API token the person signed in with
	name    string
	role    service.Role
	site    string
	expires time.Time
}

// sessions is the server-side session table.
type sessions struct {
	ttl time.Duration
	now func() time.Time

	mu sync.Mutex
	m  map[string]*session
}

func newSessions(ttl time.Duration, now func() time.Time) *sessions {
	return &sessions{ttl: ttl, now: now, m: map[string]*session{}}
}

// randomID returns 256 random bits, URL-safe.
func randomID() (string, error) {
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	return base64.RawURLEncoding.EncodeToString(b[:]), nil
}

// create starts a session for token t.
func (s *sessions) create(t *service.Token) (*session, error) {
	id, err := randomID()
	if err != nil {
		return nil, err
	}
	csrf, err := randomID()
	if err != nil {
		return nil, err
	}
	now := s.now()
	ss := &session{id: id, csrf: csrf, tokenID: t.ID, name: t.Name, role: t.Role, site: t.Site, expires: now.Add(s.ttl)}
	if !t.ExpiresAt.IsZero() && t.ExpiresAt.Before(ss.expires) {
		ss.expires = t.ExpiresAt
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for k, v := range s.m { // drop expired sessions as new ones come
		if !now.Before(v.expires) {
			delete(s.m, k)
		}
	}
	s.m[id] = ss
	return ss, nil
}

// get returns the live session with id, or nil.
func (s *sessions) get(id string) *session {
	s.mu.Lock()
	defer s.mu.Unlock()
	ss := s.m[id]
	if ss == nil {
		return nil
	}
	if !s.now().Before(ss.expires) {
		delete(s.m, id)
		return nil
	}
	return ss
}

// end removes a session.
func (s *sessions) end(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.m, id)
}

// endToken removes every session signed in with token id (revoked).
func (s *sessions) endToken(tokenID int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for k, v := range s.m {
		if v.tokenID == tokenID {
			delete(s.m, k)
		}
	}
}

// checkCSRF reports whether the form's token is the session's.
func (ss *session) checkCSRF(r *http.Request) bool {
	got := r.PostFormValue("csrf")
	return got != "" && subtle.ConstantTimeCompare([]byte(got), []byte(ss.csrf)) == 1
}

// setCookie sends the session cookie: HttpOnly, SameSite=Strict, Secure
// when asked (TLS). It is a browser-session cookie: the expiry is kept
// and enforced on the server, whose clock is the one that counts.
func setCookie(w http.ResponseWriter, secure bool, ss *session) {
	http.SetCookie(w, &http.Cookie{
		Name: cookieName, Value: ss.id, Path: "/",
		HttpOnly: true, Secure: secure, SameSite: http.SameSiteStrictMode,
	})
}

// clearCookie removes the session cookie.
func clearCookie(w http.ResponseWriter, secure bool) {
	http.SetCookie(w, &http.Cookie{
		Name: cookieName, Value: "", Path: "/", MaxAge: -1,
		HttpOnly: true, Secure: secure, SameSite: http.SameSiteStrictMode,
	})
}

// allowed reports whether role may use a page meant for roles; admin may
// use every page.
func allowed(role service.Role, roles []service.Role) bool {
	if role == service.RoleAdmin {
		return true
	}
	for _, r := range roles {
		if r == role {
			return true
		}
	}
	return false
}
