package httpapi

import (
	"context"
	"net/http"
	"slices"
	"strings"

	"github.com/chipdesk/chipdesk/service"
)

// caller is the authenticated token of a request.
type callerKey struct{}

func withCaller(ctx context.Context, t *service.Token) context.Context {
	return context.WithValue(ctx, callerKey{}, t)
}

// callerOf returns the token that authenticated the request; nil on
// routes that need none.
func callerOf(ctx context.Context) *service.Token {
	t, _ := ctx.Value(callerKey{}).(*service.Token)
	return t
}

// bearer returns the token in an "Authorization: Bearer TOKEN" header
// (RFC 6750 section 2.1), or "" when there is none.
func bearer(r *http.Request) string {
	h := r.Header.Get("Authorization")
	scheme, tok, ok := strings.Cut(h, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return ""
	}
	return strings.TrimSpace(tok)
}

// require wraps h so that it runs only for a valid token whose role is
// one of roles (admin is always allowed): 401 without a usable token, 403
// for another role.
func (s *Server) require(h http.HandlerFunc, roles ...service.Role) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		secret := bearer(r)
		if secret == "" && (r.Method == http.MethodGet || r.Method == http.MethodHead) {
			// Browsers' EventSource cannot send headers: pages signed in
			// through /login carry the token in a SameSite=Strict cookie,
			// accepted for reads only so it cannot be used for a forged
			// change.
			if c, err := r.Cookie(cookieName); err == nil {
				secret = c.Value
			}
		}
		if secret == "" {
			s.writeError(w, r, service.Errorf(service.EUNAUTHORIZED, "Bearer token required."))
			return
		}
		t, err := s.authenticate(r.Context(), secret)
		if err != nil {
			if service.ErrorCode(err) != service.EINTERNAL {
				err = service.Errorf(service.EUNAUTHORIZED, "Invalid or revoked token.")
			}
			s.writeError(w, r, err)
			return
		}
		if t.Role != service.RoleAdmin && !slices.Contains(roles, t.Role) {
			s.writeError(w, r, service.Errorf(service.EFORBIDDEN, "The %s role may not do this.", t.Role))
			return
		}
		h(w, r.WithContext(withCaller(r.Context(), t)))
	})
}
