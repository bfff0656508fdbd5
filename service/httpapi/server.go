package httpapi

import (
	"context"
	"crypto/sha256"
	"errors"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/events"
	"github.com/chipdesk/chipdesk/service/jobs"
	"github.com/chipdesk/chipdesk/service/lookup"
	"github.com/chipdesk/chipdesk/service/permits"
)

// Opts configures a Server. Store and Lookup are required.
type Opts struct {
	// Store holds every record, the tokens and the audit log.
	Store service.Store
	// Lookup resolves chips, tags and animals to the lookup answer and
	// issues licences with the fees and dates of service/rules.
	Lookup *lookup.Service
	// Hub carries scan events to /api/v1/scans/stream; nil disables
	// the stream.
	Hub *events.Hub
	// Scans handles scans posted by handhelds and keyboard-wedge pages
	// (POST /api/v1/scans); nil answers 404 there.
	Scans ScanHandler
	// Web, when set, serves every path outside the API (/api/, /healthz,
	// /metrics) in place of the built-in live scan page.
	Web http.Handler
	// Jobs queues print and engrave jobs and tag batches
	// (/api/v1/licences/{id}/tag, /api/v1/jobs, /api/v1/tag-batches);
	// nil answers 404 there. Runner, when set, is woken when work is
	// queued and reports the devices at /api/v1/devices.
	Jobs   *jobs.Issuer
	Runner *jobs.Runner
	// Permits serves /api/v1/permits, agreements and reports
	// (permits.go); nil answers 404 there.
	Permits *permits.Service
	// Logger receives request errors; nil discards.
	Logger *slog.Logger
	// Registry receives the server's metrics and is served at /metrics;
	// nil makes a fresh one.
	Registry *prometheus.Registry
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// MaxBodyBytes limits request bodies; 0 means DefaultMaxBodyBytes.
	MaxBodyBytes int64
	// TokenCacheTTL is how long an authenticated token is trusted before
	// the store is asked again (a token revoked from another process
	// stops working within this time; one revoked through this server
	// stops at once). 0 means DefaultTokenCacheTTL; negative disables
	// the cache.
	TokenCacheTTL time.Duration
}

// Defaults.
const (
	DefaultMaxBodyBytes  = 1 << 20
	DefaultTokenCacheTTL = 10 * time.Second
)

// ScanHandler resolves a chip read that arrived over HTTP as a scan of a
// named reader: it stores it and publishes it like a scan from a
// connected reader. service/hardware implements it.
type ScanHandler interface {
	HandleText(ctx context.Context, readerName, text, user, site string) (*lookup.ScanEvent, error)
}

// Server is the JSON API. It is an http.Handler.
type Server struct {
	store   service.Store
	lookup  *lookup.Service
	hub     *events.Hub
	scans   ScanHandler
	web     http.Handler
	jobs    *jobs.Issuer
	runner  *jobs.Runner
	permits *permits.Service
	log     *slog.Logger
	now     func() time.Time
	maxBody int64
	ttl     time.Duration

	reg     *prometheus.Registry
	metrics *metrics
	audit   *auditWriter
	mux     *http.ServeMux

	tokMu  sync.Mutex
	tokens map[[32]byte]cachedToken

	jsonBufs sync.Pool // of *jsonBuf
	// jsonType is the Content-Type value of JSON answers, shared by
	// them all (net/http only reads it; Header.Add would copy it).
	jsonType []string
}

type cachedToken struct {
	tok *service.Token
	at  time.Time
}

