package httpapi

import (
	"net/http"
	"strconv"
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
}

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
	return m, nil
}

// observe records one finished request. The route is the matched
// ServeMux pattern, so label values stay few.
func (m *metrics) observe(r *http.Request, code int, d time.Duration) {
	route := r.Pattern
	if route == "" {
		route = "unmatched"
	}
	m.requests.WithLabelValues(route, strconv.Itoa(code)).Inc()
	if route != streamRoute {
		m.duration.WithLabelValues(route).Observe(d.Seconds())
	}
}

func (s *Server) metricsHandler() http.Handler {
	return promhttp.HandlerFor(s.reg, promhttp.HandlerOpts{Registry: s.reg})
}
