package httpapi

import (
	"maps"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/chipdesk/chipdesk/service/events"
)

// metrics are the server's Prometheus collectors, registered on the
// registry given in Opts (never the global one).
type metrics struct {
	requests *prometheus.CounterVec
	duration *prometheus.HistogramVec
	lookups  *prometheus.CounterVec

	// The children of the vectors already used, so that a request finds
	// its counters with one map look-up instead of hashing its label
	// values in each vector. The maps are copied on write (a new label
	// pair is rare: routes and codes are few) and read without a lock.
	mu      sync.Mutex // serialises the writers
	routes  atomic.Pointer[map[routeCode]routeMetrics]
	lookupN atomic.Pointer[map[lookupKind]prometheus.Counter]
}

type routeCode struct {
	route string
	code  int
}

// routeMetrics are the children of one route and status code; duration
// is nil for the event stream.
type routeMetrics struct {
	requests prometheus.Counter
	duration prometheus.Observer
}

type lookupKind struct{ by, result string }

func newMetrics(reg *prometheus.Registry, hub *events.Hub) (*metrics, error) {
	m := &metrics{
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "chipdesk_http_requests_total",
			Help: "HTTP requests by route pattern and status code.",
		}, []string{"route", "code"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "chipdesk_http_request_duration_seconds",
			Help:    "HTTP request latency by route pattern (event streams excluded).",
			Buckets: []float64{.0001, .00025, .0005, .001, .0025, .005, .01, .025, .05, .1, .25, 1},
		}, []string{"route"}),
		lookups: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "chipdesk_lookups_total",
			Help: "Lookups by key (chip, tag, animal) and result (found, unknown).",
		}, []string{"by", "result"}),
	}
	cs := []prometheus.Collector{
		m.requests, m.duration, m.lookups,
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
	}
	if hub != nil {
		cs = append(cs, prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "chipdesk_scan_stream_subscribers",
			Help: "Open scan event streams.",
		}, func() float64 { return float64(hub.Subscribers()) }),
			prometheus.NewCounterFunc(prometheus.CounterOpts{
				Name: "chipdesk_scan_events_total",
				Help: "Scan events published.",
			}, func() float64 { return float64(hub.LastID()) }))
	}
	for _, c := range cs {
		if err := reg.Register(c); err != nil {
			return nil, err
		}
	}
	m.routes.Store(&map[routeCode]routeMetrics{})
	m.lookupN.Store(&map[lookupKind]prometheus.Counter{})
	return m, nil
}

// cached returns the value of key in the copy-on-write map at p, making
// it with mk the first time.
func cached[K comparable, V any](mu *sync.Mutex, p *atomic.Pointer[map[K]V], key K, mk func() V) V {
	if v, ok := (*p.Load())[key]; ok {
		return v
	}
	mu.Lock()
	defer mu.Unlock()
	old := *p.Load()
	if v, ok := old[key]; ok {
		return v
	}
	v := mk()
	m := maps.Clone(old)
	m[key] = v
	p.Store(&m)
	return v
}

// observe records one finished request. The route is the matched
// ServeMux pattern, so label values stay few.
func (m *metrics) observe(r *http.Request, code int, d time.Duration) {
	route := r.Pattern
	if route == "" {
		route = "unmatched"
	}
	c := cached(&m.mu, &m.routes, routeCode{route, code}, func() routeMetrics {
		c := routeMetrics{requests: m.requests.WithLabelValues(route, strconv.Itoa(code))}
		if route != streamRoute {
			c.duration = m.duration.WithLabelValues(route)
		}
		return c
	})
	c.requests.Inc()
	if c.duration != nil {
		c.duration.Observe(d.Seconds())
	}
}

// lookup counts one lookup by key (chip, tag, animal) and result (found,
// unknown).
func (m *metrics) lookup(by, result string) {
	cached(&m.mu, &m.lookupN, lookupKind{by, result}, func() prometheus.Counter {
		return m.lookups.WithLabelValues(by, result)
	}).Inc()
}

func (s *Server) metricsHandler() http.Handler {
	return promhttp.HandlerFor(s.reg, promhttp.HandlerOpts{Registry: s.reg})
}
