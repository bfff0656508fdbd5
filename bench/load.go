package bench

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"slices"
	"sync"
	"sync/atomic"
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
	// Clients is the number of clients the load ran.
	Clients  int
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

// defaultClients is the number of clients of a load that names none.
const defaultClients = 16

// requestTimeout bounds one request, from writing it to its answer's
// last byte.
const requestTimeout = 30 * time.Second

// Load runs a load against a service and measures every request's
// latency, from writing it to reading the whole answer. It stops early,
// with what it measured, when ctx is done; requests cut short by the end
// of the load are not counted.
//
// Each client is one HTTP/1.1 keep-alive connection with one request in
// flight at a time, the way wrk drives a server: no pipelining, since
// real clients do not pipeline. A client dials again when the server
// closes the connection. The client is lean on purpose (no net/http
// Transport, no allocation per request) because it shares the machine's
// cores with the service it measures.
func Load(ctx context.Context, o *LoadOpts) (*LoadResult, error) {
	return load(ctx, o, requestTimeout)
}

func load(ctx context.Context, o *LoadOpts, timeout time.Duration) (*LoadResult, error) {
	if o == nil || o.URL == "" || o.Path == nil {
		return nil, errors.New("bench: load needs a URL and paths")
	}
	u, err := url.Parse(o.URL)
	if err != nil {
		return nil, fmt.Errorf("bench: load URL: %w", err)
	}
	if u.Scheme != "http" || u.Host == "" || u.User != nil || u.RawQuery != "" || u.Fragment != "" {
		return nil, fmt.Errorf("bench: load URL %q: want http://host[:port][/path]", o.URL)
	}
	addr := u.Host
	if u.Port() == "" {
		addr = net.JoinHostPort(u.Hostname(), "80")
	}
	if err := checkTarget(o.Token); err != nil {
		return nil, errors.New("bench: the token holds a byte not allowed in a header")
	}
	clients := o.Clients
	if clients <= 0 {
		clients = defaultClients
	}
	dur := o.Duration
	if dur <= 0 {
		dur = 10 * time.Second
	}
	lctx, cancel := context.WithTimeout(ctx, dur)
	defer cancel()

	type part struct {
		lat    []time.Duration
		status map[int]int
		first  string
	}
	parts := make([]part, clients)
	var count atomic.Int64
	take := func() bool {
		return o.Requests <= 0 || count.Add(1) <= int64(o.Requests)
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
			k := newKeepAlive(addr, u.Host, u.EscapedPath(), o.Token, timeout)
			defer k.drop()
			stop := context.AfterFunc(lctx, k.abort)
			defer stop()
			for lctx.Err() == nil && take() {
				path := o.Path(rng)
				d, err := k.do(lctx, path)
				if err != nil {
					if lctx.Err() != nil {
						return // the load's time is up: not an error of the service
					}
					p.status[0]++
					p.first = cmp.Or(p.first, err.Error())
					continue
				}
				p.lat = append(p.lat, d)
				p.status[k.resp.Status]++
				if k.resp.Status != http.StatusOK && p.first == "" {
					p.first = fmt.Sprintf("%s: %d %s", pathOnly(path), k.resp.Status, k.resp.Reason)
				}
			}
		}()
	}
	wg.Wait()
	r := &LoadResult{Clients: clients, Elapsed: time.Since(start), Status: map[int]int{}}
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
