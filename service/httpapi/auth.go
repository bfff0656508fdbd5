package httpapi

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"maps"
	"net"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

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

// Header values of every authenticated answer (see require).
var (
	noStore = []string{"no-store"}
	noSniff = []string{"nosniff"}
)

// clientAddr is the address a request came from, the key of the
// per-address limits. Behind a proxy every request shares the proxy's.
func clientAddr(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// require wraps h so that it runs only for a valid token whose role is
// one of roles (admin is always allowed): 401 without a usable token, 403
// for another role. Around h it also:
//   - marks every answer no-store and nosniff (owner data must stay out
//     of caches; OWASP ASVS 8.2.1, 14.4.4);
//   - limits requests with bad tokens per address, and public lookups
//     per token and per address (429 with Retry-After);
//   - refuses a clinic what its site did not issue (scope);
//   - audits every refused answer (401, 403, 429), every read of owner
//     data not audited by its handler (readAudit), and which fields a
//     PATCH changed.
func (s *Server) require(h http.HandlerFunc, roles ...service.Role) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// Shared values, as jsonType: net/http only reads them, and a
		// lookup's answer takes no allocation for them.
		hd := w.Header()
		hd["Cache-Control"] = noStore
		hd["X-Content-Type-Options"] = noSniff
		addr := clientAddr(r)
		if d := s.limits.badToken.RetryAfter(addr); d > 0 {
			s.tooMany(w, r, d, nil)
			return
		}
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
			s.refuse(w, r, nil, service.Errorf(service.EUNAUTHORIZED, "Bearer token required."))
			return
		}
		t, err := s.authenticate(r.Context(), secret)
		if err != nil {
			if service.ErrorCode(err) != service.EINTERNAL {
				s.limits.badToken.Allow(addr)
				err = service.Errorf(service.EUNAUTHORIZED, "Invalid or revoked token.")
				s.refuse(w, r, nil, err)
				return
			}
			s.writeError(w, r, err)
			return
		}
		if t.Role != service.RoleAdmin && !slices.Contains(roles, t.Role) {
			s.refuse(w, r, t, service.Errorf(service.EFORBIDDEN, "The %s role may not do this.", t.Role))
			return
		}
		if t.Role == service.RolePublic && r.Pattern == "GET /api/v1/lookup" {
			key := "token " + strconv.FormatInt(t.ID, 10)
			if !s.limits.lookup.Allow(key) {
				s.tooMany(w, r, s.limits.lookup.RetryAfter(key), t)
				return
			}
			if !s.limits.lookup.Allow(addr) {
				s.tooMany(w, r, s.limits.lookup.RetryAfter(addr), t)
				return
			}
		}
		ctx := withCaller(r.Context(), t)
		if err := s.scope(ctx, r, t); err != nil {
			s.refuse(w, r.WithContext(ctx), t, err)
			return
		}
		if r.Method == http.MethodPatch {
			fields, err := patchFields(r)
			if err != nil {
				s.writeError(w, r, err)
				return
			}
			ctx = context.WithValue(ctx, fieldsKey{}, fields)
		}
		r = r.WithContext(ctx)
		sw, _ := w.(*statusWriter)
		if a, ok := readAudit[r.Pattern]; ok && r.Method == http.MethodGet {
			id, _ := strconv.ParseInt(r.PathValue("id"), 10, 64)
			s.logAudit(r, a.action, a.entity, id, r.URL.RawQuery)
		}
		h(w, r)
		if sw != nil && (sw.status() == http.StatusForbidden || sw.status() == http.StatusUnauthorized) {
			s.logRefused(r, t, sw.status())
		}
	})
}

// refuse answers err (401 or 403) and audits the refusal.
func (s *Server) refuse(w http.ResponseWriter, r *http.Request, t *service.Token, err error) {
	s.writeError(w, r, err)
	s.logRefused(r, t, service.HTTPStatus(service.ErrorCode(err)))
}

