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
	tokenID int64  // the API token the person signed in with, or 0
	userID  int64  // the account the person signed in with, or 0
	name    string
	role    service.Role
	site    string
	expires time.Time
	// seen is the last request; a session idle for the table's idle
	// time ends (OWASP ASVS 3.3.2).
	seen time.Time
	// done is closed when the session ends, which ends its streams.
	done chan struct{}
	// kept is what the next page shows once: notices and a refused
	// form (form.go).
	kept kept
}

// auditTokenID is the TokenID of the session's audit entries.
func (ss *session) auditTokenID() int64 {
	if ss.userID != 0 {
		return (&service.User{ID: ss.userID}).AuditTokenID()
	}
	return ss.tokenID
}

// sessions is the server-side session table.
type sessions struct {
	ttl, idle time.Duration
	now       func() time.Time

	mu sync.Mutex
	m  map[string]*session
}

func newSessions(ttl, idle time.Duration, now func() time.Time) *sessions {
	return &sessions{ttl: ttl, idle: idle, now: now, m: map[string]*session{}}
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
	ss := &session{tokenID: t.ID, name: t.Name, role: t.Role, site: t.Site}
	if err := s.start(ss); err != nil {
		return nil, err
	}
	if !t.ExpiresAt.IsZero() && t.ExpiresAt.Before(ss.expires) {
		ss.expires = t.ExpiresAt
	}
	return ss, nil
}

// createUser starts a session for account u.
func (s *sessions) createUser(u *service.User) (*session, error) {
	ss := &session{userID: u.ID, name: u.Name, role: u.Role, site: u.Site}
	return ss, s.start(ss)
}

// start gives ss its ids and times and stores it.
func (s *sessions) start(ss *session) error {
	var err error
	if ss.id, err = randomID(); err != nil {
		return err
	}
	if ss.csrf, err = randomID(); err != nil {
		return err
	}
	now := s.now()
	ss.expires, ss.seen, ss.done = now.Add(s.ttl), now, make(chan struct{})
	s.mu.Lock()
	defer s.mu.Unlock()
	for k, v := range s.m { // drop ended sessions as new ones come
		if !s.live(v, now) {
			s.drop(k)
		}
	}
	s.m[ss.id] = ss
	return nil
}

// live reports whether ss has neither expired nor idled out at now.
func (s *sessions) live(ss *session, now time.Time) bool {
	return now.Before(ss.expires) && (s.idle <= 0 || now.Sub(ss.seen) < s.idle)
}

// drop removes session id and ends its streams; s.mu is held.
func (s *sessions) drop(id string) {
	if ss := s.m[id]; ss != nil {
		close(ss.done)
		delete(s.m, id)
	}
}

// get returns the live session with id, or nil, and marks it seen.
func (s *sessions) get(id string) *session {
	s.mu.Lock()
	defer s.mu.Unlock()
	ss := s.m[id]
	if ss == nil {
		return nil
	}
	now := s.now()
	if !s.live(ss, now) {
		s.drop(id)
		return nil
	}
	ss.seen = now
	return ss
}

// end removes a session.
func (s *sessions) end(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.drop(id)
}

// endToken removes every session signed in with token id (revoked).
func (s *sessions) endToken(tokenID int64) {
	s.endWhere(func(ss *session) bool { return ss.tokenID == tokenID })
}

// endWhere removes every session for which gone is true.
func (s *sessions) endWhere(gone func(*session) bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for k, v := range s.m {
		if gone(v) {
			s.drop(k)
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
