package offline_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/chipdesk/chipdesk/bench"
	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/offline"
	"github.com/chipdesk/chipdesk/service/store/sqlite"
)

// cpu is the process's CPU time so far (user and system): on a shared
// machine it says more than the wall clock, which waits for the others.
func cpu() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkPull measures a handheld's first pull of a central store of
// $CHIPDESK_SYNC_BENCH_ANIMALS animals (default 10,000; one licence
// each, the bench data set), over HTTP with gzip, and an incremental
// pull after 1,000 changes (animals' colours). It reports the seconds and
// the bytes on the wire of each. Targets at 1,000,000 animals: a first
// pull within 60 s and 100 MB, an incremental one within 2 s.
//
//	CHIPDESK_SYNC_BENCH_ANIMALS=100000 nice -n 10 go test ./service/offline -run '^$' -bench Pull -benchtime 1x
func BenchmarkPull(b *testing.B) {
	n := 10_000
	if v, err := strconv.Atoi(os.Getenv("CHIPDESK_SYNC_BENCH_ANIMALS")); err == nil && v > 0 {
		n = v
	}
	ctx := context.Background()
	dir := b.TempDir()
	ds, err := bench.Generate(&bench.DatasetOpts{Animals: n, Dir: dir})
	if err != nil {
		b.Fatal(err)
	}
	st, err := sqlite.Open(ctx, filepath.Join(dir, "central.db"), &sqlite.Opts{Now: now})
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	if _, err := ds.Import(ctx, st); err != nil {
		b.Fatal(err)
	}
	srv := httptest.NewServer(offline.Handler(&offline.StoreCentral{Store: st}, nil))
	defer srv.Close()
	t0, c0 := time.Now(), cpu()
	cnt := 0
	if _, err := (&offline.StoreCentral{Store: st}).Pull(ctx, "", func(offline.Item) error { cnt++; return nil }); err != nil {
		b.Fatal(err)
	}
	b.Logf("central read of %d records alone: %s (%s CPU)", cnt, time.Since(t0), cpu()-c0)
	b.ResetTimer()
	for i := range b.N {
		r, err := offline.Open(ctx, filepath.Join(dir, fmt.Sprintf("handheld-%d.db", i)), &offline.Opts{Device: "handheld-3", PIN: testPIN, Now: now})
		if err != nil {
			b.Fatal(err)
		}
		c := &offline.HTTPClient{URL: srv.URL, Timeout: 10 * time.Minute}
		t0, c0 := time.Now(), cpu()
		rep, err := offline.Sync(ctx, r, c, nil)
		full, fullCPU := time.Since(t0), cpu()-c0
		if err != nil || rep.Records != n {
			b.Fatalf("first pull = %+v, %v; want %d records", rep, err, n)
		}
		fullBytes := c.Received()
		b.StopTimer()
		for k := range 1000 {
			colour := fmt.Sprintf("colour %d", k)
			if _, err := st.UpdateAnimal(ctx, int64(k*(n/1000)+1), service.AnimalUpdate{Colour: &colour}); err != nil {
				b.Fatal(err)
			}
		}
		b.StartTimer()
		before := c.Received()
		t0, c0 = time.Now(), cpu()
		rep, err = offline.Sync(ctx, r, c, nil)
		inc, incCPU := time.Since(t0), cpu()-c0
		if err != nil || rep.Full || rep.Pulled < 1000 {
			b.Fatalf("incremental pull = %+v, %v; want the 1,000 changed", rep, err)
		}
		b.ReportMetric(full.Seconds(), "first-s")
		b.ReportMetric(fullCPU.Seconds(), "first-cpu-s")
		b.ReportMetric(incCPU.Seconds(), "incr-cpu-s")
		b.ReportMetric(float64(fullBytes)/1e6, "first-MB")
		b.ReportMetric(inc.Seconds(), "incr-s")
		b.ReportMetric(float64(c.Received()-before)/1e6, "incr-MB")
		fi, _ := os.Stat(filepath.Join(dir, fmt.Sprintf("handheld-%d.db", i)))
		b.ReportMetric(float64(fi.Size())/1e6, "replica-MB")
		r.Close()
	}
}