// tooMany answers 429 (RFC 6585 section 4) and audits it.
func (s *Server) tooMany(w http.ResponseWriter, r *http.Request, after time.Duration, t *service.Token) {
	w.Header().Set("Retry-After", strconv.Itoa(int(after.Seconds())+1))
	s.writeJSON(w, r, http.StatusTooManyRequests, errorBody{errorDetail{Code: "too_many_requests", Message: "Too many requests; try again later."}})
	s.logRefused(r, t, http.StatusTooManyRequests)
}

// logRefused audits a refused request: who (the token, or "anonymous"
// and the address), what was asked and the status.
func (s *Server) logRefused(r *http.Request, t *service.Token, status int) {
	ev := &service.AuditEvent{At: s.now().UTC(), Actor: "anonymous", Action: "request.refused",
		Detail: strconv.Itoa(status) + " " + r.Method + " " + r.URL.Path + " from " + clientAddr(r)}
	if t != nil {
		ev.Actor, ev.Role, ev.Site, ev.TokenID = t.Name, t.Role, t.Site, t.ID
	}
	s.audit.add(r.Context(), ev, false)
}

// readAudit names the audit action and entity of the reads whose
// handlers do not audit them themselves: every read of owner data, of
// the tokens, the audit log and the metrics is audited (OWASP ASVS
// 7.1.3, 8.3.5).
var readAudit = map[string]struct{ action, entity string }{
	"GET /api/v1/animals/{id}/record":       {"record.view", "animal"},
	"GET /api/v1/scans/stream":              {"scan.subscribe", "scan"},
	"GET /api/v1/scans":                     {"scan.search", "scan"},
	"GET /api/v1/animals/{id}/chips":        {"chip.view", "animal"},
	"GET /api/v1/animals/{id}/vaccinations": {"vaccination.view", "animal"},
	"GET /api/v1/impoundments":              {"impoundment.search", "impoundment"},
	"GET /api/v1/tokens":                    {"token.search", "token"},
	"GET /api/v1/audit":                     {"audit.search", "audit"},
	"GET /metrics":                          {"metrics.view", ""},
	"GET /api/v1/jobs":                      {"job.search", "job"},
	"GET /api/v1/jobs/{id}":                 {"job.view", "job"},
	"GET /api/v1/tag-batches":               {"tag_batch.search", "tag_batch"},
	"GET /api/v1/tag-batches/{id}":          {"tag_batch.view", "tag_batch"},
}

// fieldsKey holds the JSON fields a PATCH names, for its audit entry.
type fieldsKey struct{}

// patchFields reads the body of a PATCH for the names of the fields it
// changes and puts the body back for the handler. A body that is not a
// JSON object is left for the handler to refuse.
func patchFields(r *http.Request) ([]string, error) {
	b, err := io.ReadAll(r.Body)
	if err != nil {
		return nil, err
	}
	r.Body = io.NopCloser(bytes.NewReader(b))
	var m map[string]json.RawMessage
	if json.Unmarshal(b, &m) != nil {
		return nil, nil
	}
	return slices.Sorted(maps.Keys(m)), nil
}

// fieldsOf returns the fields of the request's PATCH, nil for another
// request.
func fieldsOf(ctx context.Context) []string {
	f, _ := ctx.Value(fieldsKey{}).([]string)
	return f
}

// Guard serves h, a door mounted beside the API (the handhelds' sync
// endpoints), behind the API's own guard: 401 without a valid token, 403
// for a role not among roles (admin always allowed), the bad-token limit
// per address (429), no-store and nosniff, and every refusal audited
// with its token, as on every API route.
func (s *Server) Guard(h http.Handler, roles ...service.Role) http.Handler {
	guarded := s.require(h.ServeHTTP, roles...)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		guarded.ServeHTTP(&statusWriter{ResponseWriter: w}, r)
	})
}
