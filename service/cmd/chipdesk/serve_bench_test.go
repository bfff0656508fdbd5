package main

import (
	"context"
	"flag"
	"log/slog"
	"math/rand/v2"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"github.com/chipdesk/chipdesk/bench"
	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/store/sqlite"
)

var serveBenchAnimals = flag.Int("serve-animals", 20_000, "animals of BenchmarkServeLookup's data set")

// BenchmarkServeLookup drives GET /api/v1/lookup?chip= over loopback
// HTTP against the handler serve wires (openApp: the sync door, the API,
// the token check, the lookup, the rules, the audit writer), on an
// SQLite store of chipdesk bench's data set of -serve-animals animals:
// the whole serve path in one process, so that a CPU profile
// (-cpuprofile) shows where a lookup's time goes, in the product's own
// handler and without a profiling endpoint in it. The load is
// bench.Load's, 16 keep-alive clients, b.N lookups of random chips; the
// profile holds the load generator too, apart under bench.load.
func BenchmarkServeLookup(b *testing.B) {
	ctx := context.Background()
	dir := b.TempDir()
	ds, err := bench.Generate(&bench.DatasetOpts{Animals: *serveBenchAnimals, Dir: dir, On: service.DateIn(time.Now(), time.UTC)})
	if err != nil {
		b.Fatal(err)
	}
	db := filepath.Join(dir, "chipdesk.db")
	st, err := sqlite.Open(ctx, db, nil)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := ds.Import(ctx, st); err != nil {
		b.Fatal(err)
	}
	if err := ds.Mark(ctx, st, time.Now); err != nil {
		b.Fatal(err)
	}
	token, err := st.CreateToken(ctx, &service.Token{Name: "bench", Role: service.RoleIntake})
	if err != nil {
		b.Fatal(err)
	}
	st.Close()
	cfg := defaultConfig()
	cfg.DB = db
	cfg.DevKeys = true
	a, err := openApp(ctx, &cfg, slog.New(slog.DiscardHandler), time.Now)
	if err != nil {
		b.Fatal(err)
	}
	defer a.close()
	srv := httptest.NewServer(a.srv.Handler)
	defer srv.Close()
	path := func(rng *rand.Rand) string { return "/api/v1/lookup?chip=" + ds.Chips[rng.IntN(len(ds.Chips))] }
	b.ResetTimer()
	res, err := bench.Load(ctx, &bench.LoadOpts{URL: srv.URL, Token: token, Clients: 16, Requests: b.N, Seed: 1, Path: path})
	if err != nil {
		b.Fatal(err)
	}
	if res.Errors > 0 {
		b.Fatalf("%d of %d lookups failed: %s", res.Errors, res.Requests, res.FirstError)
	}
}