// New returns a Server. Call Close when done to flush the audit log.
func New(o *Opts) (*Server, error) {
	if o == nil || o.Store == nil || o.Lookup == nil {
		return nil, errors.New("httpapi: Store and Lookup required")
	}
	s := &Server{
		store:   o.Store,
		lookup:  o.Lookup,
		hub:     o.Hub,
		scans:   o.Scans,
		web:     o.Web,
		jobs:    o.Jobs,
		runner:  o.Runner,
		permits: o.Permits,
		log:     o.Logger,
		now:     o.Now,
		maxBody: o.MaxBodyBytes,
		ttl:     o.TokenCacheTTL,
		reg:     o.Registry,
		tokens:  make(map[[32]byte]cachedToken),
	}
	s.jsonBufs.New = newJSONBuf
	s.jsonType = []string{"application/json"}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	if s.now == nil {
		s.now = time.Now
	}
	if s.maxBody <= 0 {
		s.maxBody = DefaultMaxBodyBytes
	}
	if s.ttl == 0 {
		s.ttl = DefaultTokenCacheTTL
	}
	if s.reg == nil {
		s.reg = prometheus.NewRegistry()
	}
	m, err := newMetrics(s.reg, s.hub)
	if err != nil {
		return nil, err
	}
	s.metrics = m
	s.audit = newAuditWriter(s.store, s.log)
	s.mux = http.NewServeMux()
	s.routes()
	return s, nil
}

// Close stops the audit writer after storing every queued event. The
// server must not serve requests after Close.
func (s *Server) Close() error {
	s.audit.close()
	return nil
}

// ServeHTTP implements http.Handler: it recovers from handler panics,
// limits the body, serves the route and records metrics.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	sw := &statusWriter{ResponseWriter: w}
	defer func() {
		if v := recover(); v != nil {
			if v == http.ErrAbortHandler {
				panic(v)
			}
			s.log.Error("httpapi: handler panic", "method", r.Method, "path", r.URL.Path, "panic", v)
			if !sw.wrote {
				s.writeError(sw, r, errors.New("panic"))
			}
		}
		s.metrics.observe(r, sw.status(), time.Since(start))
	}()
	if r.Body != nil && r.Body != http.NoBody {
		// The server gives NoBody to a request without one (a GET):
		// nothing to limit there.
		r.Body = http.MaxBytesReader(sw, r.Body, s.maxBody)
	}
	s.mux.ServeHTTP(sw, r)
}

// authenticate returns the token for secret, from the cache when it was
// checked within the TTL.
func (s *Server) authenticate(ctx context.Context, secret string) (*service.Token, error) {
	if s.ttl < 0 {
		return s.store.Authenticate(ctx, secret)
	}
	var buf [128]byte // secrets are shorter: hashed without an allocation
	h := sha256.Sum256(append(buf[:0], secret...))
	now := s.now()
	s.tokMu.Lock()
	c, ok := s.tokens[h]
	s.tokMu.Unlock()
	if ok && now.Sub(c.at) < s.ttl && c.tok.Usable(now) {
		return c.tok, nil
	}
	t, err := s.store.Authenticate(ctx, secret)
	if err != nil {
		return nil, err
	}
	s.tokMu.Lock()
	if len(s.tokens) > 10000 {
		clear(s.tokens)
	}
	s.tokens[h] = cachedToken{tok: t, at: now}
	s.tokMu.Unlock()
	return t, nil
}

// forgetToken drops a revoked token from the cache.
func (s *Server) forgetToken(id int64) {
	s.tokMu.Lock()
	defer s.tokMu.Unlock()
	for h, c := range s.tokens {
		if c.tok.ID == id {
			delete(s.tokens, h)
		}
	}
}

// statusWriter remembers the status written. It passes Flush through for
// the event stream.
type statusWriter struct {
	http.ResponseWriter
	code  int
	wrote bool
}

func (w *statusWriter) WriteHeader(code int) {
	if !w.wrote {
		w.code, w.wrote = code, true
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if !w.wrote {
		w.code, w.wrote = http.StatusOK, true
	}
	return w.ResponseWriter.Write(b)
}

func (w *statusWriter) status() int {
	if !w.wrote {
		return http.StatusOK
	}
	return w.code
}

// Unwrap lets http.ResponseController reach Flush and deadlines.
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
