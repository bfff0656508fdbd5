package reliability

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/chipdesk/chipdesk/bench"
	"github.com/chipdesk/chipdesk/internal/testtime"
	"github.com/chipdesk/chipdesk/service"
)

// TestLoad100Clients runs 100 concurrent keep-alive clients against
// chipdesk serve for CHIPDESK_LOAD_SECONDS (5 s by default; CI runs the
// 60 s of the promise): lookups by chip and by tag, records and animal
// searches, as the desks make them. No request may fail; the p99 is
// reported.
func TestLoad100Clients(t *testing.T) {
	t.Parallel()
	secs := envInt("CHIPDESK_LOAD_SECONDS", 5)
	f := seed(t, 20000, true)
	s := serve(t, f.db)
	chips := f.ds.Chips
	paths := func(rng *rand.Rand) string {
		switch r := rng.IntN(10); {
		case r < 6:
			return "/api/v1/lookup?chip=" + chips[rng.IntN(len(chips))]
		case r < 8:
			return fmt.Sprintf("/api/v1/animals/%d/record", 1+rng.IntN(f.ds.Animals))
		case r < 9:
			return fmt.Sprintf("/api/v1/animals/%d", 1+rng.IntN(f.ds.Animals))
		default:
			return fmt.Sprintf("/api/v1/animals/%d/chips", 1+rng.IntN(f.ds.Animals))
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Duration(secs)*time.Second+testtime.Scale(time.Minute))
	defer cancel()
	res, err := bench.Load(ctx, &bench.LoadOpts{URL: s.URL, Token: f.tokens[service.RoleOfficer], Clients: 100,
		Duration: time.Duration(secs) * time.Second, Path: paths, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("100 clients for %s: %d requests, %.0f/s, p50 %s, p99 %s, max %s", res.Elapsed.Round(time.Millisecond), res.Requests,
		res.PerSecond(), res.Latency.P50, res.Latency.P99, res.Latency.Max)
	if res.Errors > 0 {
		t.Errorf("%d of %d requests failed (by status %v), first: %s", res.Errors, res.Requests, res.Status, res.FirstError)
	}
	if res.Requests < 100 {
		t.Errorf("%d requests in %s, want the clients busy", res.Requests, res.Elapsed)
	}
	select {
	case <-s.Done():
		t.Fatalf("serve exited under load\n%s", s.Log())
	default:
	}
}
