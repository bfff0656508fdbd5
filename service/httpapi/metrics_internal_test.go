package httpapi

import (
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// TestMetricsCounted checks that the cached children count each route,
// code and lookup kind apart, from concurrent requests.
func TestMetricsCounted(t *testing.T) {
	t.Parallel()
	reg := prometheus.NewRegistry()
	m, err := newMetrics(reg, nil)
	if err != nil {
		t.Fatal(err)
	}
	reqs := []struct {
		pattern string
		code    int
		n       int
	}{
		{"GET /api/v1/lookup", 200, 30},
		{"GET /api/v1/lookup", 404, 3},
		{"", 404, 2},
		{streamRoute, 200, 1},
	}
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for _, q := range reqs {
				for range q.n {
					m.observe(&http.Request{Pattern: q.pattern}, q.code, time.Millisecond)
				}
			}
			m.lookup("chip", "found")
			m.lookup("tag", "unknown")
		})
	}
	wg.Wait()
	fams, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]float64{}
	for _, f := range fams {
		for _, mt := range f.GetMetric() {
			var labels []string
			for _, l := range mt.GetLabel() {
				labels = append(labels, l.GetName()+"="+l.GetValue())
			}
			key := f.GetName() + "{" + strings.Join(labels, ",") + "}"
			switch {
			case mt.GetCounter() != nil:
				got[key] = mt.GetCounter().GetValue()
			case mt.GetHistogram() != nil:
				got[key] = float64(mt.GetHistogram().GetSampleCount())
			}
		}
	}
	// The stream's latency is not observed: its requests last as long
	// as the client stays.
	want := map[string]float64{
		"chipdesk_http_requests_total{code=200,route=GET /api/v1/lookup}":       120,
		"chipdesk_http_requests_total{code=404,route=GET /api/v1/lookup}":       12,
		"chipdesk_http_requests_total{code=404,route=unmatched}":                8,
		"chipdesk_http_requests_total{code=200,route=GET /api/v1/scans/stream}": 4,
		"chipdesk_http_request_duration_seconds{route=GET /api/v1/lookup}":      132,
		"chipdesk_http_request_duration_seconds{route=unmatched}":               8,
		"chipdesk_lookups_total{by=chip,result=found}":                          4,
		"chipdesk_lookups_total{by=tag,result=unknown}":                         4,
	}
	for k, v := range got {
		if strings.HasPrefix(k, "chipdesk_") && want[k] != v {
			t.Errorf("%s = %v, want %v", k, v, want[k])
		}
	}
	for k, v := range want {
		if _, ok := got[k]; !ok {
			t.Errorf("%s missing, want %v", k, v)
		}
	}
}

// BenchmarkMetricsObserve measures what the metrics cost a lookup: the
// request counter and latency histogram of its route, and the lookup
// counter.
func BenchmarkMetricsObserve(b *testing.B) {
	m, err := newMetrics(prometheus.NewRegistry(), nil)
	if err != nil {
		b.Fatal(err)
	}
	r := &http.Request{Pattern: "GET /api/v1/lookup"}
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			m.observe(r, http.StatusOK, 300*time.Microsecond)
			m.lookup("chip", "found")
		}
	})
}
