package httpapi

import (
	"context"
	"crypto/sha256"
	"errors"
	"log/slog"
	"net/http"
	"os"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"

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
)

// Opts configures a Server. Store and Lookup are required.
type Opts struct {
	// Store holds every record, the tokens and the audit log.
	Store service.Store
	// Lookup resolves chips, tags and animals to the lookup answer.
	Lookup *lookup.Service
	// Licensing, Custody and Incidents are the application layer that
	// decides every licence sale, impound and incident; nil makes each
	// over Store and Lookup's rules.
	Licensing *licensing.Service
	Custody   *custody.Service
	Incidents *incidents.Service
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
	// nil answers 404 there. Worker, when set, is woken when work is
	// queued and reports the devices at /api/v1/devices.
	Jobs   *jobs.Orders
	Worker *jobs.Worker
	// Money keeps charges and payments (/api/v1/payments, /charges,
	// /reports, /deposits); nil answers 404 there.
	Money *money.Service
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
	// Access knows the revoked tokens and disabled accounts of every
	// process (the database, polled); a cached check, an event stream or
	// a session of what it lists ends within its poll. nil makes one on
	// Store, run until Close.
	Access *access.Watcher
	// Photos, when set, is the folder that keeps the animals'
	// photographs (POST /api/v1/animals/{id}/photo); nil answers 404
	// there.
	Photos *os.Root
	// Limits are the request limits; the zero Config limits nothing,
	// nil means ratelimit.DefaultConfig.
	Limits *ratelimit.Config
	// SiteScoped, for a county with several shelters and officer
	// stations, scopes the intake and officer roles to their token's
	// site (see siteOf): each sees and changes only its own site's
	// custody records and scans.
	SiteScoped bool
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
	lic     *licensing.Service
	custody *custody.Service
	inc     *incidents.Service
	hub     *events.Hub
	scans   ScanHandler
	web     http.Handler
	jobs    *jobs.Orders
	worker  *jobs.Worker
	money   *money.Service
	permits *permits.Service
	log     *slog.Logger
	now     func() time.Time
	maxBody int64
	ttl     time.Duration

	reg     *prometheus.Registry
	metrics *metrics
	audit   *auditWriter
	mux     *http.ServeMux

	photos     *os.Root
	access     *access.Watcher
	stopAccess context.CancelFunc
	siteScoped bool
	limits     limiters

	tokMu  sync.Mutex
	tokens map[[32]byte]cachedToken

	jsonBufs sync.Pool // of *jsonBuf
	// jsonType is the Content-Type value of JSON answers, shared by
	// them all (net/http only reads it; Header.Add would copy it).
	jsonType []string
}

// layer takes the application layer from o, making the parts not given
// over the store and the lookup's jurisdiction rules.
func (s *Server) layer(o *Opts) (err error) {
	s.lic, s.custody, s.inc = o.Licensing, o.Custody, o.Incidents
	if s.lic == nil {
		if s.lic, err = licensing.New(&licensing.Opts{Store: o.Store, Rules: o.Lookup.Rules(), Now: o.Now}); err != nil {
			return err
		}
	}
	if s.custody == nil {
		if s.custody, err = custody.New(&custody.Opts{Store: o.Store, Rules: o.Lookup.Rules(), Money: o.Money, Now: o.Now}); err != nil {
			return err
		}
	}
	if s.inc == nil {
		s.inc, err = incidents.New(&incidents.Opts{Store: o.Store, Rules: o.Lookup.Rules(), Jurisdiction: o.Lookup.Home(), Now: o.Now})
	}
	return err
}

// limiters are the request limits of Opts.Limits.
type limiters struct {
	badToken, lookup *ratelimit.Limiter
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
		worker:  o.Worker,
		money:   o.Money,
		permits: o.Permits,
		log:     o.Logger,
		now:     o.Now,
		maxBody: o.MaxBodyBytes,
		ttl:     o.TokenCacheTTL,
		reg:     o.Registry,
		tokens:  make(map[[32]byte]cachedToken),
	}
	if err := s.layer(o); err != nil {
		return nil, err
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
	lc := ratelimit.DefaultConfig()
	if o.Limits != nil {
		lc = *o.Limits
	}
	s.limits = limiters{badToken: ratelimit.New(lc.BadToken, s.now), lookup: ratelimit.New(lc.PublicLookup, s.now)}
	s.access = o.Access
	s.photos = o.Photos
	s.siteScoped = o.SiteScoped
	if s.access == nil {
		users, _ := s.store.(service.UserService)
		s.access = access.NewWatcher(&access.WatchOpts{Tokens: s.store, Users: users, Logger: s.log})
		ctx, cancel := context.WithCancel(context.Background())
		s.stopAccess = cancel
		go s.access.Run(ctx)
	}
	s.audit = newAuditWriter(s.store, s.log)
	s.mux = http.NewServeMux()
	s.routes()
	return s, nil
}

// Close stops the audit writer after storing every queued event. The
// server must not serve requests after Close.
func (s *Server) Close() error {
	if s.stopAccess != nil {
		s.stopAccess()
	}
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
		t, err := s.store.Authenticate(ctx, secret)
		if err == nil && s.access.TokenRevoked(t.ID) {
			// The database read may be a replica's, behind the revocation.
			return nil, service.Errorf(service.EUNAUTHORIZED, "Token revoked.")
		}
		return t, err
	}
	var buf [128]byte // secrets are shorter: hashed without an allocation
	h := sha256.Sum256(append(buf[:0], secret...))
	now := s.now()
	s.tokMu.Lock()
	c, ok := s.tokens[h]
	s.tokMu.Unlock()
	if ok && now.Sub(c.at) < s.ttl && c.tok.Usable(now) && !s.access.TokenRevoked(c.tok.ID) {
		return c.tok, nil
	}
	t, err := s.store.Authenticate(ctx, secret)
	if err != nil {
		return nil, err
	}
	if s.access.TokenRevoked(t.ID) {
		return nil, service.Errorf(service.EUNAUTHORIZED, "Token revoked.")
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
