package bench

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"slices"
	"sync"
	"time"
)

// LoadOpts describe a load: Clients keep-alive HTTP clients, each
// sending one request after the other for Duration (or until Requests
// have been sent, when Requests > 0).
type LoadOpts struct {
	// URL is the service's base URL; Token its bearer token.
	URL, Token string
	// Path returns the path (and query) of the next request of a client,
	// from that client's random source.
	Path func(rng *rand.Rand) string
	// Clients is the number of concurrent clients; 0 means 16.
	Clients int
	// Duration bounds the load in time; 0 means 10 s.
	Duration time.Duration
	// Requests, when positive, bounds the load in count.
	Requests int
	// Seed makes the paths reproducible.
	Seed uint64
}

// LoadResult is what a load measured.
type LoadResult struct {
	Requests int
	// Errors counts transport errors and answers other than 200.
	Errors int
	// Status counts answers by status code (0: transport error).
	Status map[int]int
	// FirstError describes the first error seen.
	FirstError string
	Elapsed    time.Duration
	Latency    Quantiles
}

// PerSecond is the throughput of the load.
func (r *LoadResult) PerSecond() float64 {
	if r.Elapsed <= 0 {
		return 0
	}
	return float64(r.Requests) / r.Elapsed.Seconds()
}

// Quantiles summarise latencies.
type Quantiles struct {
	N             int
	P50, P99, Max time.Duration
}

// quantiles sorts d and summarises it.
func quantiles(d []time.Duration) Quantiles {
	if len(d) == 0 {
		return Quantiles{}
	}
	slices.Sort(d)
	at := func(p float64) time.Duration { return d[min(len(d)-1, int(p*float64(len(d))))] }
	return Quantiles{N: len(d), P50: at(0.50), P99: at(0.99), Max: d[len(d)-1]}
}

// Load runs a load against a service and measures every request's
// latency, from sending it to reading the whole answer. It stops early,
// with what it measured, when ctx is done.
func Load(ctx context.Context, o *LoadOpts) (*LoadResult, error) {
	if o == nil || o.URL == "" || o.Path == nil {
		return nil, errors.New("bench: load needs a URL and paths")
	}
	clients := o.Clients
	if clients <= 0 {
		clients = 16
	}
	dur := o.Duration
	if dur <= 0 {
		dur = 10 * time.Second
	}
	tr := &http.Transport{MaxIdleConnsPerHost: clients, MaxConnsPerHost: clients, DisableCompression: true}
	defer tr.CloseIdleConnections()
	hc := &http.Client{Transport: tr, Timeout: 30 * time.Second}
	lctx, cancel := context.WithTimeout(ctx, dur)
	defer cancel()

	type part struct {
		lat    []time.Duration
		status map[int]int
		first  string
	}
	parts := make([]part, clients)
	var sent sync.Mutex
	count := 0
	take := func() bool {
		if o.Requests <= 0 {
			return true
		}
		sent.Lock()
		defer sent.Unlock()
		if count >= o.Requests {
			return false
		}
		count++
		return true
	}
	start := time.Now()
	var wg sync.WaitGroup
	for c := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p := &parts[c]
			p.status = map[int]int{}
			rng := rand.New(rand.NewPCG(o.Seed, uint64(c)))
			for lctx.Err() == nil && take() {
				req, err := http.NewRequestWithContext(lctx, http.MethodGet, o.URL+o.Path(rng), nil)
				if err != nil {
					p.status[0]++
					p.first = cmp.Or(p.first, err.Error())
					continue
				}
				if o.Token != "" {
					req.Header.Set("Authorization", "Bearer "+o.Token)
				}
				t0 := time.Now()
				resp, err := hc.Do(req)
				if err != nil {
					if lctx.Err() != nil {
						return // the load's time is up: not an error of the service
					}
					p.status[0]++
					p.first = cmp.Or(p.first, err.Error())
					continue
				}
				_, err = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if err != nil && lctx.Err() != nil {
					return
				}
				p.lat = append(p.lat, time.Since(t0))
				p.status[resp.StatusCode]++
				if resp.StatusCode != http.StatusOK {
					p.first = cmp.Or(p.first, fmt.Sprintf("%s: %s", req.URL.Path, resp.Status))
				}
			}
		}()
	}
	wg.Wait()
	r := &LoadResult{Elapsed: time.Since(start), Status: map[int]int{}}
	var all []time.Duration
	for _, p := range parts {
		all = append(all, p.lat...)
		for code, n := range p.status {
			r.Status[code] += n
			r.Requests += n
			if code != http.StatusOK {
				r.Errors += n
			}
		}
		r.FirstError = cmp.Or(r.FirstError, p.first)
	}
	r.Latency = quantiles(all)
	return r, nil
}
